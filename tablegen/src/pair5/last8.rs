//! Stage 2 of the tredge pairing: the last eight tredges in the group that
//! keeps the four E-slice tredges paired ([`Last8Space`]; see the module
//! documentation of [`super`]).

use crate::bfs::Space;
use crate::cube5::Tredges;
use crate::notation::Move;
use crate::perm::{is_odd, perm_unrank};
use crate::ModelError;

/// 8!: permutations of eight.
pub const PERMS8: usize = 40_320;
/// States of [`Last8Space`]: 8!·8!/2 pairs up to its 8 symmetries
/// ([`Last8Space::burnside`]; checked in the tests).
pub const LAST8_STATES: u64 = 101_652_608;
/// Ranks of one permutation of eight of a given parity.
pub const HALF8: u64 = 20_160;

/// Stage 2 of the pairing (see the module documentation): its move tables,
/// symmetries and ranks. A state is `(h, l)`: the ranks ([`perm_rank`]) of
/// the high and the low wings' permutations relative to the midges (local
/// slot of a wing -> local slot of its tredge's midge), of equal parity.
#[derive(Clone, Debug)]
pub struct Last8Space {
    /// The U/D-layer dedge numbers, in local order 0..8.
    pub ud: [u8; 8],
    /// Per move, the images of the local slots: high wings, low wings, midges.
    pub slot_moves: Vec<[[u8; 8]; 3]>,
    /// Per high rank and move, the rank after it.
    pub hmove: Vec<u16>,
    /// Per low rank and move, the rank after it.
    pub lmove: Vec<u16>,
    /// The symmetries: permutations `p` of the local slots with
    /// `p·M·p⁻¹` a move for every move `M` (on all three piece kinds).
    pub syms: Vec<[u8; 8]>,
    /// `conj[s * 8! + r]`: rank of `p_s·x·p_s⁻¹` where `r` ranks `x`.
    conj: Vec<u16>,
    /// Per high rank: its class and a symmetry that takes it to the class's
    /// representative (`class * 16 + sym`).
    raw2sym: Vec<u32>,
    /// Per class: its representative's rank.
    pub reps: Vec<u16>,
    /// Per class: the symmetries that fix its representative (bit set).
    stab: Vec<u16>,
    /// Per class: its first rank (and the total at the end).
    offsets: Vec<u64>,
    /// Per class: the index in `kinds` of its least low ranks, or
    /// `u16::MAX` when only the identity fixes its representative (then
    /// every low rank of its parity is least, ranked `l >> 1`).
    kind: Vec<u16>,
    /// Per stabiliser and parity met: the least low ranks in order, and each
    /// one's index in that list by `l >> 1` (`u16::MAX` for the others).
    kinds: Vec<(Vec<u16>, Vec<u16>)>,
    odd: Vec<bool>,
    nmoves: usize,
}

