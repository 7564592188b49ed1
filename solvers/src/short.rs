//! Short positions get short solutions: an exhaustive search for positions a
//! few moves from solved, tried before a cube's own solver.
//!
//! A staged solver (two-phase, reduction) is built to answer random states in
//! good time, and stops at its first solution under its target length: given a
//! cube one turn from solved it may well answer with ten moves. Before it runs,
//!
//! - [`short_first`] searches every sequence of up to [`BLOCK_DEPTH`] outer block
//!   turns on any NxNxN, so that a solved cube in any orientation gets no moves
//!   and a cube one or two block turns from solved gets at most that many
//!   (optimal in the outer block turn metric);
//! - [`optimal3`] solves any 3x3x3 within [`NEAR3_DEPTH`] face turns optimally,
//!   by meeting in the middle: a table of every cube within four turns of
//!   solved and a search of up to three turns from the cube.
//!
//! It is not a solver of its own: past those depths it answers nothing and the
//! cube's solver runs.

use crate::hash::MixMap;
use crate::puzzle::{self, Options, Position, Scramble, Solve};
use crate::{Solution, SolveError};
use std::sync::OnceLock;
use tablegen::cube::CubeN;
use tablegen::cube3::CubieCube;
use tablegen::notation::{Face, Move};

/// Sequences of up to this many outer block turns are searched on every cube.
pub const BLOCK_DEPTH: usize = 2;

/// Every 3x3x3 within this many face turns is solved optimally.
pub const NEAR3_DEPTH: usize = 7;

/// `inner`, the solver of the `n`-cube, made to first look for a solution of
/// at most [`BLOCK_DEPTH`] block turns ([`near_solved`]) and to run only when
/// there is none. Its scrambles are `inner`'s.
pub(crate) fn short_first(inner: Box<dyn Solve>, n: usize) -> Box<dyn Solve> {
    Box::new(ShortFirstSolver {
        inner,
        cube: CubeN::new(n),
    })
}

/// A solver behind a search for short solutions ([`short_first`]).
struct ShortFirstSolver {
    inner: Box<dyn Solve>,
    cube: CubeN,
}

impl Solve for ShortFirstSolver {
    fn solve(&self, position: &Position, opts: &Options) -> Result<Solution, SolveError> {
        let state = puzzle::cube_state(position)?;
        match near_solved(&self.cube, state, BLOCK_DEPTH) {
            Some(moves) => Ok(Solution {
                phases: vec![("optimal".into(), moves.len())],
                moves: moves.iter().map(|m| m.to_string()).collect(),
                // The fewest block turns; on a 2x2x2 or 3x3x3 those are face
                // turns, its metric.
                optimal: self.cube.n() <= 3,
            }),
            None => self.inner.solve(position, opts),
        }
    }
    fn scramble(&self, seed: u64) -> Result<Scramble, SolveError> {
        self.inner.scramble(seed)
    }
}

/// The outer block turns of an NxNxN that are not whole-cube turns: each face,
/// 1 to N-1 layers, clockwise, anticlockwise and half; fewer layers first, so
/// that of two solutions of one length the one a person would write (`R'`
/// rather than `3Lw'` on a 4x4x4) is found first.
pub fn block_turns(n: usize) -> Vec<Move> {
    let mut v = Vec::new();
    for depth in 1..n as u8 {
        for face in Face::ALL {
            for turns in [1, 3, 2] {
                v.push(Move::block(face, depth, turns));
            }
        }
    }
    v
}

/// An optimal solution of at most `max_depth` outer block turns, if there is
/// one: the cube ends solved in some whole-cube orientation. Of the solutions
/// of the shortest length, one that ends in the cube's own orientation (every
/// facelet where [`CubeN::solved`] has it) is preferred. A solved cube gets no
/// moves, whatever its orientation.
pub fn near_solved(cube: &CubeN, state: &[u8], max_depth: usize) -> Option<Vec<Move>> {
    if cube.is_solved(state) {
        return Some(Vec::new());
    }
    let turns = block_turns(cube.n());
    let perms: Vec<_> = turns.iter().map(|&m| cube.perm(m)).collect();
    let mut search = Search {
        cube,
        solved: cube.solved(),
        turns: &turns,
        perms: &perms,
        path: Vec::new(),
        any: None,
    };
    for depth in 1..=max_depth {
        if let Some(exact) = search.dfs(state, depth, None) {
            return Some(exact);
        }
        if let Some(any) = search.any.take() {
            return Some(any);
        }
    }
    None
}

/// The depth-first search of [`near_solved`] to one depth.
struct Search<'a> {
    cube: &'a CubeN,
    solved: Vec<u8>,
    turns: &'a [Move],
    perms: &'a [std::sync::Arc<tablegen::cube::Perm>],
    path: Vec<Move>,
    /// The first solution found that ends in another orientation.
    any: Option<Vec<Move>>,
}

