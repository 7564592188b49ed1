//! 3x3x3 solver: Kociemba's two-phase algorithm on the catalog's tables.
//!
//! Phase 1 brings the cube into `<U, D, R2, L2, F2, B2>` (twist, flip and
//! UD-slice all 0) with the 18 face moves; phase 2 solves it with the 10 moves of
//! that group. Lower bounds: phase 1 takes the max of three tables (twist x slice,
//! flip x slice, twist x flip), phase 2 the max of three (corner perm x slice
//! perm, U/D edge perm x slice perm, U/D edge perm x D-corner positions; the last
//! is min2phase's choice and cuts phase-2 nodes by 4.5x) and of the last one
//! looked up for the inverse cube. The tables are the catalog's `3x3x3-phase*`
//! entries, each reduced by the eight symmetries `{I, x2, y2, z2} x {I, L-R
//! mirror}`, memory-mapped.
//!
//! As in the best implementations, phase 1 is searched on six views of the cube
//! at once (the three axes as U-D, each of the cube and of its inverse), and on
//! each view with pre-moves (moves appended after phase 2), by total phase-1
//! length, so that more short phase-1 solutions are tried; each is completed by
//! phase 2, and the total keeps shrinking until it reaches `max_length` or the
//! time budget runs out.

use crate::tables::{nibble, prefetch, Nibbles, TableError};
use crate::SolveError;
use std::path::Path;
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;
use tablegen::cube3::moves;
use tablegen::cube3::{move_of, CubieCube, MOVE_NAMES};
use tablegen::kociemba::{
    conj_sym, move_tables, sym8, MoveTables, Sym8, SymCoord, N_CCOMB, N_SLICE, N_SPERM, N_SYM,
    N_TWIST, P2_MOVES,
};
use tablegen::notation::{Face, Move, MoveKind};

/// The catalog tables the solver reads.
pub const TABLE_IDS: [&str; 6] = [
    "3x3x3-phase1-twist-slice",
    "3x3x3-phase1-flip-slice",
    "3x3x3-phase1-twist-flip",
    "3x3x3-phase2-cperm-sperm",
    "3x3x3-phase2-eperm-sperm",
    "3x3x3-phase2-eperm-ccomb",
];

/// The two-phase solver with its tables.
pub struct Solver {
    mt: &'static MoveTables,
    sym8: &'static Sym8,
    /// Twist and flip move tables whose entries also name the value's class
    /// and symmetry: `value | (class * 8 + sym) << 16`.
    twist_mv: Vec<u32>,
    flip_mv: Vec<u32>,
    p2: P2Moves,
    tables: [Nibbles; 6],
    /// `axis_moves[a][m]`: move `m` found on view `a` as a move of the cube.
    axis_moves: [[usize; 18]; 3],
    /// Whole-cube rotations that bring the R-L (F-B) axis to U-D.
    axis_rotation: [Vec<Move>; 3],
    /// Those rotations as cubies, and their inverses.
    axis_cubie: [(CubieCube, CubieCube); 3],
}

/// Options of one solve.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Stop at the first solution this short (0: keep shortening until the budget
    /// runs out or the solution is optimal).
    pub max_length: usize,
    /// Return the best found after this long (the search goes on until it has
    /// one solution, unless `strict`).
    pub time_budget: Duration,
    /// Only solutions within `max_length` are wanted: when none is found in the
    /// time budget, the solve returns no moves (for a cube that is not solved).
    pub strict: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_length: 21,
            time_budget: Duration::from_millis(1000),
            strict: false,
        }
    }
}

/// Phase-2 coordinates: corner permutation and U/D edge permutation as
/// symmetry coordinates (`class * 8 + sym`: the value is `S rep S`), slice
/// permutation, D-corner combination.
#[derive(Clone, Copy, Default)]
struct Coord2 {
    c: u16,
    e: u16,
    s: u8,
    cc: u8,
}

/// Phase-2 move tables on symmetry coordinates (min2phase's idea): 8x smaller
/// than the raw 8! x 10 tables, so they stay in cache.
struct P2Moves {
    /// `cperm[class * 10 + i]`: class representative moved by phase-2 move `i`,
    /// as `class * 8 + sym`.
    cperm: Vec<u16>,
    /// The same for U/D edge permutations.
    udperm: Vec<u16>,
    /// `symmove[s][i]`: the phase-2 move `S m_i S`.
    symmove: [[u8; 10]; N_SYM],
    /// Per corner-perm class, its representative's inverse as `class * 8 +
    /// sym`; the same for U/D edge-perm classes.
    cinv: Vec<u16>,
    einv: Vec<u16>,
    /// Per corner-perm class, its representative's corner combination.
    crep_comb: Vec<u8>,
}

impl P2Moves {
    fn new() -> P2Moves {
        let (mt, k) = (move_tables(), sym8());
        let table = |moves: &[u16], c: &SymCoord| -> Vec<u16> {
            c.rep
                .iter()
                .flat_map(|&r| {
                    (0..10).map(move |i| c.class_sym(moves[r as usize * 10 + i] as usize))
                })
                .collect()
        };
        let symmove = std::array::from_fn(|s| {
            std::array::from_fn(|i| {
                let image = conj_sym(&moves()[P2_MOVES[i]], s);
                (0..10)
                    .find(|&j| moves()[P2_MOVES[j]] == image)
                    .unwrap_or(i) as u8
            })
        });
        let inverses = |c: &SymCoord, cube: fn(u16) -> CubieCube, coord: fn(&CubieCube) -> u16| {
            c.rep
                .iter()
                .map(|&r| c.class_sym(coord(&cube(r).inverse()) as usize))
                .collect()
        };
        P2Moves {
            cperm: table(&mt.cperm, &k.cperm),
            udperm: table(&mt.udperm, &k.udperm),
            symmove,
            cinv: inverses(
                &k.cperm,
                CubieCube::with_corner_perm,
                CubieCube::corner_perm,
            ),
            einv: inverses(
                &k.udperm,
                CubieCube::with_ud_edge_perm,
                CubieCube::ud_edge_perm,
            ),
            crep_comb: k
                .cperm
                .rep
                .iter()
                .map(|&r| CubieCube::with_corner_perm(r).corner_comb() as u8)
                .collect(),
        }
    }

