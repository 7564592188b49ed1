//! Optimal 3x3x3 solving: iterative-deepening A* in the half-turn metric,
//! after Kociemba's optimal solver (kociemba.org, "optimal solver").
//!
//! A node carries the phase-1 coordinates (flip, UD-slice edges, twist) of
//! the cube seen with each of its three axes as U-D, and its corner
//! permutation. Its lower bound is the largest of four lookups: an edge
//! table once per axis, and the corners table (`3x3x3-optimal-corners`, at
//! most 11). Two edge tables, the user's choice ([`TableSize`]):
//!
//! - small: `3x3x3-optimal-flipslice-twist`, the phase-1 coset's exact
//!   distance (at most 12), 70 MB of nibbles, built in ten seconds;
//! - large: `3x3x3-optimal-flipslicesorted-twist`, where the slice edges'
//!   order counts too, 667 MB of distances mod 3: the search knows each
//!   node's exact value and follows it move by move (a child's distance is
//!   its parent's, one more or one less, told apart by the residue);
//! - huge: `3x3x3-optimal-flipslicesorted-twist-parity`, the large table's
//!   coordinate and the corner permutation's parity, 1.33 GB mod 3: the
//!   same coset with the other parity is at most one further, and one
//!   entry in five is one further than the large table says.
//!
//! All are reduced by the 16 symmetries that keep the U-D axis; a
//! coordinate is brought to its class representative by table lookups.
//!
//! Moves are generated in a canonical order (never the same face twice, and
//! of two opposite faces, which commute, only one order). With the large
//! and huge tables, each axis's flip-sorted-slice coordinate is a class and
//! a symmetry, moved through the class's row of 18 neighbours: one cache
//! line per axis gives all of a node's children. Each node looks up its
//! children's entries in three passes (the U-D axis and the corners, then
//! the other two axes for the children still within the bound, then the
//! search of those), fetching the next pass's cache lines ahead.
//! Each depth is searched on all cores: the sequences of the first three
//! moves are tasks, and the answer is the first solution of the first task
//! that has one, so it does not depend on the thread count. A depth finished
//! without a solution proves that none that short exists.

mod walk;

use crate::tables::{nibble, prefetch, Nibbles, Packed, TableError, Trits};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;
use tablefmt::trit;
use tablegen::cube3::{move_index, moves, CubieCube};
use tablegen::kociemba::{move_tables, MoveTables, N_FLIP, N_TWIST};
use tablegen::optimal3::{
    class_move, corner_parity, move_parity, slice_sorted, sorted_slice, sym16, CornerSym16,
    SortedSlice, Sym16, CLASS_MOVE_WORDS, N_SYM16,
};

/// The corners table, read with either edge table.
pub const CORNERS_TABLE: &str = "3x3x3-optimal-corners";

/// The edge tables a user can choose between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TableSize {
    /// Flip-slice x twist: 70 MB (73 MB with the corners), built in about
    /// ten seconds; minutes for a random cube.
    Small,
    /// Flip-sorted-slice x twist: 667 MB, built in a few minutes; about
    /// twenty times fewer nodes.
    #[default]
    Large,
    /// Flip-sorted-slice x twist x corner parity: 1.33 GB, built in about
    /// nine minutes; 1.4 times fewer nodes.
    Huge,
}

impl TableSize {
    /// The catalog tables the solver reads with this size.
    pub fn table_ids(self) -> [&'static str; 2] {
        match self {
            TableSize::Small => ["3x3x3-optimal-flipslice-twist", CORNERS_TABLE],
            TableSize::Large => ["3x3x3-optimal-flipslicesorted-twist", CORNERS_TABLE],
            TableSize::Huge => ["3x3x3-optimal-flipslicesorted-twist-parity", CORNERS_TABLE],
        }
    }

    /// The size named `small`, `large` or `huge`.
    pub fn parse(name: &str) -> Result<TableSize, String> {
        match name {
            "small" => Ok(TableSize::Small),
            "large" => Ok(TableSize::Large),
            "huge" => Ok(TableSize::Huge),
            other => Err(format!(
                "optimal table size '{other}': expected small, large or huge"
            )),
        }
    }

    /// Whether the edge table reads the slice edges' order and is stored
    /// mod 3.
    fn is_sorted(self) -> bool {
        self != TableSize::Small
    }
}

/// How long an optimal solve may take when the caller sets no hard limit:
/// most random cubes take seconds to minutes.
pub const DEFAULT_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

/// Moves of a task's prefix: 18 x 15 x 15 sequences at most, enough to keep
/// every core busy to the end of a depth.
const PREFIX: usize = 3;

/// The optimal solver with its tables.
pub struct Optimal {
    k: &'static Sym16,
    /// The corner permutation's classes and moves (`Sym16::corners`).
    csym: &'static CornerSym16,
    mt: &'static MoveTables,
    size: TableSize,
    /// The edge table: nibbles (small) or distances mod 3 (large).
    edges: Packed,
    corners: Nibbles,
    /// Large and huge: the flip-sorted-slice classes.
    sorted: Option<&'static SortedSlice>,
    /// Large and huge: each class's 18 neighbours, one cache line a class
    /// (`SortedSlice::class_moves`).
    rows: Option<tablefmt::HugeU32>,
    /// `axis_conj[a][s][m]`: the move of the cube's move `m` seen from
    /// axis `a` and through symmetry `s` (`Sym16::conj_moves`).
    axis_conj: [[[u8; 18]; N_SYM16]; 3],
    /// Move table of the raw slice coordinate (positions, or positions and
    /// order).
    slice_moves: &'static [u16],
    /// The solved cube's entry in the edge table.
    goal: usize,
    /// Huge: 1, the entry's last binary digit is the corner parity; else 0.
    parity_bits: u32,
    /// The corner parity of each move (1 for quarter turns).
    move_parity: [u8; 18],
    /// `axis_move[a][m]`: the move of view `a` that the cube's move `m` is.
    axis_move: [[u8; 18]; 3],
    /// Rotations `R` with view `a` = `R^-1 C R`, with their inverses.
    axis_cubie: [(CubieCube, CubieCube); 3],
    /// The cube's 48 symmetries (24 rotations, each with and without the
    /// left-right mirror) as `(R, R^-1, mirror)`: the image of `C` is
    /// `R^-1 C R`, mirrored.
    syms48: Vec<(CubieCube, CubieCube, bool)>,
    /// `sym_move[s][m]`: the image of move `m` under symmetry `s`.
    sym_move: Vec<[u8; 18]>,
}

