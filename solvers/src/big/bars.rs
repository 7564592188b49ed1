//! Centres of the cubes up to [`BAR_MAX_N`]: every centre group placed in
//! one greedy search, with *bar* cycles besides each group's own.
//!
//! A bar cycle is a commutator of two ranges of inner layers (`[2R, 2-3U]`,
//! a range of two layers turned as `3Uw Uw'`, two moves like a single
//! layer), or of a range and a face turn's conjugate of another. Two ranges
//! on different axes cross in a rectangle on each of the two faces that
//! neither turns, so the commutator cycles whole bars of facelets, one
//! facelet of each orbit the rectangle spans, for the moves a single-layer
//! cycle takes for one facelet of each triple. Kept only when everything it
//! moves is a centre facelet that is not a representative; found directly
//! on the N-cube (each is checked on the facelet model), behind none or one
//! turn of the small cube (kept, as the groups' setups are).
//!
//! A bar moves facelets of two groups at once, so the groups are placed
//! together: at each step, the cycle among the bars and every unfinished
//! group's own that places the most facelets per move; when none places
//! one, each group's own search finishes it. Beyond [`BAR_MAX_N`] the
//! search over every group's cycles at every step costs too much (the
//! steps and the groups both grow with N^2), and the groups are placed one
//! by one as before.

use super::*;

/// The largest N whose centres are placed with bars, all groups at once.
pub(super) const BAR_MAX_N: usize = 10;

/// The most layers in a bar cycle's range.
const BAR_LONGEST: usize = 2;

/// A bar cycle behind a kept setup: its base and setup, its cost, the
/// groups it moves (a bit each) and the facelets it moves,
/// `Bars::pairs[start..start + len]`.
#[derive(Clone, Debug)]
struct Bar {
    base: u32,
    setup: u32,
    cost: u32,
    groups: u64,
    start: u32,
    len: u32,
}

/// The bar cycles of one N-cube.
pub(super) struct Bars {
    bases: Vec<Base>,
    cands: Vec<Bar>,
    /// (from, to) of the facelets each candidate moves, one after another.
    pairs: Vec<(u16, u16)>,
}

/// The range of layers `lo..=hi` (0 = the face) seen from `face`.
fn range_turn(face: Face, lo: usize, hi: usize, turns: u8) -> Vec<Move> {
    if lo == hi {
        vec![layer_turn(face, lo, turns)]
    } else {
        vec![
            Move::block(face, hi as u8 + 1, turns),
            Move::block(face, lo as u8, 4 - turns),
        ]
    }
}

impl Reducer {
    /// The centre group each facelet belongs to, `usize::MAX` for none.
    fn group_of(&self) -> Vec<usize> {
        let mut of = vec![usize::MAX; self.cube.facelets()];
        for (g, (_, facelets)) in self.groups.iter().enumerate() {
            for &f in facelets {
                of[f] = g;
            }
        }
        of
    }

