//! The depth-first search of one task, siblings' children looked up
//! together (see [`Optimal::expand`]).

use super::{allowed, solves, Depth, Node, Optimal};
use crate::tables::{nibble, prefetch};
use std::sync::atomic::Ordering;
use std::time::Instant;

impl Optimal {
    /// Depth-first search for a solution of exactly `left` more moves from
    /// a task's node (`last`: the face of its last move).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dfs(
        &self,
        n: &Node,
        left: usize,
        last: u8,
        path: &mut Vec<u8>,
        ctx: &Depth,
        task: usize,
        count: &mut u64,
    ) -> bool {
        if left == 0 {
            return solves(ctx.start, path);
        }
        let mut stack = Vec::with_capacity(64 * 18);
        stack.push(Kid {
            node: *n,
            e: [0; 4],
            m: NO_MOVE,
            last,
            d: [0; 2],
            parent: 0,
        });
        let mut walk = Walk {
            stack,
            ctx,
            task,
            count,
        };
        self.expand(&mut walk, 0, 1, left, path)
    }

    /// The search below the siblings `stack[lo..hi]` (each `left` moves
    /// from the end; `path` leads to their parent): their children are
    /// looked up together, so that the cache lines of all of them are in
    /// flight at once, then each sibling's children within the bounds are
    /// searched in turn, in move order (the first solution is the same as
    /// one node at a time would find).
    fn expand(&self, w: &mut Walk, lo: usize, hi: usize, left: usize, path: &mut Vec<u8>) -> bool {
        let push = |path: &mut Vec<u8>, m: u8| {
            if m != NO_MOVE {
                path.push(m);
            }
        };
        let pop = |path: &mut Vec<u8>, m: u8| {
            if m != NO_MOVE {
                path.pop();
            }
        };
        if left == 0 {
            for i in lo..hi {
                let m = w.stack[i].m;
                push(path, m);
                if solves(w.ctx.start, path) {
                    return true;
                }
                pop(path, m);
            }
            return false;
        }
        let before = *w.count;
        *w.count += (hi - lo) as u64;
        if before >> 14 != *w.count >> 14 {
            let ctx = w.ctx;
            if ctx.best.load(Ordering::Relaxed) < w.task || ctx.out_of_time.load(Ordering::Relaxed)
            {
                return false;
            }
            if ctx.deadline.is_some_and(|d| Instant::now() >= d) {
                ctx.out_of_time.store(true, Ordering::Relaxed);
                return false;
            }
        }
        // Passes over all the siblings' children, each keeping the children
        // within one bound and asking for the cache lines the next pass
        // reads for them: their coordinates and entries (the corners' line
        // asked for where that table can cut, else the U-D axis's); the
        // corners; the U-D axis; axis 1; axis 2 and the three tight axes
        // (the rows of the children within every bound asked for). Then the
        // search of those. Each pass asks only for the lines of the children
        // the one before kept: the search is bound by the lines in flight
        // more than by the rounds it waits, and one node at a time waited
        // for memory three times a node.
        let limit = left - 1;
        let corners = limit < CORNERS_CUT_BELOW;
        let base = w.stack.len();
        for i in lo..hi {
            let (n, last) = (w.stack[i].node, w.stack[i].last);
            for m in 0..18u8 {
                if !allowed(last, m / 3) {
                    continue;
                }
                // The U-D axis and the corners only: most children go no
                // further, and the other two axes are moved for those
                // within the U-D axis's bound.
                let mut c = n;
                self.step_corners(&n, &mut c, m as usize);
                self.step_axis(&n, &mut c, m as usize, 0);
                let e = [self.axis_entry(&c, 0), 0, 0, self.corners_entry(&c)];
                if corners {
                    prefetch(self.corners.bytes(), e[3] >> 1);
                } else {
                    self.prefetch_entry(e[0]);
                }
                w.stack.push(Kid {
                    node: c,
                    e,
                    m,
                    last: m / 3,
                    d: [0; 2],
                    parent: (i - lo) as u8,
                });
            }
        }
        let mut end = w.stack.len();
        if corners {
            end = self.keep(w, lo, base, end, |k, _| {
                let within = nibble(self.corners.bytes(), k.e[3]) <= limit;
                if within {
                    self.prefetch_entry(k.e[0]);
                }
                within
            });
        }
        for a in 0..2 {
            end = self.keep(w, lo, base, end, |k, parent| {
                k.d[a] = self.axis_distance(parent, &mut k.node, k.e[a], a);
                let within = k.d[a] as usize <= limit;
                if within {
                    if a == 0 {
                        for b in 1..3 {
                            self.step_axis(parent, &mut k.node, k.m as usize, b);
                            k.e[b] = self.axis_entry(&k.node, b);
                        }
                    }
                    self.prefetch_entry(k.e[a + 1]);
                }
                within
            });
        }
        let live = self.keep(w, lo, base, end, |k, parent| {
            let d2 = self.axis_distance(parent, &mut k.node, k.e[2], 2);
            let within =
                d2 as usize <= limit && !self.three_tight([k.d[0], k.d[1], d2], &k.e, limit);
            if within && left > 1 {
                self.prefetch_rows(&k.node);
            }
            within
        });
        w.stack.truncate(live);
        // Each sibling's children are a run of the survivors.
        let mut at = base;
        for i in lo..hi {
            let end = (at..live)
                .find(|&j| w.stack[j].parent as usize != i - lo)
                .unwrap_or(live);
            if at < end {
                let m = w.stack[i].m;
                push(path, m);
                if self.expand(w, at, end, left - 1, path) {
                    return true;
                }
                pop(path, m);
            }
            at = end;
        }
        w.stack.truncate(base);
        false
    }

    /// Keeps, in order, the children of `w.stack[base..end]` for which
    /// `within` holds (given each its parent of the group at `lo`), moved
    /// down to start at `base`; returns the end of those kept.
    #[inline(always)]
    fn keep(
        &self,
        w: &mut Walk,
        lo: usize,
        base: usize,
        end: usize,
        mut within: impl FnMut(&mut Kid, &Node) -> bool,
    ) -> usize {
        let mut kept = base;
        for i in base..end {
            let mut k = w.stack[i];
            let parent = w.stack[lo + k.parent as usize].node;
            if within(&mut k, &parent) {
                w.stack[kept] = k;
                kept += 1;
            }
        }
        kept
    }
}

/// A node of [`Optimal::expand`]'s stack of sibling groups.
#[derive(Clone, Copy)]
struct Kid {
    node: Node,
    e: [usize; 4],
    /// The move that made it ([`NO_MOVE`]: a task's node, its path in hand).
    m: u8,
    /// The face of its last move.
    last: u8,
    /// Its distances on axes 0 and 1, as the passes fill them.
    d: [u8; 2],
    /// Its parent's place among its group of siblings.
    parent: u8,
}

/// A task's search state: the stack of sibling groups and what the tasks
/// share.
struct Walk<'a, 'b> {
    stack: Vec<Kid>,
    ctx: &'a Depth<'b>,
    task: usize,
    count: &'a mut u64,
}

/// The corners' table cuts children only when fewer moves than this are
/// left: its greatest distance is 11, and at 10 moves it cut 0.08 % of the
/// children the edge tables would look at (seed 1, huge tables), not worth a
/// read per child at the two levels that hold most of the nodes.
const CORNERS_CUT_BELOW: usize = 10;

/// A [`Kid`]'s move when it is a task's own node.
const NO_MOVE: u8 = u8::MAX;