impl Last8Space {
    /// The space under `moves` (which must keep the U/D-layer pieces in
    /// their layers, the wing classes and the midges' orientation).
    pub fn new(moves: &[Move]) -> Result<Last8Space, ModelError> {
        let t = Tredges::new();
        let mut ud = [0u8; 8];
        let mut local = [u8::MAX; 12];
        let mut k = 0;
        for e in 0..12u8 {
            if t.edge_of_dedge[e as usize] < 8 {
                ud[k] = e;
                local[e as usize] = k as u8;
                k += 1;
            }
        }
        let restrict = |to: &[u8], m: Move, piece: &'static str| -> Result<[u8; 8], ModelError> {
            let mut out = [0u8; 8];
            for (x, &e) in ud.iter().enumerate() {
                let y = local[to[e as usize] as usize];
                if y == u8::MAX {
                    return Err(ModelError::IntoESlice { mv: m, piece });
                }
                out[x] = y;
            }
            Ok(out)
        };
        let mut slot_moves = Vec::new();
        for &m in moves {
            let [hi, lo, to] = t.class_move(m)?;
            slot_moves.push([
                restrict(&hi, m, "wing")?,
                restrict(&lo, m, "wing")?,
                restrict(&to, m, "midge")?,
            ]);
        }
        let nmoves = moves.len();
        let perms = perms8();
        let table = |kind: usize| -> Vec<u16> {
            let inverses: Vec<[u8; 8]> = slot_moves.iter().map(|mv| invert8(&mv[kind])).collect();
            let mut out = Vec::with_capacity(PERMS8 * nmoves);
            for x in &perms {
                for (mv, ainv) in slot_moves.iter().zip(&inverses) {
                    out.push(moved_rank(x, ainv, &mv[2]));
                }
            }
            out
        };
        // The two move tables side by side (a solver loads this space).
        let (hmove, lmove) = std::thread::scope(|sc| {
            let low = sc.spawn(|| table(1));
            let high = table(0);
            (high, crate::joined(low))
        });
        // Symmetries: every permutation of the slots that conjugates each
        // move (all three kinds at once) into a move.
        let set: std::collections::HashSet<[[u8; 8]; 3]> = slot_moves.iter().copied().collect();
        let mut syms = Vec::new();
        for p in &perms {
            let pinv = invert8(p);
            if slot_moves
                .iter()
                .all(|mv| set.contains(&mv.map(|a| compose8(&compose8(p, &a), &pinv))))
            {
                syms.push(*p);
            }
        }
        if syms.len() > 16 {
            return Err(ModelError::Symmetries(syms.len()));
        }
        let mut conj = Vec::with_capacity(syms.len() * PERMS8);
        for p in &syms {
            let pinv = invert8(p);
            conj.extend(perms.iter().map(|x| moved_rank(x, &pinv, p)));
        }
        let inv: Vec<usize> = syms
            .iter()
            .map(|p| {
                let q = invert8(p);
                syms.iter()
                    .position(|s| *s == q)
                    .expect("symmetries form a group")
            })
            .collect();
        let mut raw2sym = vec![u32::MAX; PERMS8];
        let mut reps = Vec::new();
        let mut stab = Vec::new();
        for h in 0..PERMS8 {
            if raw2sym[h] != u32::MAX {
                continue;
            }
            let c = reps.len() as u32;
            reps.push(h as u16);
            let mut fix = 0u16;
            for s in 0..syms.len() {
                let h2 = conj[s * PERMS8 + h] as usize;
                if h2 == h {
                    fix |= 1 << s;
                }
                if raw2sym[h2] == u32::MAX {
                    raw2sym[h2] = c * 16 + inv[s] as u32;
                }
            }
            stab.push(fix);
        }
        let odd: Vec<bool> = perms.iter().map(|p| is_odd(p)).collect();
        let mut sp = Last8Space {
            ud,
            slot_moves,
            hmove,
            lmove,
            syms,
            conj,
            raw2sym,
            reps,
            stab,
            offsets: Vec::new(),
            kind: Vec::new(),
            kinds: Vec::new(),
            odd,
            nmoves,
        };
        let mut seen = std::collections::HashMap::new();
        let mut offsets = vec![0u64];
        for c in 0..sp.reps.len() {
            let parity = sp.odd[sp.reps[c] as usize];
            let k = if sp.stab[c] == 1 {
                u16::MAX
            } else {
                *seen.entry((sp.stab[c], parity)).or_insert_with(|| {
                    let mut list = Vec::new();
                    let mut pos = vec![u16::MAX; HALF8 as usize];
                    for l in 0..PERMS8 as u16 {
                        if sp.odd[l as usize] == parity && sp.least(c, l) == l {
                            pos[(l >> 1) as usize] = list.len() as u16;
                            list.push(l);
                        }
                    }
                    sp.kinds.push((list, pos));
                    (sp.kinds.len() - 1) as u16
                })
            };
            sp.kind.push(k);
            let n = if k == u16::MAX {
                HALF8
            } else {
                sp.kinds[k as usize].0.len() as u64
            };
            offsets.push(offsets[c] + n);
        }
        sp.offsets = offsets;
        Ok(sp)
    }

    /// Classes of the high permutation under the symmetries.
    pub fn classes(&self) -> usize {
        self.reps.len()
    }

    /// `p_s·x·p_s⁻¹` for the rank `r` of `x`.
    #[inline]
    pub fn conj(&self, s: usize, r: u16) -> u16 {
        self.conj[s * PERMS8 + r as usize]
    }

    /// The least low rank of the class of `(rep, l)` among the symmetries
    /// fixing the representative of class `c`.
    #[inline]
    fn least(&self, c: usize, l: u16) -> u16 {
        let fix = self.stab[c];
        if fix == 1 {
            return l;
        }
        let mut best = l;
        for s in 1..self.syms.len() {
            if fix >> s & 1 == 1 {
                best = best.min(self.conj(s, l));
            }
        }
        best
    }

    /// Rank of a state (its class's canonical member).
    #[inline]
    pub fn rank(&self, h: u16, l: u16) -> u64 {
        let x = self.raw2sym[h as usize];
        let (c, s) = ((x / 16) as usize, (x % 16) as usize);
        let l = self.conj(s, l);
        let k = self.kind[c];
        if k == u16::MAX {
            return self.offsets[c] + (l >> 1) as u64;
        }
        let l = self.least(c, l);
        self.offsets[c] + self.kinds[k as usize].1[(l >> 1) as usize] as u64
    }

    /// The canonical state of a rank.
    pub fn unrank(&self, r: u64) -> (u16, u16) {
        let c = self.offsets.partition_point(|&o| o <= r) - 1;
        let h = self.reps[c];
        let i = r - self.offsets[c];
        let k = self.kind[c];
        if k != u16::MAX {
            return (h, self.kinds[k as usize].0[i as usize]);
        }
        let mut l = (i << 1) as u16;
        if self.odd[l as usize] != self.odd[h as usize] {
            l ^= 1;
        }
        (h, l)
    }

    /// The state after move `i`.
    #[inline]
    pub fn step(&self, h: u16, l: u16, i: usize) -> (u16, u16) {
        (
            self.hmove[h as usize * self.nmoves + i],
            self.lmove[l as usize * self.nmoves + i],
        )
    }

    /// The two relative permutations of the U/D-layer tredges, given per
    /// local slot the tredge (any numbering) of the high wing, the low wing
    /// and the midge there; `None` if the three slot sets do not hold the
    /// same tredges.
    pub fn relative(hi: &[u8; 8], lo: &[u8; 8], mid: &[u8; 8]) -> Option<(u16, u16)> {
        let mut at = [u8::MAX; 256];
        for (s, &t) in mid.iter().enumerate() {
            at[t as usize] = s as u8;
        }
        let mut h = [0u8; 8];
        let mut l = [0u8; 8];
        for s in 0..8 {
            h[s] = at[hi[s] as usize];
            l[s] = at[lo[s] as usize];
        }
        if h.iter().chain(&l).any(|&x| x == u8::MAX) {
            return None;
        }
        Some((rank8(&h) as u16, rank8(&l) as u16))
    }

    /// Number of states (pairs of equal parity) up to the symmetries, by
    /// Burnside's lemma: the mean over the symmetries of the pairs each
    /// fixes. The count of canonical ranks must equal it.
    pub fn burnside(&self) -> u64 {
        let mut total = 0u64;
        for s in 0..self.syms.len() {
            let mut fixed = [0u64; 2];
            for r in 0..PERMS8 {
                if self.conj(s, r as u16) as usize == r {
                    fixed[self.odd[r] as usize] += 1;
                }
            }
            total += fixed[0] * fixed[0] + fixed[1] * fixed[1];
        }
        total / self.syms.len() as u64
    }
}

