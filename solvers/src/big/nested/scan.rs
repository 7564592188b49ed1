//! The order in which the block search scans an orbit's cycles, and the
//! two threads a level's lists and scan orders are made on.

use super::*;

/// `f` of each item, in order, made on two threads (this one and one
/// more; a level's few orbits or kinds, each of tens of megabytes while it
/// is made: more threads than cores would only hold more of them at once).
pub(super) fn each_on_two_threads<T: Sync, U: Send>(
    items: &[T],
    f: impl Fn(&T) -> U + Sync,
) -> Vec<U> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let work = || {
        let mut out = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(x) = items.get(i) else {
                return out;
            };
            out.push((i, f(x)));
        }
    };
    let mut done = std::thread::scope(|sc| {
        let other = (items.len() > 1).then(|| sc.spawn(work));
        let mut done = work();
        done.extend(other.map(tablegen::joined).unwrap_or_default());
        done
    });
    done.sort_unstable_by_key(|d| d.0);
    done.into_iter().map(|d| d.1).collect()
}

/// An orbit's cycles (its kind's, renamed by `at`) in the order the block
/// search scans them, in runs ([`Bucket`]): most facelets moved per move
/// first (the most a cycle can add per move), then by the blocks they move
/// facelets into, then by index.
pub(super) fn scan_order(cands: &[Cand], at: &[u32], block: &[u32]) -> (Vec<Scan>, Vec<Bucket>) {
    // Each cycle renamed, with its blocks (as bits) and the most facelets
    // it moves into one block.
    let mut cycles: Vec<(Scan, u32, u8)> = tablegen::huge_vec(cands.len());
    cycles.extend((cands.iter().enumerate()).map(|(i, c)| {
        let mut pairs = [[0u16; 2]; tablegen::cycles::MAX_PAIRS];
        let mut into = [0u8; 32];
        let (mut mask, mut most) = (0u32, 0u8);
        for (slot, &(f, t)) in pairs.iter_mut().zip(c.pairs()) {
            let (f, t) = (at[f as usize], at[t as usize]);
            *slot = [f as u16, t as u16];
            let b = block[t as usize] as usize & 31;
            into[b] += 1;
            mask |= 1 << b;
            most = most.max(into[b]);
        }
        (
            Scan {
                pairs,
                index: i as u32,
            },
            mask,
            most,
        )
    }));
    // a before b when a.len / a.cost > b.len / b.cost; then by (len, cost,
    // mask), so that each run is contiguous; then by index. The few
    // (len, cost) pairs are ranked by their ratio first, and each cycle
    // sorted by one number holding all of it (an order of millions of
    // comparisons that chased two arrays became one of integers).
    let by_ratio = |x: &(u8, u32), y: &(u8, u32)| {
        (u64::from(y.0) * u64::from(x.1)).cmp(&(u64::from(x.0) * u64::from(y.1)))
    };
    let mut len_costs: Vec<(u8, u32)> = cands.iter().map(|c| (c.len, c.cost)).collect();
    len_costs.sort_unstable();
    len_costs.dedup();
    len_costs.sort_by(by_ratio);
    let mut ranks = Vec::with_capacity(len_costs.len());
    let mut rank = 0u64;
    for (i, k) in len_costs.iter().enumerate() {
        if i > 0 && by_ratio(&len_costs[i - 1], k).is_lt() {
            rank += 1;
        }
        ranks.push((*k, rank));
    }
    // The few (len, cost) pairs, sorted, for a binary search.
    ranks.sort_unstable();
    let ratio_rank = |k: (u8, u32)| {
        (ranks.binary_search_by(|x| x.0.cmp(&k)))
            .map(|i| ranks[i].1)
            .unwrap_or(0)
    };
    // Rank (6 bits), len (3), cost (7), mask (24: the blocks), index (24),
    // when each fits (as on every cube); else the same order by tuples.
    let fits = cands.len() < 1 << 24
        && rank < 1 << 6
        && cands.iter().all(|c| c.len < 8 && c.cost < 1 << 7)
        && cycles.iter().all(|cy| cy.1 < 1 << 24);
    let key = |i: usize| {
        let (c, cy) = (&cands[i], &cycles[i]);
        (ratio_rank((c.len, c.cost)), c.len, c.cost, cy.1, i)
    };
    let order: Vec<usize> = if fits {
        let mut keys: Vec<u64> = tablegen::huge_vec(cands.len());
        keys.extend((0..cands.len()).map(|i| {
            let (r, len, cost, mask, i) = key(i);
            r << 58
                | u64::from(len) << 55
                | u64::from(cost) << 48
                | u64::from(mask) << 24
                | i as u64
        }));
        keys.sort_unstable();
        keys.into_iter().map(|k| (k & 0xFF_FFFF) as usize).collect()
    } else {
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_unstable_by_key(|&i| key(i));
        order
    };
    let mut scan = tablegen::huge_vec(cands.len());
    let mut buckets: Vec<Bucket> = Vec::new();
    for i in order {
        let c = &cands[i];
        let (s, mask, most) = cycles[i];
        let (cost, len) = (c.cost as u16, c.len);
        let at = scan.len() as u32;
        match buckets.last_mut() {
            Some(b) if (b.mask, b.cost, b.len) == (mask, cost, len) => {
                b.end = at + 1;
                b.most = b.most.max(most);
            }
            _ => buckets.push(Bucket {
                mask,
                cost,
                len,
                most,
                distinct: mask.count_ones() == u32::from(len),
                start: at,
                end: at + 1,
            }),
        }
        scan.push(s);
    }
    (scan, buckets)
}
