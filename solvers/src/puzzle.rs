//! One interface for every puzzle: read the user's input, load the solver,
//! solve, scramble. Every solver implements it ([`Puzzle`] and [`Solve`], or
//! [`CubeSolver`] for an NxNxN cube); [`crate::registry`] lists them, and
//! `cubesolve` and any other front end dispatch through it once.
//!
//! ```
//! use solvers::puzzle::{Input, Options};
//! let p = solvers::registry::find("2x2x2").unwrap();
//! let position = p.parse(&Input::Scramble("R U R'")).unwrap();
//! let solver = p.load(&solvers::tables::test_tables_dir(), true).unwrap();
//! let solution = solver.solve(&position, &Options::default()).unwrap();
//! assert_eq!(solution.text(), "R U' R'");
//! ```

use crate::{Solution, SolveError};
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::time::Duration;
use tablegen::cube::{CubeN, FaceOrder};

/// What the user gave: a state string or a scramble.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// A state string; `order` is the face order of a cube's string (none
    /// given: the default, and an error for puzzles whose strings have no
    /// face order).
    State {
        /// The string.
        text: &'a str,
        /// Face order, if the user named one.
        order: Option<FaceOrder>,
    },
    /// Moves applied to the solved puzzle.
    Scramble(&'a str),
}

/// Options of a solve; each puzzle reads the ones that concern it.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Time after which the best solution found is returned (each solver has
    /// its own default: 3x3x3 1 s, 4x4x4 240 ms, 5x5x5 850 ms; optimal solvers ignore it).
    pub time_budget: Option<Duration>,
    /// Time after which a solve that has found nothing gives up, never
    /// before the time budget (`None`: the solver's own default, 30 s, or
    /// 180 s for the 6x6x6 and up).
    pub hard_limit: Option<Duration>,
    /// 3x3x3: stop at the first solution of at most this many moves.
    pub max_length: usize,
    /// 3x3x3: the shortest solution, proven (bounded by the hard limit,
    /// by default [`crate::cube3::optimal::DEFAULT_LIMIT`]). The 2x2x2, the
    /// Pyraminx and the Domino are solved optimally anyway; other puzzles
    /// refuse it ([`crate::registry::solves_optimally`]).
    pub optimal: bool,
    /// 3x3x3 with `optimal`: which tables (small: 73 MB, slower; large:
    /// 670 MB).
    pub optimal_tables: crate::cube3::optimal::TableSize,
    /// 3x3x3: phase 1 bounded by its exact distances (the default;
    /// [`crate::cube3::Solver::load_exact_phase1`]: 70 MB, loaded on the
    /// first solve that needs the two phases), else by the three small
    /// tables' bounds. Other puzzles ignore it.
    pub exact_phase1: bool,
    /// Threads a solve may use (0: one per core): the 4x4x4 deals its phase-1
    /// choices out among them, the 5x5x5 each stage's roots and its 3x3x3
    /// finishes (on the process's rayon pool); the optimal 3x3x3 runs on
    /// that pool (the CLI sizes it by `--threads`).
    pub threads: usize,
    /// 4x4x4: a target length and when a solve going on for it stops,
    /// counted from its start (`None`: the solver's default, 1 s): past the
    /// time budget, a solve whose best is longer goes on until it has one
    /// this short or that time has come. Other puzzles refuse it
    /// ([`crate::registry::takes_target`]).
    pub target: Option<(usize, Option<Duration>)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_budget: None,
            hard_limit: None,
            max_length: 21,
            optimal: false,
            optimal_tables: Default::default(),
            exact_phase1: true,
            threads: 0,
            target: None,
        }
    }
}

/// A checked position of some puzzle, and the scramble that made it (in
/// canonical notation) if it came from one.
#[derive(Clone, Debug)]
pub struct Position {
    /// The position.
    pub state: State,
    /// The scramble, if the input was one.
    pub setup: Option<String>,
}

