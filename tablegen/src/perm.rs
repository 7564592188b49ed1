//! Ranking helpers for permutations and orientations (Lehmer codes, mixed radix).

/// n! for n <= 20.
pub const fn factorial(n: usize) -> u64 {
    let mut f = 1u64;
    let mut i = 2;
    while i <= n {
        f *= i as u64;
        i += 1;
    }
    f
}

/// `FACTORIALS[n]` = n! for n <= 20 (a table: ranking reads it in its loop).
const FACTORIALS: [u64; 21] = {
    let mut t = [1u64; 21];
    let mut i = 1;
    while i <= 20 {
        t[i] = t[i - 1] * i as u64;
        i += 1;
    }
    t
};

/// Bits set in each byte value (rankings count by lookup: without a
/// hardware popcount, which the baseline x86-64 target lacks, this is
/// several times faster than `count_ones`).
pub const BYTE_ONES: [u8; 256] = ones_table();

/// Bits set in each 12-bit value (4 KB: the 12-element rankings count the
/// smaller values already used by one lookup, as [`BYTE_ONES`] does for bytes).
pub const ONES12: [u8; 4096] = ones_table();

/// The bits set in each value below `N`.
const fn ones_table<const N: usize>() -> [u8; N] {
    let mut t = [0u8; N];
    let mut i = 0;
    while i < N {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
}

/// Lehmer rank of a permutation of `0..p.len()` (lexicographic order).
pub fn perm_rank(p: &[u8]) -> u64 {
    let n = p.len();
    let mut r = 0u64;
    let mut used = 0u32;
    for (i, &v) in p.iter().enumerate() {
        let smaller_unused = v as u32 - (used & ((1u32 << v) - 1)).count_ones();
        r += smaller_unused as u64 * FACTORIALS[n - 1 - i];
        used |= 1 << v;
    }
    r
}

/// Inverse of [`perm_rank`].
pub fn perm_unrank(mut r: u64, n: usize) -> Vec<u8> {
    if n <= 16 {
        let mut out = vec![0u8; n];
        perm_unrank_into(r, &mut out);
        return out;
    }
    // Past 16 values the nibble list does not hold them: a list of values.
    let mut avail: Vec<u8> = (0..n as u8).collect();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let f = FACTORIALS[n - 1 - i];
        out.push(avail.remove((r / f) as usize));
        r %= f;
    }
    out
}

/// [`perm_unrank`] into `out` without allocating; `out` holds at most 16
/// values (longer is a caller's bug: it panics).
pub fn perm_unrank_into(mut r: u64, out: &mut [u8]) {
    let n = out.len();
    assert!(n <= 16, "perm_unrank_into takes at most 16 values, not {n}");
    // The unused values as nibbles, smallest first.
    let mut avail: u64 = 0xfedc_ba98_7654_3210;
    for (i, slot) in out.iter_mut().enumerate() {
        let f = FACTORIALS[n - 1 - i];
        let k = (r / f) as u32;
        r %= f;
        *slot = ((avail >> (4 * k)) & 0xf) as u8;
        // Remove nibble k: keep the ones below, shift the ones above down.
        let low = avail & ((1u64 << (4 * k)) - 1);
        let high = if k >= 15 {
            0
        } else {
            (avail >> (4 * (k + 1))) << (4 * k)
        };
        avail = low | high;
    }
}

/// The integers below `2^n` with `k` bits set (1 <= k <= n < 32), ascending:
/// each from the one before by Gosper's hack (the next larger integer with as
/// many bits set), not by testing all `2^n`.
pub fn bit_sets(n: u32, k: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut x = (1u32 << k) - 1;
    while x < 1 << n {
        out.push(x);
        let low = x & x.wrapping_neg();
        let ripple = x + low;
        x = ripple | (((x ^ ripple) >> 2) >> low.trailing_zeros());
    }
    out
}

/// Parity of a permutation: true if odd.
pub fn is_odd(p: &[u8]) -> bool {
    let mut seen = vec![false; p.len()];
    let mut transpositions = 0;
    for i in 0..p.len() {
        if seen[i] {
            continue;
        }
        let mut j = i;
        let mut len = 0;
        while !seen[j] {
            seen[j] = true;
            j = p[j] as usize;
            len += 1;
        }
        transpositions += len - 1;
    }
    transpositions % 2 == 1
}

