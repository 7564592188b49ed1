//! Optimal 3x3x3 solving: iterative-deepening A* in the half-turn metric,
//! after Kociemba's optimal solver (kociemba.org, "optimal solver").
//!
//! A node carries the phase-1 coordinates (flip, UD-slice positions, twist)
//! of the cube seen with each of its three axes as U-D, and its corner
//! permutation. Its lower bound is the largest of four lookups: the
//! flip-slice x twist table (`3x3x3-optimal-flipslice-twist`, the phase-1
//! coset's exact distance, at most 12) once per axis, and the corners table
//! (`3x3x3-optimal-corners`, at most 11). Both tables are reduced by the 16
//! symmetries that keep the U-D axis; a coordinate is brought to its class
//! representative by table lookups, never by turning cubies.
//!
//! Moves are generated in a canonical order (never the same face twice, and
//! of two opposite faces, which commute, only one order). Each depth is
//! searched on all cores: the sequences of the first three moves are tasks,
//! and the answer is the first solution of the first task that has one, so
//! it does not depend on the thread count. A depth finished without a
//! solution proves that none that short exists.

use crate::tables::{nibble, prefetch, Nibbles, TableError};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;
use tablegen::cube3::{moves, CubieCube};
use tablegen::kociemba::{move_tables, MoveTables, N_FLIP, N_TWIST};
use tablegen::optimal3::{sym16, Sym16, N_SYM16};

/// The catalog tables the optimal solver reads.
pub const TABLE_IDS: [&str; 2] = ["3x3x3-optimal-flipslice-twist", "3x3x3-optimal-corners"];

/// How long an optimal solve may take when the caller sets no hard limit:
/// most random cubes take seconds to minutes.
pub const DEFAULT_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

/// Moves of a task's prefix: 18 x 15 x 15 sequences at most, enough to keep
/// every core busy to the end of a depth.
const PREFIX: usize = 3;

/// The optimal solver with its tables.
pub struct Optimal {
    k: &'static Sym16,
    mt: &'static MoveTables,
    flipslice_twist: Nibbles,
    corners: Nibbles,
    /// `axis_move[a][m]`: the move of view `a` that the cube's move `m` is.
    axis_move: [[u8; 18]; 3],
    /// Rotations `R` with view `a` = `R^-1 C R`, with their inverses.
    axis_cubie: [(CubieCube, CubieCube); 3],
}

/// The search coordinates of a cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    flip: [u16; 3],
    slice: [u16; 3],
    twist: [u16; 3],
    cperm: u16,
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

impl Optimal {
    /// The solver with its tables from `dir` (built and saved there when
    /// missing: about ten seconds on two cores).
    pub fn load(dir: &Path, quiet: bool) -> Result<Optimal, TableError> {
        let flipslice_twist = Nibbles::load(TABLE_IDS[0], dir, quiet)?;
        let corners = Nibbles::load(TABLE_IDS[1], dir, quiet)?;
        let axis_cubie = super::axis_cubies();
        let axis_move = std::array::from_fn(|a| {
            let (r, r_inv) = &axis_cubie[a];
            std::array::from_fn(|m| {
                let seen = r_inv.multiply(&moves()[m]).multiply(r);
                (0..18).find(|&n| moves()[n] == seen).unwrap_or(m) as u8
            })
        });
        Ok(Optimal {
            k: sym16(),
            mt: move_tables(),
            flipslice_twist,
            corners,
            axis_move,
            axis_cubie,
        })
    }

    /// Bytes of the tables the solver reads.
    pub fn table_bytes(&self) -> u64 {
        (self.flipslice_twist.bytes().len() + self.corners.bytes().len()) as u64
    }

    fn node(&self, c: &CubieCube) -> Node {
        let mut n = Node {
            flip: [0; 3],
            slice: [0; 3],
            twist: [0; 3],
            cperm: c.corner_perm(),
        };
        for a in 0..3 {
            let (r, r_inv) = &self.axis_cubie[a];
            let v = r_inv.multiply(c).multiply(r);
            n.flip[a] = v.flip();
            n.slice[a] = v.slice();
            n.twist[a] = v.twist();
        }
        n
    }

    #[inline(always)]
    fn step(&self, n: &Node, m: usize) -> Node {
        let mt = self.mt;
        let mut out = *n;
        for a in 0..3 {
            let ma = self.axis_move[a][m] as usize;
            out.flip[a] = mt.flip[n.flip[a] as usize * 18 + ma];
            out.slice[a] = mt.slice[n.slice[a] as usize * 18 + ma];
            out.twist[a] = mt.twist[n.twist[a] as usize * 18 + ma];
        }
        out.cperm = self.k.cperm_move[n.cperm as usize * 18 + m];
        out
    }

