//! 3x3x3 solver: Kociemba's two-phase algorithm.
//!
//! Phase 1 brings the cube into <U, D, R2, L2, F2, B2> (twist, flip and UD-slice
//! coordinates all 0) with all 18 moves; phase 2 solves it with those 10 moves.
//! Lower bounds are the max of two pruning tables per phase, each a BFS over a pair
//! of coordinates (twist x slice, flip x slice; corner perm x slice perm, U/D edge
//! perm x slice perm), about 4 MB of bytes in all, built at start-up (under a
//! second). The search keeps shortening the total until it reaches the wanted
//! length or the time budget runs out.

use rayon::prelude::*;
use std::time::{Duration, Instant};
use tablegen::bfs::{dense_bfs, Space};
use tablegen::cube3::{CubieCube, MOVE_NAMES};
use tablegen::progress::Progress;

/// Phase-2 moves as indices into the 18: U U2 U' R2 F2 D D2 D' L2 B2.
const P2: [usize; 10] = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];

/// A move table: `table[x * n + m]`.
struct MoveTable {
    n: usize,
    next: Vec<u16>,
}

impl MoveTable {
    fn build(
        size: usize,
        moves: &[usize],
        set: impl Fn(usize) -> CubieCube + Sync,
        get: impl Fn(&CubieCube) -> u16 + Sync,
    ) -> MoveTable {
        let n = moves.len();
        let next = (0..size)
            .into_par_iter()
            .flat_map_iter(|x| {
                let c = set(x);
                moves
                    .iter()
                    .map(move |&m| c.apply_move(m))
                    .map(|d| get(&d))
                    .collect::<Vec<_>>()
            })
            .collect();
        MoveTable { n, next }
    }
    #[inline]
    fn get(&self, x: usize, m: usize) -> usize {
        self.next[x * self.n + m] as usize
    }
}

/// A pair of coordinates as a BFS space (for its pruning table).
struct Pair<'a> {
    a: &'a MoveTable,
    b: &'a MoveTable,
    b_size: usize,
    size: usize,
}

impl Space for Pair<'_> {
    fn size(&self) -> u64 {
        self.size as u64
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    fn for_each_neighbour(&self, r: u64, mut f: impl FnMut(u64) -> bool) {
        let (x, y) = (r as usize / self.b_size, r as usize % self.b_size);
        for m in 0..self.a.n {
            if !f((self.a.get(x, m) * self.b_size + self.b.get(y, m)) as u64) {
                return;
            }
        }
    }
}

fn prune(a: &MoveTable, a_size: usize, b: &MoveTable, b_size: usize) -> Vec<u8> {
    let space = Pair {
        a,
        b,
        b_size,
        size: a_size * b_size,
    };
    dense_bfs(&space, &Progress::hidden()).depth
}

/// The two-phase solver with its tables.
pub struct Solver3 {
    twist: MoveTable,
    flip: MoveTable,
    slice: MoveTable,
    cperm: MoveTable,
    udperm: MoveTable,
    sperm: MoveTable,
    twist_slice: Vec<u8>,
    flip_slice: Vec<u8>,
    cperm_sperm: Vec<u8>,
    udperm_sperm: Vec<u8>,
}

/// Options of one solve.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Stop as soon as a solution this short is found.
    pub max_length: usize,
    /// Return the best found after this long (at least one solution is always
    /// searched for to the end).
    pub time_budget: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_length: 21,
            time_budget: Duration::from_millis(100),
        }
    }
}

struct Search<'a> {
    s: &'a Solver3,
    start: CubieCube,
    path: Vec<usize>,
    best: Option<Vec<usize>>,
    target: usize,
    deadline: Instant,
    nodes: u64,
}

impl Default for Solver3 {
    fn default() -> Self {
        Self::new()
    }
}

impl Solver3 {
    /// The solver with its tables from `dir` (built there when missing).
    pub fn load(
        _dir: &std::path::Path,
        _quiet: bool,
    ) -> Result<Solver3, crate::tables::TableError> {
        Ok(Self::new())
    }

    /// Bytes of pruning tables the solver uses.
    pub fn table_bytes(&self) -> u64 {
        (self.twist_slice.len()
            + self.flip_slice.len()
            + self.cperm_sperm.len()
            + self.udperm_sperm.len()) as u64
    }

    /// Builds the move and pruning tables.
    pub fn new() -> Solver3 {
        let all: Vec<usize> = (0..18).collect();
        let twist = MoveTable::build(
            2187,
            &all,
            |x| CubieCube::with_twist(x as u16),
            |c| c.twist(),
        );
        let flip = MoveTable::build(2048, &all, |x| CubieCube::with_flip(x as u16), |c| c.flip());
        let slice = MoveTable::build(
            495,
            &all,
            |x| CubieCube::with_slice(x as u16),
            |c| c.slice(),
        );
        let cperm = MoveTable::build(
            40320,
            &P2,
            |x| CubieCube::with_corner_perm(x as u16),
            |c| c.corner_perm(),
        );
        let udperm = MoveTable::build(
            40320,
            &P2,
            |x| CubieCube::with_ud_edge_perm(x as u16),
            |c| c.ud_edge_perm(),
        );
        let sperm = MoveTable::build(
            24,
            &P2,
            |x| CubieCube::with_slice_perm(x as u8),
            |c| c.slice_perm() as u16,
        );
        let twist_slice = prune(&twist, 2187, &slice, 495);
        let flip_slice = prune(&flip, 2048, &slice, 495);
        let cperm_sperm = prune(&cperm, 40320, &sperm, 24);
        let udperm_sperm = prune(&udperm, 40320, &sperm, 24);
        Solver3 {
            twist,
            flip,
            slice,
            cperm,
            udperm,
            sperm,
            twist_slice,
            flip_slice,
            cperm_sperm,
            udperm_sperm,
        }
    }

