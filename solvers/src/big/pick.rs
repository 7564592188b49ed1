//! One step of a greedy cycle search: the pick of the cycle that places the
//! most per move, and the seeded random pick when none places anything.

/// One step of a greedy cycle search: the cycle that places the most
/// per move; if none places anything, a cycle that moves something
/// unplaced and places as much as it takes away, picked at random (from a
/// fixed seed: the same state gives the same moves). Gives up after 40
/// such steps in a row.
pub(super) struct Pick {
    /// (gain, cost, index) of the best so far.
    pub(super) best: Option<(u32, u32, usize)>,
    /// The rank of the best so far ([`Pick::consider_at`]).
    pub(super) best_rank: usize,
    pub(super) level: Vec<usize>,
    pub(super) idle: u32,
    pub(super) rng: u64,
    /// How many of the best to keep in `top` ([`Pick::consider_at`]).
    pub(super) keep: usize,
    /// The `keep` best so far, best first: (gain, cost, index, rank).
    pub(super) top: Vec<(u32, u32, usize, usize)>,
    /// The best of the last step ([`Pick::choose`]).
    pub(super) last: Option<(u32, u32, usize)>,
}

impl Default for Pick {
    fn default() -> Self {
        Pick {
            best: None,
            best_rank: 0,
            level: Vec::new(),
            idle: 0,
            rng: 0x9E37_79B9_7F4A_7C15,
            keep: 1,
            top: Vec::new(),
            last: None,
        }
    }
}

impl Pick {
    /// Cycle `i`: what it places less what it takes away, whether it moves
    /// something unplaced, its cost.
    pub(super) fn consider(&mut self, i: usize, gain: i32, touches: bool, cost: u32) {
        if gain == 0 && touches {
            self.level.push(i);
        }
        if gain > 0 {
            let g = gain as u32;
            if self.best.is_none_or(|(bg, bc, _)| g * bc > bg * cost) {
                self.best = Some((g, cost, i));
            }
        }
    }

    /// As [`Pick::consider`] for a cycle that moves something unplaced,
    /// where the cycles are not seen in the order of their indices: of two
    /// placing as much per move, the one of the lower `rank` is kept.
    pub(super) fn consider_at(&mut self, i: usize, rank: usize, gain: i32, cost: u32) {
        if gain == 0 {
            self.level.push(i);
        }
        if gain > 0 {
            let g = gain as u32;
            let better = self.best.is_none_or(|(bg, bc, _)| {
                g * bc > bg * cost || (g * bc == bg * cost && rank < self.best_rank)
            });
            if better {
                self.best = Some((g, cost, i));
                self.best_rank = rank;
            }
            if self.keep > 1 {
                // Before the first that places less per move, or as much
                // with a higher rank.
                let at = self.top.partition_point(|&(bg, bc, _, br)| {
                    bg * cost > g * bc || (bg * cost == g * bc && br < rank)
                });
                if at < self.keep {
                    self.top.insert(at, (g, cost, i, rank));
                    self.top.truncate(self.keep);
                }
            }
        }
    }

    /// (gain, cost) that a move must beat to count: the best so far, or
    /// with `keep` above one the last of a full `top`.
    pub(super) fn bound(&self) -> Option<(u32, u32)> {
        if self.keep > 1 {
            (self.top.len() == self.keep).then(|| {
                let &(g, c, _, _) = &self.top[self.keep - 1];
                (g, c)
            })
        } else {
            self.best.map(|(g, c, _)| (g, c))
        }
    }

    /// The step's cycle (and a fresh start for the next step), or `None`
    /// when the search is stuck.
    pub(super) fn choose(&mut self) -> Option<usize> {
        let level = std::mem::take(&mut self.level);
        self.last = self.best;
        if let Some((_, _, i)) = self.best.take() {
            self.idle = 0;
            return Some(i);
        }
        self.idle += 1;
        if level.is_empty() || self.idle > 40 {
            return None;
        }
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        Some(level[(self.rng % level.len() as u64) as usize])
    }
}
