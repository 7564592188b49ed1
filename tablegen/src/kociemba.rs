//! Kociemba's two-phase coordinates as move tables, an eight-element symmetry
//! group, and the pruning spaces of the two phases (catalog entries
//! `3x3x3-phase1-*` and `3x3x3-phase2-*`).
//!
//! Phase 1 brings a cube into the subgroup `<U, D, R2, L2, F2, B2>` (corner twist,
//! edge flip and UD-slice coordinates all 0); phase 2 solves it there. Each
//! pruning table is a BFS over a pair of coordinates, so its value is a lower
//! bound of the distance of any cube with those coordinates.
//!
//! Symmetry: the half turns `x2 y2 z2` of the whole cube and the left-right
//! mirror `M`, and their products, keep the U-D axis, map every phase's move set
//! to itself and leave the twist and flip definitions intact (a half turn
//! neither twists nor flips; the mirror negates twists, keeps flips), so
//! `S C S` has the same distance as `C` and its twist (flip) depends only on
//! `C`'s. The eight symmetries commute and are their own inverses. Each pruning
//! table is stored once per class of its first coordinate under this group
//! ([`Sym8`]): the twist x flip table's 4.5 M pairs become about 0.6 M entries.

use crate::bfs::Space;
use crate::cube::CubeN;
use crate::cube3::{moves, CubieCube, Pieces};
use crate::notation::{Face, Move, MoveKind};
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
/// Positions of the four D-layer corners among the eight corner slots.
pub const N_CCOMB: usize = 70;
/// Number of symmetries in the group [`Sym8`].
pub const N_SYM: usize = 8;
/// Phase-2 moves as indices into the 18 face moves: `U U2 U' R2 F2 D D2 D' L2 B2`.
pub const P2_MOVES: [usize; 10] = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];

/// Coordinate move tables: `table[x * moves + m]`. The two 8! tables are
/// apart ([`perm8_move_tables`]): only table builds need them, and they are
/// most of the cost, so a solver that only reads tables never builds them.
pub struct MoveTables {
    /// Twist, 18 moves.
    pub twist: Vec<u16>,
    /// Flip, 18 moves.
    pub flip: Vec<u16>,
    /// UD-slice positions, 18 moves.
    pub slice: Vec<u16>,
    /// Slice edge permutation, the 10 phase-2 moves.
    pub sperm: Vec<u16>,
    /// Corner combination (where the D corners are), the 10 phase-2 moves.
    pub ccomb: Vec<u16>,
}

/// The move tables of the two 8! phase-2 coordinates.
pub struct Perm8MoveTables {
    /// Corner permutation, the 10 phase-2 moves.
    pub cperm: Vec<u16>,
    /// U/D edge permutation, the 10 phase-2 moves.
    pub udperm: Vec<u16>,
}

fn table(
    size: usize,
    moves_: &[usize],
    pieces: Pieces,
    set: impl Fn(usize) -> CubieCube,
    get: impl Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    // Sequential on purpose: this runs inside `move_tables`' `OnceLock`,
    // which rayon's workers may be waiting on (solvers loading side by side
    // in a pool); a parallel build there would need those same workers and
    // deadlock on a 2-thread pool.
    let mut out = Vec::with_capacity(size * moves_.len());
    for x in 0..size {
        let c = set(x);
        out.extend(
            moves_
                .iter()
                .map(|&m| get(&c.multiply_pieces(&moves()[m], pieces))),
        );
    }
    out
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
                Pieces::Corners,
                |x| CubieCube::with_twist(x as u16),
                |c| c.twist(),
            ),
            flip: table(
                N_FLIP,
                &all,
                Pieces::Edges,
                |x| CubieCube::with_flip(x as u16),
                |c| c.flip(),
            ),
            slice: table(
                N_SLICE,
                &all,
                Pieces::Edges,
                |x| CubieCube::with_slice(x as u16),
                |c| c.slice(),
            ),
            sperm: table(
                N_SPERM,
                &P2_MOVES,
                Pieces::Edges,
                |x| CubieCube::with_slice_perm(x as u8),
                |c| c.slice_perm() as u16,
            ),
            ccomb: table(
                N_CCOMB,
                &P2_MOVES,
                Pieces::Corners,
                |x| CubieCube::with_corner_comb(x as u16),
                |c| c.corner_comb(),
            ),
        }
    })
}

