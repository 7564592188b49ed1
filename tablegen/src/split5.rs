//! Stage 3 of the 5x5x5 as one table: which wing slots hold high wings
//! together with the midges' flips ([`SplitEo`], `5x5x5-split-eo`).
//!
//! Stage 3 ends with every high wing in a high slot and every midge
//! oriented. Its two parts have tables of their own (`5x5x5-wings-split`,
//! the flips inside `5x5x5-fb-centres-eo`), each short where the two
//! together are long. Together they are C(24,12) x 2^11 = 5.5e9 states, too
//! many to store, so the table is taken up to symmetry:
//!
//! - the 16 symmetries of the cube that keep the F-B axis (four quarter
//!   turns about it, the half turn that swaps F and B, each with or without
//!   the left-right mirror). Stage 3's moves and its goal are theirs: a
//!   midge's orientation is Kociemba's for the F-B axis (only F and B
//!   quarter turns flip), which these symmetries keep, and a reflection
//!   swaps the two wing classes, so it takes "high wings in high slots" to
//!   "low wings in low slots", the same set of states;
//! - the swap of the two wing classes together with every midge flipped.
//!   It commutes with every move, so a distance to the goal or to its
//!   swapped form (the cube with all twelve tredges flipped) is the same for
//!   a state and its swap. The table holds that distance: a lower bound of
//!   the distance to the goal alone, and exact where the swapped goal is the
//!   farther, as it is for states near the goal.
//!
//! The wing splits fall into 86,048 classes under these 32 symmetries
//! (Burnside's count, checked in the tests; cube555's phase-3 table has the
//! same number of classes). An entry is `class * 2048 + flips`, the flips
//! taken by the symmetry that takes the split to its class's least mask;
//! where symmetries fix that mask, the least of the flips' images among them
//! is the one the search reads (every entry holds its real state's distance
//! all the same).

use crate::bfs::{DenseResult, Space};
use crate::cube::CubeN;
use crate::cube5::{MidgeEoSpace, Tredges, WingsSplitSpace};
use crate::notation::Move;
use crate::ModelError;

/// The symmetries: 16 of the cube, each also with the class swap.
pub const SPLIT_EO_SYMS: usize = 32;

/// Classes of wing splits under the 32 symmetries.
pub const SPLIT_EO_CLASSES: u64 = 86_048;

/// C(23, 12): the splits without slot 23, the first of the colex order.
const LOW_SETS: u64 = 1_352_078;

/// Entries of `5x5x5-split-eo`: classes x 2^11 flips.
pub const SPLIT_EO_ENTRIES: u64 = SPLIT_EO_CLASSES * 2048;

/// Words of `5x5x5-split-eo-classes` ([`SplitEo::words`]): a class and
/// symmetry per split without slot 23, then each class's least mask and
/// stabiliser.
pub const SPLIT_EO_CLASS_WORDS: u64 = LOW_SETS + 2 * SPLIT_EO_CLASSES;

/// One symmetry acting on the two coordinates: wing slot `s` goes to
/// `wings[s]`, midge slot `s` to `mids[s]`, then the masks are XORed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Act {
    wings: [u8; 24],
    mids: [u8; 12],
    mask_xor: u32,
    eo_xor: u16,
}

impl Act {
    /// The mask's image by byte: `maps[b][v]` is the image of value `v` in
    /// byte `b` (the XOR not included).
    fn byte_maps(&self) -> [[u32; 256]; 3] {
        std::array::from_fn(|b| {
            std::array::from_fn(|v| {
                (0..8)
                    .filter(|j| v >> j & 1 == 1)
                    .fold(0, |m, j| m | 1 << self.wings[8 * b + j])
            })
        })
    }

    fn mask(&self, m: u32) -> u32 {
        let mut out = 0;
        for s in 0..24 {
            out |= (m >> s & 1) << self.wings[s];
        }
        out ^ self.mask_xor
    }

    fn eo(&self, e: u16) -> u16 {
        let mut out = 0;
        for s in 0..12 {
            out |= (e >> s & 1) << self.mids[s];
        }
        out ^ self.eo_xor
    }

    /// `self` after `first`.
    fn after(&self, first: &Act) -> Act {
        Act {
            wings: std::array::from_fn(|s| self.wings[first.wings[s] as usize]),
            mids: std::array::from_fn(|s| self.mids[first.mids[s] as usize]),
            mask_xor: self.mask(first.mask_xor),
            eo_xor: self.eo(first.eo_xor),
        }
    }
}

