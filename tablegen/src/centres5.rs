//! The 5x5x5's first stage, its T- and X-centres together: a lossy table of
//! every state within [`MAX_DEPTH`] moves, up to the 16 symmetries of the
//! cube that keep the U-D axis ([`UdJoint`]), the catalog's
//! `5x5x5-ud-stage-hashed`.
//!
//! The two orbits together have 735,471² states, too many to rank densely,
//! and the stage's solutions are 9-11 moves long, well past the exact sparse
//! table's depth of 5. So the states within 7 moves (20,561,744 classes
//! under the symmetries, 328,877,780 states) are found by BFS on the
//! classes, and each class's key is hashed to one of 2^27 buckets. A bucket
//! keeps the least depth hashed to it, so its value is a lower bound for
//! every state whose key falls in it, and a bucket nothing within 7 moves
//! falls in says "at least 8". Stored as crumbs: 0 = no bound (a state
//! within 5 moves is there), 1 = at least 6, 2 = at least 7, 3 = at least
//! 8 ([`bound_of_code`]).
//!
//! A state's key is the least, over the 16 symmetries, of the pair (rank of
//! its T-centre mask, rank of its X-centre mask) in that order; its class
//! has `16 / s` states, where `s` is how many symmetries give the least pair.
//!
//! The states per depth are cube555's published "Phase1CenterSym" figures
//! (cs0x7f/cube555, `PruningValue.txt`: the same 36 moves and goal), checked
//! in the tests; those within 5 moves also against the sparse BFS of the
//! facelet model without symmetry (`5x5x5-ud-stage-d5`).

use crate::cube::CubeN;
use crate::notation::Move;
use crate::progress::Progress;
use crate::projection::{self, apply_maps, FaceletMaskSpace, ProjectionDef};
use crate::ModelError;
use rayon::prelude::*;

/// The BFS's depth: states further away are "at least `MAX_DEPTH + 1`".
pub const MAX_DEPTH: u8 = 7;

/// Buckets of the table: `2^BUCKET_BITS`.
pub const BUCKET_BITS: u32 = 27;

/// Classes per depth within [`MAX_DEPTH`]: orbits of the 16 symmetries
/// (checked in the tests against the states per depth, each class counting
/// `16 / s`). cube555 publishes more "classes" (1, 1, 12, 169, 2,916,
/// 55,768, 1,065,559, 20,009,065): its entries pair a T class with a raw
/// X rank, so a T class with symmetries of its own has several entries for
/// one of these classes. Its states per depth are these.
pub const CLASSES: [u64; 8] = [1, 1, 9, 142, 2_623, 51_793, 1_019_932, 19_487_243];

/// States per depth within [`MAX_DEPTH`] (cube555's published
/// "Phase1CenterSym" counts; the same 36 moves and goal).
pub const STATES: [u64; 8] = [1, 4, 98, 2_036, 41_096, 824_950, 16_300_291, 311_709_304];

/// The least distance a stored crumb says.
#[inline]
pub fn bound_of_code(code: u8) -> u8 {
    match code {
        0 => 0,
        c => MAX_DEPTH - 2 + c.min(3),
    }
}

/// The crumb a distance within [`MAX_DEPTH`] is stored as.
#[inline]
fn code_of(depth: u8) -> u8 {
    depth.saturating_sub(MAX_DEPTH - 2)
}

/// The bucket of a key: a multiplicative hash's top bits.
#[inline]
pub fn bucket(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUCKET_BITS)) as usize
}

/// The 16 maps of positions that keep the U-D (y) axis: `x` and `z` kept or
/// swapped, each coordinate's sign kept or flipped (8 rotations, 8
/// reflections). The first is the identity.
pub fn ud_symmetries() -> Vec<impl Fn([i32; 3]) -> [i32; 3] + Copy> {
    (0..16u8)
        .map(|s| {
            move |p: [i32; 3]| {
                let (a, b) = if s & 8 == 0 {
                    (p[0], p[2])
                } else {
                    (p[2], p[0])
                };
                let sign = |bit: u8, v: i32| if s & bit == 0 { v } else { -v };
                [sign(1, a), sign(2, p[1]), sign(4, b)]
            }
        })
        .collect()
}

/// Stage 1's two orbits and the symmetries on their masks.
pub struct UdJoint {
    /// The T-centres' projection and moves.
    pub t: FaceletMaskSpace,
    /// The X-centres' projection and moves.
    pub x: FaceletMaskSpace,
    /// Per symmetry, its byte maps on T masks and on X masks.
    sym_t: Vec<Vec<[u64; 256]>>,
    sym_x: Vec<Vec<[u64; 256]>>,
    /// Ranks of the X projection (the key is `t * radix + x`).
    radix: u64,
}

/// What the BFS found: the crumbs, the classes and states per depth.
pub struct JointBuild {
    /// One crumb per bucket.
    pub codes: Vec<u8>,
    /// Classes per depth.
    pub classes: Vec<u64>,
    /// States per depth.
    pub states: Vec<u64>,
    /// Class-move expansions done.
    pub expansions: u64,
}

