//! The 3x3x3 piece model and Kociemba's two-phase coordinates.
//!
//! Corners `URF UFL ULB UBR DFR DLF DBL DRB` and edges `UR UF UL UB DR DF DL DB FR
//! FL BL BR` in Kociemba's order; `cp[slot] = piece`, `co[slot]` = where the
//! piece's U/D sticker sits (0..3), `eo[slot]` = flip. The 18 face moves are read
//! off the facelet model (so they agree with it, and through it with cubing.js),
//! not typed in.

use crate::corners::read_corners;
use crate::cube::CubeN;
use crate::notation::{Face, Move};
use crate::perm::{choose, perm_rank, perm_unrank, perm_unrank_into};
use crate::validate::{orient_centres, read_edges};
use std::sync::OnceLock;

/// A 3x3x3 position at piece level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubieCube {
    /// Corner piece in each slot.
    pub cp: [u8; 8],
    /// Corner twist in each slot.
    pub co: [u8; 8],
    /// Edge piece in each slot.
    pub ep: [u8; 12],
    /// Edge flip in each slot.
    pub eo: [u8; 12],
}

/// Corner slots swapped by the left-right mirror: URF-UFL, ULB-UBR, DFR-DLF,
/// DBL-DRB.
const MIRROR_CORNER: [u8; 8] = [1, 0, 3, 2, 5, 4, 7, 6];
/// Edge slots swapped by the left-right mirror: UR-UL, DR-DL, FR-FL, BL-BR.
const MIRROR_EDGE: [u8; 12] = [2, 1, 0, 3, 6, 5, 4, 7, 9, 8, 11, 10];

/// Move names in index order: face `U R F D L B` times `X X2 X'`.
pub const MOVE_NAMES: [&str; 18] = [
    "U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'", "D", "D2", "D'", "L", "L2", "L'", "B", "B2",
    "B'",
];

/// The move of index `m` (face * 3 + (0 quarter, 1 half, 2 anticlockwise)).
pub fn move_of(m: usize) -> Move {
    Move::face(Face::ALL[m / 3], [1, 2, 3][m % 3])
}

/// One kind of piece: a coordinate that reads only one needs only that
/// kind moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pieces {
    /// The eight corners.
    Corners,
    /// The twelve edges.
    Edges,
}

impl CubieCube {
    /// Solved.
    pub const SOLVED: CubieCube = CubieCube {
        cp: [0, 1, 2, 3, 4, 5, 6, 7],
        co: [0; 8],
        ep: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        eo: [0; 12],
    };

    /// `self` then `other` (both as piece permutations with orientation).
    pub fn multiply(&self, other: &CubieCube) -> CubieCube {
        let mut r = self.multiply_corners(other);
        r.multiply_edges_into(self, other);
        r
    }

    /// [`multiply`](Self::multiply) of the corners only (the edges of the
    /// result are solved): for the work on coordinates that read only the
    /// corners.
    #[inline]
    pub fn multiply_corners(&self, other: &CubieCube) -> CubieCube {
        let mut r = CubieCube::SOLVED;
        for i in 0..8 {
            let j = other.cp[i] as usize;
            r.cp[i] = self.cp[j];
            r.co[i] = (self.co[j] + other.co[i]) % 3;
        }
        r
    }

    /// [`multiply`](Self::multiply) of the edges only (the corners of the
    /// result are solved).
    #[inline]
    pub fn multiply_edges(&self, other: &CubieCube) -> CubieCube {
        let mut r = CubieCube::SOLVED;
        r.multiply_edges_into(self, other);
        r
    }

    /// [`multiply`](Self::multiply) of one kind of piece only.
    #[inline]
    pub fn multiply_pieces(&self, other: &CubieCube, pieces: Pieces) -> CubieCube {
        match pieces {
            Pieces::Corners => self.multiply_corners(other),
            Pieces::Edges => self.multiply_edges(other),
        }
    }

    #[inline]
    fn multiply_edges_into(&mut self, a: &CubieCube, b: &CubieCube) {
        for i in 0..12 {
            let j = b.ep[i] as usize;
            self.ep[i] = a.ep[j];
            self.eo[i] = a.eo[j] ^ b.eo[i];
        }
    }

    /// The inverse position.
    pub fn inverse(&self) -> CubieCube {
        let mut r = CubieCube::SOLVED;
        for i in 0..8 {
            let p = self.cp[i] as usize;
            r.cp[p] = i as u8;
            r.co[p] = (3 - self.co[i]) % 3;
        }
        for i in 0..12 {
            let p = self.ep[i] as usize;
            r.ep[p] = i as u8;
            r.eo[p] = self.eo[i];
        }
        r
    }