/// The 8! x 10 phase-2 move tables, built once (tens of milliseconds).
pub fn perm8_move_tables() -> &'static Perm8MoveTables {
    static T: OnceLock<Perm8MoveTables> = OnceLock::new();
    T.get_or_init(|| Perm8MoveTables {
        cperm: table(
            N_PERM8,
            &P2_MOVES,
            Pieces::Corners,
            |x| CubieCube::with_corner_perm(x as u16),
            |c| c.corner_perm(),
        ),
        udperm: table(
            N_PERM8,
            &P2_MOVES,
            Pieces::Edges,
            |x| CubieCube::with_ud_edge_perm(x as u16),
            |c| c.ud_edge_perm(),
        ),
    })
}

/// A coordinate reduced by the symmetry group: its values fall into classes
/// `{S x S}`, each named by its smallest value.
pub struct SymCoord {
    /// Class of each value.
    pub class_of: Vec<u16>,
    /// For each value `x`, a symmetry `s` with `S x S` = its class representative.
    pub sym_of: Vec<u8>,
    /// Representative of each class.
    pub rep: Vec<u16>,
    /// Per class, the symmetries (bit `s`) that fix its representative.
    pub stabilizer: Vec<u8>,
}

impl SymCoord {
    /// Classes of `0..n` under `conj(x, s)` = the value of `S x S` (the
    /// symmetries are involutions: each undoes itself).
    fn new(n: usize, conj: impl Fn(usize, usize) -> usize) -> SymCoord {
        let selves: [u8; N_SYM] = std::array::from_fn(|s| s as u8);
        let c = crate::optimal3::SymClasses::new(n, &selves, conj);
        SymCoord {
            class_of: c.class_of,
            sym_of: c.sym_of,
            rep: c.rep.into_iter().map(|x| x as u16).collect(),
            stabilizer: c.stabilizer.into_iter().map(|s| s as u8).collect(),
        }
    }

    /// `x` as a symmetry coordinate: `class * N_SYM + sym` (x is `S rep S`).
    #[inline]
    pub fn class_sym(&self, x: usize) -> u16 {
        self.class_of[x] * N_SYM as u16 + self.sym_of[x] as u16
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.rep.len()
    }
}

