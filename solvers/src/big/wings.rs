//! The wings of an N-cube paired orbit by orbit with the representatives'
//! (the first half of the reduction; [`super::reducer`] places the centres).

use super::*;

impl Reducer {
    /// The depth of a wing orbit (its distance from the nearer edge end).
    pub(super) fn wing_depth(&self, w: &[[usize; 2]]) -> usize {
        let n = self.n;
        let (r, c) = ((w[0][0] / n) % n, w[0][0] % n);
        depth(if r == 0 || r == n - 1 { c } else { r }, n)
    }

    /// Pairs every wing orbit with its representatives', innermost first:
    /// while the centres are still to do, turning the outer layers down to
    /// the orbit's own is free.
    pub(super) fn pair_all_wings(
        &self,
        state: &mut [u8],
        hard: Hard,
    ) -> Result<Vec<Move>, SolveError> {
        let rep_depth = self.n / 2 - 1;
        let mut wings: Vec<&Vec<[usize; 2]>> = self
            .orbits
            .wings
            .iter()
            .filter(|w| self.wing_depth(w) != rep_depth)
            .collect();
        wings.sort_by_key(|w| std::cmp::Reverse(self.wing_depth(w)));
        let mut moves = Vec::new();
        for w in wings {
            moves.extend(self.pair_wings(state, w, hard)?);
        }
        Ok(moves)
    }