    /// Index in the U/D edge perm x corner combination table of the inverse
    /// of a phase-2 node (min2phase's second look at the same table). `S r S`
    /// inverted is `S r' S`, and `r' = T q T` from the class tables: the
    /// inverse has class `q`, symmetry `S T` (exclusive or).
    #[inline(always)]
    fn inverse_eperm_ccomb(&self, k: &Sym8, x: Coord2) -> usize {
        let (ci, ei) = (
            self.cinv[(x.c >> 3) as usize],
            self.einv[(x.e >> 3) as usize],
        );
        let csym = (ci ^ x.c) & 7;
        let esym = (ei ^ x.e) & 7;
        let comb = self.crep_comb[(ci >> 3) as usize] as usize;
        (ei >> 3) as usize * N_CCOMB + k.ccomb_conj[comb * N_SYM + (csym ^ esym) as usize] as usize
    }
}

/// Phase-1 coordinates of one view.
#[derive(Clone, Copy)]
struct View {
    cube: CubieCube,
    axis: usize,
    inverse: bool,
    twist: usize,
    flip: usize,
    slice: usize,
}

struct Search<'a> {
    mt: &'a MoveTables,
    sym8: &'a Sym8,
    twist_mv: &'a [u32],
    flip_mv: &'a [u32],
    p2: &'a P2Moves,
    ts: &'a [u8],
    fs: &'a [u8],
    tf: &'a [u8],
    cs: &'a [u8],
    es: &'a [u8],
    ec: &'a [u8],
    view: View,
    /// Pre-moves of the current phase-1 search (see [`Search::premoves`]), in
    /// the order they were chosen; the cube they are applied to.
    pre: [u8; MAX_PRE],
    pre_len: usize,
    pre_cube: CubieCube,
    /// Probe phase-1 solutions shorter than the search depth (see
    /// [`Search::premoves`]).
    allow_shorter: bool,
    path: [u8; 32],
    /// The best solution: its moves (in the view), phase lengths, view.
    best: Option<(Vec<u8>, [usize; 3], View)>,
    target: usize,
    max_length: usize,
    deadline: Instant,
    strict: bool,
    nodes: u64,
    stop: bool,
}

