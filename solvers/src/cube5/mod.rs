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
//! | `centres-ud` ([`CentreStage::ud`]) | the T- and X-centres of one colour pair on their axis (each of the three pairs, the cube turned so that it is U-D: [`in_frame`]) | the 36 outer block turns | max of `5x5x5-ud-t-stage` and `5x5x5-ud-x-stage` (exact for each orbit alone); where both are at most 5, `5x5x5-ud-stage-d5` (both orbits); `5x5x5-ud-stage-hashed` (both orbits within 7 moves up to symmetry, a lower bound) |
//! | `sides` ([`Sides`]) | also the L/R T- and X-centres on L and R, an even wing permutation | 28: no `Rw Lw Fw Bw` quarter turns | max of `5x5x5-lr-t-stage` and `5x5x5-lr-x-parity` |
//! | `split` ([`Split`]) | the F/B centres arranged as the pairing group reaches them, every midge oriented, every high wing in a high slot, up to an even set of tredges the search takes as flipped (one root per set; the stages after it work on the cube with those tredges recoloured: [`tablegen::cube5::Recolour`]) | 24: the outer turns and the six wide half turns | max of `5x5x5-fb-centres-eo` and `5x5x5-split-eo` (the wing split with the midges' flips, up to 32 symmetries: [`tablegen::split5::SplitEo`]) |
//! | `pair-e` ([`RlPair`]; [`EPair`] where it does not apply) | four tredges (the search's choice) paired in the E slice, the side centres in an arrangement the last group reaches | `RlPair`: 16, `R L` turns, `U2 D2 F2 B2`, the six wide half turns, from ends with four tredges free of the M slice (stage 3 keeps only those); `EPair`: 20, `U D R L` turns, `F2 B2`, the six wide half turns | `RlPair`: max of `5x5x5-side-centres`, `5x5x5-e-four-rl` and `5x5x5-e-four-rl-centres` read for the low and (through a reflection) the high wings (each exact); `EPair`: max of `5x5x5-side-centres`, `5x5x5-e-slice-high` and `5x5x5-e-slice-low`, weighted |
//! | `last8` ([`Last8`]) | the U/D-layer tredges paired, every centre solved | 14: `U D` turns, `R2 L2 F2 B2`, `Rw2 Lw2 Fw2 Bw2` | max of the T- and X-centres' joint distance in the group (computed at load), `5x5x5-last8-edges` (exact for the eight tredges) and `5x5x5-last8-low-centres` (exact for the low wings with the U/D centres) |
//! | `3x3x3` | solved | the 18 outer turns | the two-phase solver ([`crate::cube3`]) on the reduced cube's 3x3x3, recoloured back |
//!
//! Stage 3 starts from each stage-2 chain in three frames (one per axis
//! taken as F-B: [`frame`]), since after stage 2 every centre is on its
//! axis; an end whose four tredges stage 4 needs are free of the E slice
//! rather than the M slice is turned by `z`, which stage 3's goal does not
//! see ([`Options::slice_pair`]).
//!
//! Each stage starts from many of the last one's solutions at once (each a
//! root of the engine with the moves it already took), so the chain found
//! first is the shortest in total over them; [`Solver::reduce_to_pairing`]
//! runs the first three, [`Solver::reduce`] the first five (the NxNxN
//! solver's inner cubes), [`Solver::solve`] all six.

mod centres;
mod finish;
mod last8;
mod pair;
mod pair_rl;
mod sides;

pub use centres::{in_frame, CentreStage, LR_IDS, SOLVE_IDS, UD_IDS};
pub use last8::Last8;
pub use pair::EPair;
pub use pair_rl::{RlPair, RL_IDS};
pub use sides::{Parts, Sides, Split, TwoTables};

