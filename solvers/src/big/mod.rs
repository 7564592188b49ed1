//! Cubes of 6x6x6 and up.
//!
//! Up to [`NESTED_MAX_N`] an N-cube goes through the (N-2)-cube of its
//! inner layers (reduced, by the same route one size down, to a 4x4x4 or
//! 5x5x5 reduction), then the blocks between its outer wings, to a 5x5x5
//! the 5x5x5 solver finishes (the `nested` module). Larger cubes are
//! reduced to the 4x4x4 (even N) or 5x5x5 (odd N) made of their innermost
//! layers, which the 4x4x4 or 5x5x5 solver then solves with block turns as
//! deep as the groups of layers they stand for, as below.
//!
//! Group the layers of an N-cube, seen from one face, as the smaller cube
//! does: the face layer; layers `1..m-1` (`m = N / 2`, or `(N - 1) / 2` on
//! odd N); on odd N the middle layer `m`; the mirror of the second group; the
//! opposite face. Once every facelet shows the colour of the facelet at the
//! same place in its group's innermost layer (the *representative*), the
//! cube turns as the smaller cube made of the representatives, with `Rw` of
//! the small cube the N-cube's `mRw`: the small cube's solution, its block
//! turns lifted onto its layers, solves the N-cube.
//!
//! The reduction places every facelet that is not a representative, wings
//! first (`docs/nnn.md`):
//!
//! - **Wings**, innermost orbit first ([`Reducer::reduce`]). While no centre
//!   is placed, the faces and the block turns down to the orbit's own layer
//!   (`(a+1)Rw` for depth `a`) move nothing finished, so a beam search over
//!   such turns pairs most of the orbit (and places what centre facelets it
//!   can on the way), and a greedy search finishes it, taking step by step
//!   the sequence of up to three such turns or the wing 3-cycle that pairs
//!   the most wings per move. Wing 3-cycles are the
//!   commutator of an inner layer with a face sequence (`[2R, U F U']`),
//!   found once on the 4x4x4; they move three wings and some centres.
//! - **Centres**, orbit by orbit (an oblique with its mirror), by cycles
//!   that touch nothing else: commutators of two single inner layers
//!   (`[2R, 3U]`, two 3-cycles for eight moves) or of a layer with a face
//!   turn's conjugate of another (`[2R, U 3L' U']`), found once on the
//!   smallest cube with an orbit of each kind and a layer the commutator
//!   leaves alone (X-centres on the 5x5x5, T-centres on the 7x7x7, obliques
//!   on the 8x8x8: the untouched layer's orbits show that every other orbit
//!   stays put), then carried to the N-cube's layers. A greedy search takes
//!   the cycle that places the most facelets per move, each behind up to
//!   two turns of the small cube that are not undone (they keep everything
//!   finished in place); the cycles are listed once per kind of orbit. Up
//!   to the 10x10x10 every orbit is placed in one search that also has bar
//!   cycles, commutators of ranges of two layers that move facelets of two
//!   orbits at once (`bars`).
//!
//! The reduction is tried from as many whole-cube orientations as the time
//! budget allows, and the shortest kept ([`Solver::solve`]). The solution
//! is checked on the facelet model before it is returned.

mod bars;
mod nested;

use crate::moves::simplify;
use crate::{Hard, SolveError};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tablegen::cube::{rotations24, unrotate, CubeN};
use tablegen::notation::{invert_alg, Face, Move, MoveKind};
use tablegen::orbits::Orbits;

/// The most facelets a cycle moves in its orbit (two 3-cycles).
const MAX_PAIRS: usize = 6;

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// Marks the given facelets among `len`.
fn marks(len: usize, facelets: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut out = vec![false; len];
    for f in facelets {
        out[f] = true;
    }
    out
}

/// The smallest cube this solver takes (smaller ones have their own).
pub const MIN_N: usize = 6;
/// The largest cube this solver takes (the facelet model's limit).
pub const MAX_N: usize = 64;
/// The largest N solved through its inner cubes (see the `nested` module);
/// larger cubes are reduced orbit by orbit to a 4x4x4 or 5x5x5.
pub const NESTED_MAX_N: usize = 17;

/// The time a solve aims at when none is given (each part runs at least
/// once, so a large cube takes longer).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(2500);

/// The default hard time limit: as the 5x5x5's, whose solver finishes the
/// cubes reduced through it.
pub const HARD_LIMIT: Duration = crate::cube5::HARD_LIMIT;

/// Options of the route through the inner cubes (6x6x6 to
/// [`NESTED_MAX_N`]), set when the solver is loaded
/// ([`Solver::load_with`]); larger cubes take none of them. Each level of
/// the route is a KxKxK: the cube itself, its inner (K = N-2), that one's
/// inner, and so on down to 6x6x6 or 7x7x7. The default is the solver's
/// own choice.
#[derive(Clone, Debug)]
pub struct Options {
    /// `(K, T)`: the KxKxK level makes its blocks from at least T
    /// orientations, whatever the time budget (the shortest is kept). A
    /// level not listed: 8 up to 10x10x10, then 1. Of two entries for one
    /// level the later counts.
    pub tries: Vec<(usize, usize)>,
    /// `(K, M)`: the KxKxK level's block search looks one move past each of
    /// a step's M best moves (1, or 0: none, the plain greedy step). A
    /// level not listed: 4 at every level of a cube up to 10x10x10, then 1.
    /// Of two entries for one level the later counts.
    pub look: Vec<(usize, usize)>,
    /// Whether the blocks are made with free moves (`S 2R S'`) as well as
    /// the cycles (default: true; false: the cycles alone).
    pub free_moves: bool,
    /// Called with a line on each level's free moves (when the solver is
    /// loaded), the inner cube's time and each orientation's blocks (as a
    /// cube is solved); none by default.
    pub trace: Option<fn(&str)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tries: Vec::new(),
            look: Vec::new(),
            free_moves: true,
            trace: None,
        }
    }
}

impl Options {
    /// The value of the KxKxK level in `list`, if it has one.
    fn at(list: &[(usize, usize)], k: usize) -> Option<usize> {
        list.iter().rev().find(|e| e.0 == k).map(|e| e.1)
    }
}

/// The small cubes' solvers' options for what is left of a solve: their own
/// time budget (or `budget`), and the solve's hard limit `hard`.
fn small_options(
    budget: Option<Duration>,
    hard: Hard,
) -> (crate::cube4::Options, crate::cube5::Options) {
    let left = hard.left();
    let mut four = crate::cube4::Options::default();
    let mut five = crate::cube5::Options::default();
    if let Some(t) = budget {
        four.time_budget = t;
        five.time_budget = t;
    }
    four.time_budget = four.time_budget.min(left);
    five.time_budget = five.time_budget.min(left);
    four.hard_limit = left;
    five.hard_limit = left;
    (four, five)
}

/// A move sequence found on a small cube, with what it does there: facelet
/// `from` goes to `to`, for each facelet it moves.
#[derive(Clone, Debug)]
struct Base {
    moves: Vec<Move>,
    pairs: Vec<(u16, u16)>,
}

/// Where each facelet of a sequence's start state ends: `t[j]` is the
/// facelet whose sticker is at `j` afterwards.
fn track(cube: &CubeN, moves: &[Move]) -> Vec<u16> {
    let mut t: Vec<u16> = (0..cube.facelets() as u16).collect();
    let mut old = t.clone();
    for &m in moves {
        let p = cube.perm(m);
        old.copy_from_slice(&t);
        for (dst, &src) in t.iter_mut().zip(p.iter()) {
            *dst = old[src as usize];
        }
    }
    t
}

/// The facelets a sequence moves, as (from, to).
fn moved(t: &[u16]) -> Vec<(u16, u16)> {
    t.iter()
        .enumerate()
        .filter(|&(j, &s)| s as usize != j)
        .map(|(j, &s)| (s, j as u16))
        .collect()
}

/// The turn of the single layer `layer` (0 = the face) seen from `face`.
fn layer_turn(face: Face, layer: usize, turns: u8) -> Move {
    if layer == 0 {
        Move::face(face, turns)
    } else {
        Move {
            face,
            kind: MoveKind::Slice(layer as u8 + 1),
            turns,
        }
    }
}

/// Setup sequences of the given turns: none, one turn, then two turns of
/// different layers.
fn sequences(turns: &[Move]) -> Vec<Vec<Move>> {
    let mut seqs: Vec<Vec<Move>> = vec![vec![]];
    seqs.extend(turns.iter().map(|&x| vec![x]));
    for &x in turns {
        for &y in turns {
            if (y.face, y.kind) != (x.face, x.kind) {
                seqs.push(vec![x, y]);
            }
        }
    }
    seqs
}

/// A cycle's cost in outer block turns: an inner layer two, a block one.
fn base_cost(moves: &[Move]) -> u32 {
    moves
        .iter()
        .map(|m| {
            if matches!(m.kind, MoveKind::Slice(_)) {
                2
            } else {
                1
            }
        })
        .sum()
}