impl Solver {
    /// The solver with its tables from `dir` (built and saved there when missing).
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        let mut tables = Vec::new();
        for id in TABLE_IDS {
            tables.push(Nibbles::load(id, dir, quiet)?);
        }
        let tables: [Nibbles; 6] = tables
            .try_into()
            .map_err(|_| TableError::Build("3x3x3".into(), "table count".into()))?;
        let rot = |f: Face, t: u8| Move {
            face: f,
            kind: MoveKind::Rotation,
            turns: t,
        };
        // z brings L to U, x brings F to U.
        let axis_rotation = [vec![], vec![rot(Face::F, 1)], vec![rot(Face::R, 1)]];
        let axis_moves = std::array::from_fn(|a| {
            std::array::from_fn(|m| {
                let mv = tablegen::cube::unrotate(&[move_of(m)], &axis_rotation[a])[0];
                (0..18).find(|&k| move_of(k) == mv).unwrap_or(m)
            })
        });
        let axis_cubie = std::array::from_fn(|a| {
            let r = tablegen::kociemba::rotation_cubie(&axis_rotation[a]);
            (r, r.inverse())
        });
        let (mt, sym) = (move_tables(), sym8());
        let with_class = |moves: &[u16], c: &SymCoord| -> Vec<u32> {
            moves
                .iter()
                .map(|&x| x as u32 | (c.class_sym(x as usize) as u32) << 16)
                .collect()
        };
        Ok(Solver {
            mt,
            sym8: sym,
            twist_mv: with_class(&mt.twist, &sym.twist),
            flip_mv: with_class(&mt.flip, &sym.flip),
            p2: P2Moves::new(),
            tables,
            axis_moves,
            axis_rotation,
            axis_cubie,
        })
    }

    /// Bytes of pruning tables the solver reads.
    pub fn table_bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.bytes().len() as u64).sum()
    }

    /// The cube seen with axis `a` as U-D: a cube whose solutions, read through
    /// `axis_moves[a]`, solve `c`. (`R^-1 C R` for the rotation's cubie `R`; the
    /// tests check it against [`Solver::view_cube_by_facelets`].)
    fn view_cube(&self, c: &CubieCube, a: usize) -> CubieCube {
        let (r, r_inv) = &self.axis_cubie[a];
        r_inv.multiply(c).multiply(r)
    }

    /// The view of `view_cube` the slow, obvious way: turn the facelets, rename
    /// the colours after the centres.
    pub fn view_cube_by_facelets(&self, c: &CubieCube, a: usize) -> CubieCube {
        if a == 0 {
            return *c;
        }
        let c3 = CubeN::new(3);
        let mut s = c.to_facelets();
        c3.apply_alg(&mut s, &self.axis_rotation[a]);
        // Rename the colours after the faces their centres now sit on.
        let mut rename = [0u8; 6];
        for f in Face::ALL {
            rename[s[c3.index(f, 1, 1)] as usize] = f as u8;
        }
        for x in s.iter_mut() {
            *x = rename[*x as usize];
        }
        CubieCube::from_facelets(&s).unwrap_or(*c)
    }

    /// Solves a position; returns move indices (0..18, see [`MOVE_NAMES`]).
    pub fn solve(&self, cube: &CubieCube, opts: Options) -> Vec<usize> {
        self.solve_phased(cube, opts).0
    }

    /// A lower bound of the moves `c` needs: the largest phase-1 bound of its
    /// six views (each view has `c`'s distance, and phase 1 is part of it).
    pub fn lower_bound(&self, c: &CubieCube) -> usize {
        let [ts, fs, tf, ..] = &self.tables;
        let tables = [ts.bytes(), fs.bytes(), tf.bytes()];
        self.views(c)
            .iter()
            .map(|v| phase1_bound(self.sym8, tables, v.twist, v.flip, v.slice))
            .max()
            .unwrap_or(0)
    }

    /// The six views of a cube: each axis as U-D, of the cube and of its
    /// inverse.
    fn views(&self, cube: &CubieCube) -> Vec<View> {
        let inv = cube.inverse();
        let mut views = Vec::with_capacity(6);
        for a in 0..3 {
            for (c, inverse) in [(cube, false), (&inv, true)] {
                let v = self.view_cube(c, a);
                let (twist, flip, slice) = phase1_coords(&v);
                views.push(View {
                    cube: v,
                    axis: a,
                    inverse,
                    twist,
                    flip,
                    slice,
                });
            }
        }
        views
    }

    /// Solves a position; also returns the phases in the order their moves
    /// appear in the solution (`phase2` comes first when the inverse was
    /// solved) and the nodes visited.
    pub fn solve_phased(
        &self,
        cube: &CubieCube,
        opts: Options,
    ) -> (Vec<usize>, Vec<(&'static str, usize)>, u64) {
        // Only solutions within `max_length` are searched for, until the time
        // runs out without one (see `out_of_time`).
        let target = if opts.max_length > 0 {
            (opts.max_length + 1).min(ANY_LENGTH)
        } else {
            ANY_LENGTH
        };
        self.run(cube, target, opts.max_length, opts.time_budget, opts.strict)
    }

    /// The shortest solution shorter than `below` moves found in `time` (the
    /// search keeps shortening until the time is up or no shorter one
    /// exists); no moves if none is found (for a cube that is not solved).
    pub fn solve_below(&self, cube: &CubieCube, below: usize, time: Duration) -> Vec<usize> {
        self.run(cube, below.min(ANY_LENGTH), 0, time, true).0
    }

    /// The search: solutions shorter than `target`, stopping at one within
    /// `max_length` or at the deadline (see `out_of_time` for `strict`).
    fn run(
        &self,
        cube: &CubieCube,
        target: usize,
        max_length: usize,
        time: Duration,
        strict: bool,
    ) -> (Vec<usize>, Vec<(&'static str, usize)>, u64) {
        let views = self.views(cube);
        let [ts, fs, tf, cs, es, ec] = &self.tables;
        let mut s = Search {
            mt: self.mt,
            sym8: self.sym8,
            twist_mv: &self.twist_mv,
            flip_mv: &self.flip_mv,
            p2: &self.p2,
            ts: ts.bytes(),
            fs: fs.bytes(),
            tf: tf.bytes(),
            cs: cs.bytes(),
            es: es.bytes(),
            ec: ec.bytes(),
            view: views[0],
            pre: [0; MAX_PRE],
            pre_len: 0,
            pre_cube: views[0].cube,
            allow_shorter: false,
            path: [0; 32],
            best: None,
            target,
            max_length,
            deadline: Instant::now() + time,
            strict,
            nodes: 0,
            stop: false,
        };
        'depths: for length1 in 0..ANY_LENGTH {
            for v in &views {
                if length1 >= s.target {
                    if s.best.is_some() || s.strict {
                        break 'depths;
                    }
                    // Nothing within `max_length`: any solution will do.
                    s.target = ANY_LENGTH;
                }
                s.view = *v;
                s.premoves(v.cube, (v.twist, v.flip, v.slice), 0, length1, 18);
                if s.stop {
                    break 'depths;
                }
            }
        }
        let nodes = s.nodes;
        let Some((path, [len1, len2, pre], view)) = s.best else {
            let none = vec![("phase1", 0), ("phase2", 0), ("premoves", 0)];
            return (Vec::new(), none, nodes);
        };
        let mut moves: Vec<usize> = path
            .iter()
            .map(|&m| self.axis_moves[view.axis][m as usize])
            .collect();
        let mut phases = vec![("phase1", len1), ("phase2", len2), ("premoves", pre)];
        if view.inverse {
            moves.reverse();
            for m in moves.iter_mut() {
                *m = *m / 3 * 3 + (2 - *m % 3);
            }
            phases.reverse();
        }
        (moves, phases, nodes)
    }
}

