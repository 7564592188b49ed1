//! Distance tables for solving the centres of an N-cube outright, orbit
//! by orbit, in three phases (the split of Kociemba's NxNxN centre solver:
//! facts from its description, no code):
//!
//! 1. `centres-ud`: the orbit's U and D colours on the U and D faces (any
//!    turn);
//! 2. `centres-fb`: its F and B colours on F and B (face turns and turns of
//!    the U-D axis, half turns of the other layers: the U/D colours stay on
//!    U/D);
//! 3. `centres-solve`: every facelet its face's colour (face turns, half
//!    turns of the other layers: both stagings stay).
//!
//! Face quarter turns matter: without them the places of each face split
//! into two classes no other allowed turn mixes (an X-orbit's two
//! diagonals), and the later phases reach only 70 x 70 and 12^3 of their
//! 12,870 and 343,000 states.
//!
//! An orbit's coordinate in a phase is the set of its 24 places that hold
//! the phase's colours (U and D; F and B; U, R and F), a 24-bit mask. Its
//! distance to the phase's goal is read from a table made by breadth-first
//! search over every outer block turn of the N-cube as it moves the orbit,
//! one table per phase and *kind* of orbit (X-centres, T-centres, obliques,
//! mirrored obliques: every orbit of a kind, at any depth and on any N, sees
//! the same block turns). Each distance is a lower bound, in outer block
//! turns, on the moves that bring that orbit to the phase's goal.
//!
//! These tables are the first part of a centres-first reduction; the
//! search that uses them is not built yet (`docs/nnn.md` says what was
//! tried and why it stalled).

use std::collections::HashMap;
use tablegen::cube::CubeN;
use tablegen::notation::{Face, Move, MoveKind};

/// An unreached state in a table.
const FAR: u8 = u8::MAX;

/// Binomial coefficients C(n, k), n <= 24, k <= 12.
fn binomials() -> [[u32; 13]; 25] {
    let mut c = [[0u32; 13]; 25];
    for n in 0..25 {
        c[n][0] = 1;
        for k in 1..13.min(n + 1) {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
        }
    }
    c
}

/// Whether a colour counts in a phase's mask.
fn in_phase(phase: usize, colour: u8) -> bool {
    match phase {
        0 => colour == Face::U as u8 || colour == Face::D as u8,
        1 => colour == Face::F as u8 || colour == Face::B as u8,
        _ => colour == Face::U as u8 || colour == Face::R as u8 || colour == Face::F as u8,
    }
}

/// How many bits a phase's mask has set.
fn ones(phase: usize) -> usize {
    if phase == 2 {
        12
    } else {
        8
    }
}

/// Whether a turn may be used in a phase.
fn turn_allowed(phase: usize, m: Move) -> bool {
    match phase {
        0 => true,
        1 => m.kind == MoveKind::Block(1) || m.face.axis() == Face::U.axis() || m.turns == 2,
        _ => m.kind == MoveKind::Block(1) || m.turns == 2,
    }
}

/// A move's action on one orbit's mask: bit `j` of the result is bit
/// `src[j]` of the mask, looked up a byte at a time.
#[derive(Clone)]
struct MaskPerm([[u32; 256]; 3]);

impl MaskPerm {
    /// From `src` (place `j` takes the sticker of place `src[j]`).
    fn new(src: &[usize; 24]) -> MaskPerm {
        let mut dst = [0usize; 24];
        for (j, &s) in src.iter().enumerate() {
            dst[s] = j;
        }
        let mut t = [[0u32; 256]; 3];
        for (b, tb) in t.iter_mut().enumerate() {
            for (v, out) in tb.iter_mut().enumerate() {
                *out = (0..8)
                    .filter(|i| v >> i & 1 == 1)
                    .fold(0, |acc, i| acc | 1 << dst[8 * b + i]);
            }
        }
        MaskPerm(t)
    }

    #[inline]
    fn apply(&self, m: u32) -> u32 {
        self.0[0][(m & 0xff) as usize]
            | self.0[1][(m >> 8 & 0xff) as usize]
            | self.0[2][(m >> 16) as usize]
    }

