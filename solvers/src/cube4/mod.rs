//! 4x4x4: the reduction solver ([`Solver`]) and the centres in three staged
//! table walks ([`CentreStages`]).
//!
//! [`Solver`] is a three-phase reduction (U/D centres; L/R and F/B centres with
//! the wings separated into high/low slots; centres and pairing in the group
//! `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>`), then the 3x3x3
//! two-phase solver; it is what `cubesolve solve --puzzle 4x4x4` runs (see its
//! own documentation for the phases and their bounds). Phases 2 and 3 are
//! stages of the engine ([`crate::search`]): `phase2` and `phase3` hold their
//! nodes, bounds and children; this module chains them (candidates from each
//! phase to the next, ranked by length so far plus the next bound) and
//! finishes each reduced cube with the 3x3x3 solver.

mod centres;
mod finish;
mod near_split;
mod phase1;
mod phase2;
mod phase3;
#[cfg(test)]
mod tests;

pub use centres::{CentreStages, STAGE_IDS};

use crate::cube3::Solver as Solver3;
use crate::moves::{axis_rotations, recolourings, simplify, whole_turn};
use crate::search::{deepen, next_stage, Chain, Clock, Policy, Root, Share};
use crate::tables::{Nibbles, TableError, Trits};
use crate::SolveError;
use phase1::{Enumerate, P1Rank, Tails};
use phase2::{whole_turns, without_dlb_wide, Claims, P2};
use phase3::{PairCentres, N3, P3};
use std::path::Path;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};
use tablegen::catalog::{self, SpaceDef};
use tablegen::corners::read_corners;
use tablegen::cube4::{odd, PairAllSpace, SideCentresSpace, Wings};
use tablegen::notation::{Face, Move};
use tablegen::validate::validate;

/// Ids of the reduction's own tables, besides the centre stages and the 3x3x3 ones.
pub const REDUCTION_IDS: [&str; 4] = [
    "4x4x4-sides-parity",
    "4x4x4-wings-pair",
    "4x4x4-pair-centres",
    "4x4x4-sides-parity-either",
];

/// Options of a 4x4x4 solve.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Time for the whole solve: the 3x3x3 finishes share what is left (each
    /// at least `finish_min`).
    pub time_budget: Duration,
    /// Phase-2 starts: the best ranked of the phase-1 solutions (see
    /// `phase1_generated`), copies dropped (one start turned about the U-D
    /// axis); phase 2 takes them in order of their bound on phases 1 and 2.
    pub phase1_candidates: usize,
    /// Phase-1 solutions ranked for those starts (each choice's share,
    /// shortest first): each by its length and the phase-2 bound of its
    /// side centres and wing parity. A longer phase 1 often leaves a much
    /// shorter phase 2.
    pub phase1_generated: usize,
    /// Phase-1 solutions up to this many moves longer than optimal are tried.
    pub phase1_slack: usize,
    /// Phase 1 on all three axes, each with each colour pair (else the U/D
    /// colours on U-D only).
    pub all_axes: bool,
    /// Phase-2 solutions handed to phase 3, which keeps the shortest total
    /// (over all threads: each thread's phase 2 hands on its share).
    pub phase2_candidates: usize,
    /// Node budget of the phase-2 search (it stops early once it has one).
    pub phase2_nodes: u64,
    /// Node budget of one phase-2 length before the next is tried.
    pub phase2_level_nodes: u64,
    /// Node budget of one phase-3 total length before the next is tried.
    pub phase3_level_nodes: u64,
    /// Node budget of the phase-3 IDA* (a safety net: the bound is the exact
    /// pairing distance, so a search takes far fewer).
    pub exact_nodes: u64,
    /// Phase-3 solutions of the shortest total, each finished by the 3x3x3
    /// solver; the shortest whole is kept.
    pub phase3_solutions: usize,
    /// Nodes the phase-3 search goes on for after its first solution, per
    /// millisecond of the time budget (more solutions to finish are worth
    /// their search when the finishes have time for them).
    pub phase3_more_nodes_per_ms: u64,
    /// Least time each 3x3x3 finish gets (the first even past the time budget:
    /// once one whole solution is known, the budget ends the solve).
    pub finish_min: Duration,
    /// Time after which a solve that has found nothing gives up with
    /// [`SolveError::OutOfTime`] (never less than the time budget).
    pub hard_limit: Duration,
    /// Threads of a solve (0: one per core, at most nine). The nine phase-1
    /// choices (axis, colour pair) are dealt out among them; each thread runs
    /// every phase on its own choices within the time budget, the threads
    /// share the length of the best whole solution so far (a finish only
    /// looks for shorter), and the shortest whole is kept.
    pub threads: usize,
    /// On several threads, each phase-2 end the threads share (the same
    /// problem, turned and recoloured, reached from different phase-1
    /// choices) goes to the thread that reaches it in fewer moves, or first;
    /// the other looks on for ends of its own. Off, each thread keeps every
    /// end it finds.
    pub split_ends: bool,
    /// A target length: past the time budget, a solve whose best is longer
    /// goes on (phases 1 to 3 of a thread that has nothing yet, then the
    /// finishes of its reduced cubes, again) until it has one this short or
    /// `target_time` has passed. `None` (the default): the budget ends every
    /// solve.
    pub target_length: Option<usize>,
    /// With `target_length`: when a solve going on stops, counted from its
    /// start (never before the time budget's end, never after the hard
    /// limit's).
    pub target_time: Duration,
}