/// A position in the puzzle's own model.
#[derive(Clone, Debug)]
pub enum State {
    /// An NxNxN cube as facelets (colours as [`CubeN::solved`]).
    Cube(Vec<u8>),
    /// A Pyraminx.
    Pyraminx(crate::pyraminx::PyraState),
    /// A Domino: corner and edge permutations (`cp[slot] = piece`).
    Domino([u8; 8], [u8; 8]),
}

impl State {
    /// The position after `moves` (in the puzzle's notation): to replay a
    /// solution or draw the stages of one.
    pub fn after<S: AsRef<str>>(&self, moves: &[S]) -> Result<State, SolveError> {
        let text = moves
            .iter()
            .map(|m| m.as_ref())
            .collect::<Vec<_>>()
            .join(" ");
        let bad = |e: tablegen::notation::NotationError| SolveError::Input(e.to_string());
        Ok(match self {
            State::Cube(st) => {
                let n = (2..=64)
                    .find(|n| 6 * n * n == st.len())
                    .ok_or_else(|| SolveError::Internal("not a cube's facelets".into()))?;
                let cube = CubeN::new(n);
                let alg = tablegen::notation::parse_alg(&text).map_err(bad)?;
                for &m in &alg {
                    cube.check_move(m).map_err(SolveError::input)?;
                }
                let mut st = st.clone();
                cube.apply_alg(&mut st, &alg);
                State::Cube(st)
            }
            State::Pyraminx(p) => {
                let alg = tablegen::pyraminx::parse_alg(&text).map_err(bad)?;
                State::Pyraminx(alg.iter().fold(*p, |p, &m| p.apply(m)))
            }
            State::Domino(cp, ep) => {
                let alg = tablegen::domino::parse_alg(&text).map_err(bad)?;
                let (cp, ep) = alg.iter().fold((*cp, *ep), |(c, e), &m| {
                    tablegen::domino::apply_pieces(&c, &e, m)
                });
                State::Domino(cp, ep)
            }
        })
    }

    /// True if solved (a cube in any whole-cube orientation).
    pub fn is_solved(&self) -> bool {
        match self {
            State::Cube(st) => st
                .chunks(st.len() / 6)
                .all(|f| f.iter().all(|&c| c == f[0])),
            State::Pyraminx(p) => p.is_solved(),
            State::Domino(cp, ep) => {
                // Solved up to a whole-puzzle turn about U-D (which moves
                // every piece on by the same number of slots in its layer).
                (0..4u8).any(|k| {
                    (0..8).all(|i| {
                        let want = (i / 4) * 4 + (i % 4 + k) % 4;
                        cp[i as usize] == want && ep[i as usize] == want
                    })
                })
            }
        }
    }
}

/// The size N of a cube named `NxNxN` (N from 2 to 64).
pub fn cube_size(name: &str) -> Option<usize> {
    let mut parts = name.split('x');
    let n: usize = parts.next()?.parse().ok()?;
    let rest: Vec<&str> = parts.collect();
    let ok = rest.len() == 2 && rest.iter().all(|p| p.parse() == Ok(n));
    (ok && (2..=64).contains(&n)).then_some(n)
}

/// Reads an NxNxN cube from a state string or a scramble and refuses an
/// impossible one (every orbit checked by [`tablegen::validate`]), before any
/// table is loaded.
pub fn parse_valid_cube(n: usize, input: &Input) -> Result<Position, SolveError> {
    let pos = parse_cube(n, input)?;
    tablegen::validate::validate(&CubeN::new(n), cube_state(&pos)?)?;
    Ok(pos)
}

/// A random-state scramble.
#[derive(Clone, Debug)]
pub struct Scramble {
    /// Moves that make the state from solved.
    pub moves: String,
    /// The state string, for puzzles that have one.
    pub state: Option<String>,
}

/// A puzzle the toolkit solves.
pub trait Puzzle: Sync {
    /// Its name on the command line (`2x2x2`, `pyraminx`, ...).
    fn name(&self) -> &str;
    /// Reads and checks the user's input, before any table is loaded.
    fn parse(&self, input: &Input) -> Result<Position, SolveError>;
    /// Loads (or builds) the solver's tables from `tables`.
    fn load(&self, tables: &Path, quiet: bool) -> Result<Box<dyn Solve>, SolveError>;
}

