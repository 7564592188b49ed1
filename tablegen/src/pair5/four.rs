//! The E-slice pairing in a smaller group: `<R, L, U2, D2, F2, B2, Uw2, Dw2,
//! Rw2, Lw2, Fw2, Bw2>` ([`rl_pair_moves`]), the pairing group without the
//! `U`/`D` quarter turns. In it no edge piece leaves the R and L layers'
//! eight edges, and none leaves the M slice, so four tredges whose twelve
//! pieces are all in the R and L layers can be paired in the E slice with the
//! M slice never entered, and the bound can be exact for all four at once:
//! [`EFourSpace`], their midges and both wings in eight slots, 197,568,000
//! ranks. A design fact of cs0x7f's cube555 (its fourth phase pairs four
//! tredges in such a group); the coordinates and tables here are our own.

use super::{colex, placement, tredge_space, uncolex, unplacement, ESliceSpace};
use crate::cube5::Tredges;
use crate::notation::{Face, Move};
use crate::ModelError;

/// The moves of the R/L-layer pairing: `R L` turns, `U2 D2 F2 B2` and the six
/// wide half turns.
pub fn rl_pair_moves() -> Vec<Move> {
    use Face::*;
    let mut moves = Vec::new();
    for f in [R, L] {
        for t in [1, 3, 2] {
            moves.push(Move::face(f, t));
        }
    }
    for f in [U, D, F, B] {
        moves.push(Move::face(f, 2));
    }
    for f in [U, D, R, L, F, B] {
        moves.push(Move::block(f, 2, 2));
    }
    moves
}

/// 8·7·6·5: placements of four wings in eight slots.
pub const RL_PLACEMENTS: u64 = 1680;
/// C(8,4) x 1680²: states of [`EFourSpace`].
pub const E_FOUR_STATES: u64 = 70 * RL_PLACEMENTS * RL_PLACEMENTS;

/// The R and L layers' eight dedges ([`Tredges`] numbering), in order: the
/// eight slots of [`EFourSpace`]; and per dedge its slot (`u8::MAX` for the
/// M slice's four).
pub fn rl_slots() -> ([u8; 8], [u8; 12]) {
    let t = Tredges::new();
    let mut slots = [0u8; 8];
    let mut of = [u8::MAX; 12];
    let mut k = 0;
    for d in 0..12u8 {
        // Kociemba edges: UR UF UL UB DR DF DL DB FR FL BL BR; the M
        // slice's are UF, UB, DF, DB.
        if !matches!(t.edge_of_dedge[d as usize], 1 | 3 | 5 | 7) {
            slots[k] = d;
            of[d as usize] = k as u8;
            k += 1;
        }
    }
    (slots, of)
}

/// Four tredges: their midges' slots (ascending) and their high and low
/// wings' slots (within the class), all among the eight R/L-layer slots.
pub type Four8 = ([u8; 4], [u8; 4], [u8; 4]);

/// Four tredges' midges with both their wings, all in the R and L layers,
/// under [`rl_pair_moves`] (or any moves that keep those layers' edges in
/// them): goal, the four paired in the E slice. The tredges are taken in the
/// order of their midges' slots, so any four use the same table.
#[derive(Clone, Debug)]
pub struct EFourSpace {
    /// Per move: images of the eight high slots, the eight low slots and the
    /// eight midge slots.
    pub moves: Vec<[[u8; 8]; 3]>,
    goal: u64,
}

