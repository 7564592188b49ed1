//! Stages 2 and 3 of the 5x5x5 reduction, from U/D centres staged to a state
//! the pairing group solves: first the L/R T- and X-centres staged with an
//! even wing permutation ([`Sides`]), then the F/B centres arranged for the
//! group, every midge oriented and every high wing in a high slot
//! ([`Split`]).

use crate::search::{allowed, Stage};
use crate::tables::{nibble, Nibbles, TableError};
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube5::{FbEoSpace, LrParitySpace, MidgeEoSpace, Tredges, WingsSplitSpace};
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace};

/// Stage 2's tables.
pub const SIDES_IDS: [&str; 2] = ["5x5x5-lr-t-stage", "5x5x5-lr-x-parity"];

/// Stage 3's tables.
pub const SPLIT_IDS: [&str; 2] = ["5x5x5-fb-centres-eo", "5x5x5-wings-split"];

/// The move set of a catalog table, checked against a stage's.
fn moves_of(id: &str, want: &[Move]) -> Result<(), TableError> {
    let bad = |msg: String| TableError::Build(id.into(), msg);
    let m = match catalog::find(id).map(|d| d.space) {
        Some(SpaceDef::Reduction5 { moves, .. } | SpaceDef::Facelets { moves, .. }) => moves,
        _ => return Err(bad("not a 5x5x5 stage table".into())),
    };
    if m != want {
        return Err(bad("move set differs from the stage's".into()));
    }
    Ok(())
}

/// A stage-2 node: the L/R T- and X-centre masks, the wing parity, the bound.
#[derive(Clone, Copy, Debug)]
pub struct N2 {
    t: u64,
    x: u64,
    odd: bool,
    h: u8,
}

/// Stage 2: the L/R T- and X-centres on L and R, an even wing permutation;
/// the 28 moves that keep U/D staged. Bound: the larger of
/// `5x5x5-lr-t-stage` and `5x5x5-lr-x-parity` (each exact for its part).
pub struct Sides {
    /// The stage's moves.
    pub moves: Vec<Move>,
    t: FaceletMaskSpace,
    x: LrParitySpace,
    tredges: Tredges,
    tabs: [Nibbles; 2],
}

/// Colours R and L marked.
const RL: [bool; 6] = {
    let mut m = [false; 6];
    m[Face::R as usize] = true;
    m[Face::L as usize] = true;
    m
};

impl Sides {
    /// Loads (or builds) the stage's tables.
    pub fn load(dir: &Path, quiet: bool) -> Result<Sides, TableError> {
        let bad = |id: &str, msg: String| TableError::Build(id.into(), msg);
        let moves = catalog::lr_stage_moves();
        for id in SIDES_IDS {
            moves_of(id, &moves)?;
        }
        let t = match catalog::find(SIDES_IDS[0]).map(|d| d.space) {
            Some(SpaceDef::Facelets { def, .. }) => {
                projection::build(&def, &moves).map_err(|e| bad(SIDES_IDS[0], e))?
            }
            _ => return Err(bad(SIDES_IDS[0], "not a facelet projection".into())),
        };
        Ok(Sides {
            t,
            x: LrParitySpace::new(&moves).map_err(|e| bad(SIDES_IDS[1], e))?,
            tredges: Tredges::new(),
            tabs: [
                Nibbles::load(SIDES_IDS[0], dir, quiet)?,
                Nibbles::load(SIDES_IDS[1], dir, quiet)?,
            ],
            moves,
        })
    }

    /// Bytes of the stage's tables.
    pub fn table_bytes(&self) -> u64 {
        self.tabs.iter().map(|t| t.bytes().len() as u64).sum()
    }

    /// The node of a 5x5x5 state (U/D centres staged, fixed centres home).
    pub fn node(&self, state: &[u8]) -> Result<N2, String> {
        let wings = self.tredges.wings.read(&tablegen::cube5::part4(state))?;
        let mut n = N2 {
            t: self.t.project(state, &RL),
            x: self.x.x.project(state, &RL),
            odd: tablegen::cube4::odd(&wings),
            h: 0,
        };
        n.h = self.bound(&n, usize::MAX).unwrap_or(u8::MAX as usize) as u8;
        Ok(n)
    }

    /// The bound of a node.
    pub fn h(&self, n: &N2) -> usize {
        n.h as usize
    }

    fn bound(&self, n: &N2, limit: usize) -> Option<usize> {
        let a = nibble(self.tabs[0].bytes(), self.t.rank(n.t) as usize);
        if a > limit {
            return None;
        }
        let b = nibble(
            self.tabs[1].bytes(),
            2 * self.x.x.rank(n.x) as usize + n.odd as usize,
        );
        (b <= limit).then_some(a.max(b))
    }
}

impl Stage for Sides {
    type Node = N2;