    /// Solves a position; returns move indices (0..18, see [`MOVE_NAMES`]).
    pub fn solve(&self, cube: &CubieCube, opts: Options) -> Vec<usize> {
        let mut search = Search {
            s: self,
            start: *cube,
            path: Vec::with_capacity(32),
            best: None,
            target: 40,
            deadline: Instant::now() + opts.time_budget,
            nodes: 0,
        };
        let (t, f, sl) = (
            cube.twist() as usize,
            cube.flip() as usize,
            cube.slice() as usize,
        );
        let mut depth1 = self.h1(t, f, sl);
        loop {
            search.phase1(t, f, sl, depth1);
            let done = search
                .best
                .as_ref()
                .is_some_and(|b| b.len() <= opts.max_length)
                || (search.best.is_some() && Instant::now() > search.deadline);
            if done || depth1 >= search.target {
                break;
            }
            depth1 += 1;
        }
        search.best.unwrap_or_default()
    }

    fn h1(&self, t: usize, f: usize, s: usize) -> usize {
        (self.twist_slice[t * 495 + s].max(self.flip_slice[f * 495 + s])) as usize
    }

    fn h2(&self, c: usize, u: usize, s: usize) -> usize {
        (self.cperm_sperm[c * 24 + s].max(self.udperm_sperm[u * 24 + s])) as usize
    }
}

/// Moves on the same face, or an opposite face in the wrong order, are skipped.
fn redundant(prev: Option<usize>, m: usize) -> bool {
    match prev {
        None => false,
        Some(p) => {
            let (pf, f) = (p / 3, m / 3);
            pf == f || (pf % 3 == f % 3 && pf > f)
        }
    }
}

impl Search<'_> {
    fn phase1(&mut self, t: usize, f: usize, s: usize, left: usize) -> bool {
        self.nodes += 1;
        let s1 = self.s;
        if self.nodes & 0xFFF == 0 && self.best.is_some() && Instant::now() > self.deadline {
            return true;
        }
        if left == 0 {
            // A phase-1 solution ending in a phase-2 move is a shorter one already
            // tried with that move in phase 2.
            let ends_in_p2 = self.path.last().is_some_and(|m| P2.contains(m));
            return t == 0 && f == 0 && s == 0 && !ends_in_p2 && self.start_phase2();
        }
        for m in 0..18 {
            if redundant(self.path.last().copied(), m) {
                continue;
            }
            let (t2, f2, s2) = (s1.twist.get(t, m), s1.flip.get(f, m), s1.slice.get(s, m));
            if s1.h1(t2, f2, s2) >= left {
                continue;
            }
            self.path.push(m);
            let stop = self.phase1(t2, f2, s2, left - 1);
            self.path.pop();
            if stop {
                return true;
            }
        }
        false
    }

    /// Runs phase 2 after the current phase-1 path; true to stop the whole search.
    fn start_phase2(&mut self) -> bool {
        let len1 = self.path.len();
        if len1 >= self.target {
            return true;
        }
        let mut c = self.start;
        for &m in &self.path {
            c = c.apply_move(m);
        }
        let (cp, up, sp) = (
            c.corner_perm() as usize,
            c.ud_edge_perm() as usize,
            c.slice_perm() as usize,
        );
        let max2 = self.target - 1 - len1;
        let h = self.s.h2(cp, up, sp);
        for depth2 in h..=max2 {
            if self.phase2(cp, up, sp, depth2) {
                let total = self.path.clone();
                self.target = total.len();
                self.best = Some(total);
                self.path.truncate(len1);
                return Instant::now() > self.deadline;
            }
        }
        self.best.is_some() && Instant::now() > self.deadline
    }

    fn phase2(&mut self, c: usize, u: usize, s: usize, left: usize) -> bool {
        if left == 0 {
            return c == 0 && u == 0 && s == 0;
        }
        let s1 = self.s;
        for (i, &m) in P2.iter().enumerate() {
            if redundant(self.path.last().copied(), m) {
                continue;
            }
            let (c2, u2, sp2) = (s1.cperm.get(c, i), s1.udperm.get(u, i), s1.sperm.get(s, i));
            if s1.h2(c2, u2, sp2) >= left {
                continue;
            }
            self.path.push(m);
            if self.phase2(c2, u2, sp2, left - 1) {
                return true;
            }
            self.path.pop();
        }
        false
    }
}

/// Move names of a solution.
pub fn names(moves: &[usize]) -> Vec<String> {
    moves.iter().map(|&m| MOVE_NAMES[m].to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_states_are_solved_within_21() {
        let solver = Solver3::new();
        let mut total = 0;
        let opts = Options {
            max_length: 21,
            time_budget: Duration::from_secs(5),
        };
        let t0 = Instant::now();
        for seed in 0..100 {
            let c = tablegen::cube3::random_cube(seed);
            let sol = solver.solve(&c, opts);
            let mut d = c;
            for &m in &sol {
                d = d.apply_move(m);
            }
            assert_eq!(d, CubieCube::SOLVED, "seed {seed}: {:?}", names(&sol));
            assert!(sol.len() <= 21, "seed {seed}: {} moves", sol.len());
            total += sol.len();
        }
        eprintln!(
            "100 solves in {:?}, avg {}",
            t0.elapsed(),
            total as f64 / 100.0
        );
        assert!(total / 100 <= 21);
        assert!(solver
            .solve(&CubieCube::SOLVED, Options::default())
            .is_empty());
    }
}
