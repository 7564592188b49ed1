//! `solvers`: solvers built on the toolkit's tables, and the `cubesolve` command.
//!
//! A solver is a chain of stages, each a goal, a move set and tables. A complete
//! distance table is solved by walking downhill (every step to a neighbour one
//! closer); smaller tables serve as IDA* lower bounds.
//!
//! # Solving from another program
//!
//! Every puzzle goes through [`registry::find`]: parse a state or a scramble,
//! load the solver from a table directory (its tables are memory-mapped and
//! checked; a missing one is built there on first use, or downloaded from a
//! table source set with `tables::set_source`, the `fetch` feature), solve:
//!
//! ```
//! use solvers::puzzle::{Input, Options};
//! use solvers::registry;
//!
//! // `--tables DIR`, else $CUBE_TABLES, else the workspace's tables/.
//! let dir = tablegen::artifact::tables_dir(None);
//! # // As a test: the tests' own directory, never tables/.
//! # let dir = solvers::tables::test_tables_dir();
//! let p = registry::find("3x3x3")?;
//! let position = p.parse(&Input::Scramble("R U R' U' F2 D L2 B'"))?;
//! let solver = p.load(&dir, true)?;
//! let solution = solver.solve(&position, &Options::default())?;
//! assert!(position.state.after(&solution.moves)?.is_solved());
//! println!("{} ({} moves)", solution.text(), solution.moves.len());
//! # Ok::<(), solvers::SolveError>(())
//! ```
//!
//! A project that only solves depends on `solvers` (no clap, no HTTP
//! client), adding the `fetch` feature to download tables;
//! `examples/downstream/` in the repository is such a project.
pub mod big;
pub mod cube2;
pub mod cube3;
pub mod cube4;
pub mod cube5;
mod deferred;
pub mod domino;
mod hash;
pub mod moves;
pub mod puzzle;
pub mod pyraminx;
pub mod registry;
pub mod search;
pub mod short;
pub mod svg;
pub mod tables;

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The state is not a legal state of the puzzle (the user's input).
    #[error("{0}")]
    Input(String),
    /// A table could not be opened or built.
    #[error(transparent)]
    Table(#[from] tables::TableError),
    /// Nothing was found within the hard time limit (the named phase ran out).
    #[error("no solution within the hard time limit ({0} ran out of time)")]
    OutOfTime(String),
    /// An optimal solve ran out of time before it proved its answer.
    #[error(
        "no proven optimal solution within the hard time limit: none shorter than {proven} moves exists; best found ({best_moves} moves): {best}"
    )]
    NotProven {
        /// Every solution is at least this long.
        proven: usize,
        /// The best solution found (canonical notation).
        best: String,
        /// Its length.
        best_moves: usize,
    },
    /// A fault of the solver itself.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<tablegen::StateError> for SolveError {
    /// A state that is no legal state of its puzzle is the user's input.
    fn from(e: tablegen::StateError) -> SolveError {
        SolveError::Input(e.to_string())
    }
}

impl From<tablegen::ModelError> for SolveError {
    /// A move set a space cannot take is a fault of the solver.
    fn from(e: tablegen::ModelError) -> SolveError {
        SolveError::Internal(e.to_string())
    }
}

impl From<WalkError> for SolveError {
    /// A table that does not lead down to a goal does not match the
    /// solver's model: a fault of the solver (or of its table).
    fn from(e: WalkError) -> SolveError {
        SolveError::Internal(e.to_string())
    }
}

/// Why a walk downhill in a table ([`walk_downhill`], [`walk_downhill_mod3`])
/// did not reach a goal: the table does not match the model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    /// No goal within the most moves a solution can have.
    #[error("no goal within {max} moves: the table does not match the model")]
    TooLong {
        /// The most moves.
        max: usize,
    },
    /// No neighbour one nearer, by the residues mod 3, after some moves.
    #[error("table inconsistent after {moves} moves: no way down")]
    NoWayDown {
        /// The moves made.
        moves: usize,
    },
    /// No neighbour one nearer than this rank's depth.
    #[error("table inconsistent at rank {rank} (depth {depth})")]
    Inconsistent {
        /// The rank.
        rank: u64,
        /// Its depth in the table.
        depth: u8,
    },
}

/// Whether the slow tests run at full size (`ci/soak.sh` sets `CUBE_SOAK`):
/// thousands of states and every size, where CI runs a sample of each.
#[cfg(test)]
pub(crate) fn soak() -> bool {
    std::env::var_os("CUBE_SOAK").is_some()
}

/// The moment a solve gives up: its hard time limit, checked between the
/// steps of the long searches.
#[derive(Clone, Copy, Debug)]
pub struct Hard(pub std::time::Instant);

impl Hard {
    /// A limit `limit` from now.
    pub fn after(limit: std::time::Duration) -> Hard {
        let now = std::time::Instant::now();
        Hard(
            now.checked_add(limit)
                .unwrap_or(now + std::time::Duration::from_secs(1 << 30)),
        )
    }

    /// No limit to speak of (a year).
    pub fn never() -> Hard {
        Hard::after(std::time::Duration::from_secs(365 * 86_400))
    }

