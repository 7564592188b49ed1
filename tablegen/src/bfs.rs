//! The breadth-first search engine: dense layered BFS over a ranked state space,
//! and sparse BFS to a given depth over packed keys for spaces too big to rank.
//!
//! Both are parallel with rayon and give the same result for any thread count:
//! the set of states at depth d+1 is a function of the states at depth d, whatever
//! order the threads find them in.

use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// A ranked state space with a move set closed under inverses: ranks are a perfect
/// hash of the states onto `0..size()`.
pub trait Space: Sync {
    /// Number of ranks.
    fn size(&self) -> u64;
    /// Ranks of the goal states (depth 0).
    fn goals(&self) -> Vec<u64>;
    /// Calls `f` with the rank of each neighbour of `rank`, one per move, until `f`
    /// returns false.
    fn for_each_neighbour(&self, rank: u64, f: impl FnMut(u64) -> bool);
}

/// Two spaces turned by the same moves in step, ranked `a * b.size() + b`:
/// the states of both orbits together (for example the T- and X-centres of a
/// 5x5x5, each tracked by its own projection). Both spaces must list the
/// same moves in the same order, at most 64 of them.
pub struct Product<A, B> {
    /// The first space (the high digit of a rank).
    pub a: A,
    /// The second space (the low digit).
    pub b: B,
}

impl<A: Space, B: Space> Space for Product<A, B> {
    fn size(&self) -> u64 {
        self.a.size().saturating_mul(self.b.size())
    }
    fn goals(&self) -> Vec<u64> {
        let (ga, gb) = (self.a.goals(), self.b.goals());
        ga.iter()
            .flat_map(|&x| gb.iter().map(move |&y| x * self.b.size() + y))
            .collect()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let nb = self.b.size();
        let mut first = [0u64; 64];
        let mut k = 0;
        self.a.for_each_neighbour(rank / nb, |x| {
            first[k] = x;
            k += 1;
            k < first.len()
        });
        let mut i = 0;
        self.b.for_each_neighbour(rank % nb, |y| {
            let go = i < k && f(first[i] * nb + y);
            i += 1;
            go
        });
    }
}

/// Marks a rank not reached (yet).
pub const UNREACHED: u8 = 0xFF;

/// The result of a dense BFS: one distance byte per rank.
#[derive(Clone, Debug)]
pub struct DenseResult {
    /// Distance of each rank from the goal set, or [`UNREACHED`].
    pub depth: Vec<u8>,
    /// Number of states at each depth.
    pub histogram: Vec<u64>,
    /// Neighbour computations done (state x move expansions).
    pub expansions: u64,
}

const CHUNK: usize = 1 << 14;

/// Dense layered BFS from the goals of `space`, one byte per rank during the build.
/// Pushes from the frontier while it is small and pulls into unreached ranks once
/// the frontier is larger than what is left.
pub fn dense_bfs<S: Space>(space: &S, progress: &Progress) -> DenseResult {
    let size = usize::try_from(space.size()).expect("space fits in memory");
    let table: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNREACHED)).collect();
    let mut histogram = Vec::new();
    let mut count = 0u64;
    for g in space.goals() {
        if table[g as usize].swap(0, Ordering::Relaxed) == UNREACHED {
            count += 1;
        }
    }
    histogram.push(count);
    let mut reached = count;
    let expansions = AtomicU64::new(0);
    let mut depth: u8 = 0;
    progress.update(reached, &format!("depth 0: {count}"));
    while count > 0 {
        assert!(depth < UNREACHED - 1, "depth overflow");
        let next = depth + 1;
        let unreached = space.size() - reached;
        let pull = count > unreached / 2;
        let found: u64 = (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let lo = chunk * CHUNK;
                let hi = (lo + CHUNK).min(size);
                let mut found = 0u64;
                let mut expanded = 0u64;
                for (i, slot) in table.iter().enumerate().take(hi).skip(lo) {
                    let v = slot.load(Ordering::Relaxed);
                    if pull {
                        if v != UNREACHED {
                            continue;
                        }
                        let mut hit = false;
                        space.for_each_neighbour(i as u64, |t| {
                            expanded += 1;
                            hit = table[t as usize].load(Ordering::Relaxed) == depth;
                            !hit
                        });
                        if hit {
                            slot.store(next, Ordering::Relaxed);
                            found += 1;
                        }
                    } else if v == depth {
                        space.for_each_neighbour(i as u64, |t| {
                            expanded += 1;
                            let cell = &table[t as usize];
                            if cell.load(Ordering::Relaxed) == UNREACHED
                                && cell
                                    .compare_exchange(
                                        UNREACHED,
                                        next,
                                        Ordering::Relaxed,
                                        Ordering::Relaxed,
                                    )
                                    .is_ok()
                            {
                                found += 1;
                            }
                            true
                        });
                    }
                }
                expansions.fetch_add(expanded, Ordering::Relaxed);
                found
            })
            .sum();
        count = found;
        reached += found;
        depth = next;
        if found > 0 {
            histogram.push(found);
        }
        progress.update(
            reached,
            &format!(
                "depth {depth}: {found} ({})",
                if pull { "pull" } else { "push" }
            ),
        );
    }
    progress.finish();
    DenseResult {
        depth: table.into_iter().map(AtomicU8::into_inner).collect(),
        histogram,
        expansions: expansions.into_inner(),
    }
}