/// The phase-1 bound of raw coordinates: max of the twist x slice, flip x slice
/// and twist x flip tables.
#[inline(always)]
fn phase1_bound(k: &Sym8, [ts, fs, tf]: [&[u8]; 3], t: usize, f: usize, s: usize) -> usize {
    nibble(ts, k.twist_slice_index(t, s))
        .max(nibble(fs, k.flip_slice_index(f, s)))
        .max(nibble(tf, k.twist_flip_index(t, f)))
}

/// A target no solution reaches: any length is accepted.
const ANY_LENGTH: usize = 31;

/// Pre-moves are tried only while phase 1 is searched this deep or deeper (as
/// min2phase's MIN_P1PRE_LEN).
const MIN_PRE_DEPTH1: usize = 7;

/// At most this many pre-moves.
const MAX_PRE: usize = 20;

/// The pre-moves that may come last (next to phase 2): quarter turns of R, F,
/// L, B (any other move is in the phase-2 group, or a quarter turn's variant
/// found through it: see `start_phase2`).
const LAST_PREMOVES: [usize; 4] = [3, 6, 12, 15];

/// Appends move `m` to a move sequence, merged with the last move when both
/// turn the same face (also across a turn of the opposite face, which
/// commutes).
fn push_merged(sol: &mut Vec<u8>, m: u8) {
    let n = sol.len();
    let same = |x: u8| x / 3 == m / 3;
    let at = if n >= 1 && same(sol[n - 1]) {
        Some(n - 1)
    } else if n >= 2 && sol[n - 1] / 3 % 3 == m / 3 % 3 && same(sol[n - 2]) {
        Some(n - 2)
    } else {
        None
    };
    match at {
        None => sol.push(m),
        Some(i) => {
            // Quarter turns: 1, 2, 3 for indices 0, 1, 2.
            let turns = (sol[i] % 3 + 1 + m % 3 + 1) % 4;
            if turns == 0 {
                sol.remove(i);
            } else {
                sol[i] = m / 3 * 3 + turns - 1;
            }
        }
    }
}

/// Phase-2 coordinates of a cube in the phase-2 group.
fn coord2(k: &Sym8, c: &CubieCube) -> Coord2 {
    Coord2 {
        c: k.cperm.class_sym(c.corner_perm() as usize),
        e: k.udperm.class_sym(c.ud_edge_perm() as usize),
        s: c.slice_perm(),
        cc: c.corner_comb() as u8,
    }
}

/// The phase-1 coordinates of a cube.
fn phase1_coords(c: &CubieCube) -> (usize, usize, usize) {
    (c.twist() as usize, c.flip() as usize, c.slice() as usize)
}

/// The moves that may end a phase-1 solution: those not in the phase-2 group
/// (R, R', F, F', L, L', B, B').
const LAST_PHASE1_MOVES: [usize; 8] = [3, 5, 6, 8, 12, 14, 15, 17];

/// `ALLOWED[prev]`: bit `m` set when move `m` may follow `prev` (18: none).
const ALLOWED: [u32; 19] = allowed_masks(&{
    let mut all = [0usize; 18];
    let mut m = 0;
    while m < 18 {
        all[m] = m;
        m += 1;
    }
    all
});

/// `ALLOWED2[prev]`: bit `i` set when phase-2 move `P2_MOVES[i]` may follow
/// `prev` (18: none).
const ALLOWED2: [u32; 19] = allowed_masks(&P2_MOVES);

/// Per previous move (18: none), bit `i` set when `moves[i]` may follow it.
const fn allowed_masks(moves: &[usize]) -> [u32; 19] {
    let mut a = [0u32; 19];
    let mut prev = 0;
    while prev < 19 {
        let mut i = 0;
        while i < moves.len() {
            if allowed(prev, moves[i]) {
                a[prev] |= 1 << i;
            }
            i += 1;
        }
        prev += 1;
    }
    a
}

/// May move `m` follow `prev`? Not on the same face, and of two opposite faces
/// only in one order.
#[inline(always)]
const fn allowed(prev: usize, m: usize) -> bool {
    if prev >= 18 {
        return true;
    }
    let (pf, f) = (prev / 3, m / 3);
    pf != f && !(pf % 3 == f % 3 && pf > f)
}

