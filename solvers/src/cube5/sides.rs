//! Stages 2 and 3 of the 5x5x5 reduction, from U/D centres staged to a state
//! the pairing group solves: first the L/R T- and X-centres staged with an
//! even wing permutation ([`Sides`]), then the F/B centres arranged for the
//! group, every midge oriented and every high wing in a high slot
//! ([`Split`]). Both are a [`TwoTables`] stage: a node of a few masks, and
//! as bound the larger of two tables' exact distances, each of one part.

use crate::search::{allowed, Rooted, Stage};
use crate::tables::{nibble, MoveTable, Nibbles, TableError};
use crate::SolveError;
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube5::{
    part4, FbEoSpace, LrParitySpace, MidgeEoSpace, Recolour, Tredges, WingsSplitSpace,
};
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace};
use tablegen::split5::SplitEo;

/// What makes a [`TwoTables`] stage: its node, read off a state, moved by
/// the stage's moves, and its ranks in the stage's two tables.
pub trait Parts {
    /// The stage's masks.
    type Node: Copy + Send + Sync;
    /// The stage's name.
    const NAME: &'static str;
    /// The node of a 5x5x5 state; an internal error if its pieces cannot be
    /// read (the input was checked).
    fn read(&self, tredges: &Tredges, state: &[u8]) -> Result<Self::Node, SolveError>;
    /// The node after move `i`.
    fn child(&self, n: &Self::Node, i: usize) -> Self::Node;
    /// The node's rank in each table, the cheaper lookup first.
    fn ranks(&self, n: &Self::Node) -> [usize; 2];
    /// Every node a state may start from, each with the set of tredges it
    /// takes as recoloured ([`Recolour`]); most stages have one, unrecoloured.
    fn variants(
        &self,
        tredges: &Tredges,
        state: &[u8],
    ) -> Result<Vec<(Self::Node, u16)>, SolveError> {
        Ok(vec![(self.read(tredges, state)?, 0)])
    }
    /// Recolours the tredges of `set` in a state (see [`Parts::variants`]).
    fn recolour(&self, _state: &mut [u8], _set: u16) {}
    /// Bytes of the tables the parts read besides the stage's two.
    fn table_bytes(&self) -> u64 {
        0
    }
}

/// A stage bounded by two nibble tables, each exact for its part.
pub struct TwoTables<P: Parts> {
    /// The stage's moves.
    pub moves: Vec<Move>,
    parts: P,
    tredges: Tredges,
    tabs: [Nibbles; 2],
}

/// A node of a [`TwoTables`] stage: the parts and the bound.
#[derive(Clone, Copy, Debug)]
pub struct Node<N> {
    parts: N,
    h: u8,
}

/// Stage 2: the L/R T- and X-centres on L and R, an even wing permutation;
/// the 28 moves that keep U/D staged. Bound: the larger of
/// `5x5x5-lr-t-stage` and `5x5x5-lr-x-parity`.
pub type Sides = TwoTables<SidesParts>;

/// Stage 3: the F/B centres arranged as the pairing group can solve them,
/// every midge oriented, every high wing in a high slot; the 24 moves that
/// keep every centre on its axis (the 18 outer turns, the six wide half
/// turns), which keep the wing parity. Bound: the larger of
/// `5x5x5-fb-centres-eo` and `5x5x5-split-eo` (the wing split with the
/// midges' flips, up to symmetry: [`SplitEo`]).
///
/// Which tredges end flipped is the search's choice: a state has a root for
/// each of the 2,048 even sets of tredges, the set recoloured ([`Recolour`]:
/// its midges read flipped, its wings in the other class), and the stages
/// after it work on the recoloured cube. The 3x3x3 finish reads the real one.
pub type Split = TwoTables<SplitParts>;

/// Stage 2's tables.
pub const SIDES_IDS: [&str; 2] = ["5x5x5-lr-t-stage", "5x5x5-lr-x-parity"];

/// Stage 3's tables.
pub const SPLIT_IDS: [&str; 2] = ["5x5x5-fb-centres-eo", "5x5x5-split-eo"];

/// The classes of `5x5x5-split-eo`'s space ([`SplitEo::words`]).
pub const SPLIT_CLASSES_ID: &str = "5x5x5-split-eo-classes";

impl<P: Parts> TwoTables<P> {
    /// Loads (or builds) the tables `ids`, whose move set must be `moves`.
    fn with_tables(
        ids: [&str; 2],
        moves: Vec<Move>,
        parts: P,
        dir: &Path,
        quiet: bool,
    ) -> Result<Self, TableError> {
        for id in ids {
            let m = match catalog::find(id).map(|d| d.space) {
                Some(SpaceDef::Reduction5 { moves, .. } | SpaceDef::Facelets { moves, .. }) => {
                    moves
                }
                _ => {
                    return Err(TableError::Build(
                        id.into(),
                        "not a 5x5x5 stage table".into(),
                    ))
                }
            };
            if m != moves {
                return Err(TableError::Build(
                    id.into(),
                    "move set differs from the stage's".into(),
                ));
            }
        }
        Ok(TwoTables {
            moves,
            parts,
            tredges: Tredges::new(),
            tabs: [
                Nibbles::load(ids[0], dir, quiet)?,
                Nibbles::load(ids[1], dir, quiet)?,
            ],
        })
    }

