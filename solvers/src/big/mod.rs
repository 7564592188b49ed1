//! Cubes of 6x6x6 and up.
//!
//! Up to [`NESTED_MAX_N`] an N-cube goes through the (N-2)-cube of its
//! inner layers (reduced, by the same route one size down, to a 4x4x4 or
//! 5x5x5 reduction), then the blocks between its outer wings, to a 5x5x5
//! the 5x5x5 solver finishes (the `nested` module). Larger cubes are
//! reduced to the 4x4x4 (even N) or 5x5x5 (odd N) made of their innermost
//! layers, which the 4x4x4 or 5x5x5 solver then solves with block turns as
//! deep as the groups of layers they stand for, as below.
//!
//! Group the layers of an N-cube, seen from one face, as the smaller cube
//! does: the face layer; layers `1..m-1` (`m = N / 2`, or `(N - 1) / 2` on
//! odd N); on odd N the middle layer `m`; the mirror of the second group; the
//! opposite face. Once every facelet shows the colour of the facelet at the
//! same place in its group's innermost layer (the *representative*), the
//! cube turns as the smaller cube made of the representatives, with `Rw` of
//! the small cube the N-cube's `mRw`: the small cube's solution, its block
//! turns lifted onto its layers, solves the N-cube.
//!
//! The reduction places every facelet that is not a representative, wings
//! first (`docs/nnn.md`):
//!
//! - **Wings**, innermost orbit first ([`Reducer::reduce`]). While no centre
//!   is placed, the faces and the block turns down to the orbit's own layer
//!   (`(a+1)Rw` for depth `a`) move nothing finished, so a beam search over
//!   such turns pairs most of the orbit (and places what centre facelets it
//!   can on the way), and a greedy search finishes it, taking step by step
//!   the sequence of up to three such turns or the wing 3-cycle that pairs
//!   the most wings per move. Wing 3-cycles are the
//!   commutator of an inner layer with a face sequence (`[2R, U F U']`),
//!   found once on the 4x4x4; they move three wings and some centres.
//! - **Centres**, orbit by orbit (an oblique with its mirror), by cycles
//!   that touch nothing else: commutators of two single inner layers
//!   (`[2R, 3U]`, two 3-cycles for eight moves) or of a layer with a face
//!   turn's conjugate of another (`[2R, U 3L' U']`), found once on the
//!   smallest cube with an orbit of each kind and a layer the commutator
//!   leaves alone (X-centres on the 5x5x5, T-centres on the 7x7x7, obliques
//!   on the 8x8x8: the untouched layer's orbits show that every other orbit
//!   stays put), then carried to the N-cube's layers. A greedy search takes
//!   the cycle that places the most facelets per move, each behind up to
//!   two turns of the small cube that are not undone (they keep everything
//!   finished in place); the cycles are listed once per kind of orbit. Up
//!   to the 10x10x10 every orbit is placed in one search that also has bar
//!   cycles, commutators of ranges of two layers that move facelets of two
//!   orbits at once (`bars`).
//!
//! The reduction is tried from as many whole-cube orientations as the time
//! budget allows, and the shortest kept ([`Solver::solve`]). The solution
//! is checked on the facelet model before it is returned.
//!
//! The files: `cycles` (the sequences found on small cubes, their setups,
//! a cycle carried to the N-cube), `beam` (the wing phase's beam search),
//! `pick` (one greedy step's choice), `reducer` (the orbit-by-orbit
//! reduction), `bars` (the joint centre search with bar cycles), `nested`
//! (the route through the inner cube and the blocks), and this one (the
//! solver: the route, the small cube's finish, the check).

mod bars;
mod beam;
mod cycles;
mod nested;
mod pick;
mod reducer;
mod wings;

use beam::*;
use cycles::*;
use pick::*;
use reducer::*;
pub use reducer::{Reducer, Reduction};

