//! The block search: the greedy steps that make every block of the
//! nested route one colour, each over the cycles of every orbit at once,
//! with the look-ahead and the assignment of colours to blocks once no
//! cycle adds to a commonest colour.

use super::*;

impl Nested {
    /// Each block's colour counts.
    pub(super) fn counts(&self, state: &[u8]) -> Vec<[u8; COLOURS]> {
        let mut h = vec![[0u8; COLOURS]; self.blocks];
        for (i, &b) in self.block.iter().enumerate() {
            if b != u32::MAX {
                h[b as usize][state[i] as usize] += 1;
            }
        }
        h
    }

    /// Makes every block one colour; returns the moves and updates
    /// `state`. Greedy, over the cycles of every orbit of the blocks at
    /// once: each step the cycle that adds the most facelets to their
    /// block's commonest colour per move; when none adds one, a cheap
    /// cycle that moves a facelet of an unfinished block and takes as many
    /// away as it adds (picked at random among those, seeded: the same
    /// state gives the same moves). Once no cycle adds a facelet to a
    /// commonest colour (often every block near one colour, but more
    /// blocks wanting a colour than it has), the blocks are given colours,
    /// 4 to a colour, as many facelets in place as can be ([`assignment`],
    /// made anew each step), and the search goes on counting facelets
    /// against those. `None`: the search stalled (no cycle adds a facelet
    /// even against an assignment, or too many steps).
    pub(super) fn make_blocks(
        &self,
        state: &mut [u8],
        hard: Hard,
    ) -> Result<Option<Vec<Move>>, SolveError> {
        let mut moves = Vec::new();
        // Blocks already whole need none of the level's cycles (which may
        // still be being made).
        if self.blocks_done(state) {
            return Ok(Some(moves));
        }
        let h = self.cycles()?;
        let look = self.look;
        let fresh = || Pick {
            keep: look,
            ..Pick::default()
        };
        let mut pick = fresh();
        let mut assign = false;
        // The next step, where the look-ahead has made it already.
        let mut ahead: Option<Ahead> = None;
        for _ in 0..20 * self.blocks * self.size as usize {
            hard.check("blocks")?;
            let (missing, choice) = match ahead.take() {
                Some(a) => {
                    (pick.top, pick.idle) = (a.top, 0);
                    (a.missing, a.choice)
                }
                None => self.step(h, state, &mut pick, assign),
            };
            if missing == 0 {
                return Ok(Some(moves));
            }
            // No cycle adds a facelet to a commonest colour: from here on
            // against an assignment (where a cycle adds again).
            if !assign && (choice.is_none() || pick.idle > 0) {
                assign = true;
                pick = fresh();
                continue;
            }
            let Some(mut i) = choice else {
                return Ok(None);
            };
            let top = std::mem::take(&mut pick.top);
            if top.len() > 1 {
                (i, ahead) = self.look_ahead(h, state, &top, assign);
            }
            let seq = self.cand_moves(h, i);
            self.r.cube.apply_alg(state, &seq);
            moves.extend(seq);
        }
        Ok(None)
    }

    /// Of a step's best moves `top` (gain, cost, index, rank; best first),
    /// the one that, with the best move after it, places the most facelets
    /// per move; one that makes every block at once is taken, and of two
    /// as good the earlier in `top`. With it, the step after it where that
    /// found a move that adds (a stalled step picks at random, and is made
    /// again).
    pub(super) fn look_ahead(
        &self,
        h: &Cycles,
        state: &[u8],
        top: &[(u32, u32, usize, usize)],
        assign: bool,
    ) -> (usize, Option<Ahead>) {
        let mut best: Option<(u32, u32, usize, Option<Ahead>)> = None;
        for &(g, c, i, _) in top {
            let mut s = state.to_vec();
            self.r.cube.apply_alg(&mut s, &self.cand_moves(h, i));
            let mut next = Pick {
                keep: self.look,
                ..Pick::default()
            };
            let (missing, choice) = self.step(h, &s, &mut next, assign);
            let ahead = (missing == 0 || next.last.is_some()).then(|| Ahead {
                missing,
                choice,
                top: std::mem::take(&mut next.top),
            });
            if missing == 0 {
                return (i, ahead);
            }
            let (g2, c2) = next.last.map_or((0, 0), |(g2, c2, _)| (g2, c2));
            let (tg, tc) = (g + g2, c + c2);
            if best
                .as_ref()
                .is_none_or(|&(bg, bc, _, _)| tg * bc > bg * tc)
            {
                best = Some((tg, tc, i, ahead));
            }
        }
        best.map_or((top[0].2, None), |b| (b.2, b.3))
    }

