//! The 5x5x5's last step: the 3x3x3 finishes of the reduced cubes.

use super::{frame, Solution5, Solver, STAGES};
use crate::moves::simplify;
use crate::search::Chain;
use crate::SolveError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tablegen::notation::Move;

impl Solver {
    /// The 3x3x3 finishes of `ends` (one thread's share of the stage-5
    /// ends), each within its share of the time budget, once the budget is
    /// spent for at most `opts.finish_time` more (at least one runs): the
    /// shortest whole solution found below `shortest` (the best of every
    /// thread so far, which this one lowers).
    pub(super) fn finish(
        &self,
        ends: &[&Chain],
        opts: &super::Options,
        start: Instant,
        finish_start: Instant,
        shortest: &AtomicUsize,
    ) -> Result<Option<Solution5>, SolveError> {
        let mut best: Option<Solution5> = None;
        let count = ends.len();
        for (i, c) in ends.iter().enumerate() {
            let any = shortest.load(Ordering::Relaxed) != usize::MAX;
            if any
                && start.elapsed() >= opts.time_budget
                && finish_start.elapsed() >= opts.finish_time
            {
                break;
            }
            // The reduced cube as a 3x3x3: its fixed centres are home (the
            // frame renamed the colours so), so no turn is needed.
            // The real cube: recolouring twice is no recolouring.
            let mut real = c.state.clone();
            self.split.recolour(&mut real, c.marks);
            let s3 = tablegen::validate::skeleton3(&self.cube, &real);
            let cc = tablegen::cube3::CubieCube::from_facelets(&s3)
                .map_err(|e| SolveError::Internal(format!("reduced cube: {e}")))?;
            let before = c.moves.len();
            let target = match shortest.load(Ordering::Relaxed) {
                usize::MAX => 21,
                b => b.saturating_sub(before + 1),
            };
            if any && self.solver3.lower_bound(&cc) > target {
                continue;
            }
            let share = opts.time_budget.saturating_sub(start.elapsed()) / (count - i) as u32;
            let budget = share.max(opts.finish_min);
            let found = if any {
                // Another thread may find shorter while this runs.
                self.solver3
                    .solve_below_sharing(&cc, target + 1, budget, Some((shortest, before)))
            } else {
                self.solver3.solve(
                    &cc,
                    crate::cube3::Options {
                        max_length: 0,
                        time_budget: budget,
                        ..Default::default()
                    },
                )
            };
            if found.is_empty() && cc != tablegen::cube3::CubieCube::SOLVED {
                continue;
            }
            let m3: Vec<Move> = found.iter().map(|&m| tablegen::cube3::move_of(m)).collect();
            let mut all = c.moves.clone();
            all.extend(&m3);
            let found_len = all.len();
            let all = simplify(&tablegen::cube::unrotate(&all, &frame(c.axis)));
            if best.as_ref().is_none_or(|b| all.len() < b.moves.len()) {
                let mut phases: Vec<(&'static str, usize)> =
                    STAGES.iter().copied().zip(c.lens.iter().copied()).collect();
                phases.push(("3x3x3", m3.len()));
                if found_len > all.len() {
                    phases.push(("merged", found_len - all.len()));
                }
                shortest.fetch_min(all.len(), Ordering::Relaxed);
                best = Some(Solution5 { moves: all, phases });
            }
        }
        Ok(best)
    }
}
