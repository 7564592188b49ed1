//! The 2x2x2 coordinate model: the DBL corner held fixed, moves of U, R and F.
//!
//! A position is the permutation of the other seven corners (7! = 5040) and the
//! twist of six of them (3^6 = 729; the seventh follows): 3,674,160 ranks, every
//! one reachable. Corner moves are read off the facelet model, not typed in.

use crate::bfs::Space;
use crate::corners::read_corners;
use crate::cube::CubeN;
use crate::notation::{Face, Move};
use crate::perm::{perm_rank, perm_unrank};
use crate::StateError;

/// Number of positions: 7! x 3^6.
pub const STATES: u64 = 5040 * 729;
/// The fixed corner slot (DBL).
const FIXED: usize = 6;

/// The 2x2x2 with a move set (any of the U, R, F face turns).
pub struct Cube2 {
    /// The moves, in table order.
    pub moves: Vec<Move>,
    perm_move: Vec<Vec<u16>>,
    twist_move: Vec<Vec<u16>>,
}

/// The 9 half-turn-metric moves `U U2 U' R R2 R' F F2 F'`.
pub fn htm_moves() -> Vec<Move> {
    [Face::U, Face::R, Face::F]
        .iter()
        .flat_map(|&f| [1, 2, 3].map(|t| Move::face(f, t)))
        .collect()
}

/// The 6 quarter-turn-metric moves `U U' R R' F F'`.
pub fn qtm_moves() -> Vec<Move> {
    [Face::U, Face::R, Face::F]
        .iter()
        .flat_map(|&f| [1, 3].map(|t| Move::face(f, t)))
        .collect()
}

/// Corners as (cp, co) on the seven movable slots.
type Corners = ([u8; 8], [u8; 8]);

fn corner_move(mv: Move) -> Corners {
    let cube = CubeN::new(2);
    let mut s = cube.solved();
    cube.apply(&mut s, mv);
    read_corners(&cube, &s, &[0, 1, 2, 3, 4, 5]).expect("a move of the solved cube is valid")
}

/// `a` then `b`, as permutations with orientation (Kociemba's corner product).
fn multiply(a: &Corners, b: &Corners) -> Corners {
    let mut cp = [0u8; 8];
    let mut co = [0u8; 8];
    for i in 0..8 {
        cp[i] = a.0[b.0[i] as usize];
        co[i] = (a.1[b.0[i] as usize] + b.1[i]) % 3;
    }
    (cp, co)
}

/// Permutation coordinate of the seven movable slots (the piece numbers skip 6).
fn perm_coord(cp: &[u8; 8]) -> u16 {
    let p: Vec<u8> = (0..8)
        .filter(|&i| i != FIXED)
        .map(|i| {
            let v = cp[i];
            if v as usize > FIXED {
                v - 1
            } else {
                v
            }
        })
        .collect();
    perm_rank(&p) as u16
}

fn set_perm(r: u16) -> [u8; 8] {
    let p = perm_unrank(r as u64, 7);
    let mut cp = [0u8; 8];
    let mut k = 0;
    for (i, slot) in cp.iter_mut().enumerate() {
        if i == FIXED {
            *slot = FIXED as u8;
        } else {
            let v = p[k];
            *slot = if v as usize >= FIXED { v + 1 } else { v };
            k += 1;
        }
    }
    cp
}

/// Twist coordinate: base-3 digits of the twists of slots 0..5 (slot 7 follows).
fn twist_coord(co: &[u8; 8]) -> u16 {
    (0..6).fold(0u16, |acc, i| acc * 3 + co[i] as u16)
}

fn set_twist(mut t: u16) -> [u8; 8] {
    let mut co = [0u8; 8];
    for i in (0..6).rev() {
        co[i] = (t % 3) as u8;
        t /= 3;
    }
    let sum: u8 = co.iter().sum();
    co[7] = (3 - sum % 3) % 3;
    co
}

impl Cube2 {
    /// Builds the move tables for the given moves (faces U, R, F only).
    pub fn new(moves: Vec<Move>) -> Cube2 {
        assert!(
            moves
                .iter()
                .all(|m| matches!(m.face, Face::U | Face::R | Face::F)
                    && m.deepest_layer() == Some(1))
        );
        let cm: Vec<Corners> = moves.iter().map(|&m| corner_move(m)).collect();
        let perm_move = (0..5040u16)
            .map(|r| {
                let c = (set_perm(r), [0u8; 8]);
                cm.iter().map(|m| perm_coord(&multiply(&c, m).0)).collect()
            })
            .collect();
        let twist_move = (0..729u16)
            .map(|t| {
                let c = (
                    (0..8).collect::<Vec<u8>>().try_into().expect("8"),
                    set_twist(t),
                );
                cm.iter().map(|m| twist_coord(&multiply(&c, m).1)).collect()
            })
            .collect();
        Cube2 {
            moves,
            perm_move,
            twist_move,
        }
    }

