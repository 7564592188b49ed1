//! 5x5x5 centre stages: the T- and X-centres of one colour pair staged on
//! their faces, each a [`CentreStage`] on the engine, defined by its catalog
//! tables (one per orbit, and optionally a sparse table of both orbits
//! together).

use crate::search::{allowed, deepen, Clock, Found, Policy, Root, Stage};
use crate::tables::{crumb, load_sparse, Crumbs, Nibbles, SparseTable, TableError};
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::centres5::{self, UdJoint};
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace};

/// Stage 1's tables: T-centres, X-centres, both within 5 moves, both within
/// 7 moves up to symmetry (hashed).
pub const UD_IDS: [&str; 4] = [
    "5x5x5-ud-t-stage",
    "5x5x5-ud-x-stage",
    "5x5x5-ud-stage-d5",
    "5x5x5-ud-stage-hashed",
];

/// Stage 2's tables: the L/R T- and X-centres among the side faces.
pub const LR_IDS: [&str; 2] = ["5x5x5-lr-t-stage", "5x5x5-lr-x-stage"];

/// Stage 3's tables: the T- and X-centres solved once staged.
pub const SOLVE_IDS: [&str; 2] = ["5x5x5-t-centres-solve", "5x5x5-x-centres-solve"];

/// A centre stage: per orbit a projection and its distance table, optionally
/// a projection of both orbits with a sparse table, the moves, the colours the
/// projections mark.
pub struct CentreStage {
    moves: Vec<Move>,
    marked: [bool; 6],
    orbits: [(FaceletMaskSpace, Nibbles); 2],
    /// Both orbits together, the sparse table and its depth.
    both: Option<(FaceletMaskSpace, SparseTable, usize)>,
    /// Both orbits together up to symmetry, hashed (its orbits are the
    /// stage's two).
    hashed: Option<(UdJoint, Crumbs)>,
}

/// A node: the masks of the two orbits and of both together (0 when the
/// stage has no such table), and the bound.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    masks: [u64; 3],
    h: u8,
    /// The move (index) made just before this node where the engine does
    /// not know it: a root split off by its first move
    /// ([`CentreStage::solve_from_on`]); [`NO_MOVE`] otherwise.
    after: u8,
}

/// [`Node::after`] of a node the engine knows the last move of.
const NO_MOVE: u8 = u8::MAX;

/// The longest stage-1 solution looked for.
const MAX_TOTAL: usize = 60;

/// The projection and moves of a catalog table, and the sparse depth if it
/// is a sparse one.
fn space_of(id: &str) -> Result<(FaceletMaskSpace, Vec<Move>, Option<usize>), TableError> {
    let bad = |msg: String| TableError::Build(id.into(), msg);
    match catalog::find(id).map(|d| d.space) {
        Some(SpaceDef::Facelets { def, moves }) => Ok((
            projection::build(&def, &moves).map_err(|e| TableError::model(id, e))?,
            moves,
            None,
        )),
        Some(SpaceDef::SparseFacelets {
            def,
            moves,
            max_depth,
        }) => Ok((
            projection::build(&def, &moves).map_err(|e| TableError::model(id, e))?,
            moves,
            Some(max_depth as usize),
        )),
        _ => Err(bad("not a facelet projection".into())),
    }
}

impl CentreStage {
    /// Stage 1: the U/D T- and X-centres on U and D, with the 36 outer block
    /// turns.
    pub fn ud(dir: &Path, quiet: bool) -> Result<CentreStage, TableError> {
        let mut stage = CentreStage::load(
            &UD_IDS[..2],
            Some(UD_IDS[2]),
            &[Face::U, Face::D],
            dir,
            quiet,
        )?;
        let id = UD_IDS[3];
        let joint = match catalog::find(id).map(|d| d.space) {
            Some(SpaceDef::HashedCentres5 { t, x, moves }) if moves == stage.moves => {
                UdJoint::new(&t, &x, &moves).map_err(|e| TableError::model(id, e))?
            }
            _ => {
                return Err(TableError::Build(
                    id.into(),
                    "not a hashed table of the stage's moves".into(),
                ))
            }
        };
        if joint.t.positions != stage.orbits[0].0.positions
            || joint.x.positions != stage.orbits[1].0.positions
        {
            return Err(TableError::Build(
                id.into(),
                "its orbits are not the stage's".into(),
            ));
        }
        stage.hashed = Some((joint, Crumbs::load_crumbs(id, dir, quiet)?));
        Ok(stage)
    }

    /// Stage 2 (once U/D are staged): the L/R T- and X-centres on L and R,
    /// with the 28 moves that keep U/D staged (no `Rw Lw Fw Bw` quarters).
    pub fn lr(dir: &Path, quiet: bool) -> Result<CentreStage, TableError> {
        CentreStage::load(&LR_IDS, None, &[Face::R, Face::L], dir, quiet)
    }

    /// Stage 3 (once U/D and L/R are staged): every T- and X-centre on its
    /// face, with the 24 moves that keep the staging (wide turns only as half
    /// turns). Its tables mark one colour of each pair (U, R, F).
    pub fn solved(dir: &Path, quiet: bool) -> Result<CentreStage, TableError> {
        CentreStage::load(&SOLVE_IDS, None, &[Face::U, Face::R, Face::F], dir, quiet)
    }

