//! Stage 4 of the 5x5x5 reduction: in the pairing group
//! `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>`, four tredges paired in
//! the E slice and the side centres in an arrangement
//! `<U, D, R2, L2, F2, B2, Rw2, Lw2, Fw2, Bw2>` (the last stage's group)
//! reaches. Which four tredges is the solver's choice: every set of four is
//! a root of the search, the best few by bound kept.

use crate::search::{allowed, Stage};
use crate::tables::{nibble, Nibbles, TableError};
use crate::SolveError;
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube4::pairing_moves;
use tablegen::cube5::{self, Tredges};
use tablegen::notation::Move;
use tablegen::pair5::{last8_moves, ESliceSpace, SidesSpace};

/// Stage 4's tables: four midges with their high wings, and with their low
/// wings, paired in the E slice; the side centres.
pub const IDS: [&str; 3] = [
    "5x5x5-e-slice-high",
    "5x5x5-e-slice-low",
    "5x5x5-side-centres",
];

/// A stage-4 node: the side centres; the four tracked tredges' midge
/// slots and their high and low wings' slots (within the class), tredge by
/// tredge; the bound.
#[derive(Clone, Copy, Debug)]
pub struct NE {
    sides: u32,
    mids: [u8; 4],
    wings: [[u8; 4]; 2],
    h: u8,
}

/// Stage 4 on the engine (see the module documentation). Bound: the largest
/// of the side centres' distance (`5x5x5-side-centres`: the U/D centres are
/// free in the last group) and the two E-slice tables. It serves the ends
/// stage 4's smaller group ([`super::RlPair`]) does not take, which stage 3
/// leaves only where it finds no other within twice the budget.
pub struct EPair {
    /// The 20 moves of the pairing group.
    pub moves: Vec<Move>,

    tredges: Tredges,
    sides: SidesSpace,
    sides_tab: Nibbles,
    spaces: [ESliceSpace; 2],
    tabs: [Nibbles; 2],
}

/// Per tredge of a state stage 3 left, the slots (dedge numbering) of its
/// midge, its high wing and its low wing (within the class); an error names
/// what stage 3 did not do (an internal one: a midge flipped, a wing out of
/// its class).
pub(super) fn tredge_slots(tredges: &Tredges, state: &[u8]) -> Result<[[u8; 3]; 12], SolveError> {
    let left = |what: &str| SolveError::Internal(format!("stage 3 left {what}"));
    let wings = tredges
        .wings
        .read(&cube5::part4(state))
        .map_err(SolveError::internal)?;
    let (midges, flip) = tredges.read_midges(state).map_err(SolveError::internal)?;
    if flip.iter().any(|&f| f != 0) {
        return Err(left("a midge flipped"));
    }
    let mut at = [[0u8; 3]; 12];
    for (slot, &p) in wings.iter().enumerate() {
        if (slot < 12) != (p < 12) {
            return Err(left("a wing out of its class"));
        }
        at[p as usize % 12][1 + slot / 12] = (slot % 12) as u8;
    }
    for (slot, &p) in midges.iter().enumerate() {
        at[p as usize][0] = slot as u8;
    }
    Ok(at)
}

/// Sets of four of twelve, as bit masks.
fn fours() -> Vec<u16> {
    (0u16..1 << 12).filter(|m| m.count_ones() == 4).collect()
}

impl EPair {
    /// Loads (or builds) the stage's tables.
    pub fn load(dir: &Path, quiet: bool) -> Result<EPair, TableError> {
        let bad = |id: &str, msg: String| TableError::Build(id.into(), msg);
        let moves = pairing_moves();
        for id in IDS {
            match catalog::find(id).map(|d| d.space) {
                Some(SpaceDef::Reduction5 { moves: m, .. }) if m == moves => {}
                _ => return Err(bad(id, "not an E-slice table of the pairing group".into())),
            }
        }
        let last = last8_moves();
        Ok(EPair {
            sides: SidesSpace::new(&moves, &last).map_err(|e| TableError::model(IDS[2], e))?,
            sides_tab: Nibbles::load(IDS[2], dir, quiet)?,
            spaces: [
                ESliceSpace::new(true, &moves).map_err(|e| TableError::model(IDS[0], e))?,
                ESliceSpace::new(false, &moves).map_err(|e| TableError::model(IDS[1], e))?,
            ],
            tabs: [
                Nibbles::load(IDS[0], dir, quiet)?,
                Nibbles::load(IDS[1], dir, quiet)?,
            ],
            tredges: Tredges::new(),
            moves,
        })
    }