/// Rank of an even permutation of `0..n` into `0..n!/2`: the Lehmer rank of the
/// first n-2 entries (the last two are fixed by the parity).
pub fn even_perm_rank(p: &[u8]) -> u64 {
    perm_rank(p) / 2
}

/// Inverse of [`even_perm_rank`].
pub fn even_perm_unrank(r: u64, n: usize) -> Vec<u8> {
    let p = perm_unrank(r * 2, n);
    if is_odd(&p) {
        perm_unrank(r * 2 + 1, n)
    } else {
        p
    }
}

/// Number of even permutations of 12 elements (12!/2).
pub const EVEN12: u64 = 239_500_800;

/// Rank of an even permutation of `0..12` into `0..12!/2`, allocation-free: the
/// Lehmer digits of the first ten entries in mixed radix 12, 11, ..., 3 (the last
/// two entries follow from the parity). Agrees with [`even_perm_rank`].
#[inline]
pub fn even_rank12(p: &[u8; 12]) -> u32 {
    let mut used = 0u32;
    let mut r = 0u32;
    for (i, &v) in p.iter().take(10).enumerate() {
        let smaller_unused = u32::from(v) - u32::from(ONES12[(used & ((1u32 << v) - 1)) as usize]);
        r = r * (12 - i as u32) + smaller_unused;
        used |= 1 << v;
    }
    r
}

/// Inverse of [`even_rank12`]. Unused values are kept as a list of nibbles, so
/// taking the k-th unused one is a shift and a mask.
#[inline]
pub fn even_unrank12(mut r: u32) -> [u8; 12] {
    let mut digits = [0u32; 10];
    for i in (0..10).rev() {
        let base = 12 - i as u32;
        digits[i] = r % base;
        r /= base;
    }
    let mut list: u64 = 0xBA98_7654_3210;
    let mut out = [0u8; 12];
    let mut inversions = 0u32;
    for (i, &d) in digits.iter().enumerate() {
        let sh = 4 * d;
        out[i] = ((list >> sh) & 0xF) as u8;
        let low = list & ((1u64 << sh) - 1);
        list = low | ((list >> (sh + 4)) << sh);
        inversions += d;
    }
    let (a, b) = ((list & 0xF) as u8, ((list >> 4) & 0xF) as u8);
    if inversions.is_multiple_of(2) {
        out[10] = a;
        out[11] = b;
    } else {
        out[10] = b;
        out[11] = a;
    }
    out
}

/// Lehmer rank of a permutation of `0..12` (`0..12!`), allocation-free: the
/// digits of the first eleven entries in mixed radix 12, 11, ..., 2, as
/// [`even_rank12`]. Agrees with [`perm_rank`].
#[inline]
pub fn rank12(p: &[u8; 12]) -> u64 {
    let mut used = 0u32;
    let mut r = 0u64;
    for (i, &v) in p.iter().take(11).enumerate() {
        let smaller_unused = u32::from(v) - u32::from(ONES12[(used & ((1u32 << v) - 1)) as usize]);
        r = r * (12 - i as u64) + u64::from(smaller_unused);
        used |= 1 << v;
    }
    r
}

/// Inverse of [`rank12`], unused values kept as a list of nibbles as in
/// [`even_unrank12`].
#[inline]
pub fn unrank12(mut r: u64) -> [u8; 12] {
    let mut digits = [0u32; 11];
    for i in (0..11).rev() {
        let base = 12 - i as u64;
        digits[i] = (r % base) as u32;
        r /= base;
    }
    let mut list: u64 = 0xBA98_7654_3210;
    let mut out = [0u8; 12];
    for (i, &d) in digits.iter().enumerate() {
        let sh = 4 * d;
        out[i] = ((list >> sh) & 0xF) as u8;
        let low = list & ((1u64 << sh) - 1);
        list = low | ((list >> (sh + 4)) << sh);
    }
    out[11] = (list & 0xF) as u8;
    out
}

