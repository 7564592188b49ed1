//! Optimal Pyraminx solver: the tipless core by walking its distance table, then
//! one move per tip left unsolved (tips commute with every move).

use crate::tables::{load_or_build, DistanceTable, TableError};
use crate::{walk_downhill, Solution};
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
pub struct SolverPyra {
    space: PyraminxSpace,
    table: DistanceTable,
}

impl SolverPyra {
    /// Loads (or builds) the `pyraminx` table.
    pub fn new(dir: &Path, quiet: bool) -> Result<SolverPyra, TableError> {
        Ok(SolverPyra {
            space: PyraminxSpace::new(),
            table: load_or_build("pyraminx", dir, quiet)?,
        })
    }

    /// Optimal solution, tips first.
    pub fn solve(&self, state: &PyraState) -> Result<Solution, String> {
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
        })
    }
}