    /// The table entries of a node: the flip-slice x twist entry of each
    /// axis, then the corners entry.
    #[inline(always)]
    fn entries(&self, n: &Node) -> [usize; 4] {
        let k = self.k;
        let fs = |a: usize| {
            let x = n.slice[a] as usize * N_FLIP + n.flip[a] as usize;
            let s = k.flipslice.sym_of[x] as usize;
            k.flipslice.class_of[x] as usize * N_TWIST
                + k.twist_conj[n.twist[a] as usize * N_SYM16 + s] as usize
        };
        [
            fs(0),
            fs(1),
            fs(2),
            k.corners_index(n.cperm as usize, n.twist[0] as usize),
        ]
    }

    /// Whether the node's bound is above `limit`, looking up no more
    /// entries than needed.
    #[inline(always)]
    fn exceeds(&self, e: &[usize; 4], limit: usize) -> bool {
        let (fst, corners) = (self.flipslice_twist.bytes(), self.corners.bytes());
        nibble(fst, e[0]) > limit
            || nibble(fst, e[1]) > limit
            || nibble(fst, e[2]) > limit
            || nibble(corners, e[3]) > limit
    }

    fn bound(&self, n: &Node) -> usize {
        let e = self.entries(n);
        let (fst, corners) = (self.flipslice_twist.bytes(), self.corners.bytes());
        nibble(fst, e[0])
            .max(nibble(fst, e[1]))
            .max(nibble(fst, e[2]))
            .max(nibble(corners, e[3]))
    }

    /// The lower bound the tables give for a cube.
    pub fn lower_bound(&self, c: &CubieCube) -> usize {
        self.bound(&self.node(c))
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
        let mut nodes = 0u64;
        let mut depths = Vec::new();
        let mut depth = self.bound(&root);
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
            let (found, n) = self.search_depth(cube, &root, depth, deadline);
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
            let c = self.step(n, m as usize);
            if self.bound(&c) > depth - path.len() - 1 {
                continue;
            }
            path.push(m);
            self.prefixes(&c, len, depth, path, out);
            path.pop();
        }
    }

    /// Depth-first search for a solution of exactly `left` more moves.
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &self,
        n: &Node,
        left: usize,
        last: u8,
        path: &mut Vec<u8>,
        ctx: &Depth,
        task: usize,
        count: &mut u64,
    ) -> bool {
        if left == 0 {
            return solves(ctx.start, path);
        }
        *count += 1;
        if *count & 0x3fff == 0 {
            if ctx.best.load(Ordering::Relaxed) < task || ctx.out_of_time.load(Ordering::Relaxed) {
                return false;
            }
            if ctx.deadline.is_some_and(|d| Instant::now() >= d) {
                ctx.out_of_time.store(true, Ordering::Relaxed);
                return false;
            }
        }
        // All children's entries first, their cache lines fetched while the
        // first ones are compared.
        let mut kids = [(Node::EMPTY, [0usize; 4], 0u8); 18];
        let mut k = 0;
        let (fst, corners) = (self.flipslice_twist.bytes(), self.corners.bytes());
        for m in 0..18u8 {
            if !allowed(last, m / 3) {
                continue;
            }
            let c = self.step(n, m as usize);
            let e = self.entries(&c);
            prefetch(fst, e[0] >> 1);
            prefetch(fst, e[1] >> 1);
            prefetch(fst, e[2] >> 1);
            prefetch(corners, e[3] >> 1);
            kids[k] = (c, e, m);
            k += 1;
        }
        for (c, e, m) in &kids[..k] {
            if self.exceeds(e, left - 1) {
                continue;
            }
            path.push(*m);
            if self.dfs(c, left - 1, m / 3, path, ctx, task, count) {
                return true;
            }
            path.pop();
        }
        false
    }
}

impl Node {
    const EMPTY: Node = Node {
        flip: [0; 3],
        slice: [0; 3],
        twist: [0; 3],
        cperm: 0,
    };
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
        Optimal::load(&crate::tables::test_tables_dir(), true).unwrap()
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
        // Four-spot and six-spot patterns (known 8 and 8 face turns).
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

    /// Hundreds of walks of up to 10 moves against the meet-in-the-middle
    /// search of depth 5 each side; the superflip at 20 in the soak.
    #[test]
    #[ignore]
    fn soak_optimal_lengths_against_the_middle_search() {
        let s = solver();
        let full = std::env::var_os("CUBE_SOAK").is_some();
        let middle = Middle::new(5);
        for seed in 0..if full { 300 } else { 30 } {
            let len = 6 + seed as usize % 5;
            let c = apply(&CubieCube::SOLVED, &walk(seed, len));
            let found = optimal(&s, &c);
            assert_eq!(Some(found.len()), middle.distance(&c), "seed {seed}");
        }
    }
}
