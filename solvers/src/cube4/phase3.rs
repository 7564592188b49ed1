//! Phase 3 of the 4x4x4 reduction as a stage of the engine: centres solved
//! and all dedges paired in the pairing group, with the exact pairing
//! distance followed move by move in the mod-3 table.

use super::Solver;
use crate::search::{allowed, next_distance, Stage};
use crate::tables::{nibble, Nibbles, TableError};
use crate::SolveError;
use tablegen::corners::read_corners;
use tablegen::cube4::{odd, PairAllSpace};
use tablegen::projection::FaceletMaskSpace;

/// Phase-3 node: centres mask, the dedges' relative permutation, PLL parity and
/// the exact pairing distance of `sigma`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct N3 {
    pub(super) centres: [u8; 3],
    pub(super) sigma: [u8; 12],
    pub(super) pll: bool,
    pub(super) edges: u8,
}

/// Phase 3 as a stage of the engine: IDA* on the phase-3 centre distance
/// and the exact pairing distance (followed move by move in the mod-3
/// table); any node where both are 0 is a goal.
pub(super) struct P3<'a> {
    pub(super) s: &'a Solver,
}

impl Solver {
    /// Exact pairing distance of `sigma`: walk downhill in the mod-3 table.
    pub(super) fn pairing_distance(&self, sigma: &[u8; 12]) -> Result<u8, SolveError> {
        let t = self.pair_tab.bytes();
        let path = crate::walk_downhill_mod3(
            *sigma,
            self.pair.moves.len(),
            40,
            |s| PairAllSpace::rank(s) == 0,
            |s| tablefmt::trit(t, PairAllSpace::rank(s) as usize),
            |s, i| self.pair.apply(s, i),
        )
        .map_err(|e| SolveError::Internal(format!("4x4x4-wings-pair: {e}")))?;
        Ok(path.len() as u8)
    }
}

/// The centres in phase 3 as the three digits of their rank in the centres'
/// projection (70 x 70 x 70: U/D, R/L, F/B, each block's first colour
/// marked), moved digit by digit, and the distance of (arrangement, PLL
/// bit) to solved up to the half turns x2, y2, z2 under the moves phase 3
/// searches: the table `4x4x4-pair-centres`, whose ranks are
/// `2 * rank + PLL bit` and whose 58,800 x 2 reached entries are the
/// pairing group's orbit of solved (the others hold 15).
pub(super) struct PairCentres {
    /// Per phase-3 move, per block, the image of each digit.
    pub(super) moves: Vec<[[u8; 70]; 3]>,
    pub(super) tab: Nibbles,
}

/// What `4x4x4-pair-centres` holds for a rank the pairing group does not
/// reach.
pub(super) const NOT_REACHED: usize = 15;

impl PairCentres {
    /// The table, and the digit moves of the phase-3 moves (`centre_move[i]`:
    /// phase-3 move `i` in the move list of `space`, the centres'
    /// projection).
    pub(super) fn load(
        dir: &std::path::Path,
        quiet: bool,
        space: &FaceletMaskSpace,
        centre_move: &[usize],
    ) -> Result<PairCentres, TableError> {
        let bad = |msg: String| TableError::Build(super::REDUCTION_IDS[2].into(), msg);
        if space.radices() != [70, 70, 70] {
            return Err(bad("the centres' projection is not 70 x 70 x 70".into()));
        }
        let moves = (centre_move.iter())
            .map(|&m| {
                let dm = space.digit_moves(m)?;
                let mut out = [[0u8; 70]; 3];
                for (o, d) in out.iter_mut().zip(&dm) {
                    for (x, &y) in o.iter_mut().zip(d) {
                        *x = y as u8;
                    }
                }
                Some(out)
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("a phase-3 move the centres' projection does not have".into()))?;
        let tab = Nibbles::load(super::REDUCTION_IDS[2], dir, quiet)?;
        if tab.bytes().len() != 70 * 70 * 70 {
            return Err(bad(format!(
                "{} bytes, expected 343,000",
                tab.bytes().len()
            )));
        }
        Ok(PairCentres { moves, tab })
    }

    /// The rank of three digits.
    #[inline]
    pub(super) fn rank(d: [u8; 3]) -> usize {
        (d[0] as usize * 70 + d[1] as usize) * 70 + d[2] as usize
    }

    /// The distance of centres `d` with PLL bit `pll` ([`NOT_REACHED`]: not
    /// in the pairing group's orbit of solved).
    #[inline]
    pub(super) fn dist(&self, d: [u8; 3], pll: bool) -> usize {
        nibble(self.tab.bytes(), 2 * Self::rank(d) + pll as usize)
    }

    /// Centres `d` after phase-3 move `i`.
    #[inline]
    pub(super) fn step(&self, d: [u8; 3], i: usize) -> [u8; 3] {
        let m = &self.moves[i];
        [
            m[0][d[0] as usize],
            m[1][d[1] as usize],
            m[2][d[2] as usize],
        ]
    }

    /// The digits of a centres' mask of `space`; `None` if the mask is not
    /// one the projection ranks (a block with other than four marked).
    pub(super) fn digits_of(space: &FaceletMaskSpace, mask: u64) -> Option<[u8; 3]> {
        let r = space.rank(mask);
        (r < 343_000 && space.unrank(r) == mask).then_some([
            (r / 4900) as u8,
            (r / 70 % 70) as u8,
            (r % 70) as u8,
        ])
    }
}

impl P3<'_> {
    pub(super) fn h(&self, n: &N3) -> usize {
        let c = self.s.centres3.dist(n.centres, n.pll);
        c.max(n.edges as usize)
    }
}

