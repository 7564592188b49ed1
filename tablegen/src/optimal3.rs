//! The pruning spaces of the optimal 3x3x3 solver, reduced by the 16
//! symmetries of the cube that keep the U-D axis (`D4h`: the four turns about
//! U-D, the half turn that swaps U and D, and the left-right mirror).
//!
//! Two spaces, after Kociemba's optimal solver (kociemba.org, "optimal
//! solver"):
//!
//! - **flip-slice x twist**: the phase-1 coset of the two-phase algorithm
//!   (edge flip, where the four UD-slice edges are, corner twist), 2187 x 2048
//!   x 495 = 2,217,093,120 cosets. Flip and slice together are closed under
//!   the 16 symmetries (a quarter turn about U-D changes an edge's flip by
//!   whether it is a slice edge and whether it sits in a slice slot), so they
//!   are ranked as one coordinate of 1,013,760 values in 64,430 classes, and
//!   the table is 64,430 x 2187 = 140,908,410 entries of at most 12 moves.
//!   The solver reads it three times per node, once for each axis as U-D.
//! - **corners**: corner permutation (2,768 classes) x corner twist =
//!   6,053,616 entries of at most 11 moves: all of the corners, which the
//!   first table does not see.
//!
//! - **flip-sorted-slice x twist** refines the first: the slice edges' order
//!   counts too (12 x 11 x 10 x 9 = 11,880 values instead of 495):
//!   1,523,864 flip-sorted-slice classes x 2187 = 3,332,690,568 entries,
//!   stored as distance mod 3 (667 MB); the search follows each entry's
//!   exact value move by move.
//! - **flip-sorted-slice x twist x corner parity** refines it once more: the
//!   parity of the corner permutation (which the 16 symmetries keep and a
//!   quarter turn changes) is a last binary digit of the entry,
//!   6,665,381,136 entries, mod 3 (1.33 GB). A coset and its parity is at
//!   the coset's distance or one more: one entry in five is one more.
//!
//! An entry is `class * 2187 + twist`, the twist seen through the symmetry
//! that takes the reduced coordinate to its class representative.

use crate::bfs::Space;
use crate::cube3::{moves, CubieCube};
use crate::kociemba::{move_tables, rotation_cubie, N_FLIP, N_PERM8, N_SLICE, N_TWIST};
use crate::notation::{Face, Move, MoveKind};
use std::sync::OnceLock;

/// Symmetries of the cube that keep the U-D axis.
pub const N_SYM16: usize = 16;
/// Raw flip-slice values: `slice * 2048 + flip`.
pub const N_FLIPSLICE: usize = N_FLIP * N_SLICE;
/// Flip-slice classes under the 16 symmetries (Kociemba's figure; the tests
/// count them by Burnside's lemma too).
pub const FLIPSLICE_CLASSES: usize = 64_430;
/// Corner permutation classes under the 16 symmetries (Kociemba's figure;
/// Burnside in the tests).
pub const CPERM_CLASSES: usize = 2_768;
/// Sorted-slice values: where the four slice edges are and in what order,
/// `slice * 24 + order`.
pub const N_SSLICE: usize = N_SLICE * 24;
/// Raw flip-sorted-slice values: `sorted slice * 2048 + flip`.
pub const N_FLIPSSLICE: usize = N_FLIP * N_SSLICE;
/// Flip-sorted-slice classes under the 16 symmetries (Burnside's count in
/// the tests; about 24,330,240 / 16).
pub const FLIPSSLICE_CLASSES: usize = 1_523_864;

/// The sorted-slice coordinate of a cube: its UD-slice positions times 24
/// plus the rank of the order the four slice edges come in, read slot by
/// slot.
pub fn slice_sorted(c: &CubieCube) -> u16 {
    let mut order = [0u8; 4];
    let mut k = 0;
    for &e in &c.ep {
        if e >= 8 {
            order[k] = e - 8;
            k += 1;
        }
    }
    c.slice() * 24 + crate::perm::perm_rank(&order) as u16
}

/// A cube with the sorted-slice coordinate `x` (other edges in order).
pub fn with_slice_sorted(x: u16) -> CubieCube {
    let mut c = CubieCube::with_slice(x / 24);
    let mut order = [0u8; 4];
    crate::perm::perm_unrank_into(u64::from(x % 24), &mut order);
    let mut k = 0;
    for e in c.ep.iter_mut() {
        if *e >= 8 {
            *e = order[k] + 8;
            k += 1;
        }
    }
    c
}

/// Bits of a move's field in a [`SortedSlice::class_moves`] row: a class
/// (1,523,864 < 2^21) and a symmetry.
pub const CLASS_MOVE_BITS: u32 = 25;

/// Words of a [`SortedSlice::class_moves`] row: 18 fields of 25 bits in 64
/// bytes.
pub const CLASS_MOVE_WORDS: usize = 16;

/// Field `m` (`class << 4 | s`) of a [`SortedSlice::class_moves`] row.
#[inline(always)]
pub fn class_move(row: &[u32], m: usize) -> u32 {
    let bit = m * CLASS_MOVE_BITS as usize;
    let (w, sh) = (bit / 32, bit % 32);
    let pair = u64::from(row[w]) | u64::from(row[w + 1]) << 32;
    (pair >> sh) as u32 & ((1 << CLASS_MOVE_BITS) - 1)
}

/// The flip-sorted-slice coordinate in classes, and its move tables.
pub struct SortedSlice {
    /// `moves[x * 18 + m]`: sorted slice `x` turned by move `m`.
    pub moves: Vec<u16>,
    /// `conj[x * 16 + s]`: sorted slice of `conj16(x, s)`.
    pub conj: Vec<u16>,
    /// `ss_class[x]`: `c << 4 | s` with `conj16(x, s)` the smallest sorted
    /// slice of `x`'s orbit, sorted-slice class `c` (788 classes).
    pub ss_class: Vec<u32>,
    /// `inner[c * 2048 + f]`: `class << 4 | s` with `conj16(v, s)` the class
    /// representative of the value `v` of sorted slice `ss_rep[c]` and flip
    /// `f` (`s` fixes that sorted slice): 6.4 MB, from which
    /// [`SortedSlice::classify_all`] fills the 97 MB table of every raw
    /// value in a tenth of a second.
    pub inner: Vec<u32>,
    /// The smallest sorted slice of each sorted-slice class.
    pub ss_rep: Vec<u16>,
    /// Representative of each class.
    pub rep: Vec<u32>,
    /// Per class, the symmetries (bit `s`) that fix its representative.
    pub stabilizer: Vec<u16>,
}

