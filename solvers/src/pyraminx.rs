//! Optimal Pyraminx solver: the tipless core by walking its distance table, then
//! one move per tip left unsolved (tips commute with every move).

use crate::puzzle::{self, Input, Options, Position, Puzzle, Scramble, Solve, State};
use crate::tables::{load_or_build, DistanceTable, TableError};
use crate::{walk_downhill, Solution, SolveError};
use rand::Rng;
use std::path::Path;
use tablegen::pyraminx::{move_of_index, Pyra, PyraMove, PyraminxSpace};

/// A full Pyraminx position: the core and the four tips' twists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PyraState {
    /// Edges and centres.
    pub core: Pyra,
    /// Tip twist per vertex (clockwise thirds).
    pub tips: [u8; 4],
}

impl PyraState {
    /// Solved.
    pub const SOLVED: PyraState = PyraState {
        core: Pyra::SOLVED,
        tips: [0; 4],
    };

    /// Applies a move.
    pub fn apply(&self, m: PyraMove) -> PyraState {
        let mut s = *self;
        s.tips[m.vertex as usize] = (s.tips[m.vertex as usize] + m.turns) % 3;
        if !m.tip {
            s.core = s.core.apply(m.vertex as usize, m.turns);
        }
        s
    }

    /// True if solved.
    pub fn is_solved(&self) -> bool {
        *self == PyraState::SOLVED
    }
}

/// The solver.
pub struct Solver {
    space: PyraminxSpace,
    table: DistanceTable,
}

impl Solver {
    /// Loads (or builds) the `pyraminx` table.
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        Ok(Solver {
            space: PyraminxSpace::new(),
            table: load_or_build("pyraminx", dir, quiet)?,
        })
    }

    /// Optimal solution, tips first.
    pub fn solve(&self, state: &PyraState) -> Result<Solution, SolveError> {
        // The core solution's turns about each vertex sum to minus the centre's
        // twist, so the tips' final twists are known before the search.
        let mut tip_moves = Vec::new();
        for v in 0..4u8 {
            let left = (state.tips[v as usize] + 3 - state.core.co[v as usize]) % 3;
            if left != 0 {
                tip_moves.push(PyraMove {
                    vertex: v,
                    tip: true,
                    turns: 3 - left,
                });
            }
        }
        let path = walk_downhill(&self.table, state.core.rank(), 8, |r, m| {
            self.space.apply(r, m)
        })?;
        let mut moves: Vec<String> = tip_moves.iter().map(|m| m.to_string()).collect();
        moves.extend(path.iter().map(|&m| move_of_index(m).to_string()));
        Ok(Solution {
            phases: vec![
                ("tips".into(), tip_moves.len()),
                ("core".into(), path.len()),
            ],
            moves,
            // Tips turn apart from the rest; the core's path is a distance
            // table's.
            optimal: true,
        })
    }
}

/// The Pyraminx in the [`puzzle`] registry (scrambles only: it has no state
/// string format).
pub struct PyraminxPuzzle;

impl Puzzle for PyraminxPuzzle {
    fn name(&self) -> &'static str {
        "pyraminx"
    }
    fn parse(&self, input: &Input) -> Result<Position, SolveError> {
        puzzle::no_order(self.name(), input)?;
        let Input::Scramble(text) = *input else {
            return Err(SolveError::Input(
                "pyraminx takes --scramble (no state string format)".into(),
            ));
        };
        let moves =
            tablegen::pyraminx::parse_alg(text).map_err(|e| SolveError::Input(e.to_string()))?;
        let mut st = PyraState::SOLVED;
        for &m in &moves {
            st = st.apply(m);
        }
        let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        Ok(Position {
            state: State::Pyraminx(st),
            setup: Some(names.join(" ")),
        })
    }
    fn load(&self, tables: &Path, quiet: bool) -> Result<Box<dyn Solve>, SolveError> {
        Ok(Box::new(Solver::load(tables, quiet)?))
    }
}

impl Solve for Solver {
    fn solve(&self, position: &Position, _: &Options) -> Result<Solution, SolveError> {
        match &position.state {
            State::Pyraminx(st) => Solver::solve(self, st),
            _ => Err(SolveError::Internal("not a Pyraminx position".into())),
        }
    }
    fn scramble(&self, seed: u64) -> Result<Scramble, SolveError> {
        let mut rng = puzzle::rng(seed);
        let core = Pyra::unrank(rng.gen_range(0..tablegen::pyraminx::STATES));
        let tips = [0; 4].map(|_: u8| rng.gen_range(0..3u8));
        let sol = Solver::solve(self, &PyraState { core, tips })?;
        Ok(Scramble {
            moves: puzzle::invert(&sol.moves),
            state: None,
        })
    }
}