/// The wing and midge slot maps of a symmetry of the cube given as the
/// linear map of positions (see [`CubeN::symmetry`]): where the piece of
/// each slot goes when the cube is conjugated by it.
fn geometric_act(map: impl Fn([i32; 3]) -> [i32; 3], mirror: bool) -> Result<Act, ModelError> {
    let to = Tredges::new().wing_images(&CubeN::new(5).symmetry(map), mirror)?;
    // Midge slot `e` lies between wing slots `e` and `12 + e`.
    let mids = std::array::from_fn(|e| to[e] % 12);
    let high = Act {
        wings: to,
        mids,
        mask_xor: 0,
        eo_xor: 0,
    };
    // A reflection takes the high slots to the low ones: the slots then
    // holding high wings are the complement of the image.
    let mask_xor = if high.mask(0xfff) == 0xfff {
        0
    } else {
        0xff_ffff
    };
    Ok(Act { mask_xor, ..high })
}

/// The 16 symmetries that keep the F-B axis (the z coordinate of
/// [`CubeN::geometry`]), the identity first.
fn fb_symmetries() -> Result<Vec<Act>, ModelError> {
    let mut out = Vec::new();
    for swap in [false, true] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                for sz in [1, -1] {
                    let map = move |[x, y, z]: [i32; 3]| {
                        let (a, b) = if swap { (y, x) } else { (x, y) };
                        [sx * a, sy * b, sz * z]
                    };
                    // A reflection reverses orientation: an odd number of
                    // sign changes, with or without the swap.
                    let negs = [sx, sy, sz].iter().filter(|&&v| v < 0).count();
                    let mirror = (negs % 2 == 1) != swap;
                    out.push(geometric_act(map, mirror)?);
                }
            }
        }
    }
    Ok(out)
}

