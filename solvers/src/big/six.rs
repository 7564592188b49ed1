//! The 6x6x6 by way of a 4x4x4 and a 5x5x5.
//!
//! Grouped `0 | 1 | 2-3 | 4 | 5`, a 6x6x6 is a 5x5x5 once every group of
//! layers shows one colour: its centre is the 2x2 block of inner X-centres,
//! its T-centres the pairs of oblique centres, its midges the pairs of
//! inner wings. Fewer facelets stand in the way than under the 4x4x4
//! grouping (`0 | 1-2 | 3-4 | 5`): 12 wings and 42 centre facelets against
//! 24 and 72. But the middle group has no representative of its own: its
//! centre blocks must be solved outright, its wings paired with each other,
//! and the 3x3x3 they make with the corners must be a real one (no flipped
//! midge, no swapped pair).
//!
//! The 4x4x4 of layers `0-1 | 2 | 3 | 4-5` is exactly that problem: its
//! corners are the corners, its wings the inner wings, its centres the
//! inner X-centres, and every 6x6x6 turn moves them as a 4x4x4 turn does
//! (the 1st layers move none of them). So the 4x4x4 solver's reduction
//! (centres solved, edges paired, no parity: [`crate::cube4::Solver::reduce`])
//! does it, its `R` the 6x6x6's `R`, its `Rw` the `3Rw`. What is left is
//! the obliques: each block of two (one of each hand) must be one colour,
//! either one. A greedy search pairs them with the cycles of the oblique
//! kind that move obliques only, behind kept turns of the 5x5x5 (its faces
//! and its `Rw`, the 6x6x6's `Rw`: they move whole groups and leave the
//! middle layers alone). The 5x5x5 solver finishes.

use super::{deepen_by, marks, read_small, sequences, setup, Cand, Layout, Pick, Reducer, Setup};
use crate::SolveError;
use tablegen::notation::{Face, Move};

/// Rows and columns of the 6x6x6 read as the inner 4x4x4 (`0-1 | 2 | 3 | 4-5`).
const INNER4: [usize; 4] = [0, 2, 3, 5];
/// The last 6x6x6 layer each of the inner 4x4x4's layers turns: its face
/// turn is the 6x6x6's face turn (the 1st layer holds none of its pieces).
const INNER4_LAST: [u8; 4] = [0, 2, 3, 5];
/// Rows and columns of the 6x6x6 read as the 5x5x5 (`0 | 1 | 2-3 | 4 | 5`).
const OUTER5: [usize; 5] = [0, 1, 2, 4, 5];
/// The last 6x6x6 layer of each of the 5x5x5's layers.
const OUTER5_LAST: [u8; 5] = [0, 1, 3, 4, 5];

/// The oblique step of the 6x6x6.
pub(super) struct Six {
    /// Setups of up to two turns of the 5x5x5 (faces and the 6x6x6's
    /// `Rw`), kept.
    setups: Vec<Setup>,
    lay: Layout,
    /// The cycles of the oblique kind that move only obliques.
    cands: Vec<Cand>,
    /// The obliques, both hands.
    obliques: Vec<usize>,
    /// For every facelet, the other oblique of its block (itself if none).
    partner: Vec<u32>,
}

impl Six {
    /// The oblique step of `r`, a 6x6x6's reducer.
    pub(super) fn new(r: &Reducer) -> Six {
        debug_assert_eq!(r.n, 6);
        let cube = &r.cube;
        let turns: Vec<Move> = Face::ALL
            .iter()
            .flat_map(|&f| (1..=3u8).flat_map(move |t| [Move::face(f, t), Move::block(f, 2, t)]))
            .collect();
        let setups: Vec<Setup> = sequences(&turns)
            .into_iter()
            .map(|s| setup(cube, s, true))
            .collect();
        let first = cube.index(Face::U, 1, 2);
        let obliques: Vec<usize> = r
            .orbits
            .centres
            .iter()
            .filter(|o| o.contains(&first) || o.contains(&cube.index(Face::U, 1, 3)))
            .flatten()
            .copied()
            .collect();
        let partner: Vec<u32> = (0..cube.facelets())
            .map(|i| {
                let (f, row, col) = (i / 36, (i / 6) % 6, i % 6);
                let mid = |x: usize| x == 2 || x == 3;
                let (row, col) = match (mid(row), mid(col)) {
                    (true, false) if col == 1 || col == 4 => (5 - row, col),
                    (false, true) if row == 1 || row == 4 => (row, 5 - col),
                    _ => (row, col),
                };
                ((f * 6 + row) * 6 + col) as u32
            })
            .collect();
        let lay = r.layout(first, false);
        let cands = r.candidates(
            &obliques,
            &lay,
            &marks(cube.facelets(), obliques.iter().copied()),
            &setups,
        );
        Six {
            setups,
            lay,
            cands,
            obliques,
            partner,
        }
    }

