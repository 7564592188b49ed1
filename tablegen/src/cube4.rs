//! 4x4x4 wings for the reduction: the 24 wing slots read off the facelet model,
//! their split into two classes of 12, and the reduction spaces of the catalog.
//!
//! A wing cannot be flipped in its slot, so the ordered pair of its two colours
//! (ordered by the slot's handedness, see [`Wings::new`]) names the piece. The
//! 24 slots fall into two orbits of 12 ("high" and "low") under the pairing
//! group `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>` ([`pairing_moves`]);
//! a quarter turn of F or B, or of an inner slice, moves wings between them
//! (under all outer quarter turns the 24 slots are one orbit). Slots are numbered so that slot
//! `e` (class "high", 0..12) and slot `12 + e` (class "low") are the two wings of
//! dedge `e`; a wing piece is named by its home slot.
//!
//! The spaces ([`Reduction4`]), each a table of the catalog:
//!
//! - [`Reduction4::SideCentres`] (`4x4x4-sides-stage`): the R F L B centres as
//!   F, B or other, once U/D are staged; goal, the 12 arrangements the pairing
//!   group reaches from solved.
//! - [`Reduction4::SideCentresParity`] (`4x4x4-sides-parity`): the same with the
//!   parity of the wing permutation; goal, those arrangements with an even one
//!   (no OLL parity).
//! - [`Reduction4::SideCentresParityEither`] (`4x4x4-sides-parity-either`):
//!   the same, its goal also turned by y' (the least of both frames).
//! - [`Reduction4::Split`] (`4x4x4-wings-split3`): for `k` dedges, the slots of
//!   their two wings as `k` unordered pairs; goal, one slot of each pair in each
//!   class.
//! - [`Reduction4::PairAll`] (`4x4x4-wings-pair`): all 12 dedges as one relative
//!   permutation (high slot -> low slot of the same dedge); goal, every dedge
//!   paired.
//! - [`Reduction4::PairCentres`] (`4x4x4-pair-centres`): the centres, each
//!   axis's staged, with the PLL parity; goal, solved or turned by x2, y2 or
//!   z2, no parity (the pairing group reaches 117,600 of the 686,000 ranks).

use crate::bfs::Space;
use crate::cube::CubeN;
use crate::notation::{Face, Move, MoveKind};
use crate::perm::BYTE_ONES;
use crate::projection::binomials;
use crate::{ModelError, StateError};

/// The wing slots of a 4x4x4 and how moves permute them.
#[derive(Clone, Debug)]
pub struct Wings {
    /// Per slot, its two facelets, ordered by handedness.
    pub slots: [[usize; 2]; 24],
    /// Per facelet, its slot and its place in the slot (0 or 1), if it is a wing facelet.
    where_is: Vec<Option<(u8, u8)>>,
}

impl Default for Wings {
    fn default() -> Self {
        Wings::new()
    }
}

fn cross(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [i32; 3], b: [i32; 3]) -> i32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The pairing group's moves: `U D R L` (any turn), `F2 B2` and the six wide half
/// turns. They keep the wing classes (the slots' two orbits are computed under
/// them) and the U/D, L/R, F/B centre staging.
pub fn pairing_moves() -> Vec<Move> {
    use Face::*;
    let mut v = Vec::new();
    for face in [U, D, R, L] {
        for t in [1, 3, 2] {
            v.push(Move::face(face, t));
        }
    }
    v.push(Move::face(F, 2));
    v.push(Move::face(B, 2));
    for face in Face::ALL {
        v.push(Move::block(face, 2, 2));
    }
    v
}

/// [`pairing_moves`] without `Dw2 Lw2 Bw2`: each is the opposite face's
/// wide half turn and a whole-cube half turn, which a goal closed under
/// x2, y2 and z2 takes care of (the moves the 4x4x4's pairing phase searches).
pub fn pairing_moves_without_dlb_wide() -> Vec<Move> {
    (pairing_moves().into_iter())
        .filter(|&m| !is_dlb_wide(m))
        .collect()
}

