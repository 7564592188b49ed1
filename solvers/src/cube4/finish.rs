//! The 4x4x4 solve on one thread's phase-1 choices: phases 1 to 3, then the
//! 3x3x3 finish of each reduced cube, the shortest whole kept.

use super::phase2::Claims;
use super::{clock_of, Candidate, Options, Solution4, Solver};
use crate::SolveError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tablegen::cube::CubeN;
use tablegen::cube3::CubieCube;
use tablegen::notation::Move;

impl Solver {
    /// Every phase on the phase-1 `choices` (axis, colour pair), within the
    /// time budget from `start`: the shortest whole found, or `None` if it
    /// found nothing shorter than another thread's (`shared`: the length of
    /// the shortest whole so far over every thread).
    pub(super) fn solve_choices(
        &self,
        state: &[u8],
        opts: &Options,
        start: Instant,
        choices: &[(usize, usize)],
        shared: &AtomicUsize,
        claims: Option<(&Claims, usize)>,
    ) -> Result<Option<Solution4>, SolveError> {
        let opts = *opts;
        // Past the budget, phases 1 to 3 stop with nothing once another thread
        // has a whole solution: what they would find now could only come late.
        let clock = clock_of(start, &opts, Some(shared));
        let cube = &self.stages.cube;
        let cands = self.reduce_candidates(state, &opts, clock, choices, claims)?;
        let found = self.pair_candidates(&cands, &opts, clock)?;
        // The 3x3x3 finish of each phase-3 solution; the shortest whole wins.
        // Each finish only has to beat the best so far, in what is left of the
        // time budget shared among the finishes still to run.
        let mut best: Option<Solution4> = None;
        // The reduced cubes, each once: phase-3 solutions of one length from
        // different candidates often end in the same 3x3x3.
        let mut finals: Vec<(&Candidate, Vec<Move>, Vec<Move>, CubieCube)> = Vec::new();
        for (ci, m3) in found {
            let cand = &cands[ci];
            let mut s = cand.state.clone();
            cube.apply_alg(&mut s, &m3);
            // The reduced cube as a 3x3x3: corners, one wing per dedge, one centre
            // per face. Phase 3 may leave the cube turned (x2, y2 or z2): the
            // 3x3x3 is solved on the turned-back skeleton and its moves renamed
            // for the cube as it is.
            let s3 = tablegen::validate::skeleton3(cube, &s);
            let reduced = |e| SolveError::Internal(format!("reduced cube: {e}"));
            let (rotation, s3) =
                tablegen::validate::orient_centres(&CubeN::new(3), &s3).map_err(reduced)?;
            let cc = CubieCube::from_facelets(&s3).map_err(reduced)?;
            if !finals.iter().any(|f| f.3 == cc) {
                finals.push((cand, m3, rotation, cc));
            }
        }
        let count = finals.len();
        // The length to beat: this thread's best or another's.
        let to_beat = |best: &Option<Solution4>| {
            best.as_ref()
                .map_or(usize::MAX, |b| b.moves.len())
                .min(shared.load(Ordering::Relaxed))
        };
        // Going on for a target length: past the budget, while the best whole
        // is longer than the target and the target's time has not come.
        let going_on = |known: usize| clock.going_on(known);
        // Pass 0 finishes the cubes within the budget. If the solve then goes
        // on, pass 1 finishes them again, each with its share of the time to
        // the target's end, each stopping once a whole is short enough.
        for pass in 0..2 {
            if pass == 1 && !going_on(to_beat(&best)) {
                break;
            }
            let until = if pass == 0 {
                opts.time_budget
            } else {
                opts.target_end()
            };
            for (i, (cand, m3, rotation, cc)) in finals.iter().enumerate() {
                let before = cand.moves.len() + m3.len();
                let known = to_beat(&best);
                let some = known < usize::MAX;
                let target = if some {
                    known.saturating_sub(before + 1)
                } else {
                    21
                };
                // Past the time given, or once a solve going on has a whole
                // short enough, the best so far is the answer.
                if some && (start.elapsed() >= until || (pass == 1 && !going_on(known))) {
                    break;
                }
                // A finish that cannot beat the best so far is not tried.
                if some && self.solver3.lower_bound(cc) > target {
                    continue;
                }
                // Each cube gets its share of what is left of the time (at
                // least `finish_min`) and keeps shortening within it. The first
                // cube starts from its first solution within 21 moves; every
                // later one only looks for finishes that beat the best whole
                // so far.
                let share = until.saturating_sub(start.elapsed()) / (count - i) as u32;
                let end = Instant::now() + share.max(opts.finish_min);
                let mut below = target + 1;
                for take_any in [!some, false] {
                    let rem = end.saturating_duration_since(Instant::now());
                    let found = if take_any {
                        self.solver3.solve(
                            cc,
                            crate::cube3::Options {
                                max_length: 21,
                                time_budget: rem,
                                // Used if loaded (`Solver::load`).
                                exact_phase1: true,
                                ..Default::default()
                            },
                        )
                    } else if rem.is_zero() || below <= 1 {
                        break;
                    } else if let (1, Some(t)) = (pass, opts.target_length) {
                        self.solver3
                            .solve_below_settling(cc, below, rem, (shared, before), t)
                    } else {
                        // The other thread may find shorter while this runs.
                        self.solver3
                            .solve_below_sharing(cc, below, rem, Some((shared, before)))
                    };
                    if found.is_empty() && *cc != CubieCube::SOLVED {
                        break;
                    }
                    below = found.len();
                    let m4: Vec<Move> =
                        found.iter().map(|&m| tablegen::cube3::move_of(m)).collect();
                    let m4 = tablegen::cube::unrotate(&m4, rotation);
                    let mut after = m3.clone();
                    after.extend(&m4);
                    let (found_len, all) = cand.whole(&after);
                    if best.as_ref().is_none_or(|b| all.len() < b.moves.len()) {
                        let mut phases = vec![
                            ("centres-ud", cand.lens[0]),
                            ("separate", cand.lens[1]),
                            ("pair", m3.len()),
                            ("3x3x3", m4.len()),
                        ];
                        if found_len > all.len() {
                            phases.push(("merged", found_len - all.len()));
                        }
                        shared.fetch_min(all.len(), Ordering::Relaxed);
                        best = Some(Solution4 { moves: all, phases });
                    }
                    if !take_any {
                        // `solve_below` returns at its deadline or when nothing
                        // shorter exists: there is nothing more to look for.
                        break;
                    }
                }
            }
        }
        if best.is_none() && shared.load(Ordering::Relaxed) == usize::MAX {
            return Err(SolveError::Internal("no phase-3 solution".into()));
        }
        Ok(best)
    }
}