use crate::moves::simplify;
use crate::{Hard, SolveError};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tablegen::cube::{rotations24, unrotate, CubeN};
use tablegen::notation::{invert_alg, Face, Move, MoveKind};
use tablegen::orbits::Orbits;

/// The smallest cube this solver takes (smaller ones have their own).
pub const MIN_N: usize = 6;
/// The largest cube this solver takes (the facelet model's limit).
pub const MAX_N: usize = 64;
// A cycle holds its facelets as 16-bit numbers (`tablegen::cycles::Cand`).
const _: () = assert!(6 * MAX_N * MAX_N <= 1 << 16);
/// The largest N solved through its inner cubes (see the `nested` module);
/// larger cubes are reduced orbit by orbit to a 4x4x4 or 5x5x5.
pub const NESTED_MAX_N: usize = 17;

/// The time a solve aims at when none is given (each part runs at least
/// once, so a large cube takes longer).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(2500);

/// The default hard time limit (a 17x17x17 and up takes minutes).
pub const HARD_LIMIT: Duration = Duration::from_secs(180);

/// Options of the route through the inner cubes (6x6x6 to
/// [`NESTED_MAX_N`]), set when the solver is loaded
/// ([`Solver::load_with`]); larger cubes take none of them. Each level of
/// the route is a KxKxK: the cube itself, its inner (K = N-2), that one's
/// inner, and so on down to 6x6x6 or 7x7x7. The default is the solver's
/// own choice.
#[derive(Clone, Debug)]
pub struct Options {
    /// `(K, T)`: the KxKxK level makes its blocks from at least T
    /// orientations, whatever the time budget (the shortest is kept). A
    /// level not listed: 8 up to 10x10x10, then 1. Of two entries for one
    /// level the later counts.
    pub tries: Vec<(usize, usize)>,
    /// `(K, M)`: the KxKxK level's block search looks one move past each of
    /// a step's M best moves (1, or 0: none, the plain greedy step). A
    /// level not listed: 4 at every level of a cube up to 10x10x10, then 1.
    /// Of two entries for one level the later counts.
    pub look: Vec<(usize, usize)>,
    /// Whether the blocks are made with free moves (`S 2R S'`) as well as
    /// the cycles (default: true; false: the cycles alone).
    pub free_moves: bool,
    /// Called with a line on each level's free moves (when the solver is
    /// loaded), the inner cube's time and each orientation's blocks (as a
    /// cube is solved); none by default.
    pub trace: Option<fn(&str)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tries: Vec::new(),
            look: Vec::new(),
            free_moves: true,
            trace: None,
        }
    }
}

impl Options {
    /// The value of the KxKxK level in `list`, if it has one.
    fn at(list: &[(usize, usize)], k: usize) -> Option<usize> {
        list.iter().rev().find(|e| e.0 == k).map(|e| e.1)
    }
}

/// The small cubes' solvers' options for what is left of a solve: their own
/// time budget (or `budget`), and the solve's hard limit `hard`.
fn small_options(
    budget: Option<Duration>,
    hard: Hard,
) -> (crate::cube4::Options, crate::cube5::Options) {
    let left = hard.left();
    let mut four = crate::cube4::Options::default();
    let mut five = crate::cube5::Options::default();
    if let Some(t) = budget {
        four.time_budget = t;
        five.time_budget = t;
    }
    four.time_budget = four.time_budget.min(left);
    five.time_budget = five.time_budget.min(left);
    four.hard_limit = left;
    five.hard_limit = left;
    (four, five)
}

enum Small {
    Four(Box<crate::cube4::Solver>),
    Five(Box<crate::cube5::Solver>),
    /// The route through the inner (N-2)-cube and the blocks to the 5x5x5
    /// (see the `nested` module), with the 4x4x4 solver where the
    /// innermost cube is one.
    Nested(
        Option<Box<crate::cube4::Solver>>,
        Box<crate::cube5::Solver>,
        Box<nested::Nested>,
    ),
}