impl EFourSpace {
    /// The space under `moves`; an error if a move mixes the wing classes,
    /// flips a midge, or takes an edge piece out of the R and L layers.
    pub fn new(moves: &[Move]) -> Result<EFourSpace, ModelError> {
        let (slots, of) = rl_slots();
        let t = Tredges::new();
        let moves = moves
            .iter()
            .map(|&m| {
                let c = t.class_move(m)?;
                let mut out = [[0u8; 8]; 3];
                for (o, img) in out.iter_mut().zip(c.iter()) {
                    for (k, &d) in slots.iter().enumerate() {
                        let to = of[img[d as usize] as usize];
                        if to == u8::MAX {
                            return Err(ModelError::LeavesLayers(m));
                        }
                        o[k] = to;
                    }
                }
                Ok(out)
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        let e = ESliceSpace::unrank(ESliceSpace::new(true, &[])?.goal()).0;
        let e8 = e.map(|d| of[d as usize]);
        Ok(EFourSpace {
            moves,
            goal: Self::rank(&(e8, e8, e8)),
        })
    }

    /// Rank of four tredges given in any order: midge slots, high and low
    /// wing slots (within the class, R/L-layer numbering), tredge by tredge.
    #[inline]
    pub fn index(mids: [u8; 4], hi: [u8; 4], lo: [u8; 4]) -> u64 {
        let mut k = [0usize, 1, 2, 3];
        k.sort_unstable_by_key(|&i| mids[i]);
        Self::rank(&(k.map(|i| mids[i]), k.map(|i| hi[i]), k.map(|i| lo[i])))
    }

    /// Rank of a standard state: colex rank of the midge set, then the high
    /// and the low placements.
    #[inline]
    pub fn rank(s: &Four8) -> u64 {
        (colex(&s.0) * RL_PLACEMENTS + placement(&s.1, 8)) * RL_PLACEMENTS + placement(&s.2, 8)
    }

    /// Inverse of [`EFourSpace::rank`].
    pub fn unrank(r: u64) -> Four8 {
        (
            uncolex(r / (RL_PLACEMENTS * RL_PLACEMENTS)),
            unplacement(r / RL_PLACEMENTS % RL_PLACEMENTS, 8),
            unplacement(r % RL_PLACEMENTS, 8),
        )
    }

    /// The state after move `i`, standardised.
    #[inline]
    pub fn apply(&self, s: &Four8, i: usize) -> u64 {
        let [h, l, m] = &self.moves[i];
        Self::index(
            s.0.map(|x| m[x as usize]),
            s.1.map(|x| h[x as usize]),
            s.2.map(|x| l[x as usize]),
        )
    }

    /// The goal: the four E-slice dedges' midges, each with its wings.
    pub fn goal(&self) -> u64 {
        self.goal
    }
}

tredge_space!(EFourSpace, E_FOUR_STATES, |sp| vec![sp.goal]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e_four_ranks_round_trip() {
        for r in (0..E_FOUR_STATES).step_by(999_983) {
            assert_eq!(EFourSpace::rank(&EFourSpace::unrank(r)), r);
        }
        assert_eq!(
            EFourSpace::rank(&EFourSpace::unrank(E_FOUR_STATES - 1)),
            E_FOUR_STATES - 1
        );
    }

    #[test]
    fn rl_moves_keep_the_layers_and_invert() {
        let sp = EFourSpace::new(&rl_pair_moves()).unwrap();
        let ms = rl_pair_moves();
        let (r, ri) = (0, 1);
        assert_eq!(
            (ms[r].to_string(), ms[ri].to_string()),
            ("R".into(), "R'".into())
        );
        for k in (0..E_FOUR_STATES).step_by(1_000_003) {
            let s = EFourSpace::unrank(k);
            let k1 = sp.apply(&s, r);
            assert_eq!(sp.apply(&EFourSpace::unrank(k1), ri), k);
        }
        // A U quarter turn takes R/L-layer edges into the M slice.
        let u = Move::face(Face::U, 1);
        assert!(matches!(
            EFourSpace::new(&[u]),
            Err(ModelError::LeavesLayers(_))
        ));
    }
}

/// C(8,4) x 1680 x C(8,4): states of [`EFourCentreSpace`].
pub const E_FOUR_CENTRE_STATES: u64 = 70 * RL_PLACEMENTS * 70;

/// Four tredges' midges with one kind of their wings (all in the R and L
/// layers, as [`EFourSpace`]) and one orbit of the R/L centres (which four
/// of the eight R/L facelets of the orbit show R), under
/// [`rl_pair_moves`]: goal, the four paired in the E slice with the centres
/// in an arrangement the last stage's group reaches from solved (the R/L
/// part of the pairing stage's goal). Joins what [`EFourSpace`] and the
/// side centres' table bound apart.
pub struct EFourCentreSpace {
    /// Per move: images of the eight wing slots (of the kind) and of the
    /// eight midge slots.
    pub(crate) moves: Vec<[[u8; 8]; 2]>,
    /// The centre orbit's projection (R and L, R marked).
    pub centre: crate::projection::FaceletMaskSpace,
    /// Per arrangement and move, the arrangement after it.
    cnext: Vec<u8>,
    goals: Vec<u64>,
}

/// The projection of one R/L centre orbit (`x`: the X-centres, else the
/// T-centres): which four of its eight facelets on R and L show R.
pub fn rl_centre_def(x: bool) -> crate::projection::ProjectionDef {
    use crate::projection::{Block, Orbit, ProjectionDef};
    ProjectionDef {
        n: 5,
        orbit: if x {
            Orbit::XCentres(1)
        } else {
            Orbit::TCentres(1)
        },
        blocks: vec![Block {
            faces: vec![Face::R, Face::L],
            marked: vec![Face::R],
        }],
    }
}

/// A state of [`EFourCentreSpace`]: midge slots (ascending), the wings'
/// slots (tredge by tredge), the centre arrangement.
pub type FourCentre = ([u8; 4], [u8; 4], u8);

impl EFourCentreSpace {
    /// The space under `moves` for the high (`high`) or low wings and the
    /// X- (`x`) or T-centres; the centres' goals from the orbit of solved
    /// under `last`.
    pub fn new(
        high: bool,
        x: bool,
        moves: &[Move],
        last: &[Move],
    ) -> Result<EFourCentreSpace, ModelError> {
        let four = EFourSpace::new(moves)?;
        let kind = if high { 0 } else { 1 };
        let def = rl_centre_def(x);
        let centre = crate::projection::build(&def, moves)?;
        let cnext = (0..70)
            .flat_map(|r| {
                let mask = centre.unrank(r);
                let centre = &centre;
                (0..moves.len()).map(move |i| centre.rank(centre.apply(mask, i)) as u8)
            })
            .collect();
        // The arrangements the last group reaches from solved.
        let lastp = crate::projection::build(&def, last)?;
        let mut reached = vec![lastp.goal_mask()];
        let mut k = 0;
        while k < reached.len() {
            for i in 0..last.len() {
                let c = lastp.apply(reached[k], i);
                if !reached.contains(&c) {
                    reached.push(c);
                }
            }
            k += 1;
        }
        let e = EFourSpace::unrank(four.goal());
        let mut goals: Vec<u64> = reached
            .iter()
            .map(|&m| Self::rank(&(e.0, e.1, centre.rank(m) as u8)))
            .collect();
        goals.sort_unstable();
        Ok(EFourCentreSpace {
            moves: four.moves.iter().map(|m| [m[kind], m[2]]).collect(),
            centre,
            cnext,
            goals,
        })
    }

    /// Rank of four tredges given in any order (midge slots, wing slots,
    /// tredge by tredge) with a centre arrangement.
    #[inline]
    pub fn index(mids: [u8; 4], wings: [u8; 4], c: u8) -> u64 {
        let mut k = [0usize, 1, 2, 3];
        k.sort_unstable_by_key(|&i| mids[i]);
        Self::rank(&(k.map(|i| mids[i]), k.map(|i| wings[i]), c))
    }

    /// Rank of a standard state.
    #[inline]
    pub fn rank(s: &FourCentre) -> u64 {
        (colex(&s.0) * RL_PLACEMENTS + placement(&s.1, 8)) * 70 + s.2 as u64
    }

    /// Inverse of [`EFourCentreSpace::rank`].
    pub fn unrank(r: u64) -> FourCentre {
        (
            uncolex(r / (70 * RL_PLACEMENTS)),
            unplacement(r / 70 % RL_PLACEMENTS, 8),
            (r % 70) as u8,
        )
    }

    /// The centre arrangement after move `i`.
    #[inline]
    pub fn centre_step(&self, c: u8, i: usize) -> u8 {
        self.cnext[c as usize * self.moves.len() + i]
    }

    /// The state after move `i`, standardised.
    #[inline]
    pub fn apply(&self, s: &FourCentre, i: usize) -> u64 {
        let [w, m] = &self.moves[i];
        Self::index(
            s.0.map(|x| m[x as usize]),
            s.1.map(|x| w[x as usize]),
            self.centre_step(s.2, i),
        )
    }

    /// The goals.
    pub fn goal_ranks(&self) -> &[u64] {
        &self.goals
    }
}

tredge_space!(EFourCentreSpace, E_FOUR_CENTRE_STATES, |sp| sp
    .goals
    .clone());

/// C(8,4) x 1680 x C(8,4)²: states of [`EFourBothSpace`] (576,240,000).
pub const E_FOUR_BOTH_STATES: u64 = E_FOUR_CENTRE_STATES * 70;

/// Four tredges' midges with one kind of their wings (as
/// [`EFourCentreSpace`]) and both orbits of the R/L centres, under
/// [`rl_pair_moves`]: goal, the four paired in the E slice with the two
/// orbits in an arrangement the last stage's group reaches from solved
/// (both orbits at once). The space of cs0x7f's cube555 fourth-phase table
/// (its "MLEdgeSymUDCenter", 576,240,000 states; its axis is our R-L one);
/// stored up to symmetry ([`EFourSyms`]).
pub struct EFourBothSpace {
    /// The edges with the T-centres (its moves and ranks).
    pub t: EFourCentreSpace,
    /// The X-centres' steps (its edges are `t`'s).
    pub x: EFourCentreSpace,
    goals: Vec<u64>,
}

/// A state of [`EFourBothSpace`]: its T-centres' space's state with an
/// X-centre arrangement.
pub type FourBoth = (FourCentre, u8);

impl EFourBothSpace {
    /// The space under `moves` for the high (`high`) or low wings; the
    /// centres' goals from the orbit of solved under `last`, both orbits
    /// together.
    pub fn new(high: bool, moves: &[Move], last: &[Move]) -> Result<EFourBothSpace, ModelError> {
        let t = EFourCentreSpace::new(high, false, moves, last)?;
        let x = EFourCentreSpace::new(high, true, moves, last)?;
        let lt = crate::projection::build(&rl_centre_def(false), last)?;
        let lx = crate::projection::build(&rl_centre_def(true), last)?;
        let mut reached = vec![(lt.goal_mask(), lx.goal_mask())];
        let mut k = 0;
        while k < reached.len() {
            let (a, b) = reached[k];
            for i in 0..last.len() {
                let c = (lt.apply(a, i), lx.apply(b, i));
                if !reached.contains(&c) {
                    reached.push(c);
                }
            }
            k += 1;
        }
        let e = EFourSpace::unrank(EFourSpace::new(moves)?.goal());
        let mut goals: Vec<u64> = reached
            .iter()
            .map(|&(a, b)| Self::rank(&(e.0, e.1, t.centre.rank(a) as u8), x.centre.rank(b) as u8))
            .collect();
        goals.sort_unstable();
        Ok(EFourBothSpace { t, x, goals })
    }

    /// Rank of a standard state of the T-centres' space with an X-centre
    /// arrangement.
    #[inline]
    pub fn rank(s: &FourCentre, x: u8) -> u64 {
        EFourCentreSpace::rank(s) * 70 + x as u64
    }

    /// Inverse of [`EFourBothSpace::rank`].
    pub fn unrank(r: u64) -> (FourCentre, u8) {
        (EFourCentreSpace::unrank(r / 70), (r % 70) as u8)
    }

    /// The state after move `i`, standardised.
    #[inline]
    pub fn apply(&self, s: &(FourCentre, u8), i: usize) -> u64 {
        self.t.apply(&s.0, i) * 70 + self.x.centre_step(s.1, i) as u64
    }

    /// The goals (sorted).
    pub fn goal_ranks(&self) -> &[u64] {
        &self.goals
    }
}

impl crate::bfs::Space for EFourBothSpace {
    fn size(&self) -> u64 {
        E_FOUR_BOTH_STATES
    }

    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }

    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let s = Self::unrank(rank);
        for i in 0..self.t.moves.len() {
            if !f(self.apply(&s, i)) {
                return;
            }
        }
    }
}