/// The symmetry group `{I, x2, y2, z2} x {I, M}` (`M` the left-right mirror)
/// acting on the two-phase coordinates. Symmetry `s` is rotation `s % 4`, then
/// the mirror when `s >= 4`.
pub struct Sym8 {
    /// The four half-turn rotations as cubie cubes (each its own inverse).
    pub rotations: [CubieCube; 4],
    /// Flips in classes.
    pub flip: SymCoord,
    /// Twists in classes.
    pub twist: SymCoord,
    /// Corner permutations in classes.
    pub cperm: SymCoord,
    /// U/D edge permutations (slice edges in the slice) in classes.
    pub udperm: SymCoord,
    /// `twist_conj[t * N_SYM + s]` = twist of `S t S`.
    pub twist_conj: Vec<u16>,
    /// `slice_conj[x * N_SYM + s]` = UD-slice coordinate of `S x S`.
    pub slice_conj: Vec<u16>,
    /// `sperm_conj[p * N_SYM + s]` = slice permutation of `S p S`.
    pub sperm_conj: Vec<u16>,
    /// `ccomb_conj[x * N_SYM + s]` = corner combination of `S x S`.
    pub ccomb_conj: Vec<u16>,
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

/// `S C S` for an involution `S` given as a cubie cube.
pub fn conj(c: &CubieCube, s: &CubieCube) -> CubieCube {
    s.multiply(c).multiply(s)
}

/// `S C S` for symmetry `s` (0..[`N_SYM`]) of the group [`Sym8`].
pub fn conj_sym(c: &CubieCube, s: usize) -> CubieCube {
    conj_with(c, &sym8().rotations, s)
}

/// `S C S` for symmetry `s`: rotation `s % 4` of `rotations`, then the mirror
/// when `s >= 4` (the mirror commutes with the half turns).
fn conj_with(c: &CubieCube, rotations: &[CubieCube; 4], s: usize) -> CubieCube {
    mirrored(conj(c, &rotations[s % 4]), s)
}

/// `d`, then the mirror when symmetry `s` has it (`s >= 4`).
fn mirrored(d: CubieCube, s: usize) -> CubieCube {
    if s >= 4 {
        d.mirror_lr()
    } else {
        d
    }
}

/// [`conj_with`] of one kind of piece only (the other kind comes out
/// solved): the symmetry tables' coordinates each read one kind, and the
/// whole product was most of their making.
fn conj_part(c: &CubieCube, rotations: &[CubieCube; 4], s: usize, part: Pieces) -> CubieCube {
    let r = &rotations[s % 4];
    mirrored(r.multiply_pieces(c, part).multiply_pieces(r, part), s)
}

/// The symmetry tables, built once.
pub fn sym8() -> &'static Sym8 {
    static T: OnceLock<Sym8> = OnceLock::new();
    T.get_or_init(|| {
        let rot = |f: Face| Move {
            face: f,
            kind: MoveKind::Rotation,
            turns: 2,
        };
        let rotations = [
            CubieCube::SOLVED,
            rotation_cubie(&[rot(Face::R)]),
            rotation_cubie(&[rot(Face::U)]),
            rotation_cubie(&[rot(Face::F)]),
        ];
        let conj_of = |part: Pieces, set: fn(usize) -> CubieCube, get: fn(&CubieCube) -> u16| {
            move |x: usize, s: usize| get(&conj_part(&set(x), &rotations, s, part)) as usize
        };
        let table = |n: usize, f: &dyn Fn(usize, usize) -> usize| -> Vec<u16> {
            (0..n)
                .flat_map(|x| (0..N_SYM).map(move |s| f(x, s) as u16))
                .collect()
        };
        let twist = conj_of(
            Pieces::Corners,
            |x| CubieCube::with_twist(x as u16),
            |c| c.twist(),
        );
        let flip = conj_of(
            Pieces::Edges,
            |x| CubieCube::with_flip(x as u16),
            |c| c.flip(),
        );
        let slice = conj_of(
            Pieces::Edges,
            |x| CubieCube::with_slice(x as u16),
            |c| c.slice(),
        );
        let cperm = conj_of(
            Pieces::Corners,
            |x| CubieCube::with_corner_perm(x as u16),
            |c| c.corner_perm(),
        );
        let udperm = conj_of(
            Pieces::Edges,
            |x| CubieCube::with_ud_edge_perm(x as u16),
            |c| c.ud_edge_perm(),
        );
        let ccomb = conj_of(
            Pieces::Corners,
            |x| CubieCube::with_corner_comb(x as u16),
            |c| c.corner_comb(),
        );
        let sperm = conj_of(
            Pieces::Edges,
            |x| CubieCube::with_slice_perm(x as u8),
            |c| c.slice_perm() as u16,
        );
        // The corner permutations' classes (about half the work) on a
        // thread of their own: a plain thread, not rayon's, so that a rayon
        // worker waiting on this `OnceLock` cannot starve it.
        std::thread::scope(|scope| {
            let corners = scope.spawn(|| SymCoord::new(N_PERM8, cperm));
            let udperm = SymCoord::new(N_PERM8, udperm);
            let twist_conj = table(N_TWIST, &twist);
            let (flip, twist) = (SymCoord::new(N_FLIP, flip), SymCoord::new(N_TWIST, twist));
            let slice_conj = table(N_SLICE, &slice);
            let sperm_conj = table(N_SPERM, &sperm);
            let ccomb_conj = table(N_CCOMB, &ccomb);
            Sym8 {
                rotations,
                flip,
                twist,
                cperm: crate::joined(corners),
                udperm,
                twist_conj,
                slice_conj,
                sperm_conj,
                ccomb_conj,
            }
        })
    })
}

impl Sym8 {
    /// Index of `(twist, flip)` in the reduced twist x flip table.
    #[inline]
    pub fn twist_flip_index(&self, twist: usize, flip: usize) -> usize {
        let s = self.flip.sym_of[flip] as usize;
        self.flip.class_of[flip] as usize * N_TWIST + self.twist_conj[twist * N_SYM + s] as usize
    }