/// Whether `m` is a wide turn of D, L or B: the wide turn of the opposite
/// face and a whole-cube turn, which the 4x4x4's reduction phases leave to
/// their goals.
pub fn is_dlb_wide(m: Move) -> bool {
    m.kind == MoveKind::Block(2) && matches!(m.face, Face::D | Face::L | Face::B)
}

impl Wings {
    /// Reads the slots off the facelet model of [`CubeN`] (n = 4).
    ///
    /// The two facelets of a slot are ordered so that `n0 x n1` (their outward
    /// normals) points the way the wing sits off the middle of its edge: a rotation
    /// keeps this, so the order is the same wherever a piece goes.
    pub fn new() -> Wings {
        let cube = CubeN::new(4);
        // Group the wing facelets by cubie position.
        let mut by_pos: Vec<([i32; 3], Vec<usize>)> = Vec::new();
        for f in Face::ALL {
            for (r, c) in [
                (0, 1),
                (0, 2),
                (1, 0),
                (2, 0),
                (3, 1),
                (3, 2),
                (1, 3),
                (2, 3),
            ] {
                let i = cube.index(f, r, c);
                let (p, _) = cube.geometry(i);
                match by_pos.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, v)) => v.push(i),
                    None => by_pos.push((p, vec![i])),
                }
            }
        }
        assert_eq!(by_pos.len(), 24, "24 wing positions");
        let mut raw: Vec<([i32; 3], [usize; 2])> = by_pos
            .into_iter()
            .map(|(p, v)| {
                assert_eq!(v.len(), 2, "two facelets per wing");
                let (_, n0) = cube.geometry(v[0]);
                let (_, n1) = cube.geometry(v[1]);
                if dot(cross(n0, n1), p) > 0 {
                    (p, [v[0], v[1]])
                } else {
                    (p, [v[1], v[0]])
                }
            })
            .collect();
        raw.sort_by_key(|&(_, f)| f);
        // Class orbits under the class-keeping moves, seeded from the first slot.
        let perms: Vec<[u8; 24]> = {
            let tmp = Wings::from_slots(&cube, raw.iter().map(|r| r.1).collect());
            pairing_moves()
                .iter()
                .map(|&m| tmp.slot_perm(&cube, m))
                .collect()
        };
        let mut class = [u8::MAX; 24];
        let mut next = 0u8;
        for seed in 0..24 {
            if class[seed] != u8::MAX {
                continue;
            }
            class[seed] = next;
            let mut stack = vec![seed];
            while let Some(s) = stack.pop() {
                for p in &perms {
                    let t = p[s] as usize;
                    if class[t] == u8::MAX {
                        class[t] = next;
                        stack.push(t);
                    }
                }
            }
            next += 1;
        }
        assert_eq!(next, 2, "two wing classes");
        // Dedges: the two wings of an edge share their position off the edge axis.
        let edge_key = |p: [i32; 3]| p.map(|x| if x.abs() == 1 { 0 } else { x });
        let mut keys: Vec<[i32; 3]> = raw.iter().map(|r| edge_key(r.0)).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 12, "12 dedges");
        let mut slots = [[0usize; 2]; 24];
        for (i, (p, f)) in raw.iter().enumerate() {
            let e = keys.binary_search(&edge_key(*p)).expect("edge key");
            slots[e + 12 * class[i] as usize] = *f;
        }
        Wings::from_slots(&cube, slots.to_vec())
    }

    fn from_slots(cube: &CubeN, slots: Vec<[usize; 2]>) -> Wings {
        let mut where_is = vec![None; cube.facelets()];
        let mut arr = [[0usize; 2]; 24];
        for (s, f) in slots.iter().enumerate() {
            arr[s] = *f;
            where_is[f[0]] = Some((s as u8, 0));
            where_is[f[1]] = Some((s as u8, 1));
        }
        Wings {
            slots: arr,
            where_is,
        }
    }

    /// Where each slot's piece goes: `to[s]` is the slot the piece in `s` is moved
    /// to. Panics if the move flips a wing (it cannot on a real cube).
    pub fn slot_perm(&self, cube: &CubeN, mv: Move) -> [u8; 24] {
        let perm = cube.perm(mv);
        let mut to = [0u8; 24];
        for (t, f) in self.slots.iter().enumerate() {
            let (s, k) = self.where_is[perm[f[0]] as usize].expect("wing facelet");
            let (s1, k1) = self.where_is[perm[f[1]] as usize].expect("wing facelet");
            assert!(s == s1 && k == 0 && k1 == 1, "a move flipped a wing");
            to[s as usize] = t as u8;
        }
        to
    }

    /// The piece in each slot (`piece[slot]`, a piece named by its home slot) of a
    /// facelet state whose face colours are those of [`CubeN::solved`]; an error if
    /// two slots show the same piece or a colour pair no wing has.
    pub fn read(&self, state: &[u8]) -> Result<[u8; 24], StateError> {
        let home: Vec<(u8, u8)> = self.slots.iter().map(facelet_colours).collect();
        let mut out = [0u8; 24];
        let mut seen = [false; 24];
        for (s, f) in self.slots.iter().enumerate() {
            let got = (state[f[0]], state[f[1]]);
            let shows = || format!("{}{}", letter(got.0), letter(got.1));
            let p = home
                .iter()
                .position(|&h| h == got)
                .ok_or_else(|| StateError::UnknownWing {
                    facelets: *f,
                    shows: shows(),
                })?;
            if seen[p] {
                return Err(StateError::WingTwice(shows()));
            }
            seen[p] = true;
            out[s] = p as u8;
        }
        Ok(out)
    }
}