/// 117,600: the edge part (midge set and wing placement) of
/// [`EFourBothSpace`].
pub const E_FOUR_EDGES: u64 = 70 * RL_PLACEMENTS;
/// 4,900: the centre part (T and X arrangements) of [`EFourBothSpace`].
pub const E_FOUR_CENTRES: u64 = 70 * 70;
/// Classes of the edge part under [`EFourSyms`]'s four rotations
/// (cube555's count too; checked in the tests).
pub const E_FOUR_CLASSES: u64 = 29_616;
/// Entries of the table of [`EFourSyms`]: classes x 4,900.
pub const E_FOUR_BOTH_ENTRIES: u64 = E_FOUR_CLASSES * E_FOUR_CENTRES;

/// Builds the table of [`EFourBothSpace`] up to [`EFourSyms`] for the high
/// (`high`) or low wings: a BFS of the whole space in memory, then each
/// index's distance read from the state it names. The entries, their
/// histogram (per index) and the BFS's expansions.
pub fn build_e_four_both(
    high: bool,
    moves: &[Move],
    progress: &crate::progress::Progress,
) -> Result<(Vec<u8>, Vec<u64>, u64), ModelError> {
    let space = EFourBothSpace::new(high, moves, &super::last8_moves())?;
    let syms = EFourSyms::new(&space, high)?;
    if syms.entries() != E_FOUR_BOTH_ENTRIES {
        return Err(ModelError::Symmetry(
            "another class count than E_FOUR_CLASSES",
        ));
    }
    let r = crate::bfs::dense_bfs(&space, progress);
    reduced(&r, syms.entries(), |i| syms.state_of(i))
}