    /// Applies move index `m` to a rank.
    #[inline]
    pub fn apply(&self, rank: u64, m: usize) -> u64 {
        let p = (rank / 729) as usize;
        let t = (rank % 729) as usize;
        self.perm_move[p][m] as u64 * 729 + self.twist_move[t][m] as u64
    }

    /// Rank of a facelet state of a 2x2x2 (any whole-cube orientation): the cube is
    /// turned so that the piece with colours D, B, L sits at DBL, D down.
    pub fn rank_facelets(state: &[u8]) -> Result<u64, StateError> {
        let cube = CubeN::new(2);
        let (_, turned) = orient_dbl(&cube, state)?;
        let (cp, co) = read_corners(&cube, &turned, &[0, 1, 2, 3, 4, 5])?;
        let twist: u32 = co.iter().map(|&t| t as u32).sum();
        if !twist.is_multiple_of(3) {
            return Err(StateError::Twist);
        }
        Ok(perm_coord(&cp) as u64 * 729 + twist_coord(&co) as u64)
    }

    /// The facelet state (in the default orientation) of a rank.
    pub fn facelets_of(rank: u64) -> Vec<u8> {
        let cp = set_perm((rank / 729) as u16);
        let co = set_twist((rank % 729) as u16);
        let cube = CubeN::new(2);
        let fac = crate::corners::corner_facelets(&cube);
        let mut s = cube.solved();
        for slot in 0..8 {
            let faces = crate::corners::CORNER_FACES[cp[slot] as usize];
            for k in 0..3 {
                // The piece's sticker k (U/D first) sits at slot facelet (k + twist).
                s[fac[slot][(k + co[slot] as usize) % 3]] = faces[k] as u8;
            }
        }
        s
    }
}

/// Finds the whole-cube rotation that brings the piece coloured D, B, L to the DBL
/// slot with its D sticker down; returns the rotation and the turned state.
pub fn orient_dbl(cube: &CubeN, state: &[u8]) -> Result<(Vec<Move>, Vec<u8>), StateError> {
    let fac = crate::corners::corner_facelets(cube);
    let want = [Face::D as u8, Face::B as u8, Face::L as u8];
    for rot in crate::cube::rotations24() {
        let mut s = state.to_vec();
        cube.apply_alg(&mut s, &rot);
        if fac[FIXED].map(|i| s[i]) == want {
            return Ok((rot, s));
        }
    }
    Err(StateError::NoDblCorner)
}

impl Space for Cube2 {
    fn size(&self) -> u64 {
        STATES
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    #[inline]
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let p = (rank / 729) as usize;
        let t = (rank % 729) as usize;
        let pm = &self.perm_move[p];
        let tm = &self.twist_move[t];
        for m in 0..pm.len() {
            if !f(pm[m] as u64 * 729 + tm[m] as u64) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_alg;

    #[test]
    fn solved_is_rank_zero_and_moves_agree_with_facelets() {
        let c2 = Cube2::new(htm_moves());
        let cube = CubeN::new(2);
        let mut s = cube.solved();
        assert_eq!(Cube2::rank_facelets(&s).unwrap(), 0);
        let mut r = 0u64;
        for k in 0..100 {
            let m = (k * 5 + 2) % 9;
            cube.apply(&mut s, c2.moves[m]);
            r = c2.apply(r, m);
            assert_eq!(Cube2::rank_facelets(&s).unwrap(), r);
            assert_eq!(Cube2::facelets_of(r), s);
        }
    }

    #[test]
    fn any_orientation_reads_the_same() {
        let cube = CubeN::new(2);
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &parse_alg("R U2 F' R'").unwrap());
        let r = Cube2::rank_facelets(&s).unwrap();
        for rot in ["x", "y2", "z'", "x y", "x2 z"] {
            let mut t = s.clone();
            cube.apply_alg(&mut t, &parse_alg(rot).unwrap());
            assert_eq!(Cube2::rank_facelets(&t).unwrap(), r, "{rot}");
        }
        // The same position reached with D, L, B moves.
        let mut u = cube.solved();
        cube.apply_alg(&mut u, &parse_alg("L D2 B' L'").unwrap());
        assert!(Cube2::rank_facelets(&u).is_ok());
    }
}
