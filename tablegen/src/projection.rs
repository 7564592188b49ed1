//! Facelet projections: a set of tracked facelets of an NxNxN cube where each is
//! either "marked" (one merged colour class, e.g. U and D centres) or not, every
//! other facelet being "don't care".
//!
//! The tracked facelets are grouped into blocks that the move set never mixes (for
//! instance the U and D centres once the centres are staged). A state is a bitmask
//! over the tracked facelets; its rank is a mixed-radix number whose digits are the
//! colexicographic ranks of each block's sub-mask, a perfect hash onto
//! `0..prod C(block size, marked in block)`.

use crate::bfs::Space;
use crate::cube::CubeN;
use crate::notation::{Face, Move};
use crate::ModelError;

/// Which facelets of every face a projection tracks: `(row, col)` within a face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Orbit {
    /// All centre facelets `(r, c)` with `1 <= r, c <= n-2` (4x4x4: the 24 centres).
    AllCentres,
    /// Odd cubes: X-centres `(k, k)` style at distance `k` from the edge, the four
    /// diagonal facelets `(k,k) (k,n-1-k) (n-1-k,k) (n-1-k,n-1-k)`.
    XCentres(usize),
    /// Odd cubes: T-centres (midline facelets at distance `k` from the edge).
    TCentres(usize),
    /// Several orbits tracked together.
    Union(Vec<Orbit>),
}

impl Orbit {
    fn cells(&self, n: usize) -> Vec<(usize, usize)> {
        match *self {
            Orbit::AllCentres => (1..n - 1)
                .flat_map(|r| (1..n - 1).map(move |c| (r, c)))
                .collect(),
            Orbit::XCentres(k) => {
                let f = n - 1 - k;
                vec![(k, k), (k, f), (f, k), (f, f)]
            }
            Orbit::TCentres(k) => {
                let mid = n / 2;
                let f = n - 1 - k;
                vec![(k, mid), (mid, k), (mid, f), (f, mid)]
            }
            Orbit::Union(ref parts) => parts.iter().flat_map(|o| o.cells(n)).collect(),
        }
    }

    /// A short stable name for definition hashes.
    pub fn describe(&self) -> String {
        match self {
            Orbit::AllCentres => "centres".into(),
            Orbit::XCentres(k) => format!("x-centres@{k}"),
            Orbit::TCentres(k) => format!("t-centres@{k}"),
            Orbit::Union(parts) => {
                let p: Vec<String> = parts.iter().map(|o| o.describe()).collect();
                p.join("+")
            }
        }
    }
}

/// One block: the tracked facelets of `faces` (in the orbit), of which those whose
/// solved colour is in `marked` form the merged class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Faces whose orbit facelets form the block.
    pub faces: Vec<Face>,
    /// Solved colours that form the marked class.
    pub marked: Vec<Face>,
}

/// A projection definition (data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectionDef {
    /// Cube size.
    pub n: usize,
    /// Tracked facelets of each face.
    pub orbit: Orbit,
    /// Blocks, in rank order (the first block is the most significant digit).
    pub blocks: Vec<Block>,
}

impl ProjectionDef {
    /// A stable text for the definition hash.
    pub fn describe(&self) -> String {
        let blocks: Vec<String> = self
            .blocks
            .iter()
            .map(|b| {
                let f: String = b.faces.iter().map(|f| f.letter()).collect();
                let m: String = b.marked.iter().map(|f| f.letter()).collect();
                format!("{f}:{m}")
            })
            .collect();
        format!(
            "facelet-mask n={} orbit={} blocks={} rank=colex-mixed-radix",
            self.n,
            self.orbit.describe(),
            blocks.join(",")
        )
    }
}

/// Largest block (in ranks) given an unrank table.
const MAX_DENSE_BLOCK: u64 = 1 << 28;

struct BlockRank {
    offset: u32,
    size: u32,
    /// Marked facelets in the block.
    marked: u32,
    radix: u64,
    /// The colex rank by bytes: entry `(byte * 256 + value) * (marked + 1) +
    /// before` is the share of the set bits of `value` in byte `byte` of the
    /// block, after `before` set bits in the lower bytes (the search ranks at
    /// every node; a loop over the bits was half of a 5x5x5 stage's time).
    byte_rank: Vec<u64>,
    /// Sub-masks in colex order (unrank table), made on first use: a
    /// solver that only ranks and moves masks never pays for it.
    masks: std::sync::OnceLock<Vec<u64>>,
}

impl BlockRank {
    /// Whether the block is small enough for an unrank table.
    fn dense(&self) -> bool {
        self.radix <= MAX_DENSE_BLOCK
    }

