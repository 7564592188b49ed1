//! The 5x5x5 tredge pairing in two stages, after the centres are staged for
//! it, the midges oriented and the wings split (`5x5x5-wings-split`):
//!
//! 1. In the pairing group `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2,
//!    Bw2>` ([`crate::cube4::pairing_moves`]), four tredges of the solver's
//!    choice are paired in the E slice. [`ESliceSpace`]: the four midges and
//!    the four wings of one class of those tredges, the tredges taken in the
//!    order of their midges' slots (so any four tredges, in any order, use the
//!    same table). 495 sets of midge slots x 12·11·10·9 wing placements.
//! 2. In `<U, D, R2, L2, F2, B2, Rw2, Lw2, Fw2, Bw2>` ([`last8_moves`]), which
//!    keeps the E-slice tredges paired and no U/D-layer piece leaves its
//!    layers, the other eight are paired. [`Last8Space`]: the high and the low
//!    wings of the eight U/D-layer dedges relative to their midges, two
//!    permutations of eight of equal parity (the group keeps the high wings'
//!    permutation relative to the low ones even), reduced by the symmetries of
//!    the move set (the permutations of the eight slots that conjugate the
//!    moves into moves: the eight turns of the U-D axis that keep it).

use crate::bfs::Space;
use crate::cube5::Tredges;
use crate::notation::{Face, Move};
use crate::perm::choose;
use crate::ModelError;

mod four;
mod last8;
pub use four::*;
pub use last8::*;

/// Colex rank of an ascending set of slots.
#[inline]
fn colex(m: &[u8]) -> u64 {
    m.iter()
        .enumerate()
        .map(|(k, &x)| choose(x as u64, k as u64 + 1))
        .sum()
}

/// Inverse of [`colex`].
fn uncolex<const K: usize>(mut set: u64) -> [u8; K] {
    let mut m = [0u8; K];
    for k in (0..K).rev() {
        let mut x = k as u64;
        while choose(x + 1, k as u64 + 1) <= set {
            x += 1;
        }
        set -= choose(x, k as u64 + 1);
        m[k] = x as u8;
    }
    m
}

/// Rank of a placement of distinct pieces in `n` slots: each piece's slot
/// among those the earlier ones left free, as mixed-radix digits.
#[inline]
fn placement(w: &[u8], n: u64) -> u64 {
    let mut p = 0u64;
    for k in 0..w.len() {
        let below = (0..k).filter(|&j| w[j] < w[k]).count() as u64;
        p = p * (n - k as u64) + (w[k] as u64 - below);
    }
    p
}

/// Inverse of [`placement`].
fn unplacement<const K: usize>(mut p: u64, n: u8) -> [u8; K] {
    let mut digits = [0u64; K];
    for k in (0..K).rev() {
        let base = n as u64 - k as u64;
        digits[k] = p % base;
        p /= base;
    }
    // The values not yet placed, in order, on the stack (a solver unranks
    // whole spaces at load); `n` is 8 or 12, and each digit is below the
    // values left (`p % base`).
    let mut free: [u8; 16] = std::array::from_fn(|i| i as u8);
    let mut left = usize::from(n);
    digits.map(|d| {
        let v = free[d as usize];
        free.copy_within(d as usize + 1..left, d as usize);
        left -= 1;
        v
    })
}

/// [`Space`] for a tredge space with `unrank`, `apply(&state, move)` and
/// `moves`: its size and its goals as given.
macro_rules! tredge_space {
    ($t:ty, $size:expr, |$sp:ident| $goals:expr) => {
        impl $crate::bfs::Space for $t {
            fn size(&self) -> u64 {
                $size
            }

            fn goals(&self) -> Vec<u64> {
                let $sp = self;
                $goals
            }

            fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
                let s = Self::unrank(rank);
                for i in 0..self.moves.len() {
                    if !f(self.apply(&s, i)) {
                        return;
                    }
                }
            }
        }
    };
}
pub(crate) use tredge_space;

/// C(12,4): sets of four midge slots.
pub const E_SETS: u64 = 495;
/// 12·11·10·9: placements of four wings in twelve slots.
pub const E_PLACEMENTS: u64 = 11_880;
/// States of [`ESliceSpace`].
pub const E_SLICE_STATES: u64 = E_SETS * E_PLACEMENTS;

