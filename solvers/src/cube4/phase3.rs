//! Phase 3 of the 4x4x4 reduction as a stage of the engine: centres solved
//! and all dedges paired in the pairing group, with the exact pairing
//! distance followed move by move in the mod-3 table.

use super::{CentreStages, Solver};
use crate::moves::whole_turn;
use crate::search::{allowed, next_distance, Stage};
use crate::SolveError;
use tablegen::corners::read_corners;
use tablegen::cube4::{odd, PairAllSpace};
use tablegen::notation::Face;
use tablegen::projection::FaceletMaskSpace;

/// Phase-3 node: centres mask, the dedges' relative permutation, PLL parity and
/// the exact pairing distance of `sigma`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct N3 {
    pub(super) centres: u16,
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

/// The centres in phase 3: the 58,800 arrangements the pairing group reaches from
/// solved (70 x 70 x 12), indexed in the order a breadth-first search from solved
/// meets them, a move table, and the distance of (arrangement, PLL bit) to solved
/// up to the half turns x2, y2, z2 under the moves phase 3 searches.
pub(super) struct PairCentres {
    /// Per rank of the centres' projection (70 x 70 x 70), its index
    /// (`u16::MAX`: not reached).
    index: Vec<u16>,
    /// Per index, its mask.
    pub(super) masks: Vec<u64>,
    pub(super) moves: Vec<[u16; 20]>,
    pub(super) dist: Vec<u8>,
}

impl PairCentres {
    /// The index of a centres' mask (`None`: the pairing group does not
    /// reach it from solved).
    pub(super) fn index_of(&self, space: &FaceletMaskSpace, mask: u64) -> Option<u16> {
        let at = *self.index.get(space.rank(mask) as usize)?;
        (self.masks.get(at as usize) == Some(&mask)).then_some(at)
    }

    pub(super) fn new(
        stages: &CentreStages,
        centre_move: &[usize],
        pll: &[bool],
        active: &[usize],
    ) -> Result<PairCentres, String> {
        let st = &stages.stages[2];
        let cube = &stages.cube;
        let solved = st.space.project(&cube.solved(), &st.marked);
        // Indexed by the projection's dense rank: no hashing (a table of
        // 343,000 entries for 58,800 arrangements). The breadth-first search
        // goes over ranks: a move takes each block's digit to its image (three
        // tables of 70 digits); no mask is moved or ranked.
        let space = &st.space;
        if centre_move.len() > 20 {
            return Err(format!(
                "{} moves in phase 3, at most 20",
                centre_move.len()
            ));
        }
        let radices = space.radices();
        let nb = radices.len();
        let digit_moves: Vec<Vec<Vec<u32>>> = (centre_move.iter())
            .map(|&m| space.digit_moves(m))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("{}: the projection is not dense", st.id))?;
        let mut index = vec![u16::MAX; tablegen::bfs::Space::size(space) as usize];
        let first = space.rank(solved);
        index[first as usize] = 0;
        let mut ranks = vec![first];
        let mut digits = vec![0u32; nb];
        let mut x = first;
        for b in (0..nb).rev() {
            digits[b] = (x % radices[b]) as u32;
            x /= radices[b];
        }
        let mut moves: Vec<[u16; 20]> = Vec::new();
        let mut image = vec![0u32; nb];
        let mut k = 0;
        while k < ranks.len() {
            let mut row = [0u16; 20];
            for (slot, dm) in row.iter_mut().zip(&digit_moves) {
                let mut r = 0u64;
                for b in 0..nb {
                    image[b] = dm[b][digits[k * nb + b] as usize];
                    r = r * radices[b] + u64::from(image[b]);
                }
                let at = &mut index[r as usize];
                if *at == u16::MAX {
                    *at = ranks.len() as u16;
                    ranks.push(r);
                    digits.extend_from_slice(&image);
                }
                *slot = *at;
            }
            moves.push(row);
            k += 1;
        }
        let masks: Vec<u64> = ranks.iter().map(|&r| space.unrank(r)).collect();
        // Goals: solved turned by x2, y2, z2 (and not), with no PLL parity.
        let mut dist = vec![u8::MAX; 2 * masks.len()];
        let mut layer = Vec::new();
        for r in [None, Some(Face::U), Some(Face::R), Some(Face::F)] {
            let mut g = cube.solved();
            if let Some(face) = r {
                cube.apply(&mut g, whole_turn(face, 2));
            }
            let c = index[st.space.rank(st.space.project(&g, &st.marked)) as usize] as usize;
            if dist[2 * c] != 0 {
                dist[2 * c] = 0;
                layer.push(2 * c);
            }
        }
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &x in &layer {
                for &i in active {
                    let y = 2 * moves[x / 2][i] as usize + ((x % 2 == 1) ^ pll[i]) as usize;
                    if dist[y] == u8::MAX {
                        dist[y] = d;
                        next.push(y);
                    }
                }
            }
            layer = next;
        }
        Ok(PairCentres {
            index,
            masks,
            moves,
            dist,
        })
    }
}

impl P3<'_> {
    pub(super) fn h(&self, n: &N3) -> usize {
        let c = self.s.centres3.dist[2 * n.centres as usize + n.pll as usize] as usize;
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
        let mut kids = [(0usize, 0u16, [0u8; 12], 0usize); 17];
        let mut k = 0;
        for &i in &s.p3_active {
            if !allowed(prev, s.p3_moves[i]) {
                continue;
            }
            let centres = s.centres3.moves[n.centres as usize][i];
            let pll = n.pll ^ s.p3_pll[i];
            if s.centres3.dist[2 * centres as usize + pll as usize] as usize > left {
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
        let centres = (self.centres3.index_of(&st2.space, mask))
            .ok_or_else(|| left("centres the pairing group cannot solve"))?;
        Ok(N3 {
            centres,
            sigma,
            pll: odd(&cp) ^ odd(&hi),
            edges: self.pairing_distance(&sigma)?,
        })
    }
}