use crate::cube3::Solver as Solver3;
use crate::moves::{axis_rotations, simplify};
use crate::search::{next_stage, Chain, Checked, Clock, Link, Policy, Rooted, Share};
use crate::tables::TableError;
use crate::SolveError;
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicUsize;
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
    /// Stage 1's share of the time budget, in eighths.
    pub stage1_share: u8,
    /// Stage-2 solutions handed on.
    pub stage2_candidates: usize,
    /// Stage-3 solutions handed on.
    pub stage3_candidates: usize,
    /// Node budget of one stage-2 or stage-3 length before the next is tried.
    pub stage2_level_nodes: u64,
    /// Nodes stages 2 and 3 go on for after their first solution, whatever
    /// the time (more starts for the next stage).
    pub stage2_grace: u64,
    /// Stage-3 roots kept in all (best total bound first): each stage-2 end
    /// has one per even set of tredges taken as flipped.
    pub split_roots: usize,
    /// Sets of four tredges (best bound first) tried from each stage-3 end.
    pub pair_sets: usize,
    /// Stage-4 roots kept in all (best total bound first).
    pub stage4_roots: usize,
    /// Node budget of one stage-4 or stage-5 length before the next is tried.
    pub pair_level_nodes: u64,
    /// Stage 4's bound is its tables' bound times `1 + weight / 8`.
    pub pair_weight: u8,
    /// Stage 4 in the R/L-layer group ([`RlPair`]) from the stage-3 ends
    /// where it applies (four tredges with no piece in the M slice), in
    /// the pairing group ([`EPair`]) where none does.
    pub pair_rl: bool,
    /// [`RlPair`]'s bound is its tables' bound times `1 + weight / 8`.
    pub rl_weight: u8,
    /// With `pair_rl`, stage 3 keeps only the ends [`RlPair`] applies to.
    pub split_for_rl: bool,
    /// Stage 3 starts from each stage-2 chain in six frames (each order of
    /// the three axes: [`frame`]), not only in stage 1's (three frames with
    /// `slice_pair`).
    pub reframe: bool,
    /// With `reframe`, `pair_rl` and `split_for_rl`, stage 3 starts in three
    /// frames (one per axis taken as F-B) and takes ends whose four tredges
    /// are free of the M slice or of the E slice; the latter are turned by
    /// `z` (the frames it leaves out search the same goals).
    pub slice_pair: bool,
    /// Stage 5's bound is its tables' bound times `1 + weight / 8`.
    pub last_weight: u8,
    /// Stage-4 solutions handed to stage 5.
    pub stage4_candidates: usize,
    /// Nodes stage 4 goes on for after its first solution, whatever the
    /// time (more starts for stage 5).
    pub stage4_grace: u64,
    /// The same for stage 5 (more finishes for the 3x3x3).
    pub stage5_grace: u64,
    /// Stage-5 solutions, each finished by the 3x3x3 solver; the shortest
    /// whole is kept.
    pub stage5_candidates: usize,
    /// Least time each 3x3x3 finish gets.
    pub finish_min: Duration,
    /// Time the 3x3x3 finishes may take in all once the budget is spent
    /// (at least one finish runs).
    pub finish_time: Duration,
    /// Called with a line on each stage (its roots, bounds, solutions, time
    /// and nodes) as the reduction runs; none by default.
    pub trace: Option<fn(&str)>,
    /// Threads of the stages and the finishes (0: one per core): each
    /// stage's roots are dealt out among them (stage 1's three split by
    /// their first moves, [`CentreStage::solve_from_on`]), each thread
    /// searching its share for its share of the candidates on its share of
    /// the node budgets ([`crate::search::Policy::threads`]). On the
    /// current rayon pool.
    pub threads: usize,
}