    /// The time left.
    pub fn left(self) -> std::time::Duration {
        self.0.saturating_duration_since(std::time::Instant::now())
    }

    /// [`SolveError::OutOfTime`] naming `phase` once the limit has passed.
    pub fn check(self, phase: &str) -> Result<(), SolveError> {
        if std::time::Instant::now() >= self.0 {
            Err(SolveError::OutOfTime(phase.into()))
        } else {
            Ok(())
        }
    }
}

impl SolveError {
    /// The user's input is at fault, as `e` says.
    pub fn input(e: impl std::fmt::Display) -> SolveError {
        SolveError::Input(e.to_string())
    }

    /// A fault of the solver, as `e` says (a step after the input was
    /// checked failed).
    pub fn internal(e: impl std::fmt::Display) -> SolveError {
        SolveError::Internal(e.to_string())
    }

    /// Whether the user's input is at fault (exit code 2) rather than the
    /// solver or its time limit (exit code 1).
    pub fn is_input(&self) -> bool {
        match self {
            SolveError::Input(_) => true,
            SolveError::Table(t) => t.is_input(),
            _ => false,
        }
    }
}

/// A solution with per-phase move counts.
#[derive(Clone, Debug, Default)]
pub struct Solution {
    /// Moves in canonical notation.
    pub moves: Vec<String>,
    /// `(phase name, moves in that phase)`.
    pub phases: Vec<(String, usize)>,
    /// The solution is proven the shortest in the puzzle's metric (a full
    /// distance table's, or an optimal search finished to its depth).
    pub optimal: bool,
}

impl Solution {
    /// A solution of an NxNxN reduction: its moves and its phases' lengths.
    pub fn of_moves(moves: &[tablegen::notation::Move], phases: &[(&str, usize)]) -> Solution {
        Solution {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            phases: phases.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
            optimal: false,
        }
    }

    /// The moves separated by single spaces.
    pub fn text(&self) -> String {
        self.moves.join(" ")
    }
}

/// Walks downhill in a table of distances mod 3 from `start` to a goal: each
/// step goes to the first neighbour (by move index, of `moves`) whose residue
/// is one less, which is one move nearer (neighbours are one nearer, level or
/// one further). `residue` reads the table; `apply` makes move `m`. Returns
/// the move indices; an error if no neighbour is nearer or the walk passes
/// `max` moves (the table does not match the model).
pub fn walk_downhill_mod3<S>(
    start: S,
    moves: usize,
    max: usize,
    is_goal: impl Fn(&S) -> bool,
    residue: impl Fn(&S) -> u8,
    apply: impl Fn(&S, usize) -> S,
) -> Result<Vec<usize>, WalkError> {
    let mut s = start;
    let mut path = Vec::new();
    while !is_goal(&s) {
        if path.len() >= max {
            return Err(WalkError::TooLong { max });
        }
        let want = (residue(&s) + 2) % 3;
        let (m, next) = (0..moves)
            .map(|m| (m, apply(&s, m)))
            .find(|(_, n)| residue(n) == want)
            .ok_or(WalkError::NoWayDown { moves: path.len() })?;
        path.push(m);
        s = next;
    }
    Ok(path)
}

/// Walks downhill in a complete distance table from `rank` to depth 0:
/// `neighbour(rank, m)` applies move `m`; returns the move indices taken.
pub fn walk_downhill(
    table: &tables::DistanceTable,
    mut rank: u64,
    moves: usize,
    neighbour: impl Fn(u64, usize) -> u64,
) -> Result<Vec<usize>, WalkError> {
    let mut d = table.get(rank);
    let mut path = Vec::with_capacity(d as usize);
    while d > 0 {
        let step = (0..moves)
            .map(|m| (m, neighbour(rank, m)))
            .find(|&(_, r)| table.get(r) == d - 1)
            .ok_or(WalkError::Inconsistent { rank, depth: d })?;
        path.push(step.0);
        rank = step.1;
        d -= 1;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk on a line of ranks (moves +1 and -1, goal 0) with residues
    /// that lead nowhere or too far is a fault of the table: an internal
    /// error that says which.
    #[test]
    fn a_walk_that_does_not_come_down_is_an_internal_error() {
        let step = |&s: &u32, m: usize| if m == 0 { s + 1 } else { s - 1 };
        let e = walk_downhill_mod3(5u32, 2, 64, |&s| s == 0, |_| 0, step).unwrap_err();
        assert_eq!(e, WalkError::NoWayDown { moves: 0 });
        assert_eq!(
            SolveError::from(e).to_string(),
            "internal error: table inconsistent after 0 moves: no way down"
        );
        let e = walk_downhill_mod3(5u32, 2, 1, |&s| s == 0, |&s| (s % 3) as u8, step);
        assert_eq!(e, Err(WalkError::TooLong { max: 1 }));
        let path = walk_downhill_mod3(5u32, 2, 5, |&s| s == 0, |&s| (s % 3) as u8, step);
        assert_eq!(path, Ok(vec![1; 5]));
    }
}
