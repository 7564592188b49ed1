//! The Pyraminx's stickers, derived from its pieces, and its net as cubing.js
//! draws it.
//!
//! The piece model ([`tablegen::pyraminx`]) knows vertices `U L R B` (top,
//! front left, front right, back). Each face is named after where it is with
//! `U` on top: the face opposite `B` is `F` (front), opposite `R` is `L`,
//! opposite `L` is `R`, and opposite `U` is `D` (bottom).
//!
//! A face has 9 stickers, numbered from one of its corners (its apex `P0`)
//! row by row: 0 the tip at `P0`; 1 the edge `P0-P1`, 2 the centre of `P0`, 3
//! the edge `P0-P2`; 4 the tip at `P1`, 5 the centre of `P1`, 6 the edge
//! `P1-P2`, 7 the centre of `P2`, 8 the tip at `P2`, where `(P0, P1, P2)` is
//! `F (U, L, R)`, `L (L, B, U)`, `R (R, U, B)`, `D (B, L, R)`.
//!
//! The net is cubing.js's: one big triangle pointing down, F upright in the
//! middle of its top row between L and R (both pointing down), D under F
//! (pointing down); the apexes are U for F (top) and L, R, B for L, R, D (at
//! their bottom points). On a grid of 6 rows of 11 triangles (column `c` of row
//! `r` spans `c/2 .. c/2 + 1` across) the faces fill
//!
//! ```text
//! LLLLLFRRRRR
//! .LLLFFFRRR.
//! ..LFFFFFR..
//! ...DDDDD...
//! ....DDD....
//! .....D.....
//! ```
//!
//! and the tests compare every sticker with cubing.js's own picture of the
//! same moves (`solvers/tests/fixtures/cubingjs-pyraminx.json`).

use super::Picture;
use crate::pyraminx::PyraState;
use tablegen::pyraminx::vertex_cycle;

/// Fill colour of each face, in [`FACES`] order (cubing.js's).
pub const COLOURS: [&str; 4] = ["#32cd32", "#ff0000", "#2266ff", "#ffff00"];

/// A face of the Pyraminx and where the net draws it.
pub struct PyraFace {
    /// Its letter (and colour name).
    pub letter: char,
    /// The vertex it is opposite.
    pub opposite: u8,
    /// Its corners `(P0, P1, P2)`.
    pub corners: [u8; 3],
    /// The grid cell `(row, column)` of its apex's tip.
    pub apex: (usize, usize),
    /// Whether it points up on the net.
    pub up: bool,
}

/// The faces, in colour order.
pub const FACES: [PyraFace; 4] = [
    PyraFace {
        letter: 'F',
        opposite: 3,
        corners: [0, 1, 2],
        apex: (0, 5),
        up: true,
    },
    PyraFace {
        letter: 'L',
        opposite: 2,
        corners: [1, 3, 0],
        apex: (2, 2),
        up: false,
    },
    PyraFace {
        letter: 'R',
        opposite: 1,
        corners: [2, 0, 3],
        apex: (2, 8),
        up: false,
    },
    PyraFace {
        letter: 'D',
        opposite: 0,
        corners: [3, 1, 2],
        apex: (5, 5),
        up: false,
    },
];

/// Sticker `k` of a face as `(row from the apex, position in the row)`.
fn local(k: usize) -> (usize, usize) {
    match k {
        0 => (0, 0),
        1..=3 => (1, k - 1),
        _ => (2, k - 4),
    }
}

/// The face (index into [`FACES`]) opposite vertex `v`.
fn face_opposite(v: u8) -> usize {
    FACES
        .iter()
        .position(|f| f.opposite == v)
        .expect("every vertex has a face opposite")
}

/// The vertex that a turn of `v` by `turns` clockwise thirds brings to `u`'s
/// place, taken back: the vertex `w` with `sigma_v^turns(w) = u`.
fn before_turn(v: u8, turns: u8, u: u8) -> u8 {
    let sigma = vertex_cycle(v as usize);
    let mut w = u;
    // sigma^-t = sigma^(3 - t) (a third turn has order 3).
    for _ in 0..(3 - turns % 3) % 3 {
        w = sigma[w as usize];
    }
    w
}

