//! `tablegen`: puzzle models, the restricted-move BFS engine and the table catalog.
//!
//! Tables are *made* here, *stored* by `tablefmt` and *used* by `solvers`. A table is
//! data ([`catalog::TableDef`]): a puzzle, a projection, a move set, a goal, a
//! ranking and an encoding; [`catalog::build`] runs its BFS.
//!
//! ```
//! use tablegen::{catalog, progress::Progress};
//! let def = catalog::find("4x4x4-lr-stage").unwrap();
//! let out = catalog::build(&def, &Progress::hidden()).unwrap();
//! assert_eq!(out.states(), 12_870);
//! ```
pub mod artifact;
pub mod bfs;
pub mod catalog;
pub mod cli;
pub mod corners;
pub mod cube;
pub mod cube2;
pub mod cube3;
pub mod cube4;
pub mod cube5;
#[cfg(feature = "timely")]
pub mod dist;
pub mod domino;
pub mod error;
pub mod install;
pub mod kociemba;
pub mod notation;
pub mod optimal3;
pub mod orbits;
pub mod pair5;
pub mod perm;
pub mod progress;
pub mod projection;
pub mod pyraminx;
pub mod validate;

pub use error::{ModelError, StateError};

/// The value of a scoped thread, its panic carried on to the caller (the
/// threads that load or build side by side).
pub fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    match handle.join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