/// A state of the split and flips for the symmetries' checks: twelve of the
/// 24 wing slots and the flips picked by a mix of `j` (splitmix64).
fn sample(j: u64) -> (u32, u16) {
    let mut x = j.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (x ^ x >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ z >> 31
    };
    let mut slots: [u8; 24] = std::array::from_fn(|s| s as u8);
    for i in (1..24).rev() {
        slots.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mask = slots[..12].iter().fold(0u32, |m, &s| m | 1 << s);
    (mask, MidgeEoSpace::unrank(next() % 2048))
}

/// The wing split with the midge flips up to [`SPLIT_EO_SYMS`] symmetries,
/// and its moves: the ranked space of `5x5x5-split-eo`.
pub struct SplitEo {
    /// The wing split's moves.
    pub split: WingsSplitSpace,
    /// Per move, the flips' image (`eo_moves[i * 4096 + mask]`).
    eo_moves: Vec<u16>,
    /// Per symmetry, its mask maps by byte and its XOR.
    mask_acts: Vec<([[u32; 256]; 3], u32)>,
    /// Per symmetry, the flips' image (`eo_acts[k * 4096 + mask]`).
    eo_acts: Vec<u16>,
    /// The classes ([`SplitEo::words`]): per rank of a split without slot
    /// 23 (the first C(23,12) ranks), its class and a symmetry taking it to
    /// the class's least mask (`class << 5 | k`; a split with slot 23 is
    /// read as its swap, the complement with the flips all turned, one of
    /// the symmetries); then per class its least mask; then per class the
    /// symmetries fixing its least mask, as bits.
    classes: crate::Words,
}

/// Where the least masks start in [`SplitEo::words`].
const REPS_AT: usize = LOW_SETS as usize;
/// Where the stabilisers start in [`SplitEo::words`].
const STABS_AT: usize = (LOW_SETS + SPLIT_EO_CLASSES) as usize;

impl SplitEo {
    /// The space under `moves` (stage 3's), its symmetries checked: each
    /// maps every move to a move (on a sample of states) and the goal to
    /// the goal or its swapped form; its classes found (about 1.35 million
    /// splits, each given its class).
    pub fn new(moves: &[Move]) -> Result<SplitEo, ModelError> {
        let (mut space, inverse) = SplitEo::without_classes(moves)?;
        space.find_classes(&inverse);
        Ok(space)
    }

    /// The space under `moves` with its classes as [`SplitEo::words`] gave
    /// them (the table `5x5x5-split-eo-classes`): nothing is searched. The
    /// words are checked for their count and, on a sample, against the
    /// symmetries: the symmetry the words give 64 sampled splits takes each
    /// to its class's least mask, and the stabilisers of those classes and
    /// of the solved one are the symmetries that fix their least masks.
    pub fn with_classes(moves: &[Move], words: crate::Words) -> Result<SplitEo, ModelError> {
        const BAD: ModelError =
            ModelError::Symmetry("the split's classes do not match its symmetries");
        if words.len() as u64 != SPLIT_EO_CLASS_WORDS {
            return Err(BAD);
        }
        let (mut space, _) = SplitEo::without_classes(moves)?;
        space.classes = words;
        // Spot checks: the least mask of class 0 is solved's; sampled
        // splits' entries name their class and a symmetry taking them to
        // its least mask; a class's stabiliser is the symmetries that fix
        // its least mask.
        let stab_ok = |c: usize| {
            let rep = space.rep(c);
            (0..SPLIT_EO_SYMS)
                .all(|t| (space.stab(c) >> t & 1 == 1) == (space.act(t, rep, 0).0 == rep))
        };
        if space.rep(0) != 0xfff || !stab_ok(0) {
            return Err(BAD);
        }
        for j in 0..64u64 {
            let (m, _) = sample(j);
            let m = if m >> 23 == 0 { m } else { !m & 0xff_ffff };
            let k = space.classes.get(space.split.rank(m) as usize);
            let (c, sym) = ((k >> 5) as usize, k as usize & 31);
            if c as u64 >= SPLIT_EO_CLASSES || space.act(sym, m, 0).0 != space.rep(c) || !stab_ok(c)
            {
                return Err(BAD);
            }
        }
        Ok(space)
    }

    /// Class `c`'s least mask.
    #[inline]
    pub fn rep(&self, c: usize) -> u32 {
        self.classes.get(REPS_AT + c)
    }

    /// The symmetries fixing class `c`'s least mask, as bits.
    #[inline]
    fn stab(&self, c: usize) -> u32 {
        self.classes.get(STABS_AT + c)
    }

    /// The classes as words: per split without slot 23 (colex rank), its
    /// class and a symmetry taking it to the class's least mask (`class << 5
    /// | k`); then each class's least mask; then each class's stabiliser (bit
    /// `k`: symmetry `k` fixes the least mask).
    pub fn words(&self) -> Vec<u32> {
        self.classes.to_vec()
    }

    /// Everything but the classes, and each symmetry's inverse.
    fn without_classes(moves: &[Move]) -> Result<(SplitEo, Vec<usize>), ModelError> {
        let split = WingsSplitSpace::new(moves)?;
        let eo = MidgeEoSpace::new(moves)?;
        let eo_moves: Vec<u16> = (0..moves.len())
            .flat_map(|i| (0..4096u16).map(move |m| (i, m)))
            .map(|(i, m)| eo.apply(m, i))
            .collect();
        let swap = Act {
            wings: std::array::from_fn(|s| s as u8),
            mids: std::array::from_fn(|s| s as u8),
            mask_xor: 0xff_ffff,
            eo_xor: 0xfff,
        };
        let mut acts = fb_symmetries()?;
        let swapped: Vec<Act> = acts.iter().map(|a| swap.after(a)).collect();
        acts.extend(swapped);
        let mask_acts: Vec<([[u32; 256]; 3], u32)> =
            acts.iter().map(|a| (a.byte_maps(), a.mask_xor)).collect();
        let image = |k: usize, m: u32| -> u32 {
            let ([a, b, c], x) = &mask_acts[k];
            (a[(m & 0xff) as usize] | b[(m >> 8 & 0xff) as usize] | c[(m >> 16) as usize]) ^ x
        };
        let n = moves.len();
        for (k, a) in acts.iter().enumerate() {
            let goal = a.mask(0xfff);
            let ok_goal = (goal, a.eo(0)) == (0xfff, 0) || (goal, a.eo(0)) == (0xfff000, 0xfff);
            if !ok_goal {
                return Err(ModelError::Symmetry("a symmetry moves stage 3's goal"));
            }
            // Each move's image under the symmetry is a move: the children's
            // images are the image's children, on a sample of states.
            let kept = (0..64u64).all(|j| {
                let (m, e) = sample(j);
                let mut kids: Vec<(u32, u16)> = (0..n)
                    .map(|i| {
                        (
                            image(k, split.apply(m, i)),
                            a.eo(eo_moves[i * 4096 + e as usize]),
                        )
                    })
                    .collect();
                let (im, ie) = (image(k, m), a.eo(e));
                let mut want: Vec<(u32, u16)> = (0..n)
                    .map(|i| (split.apply(im, i), eo_moves[i * 4096 + ie as usize]))
                    .collect();
                kids.sort_unstable();
                want.sort_unstable();
                kids == want
            });
            if !kept {
                return Err(ModelError::Symmetry(
                    "a symmetry does not keep stage 3's moves",
                ));
            }
        }
        let eo_acts = acts
            .iter()
            .flat_map(|a| (0..4096u16).map(move |e| a.eo(e)))
            .collect();
        // The inverse of each symmetry, by search in the group.
        let inverse: Vec<usize> = acts
            .iter()
            .map(|a| {
                acts.iter()
                    .position(|b| b.after(a) == acts[0])
                    .ok_or(ModelError::Symmetry("the symmetries are not a group"))
            })
            .collect::<Result<_, _>>()?;
        Ok((
            SplitEo {
                split,
                eo_moves,
                mask_acts,
                eo_acts,
                classes: crate::Words::Owned(Vec::new()),
            },
            inverse,
        ))
    }

    /// Finds the classes: each split's least image under the symmetries.
    fn find_classes(&mut self, inverse: &[usize]) {
        // 2 MB pages (fewer faults) and room for every word from the start
        // (no copies as they grow).
        let mut class_of = crate::huge_vec(SPLIT_EO_CLASS_WORDS as usize);
        class_of.resize(LOW_SETS as usize, u32::MAX);
        let mut reps = Vec::with_capacity(SPLIT_EO_CLASSES as usize);
        let mut stabs = Vec::with_capacity(SPLIT_EO_CLASSES as usize);
        // Masks of 12 bits in increasing order are in rank (colex) order.
        let mut m: u32 = 0xfff;
        for r in 0..LOW_SETS {
            if r > 0 {
                let low = m & m.wrapping_neg();
                let ripple = m + low;
                m = ripple | (((m ^ ripple) >> 2) >> low.trailing_zeros());
            }
            if class_of[r as usize] != u32::MAX {
                continue;
            }
            let c = reps.len() as u32;
            reps.push(m);
            let mut stab = 0u32;
            // The least `k` taking the least mask to each image is written
            // last (stores only: this loop is the classes' whole cost, and
            // a read of each image's entry first would wait on memory).
            for (k, &inv) in inverse.iter().enumerate().rev() {
                let f = self.mask_image(k, m);
                if f == m {
                    stab |= 1 << k;
                }
                // `k` takes the least mask to `f`: its inverse takes `f`
                // back. (The image's swap, also an image, holds slot 23.)
                if f >> 23 == 0 {
                    class_of[self.split.rank(f) as usize] = c << 5 | inv as u32;
                }
            }
            stabs.push(stab);
        }
        class_of.extend_from_slice(&reps);
        class_of.extend_from_slice(&stabs);
        self.classes = crate::Words::Owned(class_of);
    }

    /// Bytes of the classes' words (`5x5x5-split-eo-classes`).
    pub fn class_bytes(&self) -> u64 {
        4 * self.classes.len() as u64
    }

    /// Classes (least masks) found.
    pub fn classes(&self) -> u64 {
        (self.classes.len() - REPS_AT) as u64 / 2
    }

    /// Entries of the table: classes x 2048.
    pub fn entries(&self) -> u64 {
        self.classes() * 2048
    }

    /// The flips' image under move `i`.
    #[inline]
    pub fn eo_move(&self, eo: u16, i: usize) -> u16 {
        self.eo_moves[i * 4096 + eo as usize]
    }

    /// The entry of a split mask (bit `s`: slot `s` holds a high wing) with
    /// the midges' flips (bit `s`: the midge in slot `s` is flipped).
    #[inline]
    pub fn index(&self, mask: u32, eo: u16) -> u64 {
        let (mask, eo) = if mask >> 23 == 0 {
            (mask, eo)
        } else {
            (!mask & 0xff_ffff, eo ^ 0xfff)
        };
        let k = self.classes.get(self.split.rank(mask) as usize);
        let class = (k >> 5) as usize;
        let first = self.eo_acts[(k as usize & 31) * 4096 + eo as usize];
        let mut e = first;
        let mut stab = self.stab(class) & !1;
        while stab != 0 {
            let t = stab.trailing_zeros() as usize;
            stab &= stab - 1;
            e = e.min(self.eo_acts[t * 4096 + first as usize]);
        }
        class as u64 * 2048 + MidgeEoSpace::rank(e)
    }

    /// The state an entry names: its class's least mask with its flips.
    pub fn state_of(&self, index: u64) -> (u32, u16) {
        (
            self.rep((index / 2048) as usize),
            MidgeEoSpace::unrank(index % 2048),
        )
    }

    /// The states of the whole space an entry stands for: the size of its
    /// class's orbit.
    pub fn weight(&self, index: u64) -> u64 {
        (SPLIT_EO_SYMS / self.stab((index / 2048) as usize).count_ones() as usize) as u64
    }

    /// The symmetries' action on a split mask and flips (for the tests).
    pub fn act(&self, k: usize, mask: u32, eo: u16) -> (u32, u16) {
        (
            self.mask_image(k, mask),
            self.eo_acts[k * 4096 + eo as usize],
        )
    }

    /// Symmetry `k`'s image of a split mask.
    #[inline]
    fn mask_image(&self, k: usize, m: u32) -> u32 {
        let ([a, b, c], x) = &self.mask_acts[k];
        (a[(m & 0xff) as usize] | b[(m >> 8 & 0xff) as usize] | c[(m >> 16) as usize]) ^ x
    }
}

impl Space for SplitEo {
    fn size(&self) -> u64 {
        self.entries()
    }
    fn goals(&self) -> Vec<u64> {
        vec![self.index(0xfff, 0)]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let (mask, eo) = self.state_of(rank);
        for i in 0..self.split.moves.len() {
            if !f(self.index(self.split.apply(mask, i), self.eo_move(eo, i))) {
                return;
            }
        }
    }
}

/// Builds `5x5x5-split-eo-classes`: [`SplitEo::words`], and the sizes of
/// its three parts (the splits without slot 23, the least masks, the
/// stabilisers) as its histogram.
pub fn build_split_eo_classes(moves: &[Move]) -> Result<(Vec<u32>, Vec<u64>), ModelError> {
    let space = SplitEo::new(moves)?;
    if space.classes() != SPLIT_EO_CLASSES {
        return Err(ModelError::Symmetry(
            "another class count than SPLIT_EO_CLASSES",
        ));
    }
    let parts = vec![LOW_SETS, space.classes(), space.classes()];
    Ok((space.words(), parts))
}

/// Builds `5x5x5-split-eo`: a BFS over the entries, each child read as its
/// least entry; then the entries no child reads (the other flips of a class
/// whose least mask some symmetry fixes) copied from the one that is read.
/// The entries, their histogram and the BFS's expansions.
pub fn build_split_eo(
    moves: &[Move],
    progress: &crate::progress::Progress,
) -> Result<(Vec<u8>, Vec<u64>, u64), ModelError> {
    use rayon::prelude::*;
    let space = SplitEo::new(moves)?;
    if space.classes() != SPLIT_EO_CLASSES {
        return Err(ModelError::Symmetry(
            "another class count than SPLIT_EO_CLASSES",
        ));
    }
    let DenseResult {
        mut depth,
        expansions,
        ..
    } = crate::bfs::dense_bfs(&space, progress);
    let fixes: Vec<(usize, u8)> = (0..space.entries())
        .into_par_iter()
        .filter(|&i| space.stab((i / 2048) as usize) != 1)
        .map(|i| {
            let (m, e) = space.state_of(i);
            (i as usize, depth[space.index(m, e) as usize])
        })
        .collect();
    for (i, d) in fixes {
        depth[i] = d;
    }
    let mut histogram = Vec::new();
    for &d in &depth {
        if d == crate::bfs::UNREACHED {
            return Err(ModelError::Symmetry("an entry names a state never reached"));
        }
        if histogram.len() <= d as usize {
            histogram.resize(d as usize + 1, 0);
        }
        histogram[d as usize] += 1;
    }
    Ok((depth, histogram, expansions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube5::SPLIT_SETS;

    /// The byte-table colex rank of a split is the rank of its mask.
    #[test]
    fn split_ranks_round_trip() {
        let s = WingsSplitSpace::new(&crate::catalog::axis_moves()).unwrap();
        for r in 0..SPLIT_SETS {
            assert_eq!(s.rank(s.unrank_mask(r)), r);
        }
    }

    /// An entry's state reads back as the entry, and a state and each of
    /// its images under the symmetries read as one entry.
    #[test]
    fn images_read_as_one_entry() {
        let space = SplitEo::new(&crate::catalog::axis_moves()).unwrap();
        for i in (0..space.entries()).step_by(999_983) {
            let (m, e) = space.state_of(i);
            let want = space.index(m, e);
            assert_eq!(want / 2048, i / 2048);
            for k in 0..SPLIT_EO_SYMS {
                let (m2, e2) = space.act(k, m, e);
                assert_eq!(space.index(m2, e2), want, "entry {i}, symmetry {k}");
            }
        }
    }
}
