//! Stage 4 of the 5x5x5 reduction in the smaller group
//! `<R, L, U2, D2, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>`
//! ([`tablegen::pair5::rl_pair_moves`]): four tredges paired in the E slice
//! and the side centres in an arrangement the last stage's group reaches,
//! as [`super::EPair`], but from the states where at least four tredges have
//! no piece in the M slice (the group never takes a piece into or out of
//! it). Those four are the choice: every set of four of them is a root. The
//! bound is exact for the four tredges together (`5x5x5-e-four-rl`) and for
//! the side centres (`5x5x5-side-centres`: the pairing group's `U`/`D`
//! quarter turns, which this group lacks, do not move side centres, so the
//! distances are this group's too), and for the four tredges' midges with
//! one wing kind joined with both R/L centre orbits
//! (`5x5x5-e-four-rl-centres`, up to four rotations, exact, followed move by
//! move in its mod-3 table; it is of the low wings, and the high wings'
//! states are read through the front-back reflection, which takes them to
//! low wings' states of the same distance).

use super::Last8;
use crate::search::{allowed, next_distance, Stage};
use crate::tables::{nibble, Nibbles, TableError, Trits};
use crate::SolveError;
use std::path::Path;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube4::pairing_moves;
use tablegen::cube5::Tredges;
use tablegen::notation::Move;
use tablegen::pair5::{
    last8_moves, rl_pair_moves, rl_slots, EFourBothSpace, EFourCentreSpace, EFourMirror,
    EFourRlSyms, EFourSpace, EFourSyms, FourBoth, SidesSpace, E_FOUR_CENTRES,
};

/// The stage's tables: the four tredges, the side centres.
pub const RL_IDS: [&str; 2] = ["5x5x5-e-four-rl", "5x5x5-side-centres"];

/// Its table of the four tredges' midges and one wing kind with both R/L
/// centre orbits, up to symmetry.
pub const RL_JOINT_ID: &str = "5x5x5-e-four-rl-centres";

/// A node: the side centres; the four tredges' midge, high and low wing
/// slots (R/L-layer numbering), tredge by tredge; their exact distance; the
/// exact distances of the joint tables (low, high); the bound.
#[derive(Clone, Copy, Debug)]
pub struct NR {
    sides: u32,
    four: [[u8; 4]; 3],
    d: u8,
    dj: [u8; 2],
    h: u8,
}

/// The joint table: its space (the low wings'; for the walk down), its
/// symmetries, its entries, and the reflection that reads the high wings'
/// states in it.
struct Joint {
    space: EFourBothSpace,
    syms: EFourSyms,
    tab: Trits,
    mirror: EFourMirror,
}

/// Stage 4 in the R/L-layer group (see the module documentation).
pub struct RlPair {
    /// The 16 moves of the group.
    pub moves: Vec<Move>,
    /// Per move, its index among the pairing group's moves (the side
    /// centres' space is the pairing group's).
    in_pairing: Vec<usize>,
    tredges: Tredges,
    /// Per dedge, its R/L-layer slot (`u8::MAX` in the M slice).
    slot_of: [u8; 12],
    four: EFourSpace,
    /// `5x5x5-e-four-rl`'s symmetries (it is stored up to four rotations).
    four_syms: EFourRlSyms,
    four_tab: Trits,
    sides: SidesSpace,
    sides_tab: Nibbles,
    /// The joint table ([`RL_JOINT_ID`]) and, per R/L orbit (T, X), the
    /// arrangement rank of each byte of the side centres' state.
    joint: Joint,
    centre_of_byte: [[u8; 256]; 2],
}