impl Options {
    /// [`Options::threads`] with 0 read as the current rayon pool's size.
    fn thread_count(&self) -> usize {
        match self.threads {
            0 => rayon::current_num_threads(),
            n => n,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_budget: Duration::from_millis(850),
            hard_limit: HARD_LIMIT,
            threads: 0,
            stage1_candidates: 200,
            stage1_share: 1,
            stage2_candidates: 100,
            stage3_candidates: 300,
            stage2_level_nodes: 2_000_000,
            split_roots: 4096,
            stage2_grace: 500_000,
            pair_sets: 16,
            stage4_roots: 128,
            pair_level_nodes: 8_000_000,
            pair_weight: 5,
            pair_rl: true,
            rl_weight: 0,
            split_for_rl: true,
            reframe: true,
            slice_pair: true,
            last_weight: 0,
            stage4_candidates: 400,
            stage4_grace: 1_000_000,
            stage5_grace: 1_000_000,
            stage5_candidates: 16,
            finish_min: Duration::from_millis(20),
            finish_time: Duration::from_millis(100),
            trace: None,
        }
    }
}

/// The 24 whole-cube turns, as the frames of a chain: first six that take
/// the three axes to each of their six orders (the first is none), since
/// after stage 2 every centre is on its axis, so the stages after it may take
/// any axis as the pairing group's half-turn axis (F-B) and either other one
/// as its quarter-turn axis for stage 4; then the other eighteen, in the
/// order of [`tablegen::cube::rotations24`].
fn rotations() -> &'static [Vec<Move>] {
    &rotation_table().0
}

/// The rotations and the colour renaming of each ([`renaming`]), which
/// tells them apart.
type RotationTable = (Vec<Vec<Move>>, Vec<[u8; 6]>);

/// [`rotations`] with their renamings, made once.
fn rotation_table() -> &'static RotationTable {
    static ROTATIONS: std::sync::OnceLock<RotationTable> = std::sync::OnceLock::new();
    ROTATIONS.get_or_init(|| {
        use tablegen::notation::Face::{F, R, U};
        let t = crate::moves::whole_turn;
        let mut out: Vec<Vec<Move>> = vec![
            vec![],
            vec![t(F, 1)],
            vec![t(R, 1)],
            vec![t(U, 1)],
            vec![t(F, 1), t(R, 1)],
            vec![t(R, 1), t(F, 1)],
        ];
        let mut keys: Vec<[u8; 6]> = out.iter().map(|r| renaming(r)).collect();
        for r in tablegen::cube::rotations24() {
            let key = renaming(&r);
            if !keys.contains(&key) {
                keys.push(key);
                out.push(r);
            }
        }
        (out, keys)
    })
}

/// The index into [`rotations`] of rotation `j` followed by `turn`.
fn compose(j: usize, turn: &[Move]) -> usize {
    let (rots, keys) = rotation_table();
    let mut r = rots[j].clone();
    r.extend_from_slice(turn);
    let key = renaming(&r);
    keys.iter()
        .position(|&k| k == key)
        .unwrap_or_else(|| unreachable!("the 24 rotations are all the cube's"))
}

/// The frames stage 3 starts in with [`Options::slice_pair`]: one for each
/// axis taken as F-B (none, `x`, `y`). The frame with the other two axes
/// swapped is the same one turned by [`z_turn`], which stage 3's goal does
/// not see.
const SLICE_PAIR_FRAMES: [usize; 3] = [0, 2, 3];

/// A quarter turn of the whole cube about the F-B axis (`z`). It keeps
/// stage 3's goal (the F/B centres, the midges' orientation and the wing
/// classes are all seen along F-B) and takes the E slice to the M slice.
fn z_turn() -> [Move; 1] {
    [crate::moves::whole_turn(tablegen::notation::Face::F, 1)]
}

/// The frame of a chain: stage 1's axis turn (`axis % 3`, an index into
/// [`axis_rotations`]), then one of the 24 whole-cube turns (`axis / 3`, an
/// index into [`rotations`]).
pub fn frame(axis: usize) -> Vec<Move> {
    let mut r = axis_rotations()[axis % 3].clone();
    r.extend(rotations()[axis / 3].iter().copied());
    r
}

/// Where each colour goes when the cube is turned whole by `turn` and its
/// colours renamed to match ([`in_frame`]).
fn renaming(turn: &[Move]) -> [u8; 6] {
    let cube3 = CubeN::new(3);
    let mut s = cube3.solved();
    cube3.apply_alg(&mut s, turn);
    let mut to_new = [0u8; 6];
    for g in tablegen::notation::Face::ALL {
        to_new[s[cube3.index(g, 1, 1)] as usize] = g as u8;
    }
    to_new
}

