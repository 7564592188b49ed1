//! Stage 5 of the 5x5x5 reduction: in `<U, D, R2, L2, F2, B2, Rw2, Lw2, Fw2,
//! Bw2>`, the eight U- and D-layer tredges paired and every centre solved,
//! with the four E-slice tredges already paired (the group keeps them so: no
//! move of it splits an E-slice tredge, and no U/D-layer piece enters the E
//! slice).
//!
//! Bound: the exact pairing distance of the eight tredges (both wing kinds
//! at once, `5x5x5-last8-edges`, followed move by move in its mod-3 table),
//! the exact distance of the T- and X-centres together in the group
//! (computed at load), and the exact distance of the low wings with the U/D
//! centres (`5x5x5-last8-low-centres`, followed the same way).

use crate::search::{allowed, next_distance, Stage};
use crate::tables::{TableError, Trits};
use crate::SolveError;
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube5::{part4, Tredges};
use tablegen::notation::{Face, Move};
use tablegen::pair5::{last8_moves, Last8CentresSpace, Last8Space};
use tablegen::projection::{self, FaceletMaskSpace};

/// The stage's table.
pub const ID: &str = "5x5x5-last8-edges";

/// Its table of the low wings with the U/D centres.
pub const LOW_CENTRES_ID: &str = "5x5x5-last8-low-centres";

/// The stage's moves: `U, D` (three amounts each) and eight half turns.
const MOVES: usize = 14;

/// The centre tables: the projections (one colour of each axis pair
/// marked) of these catalog tables, with distances under a stage's group
/// computed at load.
const CENTRE_IDS: [&str; 2] = ["5x5x5-t-centres-solve", "5x5x5-x-centres-solve"];

/// One centre orbit under a stage's group: the arrangements the group
/// reaches from solved, numbered densely, with each move's effect on them
/// (so the search follows a centre orbit by one lookup a move).
struct Centres {
    space: FaceletMaskSpace,
    /// Per rank of the projection, its dense index (`u16::MAX`: not
    /// reached).
    index: Vec<u16>,
    /// Per dense index and move, the dense index after it.
    next: Vec<u16>,
    /// How many arrangements the group reaches.
    reached: usize,
    /// Per dense index, its side part: the class of the arrangements that
    /// agree with it off the U and D faces, numbered as first met.
    side: Vec<u16>,
    /// Per dense index, its place among the arrangements of its side part,
    /// in dense order.
    place: Vec<u16>,
    /// How many arrangements each side part has.
    side_sizes: Vec<u16>,
}

impl Centres {
    /// The arrangements reached under `moves` from solved, in BFS order
    /// (solved is 0).
    fn new(id: &str, moves: &[Move]) -> Result<Centres, TableError> {
        let bad = |msg: String| TableError::Build(id.into(), msg);
        let def = match catalog::find(id).map(|d| d.space) {
            Some(SpaceDef::Facelets { def, .. }) => def,
            _ => return Err(bad("not a facelet projection".into())),
        };
        let space = projection::build(&def, moves).map_err(|e| TableError::model(id, e))?;
        let mut index = vec![u16::MAX; tablegen::bfs::Space::size(&space) as usize];
        let goal = space.goal_mask();
        index[space.rank(goal) as usize] = 0;
        let mut masks = vec![goal];
        let mut next = Vec::new();
        let mut k = 0;
        while k < masks.len() {
            let m = masks[k];
            for i in 0..moves.len() {
                let c = space.apply(m, i);
                let r = space.rank(c) as usize;
                if index[r] == u16::MAX {
                    index[r] = u16::try_from(masks.len())
                        .map_err(|_| bad("more than 65,535 arrangements".into()))?;
                    masks.push(c);
                }
                next.push(index[r]);
            }
            k += 1;
        }
        // The side parts: the marks off the U and D faces.
        let solved = tablegen::cube::CubeN::new(def.n).solved();
        let ud = [Face::U as u8, Face::D as u8];
        let ud_bits = (space.positions.iter().enumerate())
            .filter(|&(_, &f)| ud.contains(&solved[f]))
            .fold(0u64, |m, (b, _)| m | 1 << b);
        let mut keys = std::collections::HashMap::new();
        let mut side_sizes: Vec<u16> = Vec::new();
        let (mut side, mut place) = (Vec::new(), Vec::new());
        for &m in &masks {
            let c = *keys.entry(m & !ud_bits).or_insert_with(|| {
                side_sizes.push(0);
                side_sizes.len() - 1
            });
            side.push(c as u16);
            place.push(side_sizes[c]);
            side_sizes[c] += 1;
        }
        Ok(Centres {
            space,
            index,
            next,
            reached: masks.len(),
            side,
            place,
            side_sizes,
        })
    }