/// The NxNxN solver of one size N (6 and up).
pub struct Solver {
    reducer: Reducer,
    small: Small,
}

/// A solution and its phase lengths (outer block turns).
#[derive(Clone, Debug)]
pub struct SolutionN {
    /// The moves, outer block turns only.
    pub moves: Vec<Move>,
    /// (phase, moves) in order; the phases' sum may exceed the solution's
    /// length where turns merged across a boundary.
    pub phases: Vec<(&'static str, usize)>,
}

impl Solver {
    /// Loads the solver of an N-cube: the 4x4x4 or 5x5x5 solver's tables from
    /// `dir`. The route's options are the defaults ([`Solver::load_with`]).
    pub fn load(n: usize, dir: &Path, quiet: bool) -> Result<Solver, SolveError> {
        Solver::load_with(n, dir, quiet, &Options::default())
    }

    /// [`Solver::load`], the route through the inner cubes (up to
    /// [`NESTED_MAX_N`]) built with `opts`.
    pub fn load_with(
        n: usize,
        dir: &Path,
        quiet: bool,
        opts: &Options,
    ) -> Result<Solver, SolveError> {
        if !(MIN_N..=MAX_N).contains(&n) {
            return Err(SolveError::Input(format!(
                "the NxNxN solver takes {MIN_N}x{MIN_N}x{MIN_N} to {MAX_N}x{MAX_N}x{MAX_N}, not {n}x{n}x{n}"
            )));
        }
        let reducer = Reducer::new(n);
        let small = if n <= NESTED_MAX_N {
            // The route's tables and levels load on a second thread while
            // the small cubes' solvers load (its cycles are made once a
            // solve begins: `Nested::begin`).
            std::thread::scope(|sc| {
                let route = sc.spawn(|| nested::Nested::load(n, opts, dir, quiet));
                // The innermost cube: a 4x4x4 for even N.
                let four = if n.is_multiple_of(2) {
                    Some(Box::new(crate::cube4::Solver::load_reduction(dir, quiet)?))
                } else {
                    None
                };
                let five = Box::new(crate::cube5::Solver::load(dir, quiet)?);
                let route = tablegen::joined(route)?;
                if route.needs_four() != four.is_some() {
                    return Err(SolveError::Internal(format!(
                        "the {n}-cube's route ends in the wrong small cube"
                    )));
                }
                Ok::<_, SolveError>(Small::Nested(four, five, Box::new(route)))
            })?
        } else if n.is_multiple_of(2) {
            Small::Four(Box::new(crate::cube4::Solver::load_reduction(dir, quiet)?))
        } else {
            Small::Five(Box::new(crate::cube5::Solver::load(dir, quiet)?))
        };
        if !matches!(small, Small::Nested(..)) {
            reducer.prepare();
        }
        Ok(Solver { reducer, small })
    }

    /// Solves an N-cube facelet state (colours as [`CubeN::solved`]) within
    /// about `time_budget` ([`DEFAULT_BUDGET`] if none). The reduction is
    /// run from as many of the 24 orientations as the budget allows (at
    /// least one), less the small cube's share (its solver's default budget,
    /// at most half), and the shortest kept; the small cube's solver then
    /// gets what is left of a given budget, or its own default.
    pub fn solve(
        &self,
        state: &[u8],
        time_budget: Option<Duration>,
    ) -> Result<SolutionN, SolveError> {
        self.solve_within(state, time_budget, HARD_LIMIT)
    }