/// [`EFourBothSpace`] up to the four rotations that keep the U-D and R-L
/// axes (none, `x2`, `y2`, `z2`): each keeps the moves, the wing kinds, the
/// E slice and the goals. A state's edge part is taken to the least of its
/// images (its class's representative) by a rotation, and its centre part
/// by the same rotation; the index is `class * 4900 + centres`. Where a
/// rotation fixes the representative, its class has more than one index for
/// the same state, each a real state (so an index's distance is read from
/// the state it names).
pub struct EFourSyms {
    /// Per edge rank: its class and the rotation to its representative
    /// (`class << 2 | rotation`).
    class_of: Vec<u32>,
    /// Per class: its representative's edge rank.
    pub reps: Vec<u32>,
    /// Per class: the states each of its indices stands for (4 over the
    /// number of rotations that fix its representative).
    weights: Vec<u8>,
    /// Per rotation and centre rank, its image.
    centres: Vec<u16>,
}

/// A symmetry's action on a state of [`EFourBothSpace`]: images of the
/// midge slots, of the wing slots (of the kind the state has to the kind it
/// gets), of the T and of the X arrangements.
type Action = ([u8; 8], [u8; 8], Vec<u8>, Vec<u8>);

/// A symmetry of the cube (its facelet permutation `perm`, a reflection
/// where `mirror`) acting on four tredges' slots (their wings of the kind
/// `high`; a reflection takes them to the other kind) and on the R/L
/// centres: what it does to a state conjugated by it (the cube mapped, then
/// recoloured so that its centres read as home).
fn sym_action(
    perm: &[u16],
    mirror: bool,
    high: bool,
    t: &crate::projection::FaceletMaskSpace,
    x: &crate::projection::FaceletMaskSpace,
) -> Result<Action, ModelError> {
    let bad = ModelError::Symmetry;
    let c5 = crate::cube::CubeN::new(5);
    let mapped = |s: &[u8]| -> Vec<u8> { perm.iter().map(|&k| s[k as usize]).collect() };
    let turned = |s: &[u8]| -> Vec<u8> {
        let mut out = mapped(s);
        // The colour now on each face's middle centre is that face's.
        let mut map = [0u8; 6];
        for f in Face::ALL {
            map[out[c5.index(f, 2, 2)] as usize] = s[c5.index(f, 2, 2)];
        }
        for c in out.iter_mut() {
            *c = map[*c as usize];
        }
        out
    };
    // The pieces: the symmetry's own slot permutation (recolouring keeps
    // which wing goes with which midge, all the state says of them). A
    // reflected wing reads as the other kind of its dedge. A midge goes
    // where the high wing of its dedge goes.
    let (slots, of) = rl_slots();
    let wing_to = Tredges::new().wing_images(perm, mirror)?;
    let (from, to) = match (high, mirror) {
        (true, false) => (0, 0),
        (false, false) => (12, 12),
        (true, true) => (0, 12),
        (false, true) => (12, 0),
    };
    let mut w8 = [0u8; 8];
    let mut m8 = [0u8; 8];
    for (k, &d) in slots.iter().enumerate() {
        let w = wing_to[from + d as usize] as usize;
        if !(to..to + 12).contains(&w) {
            return Err(bad("a symmetry takes wings to the wrong kind"));
        }
        w8[k] = of[w - to];
        m8[k] = of[wing_to[d as usize] as usize % 12];
        if w8[k] == u8::MAX || m8[k] == u8::MAX {
            return Err(bad("a symmetry takes an edge out of the R and L layers"));
        }
    }
    let centre = |p: &crate::projection::FaceletMaskSpace| -> Result<Vec<u8>, ModelError> {
        let (r, l) = (Face::R as u8, Face::L as u8);
        let mut marked = [false; 6];
        marked[r as usize] = true;
        (0..70)
            .map(|k| {
                let mask = p.unrank(k);
                let mut s = c5.solved();
                for (bit, &f) in p.positions.iter().enumerate() {
                    s[f] = if mask >> bit & 1 == 1 { r } else { l };
                }
                let m = p.project(&turned(&s), &marked);
                if m.count_ones() != 4 {
                    return Err(bad("a symmetry takes R/L centres off R and L"));
                }
                Ok(p.rank(m) as u8)
            })
            .collect()
    };
    Ok((m8, w8, centre(t)?, centre(x)?))
}

