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

/// Lehmer rank of a permutation of `0..p.len()` (lexicographic order).
pub fn perm_rank(p: &[u8]) -> u64 {
    let n = p.len();
    let mut r = 0u64;
    let mut used = 0u32;
    for (i, &v) in p.iter().enumerate() {
        let smaller_unused = v as u32 - (used & ((1u32 << v) - 1)).count_ones();
        r += smaller_unused as u64 * factorial(n - 1 - i);
        used |= 1 << v;
    }
    r
}

/// Inverse of [`perm_rank`].
pub fn perm_unrank(mut r: u64, n: usize) -> Vec<u8> {
    let mut avail: Vec<u8> = (0..n as u8).collect();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let f = factorial(n - 1 - i);
        let k = (r / f) as usize;
        r %= f;
        out.push(avail.remove(k));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perm_round_trip() {
        for r in 0..factorial(6) {
            let p = perm_unrank(r, 6);
            assert_eq!(perm_rank(&p), r);
        }
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
}