impl Space for Last8Space {
    fn size(&self) -> u64 {
        self.offsets[self.reps.len()]
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.rank(0, 0)]
    }

    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let (h, l) = self.unrank(rank);
        for i in 0..self.nmoves {
            let (h2, l2) = self.step(h, l, i);
            if !f(self.rank(h2, l2)) {
                return;
            }
        }
    }
}

/// The rank ([`rank8`]) of `b·x·a⁻¹`, given `a⁻¹`: the relative permutation
/// `x` (slot of one kind -> slot of the midge) after a move taking that
/// kind's slots by `a` and midges by `b` (also `p·x·p⁻¹`, a symmetry's
/// image). Each entry is gathered straight into [`rank8`]'s two table
/// indices: the move tables are millions of these at every load.
#[inline]
fn moved_rank(x: &[u8; 8], ainv: &[u8; 8], b: &[u8; 8]) -> u16 {
    let v = |t: usize| usize::from(b[usize::from(x[usize::from(ainv[t] & 7)] & 7)] & 7);
    let head = v(0) | v(1) << 3 | v(2) << 6 | v(3) << 9;
    let tail = v(4) | v(5) << 3 | v(6) << 6 | v(7) << 9;
    RANK8_HEAD[head] + RANK8_TAIL[tail]
}