    /// How many arrangements the group reaches.
    fn reached(&self) -> usize {
        self.reached
    }

    /// The dense index of a state's arrangement (`None`: not reached).
    fn of_state(&self, state: &[u8]) -> Option<u16> {
        let r = self.space.rank(self.space.project(state, &MARKED)) as usize;
        self.index.get(r).copied().filter(|&x| x != u16::MAX)
    }

    /// The arrangement after move `i`.
    #[inline]
    fn step(&self, x: u16, i: usize, moves: usize) -> u16 {
        self.next[x as usize * moves + i]
    }
}

/// Marked colours of the centre projections (one of each axis pair).
const MARKED: [bool; 6] = {
    let mut m = [false; 6];
    m[Face::U as usize] = true;
    m[Face::R as usize] = true;
    m[Face::F as usize] = true;
    m
};

/// Both centre orbits together under the stage's group: the distance of
/// each pair of their reached arrangements. The group reaches 2,520
/// arrangements of each orbit but only 176,400 of the pairs, and the pair's
/// distance is often above both orbits' own.
///
/// The pairs are stored densely. An orbit's side part (its marks off the U
/// and D faces) moves by itself, and the group pairs each side part of the
/// first orbit with one side part of the second ([`JointCentres::new`]
/// checks both): a reached pair is then the first arrangement and the
/// second's place among the arrangements of its side part, 2,520 x 70
/// entries (176 KB, against 6.35 MB for every pair of arrangements).
struct JointCentres {
    /// Per arrangement of the second orbit, its place in its side part.
    place: Vec<u16>,
    /// Per arrangement of each orbit, its side part.
    side: [Vec<u16>; 2],
    /// Per side part of the first orbit, the side part of the second it
    /// pairs with.
    partner: Vec<u16>,
    /// The largest side part of the second orbit.
    width: usize,
    /// Per pair at [`JointCentres::at`], its distance (`u8::MAX`: not reached).
    dist: Vec<u8>,
}

impl JointCentres {
    fn new(c: &[Centres; 2], moves: usize) -> Result<JointCentres, String> {
        // How each move takes the side parts; one image per side part.
        let side_moves = |o: &Centres| -> Result<Vec<u16>, String> {
            let mut t = vec![u16::MAX; o.side_sizes.len() * moves];
            for x in 0..o.reached {
                for i in 0..moves {
                    let to = o.side[o.step(x as u16, i, moves) as usize];
                    let e = &mut t[o.side[x] as usize * moves + i];
                    if *e != u16::MAX && *e != to {
                        return Err("a move takes one side part to two".into());
                    }
                    *e = to;
                }
            }
            Ok(t)
        };
        let (s0, s1) = (side_moves(&c[0])?, side_moves(&c[1])?);
        let mut partner = vec![u16::MAX; c[0].side_sizes.len()];
        partner[c[0].side[0] as usize] = c[1].side[0];
        let mut queue = vec![c[0].side[0]];
        while let Some(a) = queue.pop() {
            let b = partner[a as usize];
            for i in 0..moves {
                let (a2, b2) = (s0[a as usize * moves + i], s1[b as usize * moves + i]);
                match partner[a2 as usize] {
                    u16::MAX => {
                        partner[a2 as usize] = b2;
                        queue.push(a2);
                    }
                    p if p != b2 => return Err("a side part pairs with two".into()),
                    _ => {}
                }
            }
        }
        let width = c[1].side_sizes.iter().copied().max().unwrap_or(0) as usize;
        let mut j = JointCentres {
            place: c[1].place.clone(),
            side: [c[0].side.clone(), c[1].side.clone()],
            partner,
            width,
            dist: vec![u8::MAX; c[0].reached * width],
        };
        // The pairs not met yet as bits, set so that every page is written
        // when made (a zeroed allocation maps the shared zero page, and the
        // first write to each page after a read copies it).
        let mut unseen = vec![u64::MAX; j.dist.len().div_ceil(64)];
        j.dist[0] = 0;
        unseen[0] ^= 1;
        let mut layer = vec![[0u16, 0u16]];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &[x0, x1] in &layer {
                for i in 0..moves {
                    let pair = [c[0].step(x0, i, moves), c[1].step(x1, i, moves)];
                    let k = j.at(pair);
                    if unseen[k >> 6] & (1 << (k & 63)) != 0 {
                        unseen[k >> 6] ^= 1 << (k & 63);
                        j.dist[k] = d;
                        next.push(pair);
                    }
                }
            }
            layer = next;
        }
        Ok(j)
    }

    /// Where a reached pair's distance is in `dist` (a pair the group does
    /// not reach may share the place of one it reaches: see
    /// [`JointCentres::get`]).
    #[inline]
    fn at(&self, x: [u16; 2]) -> usize {
        x[0] as usize * self.width + self.place[x[1] as usize] as usize
    }

    /// The distance of any pair (`u8::MAX`: not reached).
    fn get(&self, x: [u16; 2]) -> u8 {
        let [a, b] = x.map(usize::from);
        if self.partner[self.side[0][a] as usize] != self.side[1][b] {
            return u8::MAX;
        }
        self.dist[self.at(x)]
    }
}

