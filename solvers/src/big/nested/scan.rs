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
///
/// A cube's lists run to hundreds of thousands of cycles, made at every
/// start: the order is one sort of a 64-bit key per cycle (made in one pass
/// over the list), and each cycle is renamed once more as it is taken in
/// that order, rather than held renamed in a second copy of the list.
pub(super) fn scan_order(cands: &[Cand], at: &[u32], block: &[u32]) -> (Vec<Scan>, Vec<Bucket>) {
    // A cycle renamed, with its blocks (as bits) and the most facelets it
    // moves into one block.
    let renamed = |c: &Cand| {
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
        (pairs, mask, most)
    };
    // The key of each cycle: len (3 bits), cost (7), mask (24: the blocks),
    // index (24), the top 6 bits left for the rank of len / cost, filled in
    // once every (len, cost) the list holds is known. Those fit on every
    // cube; else the same order by tuples.
    const LEN: u64 = 55;
    const COST: u64 = 48;
    const RANK: u64 = 58;
    let mut seen = [false; 8 << 7];
    let mut keys: Vec<u64> = tablegen::huge_vec(cands.len());
    let mut fits = cands.len() < 1 << 24;
    for (i, c) in cands.iter().enumerate() {
        if !fits {
            break;
        }
        let (_, mask, _) = renamed(c);
        fits = c.len < 8 && c.cost < 1 << 7 && mask < 1 << 24;
        if fits {
            seen[usize::from(c.len) << 7 | c.cost as usize] = true;
            keys.push(
                u64::from(c.len) << LEN
                    | u64::from(c.cost) << COST
                    | u64::from(mask) << 24
                    | i as u64,
            );
        }
    }
    // a before b when a.len / a.cost > b.len / b.cost (a rank per ratio).
    let by_ratio = |x: &(u8, u32), y: &(u8, u32)| {
        (u64::from(y.0) * u64::from(x.1)).cmp(&(u64::from(x.0) * u64::from(y.1)))
    };
    let len_costs: Vec<(u8, u32)> = if fits {
        let pair = |k: usize| ((k >> 7) as u8, (k & 127) as u32);
        (0..seen.len()).filter(|&k| seen[k]).map(pair).collect()
    } else {
        let set: std::collections::BTreeSet<(u8, u32)> =
            cands.iter().map(|c| (c.len, c.cost)).collect();
        set.into_iter().collect()
    };
    let mut by_rank = len_costs.clone();
    by_rank.sort_by(by_ratio);
    let mut ranks = std::collections::HashMap::new();
    let mut rank = 0u64;
    for (i, k) in by_rank.iter().enumerate() {
        if i > 0 && by_ratio(&by_rank[i - 1], k).is_lt() {
            rank += 1;
        }
        ranks.insert(*k, rank);
    }
    // The cycles' indices in scan order.
    let order: Vec<u64> = if fits && rank < 1 << 6 {
        let mut rank_of = [0u64; 8 << 7];
        for (&(len, cost), &r) in &ranks {
            rank_of[usize::from(len) << 7 | cost as usize] = r << RANK;
        }
        for k in keys.iter_mut() {
            *k |= rank_of[(*k >> COST) as usize & 0x3FF];
        }
        keys.sort_unstable();
        keys.iter_mut().for_each(|k| *k &= 0xFF_FFFF);
        keys
    } else {
        drop(keys);
        let key = |i: usize| {
            let c = &cands[i];
            (
                ranks.get(&(c.len, c.cost)).copied(),
                c.len,
                c.cost,
                renamed(c).1,
                i,
            )
        };
        let mut order: Vec<u64> = (0..cands.len() as u64).collect();
        order.sort_unstable_by_key(|&i| key(i as usize));
        order
    };
    let mut scan = tablegen::huge_vec(cands.len());
    let mut buckets: Vec<Bucket> = Vec::new();
    // Taken in an order far from the list's: each fetched well ahead.
    const AHEAD: usize = 16;
    for (j, &i) in order.iter().enumerate() {
        if let Some(&k) = order.get(j + AHEAD) {
            tablegen::prefetch(cands, k as usize);
        }
        let c = &cands[i as usize];
        let (pairs, mask, most) = renamed(c);
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
        scan.push(Scan {
            pairs,
            index: i as u32,
        });
    }
    (scan, buckets)
}
