//! The first 5x5x5 stage: the U/D-coloured T- and X-centres staged on U and
//! D with the 36 outer block turns.

use crate::search::{allowed, deepen, Clock, Found, Policy, Root, Share, Stage};
use crate::tables::{load_sparse, Nibbles, SparseTable, TableError};
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::notation::Move;
use tablegen::projection::{self, FaceletMaskSpace};

/// The tables of the stage: T-centres, X-centres, both within 5 moves.
pub const UD_IDS: [&str; 3] = ["5x5x5-ud-t-stage", "5x5x5-ud-x-stage", "5x5x5-ud-stage-d5"];

/// Depth of the sparse table: a state it does not hold is deeper.
const SPARSE_DEPTH: u8 = 5;

/// The stage: three projections of the centres (T, X, both), their moves and
/// tables.
pub struct CentresUd {
    moves: Vec<Move>,
    t: FaceletMaskSpace,
    x: FaceletMaskSpace,
    both: FaceletMaskSpace,
    t_tab: Nibbles,
    x_tab: Nibbles,
    both_tab: SparseTable,
}

/// A node: the three masks (U/D colour present at each tracked facelet) and
/// the bound.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    t: u64,
    x: u64,
    both: u64,
    h: u8,
}

/// The U/D colours, as the projections mark them.
const MARKED: [bool; 6] = [true, false, false, true, false, false];

impl CentresUd {
    /// Loads (or builds) the stage's tables from `dir`.
    pub fn load(dir: &Path, quiet: bool) -> Result<CentresUd, TableError> {
        let space = |id: &str| -> Result<(FaceletMaskSpace, Vec<Move>), TableError> {
            let bad = |msg: String| TableError::Build(id.into(), msg);
            match catalog::find(id).map(|d| d.space) {
                Some(SpaceDef::Facelets { def, moves })
                | Some(SpaceDef::SparseFacelets { def, moves, .. }) => {
                    Ok((projection::build(&def, &moves).map_err(bad)?, moves))
                }
                _ => Err(bad("not a facelet projection".into())),
            }
        };
        let (t, moves) = space(UD_IDS[0])?;
        let (x, mx) = space(UD_IDS[1])?;
        let (both, mb) = space(UD_IDS[2])?;
        if mx != moves || mb != moves {
            return Err(TableError::Build(
                UD_IDS[1].into(),
                "the three tables' move sets differ".into(),
            ));
        }
        Ok(CentresUd {
            moves,
            t,
            x,
            both,
            t_tab: Nibbles::load(UD_IDS[0], dir, quiet)?,
            x_tab: Nibbles::load(UD_IDS[1], dir, quiet)?,
            both_tab: load_sparse(UD_IDS[2], dir, quiet)?,
        })
    }

    /// The stage's moves.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The node of a 5x5x5 facelet state.
    pub fn node(&self, state: &[u8]) -> Node {
        let (t, x, both) = (
            self.t.project(state, &MARKED),
            self.x.project(state, &MARKED),
            self.both.project(state, &MARKED),
        );
        let h = self.bound_of(t, x, both, usize::MAX).unwrap_or(0) as u8;
        Node { t, x, both, h }
    }

    /// Lower bound of a node.
    pub fn bound(&self, n: &Node) -> usize {
        n.h as usize
    }

    /// Lower bound of masks `(t, x, both)`: the larger of the two orbits'
    /// exact distances, and where both are within the sparse table's depth,
    /// its distance for both orbits together (or one past its depth if it
    /// does not hold the state). `None` as soon as a part exceeds `limit`
    /// (the cheap parts are read first).
    fn bound_of(&self, t: u64, x: u64, both: u64, limit: usize) -> Option<usize> {
        let dt = crate::tables::nibble(self.t_tab.bytes(), self.t.rank(t) as usize);
        if dt > limit {
            return None;
        }
        let dx = crate::tables::nibble(self.x_tab.bytes(), self.x.rank(x) as usize);
        let h = dt.max(dx);
        if h > limit {
            return None;
        }
        if h > SPARSE_DEPTH as usize {
            return Some(h);
        }
        let d = self
            .both_tab
            .get(&both.to_be_bytes())
            .unwrap_or(SPARSE_DEPTH as u64 + 1);
        let h = h.max(d as usize);
        (h <= limit).then_some(h)
    }

    /// Up to `want` solutions of the shortest lengths (several per length),
    /// each as move indices into [`CentresUd::moves`], staging one of the
    /// three colour pairs on U and D: the root of a solution is the index
    /// into [`crate::moves::recolourings`] of the colour renaming that
    /// brings that pair to the U/D colours (0: the U/D pair itself).
    /// `axes` = 1 stages the U/D colours only.
    pub fn solve(&self, state: &[u8], axes: usize, want: usize, clock: Clock) -> Vec<Found> {
        let roots: Vec<Root<Node>> = crate::moves::recolourings()
            .iter()
            .take(axes.clamp(1, 3))
            .map(|colour| {
                let s: Vec<u8> = state.iter().map(|&c| colour[c as usize]).collect();
                let node = self.node(&s);
                Root {
                    node,
                    before: 0,
                    lower: self.bound(&node),
                }
            })
            .collect();
        let policy = Policy {
            want,
            level_nodes: u64::MAX,
            growth: 1,
            unlimited_after: 0,
            share: Share::Equal,
            enough_nodes: u64::MAX,
            more_nodes: u64::MAX,
            max_nodes: u64::MAX,
            max_total: 30,
        };
        deepen(self, &roots, &policy, clock).found
    }
}

impl Stage for CentresUd {
    type Node = Node;

    fn prune(&self, n: &Node, left: usize) -> bool {
        self.bound(n) > left
    }

    fn goal(&self, n: &Node, _left: usize) -> Option<u8> {
        (n.t == self.t.goal_mask() && n.x == self.x.goal_mask()).then_some(0)
    }

    /// Children whose bound exceeds what is left are dropped here (the T
    /// distance is read first, the X one and the sparse table only if it
    /// passes).
    fn expand(
        &self,
        n: &Node,
        prev: Option<usize>,
        left: usize,
        out: &mut Vec<(usize, Node)>,
    ) -> u64 {
        let prev = prev.map(|i| self.moves[i]);
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let (t, x, both) = (
                self.t.apply(n.t, i),
                self.x.apply(n.x, i),
                self.both.apply(n.both, i),
            );
            match self.bound_of(t, x, both, left - 1) {
                Some(h) => out.push((
                    i,
                    Node {
                        t,
                        x,
                        both,
                        h: h as u8,
                    },
                )),
                None => dropped += 1,
            }
        }
        dropped
    }
}