impl Search<'_> {
    #[inline(always)]
    fn h1(&self, t: usize, f: usize, s: usize) -> usize {
        phase1_bound(self.sym8, [self.ts, self.fs, self.tf], t, f, s)
    }

    #[inline(always)]
    fn h2(&self, x: Coord2) -> usize {
        let ix = self.p2_index(x);
        nibble(self.es, ix[0])
            .max(nibble(self.cs, ix[1]))
            .max(nibble(self.ec, ix[2]))
    }

    /// Indices of a phase-2 node in the U/D edge perm x slice perm, corner perm
    /// x slice perm and U/D edge perm x corner combination tables.
    #[inline(always)]
    fn p2_index(&self, x: Coord2) -> [usize; 3] {
        let k = self.sym8;
        let (cc, cs) = ((x.c >> 3) as usize, (x.c & 7) as usize);
        let (ec, es) = ((x.e >> 3) as usize, (x.e & 7) as usize);
        let (s, comb) = (x.s as usize, x.cc as usize);
        [
            ec * N_SPERM + k.sperm_conj[s * N_SYM + es] as usize,
            cc * N_SPERM + k.sperm_conj[s * N_SYM + cs] as usize,
            ec * N_CCOMB + k.ccomb_conj[comb * N_SYM + es] as usize,
        ]
    }

    /// Past the deadline: stop if a solution is known, else accept any length
    /// from now on (the search always returns a solution).
    fn out_of_time(&mut self) -> bool {
        if Instant::now() > self.deadline {
            if self.best.is_some() || self.strict {
                self.stop = true;
            } else {
                self.target = ANY_LENGTH;
            }
        }
        self.stop
    }

    /// Phase-1 search at `depth` moves done, `left` to go.
    fn phase1(&mut self, t: usize, f: usize, s: usize, depth: usize, left: usize, prev: usize) {
        self.nodes += 1;
        if self.nodes & 0x3FF == 0 && self.out_of_time() {
            return;
        }
        let in_h = t == 0 && f == 0 && s == 0;
        if in_h && (left == 0 || (left < 5 && self.allow_shorter)) {
            // A phase-1 solution ending in a phase-2 move was already tried one move
            // shorter, with that move in phase 2.
            if depth == 0 || !P2_MOVES.contains(&prev) {
                self.start_phase2(depth);
            }
            return;
        }
        // Already in the phase-2 group with moves to spare: a path that leaves it
        // and comes back needs at least five moves (as in Kociemba's and
        // min2phase's searches), and paths that stay in it end in a phase-2 move.
        if left == 0 || (in_h && left < 5) {
            return;
        }
        if left == 1 {
            // The last move must bring the cube into the phase-2 group, so the
            // coordinates are compared with 0 instead of reading tables; and it
            // cannot be a phase-2 move (see above), so only the eight quarter
            // turns of R, F, L, B are tried.
            for m in LAST_PHASE1_MOVES {
                if allowed(prev, m)
                    && self.mt.twist[t * 18 + m] == 0
                    && self.mt.flip[f * 18 + m] == 0
                    && self.mt.slice[s * 18 + m] == 0
                {
                    self.nodes += 1;
                    self.path[depth] = m as u8;
                    self.start_phase2(depth + 1);
                    if self.stop {
                        return;
                    }
                }
            }
            return;
        }
        // Children are checked on the twist x slice bound first (its table is
        // the smallest, mostly cached); the survivors' two other entries are
        // fetched together, so that their cache misses overlap, then checked.
        let mt = self.mt;
        let sym8 = self.sym8;
        let mut kids = [(0u8, 0u16, 0u16, 0u16, 0u32, 0u32); 18];
        let mut n = 0;
        let mut mask = ALLOWED[prev];
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            // Each move-table entry carries its value's class and symmetry.
            let tw = self.twist_mv[t * 18 + m];
            let (t2, s2) = ((tw & 0xFFFF) as usize, mt.slice[s * 18 + m] as usize);
            let (tc, ts) = ((tw >> 19) as usize, (tw >> 16 & 7) as usize);
            let its = tc * N_SLICE + sym8.slice_conj[s2 * N_SYM + ts] as usize;
            if nibble(self.ts, its) >= left {
                continue;
            }
            let fw = self.flip_mv[f * 18 + m];
            let f2 = (fw & 0xFFFF) as usize;
            let (fc, fs) = ((fw >> 19) as usize, (fw >> 16 & 7) as usize);
            let ifs = fc * N_SLICE + sym8.slice_conj[s2 * N_SYM + fs] as usize;
            let itf = fc * N_TWIST + sym8.twist_conj[t2 * N_SYM + fs] as usize;
            prefetch(self.fs, ifs >> 1);
            prefetch(self.tf, itf >> 1);
            kids[n] = (
                m as u8, t2 as u16, f2 as u16, s2 as u16, ifs as u32, itf as u32,
            );
            n += 1;
        }
        for &(m, t2, f2, s2, ifs, itf) in &kids[..n] {
            if nibble(self.fs, ifs as usize) >= left || nibble(self.tf, itf as usize) >= left {
                continue;
            }
            self.path[depth] = m;
            self.phase1(
                t2 as usize,
                f2 as usize,
                s2 as usize,
                depth + 1,
                left - 1,
                m as usize,
            );
            if self.stop {
                return;
            }
        }
    }

    /// Phase 1 on the cube with pre-moves (Rokicki's and min2phase's idea): a
    /// solution `S` of `m C` gives the solution `S m` of `C`. Each sequence of
    /// pre-moves is one more view of the cube, so that at each total phase-1
    /// length (`length1`: pre-moves and phase-1 moves) many more phase-1
    /// solutions are probed, and a short whole is found sooner. Pre-moves are
    /// tried while phase 1 stays at least `MIN_PRE_DEPTH1` deep; at that depth
    /// shorter phase-1 solutions are probed too (they are not searched
    /// elsewhere with these pre-moves). `coords` are `cube`'s phase-1
    /// coordinates; `last` the last pre-move (18: none).
    fn premoves(
        &mut self,
        cube: CubieCube,
        (t, f, s): (usize, usize, usize),
        k: usize,
        length1: usize,
        last: usize,
    ) {
        let depth1 = length1 - k;
        // The last pre-move (next to phase 2) must be a quarter turn of R, F, L
        // or B: any other would belong to phase 2.
        if (k == 0 || LAST_PREMOVES.contains(&last)) && self.h1(t, f, s) <= depth1 {
            self.pre_len = k;
            self.pre_cube = cube;
            self.allow_shorter = k > 0 && depth1 == MIN_PRE_DEPTH1;
            self.phase1(t, f, s, 0, depth1, 18);
            if self.stop {
                return;
            }
        }
        if depth1 <= MIN_PRE_DEPTH1 || k == MAX_PRE {
            return;
        }
        // When no pre-move can follow this one, only those that may come last.
        let final_level = depth1 == MIN_PRE_DEPTH1 + 1;
        for m in 0..18 {
            // One axis at a time (as min2phase: moves on one axis commute).
            if last < 18 && m / 3 % 3 == last / 3 % 3 {
                continue;
            }
            if final_level && !LAST_PREMOVES.contains(&m) {
                continue;
            }
            let c = moves()[m].multiply(&cube);
            self.pre[k] = m as u8;
            self.premoves(c, phase1_coords(&c), k + 1, length1, m);
            if self.stop {
                return;
            }
        }
    }

    /// Phase 2 after a phase-1 solution of `len1` moves (`path[..len1]`) of the
    /// current view with its pre-moves.
    fn start_phase2(&mut self, len1: usize) {
        let k = self.pre_len;
        if len1 + k + 1 > self.target {
            return;
        }
        let mut c = self.pre_cube;
        for &m in &self.path[..len1] {
            c = c.apply_move(m as usize);
        }
        let x = coord2(self.sym8, &c);
        // With pre-moves, the last one (a quarter turn) may also be its inverse:
        // `m' C S = m2 (m C S)`, with the half turn `m2` in the phase-2 group.
        let x2 = (k > 0).then(|| {
            let half = self.pre[k - 1] as usize / 3 * 3 + 1;
            coord2(self.sym8, &moves()[half].multiply(&c))
        });
        let h = match x2 {
            Some(x2) => self.h2(x).min(self.h2(x2)),
            None => self.h2(x),
        };
        // Only solutions shorter than the best so far are of use; until phase 1
        // is long, phase 2 is kept short (other phase-1 solutions are cheaper
        // than a deep phase-2 search). 13 as min2phase's MAX_DEPTH2 (12 measured
        // 0.58 ms median at max 21, 13 0.54 ms, 11 0.70 ms).
        let cap2 = if len1 + k >= 12 { 18 } else { 13 };
        let max2 = (self.target - 1 - len1 - k).min(cap2);
        if h > max2 {
            return;
        }
        let prev = if len1 == 0 {
            18
        } else {
            self.path[len1 - 1] as usize
        };
        // As in min2phase: the first search allows the longest phase 2 of use
        // and stops at any solution; each solution found lowers the bound to one
        // shorter, until none is found.
        let mut bound = max2;
        loop {
            let mut found = self.phase2(x, len1, bound, prev).map(|t| (t, false));
            if found.is_none() && !self.stop {
                if let Some(x2) = x2 {
                    found = self.phase2(x2, len1, bound, prev).map(|t| (t, true));
                }
            }
            let Some((end2, inverted)) = found else {
                break;
            };
            // Shorter than the target, as the bound was.
            let total = end2 + k;
            // The solution of `C`: phase 1, phase 2, the pre-moves last first
            // (merged with phase 2's last move when it turns the same face).
            let mut sol = self.path[..end2].to_vec();
            for (i, &m) in self.pre[..k].iter().rev().enumerate() {
                push_merged(&mut sol, if i == 0 && inverted { m + 2 } else { m });
            }
            let pre = sol.len() - end2;
            self.target = sol.len();
            self.best = Some((sol, [len1, end2 - len1, pre], self.view));
            if total <= self.max_length {
                self.stop = true;
            }
            if self.stop || end2 - len1 <= h {
                break;
            }
            bound = end2 - len1 - 1;
        }
        self.out_of_time();
    }

    fn phase2(&mut self, x: Coord2, depth: usize, left: usize, prev: usize) -> Option<usize> {
        // Solved with moves to spare: a shorter phase 2 (the bound is a maximum).
        // (The identity is alone in its class.)
        if x.c >> 3 == 0 && x.e >> 3 == 0 && x.s == 0 {
            return Some(depth);
        }
        if left == 0 {
            return None;
        }
        self.nodes += 1;
        if self.nodes & 0x3FF == 0 && self.out_of_time() {
            return None;
        }
        // The tables are small enough to stay in cache: each child is checked
        // as it is made, the inverse's bound first (it cuts most), the other
        // entries only for the children that pass.
        let (mt, p2, k) = (self.mt, self.p2, self.sym8);
        let (cc, cs) = ((x.c >> 3) as usize, (x.c & 7) as usize);
        let (ec, es) = ((x.e >> 3) as usize, (x.e & 7) as usize);
        let mut mask = ALLOWED2[prev];
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            // A node `S r S` (class representative r, symmetry S) moved by m is
            // `S (r m') S` with `m' = S m S`; the table gives `r m' = T r2 T`,
            // and the symmetries compose by exclusive or.
            let c2 = p2.cperm[cc * 10 + p2.symmove[cs][i] as usize] ^ cs as u16;
            let e2 = p2.udperm[ec * 10 + p2.symmove[es][i] as usize] ^ es as u16;
            let y = Coord2 {
                c: c2,
                e: e2,
                s: mt.sperm[x.s as usize * 10 + i] as u8,
                cc: mt.ccomb[x.cc as usize * 10 + i] as u8,
            };
            // The bound of the inverse is not consistent: a child two past the
            // bound shows that this node is out of reach too.
            let hi = nibble(self.ec, p2.inverse_eperm_ccomb(k, y));
            if hi > left + 1 {
                return None;
            }
            if hi >= left {
                continue;
            }
            let ix = self.p2_index(y);
            if nibble(self.ec, ix[2]) >= left
                || nibble(self.es, ix[0]) >= left
                || nibble(self.cs, ix[1]) >= left
            {
                continue;
            }
            let m = P2_MOVES[i];
            self.path[depth] = m as u8;
            if let Some(total) = self.phase2(y, depth + 1, left - 1, m) {
                return Some(total);
            }
            if self.stop {
                return None;
            }
        }
        None
    }
}

