//! Kociemba's two-phase coordinates as move tables, a four-element symmetry
//! group, and the pruning spaces of the two phases (catalog entries
//! `3x3x3-phase1-*` and `3x3x3-phase2-*`).
//!
//! Phase 1 brings a cube into the subgroup `<U, D, R2, L2, F2, B2>` (corner twist,
//! edge flip and UD-slice coordinates all 0); phase 2 solves it there. Each
//! pruning table is a BFS over a pair of coordinates, so its value is a lower
//! bound of the distance of any cube with those coordinates.
//!
//! Symmetry: the half turns `x2 y2 z2` of the whole cube keep the U-D axis, map
//! every phase's move set to itself and leave the twist and flip definitions
//! intact (their cubies have no twist or flip), so `S C S` has the same distance
//! as `C` and its twist (flip) depends only on `C`'s. The twist x flip table is
//! stored once per flip class under this group ([`K4`]): 4.5 M pairs become
//! about 1.2 M entries.

use crate::bfs::Space;
use crate::cube::CubeN;
use crate::cube3::{moves, CubieCube};
use crate::notation::{Face, Move, MoveKind};
use rayon::prelude::*;
use std::sync::OnceLock;

/// Corner twists.
pub const N_TWIST: usize = 2187;
/// Edge flips.
pub const N_FLIP: usize = 2048;
/// Positions of the four UD-slice edges.
pub const N_SLICE: usize = 495;
/// Permutations of eight pieces.
pub const N_PERM8: usize = 40320;
/// Permutations of the four slice edges within the slice.
pub const N_SPERM: usize = 24;
/// Phase-2 moves as indices into the 18 face moves: `U U2 U' R2 F2 D D2 D' L2 B2`.
pub const P2_MOVES: [usize; 10] = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];

/// Coordinate move tables: `table[x * moves + m]`.
pub struct MoveTables {
    /// Twist, 18 moves.
    pub twist: Vec<u16>,
    /// Flip, 18 moves.
    pub flip: Vec<u16>,
    /// UD-slice positions, 18 moves.
    pub slice: Vec<u16>,
    /// Corner permutation, the 10 phase-2 moves.
    pub cperm: Vec<u16>,
    /// U/D edge permutation, the 10 phase-2 moves.
    pub udperm: Vec<u16>,
    /// Slice edge permutation, the 10 phase-2 moves.
    pub sperm: Vec<u16>,
}

