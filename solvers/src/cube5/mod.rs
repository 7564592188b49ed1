//! 5x5x5: the stages of a reduction on the engine ([`crate::search`]).
//!
//! A 5x5x5's corners, X-centres and wings are a 4x4x4 under every turn of one
//! or two layers (`tablegen::cube5::part4`), so the 4x4x4's wing classes and
//! tables serve the 5x5x5 as they are; the 5x5x5 adds its T-centres and its
//! midges. The stages never turn a middle layer, so the fixed centres stay
//! home and say which colour each face ends with.
//!
//! | stage | goal | moves | bound |
//! |---|---|---|---|
//! | `centres-ud` ([`CentreStage::ud`]) | the T- and X-centres of one colour pair on their axis (each of the three pairs, the cube turned so that it is U-D: [`in_frame`]) | the 36 outer block turns | max of `5x5x5-ud-t-stage` and `5x5x5-ud-x-stage` (exact for each orbit alone); where both are at most 5, `5x5x5-ud-stage-d5` (both orbits) |
//! | `sides` ([`Sides`]) | also the L/R T- and X-centres on L and R, an even wing permutation | 28: no `Rw Lw Fw Bw` quarter turns | max of `5x5x5-lr-t-stage` and `5x5x5-lr-x-parity` |
//! | `split` ([`Split`]) | the F/B centres arranged as the pairing group reaches them, every midge oriented, every high wing in a high slot | 24: the outer turns and the six wide half turns | max of `5x5x5-fb-centres-eo` and `5x5x5-wings-split` |
//! | `pair` ([`Pair`]) | every centre solved, every tredge paired | 20: `U D R L` turns, `F2 B2`, the six wide half turns | max of the T- and X-centre distances in the group and the exact pairing distances of `4x4x4-wings-pair` (high with low wings) and `5x5x5-tredges-pair` (high wings with midges) |
//! | `last8` ([`Last8`]) | with the E-slice tredges paired: the U/D-layer tredges paired, every centre solved | 14: `U D` turns, `R2 L2 F2 B2`, `Rw2 Lw2 Fw2 Bw2` | max of the T- and X-centre distances in the group and three exact 8! relative-permutation distances (computed at load) |
//!
//! [`Solver::reduce`] chains the first three: each starts from many of the
//! last one's solutions at once (each a root of the engine with the moves it
//! already took), so the chain found first is the shortest in total over
//! them; it ends in the pairing group's orbit of solved. The `pair` stage is
//! correct but its bound is far below the truth on random states, and
//! `last8`, the planned end of a pairing in two stages, is correct and often
//! but not always fast (see `docs/5x5x5.md`): `cubesolve` has no 5x5x5
//! solver until the pairing has stages whose bounds hold.

mod centres;
mod last8;
mod pair;
mod sides;

pub use centres::{in_frame, CentreStage, LR_IDS, SOLVE_IDS, UD_IDS};
pub use last8::Last8;
pub use pair::Pair;
pub use sides::{Parts, Sides, Split, TwoTables};

use crate::moves::axis_rotations;
use crate::search::{deepen, Clock, Policy, Root, Share};
use crate::tables::TableError;
use crate::SolveError;
use std::path::Path;
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;
use tablegen::notation::Move;
use tablegen::validate::validate;

/// Options of a 5x5x5 reduction.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Time for the stages; once they have a solution, the budget ends the
    /// search.
    pub time_budget: Duration,
    /// Time after which a search that has found nothing gives up with
    /// [`SolveError::OutOfTime`] (never less than the time budget).
    pub hard_limit: Duration,
    /// Stage-1 solutions handed to stage 2 (over the three axes).
    pub stage1_candidates: usize,
    /// Stage-2 and stage-3 solutions handed on.
    pub stage2_candidates: usize,
    /// Node budget of one stage-2 or stage-3 length before the next is tried.
    pub stage2_level_nodes: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_budget: Duration::from_millis(1000),
            hard_limit: Duration::from_secs(60),
            stage1_candidates: 200,
            stage2_candidates: 50,
            stage2_level_nodes: 2_000_000,
        }
    }
}

/// The 5x5x5 reduction stages (see the module documentation).
pub struct Solver {
    cube: CubeN,
    ud: CentreStage,
    sides: Sides,
    split: Split,
    pair: Pair,
}

/// A chain of stages so far: its frame (an index into
/// [`axis_rotations`]), its moves in that frame, the length of each stage,
/// the state after them (in that frame).
#[derive(Clone)]
struct Chain {
    axis: usize,
    moves: Vec<Move>,
    lens: Vec<usize>,
    state: Vec<u8>,
}