/// Move names of a solution.
pub fn names(moves: &[usize]) -> Vec<String> {
    moves.iter().map(|&m| MOVE_NAMES[m].to_string()).collect()
}

/// The 3x3x3 in the [`crate::puzzle`] registry.
pub struct Cube3Puzzle;

impl crate::puzzle::Puzzle for Cube3Puzzle {
    fn name(&self) -> &'static str {
        "3x3x3"
    }
    fn parse(&self, input: &crate::puzzle::Input) -> Result<crate::puzzle::Position, SolveError> {
        let pos = crate::puzzle::parse_cube(3, input)?;
        // Refuse a bad state before loading any table.
        CubieCube::from_facelets(crate::puzzle::cube_state(&pos)?).map_err(SolveError::Input)?;
        Ok(pos)
    }
    fn load(
        &self,
        tables: &Path,
        quiet: bool,
    ) -> Result<Box<dyn crate::puzzle::Solve>, SolveError> {
        Ok(Box::new(Solver::load(tables, quiet)?))
    }
}

impl crate::puzzle::Solve for Solver {
    fn solve(
        &self,
        position: &crate::puzzle::Position,
        opts: &crate::puzzle::Options,
    ) -> Result<crate::Solution, SolveError> {
        let st = crate::puzzle::cube_state(position)?;
        let cube = CubieCube::from_facelets(st).map_err(SolveError::Input)?;
        let (rotation, _) =
            tablegen::validate::orient_centres(&CubeN::new(3), st).map_err(SolveError::Input)?;
        let opts = Options {
            max_length: opts.max_length,
            time_budget: opts.time_budget.unwrap_or(Duration::from_millis(1000)),
            strict: false,
        };
        // A cube a few turns from solved gets an optimal solution; the phase-1
        // bounds (admissible) send random states on to the two phases at once.
        let near = crate::short::optimal3(&cube, |c| self.lower_bound(c));
        let (found, phases) = match near {
            Some(found) => {
                let phases = vec![("optimal", found.len())];
                (found, phases)
            }
            None => {
                let (found, phases, _) = self.solve_phased(&cube, opts);
                (found, phases)
            }
        };
        let moves: Vec<Move> = found.iter().map(|&m| move_of(m)).collect();
        let moves = tablegen::cube::unrotate(&moves, &rotation);
        Ok(crate::Solution {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            phases: phases.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
        })
    }
    fn scramble(&self, seed: u64) -> Result<crate::puzzle::Scramble, SolveError> {
        let cube = tablegen::cube3::random_cube(rand::Rng::gen(&mut crate::puzzle::rng(seed)));
        let found = self.solve(&cube, Options::default());
        let moves: Vec<String> = found.iter().map(|&m| move_of(m).to_string()).collect();
        let sol = crate::Solution {
            moves,
            phases: Vec::new(),
        };
        crate::puzzle::cube_scramble(3, &sol)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablegen::cube3::random_cube;

    fn solver() -> Solver {
        Solver::load(&crate::tables::test_tables_dir(), true).unwrap()
    }

    fn check(solver: &Solver, c: &CubieCube, opts: Options) -> usize {
        let sol = solver.solve(c, opts);
        let mut d = *c;
        for &m in &sol {
            d = d.apply_move(m);
        }
        assert_eq!(d, CubieCube::SOLVED, "{:?}", names(&sol));
        for w in sol.windows(2) {
            assert!(w[0] / 3 != w[1] / 3, "same face twice: {:?}", names(&sol));
        }
        sol.len()
    }

    #[test]
    fn inverse_bound_of_symmetry_coordinates() {
        // The inverse's entry found from symmetry coordinates is the one of
        // the inverse's own coordinates.
        let solver = solver();
        let (p2, k) = (&solver.p2, solver.sym8);
        let ec = solver.tables[5].bytes();
        let mut c = CubieCube::SOLVED;
        let mut seed = 12345u64;
        for _ in 0..20000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            c = c.apply_move(P2_MOVES[(seed >> 33) as usize % 10]);
            let x = coord2(k, &c);
            let inv = c.inverse();
            let direct =
                k.eperm_ccomb_index(inv.ud_edge_perm() as usize, inv.corner_comb() as usize);
            assert_eq!(nibble(ec, p2.inverse_eperm_ccomb(k, x)), nibble(ec, direct));
        }
    }