fn table(
    size: usize,
    moves_: &[usize],
    set: impl Fn(usize) -> CubieCube + Sync,
    get: impl Fn(&CubieCube) -> u16 + Sync,
) -> Vec<u16> {
    (0..size)
        .into_par_iter()
        .flat_map_iter(|x| {
            let c = set(x);
            moves_
                .iter()
                .map(|&m| get(&c.apply_move(m)))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The move tables, built once (a few milliseconds).
pub fn move_tables() -> &'static MoveTables {
    static T: OnceLock<MoveTables> = OnceLock::new();
    T.get_or_init(|| {
        let all: Vec<usize> = (0..18).collect();
        MoveTables {
            twist: table(
                N_TWIST,
                &all,
                |x| CubieCube::with_twist(x as u16),
                |c| c.twist(),
            ),
            flip: table(
                N_FLIP,
                &all,
                |x| CubieCube::with_flip(x as u16),
                |c| c.flip(),
            ),
            slice: table(
                N_SLICE,
                &all,
                |x| CubieCube::with_slice(x as u16),
                |c| c.slice(),
            ),
            cperm: table(
                N_PERM8,
                &P2_MOVES,
                |x| CubieCube::with_corner_perm(x as u16),
                |c| c.corner_perm(),
            ),
            udperm: table(
                N_PERM8,
                &P2_MOVES,
                |x| CubieCube::with_ud_edge_perm(x as u16),
                |c| c.ud_edge_perm(),
            ),
            sperm: table(
                N_SPERM,
                &P2_MOVES,
                |x| CubieCube::with_slice_perm(x as u8),
                |c| c.slice_perm() as u16,
            ),
        }
    })
}

/// The symmetry group `{I, x2, y2, z2}` acting on flips and twists.
pub struct K4 {
    /// The four symmetries as cubie cubes (each its own inverse).
    pub syms: [CubieCube; 4],
    /// Class of each flip.
    pub flip_class: Vec<u16>,
    /// For each flip `f`, a symmetry `s` with `S f S` = the class representative.
    pub flip_sym: Vec<u8>,
    /// Representative flip of each class (the smallest in its orbit).
    pub flip_rep: Vec<u16>,
    /// `twist_conj[t * 4 + s]` = twist of `S t S`.
    pub twist_conj: Vec<u16>,
    /// Per class, the symmetries (bit `s`) that fix its representative.
    pub stabilizer: Vec<u8>,
}

/// A whole-cube rotation as a cubie cube (the pieces it brings to each slot).
pub fn rotation_cubie(rotation: &[Move]) -> CubieCube {
    let c3 = CubeN::new(3);
    let mut s = c3.solved();
    c3.apply_alg(&mut s, rotation);
    let (cp, co) = crate::corners::read_corners(&c3, &s, &[0, 1, 2, 3, 4, 5])
        .expect("a rotated cube has real corners");
    let (ep, eo) = crate::validate::read_edges(&c3, &s).expect("a rotated cube has real edges");
    CubieCube { cp, co, ep, eo }
}

/// `S C S` for an involution `S`.
pub fn conj(c: &CubieCube, s: &CubieCube) -> CubieCube {
    s.multiply(c).multiply(s)
}

/// The symmetry tables, built once.
pub fn k4() -> &'static K4 {
    static T: OnceLock<K4> = OnceLock::new();
    T.get_or_init(|| {
        let rot = |f: Face| Move {
            face: f,
            kind: MoveKind::Rotation,
            turns: 2,
        };
        let syms = [
            CubieCube::SOLVED,
            rotation_cubie(&[rot(Face::R)]),
            rotation_cubie(&[rot(Face::U)]),
            rotation_cubie(&[rot(Face::F)]),
        ];
        let conj_flip = |f: usize, s: usize| conj(&CubieCube::with_flip(f as u16), &syms[s]).flip();
        let mut flip_class = vec![u16::MAX; N_FLIP];
        let mut flip_sym = vec![0u8; N_FLIP];
        let mut flip_rep = Vec::new();
        for f in 0..N_FLIP {
            if flip_class[f] != u16::MAX {
                continue;
            }
            // f is the smallest flip of its orbit: every member g = S f S maps
            // back to f by the same S.
            let class = flip_rep.len() as u16;
            flip_rep.push(f as u16);
            for s in 0..4 {
                let g = conj_flip(f, s) as usize;
                if flip_class[g] == u16::MAX {
                    flip_class[g] = class;
                    flip_sym[g] = s as u8;
                }
            }
        }
        let twist_conj = (0..N_TWIST)
            .flat_map(|t| {
                let c = CubieCube::with_twist(t as u16);
                syms.iter()
                    .map(move |s| conj(&c, s).twist())
                    .collect::<Vec<_>>()
            })
            .collect();
        let stabilizer = flip_rep
            .iter()
            .map(|&f| {
                (0..4)
                    .filter(|&s| conj_flip(f as usize, s) == f)
                    .fold(0u8, |a, s| a | 1 << s)
            })
            .collect();
        K4 {
            syms,
            flip_class,
            flip_sym,
            flip_rep,
            twist_conj,
            stabilizer,
        }
    })
}

impl K4 {
    /// Number of flip classes.
    pub fn classes(&self) -> usize {
        self.flip_rep.len()
    }

    /// Index of `(twist, flip)` in the reduced twist x flip table.
    #[inline]
    pub fn twist_flip_index(&self, twist: usize, flip: usize) -> usize {
        let s = self.flip_sym[flip] as usize;
        self.flip_class[flip] as usize * N_TWIST + self.twist_conj[twist * 4 + s] as usize
    }
}

/// The pruning spaces of the two phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseSpace {
    /// Phase 1: `twist * 495 + slice`, 18 moves.
    TwistSlice,
    /// Phase 1: `flip * 495 + slice`, 18 moves.
    FlipSlice,
    /// Phase 1: `flip class * 2187 + twist` (reduced by [`K4`]), 18 moves.
    TwistFlipK4,
    /// Phase 2: `corner perm * 24 + slice perm`, 10 moves.
    CornerPermSlicePerm,
    /// Phase 2: `U/D edge perm * 24 + slice perm`, 10 moves.
    EdgePermSlicePerm,
}

impl PhaseSpace {
    /// Number of ranks.
    pub fn size(self) -> u64 {
        (match self {
            PhaseSpace::TwistSlice => N_TWIST * N_SLICE,
            PhaseSpace::FlipSlice => N_FLIP * N_SLICE,
            PhaseSpace::TwistFlipK4 => k4().classes() * N_TWIST,
            PhaseSpace::CornerPermSlicePerm | PhaseSpace::EdgePermSlicePerm => N_PERM8 * N_SPERM,
        }) as u64
    }

    /// Whether the space uses the phase-2 moves.
    pub fn phase2(self) -> bool {
        matches!(
            self,
            PhaseSpace::CornerPermSlicePerm | PhaseSpace::EdgePermSlicePerm
        )
    }

    /// Move indices (into the 18 face moves) of the space.
    pub fn move_indices(self) -> Vec<usize> {
        if self.phase2() {
            P2_MOVES.to_vec()
        } else {
            (0..18).collect()
        }
    }

    /// The ranking, for the table definition.
    pub fn describe(self) -> &'static str {
        match self {
            PhaseSpace::TwistSlice => "cube3 twist7(base3)*495+udslice(kociemba)",
            PhaseSpace::FlipSlice => "cube3 flip11(base2)*495+udslice(kociemba)",
            PhaseSpace::TwistFlipK4 => {
                "cube3 flipclass{I,x2,y2,z2}(min rep, ascending)*2187+twist(S t S)"
            }
            PhaseSpace::CornerPermSlicePerm => "cube3 cperm(lehmer)*24+sliceperm(lehmer)",
            PhaseSpace::EdgePermSlicePerm => "cube3 udedgeperm(lehmer)*24+sliceperm(lehmer)",
        }
    }
}

