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
    /// first. Held inline: a cube's candidates run to millions.
    pub moved: [(u32, u32); MAX_PAIRS],
    pub len: u8,
    /// How many of the pairs are units' first facelets.
    pub leads: u8,
}

impl Cand {
    /// (from, to) of each facelet it moves, the units' first facelets first.
    pub fn pairs(&self) -> &[(u32, u32)] {
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
                let cand = Cand {
                    base: bi as u32,
                    setup: si as u32,
                    cost,
                    leads: moved.iter().filter(|&&(f, _)| lead[f as usize]).count() as u8,
                    len: moved.len() as u8,
                    moved: buf,
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

/// The turns the nested route sets its cycles up with on any N-cube: each
/// face's quarter, half and anticlockwise turns, of one layer and of two.
pub fn route_turns() -> Vec<Move> {
    Face::ALL
        .iter()
        .flat_map(|&f| (1..=3u8).flat_map(move |t| [Move::face(f, t), Move::block(f, 2, t)]))
        .collect()
}

/// The nested route's setups on `cube`: none, one or two of [`route_turns`],
/// kept.
pub fn route_setups(cube: &CubeN) -> Vec<Setup> {
    sequences(&route_turns())
        .into_iter()
        .map(|s| setup(cube, s, true))
        .collect()
}

/// The centre facelets of an N-cube whose row and column lie at depths 1
/// and `d` (`d >= 2`): the nested route's blocks at depth `d`.
pub fn route_group(n: usize, d: usize) -> Vec<usize> {
    (0..6 * n * n)
        .filter(|&i| {
            let (a, b) = (depth((i / n) % n, n), depth(i % n, n));
            (a, b) == (1, d) || (a, b) == (d, 1)
        })
        .collect()
}

/// A table of the nested route's cycles of one kind of orbit: which cycle
/// behind which route setup ([`route_setups`]) the route keeps, once per
/// effect, as [`candidates`] makes them on the kind's reference cube, and
/// where each stands in its list. The list depends on no N: an N-cube's (at
/// its route's depths 1 and `d`) is the reference cube's with rows and
/// columns renamed ([`carry`]), so reading it is carrying each kept cycle's
/// facelets and sending them through its setup, without reading the
/// millions of (cycle, setup) pairs the list is chosen from.
///
/// Stored as an FST map. A kept cycle's key is its base's and its setup's
/// indices (big-endian `u16` each); its value its place in the list and its
/// cost (`rank | cost << 24`). A base's three keys are a tag byte and its
/// index: `0xFD` its facelets' sources, `0xFE` their destinations (each
/// packed as [`pack_facelets`]), `0xFF` its moves ([`pack_moves`]). The
/// histogram counts the kept cycles by cost in outer block turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleSpace {
    /// Oblique centres with their mirrors, on the 8x8x8 at depths (1, 2).
    Oblique,
    /// T-centres, on the 7x7x7 at depths (1, 3).
    T,
}

/// The tag bytes of a base's keys: its pairs' sources, their destinations,
/// its moves. A kept cycle's key starts with its base's high byte, below
/// these.
const FROM_KEY: u8 = 0xFD;
const TO_KEY: u8 = 0xFE;
const MOVES_KEY: u8 = 0xFF;

impl CycleSpace {
    /// The reference cube's size and the depth of the orbit's other
    /// coordinate.
    pub fn reference(self) -> (usize, usize) {
        match self {
            CycleSpace::Oblique => (8, 2),
            CycleSpace::T => (7, 3),
        }
    }

    /// The kind of orbit.
    pub fn kind(self) -> OrbitKind {
        match self {
            CycleSpace::Oblique => OrbitKind::Oblique,
            CycleSpace::T => OrbitKind::T,
        }
    }

    /// The table of a kind, if it has one.
    pub fn of(kind: OrbitKind) -> Option<CycleSpace> {
        match kind {
            OrbitKind::Oblique => Some(CycleSpace::Oblique),
            OrbitKind::T => Some(CycleSpace::T),
            _ => None,
        }
    }

    /// The catalog id of the table.
    pub fn id(self) -> &'static str {
        match self {
            CycleSpace::Oblique => "nnn-route-oblique-cycles",
            CycleSpace::T => "nnn-route-t-cycles",
        }
    }

    /// What determines the table.
    pub fn describe(self) -> String {
        let (n, d) = self.reference();
        format!(
            "route-cycles kind={:?} reference={n}x{n}x{n} depths=(1,{d}) setups<=2 kept \
             key=base-u16be,setup-u16be value=rank|cost<<24 bases=0xFD/0xFE/0xFF+u16be",
            self.kind()
        )
    }

    /// The reference cube's layout.
    pub fn layout(self) -> Layout {
        let (n, d) = self.reference();
        Layout::centre(n, route_group(n, d)[0])
    }

    /// The reference cube's list, in order.
    pub fn list(self) -> Vec<Cand> {
        let (n, d) = self.reference();
        let cube = CubeN::new(n);
        let facelets = route_group(n, d);
        let mut lead = vec![false; cube.facelets()];
        facelets.iter().for_each(|&f| lead[f] = true);
        candidates(
            &cube,
            &facelets,
            &self.layout(),
            &lead,
            &route_setups(&cube),
        )
    }

    /// The table's entries, sorted by key, and its histogram (kept cycles
    /// by cost); the number of (cycle, setup) pairs read.
    pub fn entries(self) -> Result<(Entries, Vec<u64>, u64), String> {
        let cands = self.list();
        let bases = bases(self.kind());
        let mut out = Vec::with_capacity(cands.len() + 3 * bases.len());
        let mut histogram = Vec::new();
        for (rank, c) in cands.iter().enumerate() {
            if c.leads != c.len {
                return Err("a centre cycle with a facelet that leads no unit".into());
            }
            if rank >= 1 << 24 || c.base >= u32::from(FROM_KEY) << 8 || c.setup >= 1 << 16 {
                return Err(format!("cycle {rank} does not fit its key and value"));
            }
            let key = [
                (c.base as u16).to_be_bytes(),
                (c.setup as u16).to_be_bytes(),
            ]
            .concat();
            out.push((key, rank as u64 | u64::from(c.cost) << 24));
            if histogram.len() <= c.cost as usize {
                histogram.resize(c.cost as usize + 1, 0);
            }
            histogram[c.cost as usize] += 1;
        }
        for (i, b) in bases.iter().enumerate() {
            let [hi, lo] = u16::try_from(i)
                .map_err(|_| "more bases than keys")?
                .to_be_bytes();
            let (from, to): (Vec<u16>, Vec<u16>) = b.pairs.iter().copied().unzip();
            out.push((vec![FROM_KEY, hi, lo], pack_facelets(&from)?));
            out.push((vec![TO_KEY, hi, lo], pack_facelets(&to)?));
            out.push((vec![MOVES_KEY, hi, lo], pack_moves(&b.moves)?));
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if out.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err("a cycle kept twice behind one setup".into());
        }
        let read = bases.len() as u64 * sequences(&route_turns()).len() as u64;
        Ok((out, histogram, read))
    }
}

/// A sparse table's sorted (key, value) pairs.
pub type Entries = Vec<(Vec<u8>, u64)>;

/// Up to [`MAX_PAIRS`] facelet indices below 512, 9 bits each, the first in
/// the lowest bits, and their count in the top 4 bits.
pub fn pack_facelets(f: &[u16]) -> Result<u64, String> {
    if f.len() > MAX_PAIRS || f.iter().any(|&x| x >= 512) {
        return Err(format!(
            "{} facelets, up to {}",
            f.len(),
            f.iter().max().unwrap_or(&0)
        ));
    }
    let bits = f.iter().rev().fold(0u64, |v, &x| v << 9 | u64::from(x));
    Ok(bits | (f.len() as u64) << 60)
}

/// The facelets [`pack_facelets`] packed.
pub fn unpack_facelets(v: u64) -> impl Iterator<Item = u32> {
    (0..(v >> 60) as usize).map(move |i| (v >> (9 * i) & 511) as u32)
}

/// A move as one byte (0 for none): its face, its kind (a face turn or a
/// single inner layer up to the 9th) and its turns.
fn move_code(m: Move) -> Option<u8> {
    let layer = match m.kind {
        MoveKind::Block(1) => 0,
        MoveKind::Slice(d) if (2..=9).contains(&d) => d - 1,
        _ => return None,
    };
    Some(1 + (m.face as u8 * 9 + layer) * 3 + (m.turns - 1))
}

/// A base's moves (at most 8, face turns and single inner layers), one byte
/// each ([`move_code`]), the first in the lowest byte.
pub fn pack_moves(moves: &[Move]) -> Result<u64, String> {
    if moves.len() > 8 {
        return Err(format!(
            "a cycle of {} moves (at most 8 are stored)",
            moves.len()
        ));
    }
    moves.iter().rev().try_fold(0u64, |v, &m| {
        let c = move_code(m).ok_or_else(|| format!("a cycle turns {m}, which is not stored"))?;
        Ok(v << 8 | u64::from(c))
    })
}

/// The moves [`pack_moves`] packed.
pub fn unpack_moves(mut v: u64) -> Option<Vec<Move>> {
    let mut out = Vec::new();
    while v != 0 {
        let c = (v & 0xFF) as u8 - 1;
        v >>= 8;
        let (turns, rest) = (c % 3 + 1, c / 3);
        let (layer, face) = (rest % 9, rest / 9);
        let face = *Face::ALL.get(face as usize)?;
        out.push(if layer == 0 {
            Move::face(face, turns)
        } else {
            layer_turn(face, layer as usize, turns)
        });
    }
    Some(out)
}

/// Where facelet `f` of an `n0`-cube stands on an `n`-cube, given the
/// `n`-cube layer of each `n0`-cube layer ([`carry_coords`]), if its row
/// and column have one.
#[inline]
pub fn carry(coord: &[u32], n0: usize, n: usize, f: u32) -> Option<u32> {
    let f = f as usize;
    let (face, r, c) = (f / (n0 * n0), (f / n0) % n0, f % n0);
    let (r, c) = (*coord.get(r)?, *coord.get(c)?);
    (r != u32::MAX && c != u32::MAX).then(|| (face as u32 * n as u32 + r) * n as u32 + c)
}

/// The `n`-cube layer of each of an `n0`-cube's layers (`u32::MAX` for
/// none) between two layouts of one kind.
pub fn carry_coords(n0: usize, lay0: &Layout, n: usize, lay: &Layout) -> Vec<u32> {
    let mut coord = vec![u32::MAX; n0];
    for (&x0, &x) in lay0.map.iter().zip(&lay.map) {
        if x0 < n0 && x < n {
            coord[x0] = x as u32;
        }
    }
    coord
}

/// A cycle table's list read for an N-cube laid out as `lay`, behind the
/// route's `setups` on that cube ([`route_setups`]): every entry (key,
/// value), in any order, goes to the callback `entries` is given. Returns
/// the cycles in their order and each base's moves.
pub fn read_list(
    space: CycleSpace,
    n: usize,
    lay: &Layout,
    setups: &[Setup],
    entries: impl FnOnce(&mut dyn FnMut(&[u8], u64)),
) -> Result<(Vec<Cand>, Vec<Vec<Move>>), String> {
    let (n0, _) = space.reference();
    let lay0 = space.layout();
    if lay.kind != lay0.kind {
        return Err(format!(
            "a {:?} layout for the {:?} cycles",
            lay.kind, lay0.kind
        ));
    }
    let coord = carry_coords(n0, &lay0, n, lay);
    let mut kept: Vec<(u16, u16, u32, u32)> = crate::huge_vec(1 << 20);
    let mut from: Vec<Option<u64>> = Vec::new();
    let mut to: Vec<Option<u64>> = Vec::new();
    let mut moves: Vec<Option<u64>> = Vec::new();
    let mut fault: Option<String> = None;
    entries(&mut |key: &[u8], v: u64| {
        let set = |list: &mut Vec<Option<u64>>, i: usize| {
            if list.len() <= i {
                list.resize(i + 1, None);
            }
            list[i] = Some(v);
        };
        match *key {
            [tag, hi, lo] if tag >= FROM_KEY => {
                let i = u16::from_be_bytes([hi, lo]) as usize;
                match tag {
                    FROM_KEY => set(&mut from, i),
                    TO_KEY => set(&mut to, i),
                    _ => set(&mut moves, i),
                }
            }
            [b0, b1, s0, s1] => kept.push((
                u16::from_be_bytes([b0, b1]),
                u16::from_be_bytes([s0, s1]),
                (v & 0xFF_FFFF) as u32,
                (v >> 24) as u32,
            )),
            _ => fault = Some(format!("a key of {} bytes", key.len())),
        }
    });
    if let Some(f) = fault {
        return Err(f);
    }
    let missing = || "a base's entry missing".to_string();
    let moves: Vec<Vec<Move>> = (moves.into_iter())
        .map(|v| v.and_then(unpack_moves))
        .collect::<Option<_>>()
        .ok_or_else(missing)?;
    // Each base's pairs on the N-cube.
    let mut pairs: Vec<Vec<(u32, u32)>> = Vec::with_capacity(moves.len());
    for i in 0..moves.len() {
        let (Some(Some(f)), Some(Some(t))) = (from.get(i), to.get(i)) else {
            return Err(missing());
        };
        let p: Option<Vec<(u32, u32)>> = unpack_facelets(*f)
            .zip(unpack_facelets(*t))
            .map(|(f, t)| Some((carry(&coord, n0, n, f)?, carry(&coord, n0, n, t)?)))
            .collect();
        match p {
            Some(p) if (1..=MAX_PAIRS).contains(&p.len()) => pairs.push(p),
            _ => return Err("a base's facelets off its orbit".into()),
        }
    }
    // The kept cycles by place in the list, then each made in that order.
    let mut by_rank: Vec<(u16, u16, u32)> = vec![(0, 0, u32::MAX); kept.len()];
    for (base, setup, rank, cost) in kept {
        match by_rank.get_mut(rank as usize) {
            Some(slot) if slot.2 == u32::MAX => *slot = (base, setup, cost),
            _ => return Err("two kept cycles in one place of the list, or one past it".into()),
        }
    }
    let mut cands = crate::huge_vec(by_rank.len());
    for (base, setup, cost) in by_rank {
        let (Some(p), Some(s)) = (pairs.get(base as usize), setups.get(setup as usize)) else {
            return Err("a kept cycle of a base or setup the table does not hold".into());
        };
        // Sorted as they are made (at most six: an insertion sort).
        let mut moved = [(0u32, 0u32); MAX_PAIRS];
        for (k, &(f, t)) in p.iter().enumerate() {
            let x = (s.dest[f as usize], s.dest[t as usize]);
            let mut j = k;
            while j > 0 && moved[j - 1] > x {
                moved[j] = moved[j - 1];
                j -= 1;
            }
            moved[j] = x;
        }
        cands.push(Cand {
            base: u32::from(base),
            setup: u32::from(setup),
            cost,
            moved,
            len: p.len() as u8,
            leads: p.len() as u8,
        });
    }
    Ok((cands, moves))
}
