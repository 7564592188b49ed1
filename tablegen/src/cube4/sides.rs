//! The side centres of the 4x4x4 once U/D are staged ([`SideCentresSpace`]),
//! alone and with the wings' parity ([`SidesParitySpace`],
//! [`SidesParityEitherSpace`]).

use super::split::byte_colex_share;
use super::{odd, pairing_moves, Reduction4, Wings};
use crate::bfs::Space;
use crate::cube::CubeN;
use crate::notation::{Face, Move, MoveKind};
use crate::perm::BYTE_ONES;
use crate::projection::binomials;
use crate::ModelError;

/// The centres of faces R F L B, each F-coloured, B-coloured or other.
pub struct SideCentresSpace {
    /// The 16 facelets, bit i of a mask is facelet `cells[i]`.
    pub cells: [usize; 16],
    /// Per move: image of each of the 16 positions.
    pub(super) moves: Vec<[u8; 16]>,
    /// Per move: the image of a mask's low byte and of its high byte (the
    /// search applies moves to masks at every node).
    byte_images: Vec<[[u16; 256]; 2]>,
    /// Colex rank of a 4-bit mask in 16 positions, by bytes: the low byte's
    /// share, then the high byte's share after `k` bits in the low byte.
    colex_lo: [u16; 256],
    colex_hi: [[u16; 5]; 256],
    /// Per pairing-group move: images (for the goal set).
    group: Vec<[u8; 16]>,
    sets4: Vec<u16>,
    sets12: Vec<u16>,
}

/// The bits of `x` where `keep` has ones, packed low.
pub(super) const fn compress(x: u16, keep: u16) -> u16 {
    let mut out = 0;
    let mut k = keep;
    let mut i = 0;
    while k != 0 {
        let b = k.trailing_zeros();
        if x & (1 << b) != 0 {
            out |= 1 << i;
        }
        i += 1;
        k &= k - 1;
    }
    out
}

/// `PEXT8[keep][x]`: the bits of `x` where `keep` has ones, packed low (what
/// x86's `pext` does; by table on every processor): the side centres' rank
/// packs B's mask among the 12 positions F leaves with it, a byte at a time.
/// 64 KB, made at compile time.
static PEXT8: [[u8; 256]; 256] = {
    let mut t = [[0u8; 256]; 256];
    let mut keep = 0;
    while keep < 256 {
        let mut x = 0;
        while x < 256 {
            t[keep][x] = compress(x as u16, keep as u16) as u8;
            x += 1;
        }
        keep += 1;
    }
    t
};

fn expand(x: u16, keep: u16) -> u16 {
    let mut out = 0;
    let mut k = keep;
    let mut i = 0;
    while k != 0 {
        let b = k.trailing_zeros();
        if x & (1 << i) != 0 {
            out |= 1 << b;
        }
        i += 1;
        k &= k - 1;
    }
    out
}

