//! 5x5x5: the stages of a reduction, on the engine ([`crate::search`]).
//!
//! | stage | goal | moves | bound |
//! |---|---|---|---|
//! | `centres-ud` ([`CentreStage::ud`]) | the U/D-coloured T- and X-centres on U and D (any of the three colour pairs) | the 36 outer block turns | max of `5x5x5-ud-t-stage` and `5x5x5-ud-x-stage` (exact for each orbit alone); where both are at most 5, `5x5x5-ud-stage-d5` (both orbits together: exact within 5 moves, "deeper than 5" beyond) |
//! | `centres-lr` ([`CentreStage::lr`]) | also the L/R-coloured T- and X-centres on L and R | 28: no `Rw Lw Fw Bw` quarter turns | max of `5x5x5-lr-t-stage` and `5x5x5-lr-x-stage` |
//! | `centres` ([`CentreStage::solved`]) | every T- and X-centre on its face | 24: wide turns only as half turns | max of `5x5x5-t-centres-solve` and `5x5x5-x-centres-solve` |
//!
//! Each stage starts from several of the last one's solutions at once (each a root of the
//! engine with the moves it already took), so the pair found first is the
//! shortest in total.
//!
//! The later stages (the edges, the 3x3x3 finish)
//! are not built yet: `cubesolve` has no 5x5x5 solver.

mod centres;

pub use centres::{in_frame, CentreStage, LR_IDS, SOLVE_IDS, UD_IDS};

#[cfg(test)]
mod tests;
