//! The split of the 4x4x4's dedges into the two wing classes
//! ([`SplitSpace`]): the end of the reduction's second phase.

use super::{Reduction4, Wings};
use crate::bfs::Space;
use crate::cube::CubeN;
use crate::notation::Move;
use crate::perm::BYTE_ONES;
use crate::projection::binomials;

/// Share in a colex rank of the set bits of byte value `x` placed at bit
/// `base`, when `before` set bits come below them (`binom` from [`binomials`]).
pub(super) fn byte_colex_share(binom: &[Vec<u64>], x: usize, base: usize, before: usize) -> u64 {
    let mut r = 0;
    let mut m = x;
    let mut k = before + 1;
    while m != 0 && k < binom[0].len() {
        r += binom[base + m.trailing_zeros() as usize][k];
        m &= m - 1;
        k += 1;
    }
    r
}

/// `k` dedges' wings as `k` unordered pairs of slots, the dedges unlabelled:
/// whether each dedge has one wing in each class (the end of phase 2 of the
/// reduction) depends on nothing else. Ranks: the `2k` slots as a colex-ranked
/// set, times the matching of those slots into pairs ((2k-1)!! ways: the smallest
/// unmatched slot takes the j-th of the others).
pub struct SplitSpace {
    k: usize,
    /// Per move: the image of each of the 24 slots.
    pub moves: Vec<[u8; 24]>,
    /// (2k-1)!!
    matchings: u64,
    /// The 2k-subsets of the 24 slots in colex order.
    sets: Vec<u32>,
    /// Colex rank by bytes: `colex_bytes[i][x][j]` is the share of byte `i`
    /// (value `x`) when `j` set bits come before it.
    colex_bytes: Box<[[[u32; 9]; 256]; 3]>,
}

impl SplitSpace {
    /// The space for `k` dedges (1..=4) under `moves`.
    pub fn new(k: usize, moves: &[Move]) -> SplitSpace {
        let cube = CubeN::new(4);
        let w = Wings::new();
        let mv = moves.iter().map(|&m| w.slot_perm(&cube, m)).collect();
        // Ascending integers with 2k bits set are in colex order.
        let sets = crate::perm::bit_sets(24, 2 * k as u32);
        let binom = binomials(24);
        let mut colex_bytes = Box::new([[[0u32; 9]; 256]; 3]);
        for (i, table) in colex_bytes.iter_mut().enumerate() {
            for (x, row) in table.iter_mut().enumerate() {
                for (j, share) in row.iter_mut().enumerate() {
                    *share = byte_colex_share(&binom, x, 8 * i, j) as u32;
                }
            }
        }
        SplitSpace {
            k,
            colex_bytes,
            moves: mv,
            matchings: (1..=k as u64).map(|i| 2 * i - 1).product(),
            sets,
        }
    }

    /// Rank of `k` slot pairs (in any order, each in any order).
    pub fn rank(&self, pairs: &[(u8, u8)]) -> u64 {
        let mut set = 0u32;
        let mut partner = [0u8; 24];
        for &(a, b) in pairs {
            set |= 1 << a | 1 << b;
            partner[a as usize] = b;
            partner[b as usize] = a;
        }
        let bytes = [set & 0xff, (set >> 8) & 0xff, set >> 16].map(|x| x as usize);
        let before1 = BYTE_ONES[bytes[0]] as usize;
        let before2 = (before1 + BYTE_ONES[bytes[1]] as usize).min(8);
        let colex = self.colex_bytes[0][bytes[0]][0] as u64
            + self.colex_bytes[1][bytes[1]][before1] as u64
            + self.colex_bytes[2][bytes[2]][before2] as u64;
        // Matching: the smallest unmatched slot and the index of its partner among
        // the other unmatched slots, in mixed radix 2k-1, 2k-3, ..., 1.
        let ones = |x: u32| {
            (BYTE_ONES[(x & 0xff) as usize]
                + BYTE_ONES[((x >> 8) & 0xff) as usize]
                + BYTE_ONES[((x >> 16) & 0xff) as usize]) as u64
        };
        let mut left = set;
        let mut r = 0u64;
        let mut unmatched = 2 * pairs.len() as u64;
        while left != 0 {
            let a = left.trailing_zeros();
            left &= left - 1;
            unmatched -= 1;
            let b = partner[a as usize] as u32;
            let j = ones(left & ((1u32 << b) - 1));
            r = r * unmatched + j;
            left &= !(1 << b);
            unmatched -= 1;
        }
        colex * self.matchings + r
    }

    /// The pairs of a rank.
    pub fn unrank(&self, rank: u64, out: &mut [(u8, u8)]) {
        let mut left = self.sets[(rank / self.matchings) as usize];
        let mut r = rank % self.matchings;
        // Digits in radix 1, 3, 5, ... from the least significant end.
        let mut digits = [0u64; 8];
        for i in (0..self.k).rev() {
            let base = 2 * (self.k - i) as u64 - 1;
            digits[i] = r % base;
            r /= base;
        }
        for (i, pair) in out.iter_mut().enumerate().take(self.k) {
            let a = left.trailing_zeros();
            left &= left - 1;
            let mut rest = left;
            for _ in 0..digits[i] {
                rest &= rest - 1;
            }
            let b = rest.trailing_zeros();
            left &= !(1 << b);
            *pair = (a as u8, b as u8);
        }
    }

    /// True if every pair has one slot in each class.
    pub fn is_goal(pairs: &[(u8, u8)]) -> bool {
        pairs.iter().all(|&(a, b)| (a < 12) != (b < 12))
    }
}

impl Space for SplitSpace {
    fn size(&self) -> u64 {
        Reduction4::Split(self.k as u8).size()
    }
    fn goals(&self) -> Vec<u64> {
        let mut pairs = [(0u8, 0u8); 8];
        (0..self.size())
            .filter(|&r| {
                self.unrank(r, &mut pairs[..self.k]);
                SplitSpace::is_goal(&pairs[..self.k])
            })
            .collect()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let k = self.k;
        let mut pairs = [(0u8, 0u8); 8];
        self.unrank(rank, &mut pairs[..k]);
        let mut next = [(0u8, 0u8); 8];
        for p in &self.moves {
            for i in 0..k {
                next[i] = (p[pairs[i].0 as usize], p[pairs[i].1 as usize]);
            }
            if !f(self.rank(&next[..k])) {
                return;
            }
        }
    }
}