/// The permutations of eight in rank order ([`rank8`] ranks them
/// lexicographically), each from the one before (the next permutation in
/// lexicographic order) instead of unranked on its own.
fn perms8() -> Vec<[u8; 8]> {
    let mut out = Vec::with_capacity(PERMS8);
    let mut p: [u8; 8] = std::array::from_fn(|i| i as u8);
    loop {
        out.push(p);
        // The last ascent, the rightmost entry above it, swapped, and the
        // tail after the ascent reversed.
        let Some(i) = (0..7).rev().find(|&i| p[i] < p[i + 1]) else {
            return out;
        };
        let Some(j) = (i + 1..8).rev().find(|&j| p[j] > p[i]) else {
            return out;
        };
        p.swap(i, j);
        p[i + 1..].reverse();
    }
}

/// `(p·q)[s] = p[q[s]]`.
fn compose8(p: &[u8; 8], q: &[u8; 8]) -> [u8; 8] {
    q.map(|s| p[s as usize])
}

fn invert8(p: &[u8; 8]) -> [u8; 8] {
    let mut out = [0u8; 8];
    for (s, &x) in p.iter().enumerate() {
        out[x as usize] = s as u8;
    }
    out
}

/// Rank of a permutation of eight: the same as [`crate::perm::perm_rank`],
/// by two lookups. A Lehmer digit of the first four entries (how many
/// smaller values come later) is the entry less the smaller values before
/// it, so it depends on the first four alone; those of the last four depend
/// only on the last four's order among themselves, and their factorials
/// (3!, 2!, 1!, 0!) rank that order. Each half's three-bit values make a
/// 12-bit index into a table of its share (the move tables rank millions
/// of permutations at load).
#[inline]
pub fn rank8(p: &[u8; 8]) -> u64 {
    let half = |q: &[u8]| -> usize {
        (q[0] & 7) as usize
            | ((q[1] & 7) as usize) << 3
            | ((q[2] & 7) as usize) << 6
            | ((q[3] & 7) as usize) << 9
    };
    u64::from(RANK8_HEAD[half(&p[..4])]) + u64::from(RANK8_TAIL[half(&p[4..])])
}

/// Per four leading entries (three bits each): their share of [`rank8`].
static RANK8_HEAD: [u16; 4096] = rank8_half(false);

/// Per four trailing entries (three bits each): the rank of their order
/// among themselves, [`rank8`]'s share of them.
static RANK8_TAIL: [u16; 4096] = rank8_half(true);