    /// Pairs one wing orbit (depth `a`) with the representatives', greedily:
    /// each step takes the sequence of up to three free turns (the faces,
    /// and the blocks `(a+1)Rw` that end at the orbit's layer: they move
    /// only unfinished wing orbits, the centres and whole edges) or the wing
    /// 3-cycle that pairs the most wings per move.
    pub(super) fn pair_wings(
        &self,
        state: &mut [u8],
        units: &[[usize; 2]],
        hard: Hard,
    ) -> Result<Vec<Move>, SolveError> {
        let n = self.n;
        let a = self.wing_depth(units);
        // Local indices: the orbit's facelets, then their representatives'.
        let mut facelets: Vec<usize> = units.iter().flat_map(|u| u.iter().copied()).collect();
        let k = facelets.len();
        let reps: Vec<usize> = facelets
            .iter()
            .map(|&f| {
                let (face, r, c) = (f / (n * n), (f / n) % n, f % n);
                (face * n + self.rep(r)) * n + self.rep(c)
            })
            .collect();
        facelets.extend(&reps);
        let mut local = vec![u32::MAX; self.cube.facelets()];
        for (i, &f) in facelets.iter().enumerate() {
            local[f] = i as u32;
        }
        let free: Vec<Move> = Face::ALL
            .iter()
            .flat_map(|&f| {
                (1..=3u8).flat_map(move |t| [Move::face(f, t), Move::block(f, a as u8 + 1, t)])
            })
            .collect();
        // Each free move as "local index j takes its sticker from src[j]",
        // on a list of facelets that the free moves keep to themselves.
        let on = |list: &[usize], at: &[u32], what: &str| -> Result<Vec<Vec<u32>>, SolveError> {
            let perms: Vec<Vec<u32>> = free
                .iter()
                .map(|&m| {
                    let p = self.cube.perm(m);
                    list.iter().map(|&f| at[p[f] as usize]).collect()
                })
                .collect();
            if perms.iter().any(|p| p.contains(&u32::MAX)) {
                return Err(SolveError::Internal(format!(
                    "a free turn leaves the {what}"
                )));
            }
            Ok(perms)
        };
        let perms = on(&facelets, &local, "wings")?;
        let lay = self.layout(units[0][0], true);
        let lead = marks(self.cube.facelets(), units.iter().map(|u| u[0]));
        // Cycles set up by a turn of the small cube (kept); when those run
        // out, by up to two free turns (the blocks too: the wing phase may
        // move the centres).
        let wide: Vec<Setup> = {
            // None, then one free turn, then two; kept when only faces.
            sequences(&free)
                .into_iter()
                .map(|q| {
                    let faces = q.iter().all(|m| m.kind == MoveKind::Block(1));
                    setup(&self.cube, q, faces)
                })
                .collect()
        };
        let tiers = [1 + free.len(), wide.len()];
        let mut setups: &[Setup] = &self.small_setups[..self.small_one_turn];
        // The orbit's cycles behind the given setups, in local indices.
        let cycles_with = |setups: &[Setup]| -> Vec<LocalCycle> {
            self.candidates(&facelets[..k], &lay, &lead, setups)
                .into_iter()
                .map(|c| {
                    let pairs = c
                        .pairs()
                        .iter()
                        .map(|&(f, t)| (local[f as usize], local[t as usize]))
                        .collect();
                    (pairs, c.cost, c)
                })
                .collect()
        };
        let mut cycles = cycles_with(setups);
        let mut s: Vec<u8> = facelets.iter().map(|&f| state[f]).collect();
        // Wings paired: local unit u is facelets 2u, 2u+1, its reps k+2u, k+2u+1.
        let paired = |s: &[u8]| -> usize {
            (0..k / 2)
                .filter(|&u| s[2 * u] == s[k + 2 * u] && s[2 * u + 1] == s[k + 2 * u + 1])
                .count()
        };
        let mut moves = Vec::new();
        // Wing 3-cycles are even, and so is every free sequence with an even
        // number of block quarter turns: an odd orbit first gets one.
        let odd = |s: &[u8]| -> bool {
            let want: Vec<(u8, u8)> = (0..k / 2)
                .map(|u| (s[k + 2 * u], s[k + 2 * u + 1]))
                .collect();
            let perm: Vec<u8> = (0..k / 2)
                .map(|u| {
                    let have = (s[2 * u], s[2 * u + 1]);
                    want.iter().position(|&x| x == have).unwrap_or(0) as u8
                })
                .collect();
            tablegen::perm::is_odd(&perm)
        };
        let quarter = |mi: usize| free[mi].kind != MoveKind::Block(1) && free[mi].turns != 2;
        if odd(&s) {
            let mi = (0..free.len())
                .find(|&mi| quarter(mi))
                .ok_or_else(|| SolveError::Internal("no block turn".into()))?;
            s = perms[mi].iter().map(|&j| s[j as usize]).collect();
            self.cube.apply(state, free[mi]);
            moves.push(free[mi]);
        }
        // `same[m][m']`: turns of the same layers (never two in a row).
        let same: Vec<Vec<bool>> = free
            .iter()
            .map(|x| {
                free.iter()
                    .map(|y| (x.face, x.kind) == (y.face, y.kind))
                    .collect()
            })
            .collect();
        // A beam search over the free turns first, to where pairing the
        // rest by the greedy steps below looks cheapest.
        {
            // Whether a turn changes the parity of the wings against their
            // representatives (of the permutation of each, as units).
            let flips: Vec<bool> = perms
                .iter()
                .map(|p| {
                    let of = |base: usize| -> Vec<u8> {
                        (0..k / 2)
                            .map(|u| ((p[base + 2 * u] as usize - base) / 2) as u8)
                            .collect()
                    };
                    tablegen::perm::is_odd(&of(0)) ^ tablegen::perm::is_odd(&of(k))
                })
                .collect();
            // The centre facelets this orbit's free turns place for good
            // (a row or column at the orbit's depth, none nearer the edge:
            // the later orbits' turns move those), with their
            // representatives, so the beam can prefer ends with more of
            // them placed. Faces turn a facelet and its representative
            // alike, so no other centre facelet changes.
            let n = self.n;
            let inner = |x: usize| (1..n - 1).contains(&x);
            let mut centre: Vec<usize> = Vec::new();
            let mut cl = vec![u32::MAX; self.cube.facelets()];
            let mut cpairs: Vec<(u32, u32)> = Vec::new();
            let mut at = |f: usize, centre: &mut Vec<usize>| -> u32 {
                if cl[f] == u32::MAX {
                    cl[f] = centre.len() as u32;
                    centre.push(f);
                }
                cl[f]
            };
            for f in 0..self.cube.facelets() {
                let (face, r, c) = (f / (n * n), (f / n) % n, f % n);
                if inner(r) && inner(c) && depth(r, n).min(depth(c, n)) == a {
                    let rf = (face * n + self.rep(r)) * n + self.rep(c);
                    let pair = (at(f, &mut centre), at(rf, &mut centre));
                    cpairs.push(pair);
                }
            }
            let cperms = on(&centre, &cl, "centres")?;
            let cstart: Vec<u8> = centre.iter().map(|&f| state[f]).collect();
            let centres = Centres {
                perms: &cperms,
                pairs: &cpairs,
                start: &cstart,
            };
            for mi in wing_beam(&s, &perms, &same, &flips, k, &centres) {
                s = perms[mi].iter().map(|&j| s[j as usize]).collect();
                self.cube.apply(state, free[mi]);
                moves.push(free[mi]);
            }
        }
        let mut tier = 0;
        let mut stuck = 0usize;
        let mut scratch = s.clone();
        for _ in 0..40 * units.len() {
            let now = paired(&s);
            if now == k / 2 {
                return Ok(moves);
            }
            hard.check("wings")?;
            // (gain, cost, sequence of free moves or a cycle)
            let mut best: Option<(usize, usize, Result<Vec<usize>, usize>)> = None;
            let mut consider = |gain: usize, cost: usize, what: Result<Vec<usize>, usize>| {
                if gain > 0 && best.as_ref().is_none_or(|(g, c, _)| gain * c > g * cost) {
                    best = Some((gain, cost, what));
                }
            };
            // Free sequences of one to three turns, as a depth-first walk.
            let mut stack: Vec<(Vec<usize>, Vec<u8>)> = vec![(Vec::new(), s.clone())];
            while let Some((seq, st)) = stack.pop() {
                let even = seq.iter().filter(|&&mi| quarter(mi)).count() % 2 == 0;
                if !seq.is_empty() && even {
                    let got = paired(&st);
                    if got > now {
                        consider(got - now, seq.len(), Ok(seq.clone()));
                    }
                }
                if seq.len() == 3 {
                    continue;
                }
                for (mi, p) in perms.iter().enumerate() {
                    if seq.last().is_some_and(|&last| same[last][mi]) {
                        continue;
                    }
                    let next: Vec<u8> = p.iter().map(|&j| st[j as usize]).collect();
                    let mut q = seq.clone();
                    q.push(mi);
                    stack.push((q, next));
                }
            }
            for (i, (pairs, cost, _)) in cycles.iter().enumerate() {
                scratch.copy_from_slice(&s);
                for &(f, t) in pairs {
                    scratch[t as usize] = s[f as usize];
                }
                let got = paired(&scratch);
                if got > now {
                    consider(got - now, *cost as usize, Err(i));
                }
            }
            match best {
                Some((_, _, Ok(seq))) => {
                    for mi in seq {
                        s = perms[mi].iter().map(|&j| s[j as usize]).collect();
                        self.cube.apply(state, free[mi]);
                        moves.push(free[mi]);
                    }
                }
                Some((_, _, Err(i))) => {
                    let seq = self.cand_moves(&cycles[i].2, &lay, setups);
                    self.cube.apply_alg(state, &seq);
                    moves.extend(seq);
                    s = facelets.iter().map(|&f| state[f]).collect();
                }
                None if tier < tiers.len() => {
                    // Cycles set up by one free turn, then by two.
                    setups = &wide[..tiers[tier]];
                    tier += 1;
                    cycles = cycles_with(setups);
                }
                None => {
                    // The cycle needed is not among ours at these places:
                    // a free turn moves the unpaired wings to others.
                    stuck += 1;
                    if stuck > 24 {
                        return Err(SolveError::Internal(
                            "no sequence pairs another wing".into(),
                        ));
                    }
                    // A face turn or a block half turn: the block's brings
                    // wings of the far ends to the near ones.
                    let even: Vec<usize> = (0..free.len()).filter(|&mi| !quarter(mi)).collect();
                    let mi = even[(stuck * 7 + 3) % even.len()];
                    s = perms[mi].iter().map(|&j| s[j as usize]).collect();
                    self.cube.apply(state, free[mi]);
                    moves.push(free[mi]);
                }
            }
        }
        Err(SolveError::Internal("a wing orbit did not pair".into()))
    }
}