impl SortedSlice {
    /// The flip-sorted-slice value of `conj16(C, s)`.
    #[inline]
    pub fn conj_value(&self, k: &Sym16, flip: usize, sslice: usize, s: usize) -> usize {
        let f = k.flip_conj[flip * N_SYM16 + s] ^ k.flip_mask[sslice / 24 * N_SYM16 + s];
        self.conj[sslice * N_SYM16 + s] as usize * N_FLIP + f as usize
    }

    /// `class << 4 | s`: the class of the value `(flip, sorted slice)` and
    /// a symmetry `s` with `conj16(value, s)` its representative.
    #[inline]
    pub fn class_sym(&self, k: &Sym16, flip: usize, sslice: usize) -> usize {
        let c1 = self.ss_class[sslice] as usize;
        let s1 = c1 & 15;
        let f = k.flip_conj[flip * N_SYM16 + s1] ^ k.flip_mask[sslice / 24 * N_SYM16 + s1];
        let cs = self.inner[(c1 >> 4) * N_FLIP + f as usize] as usize;
        cs & !15 | k.then[s1 * N_SYM16 + (cs & 15)] as usize
    }

    /// Entry of `(flip, sorted slice, twist)` in the flip-sorted-slice x
    /// twist table.
    #[inline]
    pub fn index(&self, k: &Sym16, flip: usize, sslice: usize, twist: usize) -> usize {
        let cs = self.class_sym(k, flip, sslice);
        (cs >> 4) * N_TWIST + k.twist_conj[twist * N_SYM16 + (cs & 15)] as usize
    }

    /// [`SortedSlice::class_sym`] of every raw value (`sorted slice * 2048 +
    /// flip`): 97 MB on 2 MB pages where the system gives them, filled on
    /// `threads` scoped threads in about a tenth of a second. One read per
    /// value instead of a chain of small lookups: the optimal search, which
    /// asks for each value's cache line ahead of its use, is faster with
    /// it.
    pub fn classify_all(&self, k: &Sym16, threads: usize) -> std::io::Result<tablefmt::HugeU32> {
        let mut all = tablefmt::HugeU32::zeroed(N_FLIPSSLICE)?;
        let chunk = N_FLIPSSLICE.div_ceil(threads.max(1));
        std::thread::scope(|scope| {
            for (i, part) in all.as_mut_slice().chunks_mut(chunk).enumerate() {
                scope.spawn(move || {
                    for (j, out) in part.iter_mut().enumerate() {
                        let x = i * chunk + j;
                        *out = self.class_sym(k, x % N_FLIP, x / N_FLIP) as u32;
                    }
                });
            }
        });
        Ok(all)
    }

    /// Per class, where each of the 18 moves takes it: `class << 4 | s`
    /// ([`SortedSlice::class_sym`]) of its representative turned by the
    /// move, packed [`CLASS_MOVE_BITS`] bits a move in a row of
    /// [`CLASS_MOVE_WORDS`] words (64 bytes, one cache line): 97.5 MB, made
    /// on `threads` scoped threads in a few tenths of a second. A cube whose
    /// value `v` has class `c` and symmetry `s` (`conj16(v, s)` = the
    /// representative) goes by move `m` to class `c'` with symmetry
    /// `then[s * 16 + t]`, where `c' << 4 | t` is row `c`'s field for the
    /// move `conj16(m, s)`: all 18 children of a cube from one cache line
    /// per axis, where the raw values ask for one line each.
    pub fn class_moves(&self, k: &Sym16, threads: usize) -> std::io::Result<tablefmt::HugeU32> {
        let n = self.classes();
        let mut all = tablefmt::HugeU32::zeroed(n * CLASS_MOVE_WORDS)?;
        let mt = move_tables();
        let per = n.div_ceil(threads.max(1)) * CLASS_MOVE_WORDS;
        std::thread::scope(|scope| {
            for (i, part) in all.as_mut_slice().chunks_mut(per).enumerate() {
                scope.spawn(move || {
                    for (j, row) in part.chunks_mut(CLASS_MOVE_WORDS).enumerate() {
                        let rep = self.rep[i * per / CLASS_MOVE_WORDS + j] as usize;
                        let (sslice, flip) = (rep / N_FLIP, rep % N_FLIP);
                        for m in 0..18 {
                            let f = mt.flip[flip * 18 + m] as usize;
                            let x = self.moves[sslice * 18 + m] as usize;
                            let v = self.class_sym(k, f, x) as u64;
                            let bit = m * CLASS_MOVE_BITS as usize;
                            let (w, sh) = (bit / 32, bit % 32);
                            let spread = v << sh;
                            row[w] |= spread as u32;
                            row[w + 1] |= (spread >> 32) as u32;
                        }
                    }
                });
            }
        });
        Ok(all)
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.rep.len()
    }

    /// Size of class `c`'s orbit.
    pub fn orbit(&self, c: usize) -> u64 {
        (N_SYM16 / self.stabilizer[c].count_ones() as usize) as u64
    }
}