/// [`RANK8_HEAD`] or [`RANK8_TAIL`]. A head's digit is its entry less the
/// smaller entries before it (entries repeated, no permutation's head, get
/// any value); a tail's is the smaller entries after it.
const fn rank8_half(tail: bool) -> [u16; 4096] {
    let f: [u16; 4] = if tail {
        [6, 2, 1, 1]
    } else {
        [5040, 720, 120, 24]
    };
    let mut t = [0u16; 4096];
    let mut k = 0;
    while k < 4096 {
        let mut r = 0u16;
        let mut i = 0;
        while i < 4 {
            let v = (k >> (3 * i)) & 7;
            let mut digit = if tail { 0 } else { v as u16 };
            let mut j = 0;
            while j < 4 {
                let w = (k >> (3 * j)) & 7;
                if tail && j > i && w < v {
                    digit += 1;
                }
                if !tail && j < i && w < v {
                    digit = digit.wrapping_sub(1);
                }
                j += 1;
            }
            r = r.wrapping_add(digit.wrapping_mul(f[i]));
            i += 1;
        }
        t[k] = r;
        k += 1;
    }
    t
}

/// Inverse of [`rank8`].
pub fn unrank8(r: u64) -> [u8; 8] {
    let v = perm_unrank(r, 8);
    std::array::from_fn(|i| v[i])
}

/// States of [`Last8CentresSpace`]: the low wings' relative permutations
/// (8!) with the U/D T- and X-centre arrangements (C(8,4) each).
pub const LAST8_CENTRES_STATES: u64 = PERMS8 as u64 * 70 * 70;

/// The last stage's low wings (their permutation relative to the midges,
/// as in [`Last8Space`]) with the U/D T- and X-centres (which four of the
/// eight U/D facelets of each orbit show U): goal, paired with the centres
/// solved. The last group keeps the U/D-layer pieces and the U/D centres on
/// U and D, so this joins what [`Last8Space`] (the wings) and the stage's
/// centre distances bound apart.
pub struct Last8CentresSpace {
    /// Per low rank and move, the rank after it.
    lmove: Vec<u16>,
    /// Per orbit (T, X), per arrangement and move, the arrangement after it.
    centres: [Vec<u8>; 2],
    /// The orbits' projections (the U/D facelets, U marked).
    projections: [crate::projection::FaceletMaskSpace; 2],
    goal: u64,
    nmoves: usize,
}

impl Last8CentresSpace {
    /// The space under `moves`.
    pub fn new(moves: &[Move]) -> Result<Last8CentresSpace, ModelError> {
        Last8CentresSpace::with(&Last8Space::new(moves)?, moves)
    }

    /// The space under the moves `space` was made with.
    pub fn with(space: &Last8Space, moves: &[Move]) -> Result<Last8CentresSpace, ModelError> {
        use crate::notation::Face::{D, U};
        use crate::projection::{Block, Orbit, ProjectionDef};
        if moves.len() != space.nmoves {
            return Err(ModelError::Symmetry("not the wings' moves"));
        }
        let project = |orbit| {
            crate::projection::build(
                &ProjectionDef {
                    n: 5,
                    orbit,
                    blocks: vec![Block {
                        faces: vec![U, D],
                        marked: vec![U],
                    }],
                },
                moves,
            )
        };
        let projections = [project(Orbit::TCentres(1))?, project(Orbit::XCentres(1))?];
        let table = |p: &crate::projection::FaceletMaskSpace| -> Vec<u8> {
            (0..70)
                .flat_map(|r| {
                    let mask = p.unrank(r);
                    (0..moves.len()).map(move |i| p.rank(p.apply(mask, i)) as u8)
                })
                .collect()
        };
        let centres = [table(&projections[0]), table(&projections[1])];
        let goal = Self::rank(
            0,
            projections[0].rank(projections[0].goal_mask()) as u8,
            projections[1].rank(projections[1].goal_mask()) as u8,
        );
        Ok(Last8CentresSpace {
            lmove: space.lmove.clone(),
            centres,
            projections,
            goal,
            nmoves: moves.len(),
        })
    }

    /// Rank of a low rank with the two centre arrangements.
    #[inline]
    pub fn rank(l: u16, t: u8, x: u8) -> u64 {
        (l as u64 * 70 + t as u64) * 70 + x as u64
    }

    /// Inverse of [`Last8CentresSpace::rank`].
    #[inline]
    pub fn unrank(r: u64) -> (u16, u8, u8) {
        ((r / 4900) as u16, (r / 70 % 70) as u8, (r % 70) as u8)
    }