    /// The unrank table (empty for a block too large for one).
    fn masks(&self) -> &[u64] {
        self.masks.get_or_init(|| {
            if self.dense() {
                colex_masks(self.size, self.marked)
            } else {
                Vec::new()
            }
        })
    }
}

/// A projection with its moves, ready for BFS and for solvers.
pub struct FaceletMaskSpace {
    /// Facelet indices tracked, bit i of a state is facelet `positions[i]`.
    pub positions: Vec<usize>,
    blocks: Vec<BlockRank>,
    /// Per move, per byte of the mask, the image of each byte value.
    byte_maps: Vec<Vec<[u64; 256]>>,
    goal: u64,
    size: u64,
}

/// The centres of `orbit` solved once staged: one colour of each pair marked
/// on its axis.
pub fn centres_solve(n: usize, orbit: Orbit) -> ProjectionDef {
    use Face::*;
    ProjectionDef {
        n,
        orbit,
        blocks: [(U, D), (R, L), (F, B)]
            .into_iter()
            .map(|(a, b)| Block {
                faces: vec![a, b],
                marked: vec![a],
            })
            .collect(),
    }
}

/// Builds the projection space. Errors if a move mixes blocks or the orbit is not
/// closed under the moves.
pub fn build(def: &ProjectionDef, moves: &[Move]) -> Result<FaceletMaskSpace, ModelError> {
    let cube = CubeN::new(def.n);
    let cells = def.orbit.cells(def.n);
    let mut positions = Vec::new();
    let mut blocks = Vec::new();
    let mut goal = 0u64;
    let binom = binomials(64);
    for b in &def.blocks {
        if b.faces.len() * cells.len() + positions.len() > 64 {
            return Err(ModelError::TooManyFacelets);
        }
        let offset = positions.len() as u32;
        let mut marked = 0u32;
        for &f in &b.faces {
            for &(r, c) in &cells {
                let idx = cube.index(f, r, c);
                if b.marked.contains(&f) {
                    goal |= 1 << positions.len();
                    marked += 1;
                }
                positions.push(idx);
            }
        }
        let size = positions.len() as u32 - offset;
        let radix = binom[size as usize][marked as usize];
        // Unrank tables (made on first use) only for blocks small enough to
        // rank densely; a sparse table moves masks and never unranks.
        let masks = std::sync::OnceLock::new();
        let stride = marked as usize + 1;
        let nbytes = (size as usize).div_ceil(8);
        let mut byte_rank = vec![0u64; nbytes * 256 * stride];
        for byte in 0..nbytes {
            for v in 0..256usize {
                for before in 0..stride {
                    let mut share = 0;
                    let mut k = before;
                    for bit in 0..8 {
                        let pos = byte * 8 + bit;
                        if v >> bit & 1 == 1 && pos < size as usize {
                            k += 1;
                            share += binom[pos].get(k).copied().unwrap_or(0);
                        }
                    }
                    byte_rank[(byte * 256 + v) * stride + before] = share;
                }
            }
        }
        blocks.push(BlockRank {
            offset,
            size,
            marked,
            radix,
            masks,
            byte_rank,
        });
    }
    let mut space = FaceletMaskSpace {
        positions,
        size: blocks.iter().map(|b| b.radix).product(),
        blocks,
        byte_maps: Vec::new(),
        goal,
    };
    for &mv in moves {
        cube.check_move(mv)?;
        let maps = space
            .perm_maps(&cube.perm(mv))
            .ok_or(ModelError::Blocks(mv))?;
        space.byte_maps.push(maps);
    }
    Ok(space)
}

impl FaceletMaskSpace {
    /// Applies move `m` (index into the move list) to a mask.
    #[inline]
    pub fn apply(&self, mask: u64, m: usize) -> u64 {
        apply_maps(&self.byte_maps[m], mask)
    }

    /// The byte maps ([`apply_maps`]) of a facelet permutation (a move's, or a
    /// symmetry's: `perm[j]` is the facelet whose sticker goes to `j`) on
    /// this projection's masks; `None` if it takes a tracked facelet out of
    /// its block (or out of the projection).
    pub fn perm_maps(&self, perm: &[u16]) -> Option<Vec<[u64; 256]>> {
        let n = self.positions.len();
        let block_of = |bit: usize| {
            self.blocks
                .iter()
                .position(|b| bit >= b.offset as usize && bit < (b.offset + b.size) as usize)
        };
        // bit j of the new mask = bit src(j) of the old: old bit i goes to dst(i).
        let mut dst = vec![0usize; n];
        for (j, &p) in self.positions.iter().enumerate() {
            let from = *perm.get(p)? as usize;
            let src = self.positions.iter().position(|&q| q == from)?;
            if block_of(src)? != block_of(j)? {
                return None;
            }
            dst[src] = j;
        }
        let mut maps = vec![[0u64; 256]; n.div_ceil(8)];
        for (byte, map) in maps.iter_mut().enumerate() {
            for (v, out) in map.iter_mut().enumerate() {
                for (k, &to) in dst.iter().enumerate().skip(byte * 8).take(8) {
                    if v >> (k - byte * 8) & 1 == 1 {
                        *out |= 1 << to;
                    }
                }
            }
        }
        Some(maps)
    }

