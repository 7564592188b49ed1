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
use tablegen::notation::{Face, Move};
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
    /// Per previous move (the last index: none), the moves that may follow
    /// it ([`crate::search::allowed`]).
    follow: Vec<Vec<u8>>,
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
        let follow = (0..=moves.len())
            .map(|p| {
                (0..moves.len())
                    .filter(|&m| crate::search::allowed(moves.get(p).copied(), moves[m]))
                    .map(|m| m as u8)
                    .collect()
            })
            .collect();
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

/// The phase-1 enumeration of one choice: the stage, its table and masks,
/// what the solutions are ranked by, and where they go.
pub(super) struct Enumerate<'a> {
    pub(super) stage: &'a super::centres::CentreStage,
    pub(super) rank: &'a P1Rank,
    /// `4x4x4-sides-parity-either`'s bytes.
    pub(super) either: &'a [u8],
    pub(super) sides: &'a SideCentresSpace,
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
        cap: usize,
    ) -> Self {
        Enumerate {
            stage,
            rank,
            either,
            sides,
            cap,
            out: Vec::new(),
            dist: stage.table.nibble_bytes(),
            path: [0; MAX_LEN],
        }
    }

    /// Every solution from `mask` (the stage's projection) of exactly
    /// `left` more moves, `depth` made, until `cap` are found. A path does
    /// not go on from the goal with fewer than five moves left (it would be
    /// a shorter solution and moves that phase 2 can make, as in TPR's
    /// search).
    pub(super) fn dfs(&mut self, mask: u64, at: P1Root, depth: usize, left: usize, prev: usize) {
        if self.out.len() >= self.cap {
            return;
        }
        let r = self.stage.space.rank(mask);
        let d = match self.dist {
            Some(t) => crate::tables::nibble(t, r as usize),
            None => self.stage.table.get(r) as usize,
        };
        if d > left {
            return;
        }
        if d == 0 && left < 5 {
            if left == 0 {
                let (f, b, odd) = (at.f as u16, at.b as u16, at.odd);
                let r = self.sides.rank(f, b) as usize;
                let h = crate::tables::nibble(self.either, 2 * r + odd as usize);
                self.out.push(Ranked {
                    key: (depth + h) as u8,
                    len: depth as u8,
                    path: self.path,
                });
            }
            return;
        }
        if depth == MAX_LEN {
            return;
        }
        let rank = self.rank;
        for &m in &rank.follow[prev] {
            let m = m as usize;
            self.path[depth] = m as u8;
            let child = self.stage.space.apply(mask, m);
            let next = rank.step(at, m);
            self.dfs(child, next, depth + 1, left - 1, m);
        }
    }
}