    /// `M C M` for the left-right mirror `M` (the reflection that swaps the R and
    /// L faces): the position seen in a mirror held to the R face, with R and L
    /// renamed. It is a legal position; a reflection reverses the turning sense,
    /// so corner twists change sign, flips do not (the tests check it against a
    /// reflection of the facelets).
    pub fn mirror_lr(&self) -> CubieCube {
        let mut r = CubieCube::SOLVED;
        for (i, &j) in MIRROR_CORNER.iter().enumerate() {
            r.cp[i] = MIRROR_CORNER[self.cp[j as usize] as usize];
            r.co[i] = (3 - self.co[j as usize]) % 3;
        }
        for (i, &j) in MIRROR_EDGE.iter().enumerate() {
            r.ep[i] = MIRROR_EDGE[self.ep[j as usize] as usize];
            r.eo[i] = self.eo[j as usize];
        }
        r
    }

    /// Applies move index `m` (0..18).
    pub fn apply_move(&self, m: usize) -> CubieCube {
        self.multiply(&moves()[m])
    }

    /// Reads a 54-facelet state (any whole-cube orientation, centres decide); the
    /// error names the rule that failed.
    pub fn from_facelets(state: &[u8]) -> Result<CubieCube, crate::StateError> {
        let c3 = CubeN::new(3);
        crate::validate::validate(&c3, state)?;
        let (_, turned) = orient_centres(&c3, state)?;
        Ok(Self::read(&c3, &turned))
    }

    fn read(c3: &CubeN, s: &[u8]) -> CubieCube {
        let (cp, co) = read_corners(c3, s, &[0, 1, 2, 3, 4, 5]).expect("validated corners");
        let (ep, eo) = read_edges(c3, s).expect("validated edges");
        CubieCube { cp, co, ep, eo }
    }

    /// Corner twist coordinate, 0..2187 (twists of the first seven corners).
    pub fn twist(&self) -> u16 {
        self.co[..7].iter().fold(0, |a, &t| a * 3 + t as u16)
    }

    /// Edge flip coordinate, 0..2048 (flips of the first eleven edges).
    pub fn flip(&self) -> u16 {
        self.eo[..11].iter().fold(0, |a, &f| a * 2 + f as u16)
    }

    /// UD-slice coordinate, 0..495: which four slots hold the slice edges (FR FL BL
    /// BR, pieces 8..12), as a combination rank; 0 when they are in the slice.
    pub fn slice(&self) -> u16 {
        comb_rank(self.ep.iter().map(|&e| e >= 8))
    }

    /// Corner combination coordinate, 0..70: which four slots hold the D-layer
    /// corners (DFR DLF DBL DRB, pieces 4..8), ranked as [`CubieCube::slice`];
    /// 0 when they are in the D layer. A phase-2 coordinate.
    pub fn corner_comb(&self) -> u16 {
        comb_rank(self.cp.iter().map(|&c| c >= 4))
    }

    /// Corner permutation coordinate, 0..40320.
    pub fn corner_perm(&self) -> u16 {
        perm_rank(&self.cp) as u16
    }

    /// Permutation of the eight U/D edges (phase 2, slice edges in the slice),
    /// 0..40320.
    pub fn ud_edge_perm(&self) -> u16 {
        perm_rank(&self.ep[..8]) as u16
    }

    /// Permutation of the four slice edges inside the slice (phase 2), 0..24.
    pub fn slice_perm(&self) -> u8 {
        let p: Vec<u8> = self.ep[8..].iter().map(|&e| e.wrapping_sub(8)).collect();
        perm_rank(&p) as u8
    }