/// C(n, k) for n < 16, k < 5 (the common case of the coordinates' ranks).
const BINOM: [[u64; 5]; 16] = {
    let mut t = [[0u64; 5]; 16];
    let mut n = 0;
    while n < 16 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 5 && k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// Two classes of twelve slots followed relative to each other (the 4x4x4's
/// high and low wings, the 5x5x5's high wings and midges): `sigma[h]` is
/// the slot in the second class of the piece that goes with the one in slot
/// `h` of the first. `first[d]` and `second[d]` are piece `d`'s slots.
pub fn relative12(first: &[u8; 12], second: &[u8; 12]) -> [u8; 12] {
    let mut s = [0u8; 12];
    for d in 0..12 {
        s[first[d] as usize] = second[d];
    }
    s
}

/// `sigma` of [`relative12`] after a move that takes slot `h` of the first
/// class to `first[h]` and slot `k` of the second to `second[k]`:
/// `second . sigma . first^-1`.
#[inline]
pub fn relative12_moved(sigma: &[u8; 12], first: &[u8; 12], second: &[u8; 12]) -> [u8; 12] {
    let mut out = [0u8; 12];
    for h in 0..12 {
        out[first[h] as usize] = second[sigma[h] as usize];
    }
    out
}

/// The binomial coefficient C(n, k) (0 when k > n).
#[inline]
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        0
    } else if n < 16 && k < 5 {
        BINOM[n as usize][k as usize]
    } else {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `choose` against Pascal's triangle, made by additions.
    #[test]
    fn choose_is_pascals_triangle() {
        let t = crate::projection::binomials(30);
        for n in 0..=30u64 {
            for k in 0..=32u64 {
                let want = if k <= n { t[n as usize][k as usize] } else { 0 };
                assert_eq!(choose(n, k), want, "C({n}, {k})");
            }
        }
    }

    #[test]
    fn bit_sets_are_every_set_of_k_bits_ascending() {
        for n in [1, 5, 12] {
            for k in 1..=n {
                let want: Vec<u32> = (0u32..1 << n).filter(|x| x.count_ones() == k).collect();
                assert_eq!(bit_sets(n, k), want, "n {n} k {k}");
            }
        }
        // The sizes the split spaces use: C(24, 2k).
        let sizes: Vec<usize> = (1..=4).map(|k| bit_sets(24, 2 * k).len()).collect();
        assert_eq!(sizes, [276, 10626, 134596, 735471]);
    }

    #[test]
    fn perm_round_trip() {
        for r in 0..factorial(6) {
            let p = perm_unrank(r, 6);
            assert_eq!(perm_rank(&p), r);
        }
        // Every permutation of 8, and the first and last of 16 (the nibble
        // list's edge: the 16th value removed last).
        let mut seen = std::collections::HashSet::new();
        for r in 0..factorial(8) {
            let p = perm_unrank(r, 8);
            assert_eq!(perm_rank(&p), r);
            seen.insert(p);
        }
        assert_eq!(seen.len(), 40320);
        let first: Vec<u8> = (0..16).collect();
        let last: Vec<u8> = (0..16).rev().collect();
        assert_eq!(perm_unrank(0, 16), first);
        assert_eq!(perm_unrank(factorial(16) - 1, 16), last);
        assert_eq!(perm_rank(&last), factorial(16) - 1);
        // Past 16 values, the other path.
        let last20: Vec<u8> = (0..20).rev().collect();
        assert_eq!(perm_unrank(factorial(20) - 1, 20), last20);
        let p = perm_unrank(123_456_789_012_345, 20);
        assert_eq!(perm_rank(&p), 123_456_789_012_345);
    }

    #[test]
    fn even_perm_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for r in 0..factorial(6) / 2 {
            let p = even_perm_unrank(r, 6);
            assert!(!is_odd(&p));
            assert_eq!(even_perm_rank(&p), r);
            seen.insert(p);
        }
        assert_eq!(seen.len(), 360);
    }

    #[test]
    fn even12_agrees_with_generic_ranking() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let r = (x % EVEN12) as u32;
            let p = even_unrank12(r);
            assert!(!is_odd(&p));
            assert_eq!(even_rank12(&p), r);
            assert_eq!(even_perm_rank(&p), u64::from(r));
        }
        assert_eq!(even_unrank12(0), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!(
            even_rank12(&even_unrank12(EVEN12 as u32 - 1)),
            EVEN12 as u32 - 1
        );
    }
}