impl Search<'_> {
    /// A solution of exactly `left` more moves that ends in the cube's own
    /// orientation; records the first that ends in another one.
    fn dfs(&mut self, state: &[u8], left: usize, prev: Option<Move>) -> Option<Vec<Move>> {
        if left == 0 {
            if state == self.solved.as_slice() {
                return Some(self.path.clone());
            }
            if self.any.is_none() && self.cube.is_solved(state) {
                self.any = Some(self.path.clone());
            }
            return None;
        }
        let mut next = vec![0u8; state.len()];
        for (i, &m) in self.turns.iter().enumerate() {
            if prev.is_some_and(|p| redundant(p, m)) {
                continue;
            }
            for (dst, &src) in next.iter_mut().zip(self.perms[i].iter()) {
                *dst = state[src as usize];
            }
            self.path.push(m);
            let found = self.dfs(&next, left - 1, Some(m));
            self.path.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

/// Whether `m` after `prev` is never needed in a shortest solution: the same
/// block turned twice makes one turn, and turns about one axis commute, so only
/// one order of them is searched (the order of [`block_turns`]'s faces).
fn redundant(prev: Move, m: Move) -> bool {
    if prev.face.axis() != m.face.axis() {
        return false;
    }
    if prev.face == m.face {
        return prev.kind >= m.kind;
    }
    prev.face > m.face
}

/// Cubes within [`NEAR_TABLE_DEPTH`] face turns of solved, by [`key`]: their
/// distance and the last turn of a shortest sequence that makes them.
type NearTable = MixMap<u128, (u8, u8)>;

/// Depth of the table of [`optimal3`]: 46,741 cubes, built in milliseconds.
const NEAR_TABLE_DEPTH: usize = 4;

/// A cube as one number (pieces and orientations, 100 bits).
fn key(c: &CubieCube) -> u128 {
    let mut k = 0u128;
    for (&p, &o) in c.cp.iter().zip(&c.co) {
        k = k << 5 | (p as u128) << 2 | o as u128;
    }
    for (&p, &o) in c.ep.iter().zip(&c.eo) {
        k = k << 5 | (p as u128) << 1 | o as u128;
    }
    k
}

/// Builds the table of [`optimal3`] now (a few milliseconds), so that a
/// solver loading can do it on a second thread.
pub(crate) fn warm_near_table() {
    near_table();
}

/// The table of cubes near solved, built by breadth-first search on first use.
fn near_table() -> &'static NearTable {
    static TABLE: OnceLock<NearTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = NearTable::with_capacity_and_hasher(1 << 16, Default::default());
        table.insert(key(&CubieCube::SOLVED), (0, 0));
        // Each cube with the face of its last turn (6: none): turning that
        // face again never leads to a cube not yet seen.
        let mut frontier = vec![(CubieCube::SOLVED, 6)];
        for d in 1..=NEAR_TABLE_DEPTH as u8 {
            let mut next = Vec::new();
            for &(c, face) in &frontier {
                for m in (0..18).filter(|m| m / 3 != face) {
                    let child = c.apply_move(m);
                    table.entry(key(&child)).or_insert_with(|| {
                        next.push((child, m / 3));
                        (d, m as u8)
                    });
                }
            }
            frontier = next;
        }
        table
    })
}

/// The inverse of a face-turn index (0..18: face * 3 + clockwise, half,
/// anticlockwise).
fn inverse3(m: usize) -> usize {
    m / 3 * 3 + (2 - m % 3)
}

/// An optimal solution (face-turn indices, see [`tablegen::cube3::MOVE_NAMES`])
/// of a cube within [`NEAR3_DEPTH`] turns of solved; `None` for any other cube.
/// `bound` is a lower bound of a cube's distance (the two-phase solver's
/// [`crate::cube3::Solver::lower_bound`]; `|_| 0` will do, only slower): it
/// prunes the search, and sends most cubes further away back at once.
///
/// A cube at distance `d <= 7` has a shortest solution whose first `max(0, d -
/// 4)` turns, at most 3, lead to a cube in the table; every sequence of up to 3
/// turns (without the same face twice running, and one order of opposite faces)
/// that the bound allows is tried, so the shortest total found is the distance.
pub fn optimal3(cube: &CubieCube, bound: impl Fn(&CubieCube) -> usize) -> Option<Vec<usize>> {
    // Most cubes are sent back here, before the table is built.
    if bound(cube) > NEAR3_DEPTH {
        return None;
    }
    let mut search = Search3 {
        table: near_table(),
        bound,
        path: Vec::with_capacity(NEAR3_DEPTH - NEAR_TABLE_DEPTH),
        best: None,
    };
    search.run(cube);
    let (_, mut moves, mut c) = search.best?;
    while let Some(&(d, last)) = search.table.get(&key(&c)) {
        if d == 0 {
            break;
        }
        let undo = inverse3(last as usize);
        moves.push(undo);
        c = c.apply_move(undo);
    }
    Some(moves)
}