/// The image of a rank of one [`EFourBothSpace`] under an action.
fn image(a: &Action, r: u64) -> u64 {
    let ((mids, wings, t), x) = EFourBothSpace::unrank(r);
    EFourCentreSpace::index(
        mids.map(|m| a.0[m as usize]),
        wings.map(|w| a.1[w as usize]),
        a.2[t as usize],
    ) * 70
        + a.3[x as usize] as u64
}

/// Checks that an action maps the states of `from` to those of `to` as a
/// symmetry: every move of `from` to a move of `to` (on a sample of states)
/// and the goals to the goals.
fn check_action(a: &Action, from: &EFourBothSpace, to: &EFourBothSpace) -> Result<(), ModelError> {
    let goals: std::collections::HashSet<u64> = to.goals.iter().copied().collect();
    if from.goals.len() != to.goals.len()
        || from.goals.iter().any(|&g| !goals.contains(&image(a, g)))
    {
        return Err(ModelError::Symmetry(
            "a symmetry moves a goal off the goals",
        ));
    }
    let kept = keeps_moves(
        E_FOUR_BOTH_STATES,
        7_777_777,
        from.t.moves.len(),
        |r| image(a, r),
        |r, i| from.apply(&EFourBothSpace::unrank(r), i),
        |r, i| to.apply(&EFourBothSpace::unrank(r), i),
    );
    if !kept {
        return Err(ModelError::Symmetry("a symmetry does not keep the moves"));
    }
    Ok(())
}

