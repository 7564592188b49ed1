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