/// A chain seen in a further frame: the cube turned by `turn` (its colours
/// renamed so), and its moves renamed to match, so that undoing the whole
/// frame gives the same moves for the cube as given. Its marks are kept as
/// they are (see [`Solver::turned`] for a chain with marks).
fn reframe(c: &Chain, turn: &[Move]) -> Chain {
    let to_new = renaming(turn);
    Chain {
        axis: c.axis % 3 + 3 * compose(c.axis / 3, turn),
        moves: c
            .moves
            .iter()
            .map(|&m| Move {
                face: tablegen::notation::Face::ALL[to_new[m.face as usize] as usize],
                ..m
            })
            .collect(),
        lens: c.lens.clone(),
        state: in_frame(&c.state, turn),
        marks: c.marks,
    }
}

/// The 5x5x5 reduction stages (see the module documentation).
pub struct Solver {
    cube: CubeN,
    ud: CentreStage,
    sides: Sides,
    split: Split,
    epair: EPair,
    rlpair: RlPair,
    last8: Last8,
    solver3: Solver3,
}

/// A 5x5x5 solution: outer block turns, with the moves of each stage.
#[derive(Clone, Debug)]
pub struct Solution5 {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// `(stage, moves)`, in order.
    pub phases: Vec<(&'static str, usize)>,
}

/// The stages' names, in order.
pub const STAGES: [&str; 6] = ["centres-ud", "sides", "split", "pair-e", "last8", "3x3x3"];

impl Solver {
    /// Loads (or builds) every table the solver uses from `dir`.
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        // The last stages and the R/L pairing load on a second thread, the
        // first stages and the 3x3x3 finish on this one (different files):
        // about equal work (measured: with the 3x3x3 on the second thread,
        // that thread ended about 20 ms after this one).
        std::thread::scope(|sc| {
            let rest = sc.spawn(|| -> Result<_, TableError> {
                Ok((Last8::load(dir, quiet)?, RlPair::load(dir, quiet)?))
            });
            let first = (|| -> Result<_, TableError> {
                Ok((
                    CentreStage::ud(dir, quiet)?,
                    Sides::load(dir, quiet)?,
                    Split::load(dir, quiet)?,
                    EPair::load(dir, quiet)?,
                    Solver3::load(dir, quiet)?,
                ))
            })();
            let rest = tablegen::joined(rest);
            let (ud, sides, split, epair, solver3) = first?;
            let (last8, rlpair) = rest?;
            Ok(Solver {
                cube: CubeN::new(5),
                ud,
                sides,
                split,
                epair,
                rlpair,
                last8,
                solver3,
            })
        })
    }

    /// Bytes of every table the solver reads.
    pub fn table_bytes(&self) -> u64 {
        self.ud.table_bytes()
            + self.sides.table_bytes()
            + self.split.table_bytes()
            + self.epair.table_bytes()
            + self.rlpair.table_bytes()
            + self.last8.table_bytes()
            + self.solver3.table_bytes()
    }