impl Options {
    /// When a solve going on for its target length stops, from its start.
    pub(super) fn target_end(&self) -> Duration {
        (self.target_time.max(self.time_budget)).min(self.hard_limit.max(self.time_budget))
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            phase1_candidates: 4000,
            phase1_generated: 60_000,
            phase1_slack: 2,
            all_axes: true,
            phase2_candidates: 100,
            phase2_nodes: 3_000_000,
            phase2_level_nodes: 500_000,
            phase3_level_nodes: 3_000_000,
            exact_nodes: 200_000_000,
            phase3_solutions: 16,
            phase3_more_nodes_per_ms: 1_000,
            finish_min: Duration::from_millis(5),
            time_budget: Duration::from_millis(240),
            split_ends: true,
            target_length: None,
            target_time: Duration::from_secs(1),
            hard_limit: Duration::from_secs(30),
            threads: 0,
        }
    }
}

/// A 4x4x4 solution: outer block turns, with the moves of each phase.
#[derive(Clone, Debug)]
pub struct Solution4 {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// `(phase, moves)` in solution order, then `("merged", k)` if `k` moves
    /// vanished where one phase's last turn met the next phase's first: the
    /// phases add up to `moves.len() + k`.
    pub phases: Vec<(&'static str, usize)>,
}

/// The 4x4x4 reduction solver.
///
/// | phase | goal | moves | bound |
/// |---|---|---|---|
/// | `centres-ud` | one colour pair's centres on one axis (each of the 3 x 3 choices: the cube turned and its colours renamed; optimal to +2 solutions, ranked by length plus the phase-2 bound of their side centres and wing parity) | 36 | `4x4x4-ud-stage` (walk) |
/// | `separate` | the other centres staged so the pairing group can solve them, in either frame (F/B centres on F/B, or on R/L and the cube turned by `y`); each dedge with one wing in each class, an even number of them flipped; even wing permutation | 23 (28 less `Dw Lw2 Bw2`: see the `phase2` module) | least over the two frames of the max of `4x4x4-sides-parity` (side centres and wing parity together; `4x4x4-sides-parity-either` for both at once) and the wings' exact distance to their goal when it is at most 3 (the toggle sets of short paths: see the `near_split` module) |
/// | `pair` | centres solved, edges paired, no PLL parity (up to `x2 y2 z2`) | 17: `U D R L` turns, `F2 B2`, `Uw2 Rw2 Fw2` | max of the phase-3 centre distance (`4x4x4-pair-centres`, centres and PLL parity) and the exact pairing distance (`4x4x4-wings-pair`, mod 3, followed move by move) |
/// | `3x3x3` | solved | 18 outer face turns | the two-phase solver, on each of up to 16 `pair` solutions; the shortest whole is kept |
pub struct Solver {
    stages: CentreStages,
    wings: Wings,
    sides: SideCentresSpace,
    /// `4x4x4-sides-parity`: per sides-stage rank `r` and wing parity `o`
    /// (entry `2r + o`), the distance to the sides-stage goal with an even
    /// wing permutation.
    sides_tab: Nibbles,
    /// The exact test of phase 2's wing goal within a few moves.
    near_split: near_split::NearSplit,
    /// Per phase-2 move: wing slot images and whether it permutes the wings oddly.
    p2_slot: Vec<[u8; 24]>,
    p2_odd: Vec<bool>,
    /// Phase-2 moves (the lr-stage set).
    p2_moves: Vec<Move>,
    /// Phase-1 starts ranked without their facelets (see [`P1Rank`]).
    p1_rank: P1Rank,
    /// Phase 1's last moves, listed ([`Tails`]).
    p1_tails: Tails,
    /// The least of `sides_tab` as it is and turned by `y` (nibbles, same
    /// entries): `4x4x4-sides-parity-either`.
    sides_either: Nibbles,
    /// Phase-2 moves searched: `Dw Lw2 Bw2` are `Uw Rw2 Fw2` and a whole-cube
    /// turn (y', x2, z2), so they are left out and the goal is taken in both
    /// frames the turns reach (see the `phase2` module).
    p2_active: Vec<usize>,
    /// The facelet permutations of the eight whole-cube turns that keep the U-D
    /// axis (`y^k` and `x2 y^k`): facelet `i` of the turned state is facelet
    /// `p[i]` of the state.
    ud_turns: Vec<Vec<u8>>,
    /// The facelet permutations of the 24 whole-cube turns, and the colour
    /// renamings of the 24 (see [`Solver::problem_key`]).
    turns24: Vec<Vec<u8>>,
    recolours24: Vec<[u8; 6]>,
    pair: PairAllSpace,
    pair_tab: Trits,
    /// Phase-3 moves.
    p3_moves: Vec<Move>,
    /// Per phase-3 move: toggles the PLL parity (corner parity + high wing parity).
    p3_pll: Vec<bool>,
    /// Phase-3 moves searched: `Dw2 Lw2 Bw2` are `Uw2 Rw2 Fw2` and a whole-cube
    /// half turn, so with the goal taken up to those turns they are left out.
    p3_active: Vec<usize>,
    /// Phase-3 centres: the pairing group's orbit of solved, with its move table
    /// and distances.
    centres3: PairCentres,
    solver3: Solver3,
}

/// The clock of a solve started at `start`; `answered`: the length of the
/// best whole solution of the solve's other threads, if any.
fn clock_of<'a>(start: Instant, opts: &Options, answered: Option<&'a AtomicUsize>) -> Clock<'a> {
    Clock {
        soft: start + opts.time_budget,
        hard: start + opts.hard_limit.max(opts.time_budget),
        answered,
        target: (opts.target_length).map(|l| (l, start + opts.target_end())),
    }
}