/// The image of `c` under a symmetry of [`Optimal::syms48`].
fn conj48(c: &CubieCube, (r, r_inv, mirror): &(CubieCube, CubieCube, bool)) -> CubieCube {
    tablegen::optimal3::conjugate(c, r, r_inv, *mirror)
}

/// The search coordinates of a cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// Small: each axis's flip.
    flip: [u16; 3],
    /// Small: each axis's UD-slice positions.
    slice: [u16; 3],
    /// Large and huge: each axis's flip-sorted-slice `class << 4 | s`
    /// (`conj16` by `s` takes the axis's value to the class representative).
    cs: [u32; 3],
    twist: [u16; 3],
    cperm: u16,
    /// The corner permutation's parity (huge table).
    parity: u8,
    /// Large and huge: each axis's exact edge-table distance.
    exact: [u8; 3],
}

impl Node {
    const EMPTY: Node = Node {
        flip: [0; 3],
        slice: [0; 3],
        cs: [0; 3],
        twist: [0; 3],
        cperm: 0,
        parity: 0,
        exact: [0; 3],
    };
}

/// How an optimal search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The shortest solution (move indices, see `MOVE_NAMES`).
    Solved(Vec<usize>),
    /// The deadline came first: no solution shorter than `proven` moves
    /// exists.
    OutOfTime {
        /// Every depth below this was searched to the end.
        proven: usize,
    },
}

/// An optimal search's result and effort.
#[derive(Clone, Debug)]
pub struct Report {
    /// How it ended.
    pub outcome: Outcome,
    /// Nodes expanded (children's bounds looked up).
    pub nodes: u64,
    /// Per depth searched: the depth, its nodes and seconds.
    pub depths: Vec<(usize, u64, f64)>,
}

/// What the tasks of one depth share.
struct Depth<'a> {
    start: &'a CubieCube,
    deadline: Option<Instant>,
    /// Index of the first task known to hold a solution.
    best: AtomicUsize,
    out_of_time: AtomicBool,
    nodes: AtomicU64,
}

/// The distance of a neighbour of a state at distance `d` whose distance is
/// `v` mod 3 (neighbours differ by at most one).
#[inline(always)]
fn follow(d: u8, v: u8) -> u8 {
    match (v + 3 - d % 3) % 3 {
        0 => d,
        1 => d + 1,
        _ => d.saturating_sub(1),
    }
}