    /// Stage 1 on all three axes, on `threads` threads: up to `want`
    /// chains, shortest first.
    /// A chain's frame is an index into [`axis_rotations`]; its state is in
    /// that frame with the tredges of its marks recoloured
    /// ([`tablegen::cube5::Recolour`]), as stage 3's roots took them.
    fn stage1(
        &self,
        state: &[u8],
        want: usize,
        clock: Clock,
        trace: Option<fn(&str)>,
        threads: usize,
    ) -> Vec<Chain> {
        let rotations = axis_rotations();
        let t0 = Instant::now();
        let found = self.ud.solve(state, 3, want, clock, threads);
        if let Some(trace) = trace {
            trace(&format!(
                "centres-ud: found {} in {:?}",
                found.len(),
                t0.elapsed()
            ));
        }
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
                    marks: 0,
                });
            }
        }
        out
    }

    /// Stages 1 to 3 of a checked state: chains in their frames.
    fn chains3(
        &self,
        state: &[u8],
        opts: &Options,
        clock: Clock,
    ) -> Result<Vec<Chain>, SolveError> {
        // Stage 1 has its share of the budget; the stages after it start
        // from its best chains.
        let stage1_clock = Clock {
            soft: Instant::now() + opts.time_budget * opts.stage1_share as u32 / 8,
            hard: clock.hard,
            answered: None,
            target: None,
        };
        let chains = self.stage1(
            state,
            opts.stage1_candidates,
            stage1_clock,
            opts.trace,
            opts.thread_count(),
        );
        if chains.is_empty() {
            return Err(SolveError::OutOfTime("centres-ud".into()));
        }
        let policy = Self::policy(
            opts,
            opts.stage2_candidates,
            opts.stage2_level_nodes,
            opts.stage2_grace,
        );
        let chains = next_stage(
            &self.cube,
            &self.sides,
            &chains,
            &policy,
            usize::MAX,
            clock,
            opts.trace,
        )?;
        let policy = Self::policy(
            opts,
            opts.stage3_candidates,
            opts.stage2_level_nodes,
            opts.stage2_grace,
        );
        let slice_pair = opts.reframe && opts.slice_pair && opts.pair_rl && opts.split_for_rl;
        let chains: Vec<Chain> = if opts.reframe {
            let turns = rotations();
            let frames: &[usize] = if slice_pair {
                &SLICE_PAIR_FRAMES
            } else {
                &[0, 1, 2, 3, 4, 5]
            };
            chains
                .iter()
                .flat_map(|c| frames.iter().map(|&j| reframe(c, &turns[j])))
                .collect()
        } else {
            chains
        };
        if opts.pair_rl && opts.split_for_rl {
            // Ends stage 4 can take in its smaller group (as they are, or
            // turned by z with `slice_pair`); where none is found within
            // twice the budget, the first other end the search met (stage 4
            // then works in the pairing group).
            let z = z_turn();
            let applies = |s: &[u8]| {
                self.rlpair.applies(s).unwrap_or(false)
                    || slice_pair && self.rlpair.applies(&in_frame(s, &z)).unwrap_or(false)
            };
            let ends = next_stage(
                &self.cube,
                &Checked(&self.split, &applies, clock.soft + opts.time_budget),
                &chains,
                &policy,
                opts.split_roots,
                clock,
                opts.trace,
            )?;
            if !slice_pair {
                return Ok(ends);
            }
            // Each end in the frames where stage 4's group takes it: as it
            // is, turned, or both; an end neither takes stays as it is.
            let mut out = Vec::with_capacity(ends.len());
            for c in ends {
                let turned = self.turned(&c);
                let as_is = self.rlpair.applies(&c.state)?;
                let other = self.rlpair.applies(&turned.state)?;
                if as_is || !other {
                    out.push(c);
                }
                if other {
                    out.push(turned);
                }
            }
            return Ok(out);
        }
        next_stage(
            &self.cube,
            &self.split,
            &chains,
            &policy,
            opts.split_roots,
            clock,
            opts.trace,
        )
    }

    /// A stage-3 end turned by [`z_turn`]: its E slice becomes the M
    /// slice, its marks renamed.
    fn turned(&self, c: &Chain) -> Chain {
        let z = z_turn();
        let mut t = reframe(c, &z);
        t.marks = self.split.rename_set(c.marks, &renaming(&z));
        t
    }

    /// Stages 1 to 5 of a checked state: chains in their frames, each
    /// ending reduced.
    fn chains5(
        &self,
        state: &[u8],
        opts: &Options,
        clock: Clock,
    ) -> Result<Vec<Chain>, SolveError> {
        let chains = self.chains3(state, opts, clock)?;
        let policy4 = Self::policy(
            opts,
            opts.stage4_candidates,
            opts.pair_level_nodes,
            opts.stage4_grace,
        );
        // The smaller group from the ends it applies to; the pairing group
        // where it applies to none.
        let rl: Vec<Chain> = if opts.pair_rl {
            let mut v = Vec::new();
            for c in &chains {
                if self.rlpair.applies(&c.state)? {
                    v.push(c.clone());
                }
            }
            v
        } else {
            Vec::new()
        };
        let pair = if rl.is_empty() {
            if let Some(trace) = opts.trace {
                trace("pair-e: in the pairing group (no stage-3 end the R/L-layer group takes)");
            }
            next_stage(
                &self.cube,
                &Weighted(&self.epair, opts.pair_sets, opts.pair_weight),
                &chains,
                &policy4,
                opts.stage4_roots,
                clock,
                opts.trace,
            )?
        } else {
            next_stage(
                &self.cube,
                &Weighted(&self.rlpair, opts.pair_sets, opts.rl_weight),
                &rl,
                &policy4,
                opts.stage4_roots,
                clock,
                opts.trace,
            )?
        };
        next_stage(
            &self.cube,
            &Weighted(&self.last8, 1, opts.last_weight),
            &pair,
            &Self::policy(
                opts,
                opts.stage5_candidates,
                opts.pair_level_nodes,
                opts.stage5_grace,
            ),
            usize::MAX,
            clock,
            opts.trace,
        )
    }

    fn policy(opts: &Options, want: usize, level_nodes: u64, grace_nodes: u64) -> Policy {
        Policy {
            want,
            level_nodes,
            growth: 4,
            unlimited_after: 6,
            share: Share::Equal,
            enough_nodes: u64::MAX,
            more_nodes: u64::MAX,
            grace_nodes,
            max_nodes: u64::MAX,
            max_total: 120,
            threads: opts.thread_count(),
        }
    }

    fn clock(opts: &Options) -> (Instant, Clock<'static>) {
        let start = Instant::now();
        (
            start,
            Clock {
                soft: start + opts.time_budget,
                hard: start + opts.hard_limit.max(opts.time_budget),
                answered: None,
                target: None,
            },
        )
    }

    /// Stages 1 to 3 of a 5x5x5 facelet state (150 facelets, colours as
    /// [`CubeN::solved`]): the shortest chains found, at most
    /// `opts.stage2_candidates`, each ending in the pairing group's orbit of
    /// solved.
    pub fn reduce_to_pairing(
        &self,
        state: &[u8],
        opts: Options,
    ) -> Result<Vec<Reduced>, SolveError> {
        validate(&self.cube, state)?;
        let (_, clock) = Self::clock(&opts);
        Ok(self
            .chains3(state, &opts, clock)?
            .into_iter()
            .map(|c| Reduced {
                moves: tablegen::cube::unrotate(&c.moves, &frame(c.axis)),
                rotation: frame(c.axis),
                lens: [c.lens[0], c.lens[1], c.lens[2]],
                state: c.state,
                recoloured: c.marks,
            })
            .collect())
    }

    /// The five reduction stages of a 5x5x5 facelet state (150 facelets,
    /// colours as [`CubeN::solved`]): the shortest chain found, for the cube
    /// as given. After it every centre shows its fixed centre's colour and
    /// every tredge is paired; the cube is a 3x3x3.
    pub fn reduce(&self, state: &[u8], opts: Options) -> Result<Vec<Move>, SolveError> {
        validate(&self.cube, state)?;
        let (_, clock) = Self::clock(&opts);
        self.chains5(state, &opts, clock)?
            .into_iter()
            .map(|c| simplify(&tablegen::cube::unrotate(&c.moves, &frame(c.axis))))
            .min_by_key(|m| m.len())
            .ok_or_else(|| SolveError::Internal("no reduction".into()))
    }

    /// Solves a 5x5x5 facelet state (150 facelets, colours as
    /// [`CubeN::solved`]): the five reduction stages, then the 3x3x3 finish
    /// of each stage-5 solution; the shortest whole wins. The cube ends
    /// solved with each face the colour of its fixed centre.
    pub fn solve(&self, state: &[u8], opts: Options) -> Result<Solution5, SolveError> {
        validate(&self.cube, state)?;
        let (start, clock) = Self::clock(&opts);
        let last = self.chains5(state, &opts, clock)?;
        // The stage-5 ends dealt out in turn among the threads, each
        // finishing its own; they share the best whole length (a finish
        // only looks for shorter), and the shortest whole is kept (ties:
        // the first thread's).
        let threads = opts.thread_count().clamp(1, last.len().max(1));
        let shortest = AtomicUsize::new(usize::MAX);
        let finish_start = Instant::now();
        let found: Vec<Result<Option<Solution5>, SolveError>> = (0..threads)
            .into_par_iter()
            .map(|t| {
                let mine: Vec<&Chain> = last.iter().skip(t).step_by(threads).collect();
                self.finish(&mine, &opts, start, finish_start, &shortest)
            })
            .collect();
        let mut best: Option<Solution5> = None;
        for f in found {
            if let Some(sol) = f? {
                if best
                    .as_ref()
                    .is_none_or(|b| sol.moves.len() < b.moves.len())
                {
                    best = Some(sol);
                }
            }
        }
        let sol = best.ok_or_else(|| SolveError::Internal("no 3x3x3 finish".into()))?;
        let mut s = state.to_vec();
        self.cube.apply_alg(&mut s, &sol.moves);
        if !self.cube.is_solved(&s) {
            return Err(SolveError::Internal(
                "the solution does not solve the cube".into(),
            ));
        }
        Ok(sol)
    }

    /// Stage 4.
    pub fn epair(&self) -> &EPair {
        &self.epair
    }

    /// Stage 5.
    pub fn last8(&self) -> &Last8 {
        &self.last8
    }
}

