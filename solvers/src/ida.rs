//! Iterative-deepening A* over any puzzle model.
//!
//! The model gives moves, a lower bound (usually the max of several tables'
//! distances) and a goal test. Move pruning: a move is never followed by another
//! on the same axis group unless the model allows it (no `R R`, and of the
//! commuting pair `R L` only one order). Searches stop at a node or time budget.

use std::time::{Duration, Instant};

/// A puzzle as IDA* sees it.
pub trait Model {
    /// A position.
    type State: Clone;
    /// Number of moves.
    fn moves(&self) -> usize;
    /// Applies move `m`.
    fn apply(&self, s: &Self::State, m: usize) -> Self::State;
    /// A lower bound on the distance to the goal (0 only at a goal is not
    /// required: goals are tested with [`Model::is_goal`]).
    fn bound(&self, s: &Self::State) -> u32;
    /// True at a goal.
    fn is_goal(&self, s: &Self::State) -> bool;
    /// May move `m` follow move `prev`? Default: always.
    fn may_follow(&self, _prev: usize, _m: usize) -> bool {
        true
    }
}

/// Limits of a search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Longest solution wanted.
    pub max_depth: u32,
    /// Nodes to visit at most (None: no limit).
    pub nodes: Option<u64>,
    /// Wall time at most (None: no limit).
    pub time: Option<Duration>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_depth: 30,
            nodes: None,
            time: None,
        }
    }
}

/// Why a search ended without (more) solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every path up to `max_depth` was searched.
    Exhausted,
    /// The node or time budget ran out.
    OutOfBudget,
}

/// Search statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes visited.
    pub nodes: u64,
}

struct Search<'a, M: Model> {
    model: &'a M,
    budget: Budget,
    start: Instant,
    stats: Stats,
    path: Vec<usize>,
    out_of_budget: bool,
}

impl<M: Model> Search<'_, M> {
    /// Depth-first search below `s` with `left` moves to go. Calls `found` on each
    /// solution; `found` returns false to stop.
    fn dfs(&mut self, s: &M::State, left: u32, found: &mut dyn FnMut(&[usize]) -> bool) -> bool {
        self.stats.nodes += 1;
        if self.stats.nodes & 0xFFF == 0 {
            let over_nodes = self.budget.nodes.is_some_and(|n| self.stats.nodes > n);
            let over_time = self.budget.time.is_some_and(|t| self.start.elapsed() > t);
            if over_nodes || over_time {
                self.out_of_budget = true;
            }
        }
        if self.out_of_budget {
            return false;
        }
        if left == 0 {
            return !self.model.is_goal(s) || found(&self.path);
        }
        for m in 0..self.model.moves() {
            if let Some(&prev) = self.path.last() {
                if !self.model.may_follow(prev, m) {
                    continue;
                }
            }
            let t = self.model.apply(s, m);
            if self.model.bound(&t) >= left {
                continue;
            }
            self.path.push(m);
            let go_on = self.dfs(&t, left - 1, found);
            self.path.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// Runs IDA* from `start`: depth by depth from the bound up to `budget.max_depth`,
/// calling `found` with each solution (move indices) of the current depth in move
/// order; `found` returns false to stop. Returns why the search ended.
pub fn search<M: Model>(
    model: &M,
    start: &M::State,
    budget: Budget,
    mut found: impl FnMut(&[usize]) -> bool,
) -> (Stop, Stats) {
    let mut s = Search {
        model,
        budget,
        start: Instant::now(),
        stats: Stats::default(),
        path: Vec::new(),
        out_of_budget: false,
    };
    for depth in model.bound(start)..=budget.max_depth {
        let go_on = s.dfs(start, depth, &mut found);
        if s.out_of_budget {
            return (Stop::OutOfBudget, s.stats);
        }
        if !go_on {
            return (Stop::Exhausted, s.stats);
        }
    }
    (Stop::Exhausted, s.stats)
}

/// Chains two stages: every solution of the first stage (shortest first, as
/// IDA* finds them) is handed to `second`, which returns the finished whole or
/// `None` to ask the first stage for its next candidate. Stops at the first
/// whole solution, or when the first stage is out of candidates or budget.
pub fn chain<M: Model, T>(
    first_model: &M,
    start: &M::State,
    budget: Budget,
    mut second: impl FnMut(&[usize]) -> Option<T>,
) -> Option<T> {
    let mut out = None;
    search(first_model, start, budget, |p| {
        out = second(p);
        out.is_none()
    });
    out
}

/// The first (shortest) solution, if one exists within the budget.
pub fn first<M: Model>(model: &M, start: &M::State, budget: Budget) -> Option<Vec<usize>> {
    let mut best = None;
    search(model, start, budget, |p| {
        best = Some(p.to_vec());
        false
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers with moves +1, +3, -2; goal 0; bound = |x| / 3 (admissible).
    struct Line;
    impl Model for Line {
        type State = i32;
        fn moves(&self) -> usize {
            3
        }
        fn apply(&self, s: &i32, m: usize) -> i32 {
            s + [1, 3, -2][m]
        }
        fn bound(&self, s: &i32) -> u32 {
            (s.unsigned_abs()).div_ceil(3)
        }
        fn is_goal(&self, s: &i32) -> bool {
            *s == 0
        }
    }

    #[test]
    fn finds_shortest_and_enumerates() {
        // -7: shortest is +3 +3 +1 (3 moves).
        let p = first(&Line, &-7, Budget::default()).unwrap();
        assert_eq!(p.len(), 3);
        let mut all = Vec::new();
        search(
            &Line,
            &-7,
            Budget {
                max_depth: 3,
                ..Default::default()
            },
            |p| {
                all.push(p.to_vec());
                true
            },
        );
        // Orders of {+3, +3, +1}: 3 solutions of length 3.
        assert_eq!(all.len(), 3);
    }

    #[test]
    fn a_later_stage_asks_for_more_candidates() {
        // Stage 1 reaches 0 from -7 in three moves; stage 2 only accepts a stage-1
        // path that ends with +1, so the first two candidates are refused.
        let mut tried = Vec::new();
        let got = chain(
            &Line,
            &-7,
            Budget {
                max_depth: 3,
                ..Default::default()
            },
            |p| {
                tried.push(p.to_vec());
                (p.last() == Some(&0)).then_some(p.len())
            },
        );
        assert_eq!(got, Some(3));
        assert_eq!(tried.len(), 3);
        assert_eq!(tried[2], vec![1, 1, 0]);
    }

    #[test]
    fn budget_stops_the_search() {
        let (stop, _) = search(
            &Line,
            &1000,
            Budget {
                max_depth: 400,
                nodes: Some(10_000),
                time: None,
            },
            |_| true,
        );
        assert_eq!(stop, Stop::OutOfBudget);
    }
}