    /// Bytes of the stage's tables.
    pub fn table_bytes(&self) -> u64 {
        self.tabs
            .iter()
            .map(|t| t.bytes().len() as u64)
            .sum::<u64>()
            + self.parts.table_bytes()
    }

    /// The node of a 5x5x5 state (fixed centres home).
    pub fn node(&self, state: &[u8]) -> Result<Node<P::Node>, SolveError> {
        let parts = self.parts.read(&self.tredges, state)?;
        let h = self.bound(&parts, usize::MAX).unwrap_or(u8::MAX as usize) as u8;
        Ok(Node { parts, h })
    }

    /// The bound of a node.
    pub fn h(&self, n: &Node<P::Node>) -> usize {
        n.h as usize
    }

    /// Every root of a state with its bound and its recoloured tredges
    /// ([`Parts::variants`]).
    pub fn roots(&self, state: &[u8]) -> Result<Vec<Rooted<Node<P::Node>>>, SolveError> {
        Ok(self
            .parts
            .variants(&self.tredges, state)?
            .into_iter()
            .map(|(parts, set)| {
                let h = self.bound(&parts, usize::MAX).unwrap_or(u8::MAX as usize);
                Rooted {
                    node: Node { parts, h: h as u8 },
                    bound: h,
                    set,
                }
            })
            .collect())
    }

    /// Recolours the tredges of `set` in a state.
    pub fn recolour(&self, state: &mut [u8], set: u16) {
        self.parts.recolour(state, set)
    }

    /// The larger of the two tables' distances, or None as soon as one
    /// exceeds `limit`.
    fn bound(&self, n: &P::Node, limit: usize) -> Option<usize> {
        let [r0, r1] = self.parts.ranks(n);
        let a = nibble(self.tabs[0].bytes(), r0);
        if a > limit {
            return None;
        }
        let b = nibble(self.tabs[1].bytes(), r1);
        (b <= limit).then_some(a.max(b))
    }
}

impl<P: Parts> Stage for TwoTables<P> {
    type Node = Node<P::Node>;

    fn prune(&self, n: &Self::Node, left: usize) -> bool {
        n.h as usize > left
    }

    fn goal(&self, n: &Self::Node, _left: usize) -> Option<u8> {
        (n.h == 0).then_some(0)
    }

    fn expand(
        &self,
        n: &Self::Node,
        prev: Option<usize>,
        left: usize,
        out: &mut Vec<(usize, Self::Node)>,
    ) -> u64 {
        let prev = prev.map(|i| self.moves[i]);
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let parts = self.parts.child(&n.parts, i);
            match self.bound(&parts, left - 1) {
                Some(h) => out.push((i, Node { parts, h: h as u8 })),
                None => dropped += 1,
            }
        }
        dropped
    }
}

/// Colours R and L marked.
const RL: [bool; 6] = {
    let mut m = [false; 6];
    m[Face::R as usize] = true;
    m[Face::L as usize] = true;
    m
};

/// Colour F marked.
const F: [bool; 6] = {
    let mut m = [false; 6];
    m[Face::F as usize] = true;
    m
};

/// Stage 2's parts: the L/R T- and X-centre ranks (each 12,870, followed
/// in a move table) and the wing parity.
pub struct SidesParts {
    t: FaceletMaskSpace,
    x: LrParitySpace,
    t_moves: MoveTable,
    x_moves: MoveTable,
}

impl Sides {
    /// Loads (or builds) the stage's tables.
    pub fn load(dir: &Path, quiet: bool) -> Result<Sides, TableError> {
        let bad = |id: &str, msg: String| TableError::Build(id.into(), msg);
        let moves = catalog::lr_stage_moves();
        let t = match catalog::find(SIDES_IDS[0]).map(|d| d.space) {
            Some(SpaceDef::Facelets { def, .. }) => {
                projection::build(&def, &moves).map_err(|e| TableError::model(SIDES_IDS[0], e))?
            }
            _ => return Err(bad(SIDES_IDS[0], "not a facelet projection".into())),
        };
        let x = LrParitySpace::new(&moves).map_err(|e| TableError::model(SIDES_IDS[1], e))?;
        let table = |id: &str, s: &FaceletMaskSpace| {
            MoveTable::new(s, moves.len()).ok_or_else(|| bad(id, "too large a space".into()))
        };
        let parts = SidesParts {
            t_moves: table(SIDES_IDS[0], &t)?,
            x_moves: table(SIDES_IDS[1], &x.x)?,
            t,
            x,
        };
        TwoTables::with_tables(SIDES_IDS, moves, parts, dir, quiet)
    }
}

impl Parts for SidesParts {
    /// The T- and X-centres' ranks and the wing parity.
    type Node = (u16, u16, bool);
    const NAME: &'static str = "sides";