/// The result of a sparse BFS: every state found, sorted by key, with its depth.
#[derive(Clone, Debug)]
pub struct SparseResult<K> {
    /// `(key, depth)` sorted by key.
    pub entries: Vec<(K, u8)>,
    /// Number of states at each depth.
    pub histogram: Vec<u64>,
}

/// Breadth-first search over packed keys to `max_depth`, holding each layer as a
/// sorted vector (no hashing, so the result is deterministic).
pub fn sparse_bfs<K, F>(
    goals: &[K],
    max_depth: u8,
    neighbours: F,
    progress: &Progress,
) -> SparseResult<K>
where
    K: Ord + Copy + Send + Sync,
    F: Fn(K, &mut Vec<K>) + Sync,
{
    let mut cur: Vec<K> = goals.to_vec();
    cur.sort_unstable();
    cur.dedup();
    let mut prev: Vec<K> = Vec::new();
    let mut all: Vec<(K, u8)> = cur.iter().map(|&k| (k, 0)).collect();
    let mut histogram = vec![cur.len() as u64];
    for depth in 1..=max_depth {
        let mut next: Vec<K> = cur
            .par_chunks(4096)
            .flat_map_iter(|chunk| {
                let mut out = Vec::new();
                let mut buf = Vec::new();
                for &k in chunk {
                    buf.clear();
                    neighbours(k, &mut buf);
                    out.extend_from_slice(&buf);
                }
                out
            })
            .collect();
        next.par_sort_unstable();
        next.dedup();
        next.retain(|k| prev.binary_search(k).is_err() && cur.binary_search(k).is_err());
        if next.is_empty() {
            break;
        }
        histogram.push(next.len() as u64);
        all.extend(next.iter().map(|&k| (k, depth)));
        progress.update(all.len() as u64, &format!("depth {depth}: {}", next.len()));
        prev = std::mem::replace(&mut cur, next);
    }
    progress.finish();
    all.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    SparseResult {
        entries: all,
        histogram,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cycle of length n with moves +1 and -1: distances are known in closed form.
    struct Cycle(u64);
    impl Space for Cycle {
        fn size(&self) -> u64 {
            self.0
        }
        fn goals(&self) -> Vec<u64> {
            vec![0]
        }
        fn for_each_neighbour(&self, r: u64, mut f: impl FnMut(u64) -> bool) {
            if f((r + 1) % self.0) {
                f((r + self.0 - 1) % self.0);
            }
        }
    }

    #[test]
    fn cycle_distances() {
        let res = dense_bfs(&Cycle(101), &Progress::hidden());
        for (i, &d) in res.depth.iter().enumerate() {
            assert_eq!(d as usize, i.min(101 - i));
        }
        assert_eq!(res.histogram.len(), 51);
        assert_eq!(res.histogram.iter().sum::<u64>(), 101);
    }

    #[test]
    fn sparse_matches_dense_on_cycle() {
        let n = 1000u64;
        let res = sparse_bfs(
            &[0u64],
            40,
            |k, out| {
                out.push((k + 1) % n);
                out.push((k + n - 1) % n);
            },
            &Progress::hidden(),
        );
        assert_eq!(res.histogram.len(), 41);
        assert_eq!(res.entries.len(), 81);
        assert!(res.entries.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