impl<P: sides::Parts> Link for sides::TwoTables<P> {
    fn moves(&self) -> &[Move] {
        &self.moves
    }
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn roots(&self, state: &[u8]) -> Result<Vec<Rooted<Self::Node>>, SolveError> {
        sides::TwoTables::roots(self, state)
    }
    /// The tredges of the root's set recoloured, then the moves.
    fn land(&self, cube: &CubeN, chain: &Chain, set: u16, path: &[Move], _: u8) -> (Vec<u8>, u16) {
        let mut s = chain.state.clone();
        sides::TwoTables::recolour(self, &mut s, set);
        cube.apply_alg(&mut s, path);
        (s, chain.marks ^ set)
    }
}

/// A stage whose search bound can be weighted (times `1 + weight / 8`):
/// stages 4 and 5.
pub trait WeightedStage: crate::search::Stage {
    /// The stage's name in solutions and errors.
    const NAME: &'static str;
    /// The stage's moves.
    fn stage_moves(&self) -> &[Move];
    /// [`crate::search::Stage::expand`] with the bound weighted.
    fn expand_weighted(
        &self,
        n: &Self::Node,
        prev: Option<usize>,
        left: usize,
        kids: &mut Vec<(usize, Self::Node)>,
        weight: u8,
    ) -> u64;
    /// The roots of a state (at most `keep` where the stage has a choice)
    /// with their weighted bounds.
    fn roots_weighted(
        &self,
        state: &[u8],
        keep: usize,
        weight: u8,
    ) -> Result<Vec<(Self::Node, usize)>, SolveError>;
}