    /// A stage of the two orbit tables `ids` (and the sparse table `both`)
    /// whose projections mark the colours `pair`.
    pub fn load(
        ids: &[&str],
        both: Option<&str>,
        pair: &[Face],
        dir: &Path,
        quiet: bool,
    ) -> Result<CentreStage, TableError> {
        let [a, b] = ids else {
            return Err(TableError::Build(
                ids.join(","),
                "a centre stage has two orbit tables".into(),
            ));
        };
        let (ta, moves, _) = space_of(a)?;
        let (tb, mb, _) = space_of(b)?;
        let same = |id: &str, m: &[Move]| {
            if m == moves.as_slice() {
                Ok(())
            } else {
                Err(TableError::Build(
                    id.into(),
                    "move set differs from the stage's".into(),
                ))
            }
        };
        same(b, &mb)?;
        let both = match both {
            Some(id) => {
                let (space, m, depth) = space_of(id)?;
                same(id, &m)?;
                let depth =
                    depth.ok_or_else(|| TableError::Build(id.into(), "not sparse".into()))?;
                Some((space, load_sparse(id, dir, quiet)?, depth))
            }
            None => None,
        };
        let mut marked = [false; 6];
        for &f in pair {
            marked[f as usize] = true;
        }
        Ok(CentreStage {
            orbits: [
                (ta, Nibbles::load(a, dir, quiet)?),
                (tb, Nibbles::load(b, dir, quiet)?),
            ],
            moves,
            marked,
            both,
            hashed: None,
        })
    }

    /// Bytes of the stage's tables.
    pub fn table_bytes(&self) -> u64 {
        self.orbits
            .iter()
            .map(|o| o.1.bytes().len() as u64)
            .sum::<u64>()
            + self.both.as_ref().map_or(0, |b| b.1.bytes())
            + self.hashed.as_ref().map_or(0, |h| h.1.bytes().len() as u64)
    }

    /// The stage's moves.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The node of a 5x5x5 facelet state.
    pub fn node(&self, state: &[u8]) -> Node {
        let p = |s: &FaceletMaskSpace| s.project(state, &self.marked);
        let masks = [
            p(&self.orbits[0].0),
            p(&self.orbits[1].0),
            self.both.as_ref().map_or(0, |b| p(&b.0)),
        ];
        let h = self.bound_of(&masks, usize::MAX).unwrap_or(0) as u8;
        Node {
            masks,
            h,
            after: NO_MOVE,
        }
    }

    /// Lower bound of a node.
    pub fn bound(&self, n: &Node) -> usize {
        n.h as usize
    }

    /// Lower bound of masks: the larger of the orbits' exact distances, and
    /// where both are within the sparse table's depth, its distance for both
    /// orbits together (or one past its depth if it does not hold the state),
    /// and where that is within the hashed table's depth, the hashed
    /// table's bound.
    /// `None` as soon as a part exceeds `limit` (the cheap parts are read
    /// first).
    fn bound_of(&self, masks: &[u64; 3], limit: usize) -> Option<usize> {
        let mut h = 0;
        for (k, (space, tab)) in self.orbits.iter().enumerate() {
            h = h.max(crate::tables::nibble(
                tab.bytes(),
                space.rank(masks[k]) as usize,
            ));
            if h > limit {
                return None;
            }
        }
        if let Some((_, tab, depth)) = &self.both {
            if h <= *depth {
                let d = tab
                    .get(&masks[2].to_be_bytes())
                    .unwrap_or(*depth as u64 + 1);
                h = h.max(d as usize);
            }
        }
        if let Some((joint, tab)) = &self.hashed {
            if h <= centres5::MAX_DEPTH as usize && h <= limit {
                let (key, _) = joint.key(masks[0], masks[1]);
                let code = crumb(tab.bytes(), centres5::bucket(key));
                h = h.max(centres5::bound_of_code(code) as usize);
            }
        }
        (h <= limit).then_some(h)
    }

    /// Up to `want` solutions of the shortest lengths (several per length),
    /// each as move indices into [`CentreStage::moves`], staging one of the
    /// three colour pairs on its own axis (the axis of its fixed centres,
    /// which the stages' moves never move): the root of a solution is the
    /// index into [`crate::moves::axis_rotations`] of the frame it was found
    /// in ([`in_frame`]); its moves are for the cube in that frame
    /// (`tablegen::cube::unrotate` names them for the cube as it is). `axes`
    /// = 1 stages the stage's own pair only.
    /// On `threads` threads ([`CentreStage::solve_from_on`]).
    pub fn solve(
        &self,
        state: &[u8],
        axes: usize,
        want: usize,
        clock: Clock,
        threads: usize,
    ) -> Vec<Found> {
        let starts: Vec<(Vec<u8>, usize)> = crate::moves::axis_rotations()
            .iter()
            .take(axes.clamp(1, 3))
            .map(|r| (in_frame(state, r), 0))
            .collect();
        self.solve_from_on(&starts, want, clock, threads)
    }