/// A [`PhaseSpace`] with its tables, as a BFS space.
pub struct PhaseBfs {
    space: PhaseSpace,
    mt: &'static MoveTables,
    k4: &'static K4,
}

impl PhaseBfs {
    /// The BFS space of a phase table.
    pub fn new(space: PhaseSpace) -> PhaseBfs {
        PhaseBfs {
            space,
            mt: move_tables(),
            k4: k4(),
        }
    }
}

impl Space for PhaseBfs {
    fn size(&self) -> u64 {
        self.space.size()
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let r = rank as usize;
        let mt = self.mt;
        match self.space {
            PhaseSpace::TwistSlice | PhaseSpace::FlipSlice => {
                let (x, s) = (r / N_SLICE, r % N_SLICE);
                let xt = if self.space == PhaseSpace::TwistSlice {
                    &mt.twist
                } else {
                    &mt.flip
                };
                for m in 0..18 {
                    let next = xt[x * 18 + m] as usize * N_SLICE + mt.slice[s * 18 + m] as usize;
                    if !f(next as u64) {
                        return;
                    }
                }
            }
            PhaseSpace::TwistFlipK4 => {
                let (c, t) = (r / N_TWIST, r % N_TWIST);
                let flip = self.k4.flip_rep[c] as usize;
                let k = self.k4;
                for m in 0..18 {
                    let (t2, f2) = (
                        mt.twist[t * 18 + m] as usize,
                        mt.flip[flip * 18 + m] as usize,
                    );
                    // A representative fixed by a symmetry has twin entries (the
                    // same cube seen through that symmetry): reach them together,
                    // or a push layer would leave the twins for a later depth.
                    let c2 = k.flip_class[f2] as usize;
                    let t2 = k.twist_conj[t2 * 4 + k.flip_sym[f2] as usize] as usize;
                    for s in 0..4 {
                        if k.stabilizer[c2] >> s & 1 == 1 {
                            let next = c2 * N_TWIST + k.twist_conj[t2 * 4 + s] as usize;
                            if !f(next as u64) {
                                return;
                            }
                        }
                    }
                }
            }
            PhaseSpace::CornerPermSlicePerm | PhaseSpace::EdgePermSlicePerm => {
                let (x, s) = (r / N_SPERM, r % N_SPERM);
                let xt = if self.space == PhaseSpace::CornerPermSlicePerm {
                    &mt.cperm
                } else {
                    &mt.udperm
                };
                for m in 0..10 {
                    let next = xt[x * 10 + m] as usize * N_SPERM + mt.sperm[s * 10 + m] as usize;
                    if !f(next as u64) {
                        return;
                    }
                }
            }
        }
    }
}

/// The 18 face-move cubies (re-exported for the solvers).
pub fn face_moves() -> &'static [CubieCube; 18] {
    moves()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube3::random_cube;

    #[test]
    fn symmetries_have_no_twist_or_flip_and_are_involutions() {
        let k = k4();
        for s in &k.syms {
            assert_eq!(s.co, [0; 8]);
            assert_eq!(s.eo, [0; 12]);
            assert_eq!(s.multiply(s), CubieCube::SOLVED);
        }
        // Each maps the face moves to face moves, phase-2 moves to phase-2 moves.
        for s in &k.syms {
            for m in 0..18 {
                let c = conj(&moves()[m], s);
                let image = (0..18).find(|&n| moves()[n] == c).expect("a face move");
                assert_eq!(P2_MOVES.contains(&m), P2_MOVES.contains(&image));
            }
        }
    }

    #[test]
    fn conjugated_coordinates_depend_only_on_the_coordinate() {
        let k = k4();
        for seed in 0..300 {
            let c = random_cube(seed);
            for (s, sym) in k.syms.iter().enumerate() {
                let d = conj(&c, sym);
                assert_eq!(d.twist(), k.twist_conj[c.twist() as usize * 4 + s]);
            }
            let f = c.flip() as usize;
            let d = conj(&c, &k.syms[k.flip_sym[f] as usize]);
            assert_eq!(d.flip(), k.flip_rep[k.flip_class[f] as usize]);
        }
        // Burnside: classes = mean number of flips each symmetry fixes.
        let fixed: usize = k
            .syms
            .iter()
            .map(|s| {
                (0..N_FLIP)
                    .filter(|&f| conj(&CubieCube::with_flip(f as u16), s).flip() as usize == f)
                    .count()
            })
            .sum();
        assert_eq!(k.classes(), fixed / 4);
    }

    #[test]
    fn move_tables_agree_with_cubies() {
        let mt = move_tables();
        for seed in 0..200 {
            let c = random_cube(seed);
            for m in 0..18 {
                let d = c.apply_move(m);
                assert_eq!(mt.twist[c.twist() as usize * 18 + m], d.twist());
                assert_eq!(mt.flip[c.flip() as usize * 18 + m], d.flip());
                assert_eq!(mt.slice[c.slice() as usize * 18 + m], d.slice());
            }
        }
    }
}