fn letter(c: u8) -> char {
    Face::ALL.get(c as usize).map_or('?', |f| f.letter())
}

/// Solved colours of a slot's two facelets (the colour of a facelet is its face).
fn facelet_colours(f: &[usize; 2]) -> (u8, u8) {
    ((f[0] / 16) as u8, (f[1] / 16) as u8)
}

/// Parity of a permutation (true = odd).
pub use crate::perm::is_odd as odd;

/// A wing space of the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction4 {
    /// All 12 dedges paired: the relative permutation (high slot -> low slot of
    /// the same dedge), always even.
    PairAll,
    /// `k` dedges split: the slots of their two wings as `k` unordered pairs
    /// (dedges unlabelled); goal: each pair has one slot in each class.
    Split(u8),
    /// The centres of R F L B (U/D staged) as F, B or other: goal, the arrangements
    /// the pairing group reaches from solved.
    SideCentres,
    /// [`Reduction4::SideCentres`] with the parity of the wing permutation: goal,
    /// those arrangements with an even wing permutation.
    SideCentresParity,
    /// [`Reduction4::SideCentresParity`] whose goal is also turned by `y'`:
    /// per state, the least of its distance as it is and turned by `y` (a
    /// bound for either frame at once).
    SideCentresParityEither,
    /// The centres (U/D, L/R, F/B each staged on its axis, as in
    /// [`crate::projection::centres_solve`]) with the PLL parity (corner permutation against
    /// the high wings'): goal, solved or turned by x2, y2 or z2, no parity.
    PairCentres,
}

impl Reduction4 {
    /// Text for the table definition.
    pub fn describe(self) -> String {
        match self {
            Reduction4::SideCentres => {
                "4x4x4-centres R,F,L,B as F/B/other rank=colex(F,16c4)*495+colex(B among the rest,12c4) goal=pairing-group orbit of solved".into()
            }
            Reduction4::SideCentresParity => {
                "4x4x4-centres R,F,L,B as F/B/other with wing parity rank=(colex(F,16c4)*495+colex(B among the rest,12c4))*2+parity goal=pairing-group orbit of solved, even".into()
            }
            Reduction4::SideCentresParityEither => {
                "4x4x4-centres R,F,L,B as F/B/other with wing parity rank=(colex(F,16c4)*495+colex(B among the rest,12c4))*2+parity goal=pairing-group orbit of solved and its turn by y', even".into()
            }
            Reduction4::PairCentres => {
                "4x4x4-centres U/D, R/L, F/B staged, with PLL parity rank=((colex(U,8c4)*70+colex(R,8c4))*70+colex(F,8c4))*2+(odd corners xor odd high wings) goal=solved, x2, y2, z2, even".into()
            }
            Reduction4::PairAll => {
                "4x4x4-wings pairing all 12 rank=even-lehmer(high slot -> low slot of the same dedge)"
                    .into()
            }
            Reduction4::Split(k) => format!(
                "4x4x4-wings split k={k} rank=colex(slots,24c{})*(2k-1)!!+matching(smallest with the j-th other)",
                2 * k
            ),
        }
    }

