//! The last stage of the 5x5x5 pairing as planned (`docs/5x5x5.md`): in
//! `<U, D, R2, L2, F2, B2, Rw2, Lw2, Fw2, Bw2>`, the eight U- and D-layer
//! tredges paired and every centre solved, with the four E-slice tredges
//! already paired (the group keeps them so: no move of it splits an E-slice
//! tredge, and no U/D-layer piece enters the E slice).
//!
//! In this group the U/D-layer midges, high wings and low wings each stay
//! among their eight slots, so three relative permutations of eight (high
//! wings to midges, low wings to midges, high to low wings: 8! each) describe
//! the pairing; their exact distances, and those of the T- and X-centres in
//! the group, are computed at load (small breadth-first searches).

use super::pair::{Centres, CENTRE_IDS, MARKED};
use crate::search::{allowed, Stage};
use crate::tables::TableError;
use tablegen::cube5::{part4, Tredges};
use tablegen::notation::{Face, Move};
use tablegen::perm::{perm_rank, perm_unrank};

/// 8!: relative permutations of eight.
const PERMS8: usize = 40_320;

/// One relative permutation of eight under the group: per move the images of
/// the two piece sets' slots, and the distance of each rank to the identity
/// (`u8::MAX`: not reached).
struct Rel8 {
    moves: Vec<([u8; 8], [u8; 8])>,
    dist: Vec<u8>,
}

impl Rel8 {
    fn new(moves: Vec<([u8; 8], [u8; 8])>) -> Rel8 {
        let mut r = Rel8 {
            moves,
            dist: vec![u8::MAX; PERMS8],
        };
        r.dist[0] = 0;
        let mut layer = vec![0usize];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &x in &layer {
                let s = unrank8(x);
                for i in 0..r.moves.len() {
                    let y = rank8(&r.apply(&s, i));
                    if r.dist[y] == u8::MAX {
                        r.dist[y] = d;
                        next.push(y);
                    }
                }
            }
            layer = next;
        }
        r
    }

    /// `sigma` (slot of set A -> slot of set B holding the same tredge's
    /// piece) after move `i`.
    #[inline]
    fn apply(&self, sigma: &[u8; 8], i: usize) -> [u8; 8] {
        let (a, b) = &self.moves[i];
        let mut out = [0u8; 8];
        for x in 0..8 {
            out[a[x] as usize] = b[sigma[x] as usize];
        }
        out
    }

    #[inline]
    fn get(&self, sigma: &[u8; 8]) -> u8 {
        self.dist[rank8(sigma)]
    }
}

fn rank8(s: &[u8; 8]) -> usize {
    perm_rank(s) as usize
}

fn unrank8(r: usize) -> [u8; 8] {
    let v = perm_unrank(r as u64, 8);
    std::array::from_fn(|i| v[i])
}

/// A node: the two centre masks, the three relative permutations
/// (high-midge, low-midge, high-low), the bound.
#[derive(Clone, Copy, Debug)]
pub struct N8 {
    centres: [u64; 2],
    rel: [[u8; 8]; 3],
    h: u8,
}

/// The stage (see the module documentation).
pub struct Last8 {
    /// The 14 moves.
    pub moves: Vec<Move>,
    tredges: Tredges,
    /// The U/D-layer dedge numbers, in local order 0..8.
    ud: [u8; 8],
    centres: [Centres; 2],
    rel: [Rel8; 3],
}

impl Last8 {
    /// Builds the stage's tables (centre distances and the three 8! tables).
    pub fn new() -> Result<Last8, TableError> {
        use Face::*;
        let bad = |msg: String| TableError::Build("5x5x5 last-eight stage".into(), msg);
        let mut moves = Vec::new();
        for f in [U, D] {
            for t in [1, 3, 2] {
                moves.push(Move::face(f, t));
            }
        }
        for f in [R, L, F, B] {
            moves.push(Move::face(f, 2));
        }
        for f in [R, L, F, B] {
            moves.push(Move::block(f, 2, 2));
        }
        let tredges = Tredges::new();
        let mut ud = [0u8; 8];
        let mut local = [u8::MAX; 12];
        let mut k = 0;
        for e in 0..12u8 {
            if tredges.edge_of_dedge[e as usize] < 8 {
                ud[k] = e;
                local[e as usize] = k as u8;
                k += 1;
            }
        }
        let restrict = |to: &[u8], m: Move, what: &str| -> Result<[u8; 8], TableError> {
            let mut out = [0u8; 8];
            for (x, &e) in ud.iter().enumerate() {
                let t = local[to[e as usize] as usize % 12];
                if t == u8::MAX {
                    return Err(bad(format!(
                        "{m} moves a U/D-layer {what} into the E slice"
                    )));
                }
                out[x] = t;
            }
            Ok(out)
        };
        let mut hi = Vec::new();
        let mut lo = Vec::new();
        let mut mid = Vec::new();
        for &m in &moves {
            let w = tredges.wing_move(m).map_err(bad)?;
            if (0..12).any(|s| w[s] >= 12) {
                return Err(bad(format!("{m} moves wings between the classes")));
            }
            let (to, flip) = tredges.midge_move(m).map_err(bad)?;
            if flip.iter().any(|&f| f != 0) {
                return Err(bad(format!("{m} flips midges")));
            }
            hi.push(restrict(&w[..12], m, "wing")?);
            lo.push(restrict(&w[12..], m, "wing")?);
            mid.push(restrict(&to, m, "midge")?);
        }
        let pairs =
            |a: &[[u8; 8]], b: &[[u8; 8]]| a.iter().copied().zip(b.iter().copied()).collect();
        Ok(Last8 {
            centres: [
                Centres::new(CENTRE_IDS[0], &moves)?,
                Centres::new(CENTRE_IDS[1], &moves)?,
            ],
            rel: [
                Rel8::new(pairs(&hi, &mid)),
                Rel8::new(pairs(&lo, &mid)),
                Rel8::new(pairs(&hi, &lo)),
            ],
            moves,
            tredges,
            ud,
        })
    }