    /// One step of [`Nested::make_blocks`] from `state`: the facelets
    /// still to add to the blocks (to their commonest colours, or with
    /// `assign` to the colours [`assignment`] gives them), and the cycle to
    /// take (none: stalled).
    pub(super) fn step(
        &self,
        h: &Cycles,
        state: &[u8],
        pick: &mut Pick,
        assign: bool,
    ) -> (u32, Option<usize>) {
        let size = self.size;
        let counts = self.counts(state);
        let want = if assign {
            assignment(&counts)
        } else {
            Vec::new()
        };
        // What each block holds of its colour.
        let top: Vec<u8> = if assign {
            counts
                .iter()
                .zip(&want)
                .map(|(h, &c)| h[c as usize])
                .collect()
        } else {
            counts.iter().map(top_of).collect()
        };
        let missing: u32 = top.iter().map(|&t| u32::from(size - t)).sum();
        if missing == 0 {
            return (0, None);
        }
        // What colour `c` at facelet `t` adds to its block (where no
        // other facelet of that block moves; against an assignment, the
        // facelets count one by one).
        let mut adds = vec![[0i8; COLOURS]; self.block.len()];
        for (t, &b) in self.block.iter().enumerate() {
            if b == u32::MAX {
                continue;
            }
            if assign {
                let w = want[b as usize];
                for (c, a) in adds[t].iter_mut().enumerate() {
                    *a = i8::from(c as u8 == w) - i8::from(state[t] == w);
                }
            } else {
                let mut h = counts[b as usize];
                h[state[t] as usize] -= 1;
                for c in 0..COLOURS {
                    h[c] += 1;
                    adds[t][c] = top_of(&h) as i8 - top[b as usize] as i8;
                    h[c] -= 1;
                }
            }
        }
        // Only a move that moves a facelet into an unfinished block can
        // add to it (or be taken when none adds).
        let open: u32 = (top.iter().enumerate())
            .filter(|&(_, &t)| t < size)
            .fold(0, |m, (b, _)| m | 1 << b);
        // The free moves first (their indices follow the cycles'). Of two
        // moves placing as much per move, the one seen first here is
        // taken: the free moves in order, then the cycles by index.
        let free = h.free.len();
        for (k, f) in h.free.iter().enumerate() {
            if f.mask & open == 0 {
                continue;
            }
            let (bstart, bend) = (f.bstart as usize, (f.bstart + f.blen) as usize);
            let (blocks, into) = (&h.free_blocks[bstart..bend], &h.free_into[bstart..bend]);
            // What it adds is at most, over its blocks, the facelets it
            // moves into each or those the block lacks, the fewer; block
            // by block, what it adds to those seen and that to the rest.
            let most = |b: u8, k: u8| i32::from((size - top[b as usize]).min(k));
            let mut rest: i32 = blocks.iter().zip(into).map(|(&b, &k)| most(b, k)).sum();
            let need = need_for(pick.bound(), f.cost);
            if rest < need {
                continue;
            }
            // Its pairs come block by block.
            let mut pairs = &h.free_pairs[f.start as usize..(f.start + f.len) as usize];
            let mut gain = 0;
            for (&b, &k) in blocks.iter().zip(into) {
                let (these, others) = pairs.split_at(k as usize);
                pairs = others;
                gain += if assign {
                    (these.iter())
                        .map(|&[from, t]| {
                            i32::from(adds[t as usize][state[from as usize] as usize])
                        })
                        .sum::<i32>()
                } else {
                    let mut h = counts[b as usize];
                    for &[from, t] in these {
                        h[state[t as usize] as usize] -= 1;
                        h[state[from as usize] as usize] += 1;
                    }
                    i32::from(top_of(&h)) - i32::from(top[b as usize])
                };
                rest -= most(b, k);
                if gain + rest < need {
                    break;
                }
            }
            if gain + rest >= need {
                pick.consider_at(h.cycles + k, k, gain, f.cost);
            }
        }
        // No cycle places more per move than its facelets over its cost:
        // where a free move does as well, the cycles need no look.
        if pick
            .bound()
            .is_some_and(|(g, c)| g * h.cycle_best.1 >= h.cycle_best.0 * c)
        {
            return (missing, pick.choose());
        }
        // Each orbit's cycles come in runs, most facelets per move first,
        // so that the scan of an orbit ends at the first run that could not
        // place more per move than the best so far (a cycle adds at most a
        // facelet for each it moves), and skips a run whose blocks lack too
        // few facelets for that.
        let mut offset = 0;
        for g in &h.groups {
            for b in &g.buckets {
                let cost = u32::from(b.cost);
                // What a cycle of this cost must add to count.
                let mut need = need_for(pick.bound(), cost);
                if i32::from(b.len) < need {
                    break;
                }
                let mut m = b.mask & open;
                if m == 0 {
                    continue;
                }
                let mut most = 0;
                while m != 0 {
                    let k = m.trailing_zeros() as usize;
                    most += i32::from((size - top[k]).min(b.most));
                    m &= m - 1;
                }
                if most.min(i32::from(b.len)) < need {
                    continue;
                }
                for c in &g.scan[b.start as usize..b.end as usize] {
                    let pairs = &c.pairs[..b.len as usize];
                    let gain = if b.distinct || assign {
                        // Each facelet adds at most one: it stops once the
                        // rest could not make up what it needs.
                        let (mut gain, mut rest) = (0, i32::from(b.len));
                        for &[f, t] in pairs {
                            gain += i32::from(adds[t as usize][state[f as usize] as usize]);
                            rest -= 1;
                            if gain + rest < need {
                                break;
                            }
                        }
                        if gain + rest < need {
                            continue;
                        }
                        gain
                    } else {
                        self.gain(&counts, &top, pairs, state)
                    };
                    let index = offset + c.index as usize;
                    pick.consider_at(index, free + index, gain, cost);
                    if gain >= need {
                        need = need_for(pick.bound(), cost);
                    }
                }
            }
            offset += g.scan.len();
        }
        // Stalled: the random pick among the cycles that take as many as
        // they add, in the order of a whole scan (free moves first).
        if pick.best.is_none() {
            let cycles = h.cycles;
            pick.level
                .sort_unstable_by_key(|&i| if i >= cycles { i - cycles } else { free + i });
        }
        (missing, pick.choose())
    }