/// A stage with the number of roots it keeps per state and its bound's
/// weight, as a link of the chain.
pub struct Weighted<'a, S>(pub &'a S, pub usize, pub u8);

impl<S: WeightedStage> crate::search::Stage for Weighted<'_, S> {
    type Node = S::Node;
    fn prune(&self, n: &Self::Node, left: usize) -> bool {
        self.0.prune(n, left)
    }
    fn goal(&self, n: &Self::Node, left: usize) -> Option<u8> {
        self.0.goal(n, left)
    }
    fn expand(
        &self,
        n: &Self::Node,
        prev: Option<usize>,
        left: usize,
        kids: &mut Vec<(usize, Self::Node)>,
    ) -> u64 {
        self.0.expand_weighted(n, prev, left, kids, self.2)
    }
}

impl<S: WeightedStage> Link for Weighted<'_, S> {
    fn moves(&self) -> &[Move] {
        self.0.stage_moves()
    }
    fn name(&self) -> &'static str {
        S::NAME
    }
    fn roots(&self, state: &[u8]) -> Result<Vec<Rooted<Self::Node>>, SolveError> {
        Ok(self
            .0
            .roots_weighted(state, self.1, self.2)?
            .into_iter()
            .map(|(node, bound)| Rooted {
                node,
                bound,
                set: 0,
            })
            .collect())
    }
}