/// A loaded solver.
pub trait Solve: Send + Sync {
    /// Solves a position of its puzzle.
    fn solve(&self, position: &Position, opts: &Options) -> Result<Solution, SolveError>;
    /// A uniformly random position and a scramble that makes it.
    fn scramble(&self, seed: u64) -> Result<Scramble, SolveError>;
}

/// A solver of NxNxN cube positions given as facelets: all a cube needs for
/// its registry entry ([`crate::registry::CubePuzzle`] makes it a [`Puzzle`]).
pub trait CubeSolver: Send + Sync + Sized + 'static {
    /// Loads (or builds) the tables of the `n`-cube from `tables` (a solver
    /// of one size is only ever asked for its own).
    fn load_cube(n: usize, tables: &Path, quiet: bool) -> Result<Self, SolveError>;
    /// Reads and checks the user's input, before any table is loaded: by
    /// default any legal `n`-cube ([`parse_valid_cube`]).
    fn parse_cube(n: usize, input: &Input) -> Result<Position, SolveError> {
        parse_valid_cube(n, input)
    }
    /// Solves a checked position's facelets.
    fn solve_cube(&self, state: &[u8], opts: &Options) -> Result<Solution, SolveError>;
    /// The facelets of a uniformly random `n`-cube drawn from `seed`: by
    /// default every orbit at random ([`tablegen::orbits::random_state`]).
    fn random_state(n: usize, seed: u64) -> Vec<u8> {
        tablegen::orbits::random_state(&CubeN::new(n), rng(seed).gen())
    }
    /// A random-state scramble: by default the inverse of this solver's
    /// solution of [`CubeSolver::random_state`].
    fn scramble_cube(&self, n: usize, seed: u64) -> Result<Scramble, SolveError> {
        let state = Self::random_state(n, seed);
        let sol = self.solve_cube(&state, &Options::default())?;
        cube_scramble(n, &sol, Some(&state))
    }
}

/// Reads an NxNxN cube from a state string or a scramble.
pub fn parse_cube(n: usize, input: &Input) -> Result<Position, SolveError> {
    let cube = CubeN::new(n);
    match *input {
        Input::State { text, order } => {
            let st = cube.parse_state(text, order.unwrap_or(FaceOrder::Urfdlb))?;
            Ok(Position {
                state: State::Cube(st),
                setup: None,
            })
        }
        Input::Scramble(text) => {
            let moves = tablegen::notation::parse_alg(text)
                .map_err(|e| SolveError::Input(e.to_string()))?;
            for &m in &moves {
                cube.check_move(m).map_err(SolveError::input)?;
            }
            let mut st = cube.solved();
            cube.apply_alg(&mut st, &moves);
            Ok(Position {
                state: State::Cube(st),
                setup: Some(tablegen::notation::format_alg(&moves)),
            })
        }
    }
}

/// Refuses a face order for puzzles whose state strings have none.
pub fn no_order(puzzle: &str, input: &Input) -> Result<(), SolveError> {
    match input {
        Input::State { order: Some(_), .. } => Err(SolveError::Input(format!(
            "--order is for cube state strings; {puzzle} has its own format (see the README)"
        ))),
        _ => Ok(()),
    }
}

/// The cube facelets of a position of an NxNxN puzzle (the parser only makes
/// cubes for cube puzzles: anything else is the caller's fault).
pub fn cube_state(position: &Position) -> Result<&[u8], SolveError> {
    match &position.state {
        State::Cube(s) => Ok(s),
        _ => Err(SolveError::Internal("not a cube position".into())),
    }
}

