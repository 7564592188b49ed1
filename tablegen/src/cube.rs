//! The NxNxN facelet cube: geometry, moves as facelet permutations, state strings.
//!
//! Facelets are numbered face by face in `U R F D L B` order, each face row by row
//! as seen looking straight at it on the usual net (U with B at the top, D with F
//! at the top, F R B L with U at the top), exactly as the project's SPEC.md states.
//! A state is one colour (`Face as u8`) per facelet.

use crate::notation::{Face, Move, MoveKind};
use crate::StateError;
use std::collections::HashMap;
use std::sync::Mutex;

/// A facelet permutation: `new[i] = old[perm[i]]`.
pub type Perm = Vec<u16>;

/// Face order used in state strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FaceOrder {
    /// `U R F D L B` (Kociemba's), the default.
    #[default]
    Urfdlb,
    /// `U L F R B D`.
    Ulfrbd,
}

impl FaceOrder {
    fn faces(self) -> [Face; 6] {
        match self {
            FaceOrder::Urfdlb => Face::ALL,
            FaceOrder::Ulfrbd => [Face::U, Face::L, Face::F, Face::R, Face::B, Face::D],
        }
    }
}

/// A face order name that is neither `urfdlb` nor `ulfrbd` (the name as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown face order {} (expected urfdlb or ulfrbd)", crate::cli::quote(.0))]
pub struct FaceOrderError(pub String);

impl std::str::FromStr for FaceOrder {
    type Err = FaceOrderError;
    fn from_str(s: &str) -> Result<Self, FaceOrderError> {
        match s.to_ascii_lowercase().as_str() {
            "urfdlb" => Ok(FaceOrder::Urfdlb),
            "ulfrbd" => Ok(FaceOrder::Ulfrbd),
            _ => Err(FaceOrderError(s.to_string())),
        }
    }
}

/// A move that does not exist on a cube of size `n`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveFitError {
    /// A block turn of more layers than the cube has.
    #[error("{mv} turns {layers} layers but a {n}x{n}x{n} has {n}")]
    TooManyLayers {
        /// The move.
        mv: Move,
        /// The layers it turns.
        layers: u8,
        /// The cube size.
        n: usize,
    },
    /// A slice turn of a layer that is no inner layer of the cube.
    #[error("{mv} turns inner layer {layer} but a {n}x{n}x{n} has inner layers 2..{}", .n - 1)]
    InnerLayer {
        /// The move.
        mv: Move,
        /// The layer it turns.
        layer: u8,
        /// The cube size.
        n: usize,
    },
}

/// Outward unit normal of each face, in doubled integer coordinates (x = R, y = U,
/// z = F).
const NORMALS: [[i32; 3]; 6] = [
    [0, 1, 0],  // U
    [1, 0, 0],  // R
    [0, 0, 1],  // F
    [0, -1, 0], // D
    [-1, 0, 0], // L
    [0, 0, -1], // B
];

/// An NxNxN cube's geometry and its move permutations (computed on demand and
/// cached).
#[derive(Debug)]
pub struct CubeN {
    n: usize,
    cache: Mutex<HashMap<Move, std::sync::Arc<Perm>>>,
}

impl Clone for CubeN {
    fn clone(&self) -> Self {
        CubeN::new(self.n)
    }
}

