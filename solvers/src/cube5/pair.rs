//! Stage 3 of the 5x5x5 reduction: in the pairing group
//! `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>`, every T- and X-centre
//! solved and every tredge paired (its two wings with its midge).

use crate::search::{allowed, next_distance, Stage};
use crate::tables::{TableError, Trits};
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube4::{pairing_moves, PairAllSpace};
use tablegen::cube5::{self, MidPairSpace, Tredges};
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace};

/// Stage 3's tables: the high wings with the low ones (the 4x4x4's table on
/// the 5x5x5's wings) and with the midges.
pub const IDS: [&str; 2] = ["4x4x4-wings-pair", "5x5x5-tredges-pair"];

/// Stage 3's centre tables: the projections (one colour of each axis pair
/// marked) of these catalog tables, with distances under the pairing group
/// computed at load.
pub(super) const CENTRE_IDS: [&str; 2] = ["5x5x5-t-centres-solve", "5x5x5-x-centres-solve"];

/// One centre orbit under the pairing group: its projection and the
/// distance of each rank to solved (`u8::MAX`: not in the group's orbit).
pub(super) struct Centres {
    pub(super) space: FaceletMaskSpace,
    dist: Vec<u8>,
}

impl Centres {
    pub(super) fn new(id: &str, moves: &[Move]) -> Result<Centres, TableError> {
        let bad = |msg: String| TableError::Build(id.into(), msg);
        let def = match catalog::find(id).map(|d| d.space) {
            Some(SpaceDef::Facelets { def, .. }) => def,
            _ => return Err(bad("not a facelet projection".into())),
        };
        let space = projection::build(&def, moves).map_err(bad)?;
        let mut dist = vec![u8::MAX; tablegen::bfs::Space::size(&space) as usize];
        let goal = space.goal_mask();
        dist[space.rank(goal) as usize] = 0;
        let mut layer = vec![goal];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &m in &layer {
                for i in 0..moves.len() {
                    let c = space.apply(m, i);
                    let r = space.rank(c) as usize;
                    if dist[r] == u8::MAX {
                        dist[r] = d;
                        next.push(c);
                    }
                }
            }
            layer = next;
        }
        Ok(Centres { space, dist })
    }

    #[inline]
    pub(super) fn get(&self, mask: u64) -> u8 {
        self.dist[self.space.rank(mask) as usize]
    }
}

/// A stage-3 node: the two centre masks, the two relative permutations of
/// the wings and their exact pairing distances.
#[derive(Clone, Copy, Debug)]
pub struct N3 {
    centres: [u64; 2],
    hl: [u8; 12],
    hm: [u8; 12],
    d: [u8; 2],
    h: u8,
}

/// Stage 3 on the engine. Bound: the largest of the T- and X-centre
/// distances under the group and the exact pairing distances of the high
/// wings with the low wings and with the midges (each followed move by move
/// in its mod-3 table).
pub struct Pair {
    /// The 20 moves of the pairing group.
    pub moves: Vec<Move>,
    tredges: Tredges,
    centres: [Centres; 2],
    hl: PairAllSpace,
    hm: MidPairSpace,
    tabs: [Trits; 2],
}

/// Marked colours of the centre projections (one of each axis pair).
pub(super) const MARKED: [bool; 6] = {
    let mut m = [false; 6];
    m[Face::U as usize] = true;
    m[Face::R as usize] = true;
    m[Face::F as usize] = true;
    m
};

impl Pair {
    /// Loads (or builds) the stage's tables.
    pub fn load(dir: &Path, quiet: bool) -> Result<Pair, TableError> {
        let bad = |id: &str, msg: String| TableError::Build(id.into(), msg);
        let moves = pairing_moves();
        for id in IDS {
            let m = match catalog::find(id).map(|d| d.space) {
                Some(SpaceDef::Reduction4 { moves, .. } | SpaceDef::Reduction5 { moves, .. }) => {
                    moves
                }
                _ => return Err(bad(id, "not a reduction table".into())),
            };
            if m != moves {
                return Err(bad(id, "move set differs from stage 3's".into()));
            }
        }
        Ok(Pair {
            centres: [
                Centres::new(CENTRE_IDS[0], &moves)?,
                Centres::new(CENTRE_IDS[1], &moves)?,
            ],
            hl: PairAllSpace::new(&moves).map_err(|e| bad(IDS[0], e))?,
            hm: MidPairSpace::new(&moves).map_err(|e| bad(IDS[1], e))?,
            tabs: [
                Trits::load_trits(IDS[0], dir, quiet)?,
                Trits::load_trits(IDS[1], dir, quiet)?,
            ],
            tredges: Tredges::new(),
            moves,
        })
    }

    /// Bytes of the stage's tables.
    pub fn table_bytes(&self) -> u64 {
        self.tabs.iter().map(|t| t.bytes().len() as u64).sum()
    }

