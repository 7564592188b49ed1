//! Is a facelet string a real cube? Checks colour counts, each centre and wing
//! orbit ([`crate::orbits`]), corners (real pieces, each once, twist), and on
//! 3x3x3 and odd cubes the full 3x3x3 rules (edge flip, permutation parity) on
//! the corners, middle edges and centres.

use crate::corners::read_corners;
use crate::cube::CubeN;
use crate::notation::{Face, Move};
use crate::StateError;

/// Checks a state of an NxNxN cube; the error names the rule that failed.
pub fn validate(cube: &CubeN, state: &[u8]) -> Result<(), StateError> {
    let n = cube.n();
    if state.len() != cube.facelets() {
        return Err(StateError::Length {
            n,
            got: state.len(),
            fits: None,
        });
    }
    let mut counts = [0usize; 6];
    for &c in state {
        counts[c as usize % 6] += 1;
    }
    for f in Face::ALL {
        if counts[f as usize] != n * n {
            return Err(StateError::ColourCount {
                colour: f,
                count: counts[f as usize],
                n,
            });
        }
    }
    if n >= 4 {
        crate::orbits::Orbits::new(cube).check(cube, state)?;
    }
    let (_, co) = read_corners(cube, state, &[0, 1, 2, 3, 4, 5])?;
    if !co.iter().map(|&t| t as u32).sum::<u32>().is_multiple_of(3) {
        return Err(StateError::Twist);
    }
    if n % 2 == 1 {
        let skeleton = skeleton3(cube, state);
        let c3 = CubeN::new(3);
        let (_, turned) = orient_centres(&c3, &skeleton)?;
        check_edges_and_parity(&c3, &turned)?;
    }
    Ok(())
}

/// Facelets of the twelve 3x3x3 edges in Kociemba's order UR UF UL UB DR DF DL DB
/// FR FL BL BR, the U/D (or F/B for the slice edges) sticker first.
pub const EDGE_CELLS: [[(Face, usize, usize); 2]; 12] = [
    [(Face::U, 1, 2), (Face::R, 0, 1)],
    [(Face::U, 2, 1), (Face::F, 0, 1)],
    [(Face::U, 1, 0), (Face::L, 0, 1)],
    [(Face::U, 0, 1), (Face::B, 0, 1)],
    [(Face::D, 1, 2), (Face::R, 2, 1)],
    [(Face::D, 0, 1), (Face::F, 2, 1)],
    [(Face::D, 1, 0), (Face::L, 2, 1)],
    [(Face::D, 2, 1), (Face::B, 2, 1)],
    [(Face::F, 1, 2), (Face::R, 1, 0)],
    [(Face::F, 1, 0), (Face::L, 1, 2)],
    [(Face::B, 1, 2), (Face::L, 1, 0)],
    [(Face::B, 1, 0), (Face::R, 1, 2)],
];

/// The eight U- and D-layer edges (the first eight of [`EDGE_CELLS`]).
pub const EDGE_CELLS_UD: [[(Face, usize, usize); 2]; 8] = {
    let mut out = [[(Face::U, 0, 0); 2]; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = EDGE_CELLS[i];
        i += 1;
    }
    out
};

/// Reads the twelve edges of a 3x3x3 with its centres in place: `(ep, eo)`.
pub fn read_edges(c3: &CubeN, s: &[u8]) -> Result<([u8; 12], [u8; 12]), StateError> {
    let mut ep = [0u8; 12];
    let mut eo = [0u8; 12];
    let mut seen = [false; 12];
    for (slot, cells) in EDGE_CELLS.iter().enumerate() {
        let a = s[c3.index(cells[0].0, cells[0].1, cells[0].2)];
        let b = s[c3.index(cells[1].0, cells[1].1, cells[1].2)];
        let found = EDGE_CELLS.iter().enumerate().find_map(|(piece, home)| {
            let (x, y) = (home[0].0 as u8, home[1].0 as u8);
            if (a, b) == (x, y) {
                Some((piece, 0))
            } else if (a, b) == (y, x) {
                Some((piece, 1))
            } else {
                None
            }
        });
        let name = |cells: &[(Face, usize, usize); 2]| -> String {
            cells.iter().map(|c| c.0.letter()).collect()
        };
        let (piece, flip) = found.ok_or_else(|| StateError::UnknownEdge {
            slot: name(cells),
            shows: [a, b]
                .iter()
                .map(|&c| Face::ALL[c as usize % 6].letter())
                .collect(),
        })?;
        if std::mem::replace(&mut seen[piece], true) {
            return Err(StateError::EdgeTwice(name(&EDGE_CELLS[piece])));
        }
        ep[slot] = piece as u8;
        eo[slot] = flip;
    }
    Ok((ep, eo))
}