    /// [`Solver::solve`], given up with [`SolveError::OutOfTime`] at
    /// `hard_limit` (never before the time budget).
    pub fn solve_within(
        &self,
        state: &[u8],
        time_budget: Option<Duration>,
        hard_limit: Duration,
    ) -> Result<SolutionN, SolveError> {
        let start = Instant::now();
        let r = &self.reducer;
        let n = r.n;
        tablegen::validate::validate(&r.cube, state)?;
        let budget = time_budget.unwrap_or(DEFAULT_BUDGET);
        // The small cube's share: its own default budget, at most half.
        let small_share = match &self.small {
            Small::Four(_) => crate::cube4::Options::default().time_budget,
            Small::Five(_) | Small::Nested(..) => crate::cube5::Options::default().time_budget,
        }
        .min(budget / 2);
        let hard = Hard::after(hard_limit.max(budget));
        let mut s = state.to_vec();
        let deadline = start + (budget - small_share);
        let through = match &self.small {
            Small::Nested(four, five, route) => {
                route.begin()?;
                match route.to_five(four.as_deref(), five, &mut s, deadline, hard)? {
                    nested::Route::Reduced { inner, blocks } => Some(Reduction {
                        wings: inner,
                        centres: blocks,
                    }),
                    // The blocks' greedy search stalled from every
                    // orientation: the orbit-by-orbit reduction instead.
                    nested::Route::Stalled => {
                        s = state.to_vec();
                        None
                    }
                }
            }
            _ => None,
        };
        let nested = through.is_some();
        let (reduction, names) = match through {
            Some(red) => (red, ["inner-cube", "blocks"]),
            None => (
                r.best_oriented(&mut s, &rotations24(), deadline, hard)?,
                ["wings", "centres"],
            ),
        };
        let rest = time_budget.map(|b| b.saturating_sub(start.elapsed()));
        let (four_opts, five_opts) = small_options(rest, hard);
        let five = |solver: &crate::cube5::Solver, small: &[u8]| {
            solver
                .solve(small, five_opts)
                .map(|sol| (sol.moves, sol.phases))
        };
        let (four, five_solver) = match &self.small {
            Small::Four(x) => (Some(&**x), None),
            Small::Five(x) => (None, Some(&**x)),
            Small::Nested(x, y, _) => (x.as_deref(), Some(&**y)),
        };
        let missing = || SolveError::Internal("no solver for the small cube".into());
        let (finish, small_phases): (Vec<Move>, _) = match &self.small {
            Small::Nested(_, solver, route) if nested => {
                let (moves, phases) = five(solver, &route.outer5(&s))?;
                (
                    moves.into_iter().flat_map(|m| route.lift5(m)).collect(),
                    phases,
                )
            }
            _ if n.is_multiple_of(2) => {
                let sol = four
                    .ok_or_else(missing)?
                    .solve(&r.small_state(&s), four_opts)?;
                let deep = sol.moves.iter().flat_map(|&m| r.lift(m)).collect();
                (deep, sol.phases)
            }
            _ => {
                let (moves, phases) = five(five_solver.ok_or_else(missing)?, &r.small_state(&s))?;
                (moves.iter().flat_map(|&m| r.lift(m)).collect(), phases)
            }
        };
        let mut all: Vec<Move> = Vec::new();
        all.extend(&reduction.wings);
        all.extend(&reduction.centres);
        all.extend(&finish);
        let moves = simplify(&outer_blocks(n, &all));
        let mut check = state.to_vec();
        r.cube.apply_alg(&mut check, &moves);
        if !r.cube.is_solved(&check) {
            return Err(SolveError::Internal(
                "the solution does not solve the cube".into(),
            ));
        }
        let mut phases = vec![
            (names[0], reduction.wings.len()),
            (names[1], reduction.centres.len()),
        ];
        phases.extend(small_phases);
        Ok(SolutionN { moves, phases })
    }