/// Whether a map of ranks (`image`) takes the `n` children of each sampled
/// state (every `step`-th rank below `states`; `from(rank, move)`) to the
/// children of its image (`to(rank, move)`), as a set: the check that a
/// symmetry keeps a space's moves.
fn keeps_moves(
    states: u64,
    step: usize,
    n: usize,
    image: impl Fn(u64) -> u64,
    from: impl Fn(u64, usize) -> u64,
    to: impl Fn(u64, usize) -> u64,
) -> bool {
    (0..states).step_by(step).all(|r| {
        let mut kids: Vec<u64> = (0..n).map(|i| image(from(r, i))).collect();
        let img = image(r);
        let mut want: Vec<u64> = (0..n).map(|i| to(img, i)).collect();
        kids.sort_unstable();
        want.sort_unstable();
        kids == want
    })
}

/// The front-back reflection taking states of the high wings'
/// [`EFourBothSpace`] to states of the low wings' one with the same
/// distance: one table serves both kinds.
pub struct EFourMirror {
    /// Images of the midge slots, of the high wing slots (as low slots), of
    /// the T and of the X arrangements.
    pub mids: [u8; 8],
    /// See `mids`.
    pub wings: [u8; 8],
    /// See `mids`.
    pub t: Vec<u8>,
    /// See `mids`.
    pub x: Vec<u8>,
}

impl EFourMirror {
    /// The reflection from `high` (the high wings' space) to `low`, checked.
    pub fn new(high: &EFourBothSpace, low: &EFourBothSpace) -> Result<EFourMirror, ModelError> {
        let c5 = crate::cube::CubeN::new(5);
        let perm = c5.symmetry(|[x, y, z]| [x, y, -z]);
        let a = sym_action(&perm, true, true, &high.t.centre, &high.x.centre)?;
        check_action(&a, high, low)?;
        Ok(EFourMirror {
            mids: a.0,
            wings: a.1,
            t: a.2,
            x: a.3,
        })
    }
}

/// The half turns of the whole cube about its three axes (`x2 y2 z2`): with
/// the identity, the rotations that keep the U-D and R-L axes.
fn half_turns() -> [Move; 3] {
    [Face::R, Face::U, Face::F].map(|face| Move {
        face,
        kind: crate::notation::MoveKind::Rotation,
        turns: 2,
    })
}

/// The classes of the edge ranks (0..[`E_FOUR_EDGES`]) under `acts`
/// symmetries, each its own inverse, the first the identity: `image(k, e)`
/// is the image of edge rank `e` under the `k`-th. Per rank its class and a
/// symmetry to the class's least rank (`class << 2 | k`); per class that
/// rank and the states each of its indices stands for (`acts` over the
/// number of symmetries fixing it).
fn classes(acts: usize, image: impl Fn(usize, u64) -> u64) -> (Vec<u32>, Vec<u32>, Vec<u8>) {
    let mut class_of = vec![u32::MAX; E_FOUR_EDGES as usize];
    let mut reps = Vec::new();
    let mut weights = Vec::new();
    for e in 0..E_FOUR_EDGES {
        if class_of[e as usize] != u32::MAX {
            continue;
        }
        let c = reps.len() as u32;
        reps.push(e as u32);
        let images: Vec<u64> = (0..acts).map(|k| image(k, e)).collect();
        weights.push((acts / images.iter().filter(|&&f| f == e).count()) as u8);
        for (k, &f) in images.iter().enumerate() {
            // Each symmetry is its own inverse: k takes f back to e.
            if class_of[f as usize] == u32::MAX {
                class_of[f as usize] = c << 2 | k as u32;
            }
        }
    }
    (class_of, reps, weights)
}