impl CubeN {
    /// A cube of size `n` (n >= 2).
    pub fn new(n: usize) -> CubeN {
        assert!((2..=64).contains(&n), "cube size {n} out of range 2..=64");
        CubeN {
            n,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The size N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of facelets, 6 N^2.
    pub fn facelets(&self) -> usize {
        6 * self.n * self.n
    }

    /// Index of the facelet at `row`, `col` of `face`.
    pub fn index(&self, face: Face, row: usize, col: usize) -> usize {
        (face as usize * self.n + row) * self.n + col
    }

    /// The solved state: every facelet the colour of its face.
    pub fn solved(&self) -> Vec<u8> {
        (0..self.facelets())
            .map(|i| (i / (self.n * self.n)) as u8)
            .collect()
    }

    /// Cubie position (doubled coordinates) and outward normal of a facelet.
    pub fn geometry(&self, idx: usize) -> ([i32; 3], [i32; 3]) {
        let n = self.n;
        let m = n as i32 - 1;
        let face = idx / (n * n);
        let r = ((idx / n) % n) as i32;
        let c = (idx % n) as i32;
        let p = match face {
            0 => [-m + 2 * c, m, -m + 2 * r], // U: B at top, L at left
            1 => [m, m - 2 * r, m - 2 * c],   // R: U at top, F at left
            2 => [-m + 2 * c, m - 2 * r, m],  // F: U at top, L at left
            3 => [-m + 2 * c, -m, m - 2 * r], // D: F at top, L at left
            4 => [-m, m - 2 * r, -m + 2 * c], // L: U at top, B at left
            _ => [m - 2 * c, m - 2 * r, -m],  // B: U at top, R at left
        };
        (p, NORMALS[face])
    }

    /// Inverse of [`CubeN::geometry`].
    fn locate(&self, p: [i32; 3], normal: [i32; 3]) -> usize {
        let m = self.n as i32 - 1;
        let face = NORMALS
            .iter()
            .position(|&v| v == normal)
            .expect("rotations map unit normals to unit normals");
        let (r, c) = match face {
            0 => ((p[2] + m) / 2, (p[0] + m) / 2),
            1 => ((m - p[1]) / 2, (m - p[2]) / 2),
            2 => ((m - p[1]) / 2, (p[0] + m) / 2),
            3 => ((m - p[2]) / 2, (p[0] + m) / 2),
            4 => ((m - p[1]) / 2, (p[2] + m) / 2),
            _ => ((m - p[1]) / 2, (m - p[0]) / 2),
        };
        self.index(Face::ALL[face], r as usize, c as usize)
    }

    /// The facelet permutation of a symmetry of the cube (as a move's:
    /// entry `j` is the facelet whose sticker goes to `j`), given as the
    /// linear map on positions and normals: one of the 48 signed
    /// permutations of the three coordinates (a rotation or a reflection).
    /// Panics for another map.
    pub fn symmetry(&self, map: impl Fn([i32; 3]) -> [i32; 3]) -> Perm {
        let mut perm = vec![0u16; self.facelets()];
        for (i, _) in perm.clone().iter().enumerate() {
            let (p, nv) = self.geometry(i);
            perm[self.locate(map(p), map(nv))] = i as u16;
        }
        perm
    }

    /// Checks that a move exists on this cube size.
    pub fn check_move(&self, mv: Move) -> Result<(), MoveFitError> {
        let n = self.n as u8;
        match mv.kind {
            MoveKind::Block(layers) if layers > n => Err(MoveFitError::TooManyLayers {
                mv,
                layers,
                n: self.n,
            }),
            MoveKind::Slice(layer) if layer >= n => Err(MoveFitError::InnerLayer {
                mv,
                layer,
                n: self.n,
            }),
            _ => Ok(()),
        }
    }

    /// The facelet permutation of a move (cached). Panics if the move does not fit
    /// the cube: call [`CubeN::check_move`] first on user input.
    pub fn perm(&self, mv: Move) -> std::sync::Arc<Perm> {
        if let Some(p) = self.cache.lock().expect("cache lock").get(&mv) {
            return p.clone();
        }
        let p = std::sync::Arc::new(self.compute_perm(mv));
        self.cache.lock().expect("cache lock").insert(mv, p.clone());
        p
    }

    fn compute_perm(&self, mv: Move) -> Perm {
        self.check_move(mv).expect("move must fit the cube");
        let n = self.n as i32;
        let m = n - 1;
        let axis = NORMALS[mv.face as usize];
        let (lo, hi) = match mv.kind {
            MoveKind::Block(d) => (1, d as i32),
            MoveKind::Slice(d) => (d as i32, d as i32),
            MoveKind::Rotation => (1, n),
        };
        let mut perm = vec![0u16; self.facelets()];
        for (i, _) in perm.clone().iter().enumerate() {
            let (mut p, mut nv) = self.geometry(i);
            let depth = (m - dot(axis, p)) / 2 + 1;
            if depth >= lo && depth <= hi {
                for _ in 0..mv.turns {
                    p = quarter_cw(axis, p);
                    nv = quarter_cw(axis, nv);
                }
            }
            let j = self.locate(p, nv);
            perm[j] = i as u16;
        }
        perm
    }

    /// Applies a move to a state in place.
    pub fn apply(&self, state: &mut [u8], mv: Move) {
        let p = self.perm(mv);
        let old = state.to_vec();
        for (dst, &src) in state.iter_mut().zip(p.iter()) {
            *dst = old[src as usize];
        }
    }

    /// Applies an algorithm to a state.
    pub fn apply_alg(&self, state: &mut [u8], alg: &[Move]) {
        for &m in alg {
            self.apply(state, m);
        }
    }

    /// Parses a state string (letters `URFDLB`) in the given face order. Checks
    /// only the length and the alphabet; see [`crate::validate`] for the rest.
    pub fn parse_state(&self, s: &str, order: FaceOrder) -> Result<Vec<u8>, StateError> {
        let chars = state_letters(s)?;
        if chars.len() != self.facelets() {
            let got = chars.len();
            return Err(StateError::Length {
                n: self.n,
                got,
                fits: (2..=64).find(|k| 6 * k * k == got),
            });
        }
        let nn = self.n * self.n;
        let mut out = vec![0u8; self.facelets()];
        for (block, face) in order.faces().iter().enumerate() {
            for k in 0..nn {
                let pos = block * nn + k;
                out[*face as usize * nn + k] = chars[pos] as u8;
            }
        }
        Ok(out)
    }

    /// Prints a state as a string in the given face order.
    pub fn format_state(&self, state: &[u8], order: FaceOrder) -> String {
        let nn = self.n * self.n;
        let mut s = String::with_capacity(state.len());
        for face in order.faces() {
            for &c in &state[face as usize * nn..(face as usize + 1) * nn] {
                s.push(Face::ALL[c as usize % 6].letter());
            }
        }
        s
    }

    /// True if every face shows one colour (any whole-cube orientation).
    pub fn is_solved(&self, state: &[u8]) -> bool {
        let nn = self.n * self.n;
        state.chunks(nn).all(|f| f.iter().all(|&c| c == f[0]))
    }

    /// The 36 outer block turns with up to `max_depth` layers: for each face,
    /// depth 1..=max_depth, turns 1, 2, 3 (`U U2 U' Uw Uw2 Uw' ...`).
    pub fn block_turns(max_depth: u8) -> Vec<Move> {
        let mut v = Vec::new();
        for face in Face::ALL {
            for d in 1..=max_depth {
                for t in [1, 3, 2] {
                    v.push(Move::block(face, d, t));
                }
            }
        }
        v
    }
}

/// The faces a state string's letters (`U R F D L B`) name, whitespace around
/// the string ignored. Any other character, a space or a line break inside
/// the string included, is refused by its position (1-based, counted in the
/// string as given) and shown escaped, before any length is compared.
pub fn state_letters(s: &str) -> Result<Vec<Face>, StateError> {
    let lead = s.chars().take_while(|c| c.is_whitespace()).count();
    s.trim()
        .chars()
        .enumerate()
        .map(|(i, c)| {
            Face::from_letter(c).ok_or(StateError::UnknownColour {
                colour: c,
                at: lead + i + 1,
            })
        })
        .collect()
}

/// The 24 whole-cube orientations, each as a short sequence of rotations.
pub fn rotations24() -> Vec<Vec<Move>> {
    let rot = |f: Face, t: u8| Move {
        face: f,
        kind: MoveKind::Rotation,
        turns: t,
    };
    let pres: [Vec<Move>; 6] = [
        vec![],
        vec![rot(Face::R, 1)],
        vec![rot(Face::R, 2)],
        vec![rot(Face::R, 3)],
        vec![rot(Face::F, 1)],
        vec![rot(Face::F, 3)],
    ];
    let mut out = Vec::new();
    for pre in pres {
        for y in 0..4u8 {
            let mut r = pre.clone();
            if y > 0 {
                r.push(rot(Face::U, y));
            }
            out.push(r);
        }
    }
    out
}

/// Rewrites moves found on a cube turned by `rotation` into moves on the cube as it
/// was: each face letter is replaced by the face that the rotation brought there.
/// If `rotation` then `moves` solves a state, the result alone solves it too (in
/// another whole-cube orientation).
pub fn unrotate(moves: &[Move], rotation: &[Move]) -> Vec<Move> {
    let c3 = CubeN::new(3);
    let mut s = c3.solved();
    c3.apply_alg(&mut s, rotation);
    moves
        .iter()
        .map(|&m| {
            let face = Face::ALL[s[c3.index(m.face, 1, 1)] as usize];
            Move { face, ..m }
        })
        .collect()
}

fn dot(a: [i32; 3], b: [i32; 3]) -> i32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Rotates `v` a quarter turn clockwise as seen looking at the face whose outward
/// unit normal is `k` (a rotation by -90 degrees about `k`): `v' = -(k x v) + k (k.v)`.
fn quarter_cw(k: [i32; 3], v: [i32; 3]) -> [i32; 3] {
    let cross = [
        k[1] * v[2] - k[2] * v[1],
        k[2] * v[0] - k[0] * v[2],
        k[0] * v[1] - k[1] * v[0],
    ];
    let d = dot(k, v);
    [
        -cross[0] + k[0] * d,
        -cross[1] + k[1] * d,
        -cross[2] + k[2] * d,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_alg;

    fn after(n: usize, alg: &str, order: FaceOrder) -> String {
        let cube = CubeN::new(n);
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &parse_alg(alg).unwrap());
        cube.format_state(&s, order)
    }

    #[test]
    fn spec_examples() {
        assert_eq!(
            after(3, "", FaceOrder::Urfdlb),
            "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
        );
        assert_eq!(
            after(3, "R", FaceOrder::Urfdlb),
            "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"
        );
        assert_eq!(after(2, "U", FaceOrder::Ulfrbd), "UUUUFFLLRRFFBBRRLLBBDDDD");
    }

    #[test]
    fn geometry_round_trips() {
        for n in 2..=7 {
            let cube = CubeN::new(n);
            for i in 0..cube.facelets() {
                let (p, nv) = cube.geometry(i);
                assert_eq!(cube.locate(p, nv), i);
            }
        }
    }

    #[test]
    fn move_orders_and_inverses() {
        for n in 2..=6 {
            let cube = CubeN::new(n);
            let solved = cube.solved();
            for alg in ["R", "Uw", "x", "y", "z", "F'", "B2"] {
                let mut s = solved.clone();
                let a = parse_alg(alg).unwrap();
                for _ in 0..4 {
                    cube.apply_alg(&mut s, &a);
                }
                assert_eq!(s, solved, "{alg}^4 on {n}");
            }
            if n >= 3 {
                let mut s = solved.clone();
                cube.apply_alg(&mut s, &parse_alg("2R 2R'").unwrap());
                assert_eq!(s, solved);
            }
        }
    }

    #[test]
    fn rotations_match_block_turns() {
        // x = Rw on a 2x2x2 (both layers), y = U + D', and on 3x3x3 Rw = R + middle.
        assert_eq!(
            after(2, "x", FaceOrder::Urfdlb),
            after(2, "Rw", FaceOrder::Urfdlb)
        );
        assert_eq!(
            after(3, "y", FaceOrder::Urfdlb),
            after(3, "U 2U D'", FaceOrder::Urfdlb)
        );
        assert_eq!(
            after(4, "z", FaceOrder::Urfdlb),
            after(4, "4Fw", FaceOrder::Urfdlb)
        );
        assert_eq!(
            after(4, "Rw", FaceOrder::Urfdlb),
            after(4, "R 2R", FaceOrder::Urfdlb)
        );
        // x moves F's stickers to U.
        let s = after(3, "x", FaceOrder::Urfdlb);
        assert_eq!(&s[..9], "FFFFFFFFF");
    }

    #[test]
    fn unrotate_solves_the_original() {
        let cube = CubeN::new(3);
        let scramble = parse_alg("R U F'").unwrap();
        let fix = crate::notation::invert_alg(&scramble);
        for rot in rotations24() {
            // A state that `rot` turns into the scrambled cube.
            let mut s = cube.solved();
            cube.apply_alg(&mut s, &scramble);
            cube.apply_alg(&mut s, &crate::notation::invert_alg(&rot));
            // rot then fix solves s in the turned frame; unrotate(fix) solves it as is.
            let mut t = s.clone();
            cube.apply_alg(&mut t, &unrotate(&fix, &rot));
            assert!(cube.is_solved(&t), "{rot:?}");
        }
        assert_eq!(rotations24().len(), 24);
    }

    #[test]
    fn parse_format_round_trip_both_orders() {
        let cube = CubeN::new(4);
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &parse_alg("R Uw 2F' x D2 3Lw").unwrap());
        for order in [FaceOrder::Urfdlb, FaceOrder::Ulfrbd] {
            let text = cube.format_state(&s, order);
            assert_eq!(cube.parse_state(&text, order).unwrap(), s);
        }
        assert!(cube.parse_state("UUU", FaceOrder::Urfdlb).is_err());
    }

    /// A space or line break inside a state is named by its position (1-based,
    /// in the string as given), not counted as a facelet.
    #[test]
    fn a_stray_character_is_named_by_its_position() {
        let cube = CubeN::new(5);
        let solved = cube.format_state(&cube.solved(), FaceOrder::Urfdlb);
        for (bad, at, shown) in [(' ', 76, "' '"), ('\n', 1, "'\\n'"), ('x', 150, "'x'")] {
            let mut text = solved.clone();
            if at == 1 {
                // Leading whitespace is ignored: put it after a facelet.
                text.insert(1, bad);
                text.insert(0, ' ');
            } else {
                text.insert(at - 1, bad);
            }
            let want_at = if at == 1 { 3 } else { at };
            let err = cube.parse_state(&text, FaceOrder::Urfdlb).unwrap_err();
            assert_eq!(
                err,
                StateError::UnknownColour {
                    colour: bad,
                    at: want_at
                }
            );
            let err = err.to_string();
            assert!(
                err.contains(&format!("{shown} at character {want_at} of the state")),
                "{err}"
            );
            assert!(!err.contains("facelets"), "{err}");
        }
    }
}