/// A phase-1+2 candidate: moves (on the cube turned for its axis), the length of
/// each phase, the state after them (turned) and the axis.
struct Candidate {
    /// Phases 1 and 2, on the cube turned by `axis_rotations()[axis]`.
    moves: Vec<Move>,
    lens: [usize; 2],
    /// The state after them (on the turned cube, its colours renamed for the
    /// colour pair phase 1 staged), turned by `y` too if `turned`.
    state: Vec<u8>,
    axis: usize,
    /// Phase 2 ended in the goal turned by `y` (see the `phase2` module).
    turned: bool,
}

impl Candidate {
    /// Its phases 1 and 2 followed by `after` (found on its state), as
    /// moves of the cube as given: the length before the turns were
    /// renamed and merged, and the moves.
    fn whole(&self, after: &[Move]) -> (usize, Vec<Move>) {
        // Phases 3 and 4 were found on the cube turned by `y` if phase 2
        // ended in the turned frame.
        let after = if self.turned {
            tablegen::cube::unrotate(after, &[y_turn()])
        } else {
            after.to_vec()
        };
        let mut all = self.moves.clone();
        all.extend(&after);
        // The moves were found on the cube turned for the candidate's axis.
        let len = all.len();
        (
            len,
            simplify(&tablegen::cube::unrotate(
                &all,
                &axis_rotations()[self.axis],
            )),
        )
    }
}

/// The phase-1 choices of a solve: (axis, colour pair) for every axis and
/// colour pair, or the U/D colours on the U-D axis alone.
fn choices(opts: &Options) -> Vec<(usize, usize)> {
    let axes = if opts.all_axes { 3 } else { 1 };
    (0..axes)
        .flat_map(|a| (0..axes).map(move |c| (a, c)))
        .collect()
}

/// The whole-cube turn `y`.
fn y_turn() -> Move {
    whole_turn(Face::U, 1)
}