    fn prune(&self, n: &N2, left: usize) -> bool {
        n.h as usize > left
    }

    fn goal(&self, n: &N2, _left: usize) -> Option<u8> {
        (n.h == 0).then_some(0)
    }

    fn expand(&self, n: &N2, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N2)>) -> u64 {
        let prev = prev.map(|i| self.moves[i]);
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let mut c = N2 {
                t: self.t.apply(n.t, i),
                x: self.x.x.apply(n.x, i),
                odd: n.odd ^ self.x.odd[i],
                h: 0,
            };
            match self.bound(&c, left - 1) {
                Some(h) => {
                    c.h = h as u8;
                    out.push((i, c));
                }
                None => dropped += 1,
            }
        }
        dropped
    }
}

/// A stage-3 node: the F/B T- and X-centre masks, the midge flips, the slots
/// of the high wings, the bound.
#[derive(Clone, Copy, Debug)]
pub struct N3 {
    t: u64,
    x: u64,
    eo: u16,
    wings: u32,
    h: u8,
}

/// Stage 3: the F/B centres arranged as the pairing group can solve them,
/// every midge oriented, every high wing in a high slot; the 24 moves that
/// keep every centre on its axis (the 18 outer turns, the six wide half
/// turns), which keep the wing parity. Bound: the larger of
/// `5x5x5-fb-centres-eo` and `5x5x5-wings-split` (each exact for its part).
pub struct Split {
    /// The stage's moves.
    pub moves: Vec<Move>,
    fb: FbEoSpace,
    split: WingsSplitSpace,
    tredges: Tredges,
    tabs: [Nibbles; 2],
}

/// Colour F marked.
const F: [bool; 6] = {
    let mut m = [false; 6];
    m[Face::F as usize] = true;
    m
};

impl Split {
    /// Loads (or builds) the stage's tables.
    pub fn load(dir: &Path, quiet: bool) -> Result<Split, TableError> {
        let bad = |id: &str, msg: String| TableError::Build(id.into(), msg);
        let moves = catalog::axis_moves();
        for id in SPLIT_IDS {
            moves_of(id, &moves)?;
        }
        Ok(Split {
            fb: FbEoSpace::new(&moves).map_err(|e| bad(SPLIT_IDS[0], e))?,
            split: WingsSplitSpace::new(&moves).map_err(|e| bad(SPLIT_IDS[1], e))?,
            tredges: Tredges::new(),
            tabs: [
                Nibbles::load(SPLIT_IDS[0], dir, quiet)?,
                Nibbles::load(SPLIT_IDS[1], dir, quiet)?,
            ],
            moves,
        })
    }

    /// Bytes of the stage's tables.
    pub fn table_bytes(&self) -> u64 {
        self.tabs.iter().map(|t| t.bytes().len() as u64).sum()
    }

    /// The node of a 5x5x5 state (every centre on its axis).
    pub fn node(&self, state: &[u8]) -> Result<N3, String> {
        let wings = self.tredges.wings.read(&tablegen::cube5::part4(state))?;
        let (_, flip) = self.tredges.read_midges(state)?;
        let mut n = N3 {
            t: self.fb.t.project(state, &F),
            x: self.fb.x.project(state, &F),
            eo: MidgeEoSpace::mask(&flip),
            wings: WingsSplitSpace::mask(&wings),
            h: 0,
        };
        n.h = self.bound(&n, usize::MAX).unwrap_or(u8::MAX as usize) as u8;
        Ok(n)
    }

    /// The bound of a node.
    pub fn h(&self, n: &N3) -> usize {
        n.h as usize
    }

    fn bound(&self, n: &N3, limit: usize) -> Option<usize> {
        let a = nibble(self.tabs[0].bytes(), self.fb.rank(n.t, n.x, n.eo) as usize);
        if a > limit {
            return None;
        }
        let b = nibble(self.tabs[1].bytes(), self.split.rank(n.wings) as usize);
        (b <= limit).then_some(a.max(b))
    }
}

impl Stage for Split {
    type Node = N3;

    fn prune(&self, n: &N3, left: usize) -> bool {
        n.h as usize > left
    }

    fn goal(&self, n: &N3, _left: usize) -> Option<u8> {
        (n.h == 0).then_some(0)
    }

    fn expand(&self, n: &N3, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N3)>) -> u64 {
        let prev = prev.map(|i| self.moves[i]);
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let mut c = N3 {
                t: self.fb.t.apply(n.t, i),
                x: self.fb.x.apply(n.x, i),
                eo: self.fb.eo.apply(n.eo, i),
                wings: self.split.apply(n.wings, i),
                h: 0,
            };
            match self.bound(&c, left - 1) {
                Some(h) => {
                    c.h = h as u8;
                    out.push((i, c));
                }
                None => dropped += 1,
            }
        }
        dropped
    }
}