impl RlPair {
    /// Loads (or builds) the stage's tables.
    pub fn load(dir: &Path, quiet: bool) -> Result<RlPair, TableError> {
        let bad = |id: &str, msg: &str| TableError::Build(id.into(), msg.into());
        let moves = rl_pair_moves();
        let pairing = pairing_moves();
        match catalog::find(RL_IDS[0]).map(|d| d.space) {
            Some(SpaceDef::Reduction5 { moves: m, .. }) if m == moves => {}
            _ => return Err(bad(RL_IDS[0], "not a table of the R/L-layer group")),
        }
        let in_pairing = moves
            .iter()
            .map(|m| pairing.iter().position(|p| p == m))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| bad(RL_IDS[0], "a move outside the pairing group"))?;
        let sides = SidesSpace::new(&pairing, &last8_moves())
            .map_err(|e| TableError::model(RL_IDS[1], e))?;
        let last = last8_moves();
        let four = EFourSpace::new(&moves).map_err(|e| TableError::model(RL_IDS[0], e))?;
        let four_syms = EFourRlSyms::new(&four).map_err(|e| TableError::model(RL_IDS[0], e))?;
        let id = RL_JOINT_ID;
        match catalog::find(id).map(|d| d.space) {
            Some(SpaceDef::Reduction5 {
                space: tablegen::cube5::Reduction5::EFourBoth { high: false },
                moves: m,
            }) if m == moves => {}
            _ => return Err(bad(id, "not a joint table of the R/L-layer group")),
        }
        let model = |e| TableError::model(id, e);
        let space = EFourBothSpace::new(false, &moves, &last).map_err(model)?;
        let high = EFourBothSpace::new(true, &moves, &last).map_err(model)?;
        let joint = Joint {
            syms: EFourSyms::new(&space, false).map_err(model)?,
            mirror: EFourMirror::new(&high, &space).map_err(model)?,
            tab: Trits::load_trits(id, dir, quiet)?,
            space,
        };
        let mut centre_of_byte = [[0u8; 256]; 2];
        for (orbit, p) in [&joint.space.t.centre, &joint.space.x.centre]
            .into_iter()
            .enumerate()
        {
            for (b, out) in centre_of_byte[orbit].iter_mut().enumerate() {
                let mut mask = 0u64;
                for j in 0..8 {
                    if b >> j & 1 == 1 {
                        let f = sides.positions[8 * orbit + j];
                        let bit = p.positions.iter().position(|&q| q == f).ok_or_else(|| {
                            bad(RL_JOINT_ID, "its centres are not the side centres'")
                        })?;
                        mask |= 1 << bit;
                    }
                }
                // Bytes with other than four bits set never occur.
                *out = if b.count_ones() == 4 {
                    p.rank(mask) as u8
                } else {
                    0
                };
            }
        }
        Ok(RlPair {
            joint,
            centre_of_byte,
            four,
            four_syms,
            four_tab: Trits::load_trits(RL_IDS[0], dir, quiet)?,
            sides,
            sides_tab: Nibbles::load(RL_IDS[1], dir, quiet)?,
            slot_of: rl_slots().1,
            tredges: Tredges::new(),
            in_pairing,
            moves,
        })
    }

    /// Bytes of the stage's own tables (the side centres' is stage 4's too).
    pub fn table_bytes(&self) -> u64 {
        (self.four_tab.bytes().len() + self.joint.tab.bytes().len()) as u64
    }

    /// The T and X arrangement ranks of the side centres in the joint
    /// tables.
    #[inline]
    fn centre_ranks(&self, sides: u32) -> (u8, u8) {
        (
            self.centre_of_byte[0][(sides & 0xff) as usize],
            self.centre_of_byte[1][(sides >> 8 & 0xff) as usize],
        )
    }

    /// The states of the joint table's space of four tredges with the side
    /// centres: with their low wings, and with their high wings reflected.
    #[inline]
    fn joint_states(&self, f: &[[u8; 4]; 3], sides: u32) -> [FourBoth; 2] {
        let (t, x) = self.centre_ranks(sides);
        let m = &self.joint.mirror;
        [
            ((f[0], f[2], t), x),
            (
                (
                    f[0].map(|s| m.mids[s as usize]),
                    f[1].map(|s| m.wings[s as usize]),
                    m.t[t as usize],
                ),
                m.x[x as usize],
            ),
        ]
    }

    /// The indices in the joint table of four tredges with the side
    /// centres: low wings, high wings.
    #[inline]
    fn joint_indices(&self, f: &[[u8; 4]; 3], sides: u32) -> [usize; 2] {
        self.joint_states(f, sides)
            .map(|((mids, wings, t), x)| self.joint.syms.index(mids, wings, t, x) as usize)
    }

    /// Exact distances of four tredges' midges and their low (high) wings
    /// with the side centres: walks downhill in the joint mod-3 table.
    fn joint_distances(&self, f: &[[u8; 4]; 3], sides: u32) -> Result<[u8; 2], SolveError> {
        let j = &self.joint;
        let t = j.tab.bytes();
        let mut out = [0u8; 2];
        for (k, ((mids, wings, ct), cx)) in self.joint_states(f, sides).into_iter().enumerate() {
            let start = EFourCentreSpace::index(mids, wings, ct) * 70 + cx as u64;
            let path = crate::walk_downhill_mod3(
                start,
                self.moves.len(),
                30,
                |&r| j.space.goal_ranks().binary_search(&r).is_ok(),
                |&r| {
                    let i = j.syms.index_of(r / E_FOUR_CENTRES, r % E_FOUR_CENTRES);
                    tablefmt::trit(t, i as usize)
                },
                |&r, i| j.space.apply(&EFourBothSpace::unrank(r), i),
            )
            .map_err(|e| SolveError::Internal(format!("{RL_JOINT_ID}: {e}")))?;
            out[k] = path.len() as u8;
        }
        Ok(out)
    }

    #[inline]
    fn sides_distance(&self, s: u32) -> u8 {
        match self.sides.rank(s) {
            u64::MAX => u8::MAX,
            r => nibble(self.sides_tab.bytes(), r as usize) as u8,
        }
    }

    /// The index of four tredges in `5x5x5-e-four-rl`.
    #[inline]
    fn four_index(&self, f: &[[u8; 4]; 3]) -> u64 {
        self.four_syms.index(f[0], f[1], f[2])
    }

    /// Exact distance of four tredges: a walk downhill in the mod-3 table.
    fn four_distance(&self, f: &[[u8; 4]; 3]) -> Result<u8, SolveError> {
        let t = self.four_tab.bytes();
        let goal = self.four.goal();
        let path = crate::walk_downhill_mod3(
            EFourSpace::index(f[0], f[1], f[2]),
            self.moves.len(),
            30,
            |&r| r == goal,
            |&r| {
                let (m, h, l) = EFourSpace::unrank(r);
                tablefmt::trit(t, self.four_syms.index(m, h, l) as usize)
            },
            |&r, i| self.four.apply(&EFourSpace::unrank(r), i),
        )
        .map_err(|e| SolveError::Internal(format!("{}: {e}", RL_IDS[0])))?;
        Ok(path.len() as u8)
    }

    /// The tredges of a state stage 3 left that have no piece in the M
    /// slice, as their (midge, high, low) R/L-layer slots; an error names
    /// what stage 3 did not do (an internal one).
    fn free_tredges(&self, state: &[u8]) -> Result<Vec<[u8; 3]>, SolveError> {
        let mut at = super::pair::tredge_slots(&self.tredges, state)?;
        for a in at.iter_mut() {
            *a = a.map(|d| self.slot_of[d as usize]);
        }
        Ok(at
            .into_iter()
            .filter(|a| a.iter().all(|&s| s != u8::MAX))
            .collect())
    }

    /// Whether the stage has a root in a state stage 3 left: four tredges
    /// with no piece in the M slice.
    pub fn applies(&self, state: &[u8]) -> Result<bool, SolveError> {
        Ok(self.free_tredges(state)?.len() >= 4)
    }

    /// The nodes of a state stage 3 left, one per set of four tredges with
    /// no piece in the M slice, best bound first, at most `keep`; none where
    /// fewer than four have none. Bounds weighted by `1 + weight / 8`.
    pub fn roots_weighted(
        &self,
        state: &[u8],
        keep: usize,
        weight: u8,
    ) -> Result<Vec<NR>, SolveError> {
        let free = self.free_tredges(state)?;
        if free.len() < 4 {
            return Ok(Vec::new());
        }
        let sides = self.sides.project(state);
        let ds = self.sides_distance(sides);
        if ds == u8::MAX {
            return Err(SolveError::Internal(
                "stage 3 left centres the pairing group cannot solve".into(),
            ));
        }
        let mut out = Vec::new();
        let k = free.len();
        for set in 0u32..1 << k {
            if set.count_ones() != 4 {
                continue;
            }
            let mut four = [[0u8; 4]; 3];
            let mut j = 0;
            for (t, a) in free.iter().enumerate() {
                if set >> t & 1 == 1 {
                    for p in 0..3 {
                        four[p][j] = a[p];
                    }
                    j += 1;
                }
            }
            let d = self.four_distance(&four)?;
            let dj = self.joint_distances(&four, sides)?;
            out.push(NR {
                sides,
                four,
                d,
                dj,
                h: Last8::weighted(d.max(ds).max(dj[0]).max(dj[1]), weight),
            });
        }
        out.sort_by_key(|n| n.h);
        out.truncate(keep.max(1));
        Ok(out)
    }

    /// The bound of a node.
    pub fn h(&self, n: &NR) -> usize {
        n.h as usize
    }

    /// [`Stage::expand`] with the bound weighted: times `1 + weight / 8`.
    pub fn expand_weighted(
        &self,
        n: &NR,
        prev: Option<usize>,
        left: usize,
        out: &mut Vec<(usize, NR)>,
        weight: u8,
    ) -> u64 {
        let left = left - 1;
        let prev = prev.map(|i| self.moves[i]);
        let t = self.four_tab.bytes();
        let mut dropped = 0;
        // Two passes: the side centres first; the survivors' entries in the
        // four-tredge table prefetched together, then read.
        let mut kids = [(0usize, 0u32, 0u8, [[0u8; 4]; 3], 0usize, [0usize; 2]); 16];
        let mut k = 0;
        for (i, &m) in self.moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let sides = self.sides.apply(n.sides, self.in_pairing[i]);
            let ds = self.sides_distance(sides);
            if Last8::weighted(ds, weight) as usize > left {
                dropped += 1;
                continue;
            }
            let [hm, lm, mm] = &self.four.moves[i];
            let four = [
                n.four[0].map(|x| mm[x as usize]),
                n.four[1].map(|x| hm[x as usize]),
                n.four[2].map(|x| lm[x as usize]),
            ];
            let r = self.four_index(&four) as usize;
            crate::tables::prefetch(t, r / 5);
            let rj = self.joint_indices(&four, sides);
            for &x in &rj {
                crate::tables::prefetch(self.joint.tab.bytes(), x / 5);
            }
            kids[k] = (i, sides, ds, four, r, rj);
            k += 1;
        }
        for &(i, sides, ds, four, r, rj) in &kids[..k] {
            let d = next_distance(n.d, tablefmt::trit(t, r));
            let dj = [0, 1]
                .map(|k| next_distance(n.dj[k], tablefmt::trit(self.joint.tab.bytes(), rj[k])));
            let h = Last8::weighted(d.max(ds).max(dj[0]).max(dj[1]), weight);
            if h as usize > left {
                dropped += 1;
                continue;
            }
            out.push((
                i,
                NR {
                    sides,
                    four,
                    d,
                    dj,
                    h,
                },
            ));
        }
        dropped
    }
}

impl Stage for RlPair {
    type Node = NR;

    fn prune(&self, n: &NR, left: usize) -> bool {
        n.h as usize > left
    }

    fn goal(&self, n: &NR, _left: usize) -> Option<u8> {
        (n.d == 0 && n.h == 0).then_some(0)
    }

    fn expand(&self, n: &NR, prev: Option<usize>, left: usize, out: &mut Vec<(usize, NR)>) -> u64 {
        self.expand_weighted(n, prev, left, out, 0)
    }
}