/// A node: the two centre arrangements (dense indices), the high and low
/// relative permutations
/// (ranks), their exact pairing distance, the bound.
#[derive(Clone, Copy, Debug)]
pub struct N8 {
    centres: [u16; 2],
    hl: (u16, u16),
    d: u8,
    /// The U/D T- and X-centre arrangements, and the exact distance of the
    /// low wings with them.
    ud: (u8, u8),
    dc: u8,
    h: u8,
}

/// The stage (see the module documentation).
pub struct Last8 {
    /// The 14 moves.
    pub moves: Vec<Move>,
    tredges: Tredges,
    centres: [Centres; 2],
    joint: JointCentres,
    space: Last8Space,
    tab: Trits,
    low: Last8CentresSpace,
    low_tab: Trits,
}

impl Last8 {
    /// Loads (or builds) the stage's table and computes its centre distances.
    pub fn load(dir: &Path, quiet: bool) -> Result<Last8, TableError> {
        let bad = |msg: String| TableError::Build(ID.into(), msg);
        let moves = last8_moves();
        match catalog::find(ID).map(|d| d.space) {
            Some(SpaceDef::Reduction5 { moves: m, .. }) if m == moves && m.len() == MOVES => {}
            _ => return Err(bad("not a table of the last stage's group".into())),
        }
        // The pairing space's move tables on a second thread, the centres'
        // distances and the table here.
        std::thread::scope(|sc| {
            let space = sc.spawn(|| Last8Space::new(&moves).map_err(|e| TableError::model(ID, e)));
            let centres = [
                Centres::new(CENTRE_IDS[0], &moves)?,
                Centres::new(CENTRE_IDS[1], &moves)?,
            ];
            let joint = JointCentres::new(&centres, moves.len()).map_err(bad)?;
            let tab = Trits::load_trits(ID, dir, quiet)?;
            let low_tab = Trits::load_trits(LOW_CENTRES_ID, dir, quiet)?;
            let space = tablegen::joined(space)?;
            let low = Last8CentresSpace::with(&space, &moves)
                .map_err(|e| TableError::model(LOW_CENTRES_ID, e))?;
            Ok(Last8 {
                low,
                low_tab,
                joint,
                centres,
                space,
                tab,
                tredges: Tredges::new(),
                moves: moves.clone(),
            })
        })
    }

    /// Bytes of the stage's tables.
    pub fn table_bytes(&self) -> u64 {
        (self.tab.bytes().len() + self.low_tab.bytes().len()) as u64
    }

    /// How many T- and X-centre arrangements the group reaches from solved
    /// (the tests compare them with 2,520 each).
    pub fn centre_orbits(&self) -> [usize; 2] {
        self.centres.each_ref().map(|c| c.reached())
    }

    /// How many pairs of them it reaches (the tests compare this with
    /// 176,400 = 70 x 70 x 36).
    pub fn centre_pairs(&self) -> usize {
        self.joint.dist.iter().filter(|&&d| d != u8::MAX).count()
    }