impl SideCentresSpace {
    /// The space under `moves` (which must keep the U/D centres on U/D).
    pub fn new(moves: &[Move]) -> Result<SideCentresSpace, ModelError> {
        use Face::*;
        let cube = CubeN::new(4);
        let mut cells = [0usize; 16];
        let mut k = 0;
        for f in [R, F, L, B] {
            for (r, c) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
                cells[k] = cube.index(f, r, c);
                k += 1;
            }
        }
        let images = |m: Move| -> Result<[u8; 16], ModelError> {
            let perm = cube.perm(m);
            let mut to = [0u8; 16];
            for (j, &c) in cells.iter().enumerate() {
                let src = perm[c] as usize;
                let i = cells
                    .iter()
                    .position(|&x| x == src)
                    .ok_or(ModelError::UdCentresToSides(m))?;
                to[i] = j as u8;
            }
            Ok(to)
        };
        let moves: Vec<[u8; 16]> = moves.iter().map(|&m| images(m)).collect::<Result<_, _>>()?;
        let group = pairing_moves()
            .into_iter()
            .map(images)
            .collect::<Result<_, _>>()?;
        // The 4-sets of n positions in colex (= ascending) order.
        let sets = |n: u32| -> Vec<u16> {
            crate::perm::bit_sets(n, 4)
                .into_iter()
                .map(|x| x as u16)
                .collect()
        };
        let b16 = binomials(16);
        let byte_images = moves
            .iter()
            .map(|p| {
                std::array::from_fn(|half| {
                    std::array::from_fn(|x| Self::permute(p, (x as u16) << (8 * half)))
                })
            })
            .collect();
        let share = |x: usize, base: usize, k: usize| byte_colex_share(&b16, x, base, k) as u16;
        Ok(SideCentresSpace {
            cells,
            moves,
            byte_images,
            colex_lo: std::array::from_fn(|x| share(x, 0, 0)),
            colex_hi: std::array::from_fn(|x| std::array::from_fn(|k| share(x, 8, k))),
            group,
            sets4: sets(16),
            sets12: sets(12),
        })
    }

    /// Colex rank of a mask of 4 of the 16 positions, by table.
    #[inline]
    fn colex4(&self, m: u16) -> usize {
        let lo = (m & 0xff) as usize;
        let hi = (m >> 8) as usize;
        self.colex_lo[lo] as usize + self.colex_hi[hi][BYTE_ONES[lo].min(4) as usize] as usize
    }

    #[cfg(test)]
    pub(super) fn colex(&self, mut m: u16) -> u64 {
        let binom = binomials(16);
        let mut r = 0;
        let mut k = 1;
        while m != 0 && k < 17 {
            r += binom[m.trailing_zeros() as usize][k];
            k += 1;
            m &= m - 1;
        }
        r
    }

    /// Rank of (F mask, B mask): colex of F, then colex of B's mask among the
    /// 12 positions F leaves. Both masks must have 4 bits and not overlap.
    #[inline]
    pub fn rank(&self, f: u16, b: u16) -> u64 {
        let free = !f;
        let (lo, hi) = ((free & 0xff) as usize, (free >> 8) as usize);
        let packed = PEXT8[lo][(b & 0xff) as usize] as u16
            | (PEXT8[hi][(b >> 8) as usize] as u16) << BYTE_ONES[lo];
        // A colex rank does not depend on how many positions there are.
        (self.colex4(f) * 495 + self.colex4(packed)) as u64
    }

    /// Masks of a rank.
    pub fn unrank(&self, r: u64) -> (u16, u16) {
        let f = self.sets4[(r / 495) as usize];
        let b = expand(self.sets12[(r % 495) as usize], !f);
        (f, b)
    }

    pub(super) fn permute(p: &[u8; 16], mut m: u16) -> u16 {
        let mut out = 0;
        while m != 0 {
            out |= 1 << p[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    }

    /// Applies move `i`.
    #[inline]
    pub fn apply(&self, f: u16, b: u16, i: usize) -> (u16, u16) {
        let [lo, hi] = &self.byte_images[i];
        let image = |m: u16| lo[(m & 0xff) as usize] | hi[(m >> 8) as usize];
        (image(f), image(b))
    }

    /// Masks of a facelet state (colours 0..6 as [`CubeN::solved`]).
    pub fn project(&self, state: &[u8]) -> (u16, u16) {
        let mut f = 0;
        let mut b = 0;
        for (i, &c) in self.cells.iter().enumerate() {
            if state[c] == Face::F as u8 {
                f |= 1 << i;
            } else if state[c] == Face::B as u8 {
                b |= 1 << i;
            }
        }
        (f, b)
    }
}

impl Space for SideCentresSpace {
    fn size(&self) -> u64 {
        Reduction4::SideCentres.size()
    }
    fn goals(&self) -> Vec<u64> {
        let cube = CubeN::new(4);
        let start = self.project(&cube.solved());
        let mut seen = std::collections::BTreeSet::from([start]);
        let mut stack = vec![start];
        while let Some((f, b)) = stack.pop() {
            for p in &self.group {
                let n = (Self::permute(p, f), Self::permute(p, b));
                if seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        seen.into_iter().map(|(f, b)| self.rank(f, b)).collect()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let (fm, bm) = self.unrank(rank);
        for i in 0..self.moves.len() {
            let (a, b) = self.apply(fm, bm, i);
            if !f(self.rank(a, b)) {
                return;
            }
        }
    }
}

/// [`SideCentresSpace`] with the parity of the wing permutation: rank
/// `2 * sides_rank + odd`. The sides-stage distance alone does not see the
/// parity, and a state with its side centres staged but an odd wing
/// permutation needs an inner quarter turn, which unstages them: a reduced
/// cube with OLL parity is 1 move away by the sides table and more than ten in
/// truth (the phase-2 search of the 4x4x4 solver used to wander for minutes on
/// it).
pub struct SidesParitySpace {
    /// The side centres.
    pub sides: SideCentresSpace,
    /// Per move: whether it permutes the wings oddly.
    pub odd: Vec<bool>,
}

impl SidesParitySpace {
    /// The space under `moves` (which must keep the U/D centres on U/D).
    pub fn new(moves: &[Move]) -> Result<SidesParitySpace, ModelError> {
        let cube = CubeN::new(4);
        let w = Wings::new();
        Ok(SidesParitySpace {
            sides: SideCentresSpace::new(moves)?,
            odd: moves.iter().map(|&m| odd(&w.slot_perm(&cube, m))).collect(),
        })
    }
}

impl Space for SidesParitySpace {
    fn size(&self) -> u64 {
        Reduction4::SideCentresParity.size()
    }
    fn goals(&self) -> Vec<u64> {
        self.sides.goals().into_iter().map(|g| 2 * g).collect()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let (fm, bm) = self.sides.unrank(rank / 2);
        let parity = rank & 1;
        for (i, &o) in self.odd.iter().enumerate() {
            let (a, b) = self.sides.apply(fm, bm, i);
            if !f(2 * self.sides.rank(a, b) + (parity ^ o as u64)) {
                return;
            }
        }
    }
}

/// [`Reduction4::SideCentresParityEither`]: [`SidesParitySpace`] with the
/// goals turned by `y'` too. The moves are closed under turning by `y`, so
/// the distance of a state `s` to the goals turned by `y'` is that of `s`
/// turned by `y` to the goals: the table holds the least over the two
/// frames, which the 4x4x4's phase 2 (solved in either frame) prunes on.
pub struct SidesParityEitherSpace {
    inner: SidesParitySpace,
    goals: Vec<u64>,
}

impl SidesParityEitherSpace {
    /// The space under `moves` (which must keep the U/D centres on U/D).
    pub fn new(moves: &[Move]) -> Result<SidesParityEitherSpace, ModelError> {
        let inner = SidesParitySpace::new(moves)?;
        let y_inverse = Move {
            face: Face::U,
            kind: MoveKind::Rotation,
            turns: 3,
        };
        let turn = SideCentresSpace::new(&[y_inverse])?;
        let mut goals = inner.goals();
        for g in inner.sides.goals() {
            let (f, b) = turn.unrank(g);
            let (f, b) = turn.apply(f, b, 0);
            goals.push(2 * turn.rank(f, b));
        }
        goals.sort_unstable();
        goals.dedup();
        Ok(SidesParityEitherSpace { inner, goals })
    }
}

impl Space for SidesParityEitherSpace {
    fn size(&self) -> u64 {
        Reduction4::SideCentresParityEither.size()
    }
    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }
    fn for_each_neighbour(&self, rank: u64, f: impl FnMut(u64) -> bool) {
        self.inner.for_each_neighbour(rank, f)
    }
}
