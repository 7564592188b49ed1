//! Phase-1 solutions ranked for phase 2 without their facelets
//! ([`P1Rank`]).
//!
//! Phase 1 (one colour pair's centres staged on U-D) has many solutions at
//! its optimal length and one or two moves over, and phase 2's length
//! depends much on which one it starts from. Each solution is ranked by its
//! length plus the phase-2 bound of its side centres and wing parity (the
//! `4x4x4-sides-parity-either` entry); reading that bound needs only where
//! the F and B colours are and the parity of the wings, which are followed
//! along the path as two 24-bit masks of the centres and one bit, a few
//! table reads a move. Only the best ranked are then turned into facelet
//! states for phase 2.

use tablegen::cube::CubeN;
use tablegen::cube4::{odd, SideCentresSpace, Wings};
use tablegen::notation::{Face, Move, MoveKind};
use tablegen::StateError;

/// The side centres' F and B masks and the wing parity, moved by phase-1
/// moves.
pub(super) struct P1Rank {
    /// The 24 centre facelets: the sides space's 16 cells in its order (so
    /// that a mask's low 16 bits are its masks), then U's and D's.
    cells: [usize; 24],
    /// Per move, per byte of a mask: the image of that byte's bits.
    images: Vec<[[u32; 256]; 3]>,
    /// Per move: whether it permutes the wings oddly.
    odd: Vec<bool>,
    /// Per move: its facelet permutation (facelet `i` after the move holds
    /// what facelet `perm[i]` held).
    perms: Vec<std::sync::Arc<tablegen::cube::Perm>>,
    /// Per previous move (the last index: none), the moves the enumeration
    /// lets follow it ([`follow_lists`]).
    pub(super) follow: Vec<Vec<u8>>,
}

/// Per previous move of `moves` (the last index: none), the moves that may
/// follow it ([`crate::search::allowed`]). With `copies_out`, `Dw`, `Lw2`
/// and `Bw2` are left out: each is another wide turn and a whole-cube turn
/// that keeps the U-D axis (`Dw = y' Uw`, `Lw2 = x2 Rw2`, `Bw2 = z2 Fw2`),
/// and such a turn moved past the later moves only renames them among
/// phase 1's moves. A path with them is a path without them, as long or
/// shorter, turned (or one that goes on from the goal with a move phase 2
/// makes); turned starts are copies (phases 2 and 3 are the same problem
/// on them), so they would only fill the enumeration's cap. Left out, the
/// ranked solutions that give 4,000 distinct starts fall from about 37,000
/// to 16,000 (one thread, every choice, a cap of 150,000).
pub(super) fn follow_lists(moves: &[Move], copies_out: bool) -> Vec<Vec<u8>> {
    let copy = |m: Move| {
        matches!(
            (m.face, m.kind, m.turns),
            (Face::D, MoveKind::Block(2), _) | (Face::L | Face::B, MoveKind::Block(2), 2)
        )
    };
    (0..=moves.len())
        .map(|p| {
            (0..moves.len())
                .filter(|&m| !(copies_out && copy(moves[m])))
                .filter(|&m| crate::search::allowed(moves.get(p).copied(), moves[m]))
                .map(|m| m as u8)
                .collect()
        })
        .collect()
}

/// The masks and wing parity of a phase-1 root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct P1Root {
    f: u32,
    b: u32,
    odd: bool,
}