    /// Index of `(twist, slice)` in the reduced twist x slice table.
    #[inline]
    pub fn twist_slice_index(&self, twist: usize, slice: usize) -> usize {
        let s = self.twist.sym_of[twist] as usize;
        self.twist.class_of[twist] as usize * N_SLICE + self.slice_conj[slice * N_SYM + s] as usize
    }

    /// Index of `(flip, slice)` in the reduced flip x slice table.
    #[inline]
    pub fn flip_slice_index(&self, flip: usize, slice: usize) -> usize {
        let s = self.flip.sym_of[flip] as usize;
        self.flip.class_of[flip] as usize * N_SLICE + self.slice_conj[slice * N_SYM + s] as usize
    }

    /// Index of `(corner perm, slice perm)` in the reduced phase-2 table.
    #[inline]
    pub fn cperm_sperm_index(&self, cperm: usize, sperm: usize) -> usize {
        let s = self.cperm.sym_of[cperm] as usize;
        self.cperm.class_of[cperm] as usize * N_SPERM + self.sperm_conj[sperm * N_SYM + s] as usize
    }

    /// Index of `(U/D edge perm, corner combination)` in the reduced phase-2
    /// table.
    #[inline]
    pub fn eperm_ccomb_index(&self, eperm: usize, ccomb: usize) -> usize {
        let s = self.udperm.sym_of[eperm] as usize;
        self.udperm.class_of[eperm] as usize * N_CCOMB + self.ccomb_conj[ccomb * N_SYM + s] as usize
    }

    /// Index of `(U/D edge perm, slice perm)` in the reduced phase-2 table.
    #[inline]
    pub fn eperm_sperm_index(&self, eperm: usize, sperm: usize) -> usize {
        let s = self.udperm.sym_of[eperm] as usize;
        self.udperm.class_of[eperm] as usize * N_SPERM + self.sperm_conj[sperm * N_SYM + s] as usize
    }
}

/// The pruning spaces of the two phases, each a pair `(a, b)` of coordinates
/// stored as `class(a) * |b| + (b seen through the symmetry that takes a to its
/// class representative)`: one entry per pair whose `a` is a representative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseSpace {
    /// Phase 1: twist class x UD-slice, 18 moves.
    TwistSlice,
    /// Phase 1: flip class x UD-slice, 18 moves.
    FlipSlice,
    /// Phase 1: flip class x twist, 18 moves.
    TwistFlip,
    /// Phase 2: corner perm class x slice perm, 10 moves.
    CornerPermSlicePerm,
    /// Phase 2: U/D edge perm class x slice perm, 10 moves.
    EdgePermSlicePerm,
    /// Phase 2: U/D edge perm class x corner combination, 10 moves.
    EdgePermCornerComb,
}

/// A reduced pair space: the reduced coordinate with its move table, and the
/// other coordinate with its move and conjugation tables.
struct Reduced<'a> {
    a: &'a SymCoord,
    a_moves: &'a [u16],
    b_moves: &'a [u16],
    b_conj: &'a [u16],
    b_size: usize,
    moves: usize,
}