    #[inline]
    fn residue(&self, hl: (u16, u16)) -> u8 {
        tablefmt::trit(self.tab.bytes(), self.space.rank(hl.0, hl.1) as usize)
    }

    /// The node of a state whose E-slice tredges are paired and whose
    /// U/D-layer pieces are those of the other eight tredges; an error
    /// otherwise (an internal one: the stages before leave such a state).
    pub fn node(&self, state: &[u8]) -> Result<N8, SolveError> {
        self.node_weighted(state, 0)
    }

    /// [`Last8::node`] with the bound weighted (see [`Last8::weighted`]).
    pub fn node_weighted(&self, state: &[u8], weight: u8) -> Result<N8, SolveError> {
        let wings = self
            .tredges
            .wings
            .read(&part4(state))
            .map_err(SolveError::internal)?;
        let (midges, flip) = self
            .tredges
            .read_midges(state)
            .map_err(SolveError::internal)?;
        if flip.iter().any(|&f| f != 0) {
            return Err(SolveError::internal("a midge is flipped"));
        }
        if (0..24).any(|s| (s < 12) != (wings[s] < 12)) {
            return Err(SolveError::internal("a wing is out of its class"));
        }
        for e in 0..12u8 {
            if !self.space.ud.contains(&e)
                && (wings[e as usize] != midges[e as usize]
                    || wings[12 + e as usize] != 12 + midges[e as usize])
            {
                return Err(SolveError::internal("an E-slice tredge is not paired"));
            }
        }
        let ud = self.space.ud;
        let hi = ud.map(|e| wings[e as usize]);
        let lo = ud.map(|e| wings[12 + e as usize] - 12);
        let mid = ud.map(|e| midges[e as usize]);
        let hl = Last8Space::relative(&hi, &lo, &mid).ok_or_else(|| {
            SolveError::internal("the U/D layers hold pieces of an E-slice tredge")
        })?;
        let path = crate::walk_downhill_mod3(
            hl,
            self.moves.len(),
            40,
            |&(h, l)| h == 0 && l == 0,
            |&s| self.residue(s),
            |&(h, l), i| self.space.step(h, l, i),
        )
        .map_err(|e| SolveError::Internal(format!("{ID}: {e}")))?;
        let (Some(c0), Some(c1)) = (
            self.centres[0].of_state(state),
            self.centres[1].of_state(state),
        ) else {
            return Err(SolveError::internal("the group cannot solve these centres"));
        };
        let centres = [c0, c1];
        let ud = self.low.centre_ranks(state);
        let goal = self.low.goal();
        let low_path = crate::walk_downhill_mod3(
            (hl.1, ud.0, ud.1),
            self.moves.len(),
            40,
            |&(l, t, x)| Last8CentresSpace::rank(l, t, x) == goal,
            |&(l, t, x)| self.low_residue(Last8CentresSpace::rank(l, t, x)),
            |&s, i| self.low.step(s, i),
        )
        .map_err(|e| SolveError::Internal(format!("{LOW_CENTRES_ID}: {e}")))?;
        let mut n = N8 {
            centres,
            hl,
            d: path.len() as u8,
            ud,
            dc: low_path.len() as u8,
            h: 0,
        };
        n.h = Self::weighted(self.bound(&n), weight);
        if n.h == u8::MAX {
            return Err(SolveError::internal("the group cannot solve these centres"));
        }
        Ok(n)
    }

    #[inline]
    fn low_residue(&self, r: u64) -> u8 {
        tablefmt::trit(self.low_tab.bytes(), r as usize)
    }

    fn bound(&self, n: &N8) -> u8 {
        self.joint.get(n.centres).max(n.d).max(n.dc)
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
        self.expand_weighted(n, prev, left, out, 0)
    }
}

impl Last8 {
    /// The search's bound: the tables' bound times `1 + weight / 8`
    /// (rounded down; weight 0: admissible).
    #[inline]
    pub fn weighted(h: u8, weight: u8) -> u8 {
        if h == u8::MAX {
            return h;
        }
        h.saturating_add((h as u16 * weight as u16 / 8) as u8)
    }