impl Solver {
    /// Loads (or builds) every table a solve uses from `dir`, the 3x3x3
    /// finish's exact phase-1 distances included
    /// ([`Solver3::load_exact_phase1`], 70 MB: the finishes search about
    /// half as long for a solution of one length).
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        Self::load_finish(dir, quiet, true)
    }

    /// Loads (or builds) the tables of the reduction alone
    /// ([`Solver::reduce`]; a solve then finishes on the 3x3x3 solver's
    /// own small tables).
    pub fn load_reduction(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        Self::load_finish(dir, quiet, false)
    }

    fn load_finish(dir: &Path, quiet: bool, exact: bool) -> Result<Solver, TableError> {
        // The 3x3x3 finish loads on a second thread beside the rest, and its
        // exact phase-1 table (70 MB to check) on a third from the start.
        std::thread::scope(|sc| {
            let table = exact.then(|| sc.spawn(|| Solver3::open_exact_phase1(dir, quiet)));
            let solver3 = sc.spawn(move || -> Result<Solver3, TableError> {
                let s = Solver3::load(dir, quiet)?;
                if exact {
                    // The symmetries the exact table is read through.
                    let _ = tablegen::optimal3::sym16();
                }
                Ok(s)
            });
            let join = || -> Result<Solver3, TableError> {
                let s = tablegen::joined(solver3)?;
                if let Some(table) = table {
                    s.set_exact_phase1(tablegen::joined(table)?);
                }
                Ok(s)
            };
            Self::load_with(dir, quiet, join)
        })
    }

    fn load_with(
        dir: &Path,
        quiet: bool,
        solver3: impl FnOnce() -> Result<Solver3, TableError>,
    ) -> Result<Solver, TableError> {
        let bad = |id: &str, msg: String| TableError::Build(id.into(), msg);
        let stages = CentreStages::load(dir, quiet)?;
        let moves_of = |id: &str| -> Result<Vec<Move>, TableError> {
            match catalog::find(id).map(|d| d.space) {
                Some(SpaceDef::Reduction4 { moves, .. }) => Ok(moves),
                _ => Err(bad(id, "not a 4x4x4 reduction table".into())),
            }
        };
        let p2_moves = moves_of(REDUCTION_IDS[0])?;
        if moves_of(REDUCTION_IDS[3])? != p2_moves {
            return Err(bad(
                REDUCTION_IDS[3],
                "move set differs from the sides stage".into(),
            ));
        }
        let p3_moves = moves_of(REDUCTION_IDS[1])?;
        // The centre bound's table is made with the moves phase 3 searches.
        let searched: Vec<Move> = (p3_moves.iter().copied())
            .filter(|&m| !tablegen::cube4::is_dlb_wide(m))
            .collect();
        if moves_of(REDUCTION_IDS[2])? != searched {
            return Err(bad(
                REDUCTION_IDS[2],
                "move set differs from phase 3's".into(),
            ));
        }
        // The sides space also has the whole-cube turn `y` (its last move).
        let y = y_turn();
        let sides = SideCentresSpace::new(&[p2_moves.clone(), vec![y]].concat())
            .map_err(|e| TableError::model(REDUCTION_IDS[0], e))?;
        let wings = Wings::new();
        let y_slot = wings.slot_perm(&stages.cube, y);
        let p2_active = without_dlb_wide(&p2_moves);
        let p2_slot: Vec<[u8; 24]> = p2_moves
            .iter()
            .map(|&m| wings.slot_perm(&stages.cube, m))
            .collect();
        let p2_odd = p2_slot.iter().map(|p| odd(p)).collect();
        let active_slots: Vec<[u8; 24]> = p2_active.iter().map(|&i| p2_slot[i]).collect();
        let near_split = near_split::NearSplit::new(&active_slots, &y_slot);
        let pair =
            PairAllSpace::new(&p3_moves).map_err(|e| TableError::model(REDUCTION_IDS[1], e))?;
        let cs = &stages.stages[2];
        let p3_centre_move = p3_moves
            .iter()
            .map(|m| {
                cs.moves
                    .iter()
                    .position(|x| x == m)
                    .ok_or_else(|| bad(cs.id, format!("{m} is not in its move set")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let cube = &stages.cube;
        let face_colour = [0, 1, 2, 3, 4, 5];
        let p3_pll: Vec<bool> = p3_moves
            .iter()
            .zip(&pair.moves)
            .map(|(&m, (hi, _))| {
                let mut s = cube.solved();
                cube.apply(&mut s, m);
                let (cp, _) = read_corners(cube, &s, &face_colour).expect("corners of a real cube");
                odd(&cp) ^ odd(hi)
            })
            .collect();
        let p3_active = without_dlb_wide(&p3_moves);
        let sides_tab = Nibbles::load(REDUCTION_IDS[0], dir, quiet)?;
        let sides_either = Nibbles::load(REDUCTION_IDS[3], dir, quiet)?;
        let centres3 = PairCentres::load(dir, quiet, &cs.space, &p3_centre_move)?;
        let ud_turns = (0..8)
            .map(|k| {
                let mut turn = Vec::new();
                if k % 4 > 0 {
                    turn.push(whole_turn(Face::U, k % 4));
                }
                if k >= 4 {
                    turn.push(whole_turn(Face::R, 2));
                }
                let mut p: Vec<u8> = (0..stages.cube.facelets() as u8).collect();
                stages.cube.apply_alg(&mut p, &turn);
                p
            })
            .collect();
        let (turns24, recolours24) = whole_turns(&stages.cube);
        let p1_rank = P1Rank::new(&stages.cube, &stages.stages[0].moves, &sides, &wings);
        let p1_tails = Tails::new(&stages.stages[0], &p1_rank);
        Ok(Solver {
            sides_tab,
            sides_either,
            ud_turns,
            turns24,
            recolours24,

            pair_tab: Trits::load_trits(REDUCTION_IDS[1], dir, quiet)?,
            near_split,
            solver3: solver3()?,
            stages,
            wings,
            sides,
            p2_slot,
            p2_odd,
            p1_rank,
            p1_tails,
            p2_moves,
            p2_active,
            pair,
            p3_moves,
            centres3,
            p3_active,
            p3_pll,
        })
    }

    /// Bytes of every table the solver reads.
    pub fn table_bytes(&self) -> u64 {
        let n = |t: &Nibbles| t.bytes().len() as u64;
        n(&self.sides_tab)
            + n(&self.pair_tab)
            + self.solver3.table_bytes()
            + self.stages.table_bytes()
    }

    /// The least, in lexicographic order, of a state's facelets turned by each
    /// whole-cube turn that keeps the U-D axis: states turned from one another
    /// by these have the same key. (Phases 2 and 3 are the same problem on
    /// them: their goals and move sets are closed under these turns, `y` and
    /// `y'` by taking both frames in phase 2.)
    fn canonical(&self, s: &[u8]) -> Vec<u8> {
        let turned = |k: usize| self.ud_turns[k].iter().map(|&i| s[i as usize]);
        let least = (1..self.ud_turns.len()).fold(0, |best, k| {
            if turned(k).cmp(turned(best)) == std::cmp::Ordering::Less {
                k
            } else {
                best
            }
        });
        turned(least).collect()
    }

    /// Phases 1 and 2 of a valid state: candidates (moves, phase lengths, state
    /// after them), shortest first; at most `want`.
    fn reduce_candidates(
        &self,
        state: &[u8],
        opts: &Options,
        clock: Clock,
        choices: &[(usize, usize)],
        claims: Option<(&Claims, usize)>,
    ) -> Result<Vec<Candidate>, SolveError> {
        let cube = &self.stages.cube;
        let st0 = &self.stages.stages[0];
        // Phase 1 on each axis: the cube is turned so that the axis is U-D, and the
        // moves found are renamed for the cube as given at the end.
        let axes = if opts.all_axes { 3 } else { 1 };
        // On each axis, each colour pair is staged in turn: the colours are
        // renamed as a whole-cube turn would (the state stays a real cube, and a
        // move sequence that solves it solves the original in another
        // orientation).
        let recolours = recolourings();
        let rotations = axis_rotations();
        // Every phase-1 solution up to `phase1_slack` moves over optimal (at
        // most `phase1_generated` in all) is ranked by its length and the
        // phase-2 bound of its side centres and wing parity, read from masks
        // moved along the path (no facelets); the best `phase1_candidates`
        // become phase 2's starts. A longer phase 1 often leaves a much
        // shorter phase 2: ranking over optimal+2 shortens phases 1 to 3
        // by about 0.15 moves (docs/4x4x4.md, section 20).
        let either = self.sides_either.bytes();
        let mut ranked = Vec::new();
        let mut turned_of = Vec::new();
        let cap = opts.phase1_generated.div_ceil(axes * axes);
        for &(axis, colour) in choices {
            let mut turned = state.to_vec();
            cube.apply_alg(&mut turned, &rotations[axis]);
            let colour = &recolours[colour];
            let turned: Vec<u8> = turned.iter().map(|&c| colour[c as usize]).collect();
            let root = self
                .p1_rank
                .root(&turned, &self.wings)
                .map_err(SolveError::internal)?;
            let mask = st0.mask(&turned)?;
            let opt = st0.table.get(st0.space.rank(mask)) as usize;
            let tails = Some(&self.p1_tails);
            let mut e = Enumerate::new(st0, &self.p1_rank, either, &self.sides, tails, cap);
            for len in opt..=opt + opts.phase1_slack {
                e.solutions(mask, root, len);
            }
            for r in e.out {
                ranked.push((r.key as usize, r.len as usize, turned_of.len(), r.path));
            }
            turned_of.push((axis, turned));
        }
        // The order of (key, length, index): the index keeps it that of a
        // stable sort, and one word a solution sorts fast.
        let mut order: Vec<u64> = (ranked.iter().enumerate())
            .map(|(i, r)| (r.0 as u64) << 48 | (r.1 as u64) << 40 | i as u64)
            .collect();
        order.sort_unstable();
        // A start that is another one turned (by a whole-cube turn keeping
        // the U-D axis) gives the same phases 2 and 3: the first is kept, of
        // the shortest. Copies come from different choices too: a phase-1
        // solution of one choice followed by a whole-cube turn made of two
        // wide turns (`Uw Dw'`) is the start of another choice two moves
        // shorter.
        let mut seen = crate::hash::MixSet::default();
        let mut starts = Vec::new();
        for o in order {
            if starts.len() == opts.phase1_candidates {
                break;
            }
            let (_, len, k, p1) = &ranked[(o & 0xff_ffff_ffff) as usize];
            let (len, k) = (*len, *k);
            let (axis, turned) = &turned_of[k];
            let moves: Vec<Move> = p1[..len].iter().map(|&m| st0.moves[m as usize]).collect();
            let s = self.p1_rank.apply(turned, &p1[..len]);
            if !seen.insert(self.canonical(&s)) {
                continue;
            }
            starts.push(Chain {
                axis: *axis,
                lens: vec![moves.len()],
                moves,
                state: s,
                marks: 0,
            });
        }
        // The most promising starts by their bound on phases 1 and 2, first
        // (of one bound, the shorter phase 1).
        starts.sort_by_key(|c| c.moves.len());
        // Deepen on the length of phases 1 and 2 together, over every start.
        // A length that has not given enough after its budget is left for the
        // next: the wing split with an even flip count can be rare at one
        // length (it correlates with the centres) and common one move later.
        // The budget of a length grows fourfold with each length over the
        // first bound; from six over, lengths run to completion (a goal is
        // always reachable, so this ends).
        let policy = Policy {
            want: opts.phase2_candidates,
            level_nodes: opts.phase2_level_nodes,
            growth: 4,
            unlimited_after: 6,
            share: Share::Equal,
            enough_nodes: opts.phase2_nodes,
            more_nodes: u64::MAX,
            grace_nodes: 0,
            max_nodes: u64::MAX,
            max_total: 60,
            threads: 1,
        };
        let ends = next_stage(
            cube,
            &P2 { s: self, claims },
            &starts,
            &policy,
            opts.phase1_candidates,
            clock,
            None,
        )?;
        Ok(ends
            .into_iter()
            .map(|c| Candidate {
                lens: [c.lens[0], c.lens[1]],
                turned: c.marks == 1,
                moves: c.moves,
                state: c.state,
                axis: c.axis,
            })
            .collect())
    }

    /// Phases 1 and 2 (U/D centres staged; L/R and F/B centres staged for the
    /// pairing group, each dedge with one wing in each class, even wing
    /// permutation) of a valid state: the moves and the length of each phase.
    /// The moves end with the whole-cube turn `y` when phase 2 reached its goal
    /// with the F/B centres on R/L (the lengths do not count it).
    pub fn reduce_to_pairing(&self, state: &[u8]) -> Result<(Vec<Move>, [usize; 2]), SolveError> {
        self.check(state)?;
        let opts = Options {
            all_axes: false,
            ..Options::default()
        };
        let clock = clock_of(Instant::now(), &opts, None);
        let mut c = self.reduce_candidates(state, &opts, clock, &choices(&opts), None)?;
        let mut c = c.swap_remove(0);
        if c.turned {
            c.moves.push(y_turn());
        }
        Ok((c.moves, c.lens))
    }

    /// Solves a 4x4x4 facelet state (96 facelets, colours as [`CubeN::solved`]).
    /// The cube ends solved with the U colour on U, R on R and so on.
    /// The cube ends solved in the orientation its centres, then its corners,
    /// are closest to (a solved cube held in any orientation gets the empty
    /// solution).
    pub fn solve(&self, state: &[u8], opts: Options) -> Result<Solution4, SolveError> {
        self.check(state)?;
        let cube = &self.stages.cube;
        let rotation = self.frame(state)?;
        let mut turned = state.to_vec();
        cube.apply_alg(&mut turned, &rotation);
        let mut sol = self.solve_in_frame(&turned, opts)?;
        sol.moves = tablegen::cube::unrotate(&sol.moves, &rotation);
        let mut s = state.to_vec();
        cube.apply_alg(&mut s, &sol.moves);
        if !cube.is_solved(&s) {
            return Err(SolveError::Internal(
                "the solution does not solve the cube".into(),
            ));
        }
        Ok(sol)
    }

    /// The whole-cube turn after which most centre facelets show their face's
    /// colour, then most corners are solved (the first of
    /// [`tablegen::cube::rotations24`] on a tie): the orientation the solve
    /// ends in. A 4x4x4 has no fixed centres; without this, a solved cube
    /// held in another orientation got moves (`x` was answered `Rw Lw'`).
    fn frame(&self, state: &[u8]) -> Result<Vec<Move>, SolveError> {
        let cube = &self.stages.cube;
        let centres: Vec<(usize, u8)> = Face::ALL
            .iter()
            .flat_map(|&f| {
                [(1, 1), (1, 2), (2, 1), (2, 2)].map(|(r, c)| (cube.index(f, r, c), f as u8))
            })
            .collect();
        let mut best = ((0, 0), Vec::new());
        for r in tablegen::cube::rotations24() {
            let mut s = state.to_vec();
            cube.apply_alg(&mut s, &r);
            let (cp, co) =
                read_corners(cube, &s, &[0, 1, 2, 3, 4, 5]).map_err(SolveError::internal)?;
            let score = (
                centres.iter().filter(|&&(i, c)| s[i] == c).count(),
                (0..8)
                    .filter(|&i| cp[i] as usize == i && co[i] == 0)
                    .count(),
            );
            if score > best.0 {
                best = (score, r);
            }
        }
        Ok(best.1)
    }

    /// Phase 3 of every candidate: (candidate index, phase-3 moves) of each
    /// solution found, all of the least total length reached.
    fn pair_candidates(
        &self,
        cands: &[Candidate],
        opts: &Options,
        clock: Clock,
    ) -> Result<Vec<(usize, Vec<Move>)>, SolveError> {
        // Over every candidate at once: total length L = 0, 1, ...; the first
        // candidates whose phase 3 fits in L - (their phases 1 and 2) win.
        let p3 = P3 { s: self };
        let mut roots = Vec::new();
        for (ci, c) in cands.iter().enumerate() {
            let node = self.node3(&c.state)?;
            let before = c.lens[0] + c.lens[1];
            roots.push((
                Root {
                    node,
                    before,
                    lower: before + p3.h(&node),
                },
                ci,
            ));
        }
        roots.sort_by_key(|r| r.0.lower);
        // As in phase 2, a length that takes too long is left for the next one,
        // where solutions are denser. Once one solution is found, the search goes
        // on a little for more (each ends in a different 3x3x3).
        // A root that used up a length's budget is passed over at the next
        // lengths until every root in reach has (then all are tried again):
        // else it would be searched again, deeper, at every next length, never
        // letting the others be tried, until the depth-first search ends in a
        // very long path (seen: 58 moves where other roots had 14).
        let policy = Policy {
            want: opts.phase3_solutions,
            level_nodes: opts.phase3_level_nodes,
            growth: 1,
            unlimited_after: u32::MAX,
            share: Share::PassOverSpent,
            enough_nodes: u64::MAX,
            more_nodes: (opts.phase3_more_nodes_per_ms)
                .saturating_mul(opts.time_budget.as_millis().try_into().unwrap_or(u64::MAX)),
            grace_nodes: 0,
            max_nodes: opts.exact_nodes,
            max_total: usize::MAX,
            threads: 1,
        };
        let stage_roots: Vec<Root<N3>> = roots.iter().map(|r| r.0).collect();
        let found = deepen(&p3, &stage_roots, &policy, clock);
        if found.found.is_empty() {
            return Err(if found.expired {
                SolveError::OutOfTime("phase 3".into())
            } else {
                SolveError::Internal(format!(
                    "phase 3 found nothing within {} nodes",
                    opts.exact_nodes
                ))
            });
        }
        Ok(found
            .found
            .iter()
            .map(|f| {
                let ci = roots[f.root].1;
                (ci, f.path.iter().map(|&i| self.p3_moves[i]).collect())
            })
            .collect())
    }

    /// The reduction alone (phases 1 to 3) of a valid state: moves after
    /// which every centre is solved (each face one colour), every edge
    /// paired and the reduced cube a real 3x3x3 (no parity), the shortest
    /// of the phase-3 solutions found. Used where the 4x4x4 is part of a
    /// bigger cube whose own solver finishes the 3x3x3.
    pub fn reduce(&self, state: &[u8], opts: Options) -> Result<Vec<Move>, SolveError> {
        self.check(state)?;
        let clock = clock_of(Instant::now(), &opts, None);
        let cands = self.reduce_candidates(state, &opts, clock, &choices(&opts), None)?;
        let found = self.pair_candidates(&cands, &opts, clock)?;
        found
            .into_iter()
            .map(|(ci, m3)| cands[ci].whole(&m3).1)
            .min_by_key(|m| m.len())
            .ok_or_else(|| SolveError::Internal("no phase-3 solution".into()))
    }

    /// Solves a checked state with the U colour ending on U, R on R and so on:
    /// the phase-1 choices dealt out among the threads, the shortest whole
    /// of theirs kept.
    fn solve_in_frame(&self, state: &[u8], opts: Options) -> Result<Solution4, SolveError> {
        let start = Instant::now();
        let all = choices(&opts);
        let threads = match opts.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
        .clamp(1, all.len());
        let best = AtomicUsize::new(usize::MAX);
        if threads == 1 {
            return self
                .solve_choices(state, &opts, start, &all, &best, None)?
                .ok_or_else(|| SolveError::Internal("no phase-3 solution".into()));
        }
        let groups: Vec<Vec<(usize, usize)>> = (0..threads)
            .map(|t| all.iter().copied().skip(t).step_by(threads).collect())
            .collect();
        // Each thread's phase 2 hands on its share of the ends: phases 1 to 3
        // take about the time they take on one thread, and the finishes get
        // the threads' time over.
        let opts = Options {
            phase2_candidates: opts.phase2_candidates.div_ceil(threads),
            ..opts
        };
        // The threads' phase-1 choices reach many of the same phase-2 ends (the
        // same problem turned and recoloured): each goes to the thread that
        // reaches it in fewer moves, or first, and the other looks on for ends
        // of its own.
        let claims = Claims::default();
        let claim = opts.split_ends;
        let results: Vec<Result<Option<Solution4>, SolveError>> = std::thread::scope(|sc| {
            let handles: Vec<_> = groups
                .iter()
                .enumerate()
                .map(|(t, g)| {
                    let claims = claim.then_some((&claims, t));
                    let (opts, best) = (&opts, &best);
                    sc.spawn(move || self.solve_choices(state, opts, start, g, best, claims))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(SolveError::Internal("a 4x4x4 solve thread panicked".into()))
                    })
                })
                .collect()
        });
        // The shortest whole; if no thread found one, the first error.
        let mut first_err = None;
        let mut shortest: Option<Solution4> = None;
        for r in results {
            match r {
                Ok(Some(s))
                    if shortest
                        .as_ref()
                        .is_none_or(|b| s.moves.len() < b.moves.len()) =>
                {
                    shortest = Some(s)
                }
                Ok(_) => {}
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        match (shortest, first_err) {
            (Some(s), _) => Ok(s),
            (None, Some(e)) => Err(e),
            (None, None) => Err(SolveError::Internal("no 4x4x4 solve thread".into())),
        }
    }

    /// Refuses a state that is not a real 4x4x4 (`validate` checks the
    /// wing orbit too: each wing once).
    fn check(&self, state: &[u8]) -> Result<(), SolveError> {
        Ok(validate(&self.stages.cube, state)?)
    }
}

impl crate::puzzle::CubeSolver for Solver {
    fn load_cube(_: usize, tables: &Path, quiet: bool) -> Result<Solver, SolveError> {
        Ok(Solver::load(tables, quiet)?)
    }
    fn solve_cube(
        &self,
        state: &[u8],
        opts: &crate::puzzle::Options,
    ) -> Result<crate::Solution, SolveError> {
        let mut o = Options::default();
        if let Some(h) = opts.hard_limit {
            o.hard_limit = h;
        }
        if let Some(t) = opts.time_budget {
            o.time_budget = t;
        }
        o.threads = opts.threads;
        if let Some((length, time)) = opts.target {
            o.target_length = Some(length);
            o.target_time = time.unwrap_or(o.target_time);
        }
        let sol = Solver::solve(self, state, o)?;
        Ok(crate::Solution::of_moves(&sol.moves, &sol.phases))
    }
    /// A uniformly random 4x4x4 (its wings, centres and corners).
    fn random_state(_: usize, seed: u64) -> Vec<u8> {
        tablegen::cube4::random_state(rand::Rng::gen(&mut crate::puzzle::rng(seed)))
    }
}