/// The moves of the last stage: `U D` turns, `R2 L2 F2 B2`, `Rw2 Lw2 Fw2 Bw2`.
pub fn last8_moves() -> Vec<Move> {
    use Face::*;
    let mut moves = Vec::new();
    for f in [U, D] {
        for t in [1, 3, 2] {
            moves.push(Move::face(f, t));
        }
    }
    for f in [R, L, F, B] {
        moves.push(Move::face(f, 2));
    }
    for f in [R, L, F, B] {
        moves.push(Move::block(f, 2, 2));
    }
    moves
}

/// Four tredges of the E-slice stage: their midges' slots (ascending) and
/// their wings' slots within the class (in the same order).
pub type Four = ([u8; 4], [u8; 4]);

/// Stage 1 of the pairing (see the module documentation), for the high
/// (`high`) or the low wings.
#[derive(Clone, Debug)]
pub struct ESliceSpace {
    /// Per move: images of the 12 wing slots of the class (0..12) and of the
    /// 12 midge slots (dedge numbering of [`Tredges`]).
    pub moves: Vec<([u8; 12], [u8; 12])>,
    goal: u64,
}

impl ESliceSpace {
    /// The space under `moves`; an error if a move mixes the wing classes or
    /// flips a midge.
    pub fn new(high: bool, moves: &[Move]) -> Result<ESliceSpace, ModelError> {
        let t = Tredges::new();
        let moves = moves
            .iter()
            .map(|&m| {
                let [hi, lo, to] = t.class_move(m)?;
                Ok((if high { hi } else { lo }, to))
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        let mut e = [0u8; 4];
        let mut k = 0;
        for d in 0..12u8 {
            if t.edge_of_dedge[d as usize] >= 8 {
                e[k] = d;
                k += 1;
            }
        }
        Ok(ESliceSpace {
            moves,
            goal: Self::rank(&(e, e)),
        })
    }

    /// Rank of four tredges given in any order: their midge slots and wing
    /// slots (within the class), tredge by tredge.
    pub fn index(mids: &[u8; 4], wings: &[u8; 4]) -> u64 {
        let mut k = [0usize, 1, 2, 3];
        k.sort_unstable_by_key(|&i| mids[i]);
        Self::rank(&(k.map(|i| mids[i]), k.map(|i| wings[i])))
    }

    /// Rank of a standard state: colex rank of the midge set times the
    /// placements, plus the placement's rank (each wing's slot among those
    /// the earlier ones left free).
    pub fn rank(s: &Four) -> u64 {
        colex(&s.0) * E_PLACEMENTS + placement(&s.1, 12)
    }

    /// Inverse of [`ESliceSpace::rank`].
    pub fn unrank(r: u64) -> Four {
        (uncolex(r / E_PLACEMENTS), unplacement(r % E_PLACEMENTS, 12))
    }

    /// The state after move `i`, standardised.
    pub fn apply(&self, s: &Four, i: usize) -> u64 {
        let (wm, mm) = &self.moves[i];
        Self::index(&s.0.map(|x| mm[x as usize]), &s.1.map(|x| wm[x as usize]))
    }

    /// The goal: the four E-slice dedges' midges, each with its wing.
    pub fn goal(&self) -> u64 {
        self.goal
    }
}

tredge_space!(ESliceSpace, E_SLICE_STATES, |sp| vec![sp.goal]);

/// C(12,3) x (12·11·10)²: states of [`ETripleSpace`].
pub const E_TRIPLE_STATES: u64 = 220 * 1320 * 1320;

/// Three tredges of the E-slice stage: their midges' slots (ascending) and
/// their high and low wings' slots within the class (in the same order).
pub type Three = ([u8; 3], [u8; 3], [u8; 3]);

/// Three tredges' midges with both their wings, in the pairing group: goal,
/// all three paired in the E slice (any three of its four slots). The
/// E-slice stage's bound takes the largest over the four threes of its four
/// tredges.
#[derive(Clone, Debug)]
pub struct ETripleSpace {
    /// Per move: images of the 12 high slots, the 12 low slots (within the
    /// class) and the 12 midge slots.
    pub moves: Vec<[[u8; 12]; 3]>,
    goals: Vec<u64>,
}

impl ETripleSpace {
    /// The space under `moves`; an error if a move mixes the wing classes or
    /// flips a midge.
    pub fn new(moves: &[Move]) -> Result<ETripleSpace, ModelError> {
        let hi = ESliceSpace::new(true, moves)?;
        let lo = ESliceSpace::new(false, moves)?;
        let moves: Vec<[[u8; 12]; 3]> = hi
            .moves
            .iter()
            .zip(&lo.moves)
            .map(|(h, l)| [h.0, l.0, h.1])
            .collect();
        let e = ESliceSpace::unrank(hi.goal()).0;
        let goals = (0..4)
            .map(|skip| {
                let mut m = [0u8; 3];
                let mut k = 0;
                for (i, &x) in e.iter().enumerate() {
                    if i != skip {
                        m[k] = x;
                        k += 1;
                    }
                }
                Self::rank(&(m, m, m))
            })
            .collect();
        Ok(ETripleSpace { moves, goals })
    }

    /// Rank of three tredges given in any order: midge slots, high and low
    /// wing slots (within the class), tredge by tredge.
    #[inline]
    pub fn index(mids: [u8; 3], hi: [u8; 3], lo: [u8; 3]) -> u64 {
        let mut k = [0usize, 1, 2];
        k.sort_unstable_by_key(|&i| mids[i]);
        Self::rank(&(k.map(|i| mids[i]), k.map(|i| hi[i]), k.map(|i| lo[i])))
    }

    /// Rank of a standard state: colex rank of the midge set, then the high
    /// and the low placements.
    #[inline]
    pub fn rank(s: &Three) -> u64 {
        (colex(&s.0) * 1320 + placement(&s.1, 12)) * 1320 + placement(&s.2, 12)
    }

    /// Inverse of [`ETripleSpace::rank`].
    pub fn unrank(r: u64) -> Three {
        (
            uncolex(r / (1320 * 1320)),
            unplacement(r / 1320 % 1320, 12),
            unplacement(r % 1320, 12),
        )
    }

    /// The state after move `i`, standardised.
    #[inline]
    pub fn apply(&self, s: &Three, i: usize) -> u64 {
        let [h, l, m] = &self.moves[i];
        Self::index(
            s.0.map(|x| m[x as usize]),
            s.1.map(|x| h[x as usize]),
            s.2.map(|x| l[x as usize]),
        )
    }

    /// The goals: three E-slice dedges' midges, each with its wings.
    pub fn goal_ranks(&self) -> &[u64] {
        &self.goals
    }
}

tredge_space!(ETripleSpace, E_TRIPLE_STATES, |sp| sp.goals.clone());

/// F/B side-centre arrangements the pairing group reaches (T and X tied).
pub const FB_ARRANGEMENTS: u64 = 432;

/// The side centres (T and X on R, L, F, B) in the pairing group, with the
/// U/D centres on U and D, the R/L ones on R and L, the F/B ones on F and B:
/// per group of eight facelets (T on R and L, X on R and L, T on F and B, X on
/// F and B) which four show R (or F). The group reaches every R/L
/// arrangement (70²) and 432 F/B ones, each with each.
pub const SIDE_STATES: u64 = 70 * 70 * FB_ARRANGEMENTS;

/// The side centres of [`SIDE_STATES`]; goal, the arrangements the last
/// stage's group ([`last8_moves`]) reaches from solved.
#[derive(Clone, Debug)]
pub struct SidesSpace {
    /// The 32 facelets: bit `8g + j` of a state is facelet `positions[8g + j]`.
    pub positions: [usize; 32],
    /// Per move, per byte of the state, the image of each byte value.
    maps: Vec<[[u32; 256]; 4]>,
    /// Colex rank of each 8-bit pattern with four bits set (`u8::MAX` for
    /// the others), and the patterns by rank.
    rank4: [u8; 256],
    unrank4: [u8; 70],
    /// Index of each F/B pattern (the high 16 bits) the group reaches
    /// (`u16::MAX` for the others), and the patterns by index.
    fb_index: Vec<u16>,
    fb: Vec<u16>,
    goals: Vec<u64>,
}

impl SidesSpace {
    /// The space under `moves` (which must keep each group of eight in
    /// itself); the goals from the orbit of solved under `last`.
    pub fn new(moves: &[Move], last: &[Move]) -> Result<SidesSpace, ModelError> {
        use Face::*;
        let cube = crate::cube::CubeN::new(5);
        let t = [(1, 2), (2, 1), (2, 3), (3, 2)];
        let x = [(1, 1), (1, 3), (3, 1), (3, 3)];
        let mut positions = [0usize; 32];
        let mut k = 0;
        for (faces, cells) in [([R, L], t), ([R, L], x), ([F, B], t), ([F, B], x)] {
            for f in faces {
                for (r, c) in cells {
                    positions[k] = cube.index(f, r, c);
                    k += 1;
                }
            }
        }
        let maps_of = |ms: &[Move]| -> Result<Vec<[[u32; 256]; 4]>, ModelError> {
            ms.iter()
                .map(|&m| {
                    let pull = cube.perm(m);
                    // Facelet at bit j goes to the bit of the facelet that pulls it.
                    let mut img = [0u32; 32];
                    for (j, &f) in positions.iter().enumerate() {
                        let dst = (0..cube.facelets())
                            .find(|&i| pull[i] as usize == f)
                            .ok_or(ModelError::NotAPermutation)?;
                        let b = positions
                            .iter()
                            .position(|&p| p == dst)
                            .ok_or(ModelError::SideCentreOff(m))?;
                        if b / 8 != j / 8 {
                            return Err(ModelError::SideCentreGroup(m));
                        }
                        img[j] = b as u32;
                    }
                    let mut maps = [[0u32; 256]; 4];
                    for (byte, map) in maps.iter_mut().enumerate() {
                        for (v, out) in map.iter_mut().enumerate() {
                            *out = (0..8)
                                .filter(|&i| v >> i & 1 == 1)
                                .fold(0, |acc, i| acc | 1 << img[8 * byte + i]);
                        }
                    }
                    Ok(maps)
                })
                .collect()
        };
        let mut rank4 = [u8::MAX; 256];
        let mut unrank4 = [0u8; 70];
        let mut n = 0;
        for (v, r) in rank4.iter_mut().enumerate() {
            if v.count_ones() == 4 {
                *r = n as u8;
                unrank4[n] = v as u8;
                n += 1;
            }
        }
        let mut sp = SidesSpace {
            positions,
            maps: maps_of(moves)?,
            rank4,
            unrank4,
            fb_index: vec![u16::MAX; 1 << 16],
            fb: Vec::new(),
            goals: Vec::new(),
        };
        // The F/B patterns the group reaches (the parts keep to themselves).
        let solved_fb: u32 = 0x0f0f_0000;
        let mut fb = vec![solved_fb];
        sp.fb_index[(solved_fb >> 16) as usize] = 0;
        let mut i = 0;
        while i < fb.len() {
            for m in 0..moves.len() {
                let c = sp.apply(fb[i], m);
                if sp.fb_index[(c >> 16) as usize] == u16::MAX {
                    sp.fb_index[(c >> 16) as usize] = fb.len() as u16;
                    fb.push(c);
                }
            }
            i += 1;
        }
        if fb.len() as u64 != FB_ARRANGEMENTS {
            return Err(ModelError::FbArrangements(fb.len()));
        }
        sp.fb = fb.iter().map(|&c| (c >> 16) as u16).collect();
        sp.maps = maps_of(last)?;
        // Solved: R (or F) on the first face of each group.
        let solved: u32 = 0x0f0f_0f0f;
        let mut seen = std::collections::HashSet::from([solved]);
        let mut all = vec![solved];
        let mut i = 0;
        while i < all.len() {
            for m in 0..last.len() {
                let c = sp.apply(all[i], m);
                if seen.insert(c) {
                    all.push(c);
                }
            }
            i += 1;
        }
        sp.goals = all.iter().map(|&s| sp.rank(s)).collect();
        sp.goals.sort_unstable();
        sp.maps = maps_of(moves)?;
        Ok(sp)
    }

    /// The state of a 5x5x5 facelet array (colours as `CubeN::solved`).
    pub fn project(&self, state: &[u8]) -> u32 {
        let mut m = 0u32;
        for (j, &f) in self.positions.iter().enumerate() {
            let want = if j < 16 { Face::R } else { Face::F };
            if state[f] == want as u8 {
                m |= 1 << j;
            }
        }
        m
    }

    /// The state after move `i`.
    #[inline]
    pub fn apply(&self, s: u32, i: usize) -> u32 {
        let m = &self.maps[i];
        m[0][(s & 255) as usize]
            | m[1][(s >> 8 & 255) as usize]
            | m[2][(s >> 16 & 255) as usize]
            | m[3][(s >> 24) as usize]
    }

    /// Rank of a state (`u64::MAX` for one the group does not reach).
    #[inline]
    pub fn rank(&self, s: u32) -> u64 {
        let t = self.rank4[(s & 255) as usize];
        let x = self.rank4[(s >> 8 & 255) as usize];
        let f = self.fb_index[(s >> 16) as usize];
        if t == u8::MAX || x == u8::MAX || f == u16::MAX {
            return u64::MAX;
        }
        (t as u64 * 70 + x as u64) * FB_ARRANGEMENTS + f as u64
    }

    /// Inverse of [`SidesSpace::rank`].
    pub fn unrank(&self, r: u64) -> u32 {
        let f = self.fb[(r % FB_ARRANGEMENTS) as usize] as u32;
        let rl = r / FB_ARRANGEMENTS;
        self.unrank4[(rl / 70) as usize] as u32
            | (self.unrank4[(rl % 70) as usize] as u32) << 8
            | f << 16
    }

    /// The goal ranks.
    pub fn goal_ranks(&self) -> &[u64] {
        &self.goals
    }
}

impl Space for SidesSpace {
    fn size(&self) -> u64 {
        SIDE_STATES
    }

    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }

    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let s = self.unrank(rank);
        for i in 0..self.maps.len() {
            if !f(self.rank(self.apply(s, i))) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube4::pairing_moves;

    #[test]
    fn placements_round_trip() {
        for p in 0..8 * 7 * 6 * 5 {
            let w: [u8; 4] = unplacement(p, 8);
            assert!(w.iter().all(|&x| x < 8) && (1..4).all(|i| !w[..i].contains(&w[i])));
            assert_eq!(placement(&w, 8), p);
        }
        for p in 0..12 * 11 * 10 {
            let w: [u8; 3] = unplacement(p, 12);
            assert_eq!(placement(&w, 12), p);
        }
    }

    #[test]
    fn e_slice_ranks_round_trip() {
        for r in (0..E_SLICE_STATES).step_by(997) {
            assert_eq!(ESliceSpace::rank(&ESliceSpace::unrank(r)), r);
        }
        assert_eq!(
            ESliceSpace::rank(&ESliceSpace::unrank(E_SLICE_STATES - 1)),
            E_SLICE_STATES - 1
        );
    }

    #[test]
    fn e_triple_ranks_round_trip() {
        for r in (0..E_TRIPLE_STATES).step_by(99_991) {
            assert_eq!(ETripleSpace::rank(&ETripleSpace::unrank(r)), r);
        }
        let sp = ETripleSpace::new(&pairing_moves()).unwrap();
        let mut g = sp.goal_ranks().to_vec();
        g.sort_unstable();
        g.dedup();
        assert_eq!(g.len(), 4);
    }

    #[test]
    fn sides_ranks_and_goals() {
        let sp = SidesSpace::new(&pairing_moves(), &last8_moves()).unwrap();
        for r in (0..SIDE_STATES).step_by(9_973) {
            assert_eq!(sp.rank(sp.unrank(r)), r);
        }
        // The last group's side arrangements (T and X tied).
        assert_eq!(sp.goal_ranks().len(), 36);
        let solved = crate::cube::CubeN::new(5).solved();
        assert_eq!(sp.project(&solved), 0x0f0f_0f0f);
    }

    #[test]
    fn e_slice_moves_are_inverse_pairs() {
        let sp = ESliceSpace::new(true, &pairing_moves()).unwrap();
        // U then U' (moves 0 and 1 of the pairing group are U and U').
        let ms = pairing_moves();
        let (u, ui) = (
            ms.iter().position(|m| m.to_string() == "U").unwrap(),
            ms.iter().position(|m| m.to_string() == "U'").unwrap(),
        );
        for r in (0..E_SLICE_STATES).step_by(10_007) {
            let s = ESliceSpace::unrank(r);
            let r1 = sp.apply(&s, u);
            assert_eq!(sp.apply(&ESliceSpace::unrank(r1), ui), r);
        }
    }
}