    /// Number of ranks.
    pub fn size(self) -> u64 {
        match self {
            Reduction4::SideCentres => 1820 * 495,
            Reduction4::SideCentresParity => 2 * 1820 * 495,
            Reduction4::PairCentres => 2 * 70 * 70 * 70,
            Reduction4::SideCentresParityEither => 2 * 1820 * 495,
            Reduction4::PairAll => crate::perm::EVEN12,
            Reduction4::Split(k) => {
                let b = binomials(24);
                b[24][2 * k as usize] * (1..=k as u64).map(|i| 2 * i - 1).product::<u64>()
            }
        }
    }
}

/// The images of the 12 high slots and of the 12 low slots under one move (each
/// numbered 0..12 within its class).
pub type ClassImages = ([u8; 12], [u8; 12]);

/// Per move, its [`ClassImages`]; an error if a move mixes the classes.
fn class_images(moves: &[Move]) -> Result<Vec<ClassImages>, ModelError> {
    let cube = CubeN::new(4);
    let w = Wings::new();
    moves
        .iter()
        .map(|&m| {
            let p = w.slot_perm(&cube, m);
            let mut hi = [0u8; 12];
            let mut lo = [0u8; 12];
            for e in 0..12 {
                if p[e] >= 12 || p[e + 12] < 12 {
                    return Err(ModelError::MixesClasses(m));
                }
                hi[e] = p[e];
                lo[e] = p[e + 12] - 12;
            }
            Ok((hi, lo))
        })
        .collect()
}

/// The pairing of all 12 dedges as one permutation: `sigma[h]` is the low slot
/// holding the low wing of the dedge whose high wing is in high slot `h`. Paired
/// is `sigma = identity`; relabelling the dedges leaves `sigma` unchanged, and a
/// move with slot images `(hi, lo)` maps it to `lo . sigma . hi^-1`. Under the
/// pairing group both classes are permuted with the same parity, so `sigma` stays
/// even: 12!/2 ranks.
pub struct PairAllSpace {
    /// Per move: images of the 12 high slots and of the 12 low slots (0..12 each).
    pub moves: Vec<([u8; 12], [u8; 12])>,
}

impl PairAllSpace {
    /// The space under `moves`; an error if a move mixes the wing classes.
    pub fn new(moves: &[Move]) -> Result<PairAllSpace, ModelError> {
        let mv = class_images(moves)?;
        if let Some((_, &m)) = mv.iter().zip(moves).find(|((h, l), _)| odd(h) != odd(l)) {
            return Err(ModelError::ClassParities(m));
        }
        Ok(PairAllSpace { moves: mv })
    }

    /// `sigma` of a state given, per dedge, the high slot of its high wing and
    /// the low slot of its low wing; None if `sigma` is odd (not in the space).
    pub fn sigma(hi: &[u8; 12], lo: &[u8; 12]) -> Option<[u8; 12]> {
        let mut s = [0u8; 12];
        for d in 0..12 {
            s[hi[d] as usize] = lo[d];
        }
        (!odd(&s)).then_some(s)
    }

    /// `sigma` after move `i`.
    #[inline]
    pub fn apply(&self, sigma: &[u8; 12], i: usize) -> [u8; 12] {
        let (hi, lo) = &self.moves[i];
        let mut out = [0u8; 12];
        for h in 0..12 {
            out[hi[h] as usize] = lo[sigma[h] as usize];
        }
        out
    }

    /// Rank of an even `sigma`.
    #[inline]
    pub fn rank(sigma: &[u8; 12]) -> u64 {
        u64::from(crate::perm::even_rank12(sigma))
    }