    /// The inner 4x4x4 read off a 6x6x6 state.
    pub(super) fn inner4(state: &[u8]) -> Vec<u8> {
        read_small(6, state, &INNER4)
    }

    /// A turn of the inner 4x4x4 as 6x6x6 turns.
    pub(super) fn deepen4(m: Move) -> Vec<Move> {
        deepen_by(&INNER4_LAST, m)
    }

    /// The 5x5x5 read off a 6x6x6 state.
    pub(super) fn outer5(state: &[u8]) -> Vec<u8> {
        read_small(6, state, &OUTER5)
    }

    /// A turn of the 5x5x5 as 6x6x6 turns.
    pub(super) fn deepen5(m: Move) -> Vec<Move> {
        deepen_by(&OUTER5_LAST, m)
    }

    /// Pairs every oblique with its partner (each block one colour, either
    /// hand moved); returns the moves and updates `state`. Greedy: each
    /// step the cycle that pairs the most blocks per move; when none pairs
    /// one, a cheap cycle that moves an unpaired block and pairs as many as
    /// it parts (picked at random among those, seeded: the same state gives
    /// the same moves).
    pub(super) fn pair_obliques(
        &self,
        r: &Reducer,
        state: &mut [u8],
    ) -> Result<Vec<Move>, SolveError> {
        let partner = &self.partner;
        let mut moves = Vec::new();
        let mut pick = Pick::default();
        for _ in 0..20 * self.obliques.len() {
            if self.obliques_paired(state) {
                return Ok(moves);
            }
            for (i, c) in self.cands.iter().enumerate() {
                let pairs = c.pairs();
                let after = |x: u32| {
                    pairs
                        .iter()
                        .find(|p| p.1 == x)
                        .map_or(state[x as usize], |p| state[p.0 as usize])
                };
                let (mut gain, mut touches) = (0i32, false);
                for &(_, t) in pairs {
                    let p = partner[t as usize];
                    // A block both of whose facelets move counts once.
                    if p < t && pairs.iter().any(|q| q.1 == p) {
                        continue;
                    }
                    let before = state[t as usize] == state[p as usize];
                    touches |= !before;
                    gain += i32::from(after(t) == after(p)) - i32::from(before);
                }
                pick.consider(i, gain, touches, c.cost);
            }
            let i = pick
                .choose()
                .ok_or_else(|| SolveError::Internal("no cycle pairs another oblique".into()))?;
            let seq = r.cand_moves(&self.cands[i], &self.lay, &self.setups);
            r.cube.apply_alg(state, &seq);
            moves.extend(seq);
        }
        Err(SolveError::Internal("the obliques did not pair".into()))
    }

    /// Whether every oblique shows its partner's colour.
    pub(super) fn obliques_paired(&self, state: &[u8]) -> bool {
        self.obliques
            .iter()
            .all(|&f| state[f] == state[self.partner[f] as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_are_the_other_hand() {
        let r = Reducer::new(6);
        let six = Six::new(&r);
        assert_eq!(six.obliques.len(), 48);
        let rep_first = r.cube.index(Face::U, 1, 2);
        let rep = r
            .orbits
            .centres
            .iter()
            .find(|o| o.contains(&rep_first))
            .expect("an oblique orbit");
        for &f in &six.obliques {
            let p = six.partner[f] as usize;
            assert_ne!(rep.contains(&p), rep.contains(&f), "{f} -> {p}");
            assert_eq!(six.partner[p] as usize, f);
        }
        assert!(!six.cands.is_empty());
    }
}