impl PhaseSpace {
    fn reduced(self) -> Reduced<'static> {
        let (mt, k) = (move_tables(), sym8());
        let p8 = || perm8_move_tables();
        let (a, a_moves, b_moves, b_conj, b_size) = match self {
            PhaseSpace::TwistSlice => (&k.twist, &mt.twist, &mt.slice, &k.slice_conj, N_SLICE),
            PhaseSpace::FlipSlice => (&k.flip, &mt.flip, &mt.slice, &k.slice_conj, N_SLICE),
            PhaseSpace::TwistFlip => (&k.flip, &mt.flip, &mt.twist, &k.twist_conj, N_TWIST),
            PhaseSpace::CornerPermSlicePerm => {
                (&k.cperm, &p8().cperm, &mt.sperm, &k.sperm_conj, N_SPERM)
            }
            PhaseSpace::EdgePermSlicePerm => {
                (&k.udperm, &p8().udperm, &mt.sperm, &k.sperm_conj, N_SPERM)
            }
            PhaseSpace::EdgePermCornerComb => {
                (&k.udperm, &p8().udperm, &mt.ccomb, &k.ccomb_conj, N_CCOMB)
            }
        };
        Reduced {
            a,
            a_moves,
            b_moves,
            b_conj,
            b_size,
            moves: if self.phase2() { 10 } else { 18 },
        }
    }

    /// Number of ranks.
    pub fn size(self) -> u64 {
        let r = self.reduced();
        (r.a.classes() * r.b_size) as u64
    }

    /// Whether the space uses the phase-2 moves.
    pub fn phase2(self) -> bool {
        matches!(
            self,
            PhaseSpace::CornerPermSlicePerm
                | PhaseSpace::EdgePermSlicePerm
                | PhaseSpace::EdgePermCornerComb
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
            PhaseSpace::TwistSlice => {
                "cube3 twistclass{I,x2,y2,z2}x{I,M}(min rep, ascending)*495+udslice(S s S)"
            }
            PhaseSpace::FlipSlice => {
                "cube3 flipclass{I,x2,y2,z2}x{I,M}(min rep, ascending)*495+udslice(S s S)"
            }
            PhaseSpace::TwistFlip => {
                "cube3 flipclass{I,x2,y2,z2}x{I,M}(min rep, ascending)*2187+twist(S t S)"
            }
            PhaseSpace::CornerPermSlicePerm => {
                "cube3 cpermclass{I,x2,y2,z2}x{I,M}(min rep, ascending)*24+sliceperm(S p S)"
            }
            PhaseSpace::EdgePermSlicePerm => {
                "cube3 udedgepermclass{I,x2,y2,z2}x{I,M}(min rep, ascending)*24+sliceperm(S p S)"
            }
            PhaseSpace::EdgePermCornerComb => {
                "cube3 udedgepermclass{I,x2,y2,z2}x{I,M}(min rep, ascending)*70+dcornercomb(S x S)"
            }
        }
    }
}

/// A [`PhaseSpace`] with its tables, as a BFS space.
pub struct PhaseBfs {
    r: Reduced<'static>,
}

impl PhaseBfs {
    /// The BFS space of a phase table.
    pub fn new(space: PhaseSpace) -> PhaseBfs {
        PhaseBfs { r: space.reduced() }
    }
}

