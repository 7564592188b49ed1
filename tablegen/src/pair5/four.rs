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
    moves: Vec<[[u8; 8]; 2]>,
    /// The centre orbit's projection (R and L, R marked).
    pub centre: crate::projection::FaceletMaskSpace,
    /// Per arrangement and move, the arrangement after it.
    cnext: Vec<u8>,
    goals: Vec<u64>,
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
        use crate::projection::{Block, Orbit, ProjectionDef};
        let four = EFourSpace::new(moves)?;
        let kind = if high { 0 } else { 1 };
        let orbit = if x {
            Orbit::XCentres(1)
        } else {
            Orbit::TCentres(1)
        };
        let def = ProjectionDef {
            n: 5,
            orbit,
            blocks: vec![Block {
                faces: vec![Face::R, Face::L],
                marked: vec![Face::R],
            }],
        };
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