/// The flip-sorted-slice classes, built once (a few hundredths of a
/// second; 7 MB).
///
/// A class's representative is its smallest value (`sorted slice * 2048 +
/// flip`), so its sorted slice is the smallest of that sorted slice's
/// orbit: the classes are found sorted slice class by sorted slice class,
/// each under the symmetries that fix its smallest sorted slice.
pub fn sorted_slice() -> &'static SortedSlice {
    static T: OnceLock<SortedSlice> = OnceLock::new();
    T.get_or_init(|| {
        let k = sym16();
        let mut moves_t = Vec::with_capacity(N_SSLICE * 18);
        let mut conj = Vec::with_capacity(N_SSLICE * N_SYM16);
        for x in 0..N_SSLICE {
            let c = with_slice_sorted(x as u16);
            moves_t.extend(moves().iter().map(|m| slice_sorted(&c.multiply(m))));
            conj.extend((0..N_SYM16).map(|s| slice_sorted(&conj16(&c, s))));
        }
        // Sorted slices: each one's smallest image and the first symmetry
        // that gives it; the smallest are the representatives, in order.
        let mut ss_rep = Vec::new();
        let mut ss_min: Vec<(u16, u8)> = Vec::with_capacity(N_SSLICE);
        for x in 0..N_SSLICE {
            let row = &conj[x * N_SYM16..(x + 1) * N_SYM16];
            let s = (0..N_SYM16).min_by_key(|&s| row[s]).unwrap_or(0);
            if row[s] as usize == x {
                ss_rep.push(x as u16);
            }
            ss_min.push((row[s], s as u8));
        }
        let ss_class = ss_min
            .iter()
            .map(|&(m, s)| {
                let c = ss_rep.binary_search(&m).unwrap_or(0);
                (c as u32) << 4 | u32::from(s)
            })
            .collect();
        let mut t = SortedSlice {
            moves: moves_t,
            conj,
            ss_class,
            inner: vec![0; ss_rep.len() * N_FLIP],
            ss_rep: Vec::new(),
            rep: Vec::new(),
            stabilizer: Vec::new(),
        };
        // Within a sorted-slice class: the values of its smallest sorted
        // slice under the symmetries that fix it. A value's smallest image
        // has a flip no larger, so its class is numbered already.
        let mut inner = std::mem::take(&mut t.inner);
        let mut local = vec![0u32; N_FLIP];
        for (c, &r) in ss_rep.iter().enumerate() {
            let r = r as usize;
            let fix: Vec<usize> = (0..N_SYM16)
                .filter(|&s| t.conj[r * N_SYM16 + s] as usize == r)
                .collect();
            for f in 0..N_FLIP {
                let mut best = (r * N_FLIP + f, 0);
                for &s in &fix {
                    let y = t.conj_value(k, f, r, s);
                    if y < best.0 {
                        best = (y, s);
                    }
                }
                if best.0 == r * N_FLIP + f {
                    local[f] = t.rep.len() as u32;
                    t.rep.push(best.0 as u32);
                }
                inner[c * N_FLIP + f] = local[best.0 % N_FLIP] << 4 | best.1 as u32;
            }
        }
        t.inner = inner;
        t.ss_rep = ss_rep;
        t.stabilizer = t
            .rep
            .iter()
            .map(|&x| {
                let (sslice, flip) = (x as usize / N_FLIP, x as usize % N_FLIP);
                (0..N_SYM16)
                    .filter(|&s| t.conj_value(k, flip, sslice, s) == x as usize)
                    .fold(0u16, |a, s| a | 1 << s)
            })
            .collect();
        t
    })
}

/// Coordinate values in classes under a group of at most 16 symmetries, each
/// class named by its smallest value.
pub struct SymClasses {
    /// Class of each value.
    pub class_of: Vec<u16>,
    /// For each value `x`, a symmetry `s` with `conj16(x, s)` = its class
    /// representative.
    pub sym_of: Vec<u8>,
    /// Representative of each class.
    pub rep: Vec<u32>,
    /// Per class, the symmetries (bit `s`) that fix its representative.
    pub stabilizer: Vec<u16>,
}

impl SymClasses {
    /// Classes of `0..n` under `conj(x, s)`, for the symmetries `s` of a group
    /// whose inverses are `inv` (`inv[s]` undoes `s`).
    pub fn new(n: usize, inv: &[u8], conj: impl Fn(usize, usize) -> usize) -> SymClasses {
        let mut class_of = vec![u16::MAX; n];
        let mut sym_of = vec![0u8; n];
        let mut rep = Vec::new();
        let mut stabilizer = Vec::new();
        for x in 0..n {
            if class_of[x] != u16::MAX {
                continue;
            }
            let class = u16::try_from(rep.len()).expect("at most 65,535 classes");
            rep.push(x as u32);
            let mut fixed = 0u16;
            for (s, &undo) in inv.iter().enumerate() {
                let g = conj(x, s);
                if g == x {
                    fixed |= 1 << s;
                }
                if class_of[g] == u16::MAX {
                    // g = conj(x, s), so conj(g, s^-1) = x.
                    class_of[g] = class;
                    sym_of[g] = undo;
                }
            }
            stabilizer.push(fixed);
        }
        SymClasses {
            class_of,
            sym_of,
            rep,
            stabilizer,
        }
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.rep.len()
    }

    /// Size of class `c`'s orbit under the 16 symmetries (16 over its
    /// stabilizer's size).
    pub fn orbit(&self, c: usize) -> u64 {
        (N_SYM16 / self.stabilizer[c].count_ones() as usize) as u64
    }
}

/// The 16 symmetries and the coordinates' conjugation tables. Symmetry `s`
/// is `S = Y^(s%4) Z2^((s/4)%2)`, then the left-right mirror when `s >= 8`;
/// it acts as `conj16(C, s)` = `M^m (S^-1 C S) M^m`.
pub struct Sym16 {
    /// `S` and `S^-1` of each symmetry's rotation part.
    rot: [(CubieCube, CubieCube); N_SYM16],
    /// `inv[s]`: the symmetry that undoes `s`.
    pub inv: [u8; N_SYM16],
    /// `then[a * 16 + b]`: the symmetry `s` with `conj16(conj16(C, a), b) =
    /// conj16(C, s)`.
    pub then: [u8; N_SYM16 * N_SYM16],
    /// `twist_conj[t * 16 + s]`: twist of `conj16(t, s)`.
    pub twist_conj: Vec<u16>,
    /// `slice_conj[x * 16 + s]`: UD-slice positions of `conj16(x, s)`.
    pub slice_conj: Vec<u16>,
    /// `flip_conj[f * 16 + s]`: flip of `conj16` of the cube with flip `f`
    /// and the slice edges home.
    pub flip_conj: Vec<u16>,
    /// `flip_mask[x * 16 + s]`: what moving the slice edges to positions `x`
    /// changes in the conjugated flip (an XOR; see [`Sym16::flipslice_conj`]).
    pub flip_mask: Vec<u16>,
    /// Flip-slice values (`slice * 2048 + flip`) in classes.
    pub flipslice: SymClasses,
    /// The corner permutation's tables, made on first use
    /// ([`Sym16::corners`]): the two-phase solver's exact phase 1 does not
    /// need them, and they are most of the making.
    corners: OnceLock<CornerSym16>,
}