    /// The size N.
    pub fn n(&self) -> usize {
        self.reducer.n
    }
}

impl crate::puzzle::CubeSolver for Solver {
    fn load_cube(n: usize, tables: &Path, quiet: bool) -> Result<Solver, SolveError> {
        Solver::load(n, tables, quiet)
    }
    fn solve_cube(
        &self,
        state: &[u8],
        opts: &crate::puzzle::Options,
    ) -> Result<crate::Solution, SolveError> {
        let sol = Solver::solve_within(
            self,
            state,
            opts.time_budget,
            opts.hard_limit.unwrap_or(HARD_LIMIT),
        )?;
        Ok(crate::Solution::of_moves(&sol.moves, &sol.phases))
    }
}

/// Rewrites single inner layers as two block turns (`3R` = `3Rw 2Rw'`), each
/// seen from the nearer face.
pub fn outer_blocks(n: usize, moves: &[Move]) -> Vec<Move> {
    let mut out = Vec::with_capacity(moves.len() * 2);
    for &m in moves {
        match m.kind {
            MoveKind::Slice(d) => {
                let (face, d, t) = if 2 * d as usize > n + 1 {
                    (m.face.opposite(), (n + 1 - d as usize) as u8, 4 - m.turns)
                } else {
                    (m.face, d, m.turns)
                };
                out.push(Move::block(face, d, t));
                out.push(Move::block(face, d - 1, 4 - t));
            }
            _ => out.push(m),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cycle does on the N-cube what it was carried to do: replayed
    /// on the facelet model, it moves exactly the facelets it names (a wing
    /// cycle may also move centres that are not representatives).
    #[test]
    fn cycles_carry_to_bigger_cubes() {
        cycles_carry(&[6, 7]);
    }

    /// As [`cycles_carry_to_bigger_cubes`], on cubes with more orbits of a
    /// kind (the ignored set: an 8x8x8; soaked, a 9x9x9 and a 12x12x12 too).
    #[test]
    #[ignore]
    fn cycles_carry_to_the_largest_cubes() {
        if crate::soak() {
            cycles_carry(&[8, 9, 12]);
        } else {
            cycles_carry(&[8]);
        }
    }

    fn cycles_carry(sizes: &[usize]) {
        for &n in sizes {
            let r = Reducer::new(n);
            let mut orbits: Vec<(Vec<usize>, bool)> = r
                .orbits
                .centres
                .iter()
                .map(|o| (o.clone(), false))
                .collect();
            orbits.extend(
                r.orbits
                    .wings
                    .iter()
                    .map(|w| (w.iter().flat_map(|p| p.iter().copied()).collect(), true)),
            );
            for (o, wing) in orbits {
                if wing && r.wing_depth(&[[o[0], o[1]]]) == n / 2 - 1 {
                    continue; // the representatives' own orbit is never cycled
                }
                let lay = r.layout(o[0], wing);
                let lead = marks(r.cube.facelets(), o.iter().copied());
                let setups = &r.small_setups;
                let cands = r.candidates(&o, &lay, &lead, setups);
                assert!(!cands.is_empty(), "{n}: no cycles");
                // Wing cycles may move centres that are not representatives
                // (placed later); nothing else.
                let free: HashSet<u32> = r
                    .orbits
                    .centres
                    .iter()
                    .flatten()
                    .filter(|&&f| {
                        let (row, col) = ((f / n) % n, f % n);
                        r.rep(row) != row || r.rep(col) != col
                    })
                    .map(|&f| f as u32)
                    .collect();
                for c in cands.iter().step_by(97) {
                    // The effect named is the cycle's with its setup undone.
                    let mut moves = r.cand_moves(c, &lay, setups);
                    let setup = &setups[c.setup as usize];
                    if setup.kept {
                        moves.extend(invert_alg(&setup.moves));
                    }
                    let t = track(&r.cube, &moves);
                    let mut got: Vec<(u32, u32)> = moved(&t)
                        .iter()
                        .map(|&(f, t)| (f as u32, t as u32))
                        .filter(|(f, _)| !(wing && free.contains(f)))
                        .collect();
                    got.sort_unstable();
                    let mut want: Vec<(u32, u32)> = (c.pairs().iter())
                        .map(|&(f, t)| (f.into(), t.into()))
                        .collect();
                    want.sort_unstable();
                    assert_eq!(got, want, "{n}");
                }
            }
        }
    }

    /// The cycles as the batched, prefetched index keeps them are the ones a
    /// plain map keeps, read one by one in the same order: a cycle per
    /// effect, the cheapest, the first of equals, where its effect first
    /// came.
    #[test]
    fn the_effect_index_keeps_what_a_map_keeps() {
        let r = Reducer::new(7);
        for (g, (_, facelets)) in r.groups.iter().enumerate().take(2) {
            let lay = r.layout(facelets[0], false);
            let lead = cycles::marks(r.cube.facelets(), facelets.iter().copied());
            let got = r.candidates(facelets, &lay, &lead, &r.small_setups);
            // The reference: every (base, setup) in order, a HashMap.
            let k = lay.size;
            let carry = |f: u16| {
                let f = f as usize;
                let (face, row, col) = (f / (k * k), (f / k) % k, f % k);
                let (row, col) = (lay.map[row], lay.map[col]);
                (row < r.n && col < r.n).then(|| ((face * r.n + row) * r.n + col) as u32)
            };
            let next_to = next_turns(&r.cube, &r.small_setups);
            // (base, setup, cost, pairs) of each cycle kept.
            type Kept = (u32, u32, u32, Vec<(u32, u32)>);
            let mut want: Vec<Kept> = Vec::new();
            let mut index: HashMap<u64, usize> = HashMap::new();
            for (bi, b) in cycles::bases(lay.kind).iter().enumerate() {
                let Some(pairs) = (b.pairs.iter())
                    .map(|&(f, t)| Some((carry(f)?, carry(t)?)))
                    .collect::<Option<Vec<_>>>()
                else {
                    continue;
                };
                if pairs.len() > cycles::MAX_PAIRS
                    || !pairs.iter().all(|&(f, _)| facelets.contains(&(f as usize)))
                {
                    continue;
                }
                for (si, st) in r.small_setups.iter().enumerate() {
                    if let Some(p) = &next_to[si] {
                        if pairs.iter().all(|&(f, _)| p[f as usize] as u32 == f) {
                            continue;
                        }
                    }
                    let mut moved: Vec<(u32, u32)> = (pairs.iter())
                        .map(|&(f, t)| (st.dest[f as usize], st.dest[t as usize]))
                        .collect();
                    moved.sort_unstable();
                    let key = cycles::effect_key(moved.iter().copied());
                    let cost = cycles::base_cost(&b.moves)
                        + if st.kept { 1 } else { 2 } * st.moves.len() as u32;
                    let at = index.get(&key).copied();
                    if at.is_some_and(|i| want[i].2 <= cost) {
                        continue;
                    }
                    moved.sort_by_key(|&(f, _)| !lead[f as usize]);
                    let entry = (bi as u32, si as u32, cost, moved);
                    match at {
                        Some(i) => want[i] = entry,
                        None => {
                            index.insert(key, want.len());
                            want.push(entry);
                        }
                    }
                }
            }
            assert_eq!(got.len(), want.len(), "group {g}");
            for (a, b) in got.iter().zip(&want) {
                assert_eq!(
                    (a.base, a.setup, a.cost, a.pairs().to_vec()),
                    (
                        b.0,
                        b.1,
                        b.2,
                        b.3.iter().map(|&(f, t)| (f as u16, t as u16)).collect()
                    )
                );
            }
        }
    }

    /// Each centre group's own cycles are its kind's first group's, renamed
    /// (what [`Reducer::kind_candidates`] relies on), on cubes with several
    /// groups of each kind.
    #[test]
    fn groups_of_a_kind_share_their_cycles() {
        for n in [9, 10] {
            let r = Reducer::new(n);
            let setups = &r.small_setups[..r.small_one_turn];
            let cycles = |g: usize| {
                let facelets = &r.groups[g].1;
                let lay = r.layout(facelets[0], false);
                let lead = marks(r.cube.facelets(), facelets.iter().copied());
                (lay.kind, r.candidates(facelets, &lay, &lead, setups))
            };
            let mut first: Vec<Option<(usize, Vec<Cand>)>> = vec![None, None, None];
            let mut renamed = 0;
            for g in 0..r.groups.len() {
                let (kind, own) = cycles(g);
                let Some((canon, theirs)) = &first[kind as usize] else {
                    first[kind as usize] = Some((g, own));
                    continue;
                };
                let at = r.relabel(*canon, g);
                assert_eq!(own.len(), theirs.len(), "{n} group {g}");
                for (a, b) in own.iter().zip(theirs) {
                    assert_eq!(
                        (a.base, a.setup, a.cost, a.leads),
                        (b.base, b.setup, b.cost, b.leads)
                    );
                    let mut mine: Vec<(u32, u32)> = (a.pairs().iter())
                        .map(|&(f, t)| (f.into(), t.into()))
                        .collect();
                    let mut moved: Vec<(u32, u32)> = b
                        .pairs()
                        .iter()
                        .map(|&(f, t)| (at[f as usize], at[t as usize]))
                        .collect();
                    mine.sort_unstable();
                    moved.sort_unstable();
                    assert_eq!(mine, moved, "{n} group {g}");
                }
                renamed += 1;
            }
            assert!(renamed >= 4, "{n}: {renamed}");
        }
    }

    /// The setups the reduction keeps change nothing finished: a face turn
    /// keeps paired wings paired, and every centre setup (a turn of the
    /// small cube) keeps a reduced cube reduced.
    #[test]
    fn kept_setups_keep_what_is_finished() {
        for n in [6, 7, 8, 9] {
            let r = Reducer::new(n);
            // A reduced cube that is not solved: small-cube turns, lifted.
            let mut s = r.cube.solved();
            for m in tablegen::notation::parse_alg("Rw U2 F' 2Rw' L B Uw2 D' Fw").unwrap() {
                for d in r.lift(m) {
                    r.cube.apply(&mut s, d);
                }
            }
            assert!(r.is_reduced(&s) && !r.cube.is_solved(&s), "{n}");
            assert!(r.small_setups.iter().all(|x| x.kept), "{n}");
            for x in r.small_setups.iter().step_by(7) {
                let mut t = s.clone();
                r.cube.apply_alg(&mut t, &x.moves);
                assert!(r.is_reduced(&t), "{n}: {:?}", x.moves);
            }
            // A turn of a single inner layer is not a small-cube turn.
            let mut t = s.clone();
            r.cube.apply(&mut t, layer_turn(Face::R, 1, 1));
            assert!(!r.is_reduced(&t), "{n}");
        }
    }

    /// Random states reduce: each facelet ends its representative's colour,
    /// and the moves replayed on the facelet model do the same.
    fn reduce_sizes(sizes: std::ops::RangeInclusive<usize>, seeds: u64) {
        use rayon::prelude::*;
        // The largest first, so that the two cores end together.
        let sizes: Vec<usize> = sizes.rev().collect();
        sizes.par_iter().for_each(|&n| {
            let r = Reducer::new(n);
            for seed in 0..seeds {
                let start = tablegen::orbits::random_state(&r.cube, seed * 31 + n as u64);
                let mut s = start.clone();
                let red = r.reduce(&mut s).unwrap();
                assert!(r.is_reduced(&s), "{n}");
                let mut replay = start.clone();
                let all: Vec<Move> = red.wings.iter().chain(&red.centres).copied().collect();
                r.cube.apply_alg(&mut replay, &outer_blocks(n, &all));
                assert_eq!(replay, s, "{n}");
            }
        });
    }

    #[test]
    fn random_states_reduce() {
        reduce_sizes(6..=7, 2);
    }

    /// A reduction found on the cube turned a whole-cube rotation comes back
    /// as moves of the cube as it was, and the state as it is after them,
    /// its centres where they were: each of two rotations alone, then the
    /// shorter of both.
    #[test]
    fn turned_reductions_come_back() {
        // Odd: the small cube's centres must come back where its solver
        // expects them.
        let n = 7;
        let r = Reducer::new(n);
        let start = tablegen::orbits::random_state(&r.cube, 5);
        let rots = rotations24();
        let both = [rots[5].clone(), rots[14].clone()];
        let mut lens = Vec::new();
        for pick in [&both[..1], &both[1..], &both[..]] {
            let mut s = start.clone();
            // Time for every try.
            let deadline = Instant::now() + Duration::from_secs(3600);
            let red = r
                .best_oriented(&mut s, pick, deadline, Hard::never())
                .unwrap();
            assert!(r.is_reduced(&s));
            let mut replay = start.clone();
            let all: Vec<Move> = red.wings.iter().chain(&red.centres).copied().collect();
            r.cube.apply_alg(&mut replay, &all);
            assert_eq!(replay, s);
            let centre = |st: &[u8], f: usize| st[(f * n + n / 2) * n + n / 2];
            assert!((0..6).all(|f| centre(&s, f) == centre(&start, f)));
            assert!(all.iter().all(|m| matches!(m.kind, MoveKind::Block(_))));
            lens.push(simplify(&all).len());
        }
        assert_eq!(lens[2], lens[0].min(lens[1]), "{lens:?}");
    }

    /// Every size up to the largest cube built (33x33x33), a state each,
    /// the sizes side by side on the cores, soaked; the ignored set reduces
    /// a sample (sizes 12, 18 and 19: past the nested route, both parities).
    #[test]
    #[ignore]
    fn random_states_reduce_up_to_33() {
        if crate::soak() {
            reduce_sizes(8..=33, 1);
        } else {
            reduce_sizes(12..=12, 1);
            reduce_sizes(18..=19, 1);
        }
    }

    fn solve_sizes(sizes: &[usize], seeds: u64, budget: Option<Duration>) {
        use rayon::prelude::*;
        let dir = crate::tables::test_tables_dir();
        // The largest first, so that the two cores end together.
        let mut sizes = sizes.to_vec();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes.par_iter().for_each(|&n| {
            let solver = Solver::load(n, &dir, true).unwrap();
            let cube = CubeN::new(n);
            for seed in 0..seeds {
                let s = tablegen::orbits::random_state(&cube, 1000 * n as u64 + seed);
                // No hard limit to speak of: a busy machine must not fail
                // a test of correctness.
                let sol = solver
                    .solve_within(&s, budget, Duration::from_secs(3600))
                    .unwrap();
                let mut t = s.clone();
                cube.apply_alg(&mut t, &sol.moves);
                assert!(cube.is_solved(&t), "{n} seed {seed}");
                assert!(
                    sol.moves
                        .iter()
                        .all(|m| matches!(m.kind, MoveKind::Block(_))),
                    "{n}: outer block turns only"
                );
                let staged: usize = sol.phases.iter().map(|p| p.1).sum();
                assert!(staged >= sol.moves.len(), "{n} seed {seed}");
            }
        });
    }

    /// Whole solves of a 6x6x6, a 7x7x7 and an 8x8x8 (through their inner
    /// cubes: the 8x8x8's inner 6x6x6 through its 4x4x4), replayed on the
    /// facelet model.
    #[test]
    fn solve_random_states() {
        solve_sizes(&[6, 7, 8], 1, Some(Duration::from_millis(100)));
    }

    /// A random state of every size from 6 to 17 solved and replayed, the
    /// sizes side by side on the cores, soaked; the ignored set solves a
    /// 9x9x9 and a 10x10x10 (sizes 2 to 5 have their own tests; the
    /// benchmark `solve_nnn_bench` replays more).
    #[test]
    #[ignore]
    fn solve_every_size_to_17() {
        if crate::soak() {
            let sizes: Vec<usize> = (6..=17).collect();
            solve_sizes(&sizes, 1, None);
        } else {
            solve_sizes(&[9, 10], 1, Some(Duration::from_millis(100)));
        }
    }
}