impl P1Rank {
    /// The tables for `moves` (phase 1's, as indexed by its paths).
    pub(super) fn new(
        cube: &CubeN,
        moves: &[Move],
        sides: &SideCentresSpace,
        wings: &Wings,
    ) -> P1Rank {
        let mut cells = [0usize; 24];
        cells[..16].copy_from_slice(&sides.cells);
        let ud = [Face::U, Face::D]
            .into_iter()
            .flat_map(|f| [(f, 1, 1), (f, 1, 2), (f, 2, 1), (f, 2, 2)]);
        for (k, (face, row, col)) in ud.enumerate() {
            cells[16 + k] = cube.index(face, row, col);
        }
        let mut at = vec![usize::MAX; cube.facelets()];
        for (k, &c) in cells.iter().enumerate() {
            at[c] = k;
        }
        let images = moves
            .iter()
            .map(|&m| {
                // Facelet `i` after the move holds what facelet `perm[i]`
                // held: bit `from` of a mask goes to bit `to`.
                let perm = cube.perm(m);
                let mut to_of = [0usize; 24];
                for (to, &c) in cells.iter().enumerate() {
                    to_of[at[perm[c] as usize]] = to;
                }
                let mut img = [[0u32; 256]; 3];
                for (byte, t) in img.iter_mut().enumerate() {
                    for (v, out) in t.iter_mut().enumerate() {
                        *out = (0..8)
                            .filter(|i| v >> i & 1 == 1)
                            .map(|i| 1u32 << to_of[8 * byte + i])
                            .fold(0, |a, b| a | b);
                    }
                }
                img
            })
            .collect();
        let odd = moves
            .iter()
            .map(|&m| odd(&wings.slot_perm(cube, m)))
            .collect();
        let follow = follow_lists(moves, true);
        P1Rank {
            cells,
            images,
            odd,
            follow,
            perms: moves.iter().map(|&m| cube.perm(m)).collect(),
        }
    }

    /// The masks and wing parity of `state`.
    pub(super) fn root(&self, state: &[u8], wings: &Wings) -> Result<P1Root, StateError> {
        let mask = |colour: Face| {
            (self.cells.iter().enumerate())
                .filter(|&(_, &c)| state[c] == colour as u8)
                .fold(0u32, |a, (k, _)| a | 1 << k)
        };
        Ok(P1Root {
            f: mask(Face::F),
            b: mask(Face::B),
            odd: odd(&wings.read(state)?),
        })
    }

    /// `state` after the moves of `path`.
    pub(super) fn apply(&self, state: &[u8], path: &[u8]) -> Vec<u8> {
        let mut s = state.to_vec();
        let mut t = s.clone();
        for &m in path {
            let p = &self.perms[m as usize];
            for (to, &from) in t.iter_mut().zip(p.iter()) {
                *to = s[from as usize];
            }
            std::mem::swap(&mut s, &mut t);
        }
        s
    }

    /// `at` moved by move `m`.
    #[inline]
    pub(super) fn step(&self, at: P1Root, m: usize) -> P1Root {
        let img = &self.images[m];
        let image = |x: u32| {
            img[0][(x & 0xff) as usize]
                | img[1][(x >> 8 & 0xff) as usize]
                | img[2][(x >> 16) as usize]
        };
        P1Root {
            f: image(at.f),
            b: image(at.b),
            odd: at.odd ^ self.odd[m],
        }
    }
}

/// A ranked phase-1 solution: its rank key (length plus the phase-2 bound),
/// its length, and its moves (indices into phase 1's moves).
#[derive(Clone, Copy)]
pub(super) struct Ranked {
    pub(super) key: u8,
    pub(super) len: u8,
    pub(super) path: [u8; MAX_LEN],
}

/// The longest phase-1 solution enumerated (optimal is at most 8 moves,
/// the ud-stage table's depth).
pub(super) const MAX_LEN: usize = 16;

/// A path goes on from the goal only with at least this many moves left
/// (fewer would make a shorter solution followed by moves phase 2 can
/// make, as in TPR's search).
const MIN_LEFT_PAST_GOAL: usize = 5;

/// How many last moves of a solution [`Tails`] lists.
pub(super) const TAIL: usize = 3;

// A tail never goes on from the goal: the lists rely on it.
const _: () = assert!(TAIL < MIN_LEFT_PAST_GOAL);

/// The stage's distance of rank `r`: the mapped nibbles read directly when
/// the table is mapped so.
#[inline]
fn distance(stage: &super::centres::CentreStage, nibbles: Option<&[u8]>, r: u64) -> usize {
    match nibbles {
        Some(t) => crate::tables::nibble(t, r as usize),
        None => stage.table.get(r) as usize,
    }
}

