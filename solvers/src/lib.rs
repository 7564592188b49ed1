//! `solvers`: solvers built on the toolkit's tables, and the `cubesolve` command.
//!
//! A solver is a chain of stages, each a goal, a move set and tables. A complete
//! distance table is solved by walking downhill (every step to a neighbour one
//! closer); smaller tables serve as IDA* lower bounds.
pub mod cube2;
pub mod cube3;
pub mod cube4;
pub mod domino;
pub mod ida;
pub mod pyraminx;
pub mod tables;

/// A solution with per-phase move counts.
#[derive(Clone, Debug, Default)]
pub struct Solution {
    /// Moves in canonical notation.
    pub moves: Vec<String>,
    /// `(phase name, moves in that phase)`.
    pub phases: Vec<(String, usize)>,
}

impl Solution {
    /// The moves separated by single spaces.
    pub fn text(&self) -> String {
        self.moves.join(" ")
    }
}

/// Walks downhill in a complete distance table from `rank` to depth 0:
/// `neighbour(rank, m)` applies move `m`; returns the move indices taken.
pub fn walk_downhill(
    table: &tables::DistanceTable,
    mut rank: u64,
    moves: usize,
    neighbour: impl Fn(u64, usize) -> u64,
) -> Result<Vec<usize>, String> {
    let mut d = table.get(rank);
    let mut path = Vec::with_capacity(d as usize);
    while d > 0 {
        let step = (0..moves)
            .map(|m| (m, neighbour(rank, m)))
            .find(|&(_, r)| table.get(r) == d - 1)
            .ok_or_else(|| format!("table inconsistent at rank {rank} (depth {d})"))?;
        path.push(step.0);
        rank = step.1;
        d -= 1;
    }
    Ok(path)
}