    /// Bytes of the stage's tables.
    pub fn table_bytes(&self) -> u64 {
        self.tabs
            .iter()
            .map(|t| t.bytes().len() as u64)
            .sum::<u64>()
            + self.sides_tab.bytes().len() as u64
    }

    #[inline]
    fn sides_distance(&self, s: u32) -> u8 {
        match self.sides.rank(s) {
            u64::MAX => u8::MAX,
            r => nibble(self.sides_tab.bytes(), r as usize) as u8,
        }
    }

    /// The nodes of a 5x5x5 state that stage 3 left (fixed centres home),
    /// one per set of four tredges, best bound first, at most `keep`; or an
    /// error naming what stage 3 did not do (an internal one).
    pub fn roots(&self, state: &[u8], keep: usize) -> Result<Vec<NE>, SolveError> {
        self.roots_weighted(state, keep, 0)
    }

    /// [`EPair::roots`] with the bound weighted (see [`EPair::expand_weighted`]).
    pub fn roots_weighted(
        &self,
        state: &[u8],
        keep: usize,
        weight: u8,
    ) -> Result<Vec<NE>, SolveError> {
        let at = tredge_slots(&self.tredges, state)?;
        let sides = self.sides.project(state);
        if self.sides_distance(sides) == u8::MAX {
            return Err(SolveError::Internal(
                "stage 3 left centres the pairing group cannot solve".into(),
            ));
        }
        let mut out: Vec<NE> = fours()
            .into_iter()
            .map(|set| {
                let mut n = NE {
                    sides,
                    mids: [0; 4],
                    wings: [[0; 4]; 2],
                    h: 0,
                };
                let mut k = 0;
                for (t, a) in at.iter().enumerate() {
                    if set >> t & 1 == 1 {
                        n.mids[k] = a[0];
                        n.wings[0][k] = a[1];
                        n.wings[1][k] = a[2];
                        k += 1;
                    }
                }
                n.h = super::Last8::weighted(self.bound(&n), weight);
                n
            })
            .collect();
        out.sort_by_key(|n| n.h);
        out.truncate(keep.max(1));
        Ok(out)
    }

    fn bound(&self, n: &NE) -> u8 {
        let mut h = self.sides_distance(n.sides);
        for k in 0..2 {
            let r = ESliceSpace::index(&n.mids, &n.wings[k]) as usize;
            h = h.max(nibble(self.tabs[k].bytes(), r) as u8);
        }
        h
    }

    /// The bound of a node.
    pub fn h(&self, n: &NE) -> usize {
        n.h as usize
    }
}

impl Stage for EPair {
    type Node = NE;

    fn prune(&self, n: &NE, left: usize) -> bool {
        n.h as usize > left
    }

    fn goal(&self, n: &NE, _left: usize) -> Option<u8> {
        (n.h == 0).then_some(0)
    }

    fn expand(&self, n: &NE, prev: Option<usize>, left: usize, out: &mut Vec<(usize, NE)>) -> u64 {
        self.expand_weighted(n, prev, left, out, 0)
    }
}

impl EPair {
    /// [`Stage::expand`] with the bound weighted: times `1 + weight / 8`.
    pub fn expand_weighted(
        &self,
        n: &NE,
        prev: Option<usize>,
        left: usize,
        out: &mut Vec<(usize, NE)>,
        weight: u8,
    ) -> u64 {
        let left = left - 1;
        let prev = prev.map(|i| self.moves[i]);
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let sides = self.sides.apply(n.sides, i);
            let ds = self.sides_distance(sides);
            if ds as usize > left {
                dropped += 1;
                continue;
            }
            let (wm, mm) = &self.spaces[0].moves[i];
            let lm = &self.spaces[1].moves[i].0;
            let mut c = NE {
                sides,
                mids: n.mids.map(|x| mm[x as usize]),
                wings: [
                    n.wings[0].map(|x| wm[x as usize]),
                    n.wings[1].map(|x| lm[x as usize]),
                ],
                h: 0,
            };
            let mut h = ds;
            for w in 0..2 {
                let r = ESliceSpace::index(&c.mids, &c.wings[w]) as usize;
                h = h.max(nibble(self.tabs[w].bytes(), r) as u8);
            }
            c.h = super::Last8::weighted(h, weight);
            if c.h as usize > left {
                dropped += 1;
                continue;
            }
            out.push((i, c));
        }
        dropped
    }
}
