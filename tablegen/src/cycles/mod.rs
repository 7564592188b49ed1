//! The cycles the big cubes' reductions place pieces with: sequences found
//! once on a small cube (wing 3-cycles, centre commutators) and what they
//! move, the setups in front of them, and each cycle behind each setup, kept
//! once per effect ([`candidates`]). The route's lists of the latter are
//! tables ([`CycleSpace`]): built here, stored as FST maps, mapped by the
//! solvers instead of made at every start.

use crate::cube::{CubeN, Perm};
use crate::notation::{invert_alg, Face, Move, MoveKind};
use crate::prefetch;
use std::collections::HashSet;
use std::sync::OnceLock;

mod route;
pub use route::*;

/// The most facelets a cycle moves in its orbit (two 3-cycles).
pub const MAX_PAIRS: usize = 6;

/// A move sequence found on a small cube, with what it does there: facelet
/// `from` goes to `to`, for each facelet it moves.
#[derive(Clone, Debug)]
pub struct Base {
    pub moves: Vec<Move>,
    pub pairs: Vec<(u16, u16)>,
}

/// Where each facelet of a sequence's start state ends: `t[j]` is the
/// facelet whose sticker is at `j` afterwards.
pub fn track(cube: &CubeN, moves: &[Move]) -> Vec<u16> {
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
pub fn moved(t: &[u16]) -> Vec<(u16, u16)> {
    t.iter()
        .enumerate()
        .filter(|&(j, &s)| s as usize != j)
        .map(|(j, &s)| (s, j as u16))
        .collect()
}

/// The turn of the single layer `layer` (0 = the face) seen from `face`.
pub fn layer_turn(face: Face, layer: usize, turns: u8) -> Move {
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
pub fn sequences(turns: &[Move]) -> Vec<Vec<Move>> {
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
pub fn base_cost(moves: &[Move]) -> u32 {
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
pub fn effect_key(pairs: impl Iterator<Item = (u32, u32)>) -> u64 {
    pairs.fold(0xcbf2_9ce4_8422_2325u64, |h, (f, t)| {
        (h ^ (u64::from(f) << 32 | u64::from(t))).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A setup: the moves and where their inverse sends each facelet; `kept`
/// when the setup is not undone after its cycle.
pub fn setup(cube: &CubeN, s: Vec<Move>, kept: bool) -> Setup {
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
pub fn add_with_inverse(out: &mut Vec<Base>, seen: &mut HashSet<Vec<(u16, u16)>>, b: Base) {
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
pub fn centre_bases(
    n: usize,
    layers: &[usize],
    wanted: impl Fn(usize, usize) -> bool,
) -> Vec<Base> {
    let cube = CubeN::new(n);
    let turns = layer_turns(&[Face::R, Face::U, Face::F], layers);
    let conj: Vec<Option<Move>> = std::iter::once(None)
        .chain(
            Face::ALL
                .into_iter()
                .flat_map(|x| (1..=3u8).map(move |q| Some(Move::face(x, q)))),
        )
        .collect();
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for &(fa, la, a) in &turns {
        for &cj in &conj {
            for &(fb, lb, b) in &turns {
                if fb == fa && (lb == la || cj.is_none()) {
                    continue;
                }
                let b = match cj {
                    None => vec![b],
                    Some(x) => vec![x, b, x.inverse()],
                };
                let moves = commutator(a, &b);
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
    out
}

/// Every turn of a single layer of `faces` at `layers` (0: the face
/// itself): quarter, half and anticlockwise, with its face and layer.
fn layer_turns(faces: &[Face], layers: &[usize]) -> Vec<(Face, usize, Move)> {
    let mut v = Vec::new();
    for &f in faces {
        for &l in layers {
            v.extend((1..=3u8).map(|t| (f, l, layer_turn(f, l, t))));
        }
    }
    v
}

/// The commutator `[a, b]`: `a b a' b'`.
fn commutator(a: Move, b: &[Move]) -> Vec<Move> {
    let mut moves = vec![a];
    moves.extend(b);
    moves.push(a.inverse());
    moves.extend(invert_alg(b));
    moves
}

/// The face sequences `X Y X'` and `X Y X' Y'` of two faces on different
/// axes, every turn of each.
fn face_sequences() -> Vec<Vec<Move>> {
    let mut v = Vec::new();
    for x in Face::ALL {
        for y in Face::ALL.into_iter().filter(|y| y.axis() != x.axis()) {
            for (p, q) in (1..=3u8).flat_map(|p| (1..=3u8).map(move |q| (p, q))) {
                let three = vec![Move::face(x, p), Move::face(y, q), Move::face(x, 4 - p)];
                let mut four = three.clone();
                four.push(Move::face(y, 4 - q));
                v.push(three);
                v.push(four);
            }
        }
    }
    v
}

/// Wing 3-cycles on the 4x4x4: `[A, W]` for an inner layer `A` and a face
/// sequence `W` (`X Y X'` or `X Y X' Y'` of two adjacent faces), kept when
/// they move exactly three wings and nothing else but centres (the wings
/// are paired before any centre is placed, so the centres may move).
pub fn wing_bases() -> Vec<Base> {
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
    let sequences = face_sequences();
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (_, _, a) in layer_turns(&[Face::R, Face::U, Face::F], &[1, 2]) {
        for w in &sequences {
            let moves = commutator(a, w);
            let all = moved(&track(&cube, &moves));
            let pairs: Vec<(u16, u16)> = all.iter().copied().filter(|&(f, _)| wing(f)).collect();
            if pairs.len() == 6 && all.iter().all(|&(f, _)| wing(f) || centre(f)) {
                add_with_inverse(&mut out, &mut seen, Base { moves, pairs });
            }
        }
    }
    out
}

pub fn depth(x: usize, n: usize) -> usize {
    x.min(n - 1 - x)
}

/// The kinds of orbit, each with its own cycles found on its own small
/// cube: X-centres (on the 5x5x5), T-centres (on the 7x7x7), obliques with
/// their mirrors (on the 8x8x8), wings (on the 4x4x4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrbitKind {
    X,
    T,
    Oblique,
    Wing,
}

/// The small-cube cycles of each kind, found once.
pub fn bases(kind: OrbitKind) -> &'static [Base] {
    static X: OnceLock<Vec<Base>> = OnceLock::new();
    static T: OnceLock<Vec<Base>> = OnceLock::new();
    static O: OnceLock<Vec<Base>> = OnceLock::new();
    static W: OnceLock<Vec<Base>> = OnceLock::new();
    match kind {
        OrbitKind::X => {
            X.get_or_init(|| centre_bases(5, &[1, 3], |r, c| depth(r, 5) == 1 && depth(c, 5) == 1))
        }
        OrbitKind::T => T.get_or_init(|| {
            centre_bases(7, &[1, 3, 5], |r, c| {
                let (a, b) = (depth(r, 7), depth(c, 7));
                (a, b) == (1, 3) || (a, b) == (3, 1)
            })
        }),
        OrbitKind::Oblique => O.get_or_init(|| {
            centre_bases(8, &[1, 2, 5, 6], |r, c| {
                let (a, b) = (depth(r, 8), depth(c, 8));
                (a, b) == (1, 2) || (a, b) == (2, 1)
            })
        }),
        OrbitKind::Wing => W.get_or_init(wing_bases),
    }
}

/// A cycle on the N-cube with the face turns that set it up: the moves are
/// the setup, the cycle, the setup undone.
#[derive(Clone, Debug)]
pub struct Cand {
    pub base: u32,
    pub setup: u32,
    pub cost: u32,
    /// (from, to) of each facelet it moves, the first `len`; those of the
    /// units' first facelets (every centre facelet, each wing's first) come
    /// first. Held inline and narrow: a cube's candidates run to millions
    /// (and a cube of up to 104 layers has fewer than 2^16 facelets).
    pub moved: [(u16, u16); MAX_PAIRS],
    pub len: u8,
    /// How many of the pairs are units' first facelets.
    pub leads: u8,
}

impl Cand {
    /// (from, to) of each facelet it moves, the units' first facelets first.
    #[inline]
    pub fn pairs(&self) -> &[(u16, u16)] {
        &self.moved[..self.len as usize]
    }
}

/// How an orbit's small cube sits in the N-cube: the small cube's size, its
/// layer indices on the N-cube (`usize::MAX` for a layer no cycle turns),
/// and which set of cycles.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The small cube's size.
    pub size: usize,
    /// The N-cube layer of each of the small cube's layers.
    pub map: Vec<usize>,
    /// Which cycles.
    pub kind: OrbitKind,
}

impl Layout {
    /// The layout of the centre orbit (with its mirror) of facelet `first`
    /// of an N-cube: X-centres on a 5x5x5, T-centres on a 7x7x7, obliques
    /// on an 8x8x8.
    pub fn centre(n: usize, first: usize) -> Layout {
        let (r0, c0) = ((first / n) % n, first % n);
        let none = usize::MAX;
        let (a, b) = (depth(r0, n), depth(c0, n));
        let (lo, hi) = (a.min(b), a.max(b));
        if lo == hi {
            Layout {
                size: 5,
                map: vec![0, lo, none, n - 1 - lo, n - 1],
                kind: OrbitKind::X,
            }
        } else if n % 2 == 1 && hi == n / 2 {
            Layout {
                size: 7,
                map: vec![0, lo, none, hi, none, n - 1 - lo, n - 1],
                kind: OrbitKind::T,
            }
        } else {
            Layout {
                size: 8,
                map: vec![0, lo, hi, none, none, n - 1 - hi, n - 1 - lo, n - 1],
                kind: OrbitKind::Oblique,
            }
        }
    }
}

/// Moves that set a cycle up, and where their inverse sends each facelet.
///
/// A setup is undone after its cycle, unless it is `kept`: a setup of turns
/// of the small cube (faces, and blocks that end between two groups of
/// layers) moves whole groups onto whole groups, so it keeps every paired
/// wing and placed centre as it is. The cycle's effect is then the same as
/// with the setup undone, followed by the setup, and the setup costs its
/// length once instead of twice.
pub struct Setup {
    pub moves: Vec<Move>,
    pub dest: Vec<u32>,
    pub kept: bool,
}

/// Setups read per batch in [`candidates`].
const BATCH: usize = 32;

/// A cycle behind a setup, waiting in its batch: the setup, its effect's
/// key, its cost, its pairs.
type Pending = (usize, u64, u32, [(u32, u32); MAX_PAIRS]);

/// Cycles by effect key ([`effect_key`]): an open-addressing table with
/// linear probing of (key, index + 1, cost), index 0 for an empty slot,
/// kept at most half full (the cost is there so that the far larger list of
/// cycles is only read for a cycle kept). Unlike a library map, its slot for a key is known before the
/// lookup, so it can be prefetched.
struct EffectIndex {
    slots: Vec<(u64, u32, u32)>,
    len: usize,
}

impl EffectIndex {
    fn new() -> EffectIndex {
        EffectIndex {
            slots: vec![(0, 0, 0); 1 << 16],
            len: 0,
        }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        // The keys are hashes already; the multiply spreads their high bits.
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize & (self.slots.len() - 1)
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        prefetch(&self.slots, self.home(key));
    }

    /// The slot of `key`: `Ok` where it is, `Err` the empty slot where it
    /// would go.
    #[inline]
    fn find(&self, key: u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v, _) = self.slots[i];
            if v == 0 {
                return Err(i);
            }
            if k == key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Sets the entry of `key` to cycle `at` of cost `cost`.
    fn set(&mut self, key: u64, at: usize, cost: u32) {
        match self.find(key) {
            Ok(i) => self.slots[i] = (key, at as u32 + 1, cost),
            Err(i) => {
                self.slots[i] = (key, at as u32 + 1, cost);
                self.len += 1;
                if 2 * self.len > self.slots.len() {
                    let bigger = vec![(0, 0, 0); 2 * self.slots.len()];
                    let old = std::mem::replace(&mut self.slots, bigger);
                    self.len = 0;
                    for (k, v, c) in old.into_iter().filter(|&(_, v, _)| v != 0) {
                        self.set(k, v as usize - 1, c);
                    }
                }
            }
        }
    }

    /// The index and cost of the cycle of `key`.
    #[inline]
    fn get(&self, key: u64) -> Option<(usize, u32)> {
        let i = self.find(key).ok()?;
        let (_, v, c) = self.slots[i];
        Some((v as usize - 1, c))
    }
}

/// The turn of each setup next to its cycle, as a permutation (none
/// for the empty setup).
pub fn next_turns(cube: &CubeN, setups: &[Setup]) -> Vec<Option<std::sync::Arc<Perm>>> {
    setups
        .iter()
        .map(|x| x.moves.last().map(|&m| cube.perm(m)))
        .collect()
}

/// The cycles of a centre orbit (given by its facelets) or a wing orbit
/// (its facelets, both of each wing), with every setup.
pub fn candidates(
    cube: &CubeN,
    facelets: &[usize],
    lay: &Layout,
    lead: &[bool],
    setups: &[Setup],
) -> Vec<Cand> {
    let n = cube.n();
    let k = lay.size;
    let inside: HashSet<usize> = facelets.iter().copied().collect();
    let carry = |f: u16| -> Option<u32> {
        let f = f as usize;
        let (face, r, c) = (f / (k * k), (f / k) % k, f % k);
        let (r, c) = (lay.map[r], lay.map[c]);
        (r < n && c < n).then(|| ((face * n + r) * n + c) as u32)
    };
    let mut out: Vec<Cand> = Vec::new();
    let mut index = EffectIndex::new();
    let next_to = next_turns(cube, setups);
    // Each base's setups in batches: the effects first, each one's
    // slot in the index prefetched, then the batch read in order (the
    // index is far larger than the cache: its misses now overlap).
    let mut batch: Vec<Pending> = Vec::with_capacity(BATCH);
    for (bi, b) in bases(lay.kind).iter().enumerate() {
        let pairs: Option<Vec<(u32, u32)>> = b
            .pairs
            .iter()
            .map(|&(f, t)| Some((carry(f)?, carry(t)?)))
            .collect();
        let Some(pairs) = pairs else { continue };
        if pairs.len() > MAX_PAIRS || !pairs.iter().all(|&(f, _)| inside.contains(&(f as usize))) {
            continue;
        }
        let base_cost = base_cost(&b.moves);
        for first in (0..setups.len()).step_by(BATCH) {
            batch.clear();
            for si in first..(first + BATCH).min(setups.len()) {
                let Setup { dest, kept, moves } = &setups[si];
                // A setup whose turn next to the cycle moves none of its
                // facelets does what the setup without that turn does, at a
                // higher cost.
                if let Some(p) = &next_to[si] {
                    if pairs.iter().all(|&(f, _)| p[f as usize] as u32 == f) {
                        continue;
                    }
                }
                let mut buf = [(0u32, 0u32); MAX_PAIRS];
                let moved = &mut buf[..pairs.len()];
                for (slot, &(f, t)) in moved.iter_mut().zip(&pairs) {
                    *slot = (dest[f as usize], dest[t as usize]);
                }
                moved.sort_unstable();
                let key = effect_key(moved.iter().copied());
                index.prefetch(key);
                let cost = base_cost + if *kept { 1 } else { 2 } * moves.len() as u32;
                batch.push((si, key, cost, buf));
            }
            for (si, key, cost, mut buf) in batch.drain(..) {
                let at = index.get(key);
                if at.is_some_and(|(_, c)| c <= cost) {
                    continue;
                }
                let moved = &mut buf[..pairs.len()];
                // The units' first facelets first.
                moved.sort_by_key(|&(f, _)| !lead[f as usize]);
                let mut narrow = [(0u16, 0u16); MAX_PAIRS];
                for (slot, &(f, t)) in narrow.iter_mut().zip(moved.iter()) {
                    *slot = (f as u16, t as u16);
                }
                let cand = Cand {
                    base: bi as u32,
                    setup: si as u32,
                    cost,
                    leads: moved.iter().filter(|&&(f, _)| lead[f as usize]).count() as u8,
                    len: moved.len() as u8,
                    moved: narrow,
                };
                match at {
                    Some((i, _)) => {
                        out[i] = cand;
                        index.set(key, i, cost);
                    }
                    None => {
                        index.set(key, out.len(), cost);
                        out.push(cand);
                    }
                }
            }
        }
    }
    out
}

/// The moves of a candidate on the N-cube, given its cycle's moves on the
/// small cube (`base`).
pub fn cand_moves(base: &[Move], c: &Cand, lay: &Layout, setups: &[Setup]) -> Vec<Move> {
    let setup = &setups[c.setup as usize];
    let mut out = setup.moves.clone();
    out.extend(base.iter().map(|&m| match m.kind {
        MoveKind::Slice(d) => layer_turn(m.face, lay.map[d as usize - 1], m.turns),
        _ => m,
    }));
    if !setup.kept {
        out.extend(invert_alg(&setup.moves));
    }
    out
}