    /// Exact distance of a relative permutation: a walk downhill in its table.
    fn distance(
        &self,
        k: usize,
        sigma: [u8; 12],
        rank: impl Fn(&[u8; 12]) -> u64,
        apply: impl Fn(&[u8; 12], usize) -> [u8; 12],
    ) -> Result<u8, String> {
        let t = self.tabs[k].bytes();
        let path = crate::walk_downhill_mod3(
            sigma,
            self.moves.len(),
            40,
            |s| rank(s) == 0,
            |s| tablefmt::trit(t, rank(s) as usize),
            apply,
        )
        .map_err(|e| format!("{}: {e}", IDS[k]))?;
        Ok(path.len() as u8)
    }

    /// The node of a 5x5x5 state that stage 2 left (fixed centres home), or
    /// an error naming what stage 2 did not do.
    pub fn node(&self, state: &[u8]) -> Result<N3, String> {
        let wings = self.tredges.wings.read(&cube5::part4(state))?;
        let (midges, flip) = self.tredges.read_midges(state)?;
        if flip.iter().any(|&f| f != 0) {
            return Err("stage 2 left a midge flipped".into());
        }
        let mut hi = [0u8; 12];
        let mut lo = [0u8; 12];
        let mut mid = [0u8; 12];
        for (slot, &p) in wings.iter().enumerate() {
            if (slot < 12) != (p < 12) {
                return Err("stage 2 left a wing out of its class".into());
            }
            if p < 12 {
                hi[p as usize] = slot as u8;
            } else {
                lo[p as usize - 12] = slot as u8 - 12;
            }
        }
        for (slot, &p) in midges.iter().enumerate() {
            mid[p as usize] = slot as u8;
        }
        let hl = PairAllSpace::sigma(&hi, &lo).ok_or("stage 2 left an odd wing permutation")?;
        let hm = MidPairSpace::sigma(&hi, &mid);
        let centres = [
            self.centres[0].space.project(state, &MARKED),
            self.centres[1].space.project(state, &MARKED),
        ];
        if centres
            .iter()
            .zip(&self.centres)
            .any(|(&m, c)| c.get(m) == u8::MAX)
        {
            return Err("stage 2 left centres the pairing group cannot solve".into());
        }
        let d = [
            self.distance(0, hl, PairAllSpace::rank, |s, i| self.hl.apply(s, i))?,
            self.distance(1, hm, MidPairSpace::rank, |s, i| self.hm.apply(s, i))?,
        ];
        let mut n = N3 {
            centres,
            hl,
            hm,
            d,
            h: 0,
        };
        n.h = self.bound(&n);
        Ok(n)
    }

    fn bound(&self, n: &N3) -> u8 {
        self.centres[0]
            .get(n.centres[0])
            .max(self.centres[1].get(n.centres[1]))
            .max(n.d[0])
            .max(n.d[1])
    }

    /// The bound of a node.
    pub fn h(&self, n: &N3) -> usize {
        n.h as usize
    }
}

impl Stage for Pair {
    type Node = N3;

    fn prune(&self, n: &N3, left: usize) -> bool {
        n.h as usize > left
    }

    fn goal(&self, n: &N3, _left: usize) -> Option<u8> {
        (n.h == 0).then_some(0)
    }

    /// Children in two passes: the centre bounds (small tables) first; the
    /// survivors' entries in the two big pairing tables are prefetched
    /// together so that their cache misses overlap, then read.
    fn expand(&self, n: &N3, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N3)>) -> u64 {
        let left = left - 1;
        let prev = prev.map(|i| self.moves[i]);
        let mut kids = [(0usize, [0u64; 2], [0u8; 12], [0u8; 12], [0usize; 2]); 20];
        let mut k = 0;
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let c0 = self.centres[0].space.apply(n.centres[0], i);
            if self.centres[0].get(c0) as usize > left {
                dropped += 1;
                continue;
            }
            let c1 = self.centres[1].space.apply(n.centres[1], i);
            if self.centres[1].get(c1) as usize > left {
                dropped += 1;
                continue;
            }
            let hl = self.hl.apply(&n.hl, i);
            let hm = self.hm.apply(&n.hm, i);
            let r = [
                PairAllSpace::rank(&hl) as usize,
                MidPairSpace::rank(&hm) as usize,
            ];
            crate::tables::prefetch(self.tabs[0].bytes(), r[0] / 5);
            crate::tables::prefetch(self.tabs[1].bytes(), r[1] / 5);
            kids[k] = (i, [c0, c1], hl, hm, r);
            k += 1;
        }
        for &(i, centres, hl, hm, r) in &kids[..k] {
            let d = [
                next_distance(n.d[0], tablefmt::trit(self.tabs[0].bytes(), r[0])),
                next_distance(n.d[1], tablefmt::trit(self.tabs[1].bytes(), r[1])),
            ];
            let mut c = N3 {
                centres,
                hl,
                hm,
                d,
                h: 0,
            };
            c.h = self.bound(&c);
            if c.h as usize > left {
                dropped += 1;
                continue;
            }
            out.push((i, c));
        }
        dropped
    }
}