/// A cycle's effect, its sorted (from, to) pairs, as a number (a collision
/// only drops a cycle).
fn effect_key(pairs: impl Iterator<Item = (u32, u32)>) -> u64 {
    pairs.fold(0xcbf2_9ce4_8422_2325u64, |h, (f, t)| {
        (h ^ (u64::from(f) << 32 | u64::from(t))).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The sequences of free turns of each length the wing phase's beam search
/// keeps (`docs/nnn.md` has the measurements behind these four settings).
const WING_BEAM_WIDTH: usize = 500;
/// What the beam reckons each wing still unpaired will cost the greedy
/// steps that finish.
const WING_PER_UNPAIRED: f64 = 3.0;
/// What the beam reckons each centre facelet its turns could place, but
/// that is not placed, will cost the centre phase (which pays about 2).
const WING_PER_CENTRE: f64 = 1.0;
/// Lengths the beam goes on for past its best end so far.
const WING_BEAM_PATIENCE: usize = 10;

/// The centre facelets as the wing beam sees them: each free turn's
/// permutation of them (as the wings'), the pairs (facelet,
/// representative) to match, their colours at the start.
struct Centres<'a> {
    perms: &'a [Vec<u32>],
    pairs: &'a [(u32, u32)],
    start: &'a [u8],
}

/// A beam search over free turns for one wing orbit in local indices
/// (facelets `0..k` the orbit's, `k..2k` their representatives'; unit `u`
/// is facelets `2u`, `2u + 1`; `perms[m][j]` is where turn `m` takes local
/// facelet `j`'s sticker from), with the centre facelets its turns place
/// for good. Keeps the [`WING_BEAM_WIDTH`] sequences of each length with
/// the least left to do ([`WING_PER_UNPAIRED`] a wing unpaired,
/// [`WING_PER_CENTRE`] a centre facelet not placed; `same[m][m']`: not the
/// same layers twice in a row), and returns the one, of even parity
/// (`flips[m]`: turn `m` changes it), whose length plus what is left is
/// least; it stops [`WING_BEAM_PATIENCE`] lengths past the best.
fn wing_beam(
    start: &[u8],
    perms: &[Vec<u32>],
    same: &[Vec<bool>],
    flips: &[bool],
    k: usize,
    centres: &Centres,
) -> Vec<usize> {
    let (width, per_wing, per_centre) = (WING_BEAM_WIDTH, WING_PER_UNPAIRED, WING_PER_CENTRE);
    let wl = 2 * k;
    let len = wl + centres.start.len();
    let units = k / 2;
    let total_c = centres.pairs.len();
    // What is left to do, in moves (hundredths): wings unpaired, centres
    // not placed.
    let left = |s: &[u8]| -> i64 {
        let p = (0..units)
            .filter(|&u| s[2 * u] == s[k + 2 * u] && s[2 * u + 1] == s[k + 2 * u + 1])
            .count();
        let c = centres
            .pairs
            .iter()
            .filter(|&&(f, r)| s[wl + f as usize] == s[wl + r as usize])
            .count();
        ((per_wing * (units - p) as f64 + per_centre * (total_c - c) as f64) * 100.0) as i64
    };
    let mut start_full = start.to_vec();
    start_full.extend_from_slice(centres.start);
    let start = &start_full[..];
    // One level: states (flat), and per state its parent, move, parity.
    struct Level {
        states: Vec<u8>,
        parent: Vec<u32>,
        mv: Vec<u8>,
        odd: Vec<bool>,
    }
    let mut levels = vec![Level {
        states: start.to_vec(),
        parent: vec![0],
        mv: vec![u8::MAX],
        odd: vec![false],
    }];
    let cost = |l: usize, x: i64| l as i64 * 100 + x;
    let mut best = (cost(0, left(start)), 0usize, 0usize);
    let mut seen: HashSet<u64, BuildHasherDefault<KeyHasher>> = HashSet::default();
    let hash = |s: &[u8]| -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for c in s.chunks(8) {
            let mut w = 0u64;
            for &b in c {
                w = (w << 8) | u64::from(b);
            }
            h = (h ^ w).wrapping_mul(0x1000_0000_01b3).rotate_left(29);
        }
        h
    };
    seen.insert(hash(&start[..wl]));
    let mut next = vec![0u8; len];
    while (levels.len() as i64) * 100 < best.0 && levels.len() <= best.1 + WING_BEAM_PATIENCE {
        let l = levels.len();
        let prev = &levels[l - 1];
        // (what is left, tie-break hash, parent, move, odd), their states
        // in `store` in the same order. Repeats are known by their wings.
        let mut cands: Vec<(i64, u64, u32, u8, bool)> = Vec::new();
        let mut store: Vec<u8> = Vec::new();
        for i in 0..prev.parent.len() {
            let s = &prev.states[i * len..(i + 1) * len];
            let last = prev.mv[i];
            for (mi, p) in perms.iter().enumerate() {
                if last != u8::MAX && same[last as usize][mi] {
                    continue;
                }
                for (d, &j) in next[..wl].iter_mut().zip(p.iter()) {
                    *d = s[j as usize];
                }
                let h = hash(&next[..wl]);
                if !seen.insert(h) {
                    continue;
                }
                for (d, &j) in next[wl..].iter_mut().zip(centres.perms[mi].iter()) {
                    *d = s[wl + j as usize];
                }
                cands.push((left(&next), h, i as u32, mi as u8, prev.odd[i] ^ flips[mi]));
                store.extend_from_slice(&next);
            }
        }
        if cands.is_empty() {
            break;
        }
        let mut order: Vec<usize> = (0..cands.len()).collect();
        let key = |&x: &usize| (cands[x].0, cands[x].1);
        if order.len() > width {
            order.select_nth_unstable_by_key(width, key);
            order.truncate(width);
        }
        order.sort_unstable_by_key(key);
        let mut level = Level {
            states: Vec::with_capacity(order.len() * len),
            parent: Vec::with_capacity(order.len()),
            mv: Vec::with_capacity(order.len()),
            odd: Vec::with_capacity(order.len()),
        };
        for (idx, &c) in order.iter().enumerate() {
            let (p, _, parent, mi, odd) = cands[c];
            level
                .states
                .extend_from_slice(&store[c * len..(c + 1) * len]);
            level.parent.push(parent);
            level.mv.push(mi);
            level.odd.push(odd);
            if !odd && cost(l, p) < best.0 {
                best = (cost(l, p), l, idx);
            }
        }
        levels.push(level);
    }
    let (_, mut l, mut i) = best;
    let mut out = Vec::with_capacity(l);
    while l > 0 {
        out.push(levels[l].mv[i] as usize);
        i = levels[l].parent[i] as usize;
        l -= 1;
    }
    out.reverse();
    out
}

/// A setup: the moves and where their inverse sends each facelet; `kept`
/// when the setup is not undone after its cycle.
fn setup(cube: &CubeN, s: Vec<Move>, kept: bool) -> Setup {
    let t = track(cube, &invert_alg(&s));
    let mut dest = vec![0u32; t.len()];
    for (j, &src) in t.iter().enumerate() {
        dest[src as usize] = j as u32;
    }
    Setup {
        moves: s,
        dest,
        kept,
    }
}

/// Keeps each effect once, and each sequence's inverse too.
fn add_with_inverse(out: &mut Vec<Base>, seen: &mut HashSet<Vec<(u16, u16)>>, b: Base) {
    let inv = Base {
        moves: invert_alg(&b.moves),
        pairs: b.pairs.iter().map(|&(f, t)| (t, f)).collect(),
    };
    for x in [b, inv] {
        let mut key = x.pairs.clone();
        key.sort_unstable();
        if seen.insert(key) {
            out.push(x);
        }
    }
}

/// Centre cycles on a cube of size `n`: commutators `[A, B]` and `[A, X^q B
/// X^-q]` of single layers `A`, `B` at the given layer indices and a face
/// turn `X`, kept when they move three or six facelets, all of them centres
/// that `wanted(row, col)` accepts (two layers on different axes cross at
/// two facelets: two 3-cycles for eight moves).
fn centre_bases(n: usize, layers: &[usize], wanted: impl Fn(usize, usize) -> bool) -> Vec<Base> {
    let cube = CubeN::new(n);
    let axes = [Face::R, Face::U, Face::F];
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut conj: Vec<Option<(Face, u8)>> = vec![None];
    for x in Face::ALL {
        for q in 1..=3u8 {
            conj.push(Some((x, q)));
        }
    }
    for fa in axes {
        for &la in layers {
            for ta in 1..=3u8 {
                let a = layer_turn(fa, la, ta);
                for &cj in &conj {
                    for fb in axes {
                        for &lb in layers {
                            if fb == fa && (lb == la || cj.is_none()) {
                                continue;
                            }
                            for tb in 1..=3u8 {
                                let b: Vec<Move> = match cj {
                                    None => vec![layer_turn(fb, lb, tb)],
                                    Some((x, q)) => vec![
                                        Move::face(x, q),
                                        layer_turn(fb, lb, tb),
                                        Move::face(x, 4 - q),
                                    ],
                                };
                                let mut moves = vec![a];
                                moves.extend(&b);
                                moves.push(a.inverse());
                                moves.extend(invert_alg(&b));
                                let pairs = moved(&track(&cube, &moves));
                                let ok = (pairs.len() == 3 || pairs.len() == 6)
                                    && pairs.iter().all(|&(f, _)| {
                                        let f = f as usize % (n * n);
                                        wanted(f / n, f % n)
                                    });
                                if ok {
                                    add_with_inverse(&mut out, &mut seen, Base { moves, pairs });
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Wing 3-cycles on the 4x4x4: `[A, W]` for an inner layer `A` and a face
/// sequence `W` (`X Y X'` or `X Y X' Y'` of two adjacent faces), kept when
/// they move exactly three wings and nothing else but centres (the wings
/// are paired before any centre is placed, so the centres may move).
fn wing_bases() -> Vec<Base> {
    let cube = CubeN::new(4);
    let wing = |f: u16| {
        let f = f as usize % 16;
        let (r, c) = (f / 4, f % 4);
        (r == 0 || r == 3) != (c == 0 || c == 3)
    };
    let centre = |f: u16| {
        let f = f as usize % 16;
        (1..3).contains(&(f / 4)) && (1..3).contains(&(f % 4))
    };
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for fa in [Face::R, Face::U, Face::F] {
        for la in [1, 2] {
            for ta in 1..=3u8 {
                let a = layer_turn(fa, la, ta);
                for x in Face::ALL {
                    for y in Face::ALL {
                        if y.axis() == x.axis() {
                            continue;
                        }
                        for p in 1..=3u8 {
                            for q in 1..=3u8 {
                                for four in [false, true] {
                                    let mut w = vec![
                                        Move::face(x, p),
                                        Move::face(y, q),
                                        Move::face(x, 4 - p),
                                    ];
                                    if four {
                                        w.push(Move::face(y, 4 - q));
                                    }
                                    let mut moves = vec![a];
                                    moves.extend(&w);
                                    moves.push(a.inverse());
                                    moves.extend(invert_alg(&w));
                                    let all = moved(&track(&cube, &moves));
                                    let pairs: Vec<(u16, u16)> =
                                        all.iter().copied().filter(|&(f, _)| wing(f)).collect();
                                    if pairs.len() == 6
                                        && all.iter().all(|&(f, _)| wing(f) || centre(f))
                                    {
                                        add_with_inverse(
                                            &mut out,
                                            &mut seen,
                                            Base { moves, pairs },
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn depth(x: usize, n: usize) -> usize {
    x.min(n - 1 - x)
}

/// The small-cube cycles of each kind, found once.
fn bases(kind: u8) -> &'static [Base] {
    static X: OnceLock<Vec<Base>> = OnceLock::new();
    static T: OnceLock<Vec<Base>> = OnceLock::new();
    static O: OnceLock<Vec<Base>> = OnceLock::new();
    static W: OnceLock<Vec<Base>> = OnceLock::new();
    match kind {
        0 => {
            X.get_or_init(|| centre_bases(5, &[1, 3], |r, c| depth(r, 5) == 1 && depth(c, 5) == 1))
        }
        1 => T.get_or_init(|| {
            centre_bases(7, &[1, 3, 5], |r, c| {
                let (a, b) = (depth(r, 7), depth(c, 7));
                (a, b) == (1, 3) || (a, b) == (3, 1)
            })
        }),
        2 => O.get_or_init(|| {
            centre_bases(8, &[1, 2, 5, 6], |r, c| {
                let (a, b) = (depth(r, 8), depth(c, 8));
                (a, b) == (1, 2) || (a, b) == (2, 1)
            })
        }),
        _ => W.get_or_init(wing_bases),
    }
}

/// A cycle on the N-cube with the face turns that set it up: the moves are
/// the setup, the cycle, the setup undone.
#[derive(Clone, Debug)]
struct Cand {
    base: u32,
    setup: u32,
    cost: u32,
    /// (from, to) of each facelet it moves, the first `len`; those of the
    /// units' first facelets (every centre facelet, each wing's first) come
    /// first. Held inline: a cube's candidates run to millions.
    moved: [(u32, u32); MAX_PAIRS],
    len: u8,
    /// How many of the pairs are units' first facelets.
    leads: u8,
}

impl Cand {
    /// (from, to) of each facelet it moves, the units' first facelets first.
    fn pairs(&self) -> &[(u32, u32)] {
        &self.moved[..self.len as usize]
    }
}

/// How an orbit's small cube sits in the N-cube: the small cube's size, its
/// layer indices on the N-cube (`usize::MAX` for a layer no cycle turns),
/// and which set of cycles.
struct Layout {
    size: usize,
    map: Vec<usize>,
    kind: u8,
}

/// The reduction of one size N (6 and up) to its small cube: every facelet
/// made its representative's colour.
pub struct Reducer {
    n: usize,
    cube: CubeN,
    orbits: Orbits,
    /// Setups of none, one or two turns of the small cube (its faces and
    /// its `Rw`), each with where its inverse sends every facelet; kept. The
    /// single turns come first (`small_one_turn` of them, with none).
    small_setups: Vec<Setup>,
    small_one_turn: usize,
    /// The centre orbits that are not representatives, by their two depths
    /// (an oblique orbit with its mirror, whose cycles share layers).
    groups: Vec<(Depths, Vec<usize>)>,
    /// The cycles of each kind of centre group, made once (see
    /// [`Reducer::kind_candidates`]).
    kind_cands: [OnceLock<(usize, Vec<Cand>)>; 3],
    /// The bar cycles (up to [`bars::BAR_MAX_N`]), made once.
    bars: OnceLock<bars::Bars>,
}

/// A wing cycle in a wing orbit's local indices: its (from, to) pairs, its
/// cost and the cycle itself.
type LocalCycle = (Vec<(u32, u32)>, u32, Cand);

/// Moves that set a cycle up, and where their inverse sends each facelet.
///
/// A setup is undone after its cycle, unless it is `kept`: a setup of turns
/// of the small cube (faces, and blocks that end between two groups of
/// layers) moves whole groups onto whole groups, so it keeps every paired
/// wing and placed centre as it is. The cycle's effect is then the same as
/// with the setup undone, followed by the setup, and the setup costs its
/// length once instead of twice.
struct Setup {
    moves: Vec<Move>,
    dest: Vec<u32>,
    kept: bool,
}

/// One step of a greedy cycle search: the cycle that places the most
/// per move; if none places anything, a cycle that moves something
/// unplaced and places as much as it takes away, picked at random (from a
/// fixed seed: the same state gives the same moves). Gives up after 40
/// such steps in a row.
struct Pick {
    /// (gain, cost, index) of the best so far.
    best: Option<(u32, u32, usize)>,
    /// The rank of the best so far ([`Pick::consider_at`]).
    best_rank: usize,
    level: Vec<usize>,
    idle: u32,
    rng: u64,
    /// How many of the best to keep in `top` ([`Pick::consider_at`]).
    keep: usize,
    /// The `keep` best so far, best first: (gain, cost, index, rank).
    top: Vec<(u32, u32, usize, usize)>,
    /// The best of the last step ([`Pick::choose`]).
    last: Option<(u32, u32, usize)>,
}

impl Default for Pick {
    fn default() -> Self {
        Pick {
            best: None,
            best_rank: 0,
            level: Vec::new(),
            idle: 0,
            rng: 0x9E37_79B9_7F4A_7C15,
            keep: 1,
            top: Vec::new(),
            last: None,
        }
    }
}

impl Pick {
    /// Cycle `i`: what it places less what it takes away, whether it moves
    /// something unplaced, its cost.
    fn consider(&mut self, i: usize, gain: i32, touches: bool, cost: u32) {
        if gain == 0 && touches {
            self.level.push(i);
        }
        if gain > 0 {
            let g = gain as u32;
            if self.best.is_none_or(|(bg, bc, _)| g * bc > bg * cost) {
                self.best = Some((g, cost, i));
            }
        }
    }

    /// As [`Pick::consider`] for a cycle that moves something unplaced,
    /// where the cycles are not seen in the order of their indices: of two
    /// placing as much per move, the one of the lower `rank` is kept.
    fn consider_at(&mut self, i: usize, rank: usize, gain: i32, cost: u32) {
        if gain == 0 {
            self.level.push(i);
        }
        if gain > 0 {
            let g = gain as u32;
            let better = self.best.is_none_or(|(bg, bc, _)| {
                g * bc > bg * cost || (g * bc == bg * cost && rank < self.best_rank)
            });
            if better {
                self.best = Some((g, cost, i));
                self.best_rank = rank;
            }
            if self.keep > 1 {
                // Before the first that places less per move, or as much
                // with a higher rank.
                let at = self.top.partition_point(|&(bg, bc, _, br)| {
                    bg * cost > g * bc || (bg * cost == g * bc && br < rank)
                });
                if at < self.keep {
                    self.top.insert(at, (g, cost, i, rank));
                    self.top.truncate(self.keep);
                }
            }
        }
    }

    /// (gain, cost) that a move must beat to count: the best so far, or
    /// with `keep` above one the last of a full `top`.
    fn bound(&self) -> Option<(u32, u32)> {
        if self.keep > 1 {
            (self.top.len() == self.keep).then(|| {
                let &(g, c, _, _) = &self.top[self.keep - 1];
                (g, c)
            })
        } else {
            self.best.map(|(g, c, _)| (g, c))
        }
    }

    /// The step's cycle (and a fresh start for the next step), or `None`
    /// when the search is stuck.
    fn choose(&mut self) -> Option<usize> {
        let level = std::mem::take(&mut self.level);
        self.last = self.best;
        if let Some((_, _, i)) = self.best.take() {
            self.idle = 0;
            return Some(i);
        }
        self.idle += 1;
        if level.is_empty() || self.idle > 40 {
            return None;
        }
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        Some(level[(self.rng % level.len() as u64) as usize])
    }
}

/// The cube of `coords.len()` layers read off an N-cube state at the given
/// rows and columns.
fn read_small(n: usize, state: &[u8], coords: &[usize]) -> Vec<u8> {
    let k = coords.len();
    (0..6 * k * k)
        .map(|i| {
            let (f, r, c) = (i / (k * k), (i / k) % k, i % k);
            state[(f * n + coords[r]) * n + coords[c]]
        })
        .collect()
}

/// A turn of a smaller cube whose layer `i` is the N-cube's layers up to
/// `last[i]` (from the previous one's next) as turns of the N-cube.
fn lift_by(last: &[u8], m: Move) -> Vec<Move> {
    match m.kind {
        MoveKind::Block(d) => vec![Move::block(m.face, last[d as usize - 1] + 1, m.turns)],
        MoveKind::Slice(d) => vec![
            Move::block(m.face, last[d as usize - 1] + 1, m.turns),
            Move::block(m.face, last[d as usize - 2] + 1, 4 - m.turns),
        ],
        MoveKind::Rotation => vec![m],
    }
}

/// A centre orbit's two depths, the smaller first.
type Depths = (usize, usize);

/// The reduction's moves, by part (inner layers as [`MoveKind::Slice`]).
#[derive(Clone, Debug, Default)]
pub struct Reduction {
    /// Wing pairing, first.
    pub wings: Vec<Move>,
    /// Centre 3-cycles, then.
    pub centres: Vec<Move>,
}

impl Reducer {
    /// The reducer of an N-cube, `MIN_N <= n <= MAX_N`.
    pub fn new(n: usize) -> Reducer {
        let cube = CubeN::new(n);
        // The small cube's turns: its faces, and its `Rw` (the N-cube's
        // `hRw`; the small `3Rw` of odd N is `Lw'` turned, and so are the
        // even N's `hLw` and `hRw'`: the whole-cube turn changes nothing
        // a setup does, so the opposite face's block stands for it).
        let small: Vec<Move> = Face::ALL
            .iter()
            .flat_map(|&f| {
                (1..=3u8).flat_map(move |t| [Move::face(f, t), Move::block(f, (n / 2) as u8, t)])
            })
            .collect();
        let small_setups: Vec<Setup> = sequences(&small)
            .into_iter()
            .map(|s| setup(&cube, s, true))
            .collect();
        let orbits = Orbits::new(&cube);
        let mut r = Reducer {
            n,
            cube,
            orbits,
            small_setups,
            small_one_turn: 1 + small.len(),
            groups: Vec::new(),
            kind_cands: Default::default(),
            bars: OnceLock::new(),
        };
        let mut groups: Vec<(Depths, Vec<usize>)> = Vec::new();
        for o in &r.orbits.centres {
            let rep = o.iter().all(|&f| {
                let (row, col) = ((f / n) % n, f % n);
                r.rep(row) == row && r.rep(col) == col
            });
            if rep {
                continue;
            }
            let (row, col) = ((o[0] / n) % n, o[0] % n);
            let (a, b) = (depth(row, n), depth(col, n));
            let key = (a.min(b), a.max(b));
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, u)) => u.extend(o),
                None => groups.push((key, o.clone())),
            }
        }
        r.groups = groups;
        r
    }

    /// The representative of coordinate `x` (a row or column index): the
    /// innermost coordinate of its group.
    pub fn rep(&self, x: usize) -> usize {
        let (n, h) = (self.n, self.n / 2);
        if x == 0 || x == n - 1 {
            x
        } else if x < h {
            h - 1
        } else if x == h || n % 2 == 0 {
            h
        } else {
            h + 1
        }
    }

    /// The small cube's rows and columns on the N-cube, in order.
    pub fn small_coords(&self) -> Vec<usize> {
        let (n, h) = (self.n, self.n / 2);
        if n % 2 == 0 {
            vec![0, h - 1, h, n - 1]
        } else {
            vec![0, h - 1, h, h + 1, n - 1]
        }
    }

    /// The small cube read off an N-cube state.
    pub fn small_state(&self, state: &[u8]) -> Vec<u8> {
        read_small(self.n, state, &self.small_coords())
    }

    /// A turn of the small cube as turns of the N-cube: block depth `d` is
    /// the small cube's layers `0..d`, the N-cube's up to the last layer of
    /// group `d - 1`.
    pub fn lift(&self, m: Move) -> Vec<Move> {
        let (n, h) = (self.n, self.n / 2);
        let last: Vec<u8> = if n % 2 == 0 {
            vec![0, h as u8 - 1, n as u8 - 2, n as u8 - 1]
        } else {
            vec![0, h as u8 - 1, h as u8, n as u8 - 2, n as u8 - 1]
        };
        lift_by(&last, m)
    }

    /// The colour each facelet must show: its representative's.
    fn target(&self, state: &[u8]) -> Vec<u8> {
        let n = self.n;
        (0..self.cube.facelets())
            .map(|i| {
                let (f, r, c) = (i / (n * n), (i / n) % n, i % n);
                state[(f * n + self.rep(r)) * n + self.rep(c)]
            })
            .collect()
    }

    fn layout(&self, first: usize, wing: bool) -> Layout {
        let n = self.n;
        let (r0, c0) = ((first / n) % n, first % n);
        let none = usize::MAX;
        if wing {
            let a = depth(if r0 == 0 || r0 == n - 1 { c0 } else { r0 }, n);
            return Layout {
                size: 4,
                map: vec![0, a, n - 1 - a, n - 1],
                kind: 3,
            };
        }
        let (a, b) = (depth(r0, n), depth(c0, n));
        let (lo, hi) = (a.min(b), a.max(b));
        if lo == hi {
            Layout {
                size: 5,
                map: vec![0, lo, none, n - 1 - lo, n - 1],
                kind: 0,
            }
        } else if n % 2 == 1 && hi == n / 2 {
            Layout {
                size: 7,
                map: vec![0, lo, none, hi, none, n - 1 - lo, n - 1],
                kind: 1,
            }
        } else {
            Layout {
                size: 8,
                map: vec![0, lo, hi, none, none, n - 1 - hi, n - 1 - lo, n - 1],
                kind: 2,
            }
        }
    }

    /// The turn of each setup next to its cycle, as a permutation (none
    /// for the empty setup).
    fn next_turns(&self, setups: &[Setup]) -> Vec<Option<std::sync::Arc<tablegen::cube::Perm>>> {
        setups
            .iter()
            .map(|x| x.moves.last().map(|&m| self.cube.perm(m)))
            .collect()
    }

    /// The cycles of a centre orbit (given by its facelets) or a wing orbit
    /// (its facelets, both of each wing), with every setup.
    fn candidates(
        &self,
        facelets: &[usize],
        lay: &Layout,
        lead: &[bool],
        setups: &[Setup],
    ) -> Vec<Cand> {
        let n = self.n;
        let k = lay.size;
        let inside: HashSet<usize> = facelets.iter().copied().collect();
        let carry = |f: u16| -> Option<u32> {
            let f = f as usize;
            let (face, r, c) = (f / (k * k), (f / k) % k, f % k);
            let (r, c) = (lay.map[r], lay.map[c]);
            (r < n && c < n).then(|| ((face * n + r) * n + c) as u32)
        };
        let mut out: Vec<Cand> = Vec::new();
        // Keyed by a hash of the effect already: no second hash.
        let mut index: HashMap<u64, usize, BuildHasherDefault<KeyHasher>> =
            HashMap::with_capacity_and_hasher(1 << 16, Default::default());
        let mut buf = [(0u32, 0u32); MAX_PAIRS];
        let next_to = self.next_turns(setups);
        for (bi, b) in bases(lay.kind).iter().enumerate() {
            let pairs: Option<Vec<(u32, u32)>> = b
                .pairs
                .iter()
                .map(|&(f, t)| Some((carry(f)?, carry(t)?)))
                .collect();
            let Some(pairs) = pairs else { continue };
            if pairs.len() > MAX_PAIRS
                || !pairs.iter().all(|&(f, _)| inside.contains(&(f as usize)))
            {
                continue;
            }
            let cost = base_cost(&b.moves);
            for (
                si,
                Setup {
                    moves: s,
                    dest,
                    kept,
                },
            ) in setups.iter().enumerate()
            {
                // A setup whose turn next to the cycle moves none of its
                // facelets does what the setup without that turn does, at a
                // higher cost.
                if let Some(p) = &next_to[si] {
                    if pairs.iter().all(|&(f, _)| p[f as usize] as u32 == f) {
                        continue;
                    }
                }
                let moved = &mut buf[..pairs.len()];
                for (slot, &(f, t)) in moved.iter_mut().zip(&pairs) {
                    *slot = (dest[f as usize], dest[t as usize]);
                }
                moved.sort_unstable();
                let key = effect_key(moved.iter().copied());
                let cost = cost + if *kept { 1 } else { 2 } * s.len() as u32;
                let at = index.get(&key).copied();
                if at.is_some_and(|i| out[i].cost <= cost) {
                    continue;
                }
                // The units' first facelets first.
                moved.sort_by_key(|&(f, _)| !lead[f as usize]);
                let cand = Cand {
                    base: bi as u32,
                    setup: si as u32,
                    cost,
                    leads: moved.iter().filter(|&&(f, _)| lead[f as usize]).count() as u8,
                    len: moved.len() as u8,
                    moved: buf,
                };
                match at {
                    Some(i) => out[i] = cand,
                    None => {
                        index.insert(key, out.len());
                        out.push(cand);
                    }
                }
            }
        }
        out
    }

    /// The moves of a candidate on the N-cube.
    fn cand_moves(&self, c: &Cand, lay: &Layout, setups: &[Setup]) -> Vec<Move> {
        let setup = &setups[c.setup as usize];
        let mut out = setup.moves.clone();
        out.extend(
            bases(lay.kind)[c.base as usize]
                .moves
                .iter()
                .map(|&m| match m.kind {
                    MoveKind::Slice(d) => layer_turn(m.face, lay.map[d as usize - 1], m.turns),
                    _ => m,
                }),
        );
        if !setup.kept {
            out.extend(invert_alg(&setup.moves));
        }
        out
    }

    /// Places the facelets of centre group `g` by greedy cycles behind
    /// setups of up to two turns of the small cube; returns the moves and
    /// updates `state` (the setups, kept, turn the small cube; every
    /// finished facelet stays its representative's colour).
    fn place(&self, state: &mut [u8], g: usize, hard: Hard) -> Result<Vec<Move>, SolveError> {
        let facelets = &self.groups[g].1;
        let lay = self.layout(facelets[0], false);
        // The cycles of the first group of this kind, and where each of its
        // facelets stands in this group.
        let (canon, cands) = self.kind_candidates(lay.kind);
        let at = self.relabel(canon, g);
        let mut target = self.target(state);
        let mut moves = Vec::new();
        let mut pick = Pick::default();
        for _ in 0..20 * facelets.len() {
            if facelets.iter().all(|&f| state[f] == target[f]) {
                return Ok(moves);
            }
            hard.check("centres")?;
            let right =
                |f: u32, t: u32| state[at[f as usize] as usize] == target[at[t as usize] as usize];
            for (i, c) in cands.iter().enumerate() {
                let mut gain = 0i32;
                let mut touches = false;
                for &(f, t) in &c.pairs()[..c.leads as usize] {
                    let before = right(t, t);
                    touches |= !before;
                    gain += i32::from(right(f, t)) - i32::from(before);
                }
                pick.consider(i, gain, touches, c.cost);
            }
            let i = pick
                .choose()
                .ok_or_else(|| SolveError::Internal("no 3-cycle places another piece".into()))?;
            let seq = self.cand_moves(&cands[i], &lay, &self.small_setups);
            self.cube.apply_alg(state, &seq);
            moves.extend(seq);
            target = self.target(state);
        }
        Err(SolveError::Internal("an orbit did not come home".into()))
    }

    fn wing_depth(&self, w: &[[usize; 2]]) -> usize {
        let n = self.n;
        let (r, c) = ((w[0][0] / n) % n, w[0][0] % n);
        depth(if r == 0 || r == n - 1 { c } else { r }, n)
    }

    /// Reduces `state` in place to its small cube.
    pub fn reduce(&self, state: &mut [u8]) -> Result<Reduction, SolveError> {
        self.reduce_within(state, Hard::never())
    }

    /// [`Reducer::reduce`], given up at `hard`.
    fn reduce_within(&self, state: &mut [u8], hard: Hard) -> Result<Reduction, SolveError> {
        Ok(Reduction {
            wings: self.pair_all_wings(state, hard)?,
            centres: self.place_centres(state, hard)?,
        })
    }

    /// Pairs every wing orbit with its representatives', innermost first:
    /// while the centres are still to do, turning the outer layers down to
    /// the orbit's own is free.
    fn pair_all_wings(&self, state: &mut [u8], hard: Hard) -> Result<Vec<Move>, SolveError> {
        let rep_depth = self.n / 2 - 1;
        let mut wings: Vec<&Vec<[usize; 2]>> = self
            .orbits
            .wings
            .iter()
            .filter(|w| self.wing_depth(w) != rep_depth)
            .collect();
        wings.sort_by_key(|w| std::cmp::Reverse(self.wing_depth(w)));
        let mut moves = Vec::new();
        for w in wings {
            moves.extend(self.pair_wings(state, w, hard)?);
        }
        Ok(moves)
    }

    /// Places every centre group (the wings paired).
    fn place_centres(&self, state: &mut [u8], hard: Hard) -> Result<Vec<Move>, SolveError> {
        if self.n <= bars::BAR_MAX_N {
            return self.place_joint(state, hard);
        }
        let mut moves = Vec::new();
        for g in 0..self.groups.len() {
            moves.extend(self.place(state, g, hard)?);
        }
        Ok(moves)
    }

    /// Reduces `state` from each of the given orientations (whole-cube
    /// rotations; the solver gives all 24) in turn, keeping the shortest
    /// reduction: the greedy searches see the faces in another order, take
    /// other paths and leave other centres to place. After the first, a try starts only if
    /// it would end by `deadline` (judged by the longest so far). Returns
    /// the best's wing and centre moves as outer block turns of the cube as
    /// it is, and leaves `state` reduced by them (in its own orientation:
    /// the small cube's centres where its solver expects them).
    fn best_oriented(
        &self,
        state: &mut Vec<u8>,
        rotations: &[Vec<Move>],
        deadline: Instant,
        hard: Hard,
    ) -> Result<Reduction, SolveError> {
        let mut best: Option<(usize, Vec<u8>, &[Move], Reduction)> = None;
        // The longest try so far: no try starts that would end past the
        // deadline.
        let mut longest = Duration::ZERO;
        for r in rotations {
            let t = Instant::now();
            if best.is_some() && t + longest > deadline {
                break;
            }
            let mut s = state.clone();
            self.cube.apply_alg(&mut s, r);
            let found = self.reduce_within(&mut s, hard)?;
            let part = |m: &[Move]| unrotate(&simplify(&outer_blocks(self.n, m)), r);
            let red = Reduction {
                wings: part(&found.wings),
                centres: part(&found.centres),
            };
            let len = simplify(&[&red.wings[..], &red.centres[..]].concat()).len();
            if best.as_ref().is_none_or(|b| len < b.0) {
                best = Some((len, s, r, red));
            }
            longest = longest.max(t.elapsed());
        }
        let (_, mut s, r, red) =
            best.ok_or_else(|| SolveError::Internal("no orientation".into()))?;
        self.cube.apply_alg(&mut s, &invert_alg(r));
        *state = s;
        Ok(red)
    }

    /// The cycles of the first centre group of a kind (X-, T- or oblique
    /// orbits) behind every setup, made once, with that group's index.
    ///
    /// Every group of a kind is the first one with its layers renamed: the
    /// small cube's turns move each alike (a face turn turns every depth,
    /// and the small cube's `Rw` holds every layer short of the middle), so
    /// the first group's cycles, renamed, are each group's own (tested).
    fn kind_candidates(&self, kind: u8) -> (usize, &[Cand]) {
        let (canon, cands) = self.kind_cands[kind as usize].get_or_init(|| {
            let g = (0..self.groups.len())
                .find(|&g| self.layout(self.groups[g].1[0], false).kind == kind)
                .unwrap_or(0);
            let facelets = &self.groups[g].1;
            let lay = self.layout(facelets[0], false);
            let lead = marks(self.cube.facelets(), facelets.iter().copied());
            (
                g,
                self.candidates(facelets, &lay, &lead, &self.small_setups),
            )
        });
        (*canon, cands)
    }

    /// Where each facelet of centre group `from` stands in group `to` of
    /// the same kind (and every other facelet where it is): rows and
    /// columns at one depth of `from` go to the same side at `to`'s.
    fn relabel(&self, from: usize, to: usize) -> Vec<u32> {
        let n = self.n;
        let ((a0, b0), (a1, b1)) = (self.groups[from].0, self.groups[to].0);
        let coord = |x: usize| {
            let d = depth(x, n);
            let e = if d == a0 {
                a1
            } else if d == b0 {
                b1
            } else {
                return x;
            };
            if x < n / 2 {
                e
            } else {
                n - 1 - e
            }
        };
        let mut at: Vec<u32> = (0..self.cube.facelets() as u32).collect();
        for &f in &self.groups[from].1 {
            let (face, r, c) = (f / (n * n), (f / n) % n, f % n);
            at[f] = ((face * n + coord(r)) * n + coord(c)) as u32;
        }
        at
    }

    /// Makes the centre cycles now (a solver's start-up) rather than in its
    /// first solve.
    pub fn prepare(&self) {
        for (_, facelets) in &self.groups {
            self.kind_candidates(self.layout(facelets[0], false).kind);
        }
        if self.n <= bars::BAR_MAX_N {
            self.bars();
        }
    }

    /// Pairs one wing orbit (depth `a`) with the representatives', greedily:
    /// each step takes the sequence of up to three free turns (the faces,
    /// and the blocks `(a+1)Rw` that end at the orbit's layer: they move
    /// only unfinished wing orbits, the centres and whole edges) or the wing
    /// 3-cycle that pairs the most wings per move.
    fn pair_wings(
        &self,
        state: &mut [u8],
        units: &[[usize; 2]],
        hard: Hard,
    ) -> Result<Vec<Move>, SolveError> {
        let n = self.n;
        let a = self.wing_depth(units);
        // Local indices: the orbit's facelets, then their representatives'.
        let mut facelets: Vec<usize> = units.iter().flat_map(|u| u.iter().copied()).collect();
        let k = facelets.len();
        let reps: Vec<usize> = facelets
            .iter()
            .map(|&f| {
                let (face, r, c) = (f / (n * n), (f / n) % n, f % n);
                (face * n + self.rep(r)) * n + self.rep(c)
            })
            .collect();
        facelets.extend(&reps);
        let mut local = vec![u32::MAX; self.cube.facelets()];
        for (i, &f) in facelets.iter().enumerate() {
            local[f] = i as u32;
        }
        let free: Vec<Move> = Face::ALL
            .iter()
            .flat_map(|&f| {
                (1..=3u8).flat_map(move |t| [Move::face(f, t), Move::block(f, a as u8 + 1, t)])
            })
            .collect();
        // Each free move as "local index j takes its sticker from src[j]",
        // on a list of facelets that the free moves keep to themselves.
        let on = |list: &[usize], at: &[u32], what: &str| -> Result<Vec<Vec<u32>>, SolveError> {
            let perms: Vec<Vec<u32>> = free
                .iter()
                .map(|&m| {
                    let p = self.cube.perm(m);
                    list.iter().map(|&f| at[p[f] as usize]).collect()
                })
                .collect();
            if perms.iter().any(|p| p.contains(&u32::MAX)) {
                return Err(SolveError::Internal(format!(
                    "a free turn leaves the {what}"
                )));
            }
            Ok(perms)
        };
        let perms = on(&facelets, &local, "wings")?;
        let lay = self.layout(units[0][0], true);
        let lead = marks(self.cube.facelets(), units.iter().map(|u| u[0]));
        // Cycles set up by a turn of the small cube (kept); when those run
        // out, by up to two free turns (the blocks too: the wing phase may
        // move the centres).
        let wide: Vec<Setup> = {
            // None, then one free turn, then two; kept when only faces.
            sequences(&free)
                .into_iter()
                .map(|q| {
                    let faces = q.iter().all(|m| m.kind == MoveKind::Block(1));
                    setup(&self.cube, q, faces)
                })
                .collect()
        };
        let tiers = [1 + free.len(), wide.len()];
        let mut setups: &[Setup] = &self.small_setups[..self.small_one_turn];
        // The orbit's cycles behind the given setups, in local indices.
        let cycles_with = |setups: &[Setup]| -> Vec<LocalCycle> {
            self.candidates(&facelets[..k], &lay, &lead, setups)
                .into_iter()
                .map(|c| {
                    let pairs = c
                        .pairs()
                        .iter()
                        .map(|&(f, t)| (local[f as usize], local[t as usize]))
                        .collect();
                    (pairs, c.cost, c)
                })
                .collect()
        };
        let mut cycles = cycles_with(setups);
        let mut s: Vec<u8> = facelets.iter().map(|&f| state[f]).collect();
        // Wings paired: local unit u is facelets 2u, 2u+1, its reps k+2u, k+2u+1.
        let paired = |s: &[u8]| -> usize {
            (0..k / 2)
                .filter(|&u| s[2 * u] == s[k + 2 * u] && s[2 * u + 1] == s[k + 2 * u + 1])
                .count()
        };
        let mut moves = Vec::new();
        // Wing 3-cycles are even, and so is every free sequence with an even
        // number of block quarter turns: an odd orbit first gets one.
        let odd = |s: &[u8]| -> bool {
            let want: Vec<(u8, u8)> = (0..k / 2)
                .map(|u| (s[k + 2 * u], s[k + 2 * u + 1]))
                .collect();
            let perm: Vec<u8> = (0..k / 2)
                .map(|u| {
                    let have = (s[2 * u], s[2 * u + 1]);
                    want.iter().position(|&x| x == have).unwrap_or(0) as u8
                })
                .collect();
            tablegen::perm::is_odd(&perm)
        };
        let quarter = |mi: usize| free[mi].kind != MoveKind::Block(1) && free[mi].turns != 2;
        if odd(&s) {
            let mi = (0..free.len())
                .find(|&mi| quarter(mi))
                .ok_or_else(|| SolveError::Internal("no block turn".into()))?;
            s = perms[mi].iter().map(|&j| s[j as usize]).collect();
            self.cube.apply(state, free[mi]);
            moves.push(free[mi]);
        }
        // `same[m][m']`: turns of the same layers (never two in a row).
        let same: Vec<Vec<bool>> = free
            .iter()
            .map(|x| {
                free.iter()
                    .map(|y| (x.face, x.kind) == (y.face, y.kind))
                    .collect()
            })
            .collect();
        // A beam search over the free turns first, to where pairing the
        // rest by the greedy steps below looks cheapest.
        {
            // Whether a turn changes the parity of the wings against their
            // representatives (of the permutation of each, as units).
            let flips: Vec<bool> = perms
                .iter()
                .map(|p| {
                    let of = |base: usize| -> Vec<u8> {
                        (0..k / 2)
                            .map(|u| ((p[base + 2 * u] as usize - base) / 2) as u8)
                            .collect()
                    };
                    tablegen::perm::is_odd(&of(0)) ^ tablegen::perm::is_odd(&of(k))
                })
                .collect();
            // The centre facelets this orbit's free turns place for good
            // (a row or column at the orbit's depth, none nearer the edge:
            // the later orbits' turns move those), with their
            // representatives, so the beam can prefer ends with more of
            // them placed. Faces turn a facelet and its representative
            // alike, so no other centre facelet changes.
            let n = self.n;
            let inner = |x: usize| (1..n - 1).contains(&x);
            let mut centre: Vec<usize> = Vec::new();
            let mut cl = vec![u32::MAX; self.cube.facelets()];
            let mut cpairs: Vec<(u32, u32)> = Vec::new();
            let mut at = |f: usize, centre: &mut Vec<usize>| -> u32 {
                if cl[f] == u32::MAX {
                    cl[f] = centre.len() as u32;
                    centre.push(f);
                }
                cl[f]
            };
            for f in 0..self.cube.facelets() {
                let (face, r, c) = (f / (n * n), (f / n) % n, f % n);
                if inner(r) && inner(c) && depth(r, n).min(depth(c, n)) == a {
                    let rf = (face * n + self.rep(r)) * n + self.rep(c);
                    let pair = (at(f, &mut centre), at(rf, &mut centre));
                    cpairs.push(pair);
                }
            }
            let cperms = on(&centre, &cl, "centres")?;
            let cstart: Vec<u8> = centre.iter().map(|&f| state[f]).collect();
            let centres = Centres {
                perms: &cperms,
                pairs: &cpairs,
                start: &cstart,
            };
            for mi in wing_beam(&s, &perms, &same, &flips, k, &centres) {
                s = perms[mi].iter().map(|&j| s[j as usize]).collect();
                self.cube.apply(state, free[mi]);
                moves.push(free[mi]);
            }
        }
        let mut tier = 0;
        let mut stuck = 0usize;
        let mut scratch = s.clone();
        for _ in 0..40 * units.len() {
            let now = paired(&s);
            if now == k / 2 {
                return Ok(moves);
            }
            hard.check("wings")?;
            // (gain, cost, sequence of free moves or a cycle)
            let mut best: Option<(usize, usize, Result<Vec<usize>, usize>)> = None;
            let mut consider = |gain: usize, cost: usize, what: Result<Vec<usize>, usize>| {
                if gain > 0 && best.as_ref().is_none_or(|(g, c, _)| gain * c > g * cost) {
                    best = Some((gain, cost, what));
                }
            };
            // Free sequences of one to three turns, as a depth-first walk.
            let mut stack: Vec<(Vec<usize>, Vec<u8>)> = vec![(Vec::new(), s.clone())];
            while let Some((seq, st)) = stack.pop() {
                let even = seq.iter().filter(|&&mi| quarter(mi)).count() % 2 == 0;
                if !seq.is_empty() && even {
                    let got = paired(&st);
                    if got > now {
                        consider(got - now, seq.len(), Ok(seq.clone()));
                    }
                }
                if seq.len() == 3 {
                    continue;
                }
                for (mi, p) in perms.iter().enumerate() {
                    if seq.last().is_some_and(|&last| same[last][mi]) {
                        continue;
                    }
                    let next: Vec<u8> = p.iter().map(|&j| st[j as usize]).collect();
                    let mut q = seq.clone();
                    q.push(mi);
                    stack.push((q, next));
                }
            }
            for (i, (pairs, cost, _)) in cycles.iter().enumerate() {
                scratch.copy_from_slice(&s);
                for &(f, t) in pairs {
                    scratch[t as usize] = s[f as usize];
                }
                let got = paired(&scratch);
                if got > now {
                    consider(got - now, *cost as usize, Err(i));
                }
            }
            match best {
                Some((_, _, Ok(seq))) => {
                    for mi in seq {
                        s = perms[mi].iter().map(|&j| s[j as usize]).collect();
                        self.cube.apply(state, free[mi]);
                        moves.push(free[mi]);
                    }
                }
                Some((_, _, Err(i))) => {
                    let seq = self.cand_moves(&cycles[i].2, &lay, setups);
                    self.cube.apply_alg(state, &seq);
                    moves.extend(seq);
                    s = facelets.iter().map(|&f| state[f]).collect();
                }
                None if tier < tiers.len() => {
                    // Cycles set up by one free turn, then by two.
                    setups = &wide[..tiers[tier]];
                    tier += 1;
                    cycles = cycles_with(setups);
                }
                None => {
                    // The cycle needed is not among ours at these places:
                    // a free turn moves the unpaired wings to others.
                    stuck += 1;
                    if stuck > 24 {
                        return Err(SolveError::Internal(
                            "no sequence pairs another wing".into(),
                        ));
                    }
                    // A face turn or a block half turn: the block's brings
                    // wings of the far ends to the near ones.
                    let even: Vec<usize> = (0..free.len()).filter(|&mi| !quarter(mi)).collect();
                    let mi = even[(stuck * 7 + 3) % even.len()];
                    s = perms[mi].iter().map(|&j| s[j as usize]).collect();
                    self.cube.apply(state, free[mi]);
                    moves.push(free[mi]);
                }
            }
        }
        Err(SolveError::Internal("a wing orbit did not pair".into()))
    }

    /// True if every facelet shows its representative's colour.
    pub fn is_reduced(&self, state: &[u8]) -> bool {
        self.target(state) == state
    }

    /// The facelet model.
    pub fn cube(&self) -> &CubeN {
        &self.cube
    }
}

enum Small {
    Four(Box<crate::cube4::Solver>),
    Five(Box<crate::cube5::Solver>),
    /// The route through the inner (N-2)-cube and the blocks to the 5x5x5
    /// (see the `nested` module), with the 4x4x4 solver where the
    /// innermost cube is one.
    Nested(
        Option<Box<crate::cube4::Solver>>,
        Box<crate::cube5::Solver>,
        Box<nested::Nested>,
    ),
}

/// The NxNxN solver of one size N (6 and up).
pub struct Solver {
    reducer: Reducer,
    small: Small,
}

/// A solution and its phase lengths (outer block turns).
#[derive(Clone, Debug)]
pub struct SolutionN {
    /// The moves, outer block turns only.
    pub moves: Vec<Move>,
    /// (phase, moves) in order; the phases' sum may exceed the solution's
    /// length where turns merged across a boundary.
    pub phases: Vec<(&'static str, usize)>,
}

impl Solver {
    /// Loads the solver of an N-cube: the 4x4x4 or 5x5x5 solver's tables from
    /// `dir`. The route's options are the defaults ([`Solver::load_with`]).
    pub fn load(n: usize, dir: &Path, quiet: bool) -> Result<Solver, SolveError> {
        Solver::load_with(n, dir, quiet, &Options::default())
    }

    /// [`Solver::load`], the route through the inner cubes (up to
    /// [`NESTED_MAX_N`]) built with `opts`.
    pub fn load_with(
        n: usize,
        dir: &Path,
        quiet: bool,
        opts: &Options,
    ) -> Result<Solver, SolveError> {
        if !(MIN_N..=MAX_N).contains(&n) {
            return Err(SolveError::Input(format!(
                "the NxNxN solver takes {MIN_N}x{MIN_N}x{MIN_N} to {MAX_N}x{MAX_N}x{MAX_N}, not {n}x{n}x{n}"
            )));
        }
        let reducer = Reducer::new(n);
        let small = if n <= NESTED_MAX_N {
            let route = nested::Nested::new(n, opts);
            let four = if route.needs_four() {
                Some(Box::new(crate::cube4::Solver::load(dir, quiet)?))
            } else {
                None
            };
            Small::Nested(
                four,
                Box::new(crate::cube5::Solver::load(dir, quiet)?),
                Box::new(route),
            )
        } else if n.is_multiple_of(2) {
            Small::Four(Box::new(crate::cube4::Solver::load(dir, quiet)?))
        } else {
            Small::Five(Box::new(crate::cube5::Solver::load(dir, quiet)?))
        };
        if !matches!(small, Small::Nested(..)) {
            reducer.prepare();
        }
        Ok(Solver { reducer, small })
    }

    /// Solves an N-cube facelet state (colours as [`CubeN::solved`]) within
    /// about `time_budget` ([`DEFAULT_BUDGET`] if none). The reduction is
    /// run from as many of the 24 orientations as the budget allows (at
    /// least one), less the small cube's share (its solver's default budget,
    /// at most half), and the shortest kept; the small cube's solver then
    /// gets what is left of a given budget, or its own default.
    pub fn solve(
        &self,
        state: &[u8],
        time_budget: Option<Duration>,
    ) -> Result<SolutionN, SolveError> {
        self.solve_within(state, time_budget, HARD_LIMIT)
    }

    /// [`Solver::solve`], given up with [`SolveError::OutOfTime`] at
    /// `hard_limit` (never before the time budget).
    pub fn solve_within(
        &self,
        state: &[u8],
        time_budget: Option<Duration>,
        hard_limit: Duration,
    ) -> Result<SolutionN, SolveError> {
        let start = Instant::now();
        let r = &self.reducer;
        let n = r.n;
        tablegen::validate::validate(&r.cube, state).map_err(SolveError::Input)?;
        let budget = time_budget.unwrap_or(DEFAULT_BUDGET);
        // The small cube's share: its own default budget, at most half.
        let small_share = match &self.small {
            Small::Four(_) => crate::cube4::Options::default().time_budget,
            Small::Five(_) | Small::Nested(..) => crate::cube5::Options::default().time_budget,
        }
        .min(budget / 2);
        let hard = Hard::after(hard_limit.max(budget));
        let mut s = state.to_vec();
        let deadline = start + (budget - small_share);
        let through = match &self.small {
            Small::Nested(four, five, route) => {
                match route.to_five(four.as_deref(), five, &mut s, deadline, hard)? {
                    nested::Route::Reduced { inner, blocks } => Some(Reduction {
                        wings: inner,
                        centres: blocks,
                    }),
                    // The blocks' greedy search stalled from every
                    // orientation: the orbit-by-orbit reduction instead.
                    nested::Route::Stalled => {
                        s = state.to_vec();
                        None
                    }
                }
            }
            _ => None,
        };
        let nested = through.is_some();
        let (reduction, names) = match through {
            Some(red) => (red, ["inner-cube", "blocks"]),
            None => (
                r.best_oriented(&mut s, &rotations24(), deadline, hard)?,
                ["wings", "centres"],
            ),
        };
        let rest = time_budget.map(|b| b.saturating_sub(start.elapsed()));
        let (four_opts, five_opts) = small_options(rest, hard);
        let five = |solver: &crate::cube5::Solver, small: &[u8]| {
            solver
                .solve(small, five_opts)
                .map(|sol| (sol.moves, sol.phases))
        };
        let (four, five_solver) = match &self.small {
            Small::Four(x) => (Some(&**x), None),
            Small::Five(x) => (None, Some(&**x)),
            Small::Nested(x, y, _) => (x.as_deref(), Some(&**y)),
        };
        let missing = || SolveError::Internal("no solver for the small cube".into());
        let (finish, small_phases): (Vec<Move>, _) = match &self.small {
            Small::Nested(_, solver, route) if nested => {
                let (moves, phases) = five(solver, &route.outer5(&s))?;
                (
                    moves.into_iter().flat_map(|m| route.lift5(m)).collect(),
                    phases,
                )
            }
            _ if n.is_multiple_of(2) => {
                let sol = four
                    .ok_or_else(missing)?
                    .solve(&r.small_state(&s), four_opts)?;
                let deep = sol.moves.iter().flat_map(|&m| r.lift(m)).collect();
                (deep, sol.phases)
            }
            _ => {
                let (moves, phases) = five(five_solver.ok_or_else(missing)?, &r.small_state(&s))?;
                (moves.iter().flat_map(|&m| r.lift(m)).collect(), phases)
            }
        };
        let mut all: Vec<Move> = Vec::new();
        all.extend(&reduction.wings);
        all.extend(&reduction.centres);
        all.extend(&finish);
        let moves = simplify(&outer_blocks(n, &all));
        let mut check = state.to_vec();
        r.cube.apply_alg(&mut check, &moves);
        if !r.cube.is_solved(&check) {
            return Err(SolveError::Internal(
                "the solution does not solve the cube".into(),
            ));
        }
        let mut phases = vec![
            (names[0], reduction.wings.len()),
            (names[1], reduction.centres.len()),
        ];
        phases.extend(small_phases);
        Ok(SolutionN { moves, phases })
    }

    /// The size N.
    pub fn n(&self) -> usize {
        self.reducer.n
    }
}

/// An NxNxN cube (6 and up) in the [`crate::puzzle`] registry.
pub struct BigPuzzle {
    /// Its size.
    pub n: usize,
    /// Its name, `NxNxN`.
    pub name: &'static str,
}

impl crate::puzzle::Puzzle for BigPuzzle {
    fn name(&self) -> &'static str {
        self.name
    }
    fn parse(&self, input: &crate::puzzle::Input) -> Result<crate::puzzle::Position, SolveError> {
        crate::puzzle::parse_valid_cube(self.n, input)
    }
    fn load(
        &self,
        tables: &Path,
        quiet: bool,
    ) -> Result<Box<dyn crate::puzzle::Solve>, SolveError> {
        Ok(Box::new(Solver::load(self.n, tables, quiet)?))
    }
}

impl crate::puzzle::Solve for Solver {
    fn solve(
        &self,
        position: &crate::puzzle::Position,
        opts: &crate::puzzle::Options,
    ) -> Result<crate::Solution, SolveError> {
        let sol = Solver::solve_within(
            self,
            crate::puzzle::cube_state(position)?,
            opts.time_budget,
            opts.hard_limit.unwrap_or(HARD_LIMIT),
        )?;
        Ok(crate::Solution::of_moves(&sol.moves, &sol.phases))
    }
    fn scramble(&self, seed: u64) -> Result<crate::puzzle::Scramble, SolveError> {
        let n = self.n();
        let state = tablegen::orbits::random_state(
            &CubeN::new(n),
            rand::Rng::gen(&mut crate::puzzle::rng(seed)),
        );
        crate::puzzle::scramble_of(self, n, state)
    }
}

/// Rewrites single inner layers as two block turns (`3R` = `3Rw 2Rw'`), each
/// seen from the nearer face.
pub fn outer_blocks(n: usize, moves: &[Move]) -> Vec<Move> {
    let mut out = Vec::with_capacity(moves.len() * 2);
    for &m in moves {
        match m.kind {
            MoveKind::Slice(d) => {
                let (face, d, t) = if 2 * d as usize > n + 1 {
                    (m.face.opposite(), (n + 1 - d as usize) as u8, 4 - m.turns)
                } else {
                    (m.face, d, m.turns)
                };
                out.push(Move::block(face, d, t));
                out.push(Move::block(face, d - 1, 4 - t));
            }
            _ => out.push(m),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cycle does on the N-cube what it was carried to do: replayed
    /// on the facelet model, it moves exactly the facelets it names (a wing
    /// cycle may also move centres that are not representatives).
    #[test]
    fn cycles_carry_to_bigger_cubes() {
        cycles_carry(&[6, 7]);
    }

    /// As [`cycles_carry_to_bigger_cubes`], on cubes with more orbits of a
    /// kind (the ignored set: an 8x8x8; soaked, a 9x9x9 and a 12x12x12 too).
    #[test]
    #[ignore]
    fn cycles_carry_to_the_largest_cubes() {
        if crate::soak() {
            cycles_carry(&[8, 9, 12]);
        } else {
            cycles_carry(&[8]);
        }
    }

    fn cycles_carry(sizes: &[usize]) {
        for &n in sizes {
            let r = Reducer::new(n);
            let mut orbits: Vec<(Vec<usize>, bool)> = r
                .orbits
                .centres
                .iter()
                .map(|o| (o.clone(), false))
                .collect();
            orbits.extend(
                r.orbits
                    .wings
                    .iter()
                    .map(|w| (w.iter().flat_map(|p| p.iter().copied()).collect(), true)),
            );
            for (o, wing) in orbits {
                if wing && r.wing_depth(&[[o[0], o[1]]]) == n / 2 - 1 {
                    continue; // the representatives' own orbit is never cycled
                }
                let lay = r.layout(o[0], wing);
                let lead = marks(r.cube.facelets(), o.iter().copied());
                let setups = &r.small_setups;
                let cands = r.candidates(&o, &lay, &lead, setups);
                assert!(!cands.is_empty(), "{n}: no cycles");
                // Wing cycles may move centres that are not representatives
                // (placed later); nothing else.
                let free: HashSet<u32> = r
                    .orbits
                    .centres
                    .iter()
                    .flatten()
                    .filter(|&&f| {
                        let (row, col) = ((f / n) % n, f % n);
                        r.rep(row) != row || r.rep(col) != col
                    })
                    .map(|&f| f as u32)
                    .collect();
                for c in cands.iter().step_by(97) {
                    // The effect named is the cycle's with its setup undone.
                    let mut moves = r.cand_moves(c, &lay, setups);
                    let setup = &setups[c.setup as usize];
                    if setup.kept {
                        moves.extend(invert_alg(&setup.moves));
                    }
                    let t = track(&r.cube, &moves);
                    let mut got: Vec<(u32, u32)> = moved(&t)
                        .iter()
                        .map(|&(f, t)| (f as u32, t as u32))
                        .filter(|(f, _)| !(wing && free.contains(f)))
                        .collect();
                    got.sort_unstable();
                    let mut want = c.pairs().to_vec();
                    want.sort_unstable();
                    assert_eq!(got, want, "{n}");
                }
            }
        }
    }

    /// Each centre group's own cycles are its kind's first group's, renamed
    /// (what [`Reducer::kind_candidates`] relies on), on cubes with several
    /// groups of each kind.
    #[test]
    fn groups_of_a_kind_share_their_cycles() {
        for n in [9, 10] {
            let r = Reducer::new(n);
            let setups = &r.small_setups[..r.small_one_turn];
            let cycles = |g: usize| {
                let facelets = &r.groups[g].1;
                let lay = r.layout(facelets[0], false);
                let lead = marks(r.cube.facelets(), facelets.iter().copied());
                (lay.kind, r.candidates(facelets, &lay, &lead, setups))
            };
            let mut first: Vec<Option<(usize, Vec<Cand>)>> = vec![None, None, None];
            let mut renamed = 0;
            for g in 0..r.groups.len() {
                let (kind, own) = cycles(g);
                let Some((canon, theirs)) = &first[kind as usize] else {
                    first[kind as usize] = Some((g, own));
                    continue;
                };
                let at = r.relabel(*canon, g);
                assert_eq!(own.len(), theirs.len(), "{n} group {g}");
                for (a, b) in own.iter().zip(theirs) {
                    assert_eq!(
                        (a.base, a.setup, a.cost, a.leads),
                        (b.base, b.setup, b.cost, b.leads)
                    );
                    let mut mine = a.pairs().to_vec();
                    let mut moved: Vec<(u32, u32)> = b
                        .pairs()
                        .iter()
                        .map(|&(f, t)| (at[f as usize], at[t as usize]))
                        .collect();
                    mine.sort_unstable();
                    moved.sort_unstable();
                    assert_eq!(mine, moved, "{n} group {g}");
                }
                renamed += 1;
            }
            assert!(renamed >= 4, "{n}: {renamed}");
        }
    }

    /// The setups the reduction keeps change nothing finished: a face turn
    /// keeps paired wings paired, and every centre setup (a turn of the
    /// small cube) keeps a reduced cube reduced.
    #[test]
    fn kept_setups_keep_what_is_finished() {
        for n in [6, 7, 8, 9] {
            let r = Reducer::new(n);
            // A reduced cube that is not solved: small-cube turns, lifted.
            let mut s = r.cube.solved();
            for m in tablegen::notation::parse_alg("Rw U2 F' 2Rw' L B Uw2 D' Fw").unwrap() {
                for d in r.lift(m) {
                    r.cube.apply(&mut s, d);
                }
            }
            assert!(r.is_reduced(&s) && !r.cube.is_solved(&s), "{n}");
            assert!(r.small_setups.iter().all(|x| x.kept), "{n}");
            for x in r.small_setups.iter().step_by(7) {
                let mut t = s.clone();
                r.cube.apply_alg(&mut t, &x.moves);
                assert!(r.is_reduced(&t), "{n}: {:?}", x.moves);
            }
            // A turn of a single inner layer is not a small-cube turn.
            let mut t = s.clone();
            r.cube.apply(&mut t, layer_turn(Face::R, 1, 1));
            assert!(!r.is_reduced(&t), "{n}");
        }
    }

    /// Random states reduce: each facelet ends its representative's colour,
    /// and the moves replayed on the facelet model do the same.
    fn reduce_sizes(sizes: std::ops::RangeInclusive<usize>, seeds: u64) {
        use rayon::prelude::*;
        // The largest first, so that the two cores end together.
        let sizes: Vec<usize> = sizes.rev().collect();
        sizes.par_iter().for_each(|&n| {
            let r = Reducer::new(n);
            for seed in 0..seeds {
                let start = tablegen::orbits::random_state(&r.cube, seed * 31 + n as u64);
                let mut s = start.clone();
                let red = r.reduce(&mut s).unwrap();
                assert!(r.is_reduced(&s), "{n}");
                let mut replay = start.clone();
                let all: Vec<Move> = red.wings.iter().chain(&red.centres).copied().collect();
                r.cube.apply_alg(&mut replay, &outer_blocks(n, &all));
                assert_eq!(replay, s, "{n}");
            }
        });
    }

    #[test]
    fn random_states_reduce() {
        reduce_sizes(6..=7, 2);
    }

    /// A reduction found on the cube turned a whole-cube rotation comes back
    /// as moves of the cube as it was, and the state as it is after them,
    /// its centres where they were: each of two rotations alone, then the
    /// shorter of both.
    #[test]
    fn turned_reductions_come_back() {
        // Odd: the small cube's centres must come back where its solver
        // expects them.
        let n = 7;
        let r = Reducer::new(n);
        let start = tablegen::orbits::random_state(&r.cube, 5);
        let rots = rotations24();
        let both = [rots[5].clone(), rots[14].clone()];
        let mut lens = Vec::new();
        for pick in [&both[..1], &both[1..], &both[..]] {
            let mut s = start.clone();
            // Time for every try.
            let deadline = Instant::now() + Duration::from_secs(3600);
            let red = r
                .best_oriented(&mut s, pick, deadline, Hard::never())
                .unwrap();
            assert!(r.is_reduced(&s));
            let mut replay = start.clone();
            let all: Vec<Move> = red.wings.iter().chain(&red.centres).copied().collect();
            r.cube.apply_alg(&mut replay, &all);
            assert_eq!(replay, s);
            let centre = |st: &[u8], f: usize| st[(f * n + n / 2) * n + n / 2];
            assert!((0..6).all(|f| centre(&s, f) == centre(&start, f)));
            assert!(all.iter().all(|m| matches!(m.kind, MoveKind::Block(_))));
            lens.push(simplify(&all).len());
        }
        assert_eq!(lens[2], lens[0].min(lens[1]), "{lens:?}");
    }

    /// Every size up to the largest cube built (33x33x33), a state each,
    /// the sizes side by side on the cores, soaked; the ignored set reduces
    /// a sample (sizes 12, 18 and 19: past the nested route, both parities).
    #[test]
    #[ignore]
    fn random_states_reduce_up_to_33() {
        if crate::soak() {
            reduce_sizes(8..=33, 1);
        } else {
            reduce_sizes(12..=12, 1);
            reduce_sizes(18..=19, 1);
        }
    }

    fn solve_sizes(sizes: &[usize], seeds: u64, budget: Option<Duration>) {
        use rayon::prelude::*;
        let dir = crate::tables::test_tables_dir();
        // The largest first, so that the two cores end together.
        let mut sizes = sizes.to_vec();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes.par_iter().for_each(|&n| {
            let solver = Solver::load(n, &dir, true).unwrap();
            let cube = CubeN::new(n);
            for seed in 0..seeds {
                let s = tablegen::orbits::random_state(&cube, 1000 * n as u64 + seed);
                let sol = solver.solve(&s, budget).unwrap();
                let mut t = s.clone();
                cube.apply_alg(&mut t, &sol.moves);
                assert!(cube.is_solved(&t), "{n} seed {seed}");
                assert!(
                    sol.moves
                        .iter()
                        .all(|m| matches!(m.kind, MoveKind::Block(_))),
                    "{n}: outer block turns only"
                );
                let staged: usize = sol.phases.iter().map(|p| p.1).sum();
                assert!(staged >= sol.moves.len(), "{n} seed {seed}");
            }
        });
    }

    /// Whole solves of a 6x6x6, a 7x7x7 and an 8x8x8 (through their inner
    /// cubes: the 8x8x8's inner 6x6x6 through its 4x4x4), replayed on the
    /// facelet model.
    #[test]
    fn solve_random_states() {
        solve_sizes(&[6, 7, 8], 1, Some(Duration::from_millis(100)));
    }

    /// A random state of every size from 6 to 17 solved and replayed, the
    /// sizes side by side on the cores, soaked; the ignored set solves a
    /// 9x9x9 and a 10x10x10 (sizes 2 to 5 have their own tests; the
    /// benchmark `solve_nnn_bench` replays more).
    #[test]
    #[ignore]
    fn solve_every_size_to_17() {
        if crate::soak() {
            let sizes: Vec<usize> = (6..=17).collect();
            solve_sizes(&sizes, 1, None);
        } else {
            solve_sizes(&[9, 10], 1, Some(Duration::from_millis(100)));
        }
    }
}