    fn is_identity(&self) -> bool {
        (0..24).all(|i| self.apply(1 << i) == 1 << i)
    }
}

/// A centre orbit: its 24 facelets (ascending), its two depths (smaller
/// first) and its kind.
#[derive(Clone, Debug)]
struct Orbit {
    facelets: [usize; 24],
    depths: (usize, usize),
    kind: usize,
}

/// The distance tables of one kind of orbit, one per phase, indexed by the
/// rank of the mask.
struct KindTables {
    dist: [Vec<u8>; 3],
}

/// The centre solver of one size N.
pub struct Centres {
    n: usize,
    cube: CubeN,
    orbits: Vec<Orbit>,
    /// Tables of each kind (X, T, oblique, mirrored oblique).
    kinds: HashMap<usize, KindTables>,
    binom: [[u32; 13]; 25],
}

fn depth(x: usize, n: usize) -> usize {
    x.min(n - 1 - x)
}

impl Centres {
    /// The centre solver of an N-cube (N >= 4): its orbits and tables.
    pub fn new(n: usize) -> Centres {
        let cube = CubeN::new(n);
        let orbits_all = tablegen::orbits::Orbits::new(&cube);
        let mut orbits: Vec<Orbit> = orbits_all
            .centres
            .iter()
            .map(|o| {
                let mut facelets = [0usize; 24];
                facelets.copy_from_slice(o);
                facelets.sort_unstable();
                // The least facelet is on U, in the orbit's least row.
                let (r, c) = ((facelets[0] / n) % n, facelets[0] % n);
                let kind = if r == c {
                    0
                } else if 2 * c + 1 == n {
                    1
                } else if c < n / 2 {
                    2
                } else {
                    3
                };
                let (a, b) = (depth(r, n), depth(c, n));
                Orbit {
                    facelets,
                    depths: (a.min(b), a.max(b)),
                    kind,
                }
            })
            .collect();
        // Innermost first: by the outer depth, then the inner, deepest first;
        // then by kind.
        orbits.sort_by_key(|o| (std::cmp::Reverse(o.depths), o.kind));
        let mut c = Centres {
            n,
            cube,
            orbits,
            kinds: HashMap::new(),
            binom: binomials(),
        };
        let mut seen = Vec::new();
        for i in 0..c.orbits.len() {
            let k = c.orbits[i].kind;
            if !seen.contains(&k) {
                seen.push(k);
                let t = c.build(i);
                c.kinds.insert(k, t);
            }
        }
        c
    }

