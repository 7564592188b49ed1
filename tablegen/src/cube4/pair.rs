//! The pairing spaces of the 4x4x4's last reduction phase: all twelve dedges
//! as one relative permutation ([`PairAllSpace`]) and the staged centres with
//! the PLL parity ([`PairCentresSpace`]).

use super::{class_images, odd, Reduction4};
use crate::bfs::Space;
use crate::cube::CubeN;
use crate::notation::{Face, Move};
use crate::ModelError;

/// The pairing of all 12 dedges as one permutation: `sigma[h]` is the low slot
/// holding the low wing of the dedge whose high wing is in high slot `h`. Paired
/// is `sigma = identity`; relabelling the dedges leaves `sigma` unchanged, and a
/// move with slot images `(hi, lo)` maps it to `lo . sigma . hi^-1`. Under the
/// pairing group both classes are permuted with the same parity, so `sigma` stays
/// even: 12!/2 ranks.
pub struct PairAllSpace {
    /// Per move: images of the 12 high slots and of the 12 low slots (0..12 each).
    pub moves: Vec<([u8; 12], [u8; 12])>,
}

impl PairAllSpace {
    /// The space under `moves`; an error if a move mixes the wing classes.
    pub fn new(moves: &[Move]) -> Result<PairAllSpace, ModelError> {
        let mv = class_images(moves)?;
        if let Some((_, &m)) = mv.iter().zip(moves).find(|((h, l), _)| odd(h) != odd(l)) {
            return Err(ModelError::ClassParities(m));
        }
        Ok(PairAllSpace { moves: mv })
    }

    /// `sigma` of a state given, per dedge, the high slot of its high wing and
    /// the low slot of its low wing; None if `sigma` is odd (not in the space).
    pub fn sigma(hi: &[u8; 12], lo: &[u8; 12]) -> Option<[u8; 12]> {
        let s = crate::perm::relative12(hi, lo);
        (!odd(&s)).then_some(s)
    }

    /// `sigma` after move `i`.
    #[inline]
    pub fn apply(&self, sigma: &[u8; 12], i: usize) -> [u8; 12] {
        let (hi, lo) = &self.moves[i];
        crate::perm::relative12_moved(sigma, hi, lo)
    }

    /// Rank of an even `sigma`.
    #[inline]
    pub fn rank(sigma: &[u8; 12]) -> u64 {
        u64::from(crate::perm::even_rank12(sigma))
    }

    /// The `sigma` of a rank.
    #[inline]
    pub fn unrank(rank: u64) -> [u8; 12] {
        crate::perm::even_unrank12(rank as u32)
    }
}

impl Space for PairAllSpace {
    fn size(&self) -> u64 {
        crate::perm::EVEN12
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let s = Self::unrank(rank);
        for i in 0..self.moves.len() {
            if !f(Self::rank(&self.apply(&s, i))) {
                return;
            }
        }
    }
}

/// [`Reduction4::PairCentres`]: the staged centres and the PLL parity under
/// moves that keep the wing classes (the pairing group's): the centre bound
/// of the 4x4x4's last reduction phase. A move takes each block's digit to
/// its image ([`crate::projection::FaceletMaskSpace::digit_moves`]) and flips
/// the parity if it permutes the corners and the high wings with different
/// parities.
pub struct PairCentresSpace {
    radices: Vec<u64>,
    /// Per move, per block, the image of each digit.
    digits: Vec<Vec<Vec<u32>>>,
    /// Per move: whether it flips the PLL parity.
    flips: Vec<bool>,
    goals: Vec<u64>,
}

impl PairCentresSpace {
    /// The space under `moves` (each must keep the wing classes and the
    /// centres on their axes).
    pub fn new(moves: &[Move]) -> Result<PairCentresSpace, ModelError> {
        let cube = CubeN::new(4);
        let space = crate::projection::build(
            &crate::projection::centres_solve(4, crate::projection::Orbit::AllCentres),
            moves,
        )?;
        let digits = (0..moves.len())
            .map(|m| space.digit_moves(m))
            .collect::<Option<Vec<_>>>()
            .ok_or(ModelError::NotDense)?;
        let images = class_images(moves)?;
        let flips = moves
            .iter()
            .zip(&images)
            .map(|(&m, (hi, _))| {
                let mut s = cube.solved();
                cube.apply(&mut s, m);
                let (cp, _) = crate::corners::read_corners(&cube, &s, &[0, 1, 2, 3, 4, 5])
                    .map_err(|_| ModelError::Blocks(m))?;
                Ok(odd(&cp) != odd(hi))
            })
            .collect::<Result<Vec<bool>, ModelError>>()?;
        let marked = [true, true, true, false, false, false];
        let mut goals: Vec<u64> = [None, Some(Face::U), Some(Face::R), Some(Face::F)]
            .into_iter()
            .map(|face| {
                let mut s = cube.solved();
                if let Some(face) = face {
                    cube.apply(
                        &mut s,
                        Move {
                            face,
                            kind: crate::notation::MoveKind::Rotation,
                            turns: 2,
                        },
                    );
                }
                2 * space.rank(space.project(&s, &marked))
            })
            .collect();
        goals.sort_unstable();
        goals.dedup();
        Ok(PairCentresSpace {
            radices: space.radices(),
            digits,
            flips,
            goals,
        })
    }
}

impl Space for PairCentresSpace {
    fn size(&self) -> u64 {
        Reduction4::PairCentres.size()
    }
    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let parity = rank & 1;
        let mut digits = [0usize; 3];
        let mut x = rank / 2;
        for b in (0..3).rev() {
            digits[b] = (x % self.radices[b]) as usize;
            x /= self.radices[b];
        }
        for (dm, &flip) in self.digits.iter().zip(&self.flips) {
            let r = (0..3).fold(0, |r, b| r * self.radices[b] + u64::from(dm[b][digits[b]]));
            if !f(2 * r + (parity ^ flip as u64)) {
                return;
            }
        }
    }
}