/// The search of [`optimal3`].
struct Search3<F> {
    table: &'static NearTable,
    bound: F,
    path: Vec<usize>,
    /// The shortest solution so far: its length, the turns to a cube in the
    /// table, and that cube.
    best: Option<(usize, Vec<usize>, CubieCube)>,
}

impl<F: Fn(&CubieCube) -> usize> Search3<F> {
    /// Tries `c` against the table, and the canonical sequences of turns from
    /// it while they can still lead to a shorter solution.
    fn run(&mut self, c: &CubieCube) {
        let lb = (self.bound)(c);
        let reach = self.best.as_ref().map_or(NEAR3_DEPTH + 1, |b| b.0);
        if self.path.len() + lb >= reach {
            return;
        }
        if lb <= NEAR_TABLE_DEPTH {
            if let Some(&(d, _)) = self.table.get(&key(c)) {
                let total = self.path.len() + d as usize;
                if total < reach {
                    self.best = Some((total, self.path.clone(), *c));
                }
            }
        }
        if self.path.len() == NEAR3_DEPTH - NEAR_TABLE_DEPTH {
            return;
        }
        for m in 0..18 {
            if let Some(&p) = self.path.last() {
                let (pf, f) = (p / 3, m / 3);
                if pf == f || (pf % 3 == f % 3 && pf > f) {
                    continue;
                }
            }
            self.path.push(m);
            self.run(&c.apply_move(m));
            self.path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablegen::notation::{format_alg, parse_alg};

    fn after(n: usize, alg: &str) -> Vec<u8> {
        let cube = CubeN::new(n);
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &parse_alg(alg).unwrap());
        s
    }

    #[test]
    fn block_turns_and_their_order() {
        assert_eq!(block_turns(2).len(), 18);
        assert_eq!(block_turns(4).len(), 54);
        assert_eq!(block_turns(4)[0].to_string(), "U");
        assert_eq!(block_turns(4)[18].to_string(), "Uw");
        assert_eq!(block_turns(4)[53].to_string(), "3Bw2");
    }

    #[test]
    fn one_and_two_block_turns_on_every_size() {
        for n in 2..=6 {
            let cube = CubeN::new(n);
            for (alg, len) in [
                ("", 0),
                ("x y", 0),
                ("z2 y'", 0),
                ("R", 1),
                ("Lw'", 1),
                ("U2 x", 1),
                ("R U", 2),
                ("Fw2 D", 2),
                ("R L'", 2),
                ("U B2 U'", 3),
            ] {
                // On a 2x2x2 a wide turn is a whole-cube turn, and R L' is x.
                if n == 2 && (alg.contains('w') || alg == "R L'") {
                    continue;
                }
                let state = after(n, alg);
                let found = near_solved(&cube, &state, BLOCK_DEPTH);
                if len > BLOCK_DEPTH {
                    assert!(found.is_none(), "{n}: {alg}");
                    continue;
                }
                let moves = found.unwrap_or_else(|| panic!("{n}: {alg}"));
                assert_eq!(moves.len(), len, "{n}: {alg}: {}", format_alg(&moves));
                let mut s = state.clone();
                cube.apply_alg(&mut s, &moves);
                assert!(cube.is_solved(&s), "{n}: {alg}: {}", format_alg(&moves));
            }
        }
    }

    #[test]
    fn the_cubes_own_orientation_is_preferred() {
        let cube = CubeN::new(4);
        // Lw' is also solved by Rw (and a whole-cube turn); the answer is Lw'.
        let moves = near_solved(&cube, &after(4, "Lw"), 2).unwrap();
        assert_eq!(format_alg(&moves), "Lw'");
        let moves = near_solved(&cube, &after(4, "R U2"), 2).unwrap();
        assert_eq!(format_alg(&moves), "U2 R'");
    }

    #[test]
    fn optimal3_matches_the_table_and_stops_at_seven() {
        let none = |_: &CubieCube| 0;
        assert_eq!(optimal3(&CubieCube::SOLVED, none), Some(vec![]));
        let table = near_table();
        assert_eq!(table.len(), 1 + 18 + 243 + 3240 + 43239);
        // A cube 8 turns from solved (superflip is 20) is out of reach.
        let mut c = CubieCube::SOLVED;
        c.eo = [1; 12];
        assert_eq!(optimal3(&c, none), None);
        let c = "R U F' L2 D B' R2"
            .split(' ')
            .map(|t| {
                (0..18)
                    .find(|&m| tablegen::cube3::MOVE_NAMES[m] == t)
                    .unwrap()
            })
            .fold(CubieCube::SOLVED, |c, m| c.apply_move(m));
        let sol = optimal3(&c, none).unwrap();
        assert_eq!(sol.len(), 7);
        let end = sol.iter().fold(c, |c, &m| c.apply_move(m));
        assert_eq!(end, CubieCube::SOLVED);
    }
}
