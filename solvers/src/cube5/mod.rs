//! 5x5x5: the stages of a reduction, on the engine ([`crate::search`]).
//!
//! | stage | goal | moves | bound |
//! |---|---|---|---|
//! | `centres-ud` ([`CentresUd`]) | the U/D-coloured T- and X-centres on U and D | the 36 outer block turns | max of `5x5x5-ud-t-stage` and `5x5x5-ud-x-stage` (exact for each orbit alone); where both are at most 5, `5x5x5-ud-stage-d5` (both orbits together: exact within 5 moves, "deeper than 5" beyond) |
//!
//! The later stages (the L/R and F/B centres, the edges, the 3x3x3 finish)
//! are not built yet: `cubesolve` has no 5x5x5 solver.

mod centres;

pub use centres::{CentresUd, UD_IDS};

#[cfg(test)]
mod tests;