    /// Rank of a mask.
    #[inline]
    pub fn rank(&self, mask: u64) -> u64 {
        let mut r = 0;
        for b in &self.blocks {
            let mut sub = (mask >> b.offset) & low_bits(b.size);
            let stride = b.marked as usize + 1;
            let mut digit = 0;
            let mut before = 0usize;
            let mut byte = 0;
            while sub != 0 {
                let v = (sub & 0xff) as usize;
                digit += b.byte_rank[(byte * 256 + v) * stride + before.min(stride - 1)];
                before += crate::perm::BYTE_ONES[v] as usize;
                sub >>= 8;
                byte += 1;
            }
            r = r * b.radix + digit;
        }
        r
    }

    /// Mask of a rank. Panics for a projection too big to rank densely (see
    /// [`FaceletMaskSpace::is_dense`]).
    pub fn unrank(&self, mut rank: u64) -> u64 {
        let mut mask = 0;
        for b in self.blocks.iter().rev() {
            let digit = rank % b.radix;
            rank /= b.radix;
            mask |= b.masks()[digit as usize] << b.offset;
        }
        mask
    }

    /// The radix of each block's digit in a rank, first block first (a rank
    /// is the digits in mixed radix, the first most significant).
    pub fn radices(&self) -> Vec<u64> {
        self.blocks.iter().map(|b| b.radix).collect()
    }

    /// Per block, the image of each of its digits under move `m` (dense
    /// spaces only; `None` otherwise). A move never takes a facelet out of
    /// its block, so a rank's image under `m` is its digits' images: a
    /// breadth-first search over ranks then needs no masks.
    pub fn digit_moves(&self, m: usize) -> Option<Vec<Vec<u32>>> {
        if !self.is_dense() || m >= self.byte_maps.len() {
            return None;
        }
        let mut weight = 1;
        let mut out = vec![Vec::new(); self.blocks.len()];
        for (k, b) in self.blocks.iter().enumerate().rev() {
            // The other blocks empty (digit 0): the image's rank is its
            // digit times the block's weight.
            out[k] = (b.masks().iter())
                .map(|&sub| (self.rank(self.apply(sub << b.offset, m)) / weight) as u32)
                .collect();
            weight *= b.radix;
        }
        Some(out)
    }

    /// True if every block has an unrank table (the space can be ranked densely).
    pub fn is_dense(&self) -> bool {
        self.blocks.iter().all(BlockRank::dense)
    }

    /// The goal mask.
    pub fn goal_mask(&self) -> u64 {
        self.goal
    }

    /// Number of moves.
    pub fn moves(&self) -> usize {
        self.byte_maps.len()
    }

    /// Projects a facelet state (colours per facelet) to a mask: bit set where the
    /// colour is in the block's marked class. `marked[c]` says if colour c is marked.
    pub fn project(&self, state: &[u8], marked: &[bool; 6]) -> u64 {
        let mut mask = 0;
        for (bit, &p) in self.positions.iter().enumerate() {
            if marked[state[p] as usize % 6] {
                mask |= 1 << bit;
            }
        }
        mask
    }
}

impl Space for FaceletMaskSpace {
    fn size(&self) -> u64 {
        self.size
    }
    fn goals(&self) -> Vec<u64> {
        vec![self.rank(self.goal)]
    }
    #[inline]
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let mask = self.unrank(rank);
        for m in 0..self.byte_maps.len() {
            if !f(self.rank(self.apply(mask, m))) {
                return;
            }
        }
    }
}

/// A mask through byte maps ([`FaceletMaskSpace::perm_maps`]).
#[inline]
pub fn apply_maps(maps: &[[u64; 256]], mask: u64) -> u64 {
    let mut out = 0;
    let mut x = mask;
    for map in maps {
        out |= map[(x & 0xFF) as usize];
        x >>= 8;
        if x == 0 {
            break;
        }
    }
    out
}

fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Pascal's triangle, `binom[n][k]`.
pub fn binomials(max: usize) -> Vec<Vec<u64>> {
    let mut t = vec![vec![0u64; max + 1]; max + 1];
    for n in 0..=max {
        t[n][0] = 1;
        for k in 1..=n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
        }
    }
    t
}