impl Solver {
    /// Loads (or builds) every table the solver uses from `dir`.
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        Ok(Solver {
            cube: CubeN::new(5),
            ud: CentreStage::ud(dir, quiet)?,
            sides: Sides::load(dir, quiet)?,
            split: Split::load(dir, quiet)?,
            pair: Pair::load(dir, quiet)?,
        })
    }

    /// Bytes of every table the solver reads.
    pub fn table_bytes(&self) -> u64 {
        self.ud.table_bytes()
            + self.sides.table_bytes()
            + self.split.table_bytes()
            + self.pair.table_bytes()
    }

    /// Stage 1 on all three axes: up to `want` chains, shortest first.
    fn stage1(&self, state: &[u8], want: usize, clock: Clock) -> Vec<Chain> {
        let rotations = axis_rotations();
        let found = self.ud.solve(state, 3, want, clock);
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for f in found {
            let mut s = in_frame(state, &rotations[f.root]);
            let moves: Vec<Move> = f.path.iter().map(|&i| self.ud.moves()[i]).collect();
            self.cube.apply_alg(&mut s, &moves);
            if seen.insert(s.clone()) {
                out.push(Chain {
                    axis: f.root,
                    lens: vec![moves.len()],
                    moves,
                    state: s,
                });
            }
        }
        out
    }

    /// Runs a stage from every chain at once; up to `policy.want` longer
    /// chains, shortest in total first.
    fn next_stage<S: Chained>(
        &self,
        stage: &S,
        chains: &[Chain],
        policy: &Policy,
        clock: Clock,
    ) -> Result<Vec<Chain>, SolveError> {
        let (moves, name) = (stage.moves(), stage.name());
        let mut roots = Vec::new();
        for c in chains {
            let (node, bound) = stage.root(&c.state).map_err(SolveError::Internal)?;
            roots.push(Root {
                node,
                before: c.moves.len(),
                lower: c.moves.len() + bound,
            });
        }
        let found = deepen(stage, &roots, policy, clock);
        if found.found.is_empty() {
            return Err(if found.expired {
                SolveError::OutOfTime(name.into())
            } else {
                SolveError::Internal(format!("{name} found nothing"))
            });
        }
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for f in found.found {
            let c = &chains[f.root];
            let m: Vec<Move> = f.path.iter().map(|&i| moves[i]).collect();
            let mut s = c.state.clone();
            self.cube.apply_alg(&mut s, &m);
            if !seen.insert(s.clone()) {
                continue;
            }
            let mut all = c.moves.clone();
            all.extend(&m);
            let mut lens = c.lens.clone();
            lens.push(m.len());
            out.push(Chain {
                axis: c.axis,
                moves: all,
                lens,
                state: s,
            });
        }
        Ok(out)
    }

    /// Stages 1 to 3 of a 5x5x5 facelet state (150 facelets, colours as
    /// [`CubeN::solved`]): the shortest chains found, at most
    /// `opts.stage2_candidates`, each ending in the pairing group's orbit of
    /// solved.
    pub fn reduce(&self, state: &[u8], opts: Options) -> Result<Vec<Reduced>, SolveError> {
        validate(&self.cube, state).map_err(SolveError::Input)?;
        let start = Instant::now();
        let clock = Clock {
            soft: start + opts.time_budget,
            hard: start + opts.hard_limit.max(opts.time_budget),
        };
        let chains = self.stage1(state, opts.stage1_candidates, clock);
        if chains.is_empty() {
            return Err(SolveError::OutOfTime("centres-ud".into()));
        }
        let policy = Policy {
            want: opts.stage2_candidates,
            level_nodes: opts.stage2_level_nodes,
            growth: 4,
            unlimited_after: 6,
            share: Share::Equal,
            enough_nodes: u64::MAX,
            more_nodes: u64::MAX,
            max_nodes: u64::MAX,
            max_total: 80,
        };
        let chains = self.next_stage(&self.sides, &chains, &policy, clock)?;
        let chains = self.next_stage(&self.split, &chains, &policy, clock)?;
        Ok(chains
            .into_iter()
            .map(|c| Reduced {
                moves: tablegen::cube::unrotate(&c.moves, &axis_rotations()[c.axis]),
                rotation: axis_rotations()[c.axis].clone(),
                lens: [c.lens[0], c.lens[1], c.lens[2]],
                state: c.state,
            })
            .collect())
    }

    /// The pairing stage.
    pub fn pair(&self) -> &Pair {
        &self.pair
    }
}

/// A stage as a link of the chain: its moves, its name, and the root node
/// of a state with its bound.
pub trait Chained: crate::search::Stage {
    /// The stage's moves.
    fn moves(&self) -> &[Move];
    /// The stage's name in solutions and errors.
    fn name(&self) -> &'static str;
    /// The node of a state and its bound.
    fn root(&self, state: &[u8]) -> Result<(Self::Node, usize), String>;
}

impl<P: sides::Parts> Chained for sides::TwoTables<P> {
    fn moves(&self) -> &[Move] {
        &self.moves
    }
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn root(&self, state: &[u8]) -> Result<(Self::Node, usize), String> {
        let n = self.node(state)?;
        Ok((n, self.h(&n)))
    }
}

impl Chained for Pair {
    fn moves(&self) -> &[Move] {
        &self.moves
    }
    fn name(&self) -> &'static str {
        "pair"
    }
    fn root(&self, state: &[u8]) -> Result<(Self::Node, usize), String> {
        let n = self.node(state)?;
        Ok((n, self.h(&n)))
    }
}

/// A 5x5x5 reduced to the pairing group's orbit of solved by stages 1-3.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The moves, for the cube as given.
    pub moves: Vec<Move>,
    /// The whole-cube turn of the frame the stages ran in.
    pub rotation: Vec<Move>,
    /// Moves of stages 1, 2 and 3.
    pub lens: [usize; 3],
    /// The state after them, in that frame (turned by `rotation`, colours
    /// renamed so that each fixed centre shows its face's colour).
    pub state: Vec<u8>,
}

#[cfg(test)]
mod tests;