    /// A cube with the given twist (everything else solved).
    pub fn with_twist(t: u16) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        let mut t = t;
        for i in (0..7).rev() {
            c.co[i] = (t % 3) as u8;
            t /= 3;
        }
        c.co[7] = (3 - c.co[..7].iter().sum::<u8>() % 3) % 3;
        c
    }

    /// A cube with the given flip.
    pub fn with_flip(f: u16) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        for i in 0..11 {
            c.eo[i] = ((f >> (10 - i)) & 1) as u8;
        }
        c.eo[11] = c.eo[..11].iter().sum::<u8>() % 2;
        c
    }

    /// A cube with the given UD-slice coordinate (slice edges in order, the other
    /// edges in order in the remaining slots).
    pub fn with_slice(s: u16) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        fill_comb(&mut c.ep, &comb_unrank::<12>(s), 8);
        c
    }

    /// A cube with the given corner combination (D corners in order, the U
    /// corners in order in the remaining slots).
    pub fn with_corner_comb(x: u16) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        fill_comb(&mut c.cp, &comb_unrank::<8>(x), 4);
        c
    }

    /// A cube with the given corner permutation.
    pub fn with_corner_perm(p: u16) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        perm_unrank_into(p as u64, &mut c.cp);
        c
    }

    /// A cube with the given U/D edge permutation (slice edges home).
    pub fn with_ud_edge_perm(p: u16) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        perm_unrank_into(p as u64, &mut c.ep[..8]);
        c
    }

    /// A cube with the given slice permutation (U/D edges home).
    pub fn with_slice_perm(p: u8) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        for (i, v) in perm_unrank(p as u64, 4).into_iter().enumerate() {
            c.ep[8 + i] = v + 8;
        }
        c
    }

    /// Facelets of this position (centres in place).
    pub fn to_facelets(&self) -> Vec<u8> {
        let c3 = CubeN::new(3);
        let mut s = c3.solved();
        let fac = crate::corners::corner_facelets(&c3);
        for slot in 0..8 {
            let faces = crate::corners::CORNER_FACES[self.cp[slot] as usize];
            for (k, f) in faces.iter().enumerate() {
                s[fac[slot][(k + self.co[slot] as usize) % 3]] = *f as u8;
            }
        }
        let cells = crate::validate::EDGE_CELLS;
        for slot in 0..12 {
            let home = cells[self.ep[slot] as usize];
            for k in 0..2 {
                let (f, r, c) = cells[slot][(k + self.eo[slot] as usize) % 2];
                s[c3.index(f, r, c)] = home[k].0 as u8;
            }
        }
        s
    }
}

/// Rank of the set of four marked slots among `n` (Kociemba's ordering: slots
/// scanned from the last, counting combinations); 0 when the last four are marked.
fn comb_rank(marked: impl DoubleEndedIterator<Item = bool> + ExactSizeIterator) -> u16 {
    let mut r = 0u16;
    let mut k = 3i32;
    let n = marked.len();
    for (slot, m) in (0..n).rev().zip(marked.rev()) {
        if m {
            k -= 1;
        } else if k >= 0 {
            r += choose(slot as u64, k as u64) as u16;
        }
        if k < 0 {
            break;
        }
    }
    r
}

/// The four marked slots of rank `r` (inverse of [`comb_rank`]).
fn comb_unrank<const N: usize>(r: u16) -> [bool; N] {
    let mut marked = [false; N];
    let mut r = r;
    let mut k = 3i32;
    for slot in (0..N).rev() {
        if k < 0 {
            break;
        }
        let b = choose(slot as u64, k as u64) as u16;
        if r >= b {
            r -= b;
        } else {
            marked[slot] = true;
            k -= 1;
        }
    }
    marked
}

/// Puts pieces `first..` in order into the marked slots and `0..` into the
/// others.
fn fill_comb(pieces: &mut [u8], marked: &[bool], first: u8) {
    let (mut next_marked, mut next_other) = (first, 0u8);
    for (p, &m) in pieces.iter_mut().zip(marked) {
        if m {
            *p = next_marked;
            next_marked += 1;
        } else {
            *p = next_other;
            next_other += 1;
        }
    }
}

/// The 18 face moves as cubie cubes, read off the facelet model once.
pub fn moves() -> &'static [CubieCube; 18] {
    static MOVES: OnceLock<[CubieCube; 18]> = OnceLock::new();
    MOVES.get_or_init(|| {
        let c3 = CubeN::new(3);
        std::array::from_fn(|m| {
            let mut s = c3.solved();
            c3.apply(&mut s, move_of(m));
            CubieCube::read(&c3, &s)
        })
    })
}

/// The index (see [`moves`]) of the face move a cubie cube is, if it is one.
pub fn move_index(c: &CubieCube) -> Option<usize> {
    moves().iter().position(|m| m == c)
}

