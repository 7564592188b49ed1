//! One interface for every puzzle: read the user's input, load the solver,
//! solve, scramble. `cubesolve` dispatches through [`find`] once, and so does
//! any other front end; a new puzzle is one more [`Puzzle`] in [`puzzles`].
//!
//! ```
//! use solvers::puzzle::{self, Input, Options};
//! let p = puzzle::find("2x2x2").unwrap();
//! let position = p.parse(&Input::Scramble("R U R'")).unwrap();
//! let solver = p.load(&solvers::tables::test_tables_dir(), true).unwrap();
//! let solution = solver.solve(&position, &Options::default()).unwrap();
//! assert_eq!(solution.text(), "R U' R'");
//! ```

use crate::short::ShortFirst;
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
    /// its own default: 3x3x3 1 s, 4x4x4 240 ms, 5x5x5 1 s; optimal solvers ignore it).
    pub time_budget: Option<Duration>,
    /// Time after which a solve that has found nothing gives up, never
    /// before the time budget (`None`: the solver's own default, 30 s, or
    /// 180 s for the 5x5x5 and the cubes reduced through it).
    pub hard_limit: Option<Duration>,
    /// 3x3x3: stop at the first solution of at most this many moves.
    pub max_length: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            time_budget: None,
            hard_limit: None,
            max_length: 21,
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

/// Reads a position of any puzzle the toolkit knows, whether it has a solver
/// or not: the registry's puzzles, and any `NxNxN` cube (checked by
/// [`tablegen::validate`]).
pub fn parse_any(name: &str, input: &Input) -> Result<Position, SolveError> {
    if let Ok(p) = find(name) {
        return p.parse(input);
    }
    let n = cube_size(name).ok_or_else(|| {
        SolveError::Input(format!(
            "unknown puzzle {} (have: 2x2x2 to 64x64x64 as NxNxN, pyraminx, domino)",
            tablegen::cli::quote(name)
        ))
    })?;
    parse_valid_cube(n, input)
}

/// Reads an NxNxN cube from a state string or a scramble and refuses an
/// impossible one (every orbit checked by [`tablegen::validate`]), before any
/// table is loaded.
pub fn parse_valid_cube(n: usize, input: &Input) -> Result<Position, SolveError> {
    let pos = parse_cube(n, input)?;
    tablegen::validate::validate(&CubeN::new(n), cube_state(&pos)?)?;
    Ok(pos)
}

/// The scramble of a random state: the inverse of what `solver` answers for
/// it (an NxNxN cube).
pub fn scramble_of(solver: &dyn Solve, n: usize, state: Vec<u8>) -> Result<Scramble, SolveError> {
    let sol = solver.solve(
        &Position {
            state: State::Cube(state),
            setup: None,
        },
        &Options::default(),
    )?;
    cube_scramble(n, &sol)
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
    fn name(&self) -> &'static str;
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

/// Every puzzle, in the order `cubesolve` lists them: the named ones, then
/// the NxNxN cubes from 6x6x6 to [`crate::big::MAX_N`].
pub fn puzzles() -> &'static [&'static dyn Puzzle] {
    static ALL: std::sync::OnceLock<Vec<&'static dyn Puzzle>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        // The 3x3x3 solver finds short solutions itself (optimal within 7 turns).
        let mut all: Vec<&'static dyn Puzzle> = vec![
            &ShortFirst {
                puzzle: &crate::cube2::Cube2Puzzle,
                n: 2,
            },
            &crate::cube3::Cube3Puzzle,
            &ShortFirst {
                puzzle: &crate::cube4::Cube4Puzzle,
                n: 4,
            },
            &ShortFirst {
                puzzle: &crate::cube5::Cube5Puzzle,
                n: 5,
            },
            &crate::pyraminx::PyraminxPuzzle,
            &crate::domino::DominoPuzzle,
        ];
        for n in crate::big::MIN_N..=crate::big::MAX_N {
            let big: &'static crate::big::BigPuzzle = Box::leak(Box::new(crate::big::BigPuzzle {
                n,
                name: Box::leak(format!("{n}x{n}x{n}").into_boxed_str()),
            }));
            // The short-first search tries every pair of block turns: on
            // the biggest cubes that costs more than it can save.
            if n <= SHORT_FIRST_MAX_N {
                all.push(Box::leak(Box::new(ShortFirst { puzzle: big, n })));
            } else {
                all.push(big);
            }
        }
        all
    })
}

/// The largest cube whose solves first look for a solution of one or two
/// block turns ([`ShortFirst`]).
pub const SHORT_FIRST_MAX_N: usize = 17;

/// The puzzle of a name, or an input error listing the names.
pub fn find(name: &str) -> Result<&'static dyn Puzzle, SolveError> {
    if let Some(p) = puzzles().iter().copied().find(|p| p.name() == name) {
        return Ok(p);
    }
    let named: Vec<&str> = puzzles()
        .iter()
        .map(|p| p.name())
        .filter(|n| cube_size(n).is_none_or(|n| n < crate::big::MIN_N))
        .collect();
    let (lo, hi) = (crate::big::MIN_N, crate::big::MAX_N);
    let too_big = name
        .split('x')
        .next()
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|&k| k > hi && name == format!("{k}x{k}x{k}"));
    Err(SolveError::Input(match too_big {
        Some(k) => format!("no solver for puzzle {k}x{k}x{k}: the largest cube is {hi}x{hi}x{hi}"),
        None => format!(
            "no solver for puzzle {} (have: {}, {lo}x{lo}x{lo} to {hi}x{hi}x{hi})",
            tablegen::cli::quote(name),
            named.join(", ")
        ),
    }))
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
/// state those moves make from solved (the state solved, up to the whole-cube
/// orientation the solver ended in).
pub fn cube_scramble(n: usize, solution: &Solution) -> Result<Scramble, SolveError> {
    let moves = invert(&solution.moves);
    let cube = CubeN::new(n);
    let alg =
        tablegen::notation::parse_alg(&moves).map_err(|e| SolveError::Internal(e.to_string()))?;
    let mut st = cube.solved();
    cube.apply_alg(&mut st, &alg);
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

    /// Every puzzle solves a short scramble through the interface, and its
    /// random scrambles are solved too.
    #[test]
    fn every_puzzle_through_the_interface() {
        let dir = crate::tables::test_tables_dir();
        for p in puzzles() {
            if p.name() == "domino" || cube_size(p.name()).is_some_and(|n| n > 7) {
                // The Domino's table is 406M states, and the cubes past
                // 7x7x7 take longer: the random-state tests cover them.
                continue;
            }
            let scramble = match p.name() {
                "pyraminx" => "U L' r",
                _ => "R U",
            };
            let pos = p.parse(&Input::Scramble(scramble)).unwrap();
            let solver = p.load(&dir, true).unwrap();
            let sol = solver.solve(&pos, &Options::default()).unwrap();
            assert!(sol.moves.len() <= 3, "{}: {}", p.name(), sol.text());
            let s = solver.scramble(7).unwrap();
            let pos = p.parse(&Input::Scramble(&s.moves)).unwrap();
            if let (Some(text), State::Cube(st)) = (&s.state, &pos.state) {
                let again = p.parse(&Input::State { text, order: None }).unwrap();
                assert!(
                    matches!(&again.state, State::Cube(t) if t == st),
                    "{}",
                    p.name()
                );
            }
            // The big cubes' random states are solved in their own tests.
            if cube_size(p.name()).is_none_or(|n| n <= 5) {
                solver.solve(&pos, &Options::default()).unwrap();
            }
        }
        assert!(matches!(find("megaminx"), Err(SolveError::Input(_))));
    }
}
