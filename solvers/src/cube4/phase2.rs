//! Phase 2 of the 4x4x4 reduction as a stage of the engine: the side
//! centres staged for the pairing group with an even wing permutation, and the
//! wings split (one of each dedge in each class, an even number flipped).

use super::{near_split, Solver};
use crate::search::{allowed, Chain, Link, Rooted, Stage};
use crate::tables::nibble;
use crate::SolveError;
use tablegen::cube::CubeN;
use tablegen::cube4::odd;
use tablegen::notation::Move;

/// Phase-2 ends claimed by the threads of a solve: problem key -> (thread,
/// moves of its phases 1 and 2).
pub(super) type Claims = std::sync::Mutex<std::collections::HashMap<Vec<u8>, (usize, usize)>>;

/// The 24 whole-cube turns of `cube` as facelet permutations (facelet `i`
/// of the turned state is facelet `p[i]`), and the colour renamings of the
/// 24 (each turn's colour on each face renamed to that face's own).
pub(super) fn whole_turns(cube: &CubeN) -> (Vec<Vec<u8>>, Vec<[u8; 6]>) {
    tablegen::cube::rotations24()
        .iter()
        .map(|turn| {
            let mut p: Vec<u8> = (0..cube.facelets() as u8).collect();
            cube.apply_alg(&mut p, turn);
            (p, crate::moves::recolouring(turn))
        })
        .unzip()
}

/// Indices of `moves` other than the wide turns of D, L and B: each of those is
/// the wide turn of the opposite face and a whole-cube turn, which phases 2 and
/// 3 take care of by their goals.
pub(super) fn without_dlb_wide(moves: &[Move]) -> Vec<usize> {
    (0..moves.len())
        .filter(|&i| !tablegen::cube4::is_dlb_wide(moves[i]))
        .collect()
}

/// Phase-2 node: sides-stage coordinate, slot of each wing piece, wing parity,
/// and the sides-with-parity distances of the node as it is and turned by `y`.
#[derive(Clone, Copy, Debug)]
pub(super) struct N2 {
    pub(super) f: u16,
    pub(super) b: u16,
    pub(super) pos: [u8; 24],
    pub(super) odd: bool,
    pub(super) sides: [u8; 2],
}

/// Phase-2 search: IDA* on the sides-with-parity table; the
/// wing split (one wing of each dedge in each class) is tested exactly in the
/// last three moves (the `near_split` module).
///
/// Only 23 of the 28 moves are searched (`Dw Lw2 Bw2` left out): `Dw` is `Uw`
/// followed by the whole-cube turn `y'`, and `Lw2`, `Bw2` are `Rw2`, `Fw2`
/// followed by `x2`, `z2`. The goal is closed under `x2 y2 z2` (they are in the
/// pairing group), so a 28-move solution is a 23-move one that ends in the goal
/// either as the cube is or turned by `y` (F/B centres on R/L). The search takes
/// both frames as goals: a leaf in the turned frame is turned by `y` before
/// phase 3. The tables are distances under all 28 moves to the unturned goal,
/// so each frame's bound reads them on the node as it is or turned by `y`, and a
/// node is pruned when both frames' bounds exceed what is left.
pub(super) struct P2<'a> {
    pub(super) s: &'a Solver,
    /// The ends the threads of a solve have claimed, and this thread.
    pub(super) claims: Option<(&'a Claims, usize)>,
}

impl P2<'_> {
    pub(super) fn h(&self, n: &N2) -> usize {
        (0..2)
            .map(|t| (n.sides[t] as usize).max(self.s.near_split.distance(&n.pos, t)))
            .min()
            .unwrap_or(0)
    }

    /// The frames (bit t: frame t) whose bound is at most `limit`, looking at
    /// the cheap bound first. Near the goal the wings are tested exactly
    /// (see the `near_split` module).
    #[inline]
    pub(super) fn within(&self, n: &N2, limit: usize) -> u8 {
        let mut frames = 0;
        for t in 0..2 {
            if n.sides[t] as usize > limit {
                continue;
            }
            if limit > near_split::MAX_LIMIT || self.s.near_split.reachable(&n.pos, t, limit) {
                frames |= 1 << t;
            }
        }
        frames
    }
}

impl Stage for P2<'_> {
    type Node = N2;

    fn prune(&self, n: &N2, left: usize) -> bool {
        self.within(n, left) == 0
    }

    /// Every path of exactly the length searched that ends in the goal: the
    /// tag is the frame (1: turned by `y`).
    fn goal(&self, n: &N2, left: usize) -> Option<u8> {
        if left > 0 {
            return None;
        }
        // Split: one wing of each dedge in each class. Phase 3 keeps the
        // parity of sigma, and sigma's parity is that of the wing permutation
        // (even here) plus the number of dedges whose high piece sits in the
        // low class: that number must be even too (else OLL parity). At no
        // moves left, `within` tests exactly that, and the side centres.
        let frames = self.within(n, 0);
        (0..2u8).find(|&t| frames & (1 << t) != 0)
    }

    /// Children in two passes: their sides-with-parity entries (both frames)
    /// are prefetched together (the cache misses overlap), then children
    /// failing that bound are counted and dropped before their wings are moved.
    fn expand(&self, n: &N2, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N2)>) -> u64 {
        let s = self.s;
        let left = left - 1;
        let prev = prev.map(|i| s.p2_moves[i]);
        let either = s.sides_either.bytes();
        let mut kids = [(0usize, 0usize, (0u16, 0u16)); 28];
        let mut k = 0;
        for &i in &s.p2_active {
            if !allowed(prev, s.p2_moves[i]) {
                continue;
            }
            let fb = s.sides.apply(n.f, n.b, i);
            let r = s.sides.rank(fb.0, fb.1) as usize;
            let e = 2 * r + (n.odd ^ s.p2_odd[i]) as usize;
            crate::tables::prefetch(either, e >> 1);
            kids[k] = (i, r, fb);
            k += 1;
        }
        let mut dropped = 0;
        for &(i, r, fb) in &kids[..k] {
            let odd = n.odd ^ s.p2_odd[i];
            if nibble(either, 2 * r + odd as usize) > left {
                dropped += 1;
                continue;
            }
            // Each frame's distance, for the survivors only.
            out.push((i, s.step2(n, i, fb, s.frame_sides(fb, r, odd))));
        }
        dropped
    }
}