impl Optimal {
    /// The solver with the tables of `size` from `dir` (built and saved
    /// there when missing).
    pub fn load(dir: &Path, size: TableSize, quiet: bool) -> Result<Optimal, TableError> {
        let [edge_id, corner_id] = size.table_ids();
        // The sorted-slice classes and their rows of neighbours (a few
        // tenths of a second) while the tables load.
        let (edges, corners, sorted) = std::thread::scope(|s| {
            let sorted = size.is_sorted().then(|| {
                s.spawn(|| {
                    let t = sorted_slice();
                    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                    (t, t.class_moves(sym16(), threads.min(8)))
                })
            });
            let edges = match size {
                TableSize::Small => Nibbles::load(edge_id, dir, quiet),
                TableSize::Large | TableSize::Huge => Trits::load_trits(edge_id, dir, quiet),
            };
            let corners = Nibbles::load(corner_id, dir, quiet);
            let sorted = sorted.map(tablegen::joined);
            (edges, corners, sorted)
        });
        let (edges, corners) = (edges?, corners?);
        let (sorted, rows) = match sorted {
            Some((t, all)) => (
                Some(t),
                Some(all.map_err(|e| TableError::Build(edge_id.into(), e.to_string()))?),
            ),
            None => (None, None),
        };
        let axis_cubie = super::axis_cubies();
        let axis_move = std::array::from_fn(|a| {
            let (r, r_inv) = &axis_cubie[a];
            std::array::from_fn(|m| {
                let seen = r_inv.multiply(&moves()[m]).multiply(r);
                move_index(&seen).unwrap_or(m) as u8
            })
        });
        let (k, mt) = (sym16(), move_tables());
        let axis_conj = axis_conj(k, &axis_move);
        // Made here, not by the first lookup inside the parallel search,
        // and held: the search reads it for every child.
        let csym = k.corners();
        let syms48: Vec<(CubieCube, CubieCube, bool)> = tablegen::cube::rotations24()
            .iter()
            .flat_map(|alg| {
                let r = tablegen::kociemba::rotation_cubie(alg);
                [(r, r.inverse(), false), (r, r.inverse(), true)]
            })
            .collect();
        let sym_move = syms48
            .iter()
            .map(|sym| {
                std::array::from_fn(|m| move_index(&conj48(&moves()[m], sym)).unwrap_or(m) as u8)
            })
            .collect();
        let slice_moves: &'static [u16] = match sorted {
            Some(t) => &t.moves,
            None => &mt.slice,
        };
        let mut solver = Optimal {
            k,
            csym,
            mt,
            size,
            edges,
            corners,
            sorted,
            rows,
            axis_conj,
            slice_moves,
            goal: 0,
            parity_bits: u32::from(size == TableSize::Huge),
            move_parity: move_parity(),
            axis_move,
            axis_cubie,
            syms48,
            sym_move,
        };
        let s = CubieCube::SOLVED;
        solver.goal = solver.edge_entry(s.flip(), solver.slice_of(&s), s.twist(), 0);
        Ok(solver)
    }

    /// The edge table's size.
    pub fn size(&self) -> TableSize {
        self.size
    }

    /// Bytes of the tables the solver reads.
    pub fn table_bytes(&self) -> u64 {
        (self.edges.bytes().len() + self.corners.bytes().len()) as u64
    }

    fn slice_of(&self, c: &CubieCube) -> u16 {
        match self.size {
            TableSize::Small => c.slice(),
            TableSize::Large | TableSize::Huge => slice_sorted(c),
        }
    }

    /// The edge table's entry of a view's coordinates and the cube's corner
    /// parity (read by the huge table only).
    #[inline(always)]
    fn edge_entry(&self, flip: u16, slice: u16, twist: u16, parity: u8) -> usize {
        let k = self.k;
        match self.sorted {
            Some(t) => {
                let cs = t.class_sym(k, flip as usize, slice as usize) as u32;
                self.class_entry(cs, twist, parity)
            }
            None => {
                let x = slice as usize * N_FLIP + flip as usize;
                let s = k.flipslice.sym_of[x] as usize;
                k.flipslice.class_of[x] as usize * N_TWIST
                    + k.twist_conj[twist as usize * N_SYM16 + s] as usize
            }
        }
    }

    /// The large or huge table's entry of a flip-sorted-slice class and
    /// symmetry, a twist and the corner parity.
    #[inline(always)]
    fn class_entry(&self, cs: u32, twist: u16, parity: u8) -> usize {
        let cs = cs as usize;
        let e =
            (cs >> 4) * N_TWIST + self.k.twist_conj[twist as usize * N_SYM16 + (cs & 15)] as usize;
        (e << self.parity_bits) | (parity as usize & self.parity_bits as usize)
    }

    /// The edge table's value at an entry: the distance (small) or the
    /// distance mod 3 (large).
    #[inline(always)]
    fn edge_value(&self, e: usize) -> u8 {
        match self.size {
            TableSize::Small => nibble(self.edges.bytes(), e) as u8,
            TableSize::Large | TableSize::Huge => trit(self.edges.bytes(), e),
        }
    }

    /// The exact edge-table distance of a large table's coordinates, by
    /// walking downhill (each step to a neighbour one closer) to the goal.
    fn exact(&self, mut flip: u16, mut slice: u16, mut twist: u16, mut parity: u8) -> u8 {
        let mt = self.mt;
        let mut steps = 0u8;
        loop {
            let e = self.edge_entry(flip, slice, twist, parity);
            if e == self.goal || steps > 30 {
                return steps;
            }
            let want = (self.edge_value(e) + 2) % 3;
            let next = (0..18).find_map(|m| {
                let n = (
                    mt.flip[flip as usize * 18 + m],
                    self.slice_moves[slice as usize * 18 + m],
                    mt.twist[twist as usize * 18 + m],
                    parity ^ self.move_parity[m],
                );
                (self.edge_value(self.edge_entry(n.0, n.1, n.2, n.3)) == want).then_some(n)
            });
            match next {
                Some(n) => (flip, slice, twist, parity) = n,
                None => return steps,
            }
            steps += 1;
        }
    }

    fn node(&self, c: &CubieCube) -> Node {
        let mut n = Node {
            cperm: c.corner_perm(),
            parity: corner_parity(c),
            ..Node::EMPTY
        };
        for a in 0..3 {
            let (r, r_inv) = &self.axis_cubie[a];
            let v = r_inv.multiply(c).multiply(r);
            let (flip, slice) = (v.flip(), self.slice_of(&v));
            n.twist[a] = v.twist();
            match self.sorted {
                Some(t) => {
                    n.cs[a] = t.class_sym(self.k, flip as usize, slice as usize) as u32;
                    n.exact[a] = self.exact(flip, slice, n.twist[a], n.parity);
                }
                None => (n.flip[a], n.slice[a]) = (flip, slice),
            }
        }
        n
    }

    #[inline(always)]
    fn step(&self, n: &Node, m: usize) -> Node {
        let mut out = *n;
        self.step_corners(n, &mut out, m);
        for a in 0..3 {
            self.step_axis(n, &mut out, m, a);
        }
        out
    }

    /// `out`'s corner permutation and parity: `n`'s turned by move `m`.
    #[inline(always)]
    fn step_corners(&self, n: &Node, out: &mut Node, m: usize) {
        out.cperm = self.csym.cperm_move[n.cperm as usize * 18 + m];
        out.parity = n.parity ^ self.move_parity[m];
    }

    /// `out`'s coordinates on axis `a`: `n`'s turned by move `m`.
    #[inline(always)]
    fn step_axis(&self, n: &Node, out: &mut Node, m: usize, a: usize) {
        let mt = self.mt;
        let ma = self.axis_move[a][m] as usize;
        out.twist[a] = mt.twist[n.twist[a] as usize * 18 + ma];
        match &self.rows {
            // The class's row, through the symmetry to its representative:
            // one cache line for every child.
            Some(rows) => {
                out.cs[a] = class_step(rows.as_slice(), &self.axis_conj[a], self.k, n.cs[a], m);
            }
            None => {
                out.flip[a] = mt.flip[n.flip[a] as usize * 18 + ma];
                out.slice[a] = self.slice_moves[n.slice[a] as usize * 18 + ma];
            }
        }
    }

    /// Asks for the cache lines a node's children are computed from (its
    /// three rows of class neighbours).
    #[inline(always)]
    fn prefetch_rows(&self, n: &Node) {
        if let Some(rows) = &self.rows {
            for cs in n.cs {
                prefetch(rows.as_slice(), (cs as usize >> 4) * CLASS_MOVE_WORDS);
            }
        }
    }

    /// The table entries of a node: the edge entry of each axis, then the
    /// corners entry.
    #[inline(always)]
    fn entries(&self, n: &Node) -> [usize; 4] {
        [
            self.axis_entry(n, 0),
            self.axis_entry(n, 1),
            self.axis_entry(n, 2),
            self.corners_entry(n),
        ]
    }

    /// A node's edge-table entry on axis `a`.
    #[inline(always)]
    fn axis_entry(&self, n: &Node, a: usize) -> usize {
        match self.sorted {
            Some(_) => self.class_entry(n.cs[a], n.twist[a], n.parity),
            None => self.edge_entry(n.flip[a], n.slice[a], n.twist[a], n.parity),
        }
    }

    /// A node's entry in the corners table.
    #[inline(always)]
    fn corners_entry(&self, n: &Node) -> usize {
        let (p, c) = (n.cperm as usize, &self.csym.cperm);
        c.class_of[p] as usize * N_TWIST
            + self.k.twist_conj[n.twist[0] as usize * N_SYM16 + c.sym_of[p] as usize] as usize
    }

    /// Asks for the cache line of an edge-table entry. Entries per byte as
    /// constants: a division by a variable is a slow instruction.
    #[inline(always)]
    fn prefetch_entry(&self, e: usize) {
        match self.size {
            TableSize::Small => prefetch(self.edges.bytes(), e / 2),
            TableSize::Large | TableSize::Huge => prefetch(self.edges.bytes(), e / 5),
        }
    }

    /// Whether a child of `parent` with entries `e` is within `limit`
    /// moves by every bound; fills the child's exact distances (large).
    #[inline(always)]
    fn within(&self, parent: &Node, child: &mut Node, e: &[usize; 4], limit: usize) -> bool {
        if nibble(self.corners.bytes(), e[3]) > limit {
            return false;
        }
        let mut d = [0u8; 3];
        for a in 0..3 {
            d[a] = self.axis_distance(parent, child, e[a], a);
            if d[a] as usize > limit {
                return false;
            }
        }
        !self.three_tight(d, e, limit)
    }

    /// A child's distance on axis `a` (by its entry `e`), filled in as its
    /// exact distance (large and huge).
    #[inline(always)]
    fn axis_distance(&self, parent: &Node, child: &mut Node, e: usize, a: usize) -> u8 {
        let v = self.edge_value(e);
        match self.size {
            TableSize::Small => v,
            TableSize::Large | TableSize::Huge => {
                let d = follow(parent.exact[a], v);
                child.exact[a] = d;
                d
            }
        }
    }

    /// [`three_tight`] on the parity-free distances: with the huge table,
    /// the least of the entries of both parities (the other parity's entry
    /// is the next or previous one, in the same cache line; its distance is
    /// at most one away).
    #[inline(always)]
    fn three_tight(&self, d: [u8; 3], e: &[usize; 4], limit: usize) -> bool {
        if !three_tight(d, limit) {
            return false;
        }
        self.size != TableSize::Huge
            || (0..3).all(|a| follow(d[a], self.edge_value(e[a] ^ 1)) as usize >= limit)
    }

    fn bound(&self, n: &Node) -> usize {
        let e = self.entries(n);
        let corners = nibble(self.corners.bytes(), e[3]);
        let d: [u8; 3] = std::array::from_fn(|a| match self.size {
            TableSize::Small => self.edge_value(e[a]),
            TableSize::Large | TableSize::Huge => n.exact[a],
        });
        let edges = d.iter().copied().max().unwrap_or(0) as usize;
        let edges = if self.three_tight(d, &e, edges) {
            edges + 1
        } else {
            edges
        };
        corners.max(edges)
    }

    /// The lower bound the tables give for a cube: the greater of its own
    /// and its inverse's (a cube and its inverse are equally far from
    /// solved).
    pub fn lower_bound(&self, c: &CubieCube) -> usize {
        self.bound(&self.node(c))
            .max(self.bound(&self.node(&c.inverse())))
    }

    /// The shortest solution of `cube`, or how far the search got by
    /// `deadline`. `known` is a solution already in hand (a two-phase one):
    /// once every shorter depth is ruled out, it is the answer.
    pub fn solve(
        &self,
        cube: &CubieCube,
        known: Option<&[usize]>,
        deadline: Option<Instant>,
    ) -> Report {
        let root = self.node(cube);
        let fixing = self.fixing(cube);
        let mut nodes = 0u64;
        let mut depths = Vec::new();
        let mut depth = self.lower_bound(cube);
        loop {
            if let Some(k) = known.filter(|k| k.len() <= depth) {
                return Report {
                    outcome: Outcome::Solved(k.to_vec()),
                    nodes,
                    depths,
                };
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Report {
                    outcome: Outcome::OutOfTime { proven: depth },
                    nodes,
                    depths,
                };
            }
            let t = Instant::now();
            let (found, n) = self.search_depth(cube, &root, &fixing, depth, deadline);
            nodes += n;
            depths.push((depth, n, t.elapsed().as_secs_f64()));
            match found {
                Ok(Some(path)) => {
                    return Report {
                        outcome: Outcome::Solved(path.into_iter().map(usize::from).collect()),
                        nodes,
                        depths,
                    }
                }
                Ok(None) => depth += 1,
                Err(()) => {
                    return Report {
                        outcome: Outcome::OutOfTime { proven: depth },
                        nodes,
                        depths,
                    }
                }
            }
        }
    }

    /// Every solution of exactly `depth` moves, searched on all cores; the
    /// first of the first task that has one. `Err` when the deadline came.
    #[allow(clippy::type_complexity)]
    fn search_depth(
        &self,
        start: &CubieCube,
        root: &Node,
        fixing: &[usize],
        depth: usize,
        deadline: Option<Instant>,
    ) -> (Result<Option<Vec<u8>>, ()>, u64) {
        let ctx = Depth {
            start,
            deadline,
            best: AtomicUsize::new(usize::MAX),
            out_of_time: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        };
        let prefix = depth.min(PREFIX);
        let mut tasks = Vec::new();
        self.prefixes(root, prefix, depth, &mut Vec::new(), &mut tasks);
        // A cube that symmetries fix has solutions in sets of images: one
        // task of each set is searched.
        if !fixing.is_empty() {
            tasks.retain(|(_, path)| self.least_of_images(path, fixing));
        }
        let results: Vec<Option<Vec<u8>>> = tasks
            .par_iter()
            .enumerate()
            .map(|(i, (node, path))| {
                if ctx.best.load(Ordering::Relaxed) < i || ctx.out_of_time.load(Ordering::Relaxed) {
                    return None;
                }
                let mut path = path.clone();
                let mut count = 0u64;
                let last = path.last().map_or(NO_FACE, |&m| m / 3);
                let found = self.dfs(node, depth - prefix, last, &mut path, &ctx, i, &mut count);
                ctx.nodes.fetch_add(count, Ordering::Relaxed);
                if found {
                    ctx.best.fetch_min(i, Ordering::Relaxed);
                    Some(path)
                } else {
                    None
                }
            })
            .collect();
        let nodes = ctx.nodes.load(Ordering::Relaxed) + tasks.len() as u64;
        let first = results.into_iter().flatten().next();
        if first.is_none() && ctx.out_of_time.load(Ordering::Relaxed) {
            return (Err(()), nodes);
        }
        (Ok(first), nodes)
    }

    /// The symmetries (indices into `syms48`) other than the identity
    /// that fix `c`.
    fn fixing(&self, c: &CubieCube) -> Vec<usize> {
        // The first is the identity.
        (1..self.syms48.len())
            .filter(|&s| conj48(c, &self.syms48[s]) == *c)
            .collect()
    }

    /// Whether a task's prefix is the least of its images under the
    /// symmetries `fixing` (which fix the cube): compared as the sets of
    /// moves of its runs on one axis (one move, or two on opposite faces),
    /// leaving out the last run, which the search may lengthen. A
    /// symmetry maps a canonical solution to one whose canonical form has
    /// the images of these runs in the same places, so every solution has an
    /// image whose prefix passes.
    fn least_of_images(&self, path: &[u8], fixing: &[usize]) -> bool {
        // Runs as sorted pairs (one move: the pair of it twice).
        let mut runs: Vec<(u8, u8)> = Vec::new();
        for &m in path {
            match runs.last_mut() {
                Some(r) if r.0 == r.1 && (r.0 / 3) % 3 == (m / 3) % 3 => r.1 = m,
                _ => runs.push((m, m)),
            }
        }
        runs.pop();
        let key = |r: &[(u8, u8)]| -> Vec<(u8, u8)> {
            r.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect()
        };
        let mine = key(&runs);
        fixing.iter().all(|&s| {
            let image: Vec<(u8, u8)> = runs
                .iter()
                .map(|&(a, b)| (self.sym_move[s][a as usize], self.sym_move[s][b as usize]))
                .collect();
            mine <= key(&image)
        })
    }

    /// The canonical move sequences of `len` moves from `n` whose nodes are
    /// within the bound of a `depth`-move solution.
    fn prefixes(
        &self,
        n: &Node,
        len: usize,
        depth: usize,
        path: &mut Vec<u8>,
        out: &mut Vec<(Node, Vec<u8>)>,
    ) {
        if path.len() == len {
            out.push((*n, path.clone()));
            return;
        }
        let last = path.last().map_or(NO_FACE, |&m| m / 3);
        for m in 0..18u8 {
            if !allowed(last, m / 3) {
                continue;
            }
            let mut c = self.step(n, m as usize);
            let e = self.entries(&c);
            if !self.within(n, &mut c, &e, depth - path.len() - 1) {
                continue;
            }
            path.push(m);
            self.prefixes(&c, len, depth, path, out);
            path.pop();
        }
    }
}