    /// What a cycle (its pairs renamed into its orbit) adds to the blocks'
    /// commonest colours, where it moves several facelets of one block.
    pub(super) fn gain(
        &self,
        counts: &[[u8; COLOURS]],
        top: &[u8],
        pairs: &[[u16; 2]],
        state: &[u8],
    ) -> i32 {
        // The blocks it touches, with their counts after it.
        let mut touched = [(u32::MAX, [0u8; COLOURS]); super::super::MAX_PAIRS];
        let mut k = 0;
        for &[f, t] in pairs {
            let (f, t) = (f as usize, t as usize);
            let b = self.block[t];
            let slot = match touched[..k].iter().position(|x| x.0 == b) {
                Some(s) => s,
                None => {
                    touched[k] = (b, counts[b as usize]);
                    k += 1;
                    k - 1
                }
            };
            let h = &mut touched[slot].1;
            h[state[t] as usize] -= 1;
            h[state[f] as usize] += 1;
        }
        touched[..k]
            .iter()
            .map(|(b, h)| i32::from(top_of(h)) - i32::from(top[*b as usize]))
            .sum()
    }

    /// The moves of candidate `i`, counted over the groups in order.
    pub(super) fn cand_moves(&self, h: &Cycles, mut i: usize) -> Vec<Move> {
        let n = self.n();
        for g in &h.groups {
            let kind = &h.kinds[g.kind];
            if i < kind.cands.len() {
                // The first orbit's cycle, its layers renamed.
                let lay = Layout {
                    size: kind.lay.size,
                    map: (kind.lay.map.iter())
                        .map(|&x| {
                            if x < n {
                                rename(n, kind.depth, g.depth, x)
                            } else {
                                x
                            }
                        })
                        .collect(),
                    kind: kind.lay.kind,
                };
                let c = &kind.cands[i];
                return cand_moves(&kind.moves[c.base as usize], c, &lay, &self.setups);
            }
            i -= kind.cands.len();
        }
        h.free_algs.get(i).cloned().unwrap_or_default()
    }