/// A uniformly random solvable cube from a seed (random permutations with equal
/// parity, random orientations with the right sums).
pub fn random_cube(seed: u64) -> CubieCube {
    let mut x = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    loop {
        let mut c = CubieCube::SOLVED;
        for i in (1..8).rev() {
            c.cp.swap(i, next(i as u64 + 1) as usize);
        }
        for i in (1..12).rev() {
            c.ep.swap(i, next(i as u64 + 1) as usize);
        }
        for i in 0..7 {
            c.co[i] = next(3) as u8;
        }
        c.co[7] = (3 - c.co[..7].iter().sum::<u8>() % 3) % 3;
        for i in 0..11 {
            c.eo[i] = next(2) as u8;
        }
        c.eo[11] = c.eo[..11].iter().sum::<u8>() % 2;
        if crate::perm::is_odd(&c.cp) == crate::perm::is_odd(&c.ep) {
            return c;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The left-right reflection of a facelet state: each sticker moves to the
    /// facelet at the mirrored place (x negated, found by geometry alone), and
    /// the R and L colours swap names.
    fn mirror_facelets(s: &[u8]) -> Vec<u8> {
        let c3 = CubeN::new(3);
        let mut out = vec![0u8; s.len()];
        for (i, &colour) in s.iter().enumerate() {
            let (p, n) = c3.geometry(i);
            let image = (0..s.len())
                .find(|&j| c3.geometry(j) == ([-p[0], p[1], p[2]], [-n[0], n[1], n[2]]))
                .expect("every facelet has a mirror image");
            out[image] = match colour {
                c if c == Face::R as u8 => Face::L as u8,
                c if c == Face::L as u8 => Face::R as u8,
                c => c,
            };
        }
        out
    }

    #[test]
    fn mirror_agrees_with_reflected_facelets() {
        for seed in 0..200 {
            let c = random_cube(seed);
            let by_facelets = CubieCube::from_facelets(&mirror_facelets(&c.to_facelets()));
            assert_eq!(by_facelets, Ok(c.mirror_lr()), "seed {seed}");
            assert_eq!(c.mirror_lr().mirror_lr(), c);
        }
        // R is seen as L' in the mirror, U as U', F as F'.
        let names = MOVE_NAMES;
        let image = |m: &str| {
            let i = names.iter().position(|&n| n == m).expect("a move name");
            let c = moves()[i].mirror_lr();
            names[(0..18).find(|&k| moves()[k] == c).expect("a face move")]
        };
        assert_eq!(image("R"), "L'");
        assert_eq!(image("U"), "U'");
        assert_eq!(image("F2"), "F2");
        assert_eq!(image("B"), "B'");
    }

    fn scrambled(seed: u64, len: usize) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        let mut x = seed;
        for _ in 0..len {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            c = c.apply_move((x >> 33) as usize % 18);
        }
        c
    }

    #[test]
    fn moves_match_the_facelet_model() {
        let c3 = CubeN::new(3);
        // Kociemba's R: corners URF<-DFR, UBR<-URF, DRB<-UBR, DFR<-DRB.
        assert_eq!(moves()[3].cp, [4, 1, 2, 0, 7, 5, 6, 3]);
        for seed in 0..50 {
            let c = scrambled(seed, 30);
            let f = c.to_facelets();
            assert_eq!(CubieCube::from_facelets(&f).unwrap(), c);
            for m in 0..18 {
                let mut g = f.clone();
                c3.apply(&mut g, move_of(m));
                assert_eq!(CubieCube::from_facelets(&g).unwrap(), c.apply_move(m));
            }
            assert_eq!(c.multiply(&c.inverse()), CubieCube::SOLVED);
        }
    }

    #[test]
    fn coordinates_round_trip() {
        for t in 0..2187 {
            assert_eq!(CubieCube::with_twist(t).twist(), t);
        }
        for f in 0..2048 {
            assert_eq!(CubieCube::with_flip(f).flip(), f);
        }
        let mut seen = HashSet::new();
        for s in 0..495 {
            let c = CubieCube::with_slice(s);
            assert_eq!(c.slice(), s);
            seen.insert(c.ep.map(|e| e >= 8));
        }
        assert_eq!(seen.len(), 495);
        assert_eq!(CubieCube::SOLVED.slice(), 0);
        let mut seen = HashSet::new();
        for x in 0..70 {
            let c = CubieCube::with_corner_comb(x);
            assert_eq!(c.corner_comb(), x);
            seen.insert(c.cp.map(|p| p >= 4));
        }
        assert_eq!(seen.len(), 70);
        assert_eq!(CubieCube::SOLVED.corner_comb(), 0);
        for p in (0..40320).step_by(7) {
            assert_eq!(CubieCube::with_corner_perm(p).corner_perm(), p);
            assert_eq!(CubieCube::with_ud_edge_perm(p).ud_edge_perm(), p);
        }
        for p in 0..24 {
            assert_eq!(CubieCube::with_slice_perm(p).slice_perm(), p);
        }
    }

    #[test]
    fn phase_two_moves_keep_phase_one_solved() {
        let phase2 = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];
        let mut c = CubieCube::SOLVED;
        for k in 0..200 {
            c = c.apply_move(phase2[(k * 7 + 3) % 10]);
            assert_eq!((c.twist(), c.flip(), c.slice()), (0, 0, 0));
        }
    }

    /// OEIS A080601 at depths 0..3, on the piece model.
    #[test]
    fn htm_counts() {
        let mut seen = HashSet::from([CubieCube::SOLVED]);
        let mut frontier = vec![CubieCube::SOLVED];
        let mut hist = vec![1];
        for _ in 0..3 {
            let mut next = Vec::new();
            for c in &frontier {
                for m in 0..18 {
                    let d = c.apply_move(m);
                    if seen.insert(d) {
                        next.push(d);
                    }
                }
            }
            hist.push(next.len());
            frontier = next;
        }
        assert_eq!(hist, vec![1, 18, 243, 3240]);
    }
}