/// The last [`TAIL`] moves of phase-1 solutions, listed once per mask near
/// the goal. Most of a depth-first enumeration's nodes are its last levels'
/// children, nearly all cut by the table; with their solutions listed, a
/// node [`TAIL`] moves from the end walks a list instead.
pub(super) struct Tails {
    /// The ranks within [`TAIL`] moves of the goal, to their slot.
    slot: crate::hash::MixMap<u64, u32>,
    /// Per slot, per moves left (1 to [`TAIL`]): the range of `paths` that
    /// reach the goal in exactly that many moves, in the search's order.
    ranges: Vec<[(u32, u32); TAIL]>,
    /// The listed paths, `left` moves each.
    paths: Vec<u8>,
    /// Per previous move (the last index: none), the moves that may follow
    /// it, as bits.
    first: Vec<u64>,
}

impl Tails {
    /// Lists the tails of `stage` (whose moves `rank` was made for), the
    /// longer from the shorter: a tail of `k` moves is a move to a mask
    /// that is not the goal, then a tail of `k - 1` moves that may follow it.
    pub(super) fn new(stage: &super::centres::CentreStage, rank: &P1Rank) -> Tails {
        let nibbles = stage.table.nibble_bytes();
        let none = stage.moves.len();
        let mut tails = Tails {
            slot: Default::default(),
            ranges: Vec::new(),
            paths: Vec::new(),
            first: (rank.follow.iter())
                .map(|f| f.iter().fold(0u64, |a, &m| a | 1 << m))
                .collect(),
        };
        // The masks within TAIL moves, level by level from the goal (the
        // solved cube's mask, the one at distance 0): every mask at one
        // distance is a move from one at the distance before.
        debug_assert!(none <= 64, "the first moves are kept as bits of a u64");
        let goal = stage.space.project(&CubeN::new(4).solved(), &stage.marked);
        let mut near = vec![(goal, stage.space.rank(goal))];
        let mut seen: crate::hash::MixSet<u64> = near.iter().map(|&(_, r)| r).collect();
        let mut level = 0..1;
        for d in 1..=TAIL {
            for i in level.clone() {
                let mask = near[i].0;
                for m in 0..none {
                    let child = stage.space.apply(mask, m);
                    let r = stage.space.rank(child);
                    if distance(stage, nibbles, r) == d && seen.insert(r) {
                        near.push((child, r));
                    }
                }
            }
            level = level.end..near.len();
        }
        for (k, &(_, r)) in near.iter().enumerate() {
            tails.slot.insert(r, k as u32);
        }
        tails.ranges = vec![[(0, 0); TAIL]; near.len()];
        for len in 1..=TAIL {
            for (k, &(mask, r)) in near.iter().enumerate() {
                let from = tails.paths.len() as u32;
                // The goal itself has no tail: a path does not go on from it
                // with fewer than MIN_LEFT_PAST_GOAL moves left.
                if distance(stage, nibbles, r) > 0 {
                    for &m in &rank.follow[none] {
                        let child = stage.space.apply(mask, m as usize);
                        let cr = stage.space.rank(child);
                        let cd = distance(stage, nibbles, cr);
                        if len == 1 {
                            if cd == 0 {
                                tails.paths.push(m);
                            }
                            continue;
                        }
                        if cd == 0 || cd > len - 1 {
                            continue;
                        }
                        let (a, b) = tails.ranges[tails.slot[&cr] as usize][len - 2];
                        for i in (a as usize..b as usize).step_by(len - 1) {
                            if tails.first[m as usize] >> tails.paths[i] & 1 == 1 {
                                tails.paths.push(m);
                                tails.paths.extend_from_within(i..i + len - 1);
                            }
                        }
                    }
                }
                tails.ranges[k][len - 1] = (from, tails.paths.len() as u32);
            }
        }
        tails
    }
}