    /// The `sigma` of a rank.
    #[inline]
    pub fn unrank(rank: u64) -> [u8; 12] {
        crate::perm::even_unrank12(rank as u32)
    }
}

impl Space for PairAllSpace {
    fn size(&self) -> u64 {
        crate::perm::EVEN12
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let s = Self::unrank(rank);
        for i in 0..self.moves.len() {
            if !f(Self::rank(&self.apply(&s, i))) {
                return;
            }
        }
    }
}

/// Share in a colex rank of the set bits of byte value `x` placed at bit
/// `base`, when `before` set bits come below them (`binom` from [`binomials`]).
fn byte_colex_share(binom: &[Vec<u64>], x: usize, base: usize, before: usize) -> u64 {
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

/// A uniformly random 4x4x4 state (facelets, colours as [`CubeN::solved`]) from a
/// seed: corners as a random 3x3x3's (any permutation, twists summing to 0), a
/// uniformly random permutation of the 24 wings, and a uniformly random
/// arrangement of the 24 centre facelets. On a 4x4x4 these are independent (the
/// centres of one colour are interchangeable, so no parity links them).
pub fn random_state(seed: u64) -> Vec<u8> {
    let cube = CubeN::new(4);
    let mut x = seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut s = cube.solved();
    // Corners from a random 3x3x3 (its facelet (face, r, c) with r, c in {0, 2}).
    let c3 = crate::cube3::random_cube(seed ^ 0x5EED).to_facelets();
    for f in 0..6 {
        for r in [0, 2] {
            for c in [0, 2] {
                s[cube.index(Face::ALL[f], r / 2 * 3, c / 2 * 3)] = c3[f * 9 + r * 3 + c];
            }
        }
    }
    // Wings: piece p (named by its home slot) in slot perm[p].
    let w = Wings::new();
    let solved = cube.solved();
    let mut perm: Vec<usize> = (0..24).collect();
    for i in (1..24).rev() {
        perm.swap(i, next(i + 1));
    }
    for (p, &slot) in perm.iter().enumerate() {
        for k in 0..2 {
            s[w.slots[slot][k]] = solved[w.slots[p][k]];
        }
    }
    // Centres: a random arrangement of the 24 centre colours.
    let cells: Vec<usize> = Face::ALL
        .iter()
        .flat_map(|&f| [(1, 1), (1, 2), (2, 1), (2, 2)].map(|(r, c)| cube.index(f, r, c)))
        .collect();
    let mut colours: Vec<u8> = cells.iter().map(|&i| solved[i]).collect();
    for i in (1..colours.len()).rev() {
        colours.swap(i, next(i + 1));
    }
    for (&i, &c) in cells.iter().zip(&colours) {
        s[i] = c;
    }
    s
}

/// The centres of faces R F L B, each F-coloured, B-coloured or other.
pub struct SideCentresSpace {
    /// The 16 facelets, bit i of a mask is facelet `cells[i]`.
    pub cells: [usize; 16],
    /// Per move: image of each of the 16 positions.
    moves: Vec<[u8; 16]>,
    /// Per move: the image of a mask's low byte and of its high byte (the
    /// search applies moves to masks at every node).
    byte_images: Vec<[[u16; 256]; 2]>,
    /// Colex rank of a 4-bit mask in 16 positions, by bytes: the low byte's
    /// share, then the high byte's share after `k` bits in the low byte.
    colex_lo: [u16; 256],
    colex_hi: [[u16; 5]; 256],
    /// `pext8[keep][x]`: the bits of `x` where `keep` has ones, packed
    /// low (what x86's `pext` does; by table on every processor): B's mask
    /// among the 12 positions F leaves, a byte at a time.
    pext8: Box<[[u8; 256]; 256]>,
    /// Per pairing-group move: images (for the goal set).
    group: Vec<[u8; 16]>,
    sets4: Vec<u16>,
    sets12: Vec<u16>,
}

/// The bits of `x` where `keep` has ones, packed low.
fn compress(x: u16, keep: u16) -> u16 {
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
        let sets = |n: u32| {
            (0u32..1 << n)
                .filter(|x| x.count_ones() == 4)
                .map(|x| x as u16)
                .collect::<Vec<_>>()
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
        let mut pext8 = Box::new([[0u8; 256]; 256]);
        for (keep, row) in pext8.iter_mut().enumerate() {
            for (x, out) in row.iter_mut().enumerate() {
                *out = compress(x as u16, keep as u16) as u8;
            }
        }
        Ok(SideCentresSpace {
            cells,
            moves,
            byte_images,
            colex_lo: std::array::from_fn(|x| share(x, 0, 0)),
            colex_hi: std::array::from_fn(|x| std::array::from_fn(|k| share(x, 8, k))),
            pext8,
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
    fn colex(&self, mut m: u16) -> u64 {
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
        let packed = self.pext8[lo][(b & 0xff) as usize] as u16
            | (self.pext8[hi][(b >> 8) as usize] as u16) << BYTE_ONES[lo];
        // A colex rank does not depend on how many positions there are.
        (self.colex4(f) * 495 + self.colex4(packed)) as u64
    }

    /// Masks of a rank.
    pub fn unrank(&self, r: u64) -> (u16, u16) {
        let f = self.sets4[(r / 495) as usize];
        let b = expand(self.sets12[(r % 495) as usize], !f);
        (f, b)
    }

    fn permute(p: &[u8; 16], mut m: u16) -> u16 {
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

/// [`Reduction4::PairCentres`]: the staged centres and the PLL parity under
/// moves that keep the wing classes (the pairing group's): the centre bound
/// of the 4x4x4's last reduction phase. A move takes each block's digit to
/// its image ([`crate::projection::FaceletMaskSpace::digit_moves`]) and flips
/// the parity if it permutes the corners and the high wings with different
/// parities.
pub struct PairCentresSpace {
    radices: Vec<u64>,
    /// Per move, per block, the image of each digit.
    digits: Vec<Vec<Vec<u32>>>,
    /// Per move: whether it flips the PLL parity.
    flips: Vec<bool>,
    goals: Vec<u64>,
}

impl PairCentresSpace {
    /// The space under `moves` (each must keep the wing classes and the
    /// centres on their axes).
    pub fn new(moves: &[Move]) -> Result<PairCentresSpace, ModelError> {
        let cube = CubeN::new(4);
        let space = crate::projection::build(
            &crate::projection::centres_solve(4, crate::projection::Orbit::AllCentres),
            moves,
        )?;
        let digits = (0..moves.len())
            .map(|m| space.digit_moves(m))
            .collect::<Option<Vec<_>>>()
            .ok_or(ModelError::NotDense)?;
        let images = class_images(moves)?;
        let flips = moves
            .iter()
            .zip(&images)
            .map(|(&m, (hi, _))| {
                let mut s = cube.solved();
                cube.apply(&mut s, m);
                let (cp, _) = crate::corners::read_corners(&cube, &s, &[0, 1, 2, 3, 4, 5])
                    .map_err(|_| ModelError::Blocks(m))?;
                Ok(odd(&cp) != odd(hi))
            })
            .collect::<Result<Vec<bool>, ModelError>>()?;
        let marked = [true, true, true, false, false, false];
        let mut goals: Vec<u64> = [None, Some(Face::U), Some(Face::R), Some(Face::F)]
            .into_iter()
            .map(|face| {
                let mut s = cube.solved();
                if let Some(face) = face {
                    cube.apply(
                        &mut s,
                        Move {
                            face,
                            kind: crate::notation::MoveKind::Rotation,
                            turns: 2,
                        },
                    );
                }
                2 * space.rank(space.project(&s, &marked))
            })
            .collect();
        goals.sort_unstable();
        goals.dedup();
        Ok(PairCentresSpace {
            radices: space.radices(),
            digits,
            flips,
            goals,
        })
    }
}

impl Space for PairCentresSpace {
    fn size(&self) -> u64 {
        Reduction4::PairCentres.size()
    }
    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let parity = rank & 1;
        let mut digits = [0usize; 3];
        let mut x = rank / 2;
        for b in (0..3).rev() {
            digits[b] = (x % self.radices[b]) as usize;
            x /= self.radices[b];
        }
        for (dm, &flip) in self.digits.iter().zip(&self.flips) {
            let r = (0..3).fold(0, |r, b| r * self.radices[b] + u64::from(dm[b][digits[b]]));
            if !f(2 * r + (parity ^ flip as u64)) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_classes_and_reading() {
        let cube = CubeN::new(4);
        let w = Wings::new();
        let solved = cube.solved();
        let ident: Vec<u8> = (0..24).collect();
        assert_eq!(w.read(&solved).unwrap().to_vec(), ident);
        // The two wings of a dedge show the same two colours.
        for e in 0..12 {
            let a = facelet_colours(&w.slots[e]);
            let b = facelet_colours(&w.slots[e + 12]);
            assert!(a == b || a == (b.1, b.0), "dedge {e}");
        }
        // Moves: reading after the move = slot permutation applied to the pieces.
        for m in CubeN::block_turns(2) {
            let mut s = solved.clone();
            cube.apply(&mut s, m);
            let p = w.slot_perm(&cube, m);
            let got = w.read(&s).unwrap();
            for slot in 0..24 {
                assert_eq!(got[p[slot] as usize], slot as u8, "{m}");
            }
            let quarter_inner = m.deepest_layer() == Some(2) && m.turns != 2;
            let crossing = (0..24)
                .filter(|&s| (s < 12) != ((p[s] as usize) < 12))
                .count();
            let keeps = pairing_moves().contains(&m);
            assert_eq!(crossing == 0, keeps, "{m}: {crossing} wings change class");
            // An outer quarter turn moves 8 wings in two 4-cycles (even); an inner
            // slice quarter adds a third 4-cycle (odd).
            assert_eq!(odd(&p), quarter_inner, "{m}");
        }
    }

    #[test]
    fn random_states_are_valid_and_spread() {
        let cube = CubeN::new(4);
        let w = Wings::new();
        let mut odd_wings = 0;
        for seed in 0..300 {
            let s = random_state(seed);
            crate::validate::validate(&cube, &s).unwrap();
            let piece = w.read(&s).unwrap();
            odd_wings += odd(&piece) as usize;
        }
        // Both wing parities occur (about half each).
        assert!((100..200).contains(&odd_wings), "{odd_wings}");
        assert_ne!(random_state(1), random_state(2));
    }

    #[test]
    fn split_rank_roundtrip() {
        // C(24, 2k) sets times (2k-1)!! matchings.
        for (k, size) in [(1, 276), (2, 31_878), (3, 2_018_940), (4, 77_224_455)] {
            let sp = SplitSpace::new(k, &pairing_moves());
            assert_eq!(sp.size(), size);
            let mut pairs = vec![(0u8, 0u8); k];
            for r in (0..sp.size()).step_by(size as usize / 20_000 + 1) {
                sp.unrank(r, &mut pairs);
                assert_eq!(sp.rank(&pairs), r);
                // Any order of the pairs and within them gives the same rank.
                pairs.reverse();
                pairs[0] = (pairs[0].1, pairs[0].0);
                assert_eq!(sp.rank(&pairs), r);
            }
        }
    }

    #[test]
    fn side_centres_rank_is_colex_of_f_then_b_among_the_rest() {
        let sp = SideCentresSpace::new(&pairing_moves()).unwrap();
        let mut seen = vec![false; 1820 * 495];
        for r in 0..1820 * 495 {
            let (f, b) = sp.unrank(r);
            assert_eq!(f & b, 0);
            assert_eq!((f.count_ones(), b.count_ones()), (4, 4));
            assert_eq!(sp.rank(f, b), r);
            assert_eq!(
                sp.rank(f, b),
                sp.colex(f) * 495 + sp.colex(compress(b, !f)),
                "rank({f:#x}, {b:#x})"
            );
            seen[r as usize] = true;
            for i in 0..sp.moves.len() {
                let p = &sp.moves[i];
                assert_eq!(
                    sp.apply(f, b, i),
                    (
                        SideCentresSpace::permute(p, f),
                        SideCentresSpace::permute(p, b)
                    )
                );
            }
        }
        assert!(seen.iter().all(|&x| x));
    }
}
