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
            d0: 0,
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
        // Three passes over all the siblings' children, each asking for the
        // cache lines the next reads: their coordinates and entries (their
        // U-D axis's and corners' lines asked for); the corners' and U-D
        // bounds (the other axes' lines asked for the children within
        // them, about a third); the other two axes (the rows of the
        // children within every bound asked for). Then the search of those.
        // One pass reading all three axes at once asks for half as many
        // lines again, and is slower; one node at a time waits for memory
        // three times a node.
        let limit = left - 1;
        let base = w.stack.len();
        for i in lo..hi {
            let (n, last) = (w.stack[i].node, w.stack[i].last);
            for m in 0..18u8 {
                if !allowed(last, m / 3) {
                    continue;
                }
                let c = self.step(&n, m as usize);
                let e = self.entries(&c);
                self.prefetch_entry(e[0]);
                prefetch(self.corners.bytes(), e[3] >> 1);
                w.stack.push(Kid {
                    node: c,
                    e,
                    m,
                    last: m / 3,
                    d0: 0,
                    parent: (i - lo) as u8,
                });
            }
        }
        let mut first = base;
        for i in base..w.stack.len() {
            let mut k = w.stack[i];
            let parent = &w.stack[lo + k.parent as usize].node;
            if nibble(self.corners.bytes(), k.e[3]) > limit {
                continue;
            }
            k.d0 = self.axis_distance(parent, &mut k.node, k.e[0], 0);
            if k.d0 as usize > limit {
                continue;
            }
            self.prefetch_entry(k.e[1]);
            self.prefetch_entry(k.e[2]);
            w.stack[first] = k;
            first += 1;
        }
        let mut live = base;
        for i in base..first {
            let mut k = w.stack[i];
            let parent = &w.stack[lo + k.parent as usize].node;
            let d1 = self.axis_distance(parent, &mut k.node, k.e[1], 1);
            if d1 as usize > limit {
                continue;
            }
            let d2 = self.axis_distance(parent, &mut k.node, k.e[2], 2);
            if d2 as usize > limit || self.three_tight([k.d0, d1, d2], &k.e, limit) {
                continue;
            }
            if left > 1 {
                self.prefetch_rows(&k.node);
            }
            w.stack[live] = k;
            live += 1;
        }
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
    /// Its U-D axis's distance.
    d0: u8,
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

/// A [`Kid`]'s move when it is a task's own node.
const NO_MOVE: u8 = u8::MAX;