/// Phase 2 as a link of the chain: its roots are a phase-1 end's node, and
/// an end in the turned frame is turned by `y` (marked 1).
impl Link for P2<'_> {
    fn moves(&self) -> &[Move] {
        &self.s.p2_moves
    }
    fn name(&self) -> &'static str {
        "phase 2"
    }
    fn roots(&self, state: &[u8]) -> Result<Vec<Rooted<N2>>, SolveError> {
        let node = self.s.node2(state)?;
        Ok(vec![Rooted {
            node,
            bound: self.h(&node),
            set: 0,
        }])
    }
    fn land(&self, cube: &CubeN, chain: &Chain, _: u16, path: &[Move], tag: u8) -> (Vec<u8>, u16) {
        let mut s = chain.state.clone();
        cube.apply_alg(&mut s, path);
        if tag == 1 {
            cube.apply(&mut s, super::y_turn());
        }
        (s, tag as u16)
    }
    /// An end another thread of the solve has claimed in as few moves or
    /// fewer is left to it (one found in fewer is taken over: both threads
    /// then have it).
    fn accept(&self, state: &[u8], _: u16, len: usize) -> bool {
        let Some((claims, me)) = self.claims else {
            return true;
        };
        let key = self.s.problem_key(state);
        let Ok(mut claims) = claims.lock() else {
            return true;
        };
        let claim = claims.entry(key).or_insert((me, len));
        if claim.0 != me && len < claim.1 {
            *claim = (me, len);
        }
        claim.0 == me
    }
    /// Ends turned from one another give the same phase 3: one is kept (the
    /// first, whose phases 1 and 2 are no longer).
    fn key(&self, state: &[u8], _: u16) -> Vec<u8> {
        self.s.canonical(state)
    }
}

impl Solver {
    /// The same key for every state that is the same problem as `s` for
    /// phases 2 and 3 and the finish: `s` turned as a whole and its colours
    /// renamed as a whole-cube turn would (the nine phase-1 choices reach
    /// ends related so). The least over the 24 turns of the turned facelets,
    /// each with the renaming that makes them least (found facelet by
    /// facelet: a renaming is fixed by two colours).
    pub(super) fn problem_key(&self, s: &[u8]) -> Vec<u8> {
        let mut best: Option<Vec<u8>> = None;
        let mut maps: Vec<&[u8; 6]> = Vec::with_capacity(24);
        for p in &self.turns24 {
            maps.clear();
            maps.extend(self.recolours24.iter());
            for &i in p {
                if maps.len() < 2 {
                    break;
                }
                let c = s[i as usize] as usize;
                let low = maps.iter().map(|m| m[c]).min().unwrap_or(0);
                maps.retain(|m| m[c] == low);
            }
            let Some(m) = maps.first() else { continue };
            let key: Vec<u8> = p.iter().map(|&i| m[s[i as usize] as usize]).collect();
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
        }
        best.unwrap_or_default()
    }

    /// Phase-2 node of a state whose U/D centres are staged.
    /// An internal error if the wings are not those of a real cube (the
    /// input was checked).
    pub(super) fn node2(&self, state: &[u8]) -> Result<N2, SolveError> {
        let piece = self.wings.read(state).map_err(SolveError::internal)?;
        let mut pos = [0u8; 24];
        for (slot, &p) in piece.iter().enumerate() {
            pos[p as usize] = slot as u8;
        }
        let (f, b) = self.sides.project(state);
        Ok(N2 {
            f,
            b,
            pos,
            odd: odd(&piece),
            sides: self.frame_sides((f, b), self.sides.rank(f, b) as usize, odd(&piece)),
        })
    }

    /// Sides-stage-with-parity distances of side centres `(f, b)` of rank `r`
    /// and wing parity `odd`, as they are and turned by `y`.
    #[inline]
    pub(super) fn frame_sides(&self, (f, b): (u16, u16), r: usize, odd: bool) -> [u8; 2] {
        let tab = self.sides_tab.bytes();
        let (fy, by) = self.sides.apply(f, b, self.p2_moves.len());
        let ry = self.sides.rank(fy, by) as usize;
        [
            nibble(tab, 2 * r + odd as usize) as u8,
            nibble(tab, 2 * ry + odd as usize) as u8,
        ]
    }

    /// Phase-2 child of `n` by move `i`, whose side centres `(f, b)` and their
    /// distances (as is, turned by `y`) are known.
    #[inline]
    pub(super) fn step2(&self, n: &N2, i: usize, (f, b): (u16, u16), sides: [u8; 2]) -> N2 {
        let p = &self.p2_slot[i];
        N2 {
            f,
            b,
            pos: n.pos.map(|x| p[x as usize]),
            odd: n.odd ^ self.p2_odd[i],
            sides,
        }
    }
}