impl EFourSyms {
    /// The rotations of `space` (its wing kind `high`), checked: each maps
    /// every move to a move and the goals to goals.
    pub fn new(space: &EFourBothSpace, high: bool) -> Result<EFourSyms, ModelError> {
        let c5 = crate::cube::CubeN::new(5);
        let mut acts: Vec<Action> = vec![(
            std::array::from_fn(|k| k as u8),
            std::array::from_fn(|k| k as u8),
            (0..70).collect(),
            (0..70).collect(),
        )];
        for rot in half_turns() {
            let a = sym_action(&c5.perm(rot), false, high, &space.t.centre, &space.x.centre)?;
            check_action(&a, space, space)?;
            acts.push(a);
        }
        let (class_of, reps, weights) = classes(acts.len(), |k, e| {
            image(&acts[k], e * E_FOUR_CENTRES) / E_FOUR_CENTRES
        });
        let centres = acts
            .iter()
            .flat_map(|a| {
                (0..E_FOUR_CENTRES).map(move |c| {
                    (a.2[(c / 70) as usize] as u16) * 70 + a.3[(c % 70) as usize] as u16
                })
            })
            .collect();
        Ok(EFourSyms {
            class_of,
            reps,
            weights,
            centres,
        })
    }

    /// Entries of the table: classes x 4,900.
    pub fn entries(&self) -> u64 {
        self.reps.len() as u64 * E_FOUR_CENTRES
    }

    /// The states an index stands for: of a class whose representative
    /// `k` of the four rotations fix, each index stands for `4 / k` states
    /// (its state's orbit has `4 / |fixing both parts|` states over
    /// `|fixing the edges| / |fixing both parts|` indices). Summed per
    /// depth, the whole space's histogram.
    pub fn weight(&self, index: u64) -> u64 {
        self.weights[(index / E_FOUR_CENTRES) as usize] as u64
    }

    /// The index of a state given as [`EFourCentreSpace::index`]'s parts and
    /// an X-centre arrangement.
    #[inline]
    pub fn index(&self, mids: [u8; 4], wings: [u8; 4], t: u8, x: u8) -> u64 {
        let e = EFourCentreSpace::index(mids, wings, 0) / 70;
        self.index_of(e, t as u64 * 70 + x as u64)
    }

    /// The index of edge rank `e` with centre rank `c` (`t * 70 + x`).
    #[inline]
    pub fn index_of(&self, e: u64, c: u64) -> u64 {
        let k = self.class_of[e as usize];
        (k >> 2) as u64 * E_FOUR_CENTRES
            + self.centres[(k & 3) as usize * E_FOUR_CENTRES as usize + c as usize] as u64
    }

    /// The state (a rank of [`EFourBothSpace`]) an index names.
    #[inline]
    pub fn state_of(&self, index: u64) -> u64 {
        self.reps[(index / E_FOUR_CENTRES) as usize] as u64 * E_FOUR_CENTRES
            + index % E_FOUR_CENTRES
    }
}

/// Entries of `5x5x5-e-four-rl` up to the four rotations ([`EFourRlSyms`]):
/// the 29,616 classes of the midges with their high wings x 1,680 low wing
/// placements (cube555's "Phase4EdgeSym" count).
pub const E_FOUR_RL_ENTRIES: u64 = E_FOUR_CLASSES * RL_PLACEMENTS;

/// [`EFourSpace`] up to the four rotations that keep the U-D and R-L axes
/// (as [`EFourSyms`]): the midges with their high wings are taken to their
/// class's representative (the same 29,616 classes as [`EFourSyms`]'s),
/// and the low wings by the same rotation; the index is
/// `class * 1680 + low placement`. As there, a class whose representative a
/// rotation fixes has several indices for one state, each a real state.
pub struct EFourRlSyms {
    /// Per rank of the midges with their high wings: its class and the
    /// rotation to its representative (`class << 2 | rotation`).
    class_of: Vec<u32>,
    /// Per class: its representative.
    pub reps: Vec<u32>,
    weights: Vec<u8>,
    /// Per rotation: the images of the midge, high wing and low wing slots.
    acts: Vec<[[u8; 8]; 3]>,
}