    #[test]
    fn merged_moves() {
        let merged = |moves: &[u8], m: u8| {
            let mut v = moves.to_vec();
            push_merged(&mut v, m);
            v
        };
        // R2 + R = R'; R + R' = nothing; U D2 + U = U2 D2; U + D = U D.
        assert_eq!(merged(&[0, 4], 3), vec![0, 5]);
        assert_eq!(merged(&[0, 3], 5), vec![0]);
        assert_eq!(merged(&[0, 10], 0), vec![1, 10]);
        assert_eq!(merged(&[0], 9), vec![0, 9]);
        assert_eq!(merged(&[], 6), vec![6]);
        // Every merge gives the same cube as the moves one after the other.
        let apply = |v: &[u8]| {
            v.iter()
                .fold(CubieCube::SOLVED, |c, &m| c.apply_move(m as usize))
        };
        for a in 0..18u8 {
            for b in 0..18u8 {
                for m in 0..18u8 {
                    let v = merged(&[a, b], m);
                    assert_eq!(apply(&v), apply(&[a, b, m]));
                    assert!(v.len() <= 3);
                }
            }
        }
    }

    #[test]
    fn premoves_are_used() {
        // At max 20 a good share of the solutions end with pre-moves; each
        // solution is checked, and its phases add up to its length.
        let solver = solver();
        let opts = Options {
            max_length: 20,
            time_budget: Duration::from_secs(30),
            ..Options::default()
        };
        let mut with_pre = 0;
        for seed in 0..100 {
            let c = random_cube(1000 + seed);
            let (sol, phases, _) = solver.solve_phased(&c, opts);
            let end = sol.iter().fold(c, |c, &m| c.apply_move(m));
            assert_eq!(end, CubieCube::SOLVED);
            assert!(sol.len() <= 20);
            assert_eq!(phases.iter().map(|p| p.1).sum::<usize>(), sol.len());
            with_pre += phases.iter().any(|&(k, n)| k == "premoves" && n > 0) as usize;
        }
        assert!(with_pre >= 10, "{with_pre} of 100 with pre-moves");
    }