    /// [`CentreStage::solve_from`] on `threads` threads of the current
    /// rayon pool: the starts are few (one per axis), so each is split into
    /// its children, one root per first move, and those are dealt out
    /// ([`crate::search::deepen_on_threads`]); each remembers its first move
    /// for the move-order rule. Shortest first, as on one thread; where one
    /// thread runs a length ahead of the other, the `want` may include a
    /// few of the next length in place of the last of this one.
    pub fn solve_from_on(
        &self,
        starts: &[(Vec<u8>, usize)],
        want: usize,
        clock: Clock,
        threads: usize,
    ) -> Vec<Found> {
        if threads <= 1 {
            return self.solve_from(starts, want, clock);
        }
        let mut found = Vec::new();
        // (start, first move) of each split root.
        let mut first = Vec::new();
        let mut roots = Vec::new();
        let mut kids = Vec::new();
        for (k, start) in self.roots(starts).iter().enumerate() {
            if self.goal(&start.node, 0).is_some() {
                found.push(Found {
                    root: k,
                    path: Vec::new(),
                    tag: 0,
                });
            }
            kids.clear();
            self.expand(&start.node, None, MAX_TOTAL, &mut kids);
            for &(i, mut child) in &kids {
                child.after = i as u8;
                first.push((k, i));
                roots.push(Root {
                    node: child,
                    before: start.before + 1,
                    lower: start.before + 1 + self.bound(&child),
                });
            }
        }
        // Best bound first, as the engine deals them.
        let mut order: Vec<usize> = (0..roots.len()).collect();
        order.sort_by_key(|&j| roots[j].lower);
        let roots: Vec<Root<Node>> = order.iter().map(|&j| roots[j]).collect();
        let mut policy = Policy::exhaustive(want, MAX_TOTAL);
        policy.threads = threads;
        let out = crate::search::deepen_on_threads(self, &roots, &policy, clock);
        found.extend(out.found.into_iter().map(|f| {
            let (k, i) = first[order[f.root]];
            let mut path = vec![i];
            path.extend(f.path);
            Found {
                root: k,
                path,
                tag: f.tag,
            }
        }));
        found.truncate(want);
        found
    }

    /// Up to `want` solutions from several starts (a state and the moves
    /// already taken to reach it), shortest in total first; the root of a
    /// solution is the index of its start.
    pub fn solve_from(&self, starts: &[(Vec<u8>, usize)], want: usize, clock: Clock) -> Vec<Found> {
        let policy = Policy::exhaustive(want, MAX_TOTAL);
        deepen(self, &self.roots(starts), &policy, clock).found
    }

    /// The roots of several starts (a state and the moves before it).
    fn roots(&self, starts: &[(Vec<u8>, usize)]) -> Vec<Root<Node>> {
        starts
            .iter()
            .map(|(s, before)| {
                let node = self.node(s);
                Root {
                    node,
                    before: *before,
                    lower: before + self.bound(&node),
                }
            })
            .collect()
    }
}

/// A 5x5x5 state as seen after the whole-cube turn `rotation`, its colours
/// renamed so that each face's fixed centre shows that face's colour: the
/// same problem in another frame (a real cube, and moves that solve it solve
/// the original once renamed by `tablegen::cube::unrotate`).
pub fn in_frame(state: &[u8], rotation: &[Move]) -> Vec<u8> {
    let cube = tablegen::cube::CubeN::new(5);
    let mut s = state.to_vec();
    cube.apply_alg(&mut s, rotation);
    let mut rename = [0u8; 6];
    for f in Face::ALL {
        rename[s[cube.index(f, 2, 2)] as usize % 6] = f as u8;
    }
    s.iter().map(|&c| rename[c as usize % 6]).collect()
}

impl Stage for CentreStage {
    type Node = Node;

    fn prune(&self, n: &Node, left: usize) -> bool {
        self.bound(n) > left
    }

    fn goal(&self, n: &Node, _left: usize) -> Option<u8> {
        let done = (0..2).all(|k| n.masks[k] == self.orbits[k].0.goal_mask());
        done.then_some(0)
    }

    /// Children whose bound exceeds what is left are dropped here (the first
    /// orbit's distance is read first, the rest only if it passes).
    fn expand(
        &self,
        n: &Node,
        prev: Option<usize>,
        left: usize,
        out: &mut Vec<(usize, Node)>,
    ) -> u64 {
        let prev = prev
            .or((n.after != NO_MOVE).then_some(n.after as usize))
            .map(|i| self.moves[i]);
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let masks = [
                self.orbits[0].0.apply(n.masks[0], i),
                self.orbits[1].0.apply(n.masks[1], i),
                self.both.as_ref().map_or(0, |b| b.0.apply(n.masks[2], i)),
            ];
            match self.bound_of(&masks, left - 1) {
                Some(h) => out.push((
                    i,
                    Node {
                        masks,
                        h: h as u8,
                        after: NO_MOVE,
                    },
                )),
                None => dropped += 1,
            }
        }
        dropped
    }
}