    /// Whether every block shows one colour.
    pub(super) fn blocks_done(&self, state: &[u8]) -> bool {
        let size = self.size;
        self.counts(state).iter().all(|h| h.contains(&size))
    }
}

/// The colour each block is to take, four blocks to a colour (as the
/// orbits hold four facelets of each), the most facelets already showing
/// it: an assignment problem, solved by the Hungarian method on the blocks
/// and the colours' slots (24 of each; ties go to the first found).
pub(super) fn assignment(counts: &[[u8; COLOURS]]) -> Vec<u8> {
    let n = counts.len();
    let per = n / COLOURS;
    let cost = |b: usize, slot: usize| -i32::from(counts[b][slot / per]);
    // Potentials of rows and columns, the row matched to each column and
    // the path back, 1-based with column 0 for the row being added.
    let (mut u, mut v) = (vec![0i32; n + 1], vec![0i32; n + 1]);
    let mut matched = vec![0usize; n + 1];
    let mut back = vec![0usize; n + 1];
    for i in 1..=n {
        matched[0] = i;
        let mut col = 0;
        let mut least = vec![i32::MAX; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[col] = true;
            let row = matched[col];
            let (mut delta, mut next) = (i32::MAX, 0);
            for j in 1..=n {
                if !used[j] {
                    let reduced = cost(row - 1, j - 1) - u[row] - v[j];
                    if reduced < least[j] {
                        least[j] = reduced;
                        back[j] = col;
                    }
                    if least[j] < delta {
                        delta = least[j];
                        next = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[matched[j]] += delta;
                    v[j] -= delta;
                } else {
                    least[j] -= delta;
                }
            }
            col = next;
            if matched[col] == 0 {
                break;
            }
        }
        while col != 0 {
            let prev = back[col];
            matched[col] = matched[prev];
            col = prev;
        }
    }
    let mut out = vec![0u8; n];
    for j in 1..=n {
        out[matched[j] - 1] = ((j - 1) / per) as u8;
    }
    out
}

/// The least a move of cost `cost` must add to place as much per move as
/// `bound`, (gain, cost) (to beat it, or tie it with an earlier rank);
/// anything with no bound.
pub(super) fn need_for(bound: Option<(u32, u32)>, cost: u32) -> i32 {
    bound.map_or(i32::MIN, |(gain, of)| (gain * cost).div_ceil(of) as i32)
}

/// A block's count of its commonest colour.
pub(super) fn top_of(h: &[u8; COLOURS]) -> u8 {
    *h.iter().max().unwrap_or(&0)
}