impl UdJoint {
    /// The two projections (both of a 5x5x5, each one block) under
    /// `moves`, which the 16 symmetries must map to themselves.
    pub fn new(
        t: &ProjectionDef,
        x: &ProjectionDef,
        moves: &[Move],
    ) -> Result<UdJoint, ModelError> {
        let bad = ModelError::Symmetry;
        let ts = projection::build(t, moves)?;
        let xs = projection::build(x, moves)?;
        if t.n != 5 || x.n != 5 || !ts.is_dense() || !xs.is_dense() {
            return Err(bad("two dense 5x5x5 projections are needed"));
        }
        let cube = CubeN::new(5);
        let mut move_perms = Vec::new();
        for &m in moves {
            cube.check_move(m)?;
            move_perms.push(cube.perm(m).to_vec());
        }
        let (mut sym_t, mut sym_x) = (Vec::new(), Vec::new());
        for s in ud_symmetries() {
            let p = cube.symmetry(s);
            // s·m·s⁻¹ must be a move of the set for every move m.
            let mut inv = vec![0u16; p.len()];
            for (j, &i) in p.iter().enumerate() {
                inv[i as usize] = j as u16;
            }
            for m in &move_perms {
                // (p ∘ m ∘ p⁻¹)[j] = inv[m[p[j]]] in the perm convention.
                let c: Vec<u16> = p.iter().map(|&i| inv[m[i as usize] as usize]).collect();
                if !move_perms.contains(&c) {
                    return Err(bad("a symmetry does not keep the move set"));
                }
            }
            sym_t.push(
                ts.perm_maps(&p)
                    .ok_or_else(|| bad("a symmetry leaves the T-centres"))?,
            );
            sym_x.push(
                xs.perm_maps(&p)
                    .ok_or_else(|| bad("a symmetry leaves the X-centres"))?,
            );
        }
        let moved =
            |maps: &[Vec<[u64; 256]>], goal: u64| maps.iter().any(|m| apply_maps(m, goal) != goal);
        if moved(&sym_t, ts.goal_mask()) || moved(&sym_x, xs.goal_mask()) {
            return Err(bad("a symmetry moves the goal"));
        }
        let radix = crate::bfs::Space::size(&xs);
        Ok(UdJoint {
            t: ts,
            x: xs,
            sym_t,
            sym_x,
            radix,
        })
    }

    /// The key of a state (T and X masks) and how many symmetries give it.
    #[inline]
    pub fn key(&self, t: u64, x: u64) -> (u64, u32) {
        let mut best_t = u64::MAX;
        let mut at = 0u16;
        for (s, maps) in self.sym_t.iter().enumerate() {
            let r = self.t.rank(apply_maps(maps, t));
            if r < best_t {
                best_t = r;
                at = 1 << s;
            } else if r == best_t {
                at |= 1 << s;
            }
        }
        if at.count_ones() == 1 {
            let s = at.trailing_zeros() as usize;
            let r = self.x.rank(apply_maps(&self.sym_x[s], x));
            return (best_t * self.radix + r, 1);
        }
        let mut best_x = u64::MAX;
        let mut count = 0;
        for s in 0..16 {
            if at >> s & 1 == 1 {
                let r = self.x.rank(apply_maps(&self.sym_x[s], x));
                if r < best_x {
                    best_x = r;
                    count = 1;
                } else if r == best_x {
                    count += 1;
                }
            }
        }
        (best_t * self.radix + best_x, count)
    }

    /// The masks of a key's state (its class's representative).
    #[inline]
    pub fn masks(&self, key: u64) -> (u64, u64) {
        (
            self.t.unrank(key / self.radix),
            self.x.unrank(key % self.radix),
        )
    }

    /// The BFS of the classes to [`MAX_DEPTH`] and the crumbs of the
    /// buckets. The same whatever the number of threads: each layer is
    /// sorted, and a bucket keeps a minimum.
    pub fn build(&self, progress: &Progress) -> JointBuild {
        let n = self.t.moves();
        let (goal, stab) = self.key(self.t.goal_mask(), self.x.goal_mask());
        let mut codes = vec![code_of(MAX_DEPTH + 1); 1 << BUCKET_BITS];
        codes[bucket(goal)] = 0;
        let mut seen: std::collections::HashSet<u64> = [goal].into_iter().collect();
        // A layer holds `key << 5 | symmetries giving it` (a key is below 2^40).
        let mut layer = vec![goal << 5 | stab as u64];
        let mut classes = vec![1u64];
        let mut states = vec![16 / stab as u64];
        let mut expansions = 0u64;
        for depth in 1..=MAX_DEPTH {
            expansions += layer.len() as u64 * n as u64;
            let mut next: Vec<u64> = layer
                .par_iter()
                .flat_map_iter(|&k| {
                    let (t, x) = self.masks(k >> 5);
                    (0..n).map(move |m| {
                        let (key, s) = self.key(self.t.apply(t, m), self.x.apply(x, m));
                        key << 5 | s as u64
                    })
                })
                .collect();
            next.par_sort_unstable();
            next.dedup();
            next.retain(|&k| !seen.contains(&(k >> 5)));
            if depth < MAX_DEPTH {
                seen.extend(next.iter().map(|&k| k >> 5));
            }
            let code = code_of(depth);
            for &k in &next {
                let b = bucket(k >> 5);
                codes[b] = codes[b].min(code);
            }
            classes.push(next.len() as u64);
            states.push(next.iter().map(|&k| 16 / (k & 31)).sum());
            progress.update(
                classes.iter().sum(),
                &format!("depth {depth}: {} classes", next.len()),
            );
            layer = next;
        }
        progress.finish();
        JointBuild {
            codes,
            classes,
            states,
            expansions,
        }
    }
}