    /// Commutators `[A, B]` and `[A, X^q B X^-q]` of ranges of one to
    /// [`BAR_LONGEST`] inner layers, at least one range longer than one
    /// layer (single layers are the groups' own cycles), `X` a face; kept
    /// when everything they move is a centre facelet of some group.
    fn bar_bases(&self, group_of: &[usize]) -> Vec<Base> {
        let n = self.n;
        let ranges: Vec<(usize, usize)> = (1..n - 1)
            .flat_map(|lo| (lo..(lo + BAR_LONGEST).min(n - 1)).map(move |hi| (lo, hi)))
            .collect();
        let mut conj: Vec<Option<(Face, u8)>> = vec![None];
        for x in Face::ALL {
            for q in 1..=3u8 {
                conj.push(Some((x, q)));
            }
        }
        let axes = [Face::R, Face::U, Face::F];
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for fa in axes {
            for &(alo, ahi) in &ranges {
                for ta in 1..=3u8 {
                    let a = range_turn(fa, alo, ahi, ta);
                    for &cj in &conj {
                        for fb in axes {
                            for &(blo, bhi) in &ranges {
                                if (alo == ahi && blo == bhi)
                                    || (fb == fa && ((blo, bhi) == (alo, ahi) || cj.is_none()))
                                {
                                    continue;
                                }
                                for tb in 1..=3u8 {
                                    let mut b = Vec::new();
                                    if let Some((x, q)) = cj {
                                        b.push(Move::face(x, q));
                                    }
                                    b.extend(range_turn(fb, blo, bhi, tb));
                                    if let Some((x, q)) = cj {
                                        b.push(Move::face(x, 4 - q));
                                    }
                                    let mut moves = a.clone();
                                    moves.extend(&b);
                                    moves.extend(invert_alg(&a));
                                    moves.extend(invert_alg(&b));
                                    let pairs = moved(&track(&self.cube, &moves));
                                    if !pairs.is_empty()
                                        && pairs
                                            .iter()
                                            .all(|&(f, _)| group_of[f as usize] != usize::MAX)
                                    {
                                        add_with_inverse(
                                            &mut out,
                                            &mut seen,
                                            Base { moves, pairs },
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Every bar cycle behind none or one turn of the small cube, each
    /// effect once (the cheapest).
    fn make_bars(&self) -> Bars {
        // A bit per group: up to the 10x10x10 there are at most 9.
        debug_assert!(self.groups.len() <= 64);
        let group_of = self.group_of();
        let bases = self.bar_bases(&group_of);
        let setups = &self.small_setups[..self.small_one_turn];
        let mut cands: Vec<Bar> = Vec::new();
        let mut pairs: Vec<(u16, u16)> = Vec::new();
        let mut index: HashMap<u64, usize, BuildHasherDefault<KeyHasher>> = Default::default();
        let next_to = next_turns(&self.cube, setups);
        let mut buf: Vec<(u16, u16)> = Vec::new();
        for (bi, b) in bases.iter().enumerate() {
            let cost = base_cost(&b.moves);
            for (si, s) in setups.iter().enumerate() {
                // A turn that moves none of the cycle's facelets only adds
                // a move.
                if let Some(p) = &next_to[si] {
                    if b.pairs.iter().all(|&(f, _)| p[f as usize] == f) {
                        continue;
                    }
                }
                buf.clear();
                buf.extend(
                    b.pairs
                        .iter()
                        .map(|&(f, t)| (s.dest[f as usize] as u16, s.dest[t as usize] as u16)),
                );
                buf.sort_unstable();
                let key = effect_key(buf.iter().map(|&(f, t)| (u32::from(f), u32::from(t))));
                let cost = cost + s.moves.len() as u32;
                let at = index.get(&key).copied();
                if at.is_some_and(|i| cands[i].cost <= cost) {
                    continue;
                }
                let bar = Bar {
                    base: bi as u32,
                    setup: si as u32,
                    cost,
                    groups: buf
                        .iter()
                        .fold(0, |m, &(f, _)| m | 1u64 << group_of[f as usize]),
                    start: pairs.len() as u32,
                    len: buf.len() as u32,
                };
                pairs.extend(&buf);
                match at {
                    Some(i) => cands[i] = bar,
                    None => {
                        index.insert(key, cands.len());
                        cands.push(bar);
                    }
                }
            }
        }
        Bars {
            bases,
            cands,
            pairs,
        }
    }

    /// The bar cycles, made once.
    pub(super) fn bars(&self) -> &Bars {
        self.bars.get_or_init(|| self.make_bars())
    }

    /// The moves of a bar candidate: its setup (kept), then its cycle.
    fn bar_moves(&self, b: &Bar, bars: &Bars) -> Vec<Move> {
        let mut seq = self.small_setups[b.setup as usize].moves.clone();
        seq.extend(&bars.bases[b.base as usize].moves);
        seq
    }

    /// Places every centre group at once: at each step the cycle (a bar, or
    /// an unfinished group's own) that places the most facelets per move;
    /// then each group's own search for what is left. Returns the moves and
    /// updates `state`.
    pub(super) fn place_joint(
        &self,
        state: &mut [u8],
        hard: crate::Hard,
    ) -> Result<Vec<Move>, SolveError> {
        let bars = self.bars();
        // Each group's layout, its kind's cycles, and where the kind's first
        // group's facelets stand in it.
        let own: Vec<(Layout, &[Cand], Vec<u32>)> = (0..self.groups.len())
            .map(|g| {
                let lay = self.layout(self.groups[g].1[0], false);
                let (canon, cands) = self.kind_candidates(lay.kind);
                (lay, cands, self.relabel(canon, g))
            })
            .collect();
        let mut moves = Vec::new();
        // Enough for every facelet placed one step at a time.
        let limit: usize = self.groups.iter().map(|(_, f)| f.len()).sum();
        for _ in 0..limit {
            hard.check("centres")?;
            let target = self.target(state);
            let right = |f: usize, t: usize| state[f] == target[t];
            let open: u64 = self
                .groups
                .iter()
                .enumerate()
                .filter(|(_, (_, fs))| fs.iter().any(|&f| state[f] != target[f]))
                .fold(0, |m, (g, _)| m | 1 << g);
            // (facelets placed, cost, group or `usize::MAX` for a bar, index)
            let mut best: Option<(u32, u32, usize, usize)> = None;
            let mut consider = |gain: i32, cost: u32, which: usize, i: usize| {
                if gain > 0 {
                    let g = gain as u32;
                    if best.is_none_or(|(bg, bc, _, _)| g * bc > bg * cost) {
                        best = Some((g, cost, which, i));
                    }
                }
            };
            for (i, b) in bars.cands.iter().enumerate() {
                if b.groups & open == 0 {
                    continue;
                }
                let gain: i32 = bars.pairs[b.start as usize..(b.start + b.len) as usize]
                    .iter()
                    .map(|&(f, t)| {
                        let (f, t) = (f as usize, t as usize);
                        i32::from(right(f, t)) - i32::from(right(t, t))
                    })
                    .sum();
                consider(gain, b.cost, usize::MAX, i);
            }
            for (g, (_, cands, at)) in own.iter().enumerate() {
                if open & 1 << g == 0 {
                    continue;
                }
                for (i, c) in cands.iter().enumerate() {
                    let gain: i32 = c
                        .pairs()
                        .iter()
                        .map(|&(f, t)| {
                            let (f, t) = (at[f as usize] as usize, at[t as usize] as usize);
                            i32::from(right(f, t)) - i32::from(right(t, t))
                        })
                        .sum();
                    consider(gain, c.cost, g, i);
                }
            }
            let Some((_, _, which, i)) = best else { break };
            let seq = if which == usize::MAX {
                self.bar_moves(&bars.cands[i], bars)
            } else {
                let (lay, cands, _) = &own[which];
                self.cand_moves(&cands[i], lay, &self.small_setups)
            };
            self.cube.apply_alg(state, &seq);
            moves.extend(seq);
        }
        for g in 0..self.groups.len() {
            moves.extend(self.place(state, g, hard)?);
        }
        Ok(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each facelet's sticker ends after `moves`, read off the
    /// facelet model with two colourings (the low and high byte of each
    /// facelet's index), not by composing the turns' permutations.
    fn replay(cube: &CubeN, moves: &[Move]) -> Vec<usize> {
        let len = cube.facelets();
        let mut lo: Vec<u8> = (0..len).map(|f| (f % 256) as u8).collect();
        let mut hi: Vec<u8> = (0..len).map(|f| (f / 256) as u8).collect();
        cube.apply_alg(&mut lo, moves);
        cube.apply_alg(&mut hi, moves);
        let mut to = vec![0; len];
        for j in 0..len {
            to[usize::from(hi[j]) * 256 + usize::from(lo[j])] = j;
        }
        to
    }

    #[test]
    fn bars_move_what_they_claim() {
        for n in [6, 7] {
            let r = Reducer::new(n);
            let group_of = r.group_of();
            let bars = r.bars();
            assert!(bars.cands.len() > 10_000, "{n}: {}", bars.cands.len());
            // Some bars move facelets of two groups (the point of them).
            assert!(bars.cands.iter().any(|b| b.groups.count_ones() >= 2), "{n}");
            for b in bars.cands.iter().step_by(101) {
                let to = replay(&r.cube, &r.bar_moves(b, bars));
                // Claimed: the cycle conjugated by the setup, then the
                // setup (kept).
                let claimed = &bars.pairs[b.start as usize..(b.start + b.len) as usize];
                let mut cycle: Vec<usize> = (0..to.len()).collect();
                for &(f, t) in claimed {
                    cycle[f as usize] = t as usize;
                }
                let after = replay(&r.cube, &r.small_setups[b.setup as usize].moves);
                let expect: Vec<usize> = cycle.iter().map(|&c| after[c]).collect();
                assert_eq!(to, expect, "{n}: {:?}", r.bar_moves(b, bars));
                // Only centre facelets of the groups move.
                assert!(claimed
                    .iter()
                    .all(|&(f, _)| group_of[f as usize] != usize::MAX));
            }
        }
    }
}