    /// The state after move `i`.
    #[inline]
    pub fn step(&self, (l, t, x): (u16, u8, u8), i: usize) -> (u16, u8, u8) {
        let n = self.nmoves;
        (
            self.lmove[l as usize * n + i],
            self.centres[0][t as usize * n + i],
            self.centres[1][x as usize * n + i],
        )
    }

    /// The centre arrangements of a 5x5x5 facelet state (colours as
    /// [`crate::cube::CubeN::solved`]).
    pub fn centre_ranks(&self, state: &[u8]) -> (u8, u8) {
        let mut marked = [false; 6];
        marked[crate::notation::Face::U as usize] = true;
        let [t, x] = self
            .projections
            .each_ref()
            .map(|p| p.rank(p.project(state, &marked)) as u8);
        (t, x)
    }

    /// The goal.
    pub fn goal(&self) -> u64 {
        self.goal
    }
}

impl Space for Last8CentresSpace {
    fn size(&self) -> u64 {
        LAST8_CENTRES_STATES
    }

    fn goals(&self) -> Vec<u64> {
        vec![self.goal]
    }

    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let s = Self::unrank(rank);
        for i in 0..self.nmoves {
            let (l, t, x) = self.step(s, i);
            if !f(Self::rank(l, t, x)) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pair5::last8_moves;

    #[test]
    fn rank8_is_the_lehmer_rank() {
        for r in 0..PERMS8 as u64 {
            let p = unrank8(r);
            assert_eq!(rank8(&p), r);
            assert_eq!(rank8(&p), crate::perm::perm_rank(&p));
        }
    }

    /// The permutations made one from the next are those of each rank; a
    /// move's rank taken by gathering is that of the move made slot by slot,
    /// and a symmetry's image that of the permutations composed.
    #[test]
    fn perms8_in_rank_order_and_moved_ranks() {
        let perms = perms8();
        assert_eq!(perms.len(), PERMS8);
        for (r, p) in perms.iter().enumerate() {
            assert_eq!(*p, unrank8(r as u64));
        }
        let sp = Last8Space::new(&last8_moves()).unwrap();
        for (r, x) in perms.iter().enumerate().step_by(7) {
            for (i, mv) in sp.slot_moves.iter().enumerate() {
                for (kind, table) in [&sp.hmove, &sp.lmove].into_iter().enumerate() {
                    let mut moved = [0u8; 8];
                    for s in 0..8 {
                        moved[mv[kind][s] as usize] = mv[2][x[s] as usize];
                    }
                    assert_eq!(u64::from(table[r * sp.nmoves + i]), rank8(&moved));
                    assert_eq!(
                        moved_rank(x, &invert8(&mv[kind]), &mv[2]) as u64,
                        rank8(&moved)
                    );
                }
            }
            for (s, p) in sp.syms.iter().enumerate() {
                let image = compose8(&compose8(p, x), &invert8(p));
                assert_eq!(u64::from(sp.conj(s, r as u16)), rank8(&image));
            }
        }
    }

    #[test]
    fn last8_symmetries_and_parity_trick() {
        let sp = Last8Space::new(&last8_moves()).unwrap();
        // The eight turns and reflections of the square (the U-D axis).
        assert_eq!(sp.syms.len(), 8);
        for r in 0..PERMS8 as u64 {
            // Swapping the last two entries changes the rank's lowest bit.
            let mut p = unrank8(r);
            p.swap(6, 7);
            assert_eq!(rank8(&p), r ^ 1);
        }
        assert_eq!(sp.size(), LAST8_STATES);
        assert_eq!(sp.burnside(), LAST8_STATES);
        for r in (0..sp.size()).step_by(101) {
            let (h, l) = sp.unrank(r);
            assert_eq!(sp.rank(h, l), r);
            // Every member of the class has the same rank.
            for s in 0..sp.syms.len() {
                assert_eq!(sp.rank(sp.conj(s, h), sp.conj(s, l)), r);
            }
        }
    }
}
