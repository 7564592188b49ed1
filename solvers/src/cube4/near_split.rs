//! An exact test of phase 2's wing goal near it: can some path of at most
//! `limit` phase-2 moves leave every dedge with one wing in each class and an
//! even number of them flipped?
//!
//! Of the 23 moves phase 2 searches, only `Uw`, `Uw'`, `F`, `F'`, `B` and `B'`
//! move wings from one class to the other (4, 8 and 8 of them); the others
//! only permute the slots within each class. So what a path does to the split
//! is fixed by one set of slots: those whose wings end in the other class (the
//! path's *toggle set*). Paths of at most three moves have 577 distinct toggle
//! sets. The test reads, for each dedge, the toggle sets holding each of its
//! two slots as bitsets, and keeps the sets that toggle exactly one wing of
//! each dedge in one class and both or neither of each other dedge, with the
//! flip count's parity right: no loop over the sets.
//!
//! Near the goal the split tables' bound is weak (a nearly split cube is
//! common, a split one rare): at two moves left this test passes about one
//! node in fifteen of those the tables let through.

/// Paths of at most this many moves are tested.
pub(super) const MAX_LIMIT: usize = 3;
/// 64-bit words of a bitset over one frame's toggle sets (577 of them).
const WORDS: usize = 10;

type Bits = [u64; WORDS];

pub(super) struct NearSplit {
    /// Per frame (0: as is, 1: turned by `y`), per wing slot (numbered as in
    /// frame 0): the toggle sets, as that frame numbers its slots, that hold
    /// the slot.
    has: [[Bits; 24]; 2],
    /// Per frame: the slots (numbered as in frame 0) in that frame's low class.
    low: [u32; 2],
    /// Per frame, per limit: the toggle sets of paths of at most that many moves.
    within: [[Bits; MAX_LIMIT + 1]; 2],
    /// Per limit: the words that hold any of its sets.
    words: [usize; MAX_LIMIT + 1],
}

impl NearSplit {
    /// The toggle sets of every path of `moves` (wing slot images, the moves
    /// phase 2 searches) of at most [`MAX_LIMIT`] moves, in frame 0 and in
    /// the frame turned by `y` (`y_slot`). Paths a search would not make (two
    /// turns of one face in a row) are included: the test stays a bound.
    pub(super) fn new(moves: &[[u8; 24]], y_slot: &[u8; 24]) -> NearSplit {
        let low_of = |s: usize| s >= 12;
        let mut has = [[[0u64; WORDS]; 24]; 2];
        let mut within = [[[0u64; WORDS]; MAX_LIMIT + 1]; 2];
        let mut words = [0usize; MAX_LIMIT + 1];
        let mut low = [0u32; 2];
        for (s, &ys) in y_slot.iter().enumerate() {
            if low_of(s) {
                low[0] |= 1 << s;
            }
            if low_of(ys as usize) {
                low[1] |= 1 << s;
            }
        }
        for t in 0..2 {
            // Frame t's class of the slot numbered `s` in frame 0.
            let low_t = |s: usize| low[t] >> s & 1 == 1;
            let mut seen: std::collections::HashMap<u32, usize> = Default::default();
            let mut paths: Vec<[u8; 24]> = vec![std::array::from_fn(|i| i as u8)];
            for limit in 0..=MAX_LIMIT {
                for p in &paths {
                    // Toggle set in frame-0 numbering: the slots whose wing
                    // ends in the other class of frame t.
                    let set = (0..24)
                        .filter(|&s| low_t(s) != low_t(p[s] as usize))
                        .fold(0u32, |m, s| m | 1 << s);
                    let n = seen.len();
                    let i = *seen.entry(set).or_insert(n);
                    assert!(i < 64 * WORDS, "more toggle sets than the bitsets hold");
                    if i == n {
                        for (s, h) in has[t].iter_mut().enumerate() {
                            if set >> s & 1 == 1 {
                                h[i / 64] |= 1 << (i % 64);
                            }
                        }
                    }
                    within[t][limit][i / 64] |= 1 << (i % 64);
                    words[limit] = words[limit].max(i / 64 + 1);
                }
                if limit < MAX_LIMIT {
                    paths = paths
                        .iter()
                        .flat_map(|p| moves.iter().map(move |m| p.map(|x| m[x as usize])))
                        .collect();
                    paths.sort_unstable();
                    paths.dedup();
                }
            }
        }
        NearSplit {
            has,
            low,
            within,
            words,
        }
    }

    /// Some path of at most `limit` (<= [`MAX_LIMIT`]) moves leaves the wings
    /// at `pos` (the slot of each wing, frame-0 numbering; wing `d` and `d + 12`
    /// are one dedge's) split with an even number flipped in frame `t`.
    #[inline]
    pub(super) fn reachable(&self, pos: &[u8; 24], t: usize, limit: usize) -> bool {
        let n = self.words[limit];
        let mut ok = self.within[t][limit];
        let mut par = [0u64; WORDS];
        let mut flipped = 0;
        let has = &self.has[t];
        for d in 0..12 {
            let (a, b) = (pos[d] as usize, pos[d + 12] as usize);
            let (la, lb) = (self.low[t] >> a & 1, self.low[t] >> b & 1);
            // Dedge d is flipped (its first wing low) if that wing is not toggled...
            flipped ^= la;
            // ...and split if exactly one of its wings is toggled when both are
            // in one class, both or neither when they are not.
            let same = 0u64.wrapping_sub((la == lb) as u64);
            for w in 0..n {
                ok[w] &= !(has[a][w] ^ has[b][w] ^ same);
                par[w] ^= has[a][w];
            }
        }
        // An even number flipped: the first wings toggled as many, mod 2, as
        // are flipped now.
        let want = 0u64.wrapping_sub(flipped as u64);
        (0..n).any(|w| ok[w] & !(par[w] ^ want) != 0)
    }

    /// The least number of moves (at most [`MAX_LIMIT`]) after which the
    /// wings at `pos` can be split with an even number flipped in frame `t`;
    /// `MAX_LIMIT + 1` if none is.
    pub(super) fn distance(&self, pos: &[u8; 24], t: usize) -> usize {
        (0..=MAX_LIMIT)
            .find(|&l| self.reachable(pos, t, l))
            .unwrap_or(MAX_LIMIT + 1)
    }
}