    /// [`Stage::expand`] with the bound weighted (see [`Last8::weighted`]).
    pub fn expand_weighted(
        &self,
        n: &N8,
        prev: Option<usize>,
        left: usize,
        out: &mut Vec<(usize, N8)>,
        weight: u8,
    ) -> u64 {
        let left = left - 1;
        let prev = prev.map(|i| self.moves[i]);
        let mut dropped = 0;
        let moves = self.moves.len();
        // Three passes so that the cache misses of the children overlap:
        // the centre pairs' distances are prefetched, then read; the
        // survivors' entries of the big pairing table are prefetched, then
        // read.
        let mut kids = [(0usize, [0u16; 2], 0usize); MOVES];
        let mut k = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let c = [
                self.centres[0].step(n.centres[0], i, moves),
                self.centres[1].step(n.centres[1], i, moves),
            ];
            let at = self.joint.at(c);
            crate::tables::prefetch(&self.joint.dist, at);
            kids[k] = (i, c, at);
            k += 1;
        }
        let mut near = [(
            0usize,
            [0u16; 2],
            0u8,
            (0u16, 0u16),
            0usize,
            (0u8, 0u8),
            0usize,
        ); MOVES];
        let mut j = 0;
        for &(i, c, at) in &kids[..k] {
            let hc = self.joint.dist[at];
            if hc as usize > left {
                dropped += 1;
                continue;
            }
            let hl = self.space.step(n.hl.0, n.hl.1, i);
            let r = self.space.rank(hl.0, hl.1) as usize;
            crate::tables::prefetch(self.tab.bytes(), r / 5);
            let (_, t, x) = self.low.step((n.hl.1, n.ud.0, n.ud.1), i);
            let rl = Last8CentresSpace::rank(hl.1, t, x) as usize;
            crate::tables::prefetch(self.low_tab.bytes(), rl / 5);
            near[j] = (i, c, hc, hl, r, (t, x), rl);
            j += 1;
        }
        for &(i, centres, hc, hl, r, ud, rl) in &near[..j] {
            let d = next_distance(n.d, tablefmt::trit(self.tab.bytes(), r));
            if d as usize > left {
                dropped += 1;
                continue;
            }
            let dc = next_distance(n.dc, tablefmt::trit(self.low_tab.bytes(), rl));
            if dc as usize > left {
                dropped += 1;
                continue;
            }
            let mut c = N8 {
                centres,
                hl,
                d,
                ud,
                dc,
                h: 0,
            };
            c.h = Self::weighted(hc.max(d).max(dc), weight);
            if c.h as usize > left {
                dropped += 1;
                continue;
            }
            out.push((i, c));
        }
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dense pairs against a plain breadth-first search over every pair
    /// of arrangements (2,520 x 2,520): the same distance for each pair,
    /// `u8::MAX` for the pairs the group does not reach.
    #[test]
    fn centre_pairs_stored_densely_keep_every_distance() {
        let moves = last8_moves();
        let c = [
            Centres::new(CENTRE_IDS[0], &moves).unwrap(),
            Centres::new(CENTRE_IDS[1], &moves).unwrap(),
        ];
        let joint = JointCentres::new(&c, moves.len()).unwrap();
        let (n0, n1) = (c[0].reached, c[1].reached);
        assert_eq!((n0, n1, joint.width), (2520, 2520, 70));
        let mut plain = vec![u8::MAX; n0 * n1];
        plain[0] = 0;
        let mut layer = vec![(0u16, 0u16)];
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &(a, b) in &layer {
                for i in 0..moves.len() {
                    let (a, b) = (c[0].step(a, i, moves.len()), c[1].step(b, i, moves.len()));
                    let k = a as usize * n1 + b as usize;
                    if plain[k] == u8::MAX {
                        plain[k] = d;
                        next.push((a, b));
                    }
                }
            }
            layer = next;
        }
        let mut reached = 0;
        for a in 0..n0 {
            for b in 0..n1 {
                let want = plain[a * n1 + b];
                reached += usize::from(want != u8::MAX);
                assert_eq!(joint.get([a as u16, b as u16]), want, "pair ({a}, {b})");
            }
        }
        assert_eq!(reached, 176_400);
        assert_eq!(
            joint.dist.iter().filter(|&&d| d != u8::MAX).count(),
            reached
        );
    }
}