    #[test]
    fn views_by_cubies_and_by_facelets_agree() {
        let s = solver();
        for a in 0..3 {
            for seed in 0..100 {
                let c = random_cube(seed);
                assert_eq!(s.view_cube(&c, a), s.view_cube_by_facelets(&c, a));
            }
        }
    }

    #[test]
    fn thousands_of_random_states_within_21() {
        let solver = solver();
        let opts = Options {
            max_length: 21,
            time_budget: Duration::from_secs(30),
            ..Options::default()
        };
        let n = 2000;
        let mut total = 0;
        for seed in 0..n {
            let len = check(&solver, &random_cube(seed), opts);
            assert!(len <= 21, "seed {seed}: {len} moves");
            total += len;
        }
        eprintln!("{n} random states, average {:.2}", total as f64 / n as f64);
    }

    #[test]
    fn short_positions_and_solved() {
        let solver = solver();
        assert!(solver
            .solve(&CubieCube::SOLVED, Options::default())
            .is_empty());
        // Every position up to 3 moves deep, solved optimally when asked for <= 3.
        let opts = Options {
            max_length: 3,
            time_budget: Duration::from_secs(10),
            ..Options::default()
        };
        for a in 0..18 {
            for b in 0..18 {
                let c = CubieCube::SOLVED.apply_move(a).apply_move(b);
                assert!(check(&solver, &c, opts) <= 2);
                let d = c.apply_move((a * 7 + b) % 18);
                assert!(check(&solver, &d, opts) <= 3);
            }
        }
    }

    #[test]
    fn solve_below_only_shorter() {
        let solver = solver();
        let mut shorter = 0;
        for seed in 0..20 {
            let c = random_cube(100 + seed);
            let first = solver.solve(&c, Options::default());
            let below = solver.solve_below(&c, first.len(), Duration::from_millis(30));
            if below.is_empty() {
                continue;
            }
            assert!(below.len() < first.len());
            shorter += 1;
            let mut d = c;
            for &m in &below {
                d = d.apply_move(m);
            }
            assert_eq!(d, CubieCube::SOLVED, "{:?}", names(&below));
            // Below the lower bound nothing can be found.
            let lb = solver.lower_bound(&c);
            assert!(solver
                .solve_below(&c, lb, Duration::from_millis(5))
                .is_empty());
        }
        // The first solution within 21 moves is mostly 20 or 21 long: a
        // shorter one is found in 30 ms for most cubes.
        assert!(shorter >= 10, "{shorter} of 20 shortened");
    }

    #[test]
    fn superflip_and_budget() {
        let solver = solver();
        // Superflip: every edge flipped in place, 20 moves at best.
        let mut c = CubieCube::SOLVED;
        c.eo = [1; 12];
        let len = check(
            &solver,
            &c,
            Options {
                max_length: 20,
                time_budget: Duration::from_secs(60),
                ..Options::default()
            },
        );
        assert_eq!(len, 20);
        // A zero budget still returns a (possibly long) solution.
        let len = check(
            &solver,
            &random_cube(7),
            Options {
                max_length: 0,
                time_budget: Duration::ZERO,
                ..Options::default()
            },
        );
        assert!(len <= 30);
        // The lower bound never exceeds a solution's length, and is 0 only
        // for cubes in the phase-2 group.
        for seed in 0..200 {
            let c = random_cube(seed);
            let lb = solver.lower_bound(&c);
            assert!(lb > 0 && lb <= solver.solve(&c, Options::default()).len());
        }
        assert_eq!(solver.lower_bound(&CubieCube::SOLVED.apply_move(1)), 0);
        let c = CubieCube::SOLVED.apply_move(3).apply_move(0);
        assert!((1..=2).contains(&solver.lower_bound(&c)));
        // A bound past any solution's length is no bound.
        let loose = Options {
            max_length: 40,
            ..Options::default()
        };
        assert!(check(&solver, &random_cube(3), loose) <= 30);
        // Out of reach (no random state is solved in 8 moves): a solution all
        // the same, or none when `strict`.
        let c = random_cube(11);
        let opts = Options {
            max_length: 8,
            time_budget: Duration::from_millis(20),
            strict: false,
        };
        assert!(check(&solver, &c, opts) > 8);
        let strict = Options {
            strict: true,
            ..opts
        };
        assert!(solver.solve(&c, strict).is_empty());
    }
}