/// The corner permutation under the 16 symmetries (see [`Sym16::corners`]).
pub struct CornerSym16 {
    /// `cperm_conj[p * 16 + s]`: corner permutation of `conj16(p, s)`.
    pub cperm_conj: Vec<u16>,
    /// Corner permutations in classes.
    pub cperm: SymClasses,
    /// `cperm_move[p * 18 + m]`: corner permutation `p` turned by move `m`.
    pub cperm_move: Vec<u16>,
}

/// `conj16(C, s)` on cubies (see [`Sym16`]).
pub fn conj16(c: &CubieCube, s: usize) -> CubieCube {
    conj_by(&sym16().rot, c, s)
}

fn conj_by(rot: &[(CubieCube, CubieCube); N_SYM16], c: &CubieCube, s: usize) -> CubieCube {
    let (r, r_inv) = &rot[s % 8];
    conjugate(c, r, r_inv, s >= 8)
}

/// The image of `c` under the symmetry of the rotation `r` (with its
/// inverse `r_inv`), then the left-right mirror if `mirror`: `R^-1 C R`,
/// mirrored.
pub fn conjugate(c: &CubieCube, r: &CubieCube, r_inv: &CubieCube, mirror: bool) -> CubieCube {
    let d = r_inv.multiply(c).multiply(r);
    if mirror {
        d.mirror_lr()
    } else {
        d
    }
}

/// A generic cube for telling symmetries apart (every piece moved, no
/// symmetry of its own).
fn generic_cube() -> CubieCube {
    crate::cube3::random_cube(0x5eed_0016)
}

/// The symmetry tables, built once (about a tenth of a second).
pub fn sym16() -> &'static Sym16 {
    static T: OnceLock<Sym16> = OnceLock::new();
    // Sequential on purpose, as `move_tables` (rayon workers may wait on it).
    T.get_or_init(|| {
        let rot = |f: Face, turns: u8| Move {
            face: f,
            kind: MoveKind::Rotation,
            turns,
        };
        let rot: [(CubieCube, CubieCube); N_SYM16] = std::array::from_fn(|s| {
            let mut alg = Vec::new();
            if s % 4 != 0 {
                alg.push(rot(Face::U, (s % 4) as u8));
            }
            if (s / 4) % 2 == 1 {
                alg.push(rot(Face::F, 2));
            }
            let r = rotation_cubie(&alg);
            (r, r.inverse())
        });
        let g = generic_cube();
        let then: [u8; N_SYM16 * N_SYM16] = std::array::from_fn(|ab| {
            let d = conj_by(&rot, &conj_by(&rot, &g, ab / N_SYM16), ab % N_SYM16);
            (0..N_SYM16)
                .find(|&s| conj_by(&rot, &g, s) == d)
                .expect("the symmetries form a group") as u8
        });
        // Symmetry 0 is the identity (no turn, no mirror): `s` then its
        // inverse is 0.
        let inv: [u8; N_SYM16] = std::array::from_fn(|s| {
            (0..N_SYM16)
                .find(|&t| then[s * N_SYM16 + t] == 0)
                .expect("the symmetries form a group") as u8
        });
        let table = |n, set: &dyn Fn(usize) -> CubieCube, get: &dyn Fn(&CubieCube) -> u16| {
            conj_table(&rot, n, set, get)
        };
        let twist_conj = table(N_TWIST, &|x| CubieCube::with_twist(x as u16), &|c| {
            c.twist()
        });
        let slice_conj = table(N_SLICE, &|x| CubieCube::with_slice(x as u16), &|c| {
            c.slice()
        });
        let flip_conj = table(N_FLIP, &|x| CubieCube::with_flip(x as u16), &|c| c.flip());
        let home = table(1, &|_| CubieCube::SOLVED, &|c| c.flip());
        let mut flip_mask = table(N_SLICE, &|x| CubieCube::with_slice(x as u16), &|c| c.flip());
        for (i, m) in flip_mask.iter_mut().enumerate() {
            *m ^= home[i % N_SYM16];
        }
        let flipslice = SymClasses::new(N_FLIPSLICE, &inv, |x, s| {
            let (slice, flip) = (x / N_FLIP, x % N_FLIP);
            let f = flip_conj[flip * N_SYM16 + s] ^ flip_mask[slice * N_SYM16 + s];
            slice_conj[slice * N_SYM16 + s] as usize * N_FLIP + f as usize
        });
        Sym16 {
            rot,
            inv,
            then,
            twist_conj,
            slice_conj,
            flip_conj,
            flip_mask,
            flipslice,
            corners: OnceLock::new(),
        }
    })
}

/// `get(conj16(set(x), s))` at `x * 16 + s` for `x` in `0..n`.
fn conj_table(
    rot: &[(CubieCube, CubieCube); N_SYM16],
    n: usize,
    set: &dyn Fn(usize) -> CubieCube,
    get: &dyn Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    let mut out = Vec::with_capacity(n * N_SYM16);
    for x in 0..n {
        let c = set(x);
        out.extend((0..N_SYM16).map(|s| get(&conj_by(rot, &c, s))));
    }
    out
}