/// The 3x3x3 rules beyond corners: edge flip and permutation parity.
fn check_edges_and_parity(c3: &CubeN, s: &[u8]) -> Result<(), StateError> {
    let (ep, eo) = read_edges(c3, s)?;
    if eo.iter().map(|&f| f as u32).sum::<u32>() % 2 == 1 {
        return Err(StateError::Flip);
    }
    let (cp, _) = read_corners(c3, s, &[0, 1, 2, 3, 4, 5])?;
    if crate::perm::is_odd(&cp) != crate::perm::is_odd(&ep) {
        return Err(StateError::Parity);
    }
    Ok(())
}

/// Rows 0, (N-1)/2 and N-1 of every face as a 3x3x3: on an odd cube its corners,
/// middle edges and centres; on a reduced even cube (paired edges, solved
/// centres) the 3x3x3 it stands for.
pub fn skeleton3(cube: &CubeN, state: &[u8]) -> Vec<u8> {
    let n = cube.n();
    let rows = [0, (n - 1) / 2, n - 1];
    let mut out = Vec::with_capacity(54);
    for f in Face::ALL {
        for r in rows {
            for c in rows {
                out.push(state[cube.index(f, r, c)]);
            }
        }
    }
    out
}

/// Turns a 3x3x3 so that its centres show U R F D L B in place, or says why no
/// whole-cube rotation does. Returns the rotation and the turned state.
pub fn orient_centres(c3: &CubeN, s: &[u8]) -> Result<(Vec<Move>, Vec<u8>), StateError> {
    for rot in crate::cube::rotations24() {
        let mut t = s.to_vec();
        c3.apply_alg(&mut t, &rot);
        if Face::ALL.iter().all(|&f| t[c3.index(f, 1, 1)] == f as u8) {
            return Ok((rot, t));
        }
    }
    Err(StateError::Centres)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::FaceOrder;
    use crate::notation::parse_alg;

    fn check(n: usize, s: &str) -> Result<(), StateError> {
        let cube = CubeN::new(n);
        let st = cube.parse_state(s, FaceOrder::Urfdlb)?;
        validate(&cube, &st)
    }

    #[test]
    fn scrambled_cubes_are_valid() {
        for n in 2..=7 {
            let cube = CubeN::new(n);
            let mut s = cube.solved();
            let alg = if n == 2 {
                "R U2 Fw' x D L B' y Rw2"
            } else {
                "R U2 Fw' x D 2L B' y Rw2"
            };
            cube.apply_alg(&mut s, &parse_alg(alg).unwrap());
            validate(&cube, &s).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
    }

    #[test]
    fn rules_are_named() {
        let solved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
        let swap = |s: &str, i: usize, j: usize| {
            let mut b = s.as_bytes().to_vec();
            b.swap(i, j);
            String::from_utf8(b).unwrap()
        };
        // Twist the URF corner: U9 R1 F3 = 8, 9, 20.
        let mut b = solved.as_bytes().to_vec();
        (b[8], b[9], b[20]) = (b'R', b'F', b'U');
        let e = check(3, std::str::from_utf8(&b).unwrap()).unwrap_err();
        assert_eq!(e, StateError::Twist);
        assert!(e.to_string().contains("twisted"), "{e}");
        // Flip the UR edge: U6 = 5, R2 = 10.
        let e = check(3, &swap(solved, 5, 10)).unwrap_err();
        assert_eq!(e, StateError::Flip);
        assert!(e.to_string().contains("flip"), "{e}");
        let e = check(3, &solved.replace('B', "U")).unwrap_err();
        assert!(matches!(e, StateError::ColourCount { .. }), "{e}");
        assert!(e.to_string().contains("appears"), "{e}");
        let e = check(2, "UUUURRRRFFFFDDDDLLLLBBBX").unwrap_err();
        assert!(matches!(e, StateError::UnknownColour { .. }), "{e}");
        assert!(e.to_string().contains("unknown colour"), "{e}");
        // Two corners swapped on a 2x2x2 is fine (no parity rule there)...
        assert!(check(2, "UUUURRRRFFFFDDDDLLLLBBBB").is_ok());
        // ...but not on a 3x3x3: swap the UFL and URF corners (U7 F1 L3 / U9 R1 F3).
        let mut b = solved.as_bytes().to_vec();
        (b[6], b[18], b[38]) = (b'U', b'R', b'F');
        (b[8], b[9], b[20]) = (b'U', b'F', b'L');
        let e = check(3, std::str::from_utf8(&b).unwrap()).unwrap_err();
        assert_eq!(e, StateError::Parity);
        assert!(e.to_string().contains("parit"), "{e}");
        // A 5x5x5 with a flipped middle edge is caught through its 3x3x3 skeleton.
        let c5 = CubeN::new(5);
        let mut s5 = c5.solved();
        let (u, r) = (c5.index(Face::U, 2, 4), c5.index(Face::R, 0, 2));
        s5.swap(u, r);
        let e = validate(&c5, &s5).unwrap_err();
        assert_eq!(e, StateError::Flip);
    }
}