    /// How many relative permutations of each kind the group reaches (the
    /// tests compare them with 8! and 8!/2).
    pub fn reached(&self) -> [usize; 3] {
        self.rel
            .each_ref()
            .map(|r| r.dist.iter().filter(|&&d| d != u8::MAX).count())
    }

    /// The node of a state whose E-slice tredges are paired and whose
    /// U/D-layer pieces are those of the other eight tredges; an error
    /// otherwise.
    pub fn node(&self, state: &[u8]) -> Result<N8, String> {
        let wings = self.tredges.wings.read(&part4(state))?;
        let (midges, flip) = self.tredges.read_midges(state)?;
        if flip.iter().any(|&f| f != 0) {
            return Err("a midge is flipped".into());
        }
        // Local slot of each tredge's high wing, low wing and midge.
        let mut at = [[u8::MAX; 3]; 12];
        for (slot, &p) in wings.iter().enumerate() {
            if (slot < 12) != (p < 12) {
                return Err("a wing is out of its class".into());
            }
            at[p as usize % 12][if p < 12 { 0 } else { 1 }] = slot as u8 % 12;
        }
        for (slot, &p) in midges.iter().enumerate() {
            at[p as usize][2] = slot as u8;
        }
        let local = |e: u8| self.ud.iter().position(|&x| x == e);
        let mut rel = [[0u8; 8]; 3];
        for piece in at.iter() {
            let [h, l, m] = piece.map(local);
            match (h, l, m) {
                (Some(h), Some(l), Some(m)) => {
                    rel[0][h] = m as u8;
                    rel[1][l] = m as u8;
                    rel[2][h] = l as u8;
                }
                (None, None, None) if piece[0] == piece[1] && piece[1] == piece[2] => {}
                _ => return Err("an E-slice tredge is not paired".into()),
            }
        }
        let centres = [
            self.centres[0].space.project(state, &MARKED),
            self.centres[1].space.project(state, &MARKED),
        ];
        let mut n = N8 { centres, rel, h: 0 };
        n.h = self.bound(&n);
        if n.h == u8::MAX {
            return Err("the group cannot solve this state".into());
        }
        Ok(n)
    }

    fn bound(&self, n: &N8) -> u8 {
        let mut h = self.centres[0]
            .get(n.centres[0])
            .max(self.centres[1].get(n.centres[1]));
        for (r, s) in self.rel.iter().zip(&n.rel) {
            h = h.max(r.get(s));
        }
        h
    }

    /// The bound of a node.
    pub fn h(&self, n: &N8) -> usize {
        n.h as usize
    }
}

impl Stage for Last8 {
    type Node = N8;

    fn prune(&self, n: &N8, left: usize) -> bool {
        n.h as usize > left
    }

    fn goal(&self, n: &N8, _left: usize) -> Option<u8> {
        (n.h == 0).then_some(0)
    }

    fn expand(&self, n: &N8, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N8)>) -> u64 {
        let prev = prev.map(|i| self.moves[i]);
        let mut dropped = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let mut c = N8 {
                centres: [
                    self.centres[0].space.apply(n.centres[0], i),
                    self.centres[1].space.apply(n.centres[1], i),
                ],
                rel: [
                    self.rel[0].apply(&n.rel[0], i),
                    self.rel[1].apply(&n.rel[1], i),
                    self.rel[2].apply(&n.rel[2], i),
                ],
                h: 0,
            };
            c.h = self.bound(&c);
            if c.h as usize > left - 1 {
                dropped += 1;
                continue;
            }
            out.push((i, c));
        }
        dropped
    }
}