impl Sym16 {
    /// The corner permutation's tables, made on first use (about a
    /// twentieth of a second; sequential, as [`sym16`]).
    pub fn corners(&self) -> &CornerSym16 {
        self.corners.get_or_init(|| {
            let cperm_conj = conj_table(
                &self.rot,
                N_PERM8,
                &|x| CubieCube::with_corner_perm(x as u16),
                &|c| c.corner_perm(),
            );
            let cperm = SymClasses::new(N_PERM8, &self.inv, |x, s| {
                cperm_conj[x * N_SYM16 + s] as usize
            });
            let mut cperm_move = Vec::with_capacity(N_PERM8 * 18);
            for p in 0..N_PERM8 {
                let c = CubieCube::with_corner_perm(p as u16);
                cperm_move.extend(moves().iter().map(|m| c.multiply(m).corner_perm()));
            }
            CornerSym16 {
                cperm_conj,
                cperm,
                cperm_move,
            }
        })
    }

    /// The flip-slice value (`slice * 2048 + flip`) of `conj16(C, s)` for a
    /// cube `C` of that flip and slice: the flip conjugated as if the slice
    /// edges were home, XOR what their real positions change.
    #[inline]
    pub fn flipslice_conj(&self, flip: usize, slice: usize, s: usize) -> usize {
        let f = self.flip_conj[flip * N_SYM16 + s] ^ self.flip_mask[slice * N_SYM16 + s];
        self.slice_conj[slice * N_SYM16 + s] as usize * N_FLIP + f as usize
    }

    /// Entry of `(flip, slice, twist)` in the flip-slice x twist table.
    #[inline]
    pub fn flipslice_twist_index(&self, flip: usize, slice: usize, twist: usize) -> usize {
        let x = slice * N_FLIP + flip;
        let s = self.flipslice.sym_of[x] as usize;
        self.flipslice.class_of[x] as usize * N_TWIST
            + self.twist_conj[twist * N_SYM16 + s] as usize
    }

    /// `conj_moves()[s][m]`: the move `conj16(m, s)` (a face move of the
    /// same axis kind, see the tests).
    pub fn conj_moves(&self) -> [[u8; 18]; N_SYM16] {
        std::array::from_fn(|s| {
            std::array::from_fn(|m| {
                let c = conj_by(&self.rot, &moves()[m], s);
                crate::cube3::move_index(&c).unwrap_or(m) as u8
            })
        })
    }

    /// Entry of `(corner perm, twist)` in the corners table.
    #[inline]
    pub fn corners_index(&self, cperm: usize, twist: usize) -> usize {
        let c = &self.corners().cperm;
        let s = c.sym_of[cperm] as usize;
        c.class_of[cperm] as usize * N_TWIST + self.twist_conj[twist * N_SYM16 + s] as usize
    }
}

/// The two pruning spaces of the optimal solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimalSpace {
    /// Flip-slice class x twist, 140,908,410 entries.
    FlipSliceTwist,
    /// Corner permutation class x twist, 6,053,616 entries.
    Corners,
    /// Flip-sorted-slice class x twist, 3,332,690,568 entries.
    FlipSortedSliceTwist,
    /// Flip-sorted-slice class x twist x corner parity, 6,665,381,136
    /// entries: `(class * 2187 + twist) * 2 + parity`.
    FlipSortedSliceTwistParity,
}

/// The parity of the corner permutation of each of the 18 moves: 1 for a
/// quarter turn, 0 for a half turn.
pub fn move_parity() -> [u8; 18] {
    std::array::from_fn(|m| corner_parity(&moves()[m]))
}

/// The parity of a cube's corner permutation (that of its edges too).
pub fn corner_parity(c: &CubieCube) -> u8 {
    u8::from(crate::perm::is_odd(&c.cp))
}

impl OptimalSpace {
    /// The ranking, for the table definition.
    pub fn describe(self) -> &'static str {
        match self {
            OptimalSpace::FlipSliceTwist => {
                "cube3 flipsliceclass{Y^a Z2^b M^c}(min rep of udslice*2048+flip, ascending)*2187+twist(S t S)"
            }
            OptimalSpace::Corners => {
                "cube3 cpermclass{Y^a Z2^b M^c}(min rep, ascending)*2187+twist(S t S)"
            }
            OptimalSpace::FlipSortedSliceTwist => {
                "cube3 flipsortedsliceclass{Y^a Z2^b M^c}(min rep of (udslice*24+order)*2048+flip, ascending)*2187+twist(S t S)"
            }
            OptimalSpace::FlipSortedSliceTwistParity => {
                "cube3 (flipsortedsliceclass{Y^a Z2^b M^c}(min rep of (udslice*24+order)*2048+flip, ascending)*2187+twist(S t S))*2+cornerparity"
            }
        }
    }

    /// Whether the last binary digit of an entry is the corner parity.
    pub fn has_parity(self) -> bool {
        self == OptimalSpace::FlipSortedSliceTwistParity
    }

    /// Whether the space's coordinate is the flip-sorted-slice one.
    pub fn is_sorted(self) -> bool {
        matches!(
            self,
            OptimalSpace::FlipSortedSliceTwist | OptimalSpace::FlipSortedSliceTwistParity
        )
    }

    /// Number of entries.
    pub fn size(self) -> u64 {
        let k = sym16();
        match self {
            OptimalSpace::FlipSliceTwist => (k.flipslice.classes() * N_TWIST) as u64,
            OptimalSpace::Corners => (k.corners().cperm.classes() * N_TWIST) as u64,
            OptimalSpace::FlipSortedSliceTwist => (sorted_slice().classes() * N_TWIST) as u64,
            OptimalSpace::FlipSortedSliceTwistParity => {
                (sorted_slice().classes() * N_TWIST * 2) as u64
            }
        }
    }

    /// The number of classes and the orbit size of each.
    fn orbits(self) -> (usize, Box<dyn Fn(usize) -> u64>) {
        match self {
            OptimalSpace::FlipSliceTwist => {
                let c = &sym16().flipslice;
                (c.classes(), Box::new(|i| c.orbit(i)))
            }
            OptimalSpace::Corners => {
                let c = &sym16().corners().cperm;
                (c.classes(), Box::new(|i| c.orbit(i)))
            }
            OptimalSpace::FlipSortedSliceTwist | OptimalSpace::FlipSortedSliceTwistParity => {
                let c = sorted_slice();
                (c.classes(), Box::new(|i| c.orbit(i)))
            }
        }
    }

    /// The histogram over the whole unreduced space (every coset, or every
    /// corner position; every coset twice, with either parity) from a
    /// reduced table's `depth` per entry: each class row stands for its
    /// orbit's values, each with a row of the same depths.
    pub fn unreduced_histogram(self, depth: impl Fn(usize) -> u8) -> Vec<u64> {
        let (classes, orbit) = self.orbits();
        let row = N_TWIST << usize::from(self.has_parity());
        let mut hist = Vec::new();
        for c in 0..classes {
            let w = orbit(c);
            for t in 0..row {
                let d = depth(c * row + t) as usize;
                if hist.len() <= d {
                    hist.resize(d + 1, 0);
                }
                hist[d] += w;
            }
        }
        hist
    }
}