/// `axis_conj[a][s][m]`: the cube's move `m` seen from axis `a` (by
/// `axis_move`), then through symmetry `s`.
fn axis_conj(k: &Sym16, axis_move: &[[u8; 18]; 3]) -> [[[u8; 18]; N_SYM16]; 3] {
    let conj = k.conj_moves();
    std::array::from_fn(|a| {
        std::array::from_fn(|s| std::array::from_fn(|m| conj[s][axis_move[a][m] as usize]))
    })
}

/// The flip-sorted-slice `class << 4 | s` of one axis after the cube's move
/// `m`: the class's row (`SortedSlice::class_moves`) read at the move seen
/// through `s`, the symmetry it names composed after `s`.
#[inline(always)]
fn class_step(rows: &[u32], axis_conj: &[[u8; 18]; N_SYM16], k: &Sym16, cs: u32, m: usize) -> u32 {
    let (class, s) = (cs as usize >> 4, cs as usize & 15);
    let row = &rows[class * CLASS_MOVE_WORDS..][..CLASS_MOVE_WORDS];
    let next = class_move(row, axis_conj[s][m] as usize);
    next & !15 | u32::from(k.then[s * N_SYM16 + (next as usize & 15)])
}

/// Whether the three axes' edge-table distances `d` all equal `limit > 0`,
/// which rules out a solution of `limit` moves. A solution as short as an
/// axis's distance brings that axis's coset one step closer with every move,
/// so its last move leaves the coset: it is not a turn of that axis (the
/// turns of the U-D axis keep the edges' and corners' orientation and the
/// slice edges in place, and so do the other axes' own turns in their
/// frames). With all three tight, the last move would be a turn of no axis.
/// (Kociemba's optimal solver uses the same fact for its three phase-1
/// lookups.)
#[inline(always)]
fn three_tight(d: [u8; 3], limit: usize) -> bool {
    limit > 0 && d.iter().all(|&x| x as usize == limit)
}