impl Stage for P3<'_> {
    type Node = N3;

    fn prune(&self, n: &N3, left: usize) -> bool {
        self.h(n) > left
    }

    fn goal(&self, n: &N3, _left: usize) -> Option<u8> {
        (self.h(n) == 0).then_some(0)
    }

    /// Children in two passes: the centre bound (a small table) first; the
    /// survivors' entries in the big pairing table are prefetched together
    /// so that their cache misses overlap, then read in move order.
    fn expand(&self, n: &N3, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N3)>) -> u64 {
        let s = self.s;
        let left = left - 1;
        let prev = prev.map(|i| s.p3_moves[i]);
        let mut kids = [(0usize, [0u8; 3], [0u8; 12], 0usize); 17];
        let mut k = 0;
        for &i in &s.p3_active {
            if !allowed(prev, s.p3_moves[i]) {
                continue;
            }
            let centres = s.centres3.step(n.centres, i);
            let pll = n.pll ^ s.p3_pll[i];
            if s.centres3.dist(centres, pll) > left {
                continue;
            }
            let sigma = s.pair.apply(&n.sigma, i);
            let r = PairAllSpace::rank(&sigma) as usize;
            crate::tables::prefetch(s.pair_tab.bytes(), r / 5);
            kids[k] = (i, centres, sigma, r);
            k += 1;
        }
        for &(i, centres, sigma, r) in &kids[..k] {
            let t = tablefmt::trit(s.pair_tab.bytes(), r);
            out.push((
                i,
                N3 {
                    centres,
                    sigma,
                    pll: n.pll ^ s.p3_pll[i],
                    edges: next_distance(n.edges, t),
                },
            ));
        }
        0
    }
}

impl Solver {
    /// Phase-3 root of a state after phase 2: per dedge, its wing in the high class
    /// and its wing in the low class give `sigma`.
    /// An internal error if phase 2 did not reach its goal.
    pub(super) fn node3(&self, s: &[u8]) -> Result<N3, SolveError> {
        let left = |what: &str| SolveError::Internal(format!("phase 2 left {what}"));
        let cube = &self.stages.cube;
        let piece = self.wings.read(s).map_err(SolveError::internal)?;
        let mut hi = [u8::MAX; 12];
        let mut lo = [u8::MAX; 12];
        for (slot, &p) in piece.iter().enumerate() {
            let d = p as usize % 12;
            if slot < 12 {
                hi[d] = slot as u8;
            } else {
                lo[d] = slot as u8 - 12;
            }
        }
        if hi.contains(&u8::MAX) || lo.contains(&u8::MAX) {
            return Err(left("both wings of a dedge in one class"));
        }
        let (cp, _) = read_corners(cube, s, &[0, 1, 2, 3, 4, 5]).map_err(SolveError::internal)?;
        let st2 = &self.stages.stages[2];
        let sigma = PairAllSpace::sigma(&hi, &lo).ok_or_else(|| left("an odd pairing"))?;
        let mask = st2.space.project(s, &st2.marked);
        let pll = odd(&cp) ^ odd(&hi);
        let centres = PairCentres::digits_of(&st2.space, mask)
            .filter(|&d| self.centres3.dist(d, pll) != NOT_REACHED)
            .ok_or_else(|| left("centres the pairing group cannot solve"))?;
        Ok(N3 {
            centres,
            sigma,
            pll,
            edges: self.pairing_distance(&sigma)?,
        })
    }
}