/// The colour (index into [`FACES`]) of every sticker: `[face][k]`.
pub fn stickers(p: &PyraState) -> [[usize; 9]; 4] {
    let mut out = [[0usize; 9]; 4];
    for (fi, face) in FACES.iter().enumerate() {
        let (opp, corners) = (face.opposite, face.corners);
        for (k, cell) in out[fi].iter_mut().enumerate() {
            *cell = match k {
                // Tips and centres: the sticker on the face opposite `opp` came
                // from the face opposite the vertex the twist took there.
                0 | 4 | 8 | 2 | 5 | 7 => {
                    let v = corners[match k {
                        0 | 2 => 0,
                        4 | 5 => 1,
                        _ => 2,
                    }];
                    let twist = if matches!(k, 0 | 4 | 8) {
                        p.tips[v as usize]
                    } else {
                        p.core.co[v as usize]
                    };
                    face_opposite(before_turn(v, twist, opp))
                }
                _ => {
                    let (a, b) = match k {
                        1 => (corners[0], corners[1]),
                        3 => (corners[0], corners[2]),
                        _ => (corners[1], corners[2]),
                    };
                    edge_colour(p, a, b, opp)
                }
            };
        }
    }
    out
}

/// The colour of the sticker of the edge slot `a-b` on the face opposite
/// `opp`. The piece model's flip says whether the piece's sticker of its
/// lower-numbered opposite vertex is on the slot's lower-numbered one.
fn edge_colour(p: &PyraState, a: u8, b: u8, opp: u8) -> usize {
    let slot = edge_slot(a, b);
    let (low, _) = others(a, b);
    let (pa, pb) = EDGES[p.core.ep[slot] as usize];
    let (pc, pd) = others(pa, pb);
    let flipped = p.core.eo[slot] == 1;
    let here_low = opp == low;
    face_opposite(if here_low != flipped { pc } else { pd })
}

/// The edge slots as vertex pairs (the piece model's order).
const EDGES: [(u8, u8); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

fn edge_slot(a: u8, b: u8) -> usize {
    let key = (a.min(b), a.max(b));
    EDGES
        .iter()
        .position(|&e| e == key)
        .expect("two distinct vertices make an edge")
}

/// The two vertices not on edge `a-b`, lower first.
fn others(a: u8, b: u8) -> (u8, u8) {
    let mut rest = (0..4u8).filter(|&v| v != a && v != b);
    let c = rest.next().expect("four vertices");
    let d = rest.next().expect("four vertices");
    (c, d)
}

/// The grid cell `(row, column)` of sticker `k` of face `fi`, and whether it
/// points up.
pub fn cell(fi: usize, k: usize) -> (usize, usize, bool) {
    let PyraFace {
        apex: (r0, c0), up, ..
    } = FACES[fi];
    let (i, j) = local(k);
    let same = j % 2 == 0;
    if up {
        (r0 + i, c0 + j - i, same)
    } else {
        (r0 - i, c0 + j - i, !same)
    }
}

/// Gap between faces, in triangle sides.
const FACE_GAP: f64 = 0.12;

/// The net: 36 triangles, side 10 units.
pub fn net(p: &PyraState, title: &str) -> String {
    let side = 10.0;
    let h = side * 3f64.sqrt() / 2.0;
    // Faces drawn a little apart: L left, R right, D down.
    let offset = [
        (0.0, 0.0),
        (-FACE_GAP * side, 0.0),
        (FACE_GAP * side, 0.0),
        (0.0, 1.6 * FACE_GAP * side),
    ];
    let colours = stickers(p);
    let width = 6.0 * side + 2.0 * FACE_GAP * side;
    let height = 6.0 * h + 1.6 * FACE_GAP * side;
    let mut svg = Picture::new(width, height, title);
    for (fi, face) in FACES.iter().enumerate() {
        for (k, &colour) in colours[fi].iter().enumerate() {
            let (r, c, up) = cell(fi, k);
            let x = c as f64 * side / 2.0 + offset[fi].0 + FACE_GAP * side;
            let (top, bottom) = (
                r as f64 * h + offset[fi].1,
                (r + 1) as f64 * h + offset[fi].1,
            );
            let points = if up {
                [(x + side / 2.0, top), (x + side, bottom), (x, bottom)]
            } else {
                [(x, top), (x + side, top), (x + side / 2.0, bottom)]
            };
            svg.polygon(&points, COLOURS[colour], face.letter, k);
        }
    }
    svg.finish()
}