/// The "last face" of an empty sequence.
const NO_FACE: u8 = 15;

/// Whether face `f` may follow face `last` ([`NO_FACE`]: none): never the same face,
/// and of two opposite faces only U before D, R before L, F before B.
#[inline(always)]
fn allowed(last: u8, f: u8) -> bool {
    f != last && f + 3 != last
}

/// Whether the moves solve the cube (checked on cubies: the bounds being 0
/// is necessary, not sufficient).
fn solves(start: &CubieCube, path: &[u8]) -> bool {
    let mut c = *start;
    for &m in path {
        c = c.apply_move(m as usize);
    }
    c == CubieCube::SOLVED
}

/// The number of canonical sequences of each length up to `max` (the count
/// the move-order rule leaves; for the tests).
pub fn canonical_counts(max: usize) -> Vec<u64> {
    // By last face: 0..6, 6 for the empty sequence.
    let mut by_last = [0u64; 7];
    by_last[6] = 1;
    let mut out = vec![1];
    for _ in 0..max {
        let mut next = [0u64; 7];
        for (last, &count) in by_last.iter().enumerate() {
            let last = if last == 6 { NO_FACE } else { last as u8 };
            for f in 0..6u8 {
                if allowed(last, f) {
                    next[f as usize] += count * 3;
                }
            }
        }
        by_last = next;
        out.push(by_last.iter().sum());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use tablegen::cube3::random_cube;

    fn solver() -> Optimal {
        Optimal::load(&crate::tables::test_tables_dir(), TableSize::Small, true).unwrap()
    }

    fn apply(c: &CubieCube, moves: &[usize]) -> CubieCube {
        moves.iter().fold(*c, |c, &m| c.apply_move(m))
    }

    fn walk(seed: u64, len: usize) -> Vec<usize> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut out: Vec<usize> = Vec::new();
        while out.len() < len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = (x % 18) as usize;
            if out.last().is_none_or(|&l| l / 3 != m / 3) {
                out.push(m);
            }
        }
        out
    }

    fn optimal(s: &Optimal, c: &CubieCube) -> Vec<usize> {
        match s.solve(c, None, None).outcome {
            Outcome::Solved(m) => {
                assert_eq!(apply(c, &m), CubieCube::SOLVED);
                m
            }
            Outcome::OutOfTime { .. } => unreachable!("no deadline"),
        }
    }

    /// Exact distances up to `2 * half` by meeting in the middle: every cube
    /// within `half` moves of solved by a hash-set BFS, then a BFS of the
    /// same depth from the cube until the two meet.
    struct Middle {
        half: usize,
        near: HashMap<CubieCube, u8>,
    }

    impl Middle {
        fn new(half: usize) -> Middle {
            let mut near = HashMap::from([(CubieCube::SOLVED, 0u8)]);
            let mut frontier = vec![CubieCube::SOLVED];
            for d in 1..=half {
                let mut next = Vec::new();
                for c in &frontier {
                    for m in 0..18 {
                        let n = c.apply_move(m);
                        near.entry(n).or_insert_with(|| {
                            next.push(n);
                            d as u8
                        });
                    }
                }
                frontier = next;
            }
            Middle { half, near }
        }

        fn distance(&self, c: &CubieCube) -> Option<usize> {
            let mut seen = std::collections::HashSet::from([*c]);
            let mut frontier = vec![*c];
            let mut best: Option<usize> = self.near.get(c).map(|&d| d as usize);
            for d in 1..=self.half {
                if best.is_some_and(|b| b <= d) {
                    break;
                }
                let mut next = Vec::new();
                for x in &frontier {
                    for m in 0..18 {
                        let n = x.apply_move(m);
                        if seen.insert(n) {
                            if let Some(&e) = self.near.get(&n) {
                                let total = d + e as usize;
                                best = Some(best.map_or(total, |b| b.min(total)));
                            }
                            next.push(n);
                        }
                    }
                }
                frontier = next;
            }
            best
        }
    }

    #[test]
    fn canonical_sequences_are_the_published_counts() {
        // Sequences of face turns with no face twice in a row and opposite
        // faces in one order (the counts of cube20.org's "sequences" column).
        assert_eq!(canonical_counts(5), [1, 18, 243, 3240, 43254, 577368]);
    }

    #[test]
    fn nodes_follow_the_cube_on_every_axis() {
        let s = solver();
        for seed in 0..50 {
            let mut c = random_cube(seed);
            let mut n = s.node(&c);
            for m in walk(seed, 30) {
                c = c.apply_move(m);
                n = s.step(&n, m);
                assert_eq!(n, s.node(&c), "seed {seed}");
            }
        }
    }

    /// Each axis's flip-sorted-slice class followed move by move through
    /// the class rows is the class of the cube seen from that axis, with a
    /// symmetry that takes its value to the representative.
    #[test]
    fn class_rows_follow_the_cube_on_every_axis() {
        let s = solver();
        let t = sorted_slice();
        let rows = t.class_moves(s.k, 2).unwrap();
        let conj = axis_conj(s.k, &s.axis_move);
        let view = |c: &CubieCube, a: usize| {
            let (r, r_inv) = &s.axis_cubie[a];
            let v = r_inv.multiply(c).multiply(r);
            (v.flip() as usize, slice_sorted(&v) as usize)
        };
        for seed in 0..100 {
            let mut c = random_cube(seed);
            let mut cs: [u32; 3] = std::array::from_fn(|a| {
                let (f, x) = view(&c, a);
                t.class_sym(s.k, f, x) as u32
            });
            for m in walk(seed, 30) {
                c = c.apply_move(m);
                for a in 0..3 {
                    cs[a] = class_step(rows.as_slice(), &conj[a], s.k, cs[a], m);
                    let (f, x) = view(&c, a);
                    assert_eq!(
                        cs[a] as usize >> 4,
                        t.class_sym(s.k, f, x) >> 4,
                        "seed {seed}"
                    );
                    let rep = t.rep[cs[a] as usize >> 4] as usize;
                    assert_eq!(t.conj_value(s.k, f, x, cs[a] as usize & 15), rep);
                }
            }
        }
    }

    #[test]
    fn bounds_are_admissible_and_zero_only_near_solved() {
        let s = solver();
        assert_eq!(s.lower_bound(&CubieCube::SOLVED), 0);
        for seed in 0..300 {
            let moves = walk(seed, 1 + seed as usize % 12);
            let c = apply(&CubieCube::SOLVED, &moves);
            assert!(s.lower_bound(&c) <= moves.len(), "seed {seed}");
        }
    }

    /// The bound with the three-axes rule: never above the exact distance
    /// of a cube within 4 moves (every one, by a hash-set BFS), and above the
    /// three axes' largest distance on some random cubes.
    #[test]
    fn three_tight_axes_add_a_move_and_stay_admissible() {
        let s = solver();
        let near = Middle::new(4).near;
        assert_eq!(near.len(), 1 + 18 + 243 + 3240 + 43239);
        for (c, &d) in &near {
            let bound = s.lower_bound(c);
            assert!(bound <= d as usize, "{c:?}: bound {bound} > {d}");
        }
        let raised = (0..200)
            .filter(|&seed| {
                let n = s.node(&random_cube(seed));
                let e = s.entries(&n);
                let edges = (0..3).map(|a| s.edge_value(e[a]) as usize).max();
                s.bound(&n) > edges.unwrap_or(0).max(nibble(s.corners.bytes(), e[3]))
            })
            .count();
        assert!(raised > 10, "the rule raised {raised} of 200 bounds");
    }

    #[test]
    fn known_positions() {
        let s = solver();
        let parse = |alg: &str| -> CubieCube {
            alg.split_whitespace().fold(CubieCube::SOLVED, |c, t| {
                c.apply_move(
                    tablegen::cube3::MOVE_NAMES
                        .iter()
                        .position(|&n| n == t)
                        .unwrap(),
                )
            })
        };
        assert!(optimal(&s, &CubieCube::SOLVED).is_empty());
        // Pons asinorum (every face's centre band turned half): 6 moves.
        assert_eq!(optimal(&s, &parse("U2 D2 F2 B2 L2 R2")).len(), 6);
        // The four-spot pattern: 8 face turns.
        assert_eq!(optimal(&s, &parse("F2 B2 U D' R2 L2 U D'")).len(), 8);
        // A known solution is the answer once every shorter depth is out.
        let c = parse("R U F");
        let r = s.solve(&c, Some(&[8, 2, 5]), None);
        assert_eq!(r.outcome, Outcome::Solved(vec![8, 2, 5]));
        // A deadline already past: nothing proven beyond the bound.
        let far = random_cube(1);
        let r = s.solve(&far, None, Some(Instant::now()));
        assert_eq!(
            r.outcome,
            Outcome::OutOfTime {
                proven: s.lower_bound(&far)
            }
        );
    }

    #[test]
    fn random_walks_are_solved_in_at_most_their_length_and_exactly_the_middle_search() {
        let s = solver();
        let middle = Middle::new(4);
        for seed in 0..60 {
            let len = 4 + seed as usize % 5;
            let c = apply(&CubieCube::SOLVED, &walk(seed, len));
            let found = optimal(&s, &c);
            assert!(found.len() <= len, "seed {seed}");
            assert_eq!(Some(found.len()), middle.distance(&c), "seed {seed}");
        }
    }

    #[test]
    fn symmetric_cubes_are_solved_exactly_the_middle_search() {
        let s = solver();
        assert_eq!(s.syms48.len(), 48);
        let generic = random_cube(7);
        assert_eq!(conj48(&generic, &s.syms48[0]), generic);
        assert!(s.fixing(&generic).is_empty());
        assert_eq!(s.fixing(&CubieCube::SOLVED).len(), 47);
        for sym in 0..48 {
            let mut seen = [false; 18];
            for &m in &s.sym_move[sym] {
                seen[m as usize] = true;
            }
            assert!(seen.iter().all(|&x| x), "symmetry {sym} permutes the moves");
        }
        // Products of cubes within 4 moves that one symmetry fixes are fixed
        // by it too: up to 8 moves, where the middle search is exact.
        let middle = Middle::new(4);
        let mut fixed: Vec<(CubieCube, Vec<usize>)> = middle
            .near
            .keys()
            .map(|c| (*c, s.fixing(c)))
            .filter(|(c, f)| !f.is_empty() && *c != CubieCube::SOLVED)
            .collect();
        fixed.sort_by_key(|(c, _)| format!("{c:?}"));
        assert!(fixed.len() > 50, "{} symmetric cubes", fixed.len());
        let mut tried = 0;
        for (i, (a, fa)) in fixed.iter().enumerate().step_by(7) {
            let (b, _) = &fixed[(i * 31 + 5) % fixed.len()];
            let c = a.multiply(b);
            let common: Vec<usize> = s.fixing(&c);
            if !fa.iter().any(|x| common.contains(x)) {
                continue;
            }
            let found = optimal(&s, &c);
            assert_eq!(Some(found.len()), middle.distance(&c), "{a:?} {b:?}");
            tried += 1;
        }
        assert!(tried > 20, "{tried} products tried");
    }

    /// Walks of 6 to 10 moves against the meet-in-the-middle search of
    /// depth 5 each side: 30 in CI's sample, 300 in the soak.
    #[test]
    #[ignore]
    fn optimal_lengths_against_the_middle_search() {
        let s = solver();
        let full = crate::soak();
        let middle = Middle::new(5);
        for seed in 0..if full { 300 } else { 30 } {
            let len = 6 + seed as usize % 5;
            let c = apply(&CubieCube::SOLVED, &walk(seed, len));
            let found = optimal(&s, &c);
            assert_eq!(Some(found.len()), middle.distance(&c), "seed {seed}");
        }
    }

    /// The large tables (built once in target/test-tables: about three
    /// minutes, 3.5 GB while building): exact distances followed move by
    /// move equal the ones walked down from scratch, and walks of up to 10
    /// moves get the middle search's lengths.
    #[test]
    #[ignore]
    fn soak_large_tables_follow_exact_distances_and_solve_optimally() {
        large_tables_follow_exact_distances_and_solve_optimally(TableSize::Large);
    }

    /// The huge tables (about six minutes, 7 GB while building) as the large
    /// ones; and beside the large table, each coset's least over both
    /// parities is its large-table distance, the other at most one more.
    #[test]
    #[ignore]
    fn soak_huge_tables_follow_exact_distances_and_solve_optimally() {
        large_tables_follow_exact_distances_and_solve_optimally(TableSize::Huge);
        let dir = crate::tables::test_tables_dir();
        let huge = Optimal::load(&dir, TableSize::Huge, true).unwrap();
        let large = Optimal::load(&dir, TableSize::Large, true).unwrap();
        let mut raised = 0;
        let mut seen = 0;
        for seed in 0..200 {
            let mut c = random_cube(1000 + seed);
            for m in walk(seed, 12) {
                c = c.apply_move(m);
                let (h, l) = (huge.node(&c), large.node(&c));
                let e = huge.entries(&h);
                for ((&d, &entry), &want) in h.exact.iter().zip(&e).zip(&l.exact) {
                    let other = follow(d, huge.edge_value(entry ^ 1));
                    assert_eq!(d.min(other), want, "seed {seed}");
                    assert!(d <= want + 1, "seed {seed}");
                    raised += usize::from(d > want);
                    seen += 1;
                }
            }
        }
        // About one coset in five is raised by the parity.
        assert!(
            raised * 10 > seen && raised * 3 < seen,
            "{raised} of {seen}"
        );
    }

    /// Two nodes of one cube: the same coordinates, exact distances and
    /// classes, and entries of the same value (the symmetry to a class's
    /// representative is one of its stabilizer's coset).
    fn same_position(s: &Optimal, a: &Node, b: &Node) {
        let (ea, eb) = (s.entries(a), s.entries(b));
        assert_eq!(
            (a.twist, a.cperm, a.parity, a.exact),
            (b.twist, b.cperm, b.parity, b.exact)
        );
        assert_eq!(ea[3], eb[3]);
        for i in 0..3 {
            assert_eq!(a.cs[i] >> 4, b.cs[i] >> 4);
            assert_eq!(s.edge_value(ea[i]), s.edge_value(eb[i]));
        }
    }

    fn large_tables_follow_exact_distances_and_solve_optimally(size: TableSize) {
        let s = Optimal::load(&crate::tables::test_tables_dir(), size, true).unwrap();
        for seed in 0..40 {
            let mut c = random_cube(seed);
            let mut n = s.node(&c);
            for m in walk(seed, 25) {
                let mut next = s.step(&n, m);
                let e = s.entries(&next);
                assert!(s.within(&n, &mut next, &e, usize::MAX));
                c = c.apply_move(m);
                same_position(&s, &next, &s.node(&c));
                n = next;
            }
        }
        let middle = Middle::new(5);
        for seed in 0..100 {
            let len = 6 + seed as usize % 5;
            let c = apply(&CubieCube::SOLVED, &walk(seed, len));
            assert_eq!(
                Some(optimal(&s, &c).len()),
                middle.distance(&c),
                "seed {seed}"
            );
        }
    }
}