/// [`WeightedStage`] for a stage-4 kind: its own `expand_weighted` and
/// `roots_weighted`, the latter keeping `keep` roots per state.
macro_rules! weighted_pair_stage {
    ($t:ty) => {
        impl WeightedStage for $t {
            const NAME: &'static str = "pair-e";
            fn stage_moves(&self) -> &[Move] {
                &self.moves
            }
            fn expand_weighted(
                &self,
                n: &Self::Node,
                prev: Option<usize>,
                left: usize,
                kids: &mut Vec<(usize, Self::Node)>,
                weight: u8,
            ) -> u64 {
                <$t>::expand_weighted(self, n, prev, left, kids, weight)
            }
            fn roots_weighted(
                &self,
                state: &[u8],
                keep: usize,
                weight: u8,
            ) -> Result<Vec<(Self::Node, usize)>, SolveError> {
                Ok(<$t>::roots_weighted(self, state, keep, weight)?
                    .into_iter()
                    .map(|n| (n, self.h(&n)))
                    .collect())
            }
        }
    };
}

weighted_pair_stage!(EPair);
weighted_pair_stage!(RlPair);

impl WeightedStage for Last8 {
    const NAME: &'static str = "last8";
    fn stage_moves(&self) -> &[Move] {
        &self.moves
    }
    fn expand_weighted(
        &self,
        n: &Self::Node,
        prev: Option<usize>,
        left: usize,
        kids: &mut Vec<(usize, Self::Node)>,
        weight: u8,
    ) -> u64 {
        Last8::expand_weighted(self, n, prev, left, kids, weight)
    }
    fn roots_weighted(
        &self,
        state: &[u8],
        _keep: usize,
        weight: u8,
    ) -> Result<Vec<(Self::Node, usize)>, SolveError> {
        let n = self.node_weighted(state, weight)?;
        Ok(vec![(n, self.h(&n))])
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
    /// renamed so that each fixed centre shows its face's colour), with the
    /// tredges of `recoloured` recoloured.
    pub state: Vec<u8>,
    /// The tredges stage 3 took as flipped (bit `e` for dedge `e`).
    pub recoloured: u16,
}

#[cfg(test)]
mod tests;

/// Least time a `cubesolve` 5x5x5 solve is given before it gives up: the
/// default of every solver (the slowest of 1,000 random states took 4.4 s
/// on one core; see `docs/5x5x5.md`).
pub const HARD_LIMIT: Duration = Duration::from_secs(30);

impl crate::puzzle::CubeSolver for Solver {
    fn load_cube(_: usize, tables: &Path, quiet: bool) -> Result<Solver, SolveError> {
        Ok(Solver::load(tables, quiet)?)
    }
    fn solve_cube(
        &self,
        state: &[u8],
        opts: &crate::puzzle::Options,
    ) -> Result<crate::Solution, SolveError> {
        let mut o = Options {
            hard_limit: opts.hard_limit.unwrap_or(HARD_LIMIT),
            ..Options::default()
        };
        if let Some(t) = opts.time_budget {
            o.time_budget = t;
        }
        o.threads = opts.threads;
        let sol = Solver::solve(self, state, o)?;
        Ok(crate::Solution::of_moves(&sol.moves, &sol.phases))
    }
}
