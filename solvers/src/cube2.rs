//! Optimal 2x2x2 solver (half-turn metric) by walking its complete distance table.

use crate::puzzle::{self, Input, Options, Position, Puzzle, Scramble, Solve};
use crate::tables::{load_or_build, DistanceTable, TableError};
use crate::{walk_downhill, Solution, SolveError};
use rand::Rng;
use std::path::Path;
use tablegen::cube::{unrotate, CubeN};
use tablegen::cube2::{htm_moves, orient_dbl, Cube2};

/// The solver: move tables plus the `2x2x2-htm` distance table.
pub struct Solver {
    model: Cube2,
    table: DistanceTable,
}

impl Solver {
    /// Loads (or builds) the table from `dir`.
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        Ok(Solver {
            model: Cube2::new(htm_moves()),
            table: load_or_build("2x2x2-htm", dir, quiet)?,
        })
    }

    /// Optimal solution of a facelet state (any whole-cube orientation).
    pub fn solve(&self, state: &[u8]) -> Result<Solution, SolveError> {
        let cube = CubeN::new(2);
        tablegen::validate::validate(&cube, state)?;
        let (rotation, _) = orient_dbl(&cube, state)?;
        let rank = Cube2::rank_facelets(state)?;
        let path = walk_downhill(&self.table, rank, self.model.moves.len(), |r, m| {
            self.model.apply(r, m)
        })?;
        let moves: Vec<_> = path.iter().map(|&m| self.model.moves[m]).collect();
        let moves = unrotate(&moves, &rotation);
        Ok(Solution {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            phases: vec![("optimal".into(), moves.len())],
        })
    }

    /// Distance of a rank (for tests and scrambles).
    pub fn distance(&self, rank: u64) -> u8 {
        self.table.get(rank)
    }
}

/// The 2x2x2 in the [`puzzle`] registry.
pub struct Cube2Puzzle;

impl Puzzle for Cube2Puzzle {
    fn name(&self) -> &'static str {
        "2x2x2"
    }
    fn parse(&self, input: &Input) -> Result<Position, SolveError> {
        let pos = puzzle::parse_cube(2, input)?;
        // Refuse a bad state before loading (or building) any table.
        tablegen::validate::validate(&CubeN::new(2), puzzle::cube_state(&pos)?)?;
        Ok(pos)
    }
    fn load(&self, tables: &Path, quiet: bool) -> Result<Box<dyn Solve>, SolveError> {
        Ok(Box::new(Solver::load(tables, quiet)?))
    }
}

impl Solve for Solver {
    fn solve(&self, position: &Position, _: &Options) -> Result<Solution, SolveError> {
        Solver::solve(self, puzzle::cube_state(position)?)
    }
    fn scramble(&self, seed: u64) -> Result<Scramble, SolveError> {
        let rank = puzzle::rng(seed).gen_range(0..tablegen::cube2::STATES);
        let state = Cube2::facelets_of(rank);
        let sol = Solver::solve(self, &state)?;
        puzzle::cube_scramble(2, &sol)
    }
}
