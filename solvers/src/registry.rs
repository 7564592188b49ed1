//! Every puzzle `cubesolve` knows, by name: the top of the solvers' module
//! graph (each solver implements [`crate::puzzle`]'s interface; this module
//! lists them). A new cube is one more [`CubePuzzle`] entry.

use crate::puzzle::{self, CubeSolver, Input, Options, Position, Puzzle, Scramble, Solve};
use crate::short::short_first;
use crate::{Solution, SolveError};
use std::marker::PhantomData;
use std::path::Path;
use std::sync::OnceLock;

/// The registry entry of an NxNxN cube solved by `S`.
pub struct CubePuzzle<S> {
    n: usize,
    name: &'static str,
    short_first: bool,
    solver: PhantomData<fn() -> S>,
}

impl<S> CubePuzzle<S> {
    /// The `n`-cube named `name`; with `short_first` its solves first look
    /// for a solution of one or two block turns ([`crate::short`]).
    pub const fn new(n: usize, name: &'static str, short_first: bool) -> Self {
        CubePuzzle {
            n,
            name,
            short_first,
            solver: PhantomData,
        }
    }

    /// Its size N.
    pub fn n(&self) -> usize {
        self.n
    }
}

impl<S: CubeSolver> Puzzle for CubePuzzle<S> {
    fn name(&self) -> &str {
        self.name
    }
    fn parse(&self, input: &Input) -> Result<Position, SolveError> {
        S::parse_cube(self.n, input)
    }
    fn load(&self, tables: &Path, quiet: bool) -> Result<Box<dyn Solve>, SolveError> {
        let loaded = Box::new(Loaded {
            solver: S::load_cube(self.n, tables, quiet)?,
            n: self.n,
        });
        Ok(if self.short_first {
            short_first(loaded, self.n)
        } else {
            loaded
        })
    }
}

/// A [`CubePuzzle`]'s loaded solver.
struct Loaded<S> {
    solver: S,
    n: usize,
}

impl<S: CubeSolver> Solve for Loaded<S> {
    fn solve(&self, position: &Position, opts: &Options) -> Result<Solution, SolveError> {
        self.solver.solve_cube(puzzle::cube_state(position)?, opts)
    }
    fn scramble(&self, seed: u64) -> Result<Scramble, SolveError> {
        self.solver.scramble_cube(self.n, seed)
    }
}

/// The largest cube whose solves first look for a solution of one or two
/// block turns: on bigger ones trying every pair of block turns costs more
/// than it can save.
pub const SHORT_FIRST_MAX_N: usize = 17;

static CUBE2: CubePuzzle<crate::cube2::Solver> = CubePuzzle::new(2, "2x2x2", true);
// The 3x3x3 solver finds short solutions itself (optimal within 7 turns).
static CUBE3: CubePuzzle<crate::cube3::Solver> = CubePuzzle::new(3, "3x3x3", false);
static CUBE4: CubePuzzle<crate::cube4::Solver> = CubePuzzle::new(4, "4x4x4", true);
static CUBE5: CubePuzzle<crate::cube5::Solver> = CubePuzzle::new(5, "5x5x5", true);

/// The registry entries of the big cubes, one per size given.
macro_rules! big_cubes {
    ($($n:literal)*) => {
        [$(CubePuzzle::new($n, concat!($n, "x", $n, "x", $n), $n <= SHORT_FIRST_MAX_N)),*]
    };
}

/// The NxNxN cubes from [`crate::big::MIN_N`] to [`crate::big::MAX_N`].
static BIG: [CubePuzzle<crate::big::Solver>; crate::big::MAX_N - crate::big::MIN_N + 1] = big_cubes!(
    6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35
    36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64
);

/// Every puzzle, in the order `cubesolve` lists them: the named ones, then
/// the NxNxN cubes from 6x6x6 to [`crate::big::MAX_N`].
pub fn puzzles() -> &'static [&'static dyn Puzzle] {
    static ALL: OnceLock<Vec<&'static dyn Puzzle>> = OnceLock::new();
    ALL.get_or_init(|| {
        let named: [&'static dyn Puzzle; 6] = [
            &CUBE2,
            &CUBE3,
            &CUBE4,
            &CUBE5,
            &crate::pyraminx::PyraminxPuzzle,
            &crate::domino::DominoPuzzle,
        ];
        let big = BIG.iter().map(|p| p as &'static dyn Puzzle);
        named.into_iter().chain(big).collect()
    })
}

/// Whether a solve of the puzzle `name` can be asked to be optimal
/// ([`Options::optimal`]): the 3x3x3 by its optimal search, the 2x2x2, the
/// Pyraminx and the Domino by their full distance tables.
pub fn solves_optimally(name: &str) -> bool {
    matches!(name, "2x2x2" | "3x3x3" | "pyraminx" | "domino")
}

/// Whether a solve of the puzzle `name` takes a target length
/// ([`Options::target`]): the 4x4x4.
pub fn takes_target(name: &str) -> bool {
    name == "4x4x4"
}

/// The puzzle of a name, or an input error listing the names.
pub fn find(name: &str) -> Result<&'static dyn Puzzle, SolveError> {
    if let Some(p) = puzzles().iter().copied().find(|p| p.name() == name) {
        return Ok(p);
    }
    let named: Vec<&str> = puzzles()
        .iter()
        .map(|p| p.name())
        .filter(|n| puzzle::cube_size(n).is_none_or(|n| n < crate::big::MIN_N))
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

/// Reads a position of any puzzle the toolkit knows, whether it has a solver
/// or not: the registry's puzzles, and any `NxNxN` cube (checked by
/// [`tablegen::validate`]).
pub fn parse_any(name: &str, input: &Input) -> Result<Position, SolveError> {
    if let Ok(p) = find(name) {
        return p.parse(input);
    }
    let n = puzzle::cube_size(name).ok_or_else(|| {
        SolveError::Input(format!(
            "unknown puzzle {} (have: 2x2x2 to 64x64x64 as NxNxN, pyraminx, domino)",
            tablegen::cli::quote(name)
        ))
    })?;
    puzzle::parse_valid_cube(n, input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{cube_size, State};

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

    /// The big cubes' entries are named after their sizes, every size once.
    #[test]
    fn the_big_cubes_are_every_size_by_name() {
        let sizes: Vec<usize> = BIG.iter().map(|p| p.n()).collect();
        assert_eq!(
            sizes,
            (crate::big::MIN_N..=crate::big::MAX_N).collect::<Vec<_>>()
        );
        for p in &BIG {
            assert_eq!(cube_size(p.name()), Some(p.n()));
            assert_eq!(p.short_first, p.n() <= SHORT_FIRST_MAX_N);
        }
        assert_eq!(find("12x12x12").map(|p| p.name()).ok(), Some("12x12x12"));
    }
}