    /// The rank of a mask with `k` bits set among all such masks of 24 bits.
    #[inline]
    fn rank(&self, mut m: u32) -> usize {
        let mut r = 0usize;
        let mut j = 1;
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            r += self.binom[p][j] as usize;
            j += 1;
            m &= m - 1;
        }
        r
    }

    /// Where each place of an orbit takes its sticker from under a move.
    fn src(&self, o: &Orbit, m: Move) -> [usize; 24] {
        let p = self.cube.perm(m);
        let mut src = [0usize; 24];
        for (j, &f) in o.facelets.iter().enumerate() {
            let from = p[f] as usize;
            src[j] = o
                .facelets
                .binary_search(&from)
                .expect("a turn keeps a centre orbit");
        }
        src
    }

    /// An orbit's mask in a phase.
    fn mask(&self, o: &Orbit, state: &[u8], phase: usize) -> u32 {
        o.facelets
            .iter()
            .enumerate()
            .filter(|&(_, &f)| in_phase(phase, state[f]))
            .fold(0, |m, (j, _)| m | 1 << j)
    }

    /// The tables of the kind of orbit `i`: breadth-first search from the
    /// goal over every block turn of the cube, as it moves this orbit.
    fn build(&self, i: usize) -> KindTables {
        let o = &self.orbits[i];
        let n = self.n;
        let mut blocks: Vec<Move> = Vec::new();
        for f in Face::ALL {
            for d in 1..n as u8 {
                for t in 1..=3u8 {
                    blocks.push(Move::block(f, d, t));
                }
            }
        }
        let solved = self.cube.solved();
        let dist = [0, 1, 2].map(|phase| {
            let mut perms: Vec<MaskPerm> = Vec::new();
            let mut keys: Vec<[usize; 24]> = Vec::new();
            for &m in blocks.iter().filter(|&&m| turn_allowed(phase, m)) {
                let s = self.src(o, m);
                if !keys.contains(&s) {
                    keys.push(s);
                    let p = MaskPerm::new(&s);
                    if !p.is_identity() {
                        perms.push(p);
                    }
                }
            }
            let size = self.binom[24][ones(phase)] as usize;
            let mut dist = vec![FAR; size];
            // The goal: the orbit's places on the phase's faces.
            let start = self.mask(o, &solved, phase);
            dist[self.rank(start)] = 0;
            let mut frontier = vec![start];
            let mut d = 0u8;
            while !frontier.is_empty() {
                let mut next = Vec::new();
                for &m in &frontier {
                    for p in &perms {
                        let c = p.apply(m);
                        let r = self.rank(c);
                        if dist[r] == FAR {
                            dist[r] = d + 1;
                            next.push(c);
                        }
                    }
                }
                frontier = next;
                d += 1;
            }
            dist
        });
        KindTables { dist }
    }

    /// The reached states and depth histogram of a kind's phase table (for
    /// tests and the documentation).
    pub fn histogram(&self, kind: usize, phase: usize) -> Option<Vec<u64>> {
        let t = self.kinds.get(&kind)?;
        let mut h: Vec<u64> = Vec::new();
        for &d in t.dist[phase].iter().filter(|&&d| d != FAR) {
            if h.len() <= d as usize {
                h.resize(d as usize + 1, 0);
            }
            h[d as usize] += 1;
        }
        Some(h)
    }

    /// The kinds of orbit this cube has (0 X, 1 T, 2 oblique, 3 mirrored).
    pub fn kinds(&self) -> Vec<usize> {
        let mut k: Vec<usize> = self.kinds.keys().copied().collect();
        k.sort_unstable();
        k
    }

    /// The distance of orbit `i` (in [`Centres::orbits`] order) of a
    /// state (colours as [`CubeN::solved`]) to `phase`'s goal (0 `centres-ud`,
    /// 1 `centres-fb`, 2 `centres-solve`), in outer
    /// block turns (`None` if the table does not reach it).
    pub fn distance(&self, state: &[u8], i: usize, phase: usize) -> Option<u8> {
        let o = self.orbits.get(i)?;
        let d = self.kinds[&o.kind].dist[phase][self.rank(self.mask(o, state, phase))];
        (d != FAR).then_some(d)
    }

    /// Each orbit's two depths (the smaller first) and kind, innermost
    /// first.
    pub fn orbits(&self) -> Vec<((usize, usize), usize)> {
        self.orbits.iter().map(|o| (o.depths, o.kind)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    /// Every kind's tables reach C(24, 8), C(16, 8) and C(8, 4)^3 states:
    /// the U/D colours anywhere; the F/B colours anywhere on the sides; each
    /// face pair's colours anywhere on its two faces.
    #[test]
    fn tables_reach_every_state() {
        for n in [6, 7] {
            let c = Centres::new(n);
            assert_eq!(
                c.kinds(),
                if n == 6 {
                    vec![0, 2, 3]
                } else {
                    vec![0, 1, 2, 3]
                }
            );
            for k in c.kinds() {
                let counts: Vec<u64> = (0..3)
                    .map(|p| c.histogram(k, p).unwrap().iter().sum())
                    .collect();
                assert_eq!(counts, vec![735_471, 12_870, 343_000], "n {n} kind {k}");
            }
        }
    }

    /// The solved cube is at distance 0 in every phase; a scramble of `k`
    /// outer block turns (of the phase's turns) is at most `k` from the goal,
    /// and some orbit is moved off it.
    #[test]
    fn distances_are_lower_bounds() {
        let mut rng = 7u64;
        let mut next = |m: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % m
        };
        for n in [6, 7] {
            let c = Centres::new(n);
            let cube = CubeN::new(n);
            let solved = cube.solved();
            let orbits = c.orbits();
            for i in 0..orbits.len() {
                for p in 0..3 {
                    assert_eq!(c.distance(&solved, i, p), Some(0));
                }
            }
            for phase in 0..3 {
                let mut moved = false;
                for trial in 0..40 {
                    let k = 1 + trial % 4;
                    let mut s = solved.clone();
                    let mut count = 0;
                    while count < k {
                        let f = Face::ALL[next(6) as usize];
                        let m = Move::block(f, 1 + next(n as u64 / 2) as u8, 1 + next(3) as u8);
                        if turn_allowed(phase, m) {
                            cube.apply(&mut s, m);
                            count += 1;
                        }
                    }
                    for i in 0..orbits.len() {
                        let d = c.distance(&s, i, phase).expect("reached");
                        assert!(d as usize <= k, "n {n} phase {phase} orbit {i}: {d} > {k}");
                        moved |= d > 0;
                    }
                }
                assert!(moved, "n {n} phase {phase}: no scramble moved an orbit");
            }
        }
    }

    /// The depth histograms again by a second method: breadth-first search
    /// over the orbit's facelets (one bit each: a phase colour or not),
    /// every block turn of the cube applied through its facelet
    /// permutation, states kept in a hash set.
    #[test]
    #[ignore = "slow: a hash-set BFS of 735,471 states per kind and phase"]
    fn histograms_agree_with_a_facelet_bfs() {
        for n in [6, 7] {
            let c = Centres::new(n);
            let cube = CubeN::new(n);
            // Every kind of the 6x6x6, and the 7x7x7's T-centres.
            for k in c.kinds().into_iter().filter(|&k| n == 6 || k == 1) {
                let o = c.orbits.iter().find(|o| o.kind == k).unwrap();
                let local: HashMap<usize, usize> = o
                    .facelets
                    .iter()
                    .enumerate()
                    .map(|(j, &f)| (f, j))
                    .collect();
                let n2 = n * n;
                for phase in 0..3 {
                    let moves: Vec<Vec<usize>> = Face::ALL
                        .iter()
                        .flat_map(|&f| {
                            (1..n as u8)
                                .flat_map(move |d| (1..=3u8).map(move |t| Move::block(f, d, t)))
                        })
                        .filter(|&m| turn_allowed(phase, m))
                        .map(|m| {
                            let p = cube.perm(m);
                            o.facelets
                                .iter()
                                .map(|&f| local[&(p[f] as usize)])
                                .collect()
                        })
                        .collect();
                    // A state: bit j set where local facelet j shows a
                    // phase colour (an orbit has 24 facelets).
                    assert!(o.facelets.len() <= 32);
                    let start: u32 = (o.facelets.iter().enumerate())
                        .filter(|&(_, &f)| in_phase(phase, (f / n2) as u8))
                        .fold(0, |s, (j, _)| s | 1 << j);
                    let mut seen: HashSet<u32> = HashSet::from([start]);
                    let mut frontier = vec![start];
                    let mut hist = vec![1u64];
                    while !frontier.is_empty() {
                        let mut next = Vec::new();
                        for &st in &frontier {
                            for m in &moves {
                                let child = (m.iter().enumerate())
                                    .filter(|&(_, &j)| st >> j & 1 != 0)
                                    .fold(0u32, |c, (i, _)| c | 1 << i);
                                if seen.insert(child) {
                                    next.push(child);
                                }
                            }
                        }
                        if !next.is_empty() {
                            hist.push(next.len() as u64);
                        }
                        frontier = next;
                    }
                    assert_eq!(
                        Some(hist),
                        c.histogram(k, phase),
                        "n {n} kind {k} phase {phase}"
                    );
                }
            }
        }
    }
}
