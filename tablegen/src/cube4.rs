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

use crate::cube::CubeN;
use crate::notation::{Face, Move, MoveKind};
use crate::projection::binomials;
use crate::{ModelError, StateError};

mod pair;
mod sides;
mod split;

pub use pair::{PairAllSpace, PairCentresSpace};
pub use sides::{SideCentresSpace, SidesParityEitherSpace, SidesParitySpace};
pub use split::SplitSpace;

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

#[cfg(test)]
mod tests {
    use super::sides::compress;
    use super::*;
    use crate::bfs::Space;

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
