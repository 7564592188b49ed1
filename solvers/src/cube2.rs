//! Optimal 2x2x2 solver (half-turn metric) by walking its complete distance table.

use crate::puzzle::{self, CubeSolver, Options};
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
            optimal: true,
        })
    }

    /// Distance of a rank (for tests and scrambles).
    pub fn distance(&self, rank: u64) -> u8 {
        self.table.get(rank)
    }
}

impl CubeSolver for Solver {
    fn load_cube(_: usize, tables: &Path, quiet: bool) -> Result<Solver, SolveError> {
        Ok(Solver::load(tables, quiet)?)
    }
    fn solve_cube(&self, state: &[u8], _: &Options) -> Result<Solution, SolveError> {
        Solver::solve(self, state)
    }
    /// A uniformly random 2x2x2 (a random rank of the distance table).
    fn random_state(_: usize, seed: u64) -> Vec<u8> {
        Cube2::facelets_of(puzzle::rng(seed).gen_range(0..tablegen::cube2::STATES))
    }
}