/// An [`OptimalSpace`] as a BFS space over its 18 face moves.
pub struct OptimalBfs {
    space: OptimalSpace,
    k: &'static Sym16,
    /// Flip-sorted-slice x twist: [`SortedSlice::classify_all`], one read
    /// per neighbour instead of a chain of small lookups (the build is about
    /// a fifth faster); `None` where its 97 MB could not be had.
    classify: Option<tablefmt::HugeU32>,
    /// [`move_parity`].
    parity: [u8; 18],
}

impl OptimalBfs {
    /// The BFS space of a table.
    pub fn new(space: OptimalSpace) -> OptimalBfs {
        let classify = space
            .is_sorted()
            .then(|| {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                sorted_slice().classify_all(sym16(), threads.min(8)).ok()
            })
            .flatten();
        OptimalBfs {
            space,
            k: sym16(),
            classify,
            parity: move_parity(),
        }
    }
}

impl Space for OptimalBfs {
    fn size(&self) -> u64 {
        self.space.size()
    }
    fn goals(&self) -> Vec<u64> {
        let c = CubieCube::SOLVED;
        let i = match self.space {
            OptimalSpace::FlipSliceTwist => self.k.flipslice_twist_index(
                c.flip() as usize,
                c.slice() as usize,
                c.twist() as usize,
            ),
            OptimalSpace::Corners => self
                .k
                .corners_index(c.corner_perm() as usize, c.twist() as usize),
            OptimalSpace::FlipSortedSliceTwist | OptimalSpace::FlipSortedSliceTwistParity => {
                sorted_slice().index(
                    self.k,
                    c.flip() as usize,
                    slice_sorted(&c) as usize,
                    c.twist() as usize,
                ) << usize::from(self.space.has_parity())
            }
        };
        vec![i as u64]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        if self.space.has_parity() {
            let p = rank & 1;
            return self
                .sorted_neighbours(rank >> 1, |m, r| f(r << 1 | (p ^ self.parity[m] as u64)));
        }
        if self.space.is_sorted() {
            return self.sorted_neighbours(rank, |_, r| f(r));
        }
        self.class_neighbours(rank, f)
    }
}

impl OptimalBfs {
    fn class_neighbours(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let (k, mt) = (self.k, move_tables());
        let classes = match self.space {
            OptimalSpace::Corners => &k.corners().cperm,
            _ => &k.flipslice,
        };
        let (c, t) = (rank as usize / N_TWIST, rank as usize % N_TWIST);
        let x = classes.rep[c] as usize;
        for m in 0..18 {
            let x2 = match self.space {
                OptimalSpace::FlipSliceTwist => {
                    let (slice, flip) = (x / N_FLIP, x % N_FLIP);
                    mt.slice[slice * 18 + m] as usize * N_FLIP + mt.flip[flip * 18 + m] as usize
                }
                _ => k.corners().cperm_move[x * 18 + m] as usize,
            };
            let t2 = mt.twist[t * 18 + m] as usize;
            let c2 = classes.class_of[x2] as usize;
            let t2 = k.twist_conj[t2 * N_SYM16 + classes.sym_of[x2] as usize] as usize;
            if !twins(k, c2, classes.stabilizer[c2], t2, &mut f) {
                return;
            }
        }
    }

    /// Calls `f(move, neighbour)`.
    fn sorted_neighbours(&self, rank: u64, mut f: impl FnMut(usize, u64) -> bool) {
        let (k, mt, t) = (self.k, move_tables(), sorted_slice());
        let (c, tw) = (rank as usize / N_TWIST, rank as usize % N_TWIST);
        let x = t.rep[c] as usize;
        let (sslice, flip) = (x / N_FLIP, x % N_FLIP);
        for m in 0..18 {
            let x2 = t.moves[sslice * 18 + m] as usize * N_FLIP + mt.flip[flip * 18 + m] as usize;
            let cs = match &self.classify {
                Some(all) => all.as_slice()[x2] as usize,
                None => t.class_sym(k, x2 % N_FLIP, x2 / N_FLIP),
            };
            let c2 = cs >> 4;
            let t2 = mt.twist[tw * 18 + m] as usize;
            let t2 = k.twist_conj[t2 * N_SYM16 + (cs & 15)] as usize;
            if !twins(k, c2, t.stabilizer[c2], t2, &mut |r| f(m, r)) {
                return;
            }
        }
    }
}

