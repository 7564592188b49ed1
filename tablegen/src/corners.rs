//! The eight corners of any NxNxN cube, in Kociemba's order, read off facelets.
//!
//! Corner slots are `URF UFL ULB UBR DFR DLF DBL DRB`; each lists its three
//! facelets starting with the U/D one and going clockwise seen from outside. A
//! corner piece's twist is where its U/D sticker sits in that cycle.

use crate::cube::CubeN;
use crate::notation::Face::{self, *};
use crate::StateError;

/// Faces of each corner slot, U/D face first, then clockwise.
pub const CORNER_FACES: [[Face; 3]; 8] = [
    [U, R, F],
    [U, F, L],
    [U, L, B],
    [U, B, R],
    [D, F, R],
    [D, L, F],
    [D, B, L],
    [D, R, B],
];

/// Row/column (0 = first, 1 = last) of each corner facelet, matching Kociemba's
/// U9 R1 F3 / U7 F1 L3 / U1 L1 B3 / U3 B1 R3 / D3 F9 R7 / D1 L9 F7 / D7 B9 L7 /
/// D9 R9 B7.
const CORNER_CELLS: [[(u8, u8); 3]; 8] = [
    [(1, 1), (0, 0), (0, 1)],
    [(1, 0), (0, 0), (0, 1)],
    [(0, 0), (0, 0), (0, 1)],
    [(0, 1), (0, 0), (0, 1)],
    [(0, 1), (1, 1), (1, 0)],
    [(0, 0), (1, 1), (1, 0)],
    [(1, 0), (1, 1), (1, 0)],
    [(1, 1), (1, 1), (1, 0)],
];

/// Facelet indices of each corner slot on a cube of size `cube.n()`.
pub fn corner_facelets(cube: &CubeN) -> [[usize; 3]; 8] {
    let last = cube.n() - 1;
    let mut out = [[0; 3]; 8];
    for (slot, cells) in CORNER_CELLS.iter().enumerate() {
        for k in 0..3 {
            let (r, c) = cells[k];
            out[slot][k] = cube.index(CORNER_FACES[slot][k], r as usize * last, c as usize * last);
        }
    }
    out
}

/// Identifies the corner piece showing colours `cols` (U/D sticker first, then
/// clockwise) given the colour of each face (`face_colour[f]`). Returns
/// `(piece, twist)` or None if no corner has these colours in this order.
pub fn identify(cols: [u8; 3], face_colour: &[u8; 6]) -> Option<(u8, u8)> {
    for twist in 0..3 {
        let rot = [cols[twist], cols[(twist + 1) % 3], cols[(twist + 2) % 3]];
        for (piece, faces) in CORNER_FACES.iter().enumerate() {
            if faces
                .iter()
                .zip(rot)
                .all(|(f, c)| face_colour[*f as usize] == c)
            {
                return Some((piece as u8, twist as u8));
            }
        }
    }
    None
}

/// Reads the corners of a state: `(cp, co)` with `cp[slot] = piece`, `co[slot] =
/// twist`. `face_colour[f]` is the colour that face `f` has when solved.
pub fn read_corners(
    cube: &CubeN,
    state: &[u8],
    face_colour: &[u8; 6],
) -> Result<([u8; 8], [u8; 8]), StateError> {
    let fac = corner_facelets(cube);
    let mut cp = [0u8; 8];
    let mut co = [0u8; 8];
    let mut seen = [false; 8];
    for slot in 0..8 {
        let cols = fac[slot].map(|i| state[i]);
        let (piece, twist) =
            identify(cols, face_colour).ok_or_else(|| StateError::UnknownCorner {
                slot: slot_name(slot),
                shows: cols
                    .iter()
                    .map(|&c| Face::ALL[c as usize % 6].letter())
                    .collect(),
            })?;
        if seen[piece as usize] {
            return Err(StateError::CornerTwice(slot_name(piece as usize)));
        }
        seen[piece as usize] = true;
        cp[slot] = piece;
        co[slot] = twist;
    }
    Ok((cp, co))
}

/// Name of a corner slot, e.g. `URF`.
pub fn slot_name(slot: usize) -> String {
    CORNER_FACES[slot].iter().map(|f| f.letter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_alg;

    #[test]
    fn solved_and_twist_sums() {
        for n in 2..=5 {
            let cube = CubeN::new(n);
            let id = [0, 1, 2, 3, 4, 5];
            let (cp, co) = read_corners(&cube, &cube.solved(), &id).unwrap();
            assert_eq!(cp, [0, 1, 2, 3, 4, 5, 6, 7]);
            assert_eq!(co, [0; 8]);
            let mut s = cube.solved();
            cube.apply_alg(
                &mut s,
                &parse_alg("R U F' L2 D B R' Uw").unwrap_or_default(),
            );
            let (_, co) = read_corners(&cube, &s, &id).unwrap();
            assert_eq!(co.iter().map(|&t| t as u32).sum::<u32>() % 3, 0);
        }
    }

    #[test]
    fn r_move_cycles_corners() {
        let cube = CubeN::new(3);
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &parse_alg("R").unwrap());
        let (cp, co) = read_corners(&cube, &s, &[0, 1, 2, 3, 4, 5]).unwrap();
        // Kociemba's R: URF <- DFR, UBR <- URF, DRB <- UBR, DFR <- DRB.
        assert_eq!(cp, [4, 1, 2, 0, 7, 5, 6, 3]);
        assert_eq!(co, [2, 0, 0, 1, 1, 0, 0, 2]);
    }
}