/// The phase-1 enumeration of one choice: the stage, its table and masks,
/// what the solutions are ranked by, and where they go.
pub(super) struct Enumerate<'a> {
    pub(super) stage: &'a super::centres::CentreStage,
    pub(super) rank: &'a P1Rank,
    /// `4x4x4-sides-parity-either`'s bytes.
    pub(super) either: &'a [u8],
    pub(super) sides: &'a SideCentresSpace,
    /// The listed last moves; without them every node is searched.
    tails: Option<&'a Tails>,
    pub(super) cap: usize,
    pub(super) out: Vec<Ranked>,
    /// The stage's table as packed nibbles, when it is mapped so.
    dist: Option<&'a [u8]>,
    path: [u8; MAX_LEN],
}

impl<'a> Enumerate<'a> {
    pub(super) fn new(
        stage: &'a super::centres::CentreStage,
        rank: &'a P1Rank,
        either: &'a [u8],
        sides: &'a SideCentresSpace,
        tails: Option<&'a Tails>,
        cap: usize,
    ) -> Self {
        Enumerate {
            stage,
            rank,
            either,
            sides,
            tails,
            cap,
            out: Vec::new(),
            dist: stage.table.nibble_bytes(),
            path: [0; MAX_LEN],
        }
    }

    /// Every solution from `mask` (the stage's projection) of exactly `len`
    /// moves, until `cap` are found, in the order of a depth-first search
    /// over the moves the rank's [`follow_lists`] let follow each other
    /// (the table's distances are over all of the stage's moves, so they
    /// stay lower bounds). A path does not go on from the goal with fewer than
    /// [`MIN_LEFT_PAST_GOAL`] moves left.
    pub(super) fn solutions(&mut self, mask: u64, at: P1Root, len: usize) {
        let r = self.stage.space.rank(mask);
        let d = distance(self.stage, self.dist, r);
        let none = self.stage.moves.len();
        self.dfs(mask, r, d, at, 0, len, none);
    }

    /// The node `mask` (rank `r`, distance `d`), `depth` moves made and
    /// `left` to go.
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        mask: u64,
        r: u64,
        d: usize,
        at: P1Root,
        depth: usize,
        left: usize,
        prev: usize,
    ) {
        if self.out.len() >= self.cap || d > left {
            return;
        }
        if d == 0 && left < MIN_LEFT_PAST_GOAL {
            if left == 0 {
                self.emit(at, depth);
            }
            return;
        }
        if depth + left > MAX_LEN {
            return;
        }
        if let Some(tails) = self.tails.filter(|_| left <= TAIL) {
            self.tails(tails, r, at, depth, left, prev);
            return;
        }
        let rank = self.rank;
        for &m in &rank.follow[prev] {
            let m = m as usize;
            let child = self.stage.space.apply(mask, m);
            let cr = self.stage.space.rank(child);
            let cd = distance(self.stage, self.dist, cr);
            if cd + 1 > left {
                continue;
            }
            self.path[depth] = m as u8;
            let next = rank.step(at, m);
            self.dfs(child, cr, cd, next, depth + 1, left - 1, m);
        }
    }

    /// The listed tails of `left` moves from rank `r`.
    fn tails(&mut self, tails: &Tails, r: u64, at: P1Root, depth: usize, left: usize, prev: usize) {
        let Some(&slot) = tails.slot.get(&r) else {
            return;
        };
        let (from, to) = tails.ranges[slot as usize][left - 1];
        let first = tails.first[prev];
        for tail in tails.paths[from as usize..to as usize].chunks_exact(left) {
            if first >> tail[0] & 1 == 0 {
                continue;
            }
            if self.out.len() >= self.cap {
                return;
            }
            let mut end = at;
            for &m in tail {
                end = self.rank.step(end, m as usize);
            }
            self.path[depth..depth + left].copy_from_slice(tail);
            self.emit(end, depth + left);
        }
    }

    /// A solution of `len` moves (in `path`) ending at `at`.
    #[inline]
    fn emit(&mut self, at: P1Root, len: usize) {
        let (f, b, odd) = (at.f as u16, at.b as u16, at.odd);
        let r = self.sides.rank(f, b) as usize;
        let h = crate::tables::nibble(self.either, 2 * r + odd as usize);
        self.out.push(Ranked {
            key: (len + h) as u8,
            len: len as u8,
            path: self.path,
        });
    }
}