/// Calls `f` with entry `(class, twist)` and its twins: a representative
/// fixed by a symmetry has one entry per twist it sees through that
/// symmetry (the same coset), reached together so that a push layer leaves
/// none for a later depth. False when `f` asked to stop.
#[inline]
fn twins(
    k: &Sym16,
    class: usize,
    stabilizer: u16,
    twist: usize,
    f: &mut impl FnMut(u64) -> bool,
) -> bool {
    (0..N_SYM16).all(|s| {
        stabilizer >> s & 1 == 0
            || f((class * N_TWIST + k.twist_conj[twist * N_SYM16 + s] as usize) as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube3::random_cube;

    #[test]
    fn sixteen_symmetries_form_a_group_keeping_the_face_moves() {
        let g = generic_cube();
        let seen: std::collections::HashSet<_> = (0..N_SYM16).map(|s| conj16(&g, s)).collect();
        assert_eq!(seen.len(), N_SYM16, "sixteen different symmetries");
        let k = sym16();
        for s in 0..N_SYM16 {
            // Closed under composition.
            for t in 0..N_SYM16 {
                let d = conj16(&conj16(&g, s), t);
                assert!(seen.contains(&d), "{s} then {t}");
            }
            assert_eq!(conj16(&conj16(&g, s), k.inv[s] as usize), g);
            // Face moves to face moves, the U-D axis kept.
            for m in 0..18 {
                let c = conj16(&moves()[m], s);
                let image = crate::cube3::move_index(&c).expect("a face move");
                assert_eq!(
                    (m / 3).is_multiple_of(3),
                    (image / 3).is_multiple_of(3),
                    "U-D axis kept"
                );
            }
        }
    }

    /// A class and symmetry turned by a move through the class's row equal
    /// the turned raw value's class, with a symmetry that takes the value
    /// to that class's representative.
    #[test]
    fn class_moves_follow_the_raw_values() {
        let (k, t, mt) = (sym16(), sorted_slice(), move_tables());
        let rows = t.class_moves(k, 2).unwrap();
        let rows = rows.as_slice();
        assert_eq!(rows.len(), FLIPSSLICE_CLASSES * CLASS_MOVE_WORDS);
        let conj = k.conj_moves();
        for seed in 0..300 {
            let c = random_cube(seed);
            let (mut flip, mut ss) = (c.flip() as usize, slice_sorted(&c) as usize);
            let mut cs = t.class_sym(k, flip, ss);
            for i in 0..40 {
                let m = ((seed * 7 + i * 13) % 18) as usize;
                let (class, s) = (cs >> 4, cs & 15);
                let row = &rows[class * CLASS_MOVE_WORDS..(class + 1) * CLASS_MOVE_WORDS];
                let next = class_move(row, conj[s][m] as usize) as usize;
                cs = next & !15 | k.then[s * N_SYM16 + (next & 15)] as usize;
                flip = mt.flip[flip * 18 + m] as usize;
                ss = t.moves[ss * 18 + m] as usize;
                let raw = t.class_sym(k, flip, ss);
                assert_eq!(cs >> 4, raw >> 4, "seed {seed}, move {i}");
                let rep = t.rep[cs >> 4] as usize;
                assert_eq!(t.conj_value(k, flip, ss, cs & 15), rep, "seed {seed}");
            }
        }
        // Every class's row: its representative's 18 neighbours.
        for class in (0..FLIPSSLICE_CLASSES).step_by(997) {
            let rep = t.rep[class] as usize;
            let row = &rows[class * CLASS_MOVE_WORDS..(class + 1) * CLASS_MOVE_WORDS];
            for m in 0..18 {
                let f = mt.flip[rep % N_FLIP * 18 + m] as usize;
                let x = t.moves[rep / N_FLIP * 18 + m] as usize;
                assert_eq!(class_move(row, m) as usize, t.class_sym(k, f, x));
            }
        }
    }

    #[test]
    fn conjugated_coordinates_depend_only_on_the_coordinates() {
        let k = sym16();
        for seed in 0..2000 {
            let c = random_cube(seed);
            for s in 0..N_SYM16 {
                let d = conj16(&c, s);
                let (f, sl) = (c.flip() as usize, c.slice() as usize);
                assert_eq!(d.twist(), k.twist_conj[c.twist() as usize * N_SYM16 + s]);
                assert_eq!(
                    k.flipslice_conj(f, sl, s),
                    d.slice() as usize * N_FLIP + d.flip() as usize
                );
                assert_eq!(
                    d.corner_perm(),
                    k.corners().cperm_conj[c.corner_perm() as usize * N_SYM16 + s]
                );
            }
            // The symmetry named for a value takes it to its representative.
            let x = c.slice() as usize * N_FLIP + c.flip() as usize;
            let d = conj16(&c, k.flipslice.sym_of[x] as usize);
            let rep = k.flipslice.rep[k.flipslice.class_of[x] as usize] as usize;
            assert_eq!(d.slice() as usize * N_FLIP + d.flip() as usize, rep);
        }
    }

    #[test]
    fn class_counts_are_kociembas_and_burnsides() {
        let k = sym16();
        assert_eq!(k.flipslice.classes(), FLIPSLICE_CLASSES);
        assert_eq!(k.corners().cperm.classes(), CPERM_CLASSES);
        // Burnside: classes = mean number of values each symmetry fixes,
        // counted on cubies (not through the XOR tables).
        let fixed_cperm: usize = (0..N_SYM16)
            .map(|s| {
                (0..N_PERM8)
                    .filter(|&p| {
                        let c = CubieCube::with_corner_perm(p as u16);
                        conj16(&c, s).corner_perm() as usize == p
                    })
                    .count()
            })
            .sum();
        assert_eq!(fixed_cperm, CPERM_CLASSES * N_SYM16);
        let mut fixed_fs = 0usize;
        for slice in 0..N_SLICE {
            let base = CubieCube::with_slice(slice as u16);
            for flip in 0..N_FLIP {
                let mut c = base;
                c.eo = CubieCube::with_flip(flip as u16).eo;
                for s in 0..N_SYM16 {
                    let d = conj16(&c, s);
                    if d.slice() as usize == slice && d.flip() as usize == flip {
                        fixed_fs += 1;
                    }
                }
            }
        }
        assert_eq!(fixed_fs, FLIPSLICE_CLASSES * N_SYM16);
        // Orbits cover every value once.
        let total: u64 = (0..k.flipslice.classes())
            .map(|c| k.flipslice.orbit(c))
            .sum();
        assert_eq!(total, N_FLIPSLICE as u64);
    }

    #[test]
    fn sorted_slices_rank_move_and_conjugate_as_cubies() {
        for x in 0..N_SSLICE as u16 {
            assert_eq!(slice_sorted(&with_slice_sorted(x)), x);
        }
        let (k, t) = (sym16(), sorted_slice());
        assert_eq!(t.classes(), FLIPSSLICE_CLASSES);
        for seed in 0..1000 {
            let c = random_cube(seed);
            let (f, ss) = (c.flip() as usize, slice_sorted(&c) as usize);
            for m in 0..18 {
                assert_eq!(t.moves[ss * 18 + m], slice_sorted(&c.apply_move(m)));
            }
            for s in 0..N_SYM16 {
                let d = conj16(&c, s);
                let want = slice_sorted(&d) as usize * N_FLIP + d.flip() as usize;
                assert_eq!(t.conj_value(k, f, ss, s), want);
            }
            // The class's symmetry takes the value to its representative.
            let cs = t.class_sym(k, f, ss);
            let d = conj16(&c, cs & 15);
            let rep = t.rep[cs >> 4] as usize;
            assert_eq!(slice_sorted(&d) as usize * N_FLIP + d.flip() as usize, rep);
        }
        // Burnside on the (cubie-checked) conjugation: classes = the mean
        // number of values a symmetry fixes.
        let fixed: usize = (0..N_FLIPSSLICE)
            .map(|x| {
                let (ss, f) = (x / N_FLIP, x % N_FLIP);
                (0..N_SYM16)
                    .filter(|&s| t.conj_value(k, f, ss, s) == x)
                    .count()
            })
            .sum();
        assert_eq!(fixed, FLIPSSLICE_CLASSES * N_SYM16);
        // The sorted slices' own classes (the first step of a value's
        // classification), by Burnside too, and each value classified
        // through them as by the smallest of its 16 images.
        let ss_fixed: usize = (0..N_SSLICE)
            .map(|x| {
                (0..N_SYM16)
                    .filter(|&s| t.conj[x * N_SYM16 + s] as usize == x)
                    .count()
            })
            .sum();
        assert_eq!(t.ss_rep.len() * N_SYM16, ss_fixed);
        assert_eq!(t.ss_rep.len(), 788);
        for x in (0..N_FLIPSSLICE).step_by(997) {
            let (ss, f) = (x / N_FLIP, x % N_FLIP);
            let least = (0..N_SYM16).map(|s| t.conj_value(k, f, ss, s)).min();
            let cs = t.class_sym(k, f, ss);
            assert_eq!(Some(t.rep[cs >> 4] as usize), least);
            assert_eq!(t.conj_value(k, f, ss, cs & 15), t.rep[cs >> 4] as usize);
        }
        let all = t.classify_all(k, 2).unwrap();
        for x in (0..N_FLIPSSLICE).step_by(101) {
            assert_eq!(
                all.as_slice()[x] as usize,
                t.class_sym(k, x % N_FLIP, x / N_FLIP)
            );
        }
        let total: u64 = (0..t.classes()).map(|c| t.orbit(c)).sum();
        assert_eq!(total, N_FLIPSSLICE as u64);
    }

    #[test]
    fn corner_parity_is_kept_by_the_symmetries_and_changed_by_quarter_turns() {
        let par = move_parity();
        for (m, &p) in par.iter().enumerate() {
            assert_eq!(p, u8::from(m % 3 != 1), "move {m}");
        }
        for seed in 0..500 {
            let c = random_cube(seed);
            // The edges' parity is the corners'.
            assert_eq!(corner_parity(&c), u8::from(crate::perm::is_odd(&c.ep)));
            for s in 0..N_SYM16 {
                assert_eq!(corner_parity(&conj16(&c, s)), corner_parity(&c));
            }
            for (m, &p) in par.iter().enumerate() {
                assert_eq!(corner_parity(&c.apply_move(m)), corner_parity(&c) ^ p);
            }
        }
    }

    #[test]
    fn neighbours_are_the_moved_cubes_entries() {
        let k = sym16();
        let t = sorted_slice();
        for space in [
            OptimalSpace::FlipSliceTwist,
            OptimalSpace::Corners,
            OptimalSpace::FlipSortedSliceTwist,
            OptimalSpace::FlipSortedSliceTwistParity,
        ] {
            let bfs = OptimalBfs::new(space);
            let index = |c: &CubieCube| match space {
                OptimalSpace::FlipSliceTwist => k.flipslice_twist_index(
                    c.flip() as usize,
                    c.slice() as usize,
                    c.twist() as usize,
                ),
                OptimalSpace::Corners => {
                    k.corners_index(c.corner_perm() as usize, c.twist() as usize)
                }
                OptimalSpace::FlipSortedSliceTwist => t.index(
                    k,
                    c.flip() as usize,
                    slice_sorted(c) as usize,
                    c.twist() as usize,
                ),
                OptimalSpace::FlipSortedSliceTwistParity => {
                    t.index(
                        k,
                        c.flip() as usize,
                        slice_sorted(c) as usize,
                        c.twist() as usize,
                    ) * 2
                        + corner_parity(c) as usize
                }
            } as u64;
            for seed in 0..300 {
                let c = random_cube(seed);
                // The entry of the cube's class representative view.
                let x = index(&c);
                let mut got = Vec::new();
                bfs.for_each_neighbour(x, |n| {
                    got.push(n);
                    true
                });
                // The entry stands for the cube seen through the symmetry
                // that takes it to its class: each of that view's moves is
                // a neighbour.
                let sym = match space {
                    OptimalSpace::FlipSliceTwist => {
                        k.flipslice.sym_of[c.slice() as usize * N_FLIP + c.flip() as usize]
                    }
                    OptimalSpace::Corners => k.corners().cperm.sym_of[c.corner_perm() as usize],
                    OptimalSpace::FlipSortedSliceTwist
                    | OptimalSpace::FlipSortedSliceTwistParity => {
                        (t.class_sym(k, c.flip() as usize, slice_sorted(&c) as usize) & 15) as u8
                    }
                } as usize;
                let v = conj16(&c, sym);
                for m in 0..18 {
                    assert!(
                        got.contains(&index(&v.apply_move(m))),
                        "{space:?} seed {seed}"
                    );
                }
            }
        }
    }
}