/// All `size`-bit masks with `k` bits set, in increasing order (= colex order),
/// by Gosper's hack.
fn colex_masks(size: u32, k: u32) -> Vec<u64> {
    let mut out = Vec::new();
    if k == 0 {
        out.push(0);
        return out;
    }
    let mut x: u64 = (1u64 << k) - 1;
    let limit = low_bits(size);
    while x <= limit && x & !limit == 0 {
        out.push(x);
        let c = x & x.wrapping_neg();
        let r = x + c;
        if r == 0 || r > limit {
            break;
        }
        x = (((r ^ x) >> 2) / c) | r;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 4x4x4 U/D centre staging projection.
    fn ud_stage_4x4x4() -> ProjectionDef {
        ProjectionDef {
            n: 4,
            orbit: Orbit::AllCentres,
            blocks: vec![Block {
                faces: Face::ALL.to_vec(),
                marked: vec![Face::U, Face::D],
            }],
        }
    }

    #[test]
    fn colex_order_matches_rank() {
        let masks = colex_masks(10, 4);
        assert_eq!(masks.len(), 210);
        let def = ud_stage_4x4x4();
        let space = build(&def, &CubeN::block_turns(2)).unwrap();
        assert_eq!(space.size(), 735_471);
        for r in (0..space.size()).step_by(997) {
            assert_eq!(space.rank(space.unrank(r)), r);
        }
    }

    /// The byte-table rank equals the colex rank by bits (the definition) on
    /// every rank of single- and multi-block projections of the catalog.
    #[test]
    fn byte_rank_is_colex() {
        let binom = binomials(64);
        for id in [
            "4x4x4-ud-stage",
            "4x4x4-lr-stage",
            "4x4x4-centers-solve",
            "5x5x5-ud-t-stage",
        ] {
            let def = crate::catalog::find(id).unwrap();
            let crate::catalog::SpaceDef::Facelets { def: p, moves } = def.space else {
                panic!("{id}")
            };
            let space = build(&p, &moves).unwrap();
            for r in 0..space.size() {
                let mask = space.unrank(r);
                let mut want = 0;
                for b in &space.blocks {
                    let mut sub = (mask >> b.offset) & low_bits(b.size);
                    let (mut digit, mut k) = (0, 1);
                    while sub != 0 {
                        digit += binom[sub.trailing_zeros() as usize][k];
                        k += 1;
                        sub &= sub - 1;
                    }
                    want = want * b.radix + digit;
                }
                assert_eq!(space.rank(mask), want, "{id} rank {r}");
                assert_eq!(want, r, "{id}");
            }
        }
    }

    #[test]
    fn moves_act_like_facelet_moves() {
        let def = ud_stage_4x4x4();
        let moves = CubeN::block_turns(2);
        let space = build(&def, &moves).unwrap();
        let cube = CubeN::new(4);
        let marked = [true, false, false, true, false, false];
        let mut state = cube.solved();
        let mut mask = space.goal_mask();
        assert_eq!(space.project(&state, &marked), mask);
        for step in 0..200 {
            let m = (step * 7 + 3) % moves.len();
            cube.apply(&mut state, moves[m]);
            mask = space.apply(mask, m);
            assert_eq!(space.project(&state, &marked), mask);
        }
    }

    /// A rank's image under a move is its digits' images, on every seventh
    /// rank of a three-block projection (the 4x4x4 centres solve: 70 x 70 x 70).
    #[test]
    fn digit_moves_act_like_masks() {
        let def = crate::catalog::find("4x4x4-centers-solve").unwrap();
        let crate::catalog::SpaceDef::Facelets { def: p, moves } = def.space else {
            panic!("4x4x4-centers-solve")
        };
        let space = build(&p, &moves).unwrap();
        let radices = space.radices();
        assert_eq!(radices, vec![70, 70, 70]);
        for m in 0..moves.len() {
            let dm = space.digit_moves(m).unwrap();
            for r in (0..space.size()).step_by(7) {
                let (mut x, mut digits) = (r, [0u64; 3]);
                for b in (0..3).rev() {
                    digits[b] = x % radices[b];
                    x /= radices[b];
                }
                let image = (0..3).fold(0, |acc, b| {
                    acc * radices[b] + u64::from(dm[b][digits[b] as usize])
                });
                assert_eq!(
                    image,
                    space.rank(space.apply(space.unrank(r), m)),
                    "move {m} rank {r}"
                );
            }
        }
        assert!(space.digit_moves(moves.len()).is_none());
    }
}
