//! The wing phase's beam search over the free turns (the faces and the
//! blocks down to a wing orbit's layer), before its greedy steps.

use super::*;

/// The sequences of free turns of each length the wing phase's beam search
/// keeps (`docs/nnn.md` has the measurements behind these four settings).
pub(super) const WING_BEAM_WIDTH: usize = 500;

/// What the beam reckons each wing still unpaired will cost the greedy
/// steps that finish.
pub(super) const WING_PER_UNPAIRED: f64 = 3.0;

/// What the beam reckons each centre facelet its turns could place, but
/// that is not placed, will cost the centre phase (which pays about 2).
pub(super) const WING_PER_CENTRE: f64 = 1.0;

/// Lengths the beam goes on for past its best end so far.
pub(super) const WING_BEAM_PATIENCE: usize = 10;

/// The centre facelets as the wing beam sees them: each free turn's
/// permutation of them (as the wings'), the pairs (facelet,
/// representative) to match, their colours at the start.
pub(super) struct Centres<'a> {
    pub(super) perms: &'a [Vec<u32>],
    pub(super) pairs: &'a [(u32, u32)],
    pub(super) start: &'a [u8],
}

/// A beam search over free turns for one wing orbit in local indices
/// (facelets `0..k` the orbit's, `k..2k` their representatives'; unit `u`
/// is facelets `2u`, `2u + 1`; `perms[m][j]` is where turn `m` takes local
/// facelet `j`'s sticker from), with the centre facelets its turns place
/// for good. Keeps the [`WING_BEAM_WIDTH`] sequences of each length with
/// the least left to do ([`WING_PER_UNPAIRED`] a wing unpaired,
/// [`WING_PER_CENTRE`] a centre facelet not placed; `same[m][m']`: not the
/// same layers twice in a row), and returns the one, of even parity
/// (`flips[m]`: turn `m` changes it), whose length plus what is left is
/// least; it stops [`WING_BEAM_PATIENCE`] lengths past the best.
pub(super) fn wing_beam(
    start: &[u8],
    perms: &[Vec<u32>],
    same: &[Vec<bool>],
    flips: &[bool],
    k: usize,
    centres: &Centres,
) -> Vec<usize> {
    let (width, per_wing, per_centre) = (WING_BEAM_WIDTH, WING_PER_UNPAIRED, WING_PER_CENTRE);
    let wl = 2 * k;
    let len = wl + centres.start.len();
    let units = k / 2;
    let total_c = centres.pairs.len();
    // What is left to do, in moves (hundredths): wings unpaired, centres
    // not placed.
    let left = |s: &[u8]| -> i64 {
        let p = (0..units)
            .filter(|&u| s[2 * u] == s[k + 2 * u] && s[2 * u + 1] == s[k + 2 * u + 1])
            .count();
        let c = centres
            .pairs
            .iter()
            .filter(|&&(f, r)| s[wl + f as usize] == s[wl + r as usize])
            .count();
        ((per_wing * (units - p) as f64 + per_centre * (total_c - c) as f64) * 100.0) as i64
    };
    let mut start_full = start.to_vec();
    start_full.extend_from_slice(centres.start);
    let start = &start_full[..];
    // One level: states (flat), and per state its parent, move, parity.
    struct Level {
        states: Vec<u8>,
        parent: Vec<u32>,
        mv: Vec<u8>,
        odd: Vec<bool>,
    }
    let mut levels = vec![Level {
        states: start.to_vec(),
        parent: vec![0],
        mv: vec![u8::MAX],
        odd: vec![false],
    }];
    let cost = |l: usize, x: i64| l as i64 * 100 + x;
    let mut best = (cost(0, left(start)), 0usize, 0usize);
    let mut seen: HashSet<u64, BuildHasherDefault<KeyHasher>> = HashSet::default();
    let hash = |s: &[u8]| -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for c in s.chunks(8) {
            let mut w = 0u64;
            for &b in c {
                w = (w << 8) | u64::from(b);
            }
            h = (h ^ w).wrapping_mul(0x1000_0000_01b3).rotate_left(29);
        }
        h
    };
    seen.insert(hash(&start[..wl]));
    let mut next = vec![0u8; len];
    while (levels.len() as i64) * 100 < best.0 && levels.len() <= best.1 + WING_BEAM_PATIENCE {
        let l = levels.len();
        let prev = &levels[l - 1];
        // (what is left, tie-break hash, parent, move, odd), their states
        // in `store` in the same order. Repeats are known by their wings.
        let mut cands: Vec<(i64, u64, u32, u8, bool)> = Vec::new();
        let mut store: Vec<u8> = Vec::new();
        for i in 0..prev.parent.len() {
            let s = &prev.states[i * len..(i + 1) * len];
            let last = prev.mv[i];
            for (mi, p) in perms.iter().enumerate() {
                if last != u8::MAX && same[last as usize][mi] {
                    continue;
                }
                for (d, &j) in next[..wl].iter_mut().zip(p.iter()) {
                    *d = s[j as usize];
                }
                let h = hash(&next[..wl]);
                if !seen.insert(h) {
                    continue;
                }
                for (d, &j) in next[wl..].iter_mut().zip(centres.perms[mi].iter()) {
                    *d = s[wl + j as usize];
                }
                cands.push((left(&next), h, i as u32, mi as u8, prev.odd[i] ^ flips[mi]));
                store.extend_from_slice(&next);
            }
        }
        if cands.is_empty() {
            break;
        }
        let mut order: Vec<usize> = (0..cands.len()).collect();
        let key = |&x: &usize| (cands[x].0, cands[x].1);
        if order.len() > width {
            order.select_nth_unstable_by_key(width, key);
            order.truncate(width);
        }
        order.sort_unstable_by_key(key);
        let mut level = Level {
            states: Vec::with_capacity(order.len() * len),
            parent: Vec::with_capacity(order.len()),
            mv: Vec::with_capacity(order.len()),
            odd: Vec::with_capacity(order.len()),
        };
        for (idx, &c) in order.iter().enumerate() {
            let (p, _, parent, mi, odd) = cands[c];
            level
                .states
                .extend_from_slice(&store[c * len..(c + 1) * len]);
            level.parent.push(parent);
            level.mv.push(mi);
            level.odd.push(odd);
            if !odd && cost(l, p) < best.0 {
                best = (cost(l, p), l, idx);
            }
        }
        levels.push(level);
    }
    let (_, mut l, mut i) = best;
    let mut out = Vec::with_capacity(l);
    while l > 0 {
        out.push(levels[l].mv[i] as usize);
        i = levels[l].parent[i] as usize;
        l -= 1;
    }
    out.reverse();
    out
}