impl EFourRlSyms {
    /// The rotations of `space`, checked: each maps every move to a move
    /// (on a sample of states) and the goal to itself.
    pub fn new(space: &EFourSpace) -> Result<EFourRlSyms, ModelError> {
        let c5 = crate::cube::CubeN::new(5);
        // The centre maps of the actions are not needed: any projection.
        let centre = crate::projection::build(&rl_centre_def(false), &rl_pair_moves())?;
        let mut acts: Vec<[[u8; 8]; 3]> = vec![[std::array::from_fn(|k| k as u8); 3]];
        for rot in half_turns() {
            let perm = c5.perm(rot);
            let hi = sym_action(&perm, false, true, &centre, &centre)?;
            let lo = sym_action(&perm, false, false, &centre, &centre)?;
            if hi.0 != lo.0 {
                return Err(ModelError::Symmetry(
                    "the two wing kinds move the midges apart",
                ));
            }
            acts.push([hi.0, hi.1, lo.1]);
        }
        let image = |a: &[[u8; 8]; 3], r: u64| -> u64 {
            let (m, h, l) = EFourSpace::unrank(r);
            EFourSpace::index(
                m.map(|x| a[0][x as usize]),
                h.map(|x| a[1][x as usize]),
                l.map(|x| a[2][x as usize]),
            )
        };
        let apply = |r: u64, i: usize| space.apply(&EFourSpace::unrank(r), i);
        for a in &acts {
            if image(a, space.goal()) != space.goal() {
                return Err(ModelError::Symmetry("a rotation moves the goal"));
            }
            let kept = keeps_moves(
                E_FOUR_STATES,
                3_333_331,
                space.moves.len(),
                |r| image(a, r),
                apply,
                apply,
            );
            if !kept {
                return Err(ModelError::Symmetry("a rotation does not keep the moves"));
            }
        }
        let (class_of, reps, weights) = classes(acts.len(), |k, e| {
            image(&acts[k], e * RL_PLACEMENTS) / RL_PLACEMENTS
        });
        Ok(EFourRlSyms {
            class_of,
            reps,
            weights,
            acts,
        })
    }

    /// Entries of the table: classes x 1,680.
    pub fn entries(&self) -> u64 {
        self.reps.len() as u64 * RL_PLACEMENTS
    }

    /// The index of four tredges given in any order (as
    /// [`EFourSpace::index`]).
    #[inline]
    pub fn index(&self, mids: [u8; 4], hi: [u8; 4], lo: [u8; 4]) -> u64 {
        let r = EFourSpace::index(mids, hi, lo);
        let k = self.class_of[(r / RL_PLACEMENTS) as usize];
        let class = (k >> 2) as u64;
        let low = match k & 3 {
            0 => r % RL_PLACEMENTS,
            rot => {
                let a = &self.acts[rot as usize];
                EFourSpace::index(
                    mids.map(|x| a[0][x as usize]),
                    hi.map(|x| a[1][x as usize]),
                    lo.map(|x| a[2][x as usize]),
                ) % RL_PLACEMENTS
            }
        };
        class * RL_PLACEMENTS + low
    }

    /// The state (a rank of [`EFourSpace`]) an index names.
    #[inline]
    pub fn state_of(&self, index: u64) -> u64 {
        self.reps[(index / RL_PLACEMENTS) as usize] as u64 * RL_PLACEMENTS + index % RL_PLACEMENTS
    }

    /// The states an index stands for (see [`EFourSyms::weight`]).
    pub fn weight(&self, index: u64) -> u64 {
        self.weights[(index / RL_PLACEMENTS) as usize] as u64
    }
}

/// Builds `5x5x5-e-four-rl` up to [`EFourRlSyms`]: a BFS of the whole
/// [`EFourSpace`] in memory, then each index's distance read from the state
/// it names. The entries, their histogram and the BFS's expansions.
pub fn build_e_four_rl(
    moves: &[Move],
    progress: &crate::progress::Progress,
) -> Result<(Vec<u8>, Vec<u64>, u64), ModelError> {
    let space = EFourSpace::new(moves)?;
    let syms = EFourRlSyms::new(&space)?;
    if syms.entries() != E_FOUR_RL_ENTRIES {
        return Err(ModelError::Symmetry(
            "another class count than E_FOUR_CLASSES",
        ));
    }
    let r = crate::bfs::dense_bfs(&space, progress);
    reduced(&r, syms.entries(), |i| syms.state_of(i))
}

/// The entries of a table up to symmetry from a whole BFS: entry `i` is the
/// distance of the state `state_of(i)`; their histogram; the expansions.
fn reduced(
    r: &crate::bfs::DenseResult,
    entries: u64,
    state_of: impl Fn(u64) -> u64 + Sync,
) -> Result<(Vec<u8>, Vec<u64>, u64), ModelError> {
    use rayon::prelude::*;
    let out: Vec<u8> = (0..entries)
        .into_par_iter()
        .map(|i| r.depth[state_of(i) as usize])
        .collect();
    let mut histogram = vec![0u64; r.histogram.len()];
    for &d in &out {
        match histogram.get_mut(d as usize) {
            Some(h) => *h += 1,
            None => return Err(ModelError::Symmetry("an index names a state never reached")),
        }
    }
    Ok((out, histogram, r.expansions))
}