/// A random number generator for scrambles.
pub fn rng(seed: u64) -> rand_xoshiro::Xoshiro256PlusPlus {
    rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// A scramble from a cube state's solution: the solution's inverse, and the
/// state those moves make from solved.
///
/// A cube without fixed centres may end its solution solved in another
/// orientation; the inverse then makes `target` with its colours renamed,
/// and which names depends on the solution found (on the time a solve had).
/// Given `target`, the scramble makes exactly it: the inverse turned for
/// that orientation, then the whole-cube turn to it (`... x2 y`; the
/// position is the one the moves make, the turn only how it is held), so
/// one seed always gives one state.
pub fn cube_scramble(
    n: usize,
    solution: &Solution,
    target: Option<&[u8]>,
) -> Result<Scramble, SolveError> {
    let mut moves = invert(&solution.moves);
    let cube = CubeN::new(n);
    let alg =
        tablegen::notation::parse_alg(&moves).map_err(|e| SolveError::Internal(e.to_string()))?;
    let mut st = cube.solved();
    cube.apply_alg(&mut st, &alg);
    if let Some(target) = target.filter(|t| *t != st.as_slice()) {
        let wrong =
            || SolveError::Internal("the solution does not solve the scrambled state".into());
        // The turn `q` with `q` then the inverse making `target`; the same
        // as the inverse renamed for `q`, then `q`.
        let q = tablegen::cube::rotations24()
            .into_iter()
            .find(|r| {
                let mut t = cube.solved();
                cube.apply_alg(&mut t, r);
                cube.apply_alg(&mut t, &alg);
                t == target
            })
            .ok_or_else(wrong)?;
        let mut turned = tablegen::cube::unrotate(&alg, &q);
        turned.extend(&q);
        let mut t = cube.solved();
        cube.apply_alg(&mut t, &turned);
        if t != target {
            return Err(wrong());
        }
        moves = tablegen::notation::format_alg(&turned);
        st = t;
    }
    Ok(Scramble {
        moves,
        state: Some(cube.format_state(&st, FaceOrder::Urfdlb)),
    })
}

/// The inverse of a move sequence in canonical notation (`R` <-> `R'`, `R2`
/// stays).
pub fn invert(moves: &[String]) -> String {
    moves
        .iter()
        .rev()
        .map(|m| {
            if let Some(base) = m.strip_suffix('\'') {
                base.to_string()
            } else if m.ends_with('2') {
                m.clone()
            } else {
                format!("{m}'")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A seed from the clock, for scrambles without one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
        ^ rand::thread_rng().gen::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4x4 solution that ends solved in another orientation (`Lw'`
    /// undoes `Rw` and turns the cube): the scramble made from it gives the
    /// state asked for, ending in the whole-cube turn to it; without a
    /// target, the state made is the one asked for with its colours renamed.
    #[test]
    fn a_scramble_makes_its_target_whatever_the_orientation_solved_in() {
        let cube = CubeN::new(4);
        for (scramble, solution) in [("Rw", "Lw'"), ("Rw U2 Fw", "Fw' U2 Lw'"), ("R U", "U' R'")] {
            let mut target = cube.solved();
            cube.apply_alg(
                &mut target,
                &tablegen::notation::parse_alg(scramble).unwrap(),
            );
            let mut s = target.clone();
            cube.apply_alg(&mut s, &tablegen::notation::parse_alg(solution).unwrap());
            assert!(cube.is_solved(&s), "{solution}");
            let sol = Solution {
                moves: solution.split(' ').map(String::from).collect(),
                phases: Vec::new(),
                optimal: false,
            };
            let made = cube_scramble(4, &sol, Some(&target)).unwrap();
            assert_eq!(
                made.state.as_deref(),
                Some(cube.format_state(&target, FaceOrder::Urfdlb).as_str()),
                "{scramble}"
            );
            let mut t = cube.solved();
            cube.apply_alg(&mut t, &tablegen::notation::parse_alg(&made.moves).unwrap());
            assert_eq!(t, target, "{scramble}: {}", made.moves);
            let plain = cube_scramble(4, &sol, None).unwrap();
            assert_eq!(plain.moves, invert(&sol.moves));
            // Only the solution that ends turned needs the turn.
            assert_eq!(plain.state == made.state, scramble == "R U", "{scramble}");
        }
    }
}