impl Space for PhaseBfs {
    fn size(&self) -> u64 {
        (self.r.a.classes() * self.r.b_size) as u64
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let r = &self.r;
        let (n, nb) = (r.moves, r.b_size);
        let (c, b) = (rank as usize / nb, rank as usize % nb);
        let x = r.a.rep[c] as usize;
        for m in 0..n {
            let (x2, b2) = (r.a_moves[x * n + m] as usize, r.b_moves[b * n + m] as usize);
            let c2 = r.a.class_of[x2] as usize;
            let b2 = r.b_conj[b2 * N_SYM + r.a.sym_of[x2] as usize] as usize;
            // A representative fixed by a symmetry has twin entries (the same
            // cube seen through that symmetry): reach them together, or a push
            // layer would leave the twins for a later depth.
            for s in 0..N_SYM {
                if r.a.stabilizer[c2] >> s & 1 == 1 {
                    let next = c2 * nb + r.b_conj[b2 * N_SYM + s] as usize;
                    if !f(next as u64) {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube3::{moves, random_cube};

    #[test]
    fn symmetries_are_commuting_involutions_keeping_the_move_sets() {
        let k = sym8();
        for r in &k.rotations {
            assert_eq!(r.co, [0; 8]);
            assert_eq!(r.eo, [0; 12]);
            assert_eq!(r.multiply(r), CubieCube::SOLVED);
        }
        for seed in 0..50 {
            let c = random_cube(seed);
            for s in 0..N_SYM {
                assert_eq!(conj_sym(&conj_sym(&c, s), s), c);
                for t in 0..N_SYM {
                    assert_eq!(conj_sym(&conj_sym(&c, s), t), conj_sym(&conj_sym(&c, t), s));
                }
            }
            // Eight different symmetries: they see a random cube differently.
            let seen: std::collections::HashSet<_> = (0..N_SYM).map(|s| conj_sym(&c, s)).collect();
            assert_eq!(seen.len(), N_SYM);
        }
        // Each maps the face moves to face moves, phase-2 moves to phase-2 moves.
        for s in 0..N_SYM {
            for m in 0..18 {
                let c = conj_sym(&moves()[m], s);
                let image = crate::cube3::move_index(&c).expect("a face move");
                assert_eq!(P2_MOVES.contains(&m), P2_MOVES.contains(&image));
            }
        }
    }

    #[test]
    fn one_kind_of_piece_conjugates_as_the_whole_cube_does() {
        let k = sym8();
        for seed in 0..200 {
            let c = random_cube(seed);
            for s in 0..N_SYM {
                let whole = conj_sym(&c, s);
                let corners = conj_part(&c, &k.rotations, s, Pieces::Corners);
                let edges = conj_part(&c, &k.rotations, s, Pieces::Edges);
                assert_eq!((corners.cp, corners.co), (whole.cp, whole.co));
                assert_eq!((edges.ep, edges.eo), (whole.ep, whole.eo));
                assert_eq!((corners.ep, corners.eo), (CubieCube::SOLVED.ep, [0; 12]));
                assert_eq!((edges.cp, edges.co), (CubieCube::SOLVED.cp, [0; 8]));
            }
        }
    }

    #[test]
    fn conjugated_coordinates_depend_only_on_the_coordinate() {
        let k = sym8();
        for seed in 0..300 {
            let c = random_cube(seed);
            for s in 0..N_SYM {
                let d = conj_sym(&c, s);
                assert_eq!(d.twist(), k.twist_conj[c.twist() as usize * N_SYM + s]);
                assert_eq!(d.slice(), k.slice_conj[c.slice() as usize * N_SYM + s]);
                assert_eq!(
                    d.flip(),
                    conj_sym(&CubieCube::with_flip(c.flip()), s).flip()
                );
            }
            let f = c.flip() as usize;
            let d = conj_sym(&c, k.flip.sym_of[f] as usize);
            assert_eq!(
                d.flip() as usize,
                k.flip.rep[k.flip.class_of[f] as usize] as usize
            );
        }
        // Phase-2 cubes: U/D edge and slice permutations conjugate on their own.
        for seed in 0..300 {
            let mut c = CubieCube::SOLVED;
            for i in 0..30 {
                c = c.apply_move(P2_MOVES[(seed * 7 + i * 3) % 10]);
            }
            for s in 0..N_SYM {
                let d = conj_sym(&c, s);
                let conj_ud = conj_sym(&CubieCube::with_ud_edge_perm(c.ud_edge_perm()), s);
                assert_eq!(d.ud_edge_perm(), conj_ud.ud_edge_perm());
                assert_eq!(
                    d.slice_perm() as u16,
                    k.sperm_conj[c.slice_perm() as usize * N_SYM + s]
                );
                let conj_cp = conj_sym(&CubieCube::with_corner_perm(c.corner_perm()), s);
                assert_eq!(d.corner_perm(), conj_cp.corner_perm());
            }
        }
        // Burnside: classes = mean number of values each symmetry fixes.
        let burnside =
            |n: usize, set: &dyn Fn(usize) -> CubieCube, get: &dyn Fn(&CubieCube) -> usize| {
                let fixed: usize = (0..N_SYM)
                    .map(|s| (0..n).filter(|&x| get(&conj_sym(&set(x), s)) == x).count())
                    .sum();
                assert_eq!(fixed % N_SYM, 0);
                fixed / N_SYM
            };
        assert_eq!(
            k.flip.classes(),
            burnside(N_FLIP, &|x| CubieCube::with_flip(x as u16), &|c| c.flip()
                as usize)
        );
        assert_eq!(
            k.twist.classes(),
            burnside(
                N_TWIST,
                &|x| CubieCube::with_twist(x as u16),
                &|c| c.twist() as usize
            )
        );
        assert_eq!(
            k.cperm.classes(),
            burnside(N_PERM8, &|x| CubieCube::with_corner_perm(x as u16), &|c| {
                c.corner_perm() as usize
            })
        );
        assert_eq!(
            k.udperm.classes(),
            burnside(N_PERM8, &|x| CubieCube::with_ud_edge_perm(x as u16), &|c| {
                c.ud_edge_perm() as usize
            })
        );
        eprintln!(
            "classes: flip {} twist {} cperm {} udperm {}",
            k.flip.classes(),
            k.twist.classes(),
            k.cperm.classes(),
            k.udperm.classes()
        );
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
