//! The cycles the reduction places pieces with: sequences found once on a
//! small cube (wing 3-cycles, centre commutators) and what they move, the
//! setups in front of them, and a cycle as carried to the N-cube.

use super::*;

/// The most facelets a cycle moves in its orbit (two 3-cycles).
pub(super) const MAX_PAIRS: usize = 6;

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

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
pub(super) fn marks(len: usize, facelets: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut out = vec![false; len];
    for f in facelets {
        out[f] = true;
    }
    out
}

/// A move sequence found on a small cube, with what it does there: facelet
/// `from` goes to `to`, for each facelet it moves.
#[derive(Clone, Debug)]
pub(super) struct Base {
    pub(super) moves: Vec<Move>,
    pub(super) pairs: Vec<(u16, u16)>,
}

/// Where each facelet of a sequence's start state ends: `t[j]` is the
/// facelet whose sticker is at `j` afterwards.
pub(super) fn track(cube: &CubeN, moves: &[Move]) -> Vec<u16> {
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
pub(super) fn moved(t: &[u16]) -> Vec<(u16, u16)> {
    t.iter()
        .enumerate()
        .filter(|&(j, &s)| s as usize != j)
        .map(|(j, &s)| (s, j as u16))
        .collect()
}

/// The turn of the single layer `layer` (0 = the face) seen from `face`.
pub(super) fn layer_turn(face: Face, layer: usize, turns: u8) -> Move {
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
pub(super) fn sequences(turns: &[Move]) -> Vec<Vec<Move>> {
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
pub(super) fn base_cost(moves: &[Move]) -> u32 {
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
pub(super) fn effect_key(pairs: impl Iterator<Item = (u32, u32)>) -> u64 {
    pairs.fold(0xcbf2_9ce4_8422_2325u64, |h, (f, t)| {
        (h ^ (u64::from(f) << 32 | u64::from(t))).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A setup: the moves and where their inverse sends each facelet; `kept`
/// when the setup is not undone after its cycle.
pub(super) fn setup(cube: &CubeN, s: Vec<Move>, kept: bool) -> Setup {
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
pub(super) fn add_with_inverse(out: &mut Vec<Base>, seen: &mut HashSet<Vec<(u16, u16)>>, b: Base) {
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
pub(super) fn centre_bases(
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
pub(super) fn wing_bases() -> Vec<Base> {
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

pub(super) fn depth(x: usize, n: usize) -> usize {
    x.min(n - 1 - x)
}

/// The kinds of orbit, each with its own cycles found on its own small
/// cube: X-centres (on the 5x5x5), T-centres (on the 7x7x7), obliques with
/// their mirrors (on the 8x8x8), wings (on the 4x4x4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OrbitKind {
    X,
    T,
    Oblique,
    Wing,
}

/// The small-cube cycles of each kind, found once.
pub(super) fn bases(kind: OrbitKind) -> &'static [Base] {
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
pub(super) struct Cand {
    pub(super) base: u32,
    pub(super) setup: u32,
    pub(super) cost: u32,
    /// (from, to) of each facelet it moves, the first `len`; those of the
    /// units' first facelets (every centre facelet, each wing's first) come
    /// first. Held inline: a cube's candidates run to millions.
    pub(super) moved: [(u32, u32); MAX_PAIRS],
    pub(super) len: u8,
    /// How many of the pairs are units' first facelets.
    pub(super) leads: u8,
}

impl Cand {
    /// (from, to) of each facelet it moves, the units' first facelets first.
    pub(super) fn pairs(&self) -> &[(u32, u32)] {
        &self.moved[..self.len as usize]
    }
}

/// How an orbit's small cube sits in the N-cube: the small cube's size, its
/// layer indices on the N-cube (`usize::MAX` for a layer no cycle turns),
/// and which set of cycles.
pub(super) struct Layout {
    pub(super) size: usize,
    pub(super) map: Vec<usize>,
    pub(super) kind: OrbitKind,
}

/// A wing cycle in a wing orbit's local indices: its (from, to) pairs, its
/// cost and the cycle itself.
pub(super) type LocalCycle = (Vec<(u32, u32)>, u32, Cand);

/// Moves that set a cycle up, and where their inverse sends each facelet.
///
/// A setup is undone after its cycle, unless it is `kept`: a setup of turns
/// of the small cube (faces, and blocks that end between two groups of
/// layers) moves whole groups onto whole groups, so it keeps every paired
/// wing and placed centre as it is. The cycle's effect is then the same as
/// with the setup undone, followed by the setup, and the setup costs its
/// length once instead of twice.
pub(super) struct Setup {
    pub(super) moves: Vec<Move>,
    pub(super) dest: Vec<u32>,
    pub(super) kept: bool,
}