    fn read(&self, tredges: &Tredges, state: &[u8]) -> Result<Self::Node, SolveError> {
        let wings = tredges
            .wings
            .read(&part4(state))
            .map_err(SolveError::internal)?;
        let rank = |s: &FaceletMaskSpace| s.rank(s.project(state, &RL)) as u16;
        Ok((rank(&self.t), rank(&self.x.x), tablegen::cube4::odd(&wings)))
    }

    fn child(&self, &(t, x, odd): &Self::Node, i: usize) -> Self::Node {
        (
            self.t_moves.step(t, i),
            self.x_moves.step(x, i),
            odd ^ self.x.odd[i],
        )
    }

    fn ranks(&self, &(t, x, odd): &Self::Node) -> [usize; 2] {
        [t as usize, 2 * x as usize + odd as usize]
    }
}

/// Stage 3's parts: the F/B T- and X-centre masks, the midge flips, the
/// slots of the high wings.
pub struct SplitParts {
    fb: FbEoSpace,
    split: SplitEo,
    recolour: Recolour,
    /// The even sets of tredges, fewest first: among roots of one bound
    /// the first kept are those whose real midges end least flipped.
    sets: Vec<u16>,
}

impl Split {
    /// A set of recoloured tredges once the colours are renamed
    /// ([`Recolour::rename_set`]): what a chain's marks become when the
    /// cube is seen in another frame.
    pub fn rename_set(&self, set: u16, rename: &[u8; 6]) -> u16 {
        self.parts.recolour.rename_set(set, rename)
    }

    /// Loads (or builds) the stage's tables.
    pub fn load(dir: &Path, quiet: bool) -> Result<Split, TableError> {
        let moves = catalog::axis_moves();
        let parts = SplitParts {
            fb: FbEoSpace::new(&moves).map_err(|e| TableError::model(SPLIT_IDS[0], e))?,
            // Its classes are a table too: mapped, not found again.
            split: SplitEo::with_classes(
                &moves,
                crate::tables::load_words(SPLIT_CLASSES_ID, dir, quiet)?,
            )
            .map_err(|e| TableError::model(SPLIT_CLASSES_ID, e))?,
            recolour: Recolour::new(),
            sets: {
                let mut v: Vec<u16> = (0u16..1 << 12)
                    .filter(|s| s.count_ones() % 2 == 0)
                    .collect();
                v.sort_by_key(|s| s.count_ones());
                v
            },
        };
        TwoTables::with_tables(SPLIT_IDS, moves, parts, dir, quiet)
    }
}

impl Parts for SplitParts {
    type Node = (u64, u64, u16, u32);
    const NAME: &'static str = "split";

    /// `5x5x5-split-eo-classes`.
    fn table_bytes(&self) -> u64 {
        self.split.class_bytes()
    }

    fn read(&self, tredges: &Tredges, state: &[u8]) -> Result<Self::Node, SolveError> {
        let wings = tredges
            .wings
            .read(&part4(state))
            .map_err(SolveError::internal)?;
        let (_, flip) = tredges.read_midges(state).map_err(SolveError::internal)?;
        Ok((
            self.fb.t.project(state, &F),
            self.fb.x.project(state, &F),
            MidgeEoSpace::mask(&flip),
            WingsSplitSpace::mask(&wings),
        ))
    }

    fn child(&self, &(t, x, eo, wings): &Self::Node, i: usize) -> Self::Node {
        (
            self.fb.t.apply(t, i),
            self.fb.x.apply(x, i),
            self.split.eo_move(eo, i),
            self.split.split.apply(wings, i),
        )
    }

    fn ranks(&self, &(t, x, eo, wings): &Self::Node) -> [usize; 2] {
        [
            self.fb.rank(t, x, eo) as usize,
            self.split.index(wings, eo) as usize,
        ]
    }

    fn variants(
        &self,
        tredges: &Tredges,
        state: &[u8],
    ) -> Result<Vec<(Self::Node, u16)>, SolveError> {
        let wings = tredges
            .wings
            .read(&part4(state))
            .map_err(SolveError::internal)?;
        let (piece, flip) = tredges.read_midges(state).map_err(SolveError::internal)?;
        let (t, x) = (self.fb.t.project(state, &F), self.fb.x.project(state, &F));
        let eo = MidgeEoSpace::mask(&flip);
        let mut out = Vec::with_capacity(self.sets.len());
        for &set in &self.sets {
            let flips = piece
                .iter()
                .enumerate()
                .filter(|&(_, &p)| set >> p & 1 == 1)
                .fold(0u16, |m, (slot, _)| m | 1 << slot);
            let high = wings
                .iter()
                .enumerate()
                .filter(|&(_, &p)| (p < 12) != (set >> (p % 12) & 1 == 1))
                .fold(0u32, |m, (slot, _)| m | 1 << slot);
            out.push(((t, x, eo ^ flips, high), set));
        }
        Ok(out)
    }

    fn recolour(&self, state: &mut [u8], set: u16) {
        self.recolour.apply(state, set)
    }
}
