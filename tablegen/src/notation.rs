//! WCA / SiGN move notation for NxNxN cubes: parsing and canonical printing.
//!
//! This module knows the *syntax* of a move and nothing of a cube's geometry;
//! [`crate::cube`] turns a [`Move`] into a facelet permutation.

use std::fmt;

/// A face of a cube, in Kociemba's order `U R F D L B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// Up.
    U = 0,
    /// Right.
    R = 1,
    /// Front.
    F = 2,
    /// Down.
    D = 3,
    /// Left.
    L = 4,
    /// Back.
    B = 5,
}

impl Face {
    /// All faces in `U R F D L B` order.
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    /// The face's letter.
    pub fn letter(self) -> char {
        b"URFDLB"[self as usize] as char
    }

    /// Parses an upper-case face letter.
    pub fn from_letter(c: char) -> Option<Face> {
        Some(match c {
            'U' => Face::U,
            'R' => Face::R,
            'F' => Face::F,
            'D' => Face::D,
            'L' => Face::L,
            'B' => Face::B,
            _ => return None,
        })
    }

    /// The opposite face.
    pub fn opposite(self) -> Face {
        Face::ALL[(self as usize + 3) % 6]
    }

    /// The axis (0 = U/D, 1 = R/L, 2 = F/B).
    pub fn axis(self) -> usize {
        self as usize % 3
    }
}

/// What a move turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// The `depth` outer layers seen from the face (`R` = 1, `Rw` = 2, `3Rw` = 3).
    Block(u8),
    /// The single layer at this depth (`2R` = the second layer), depth >= 2.
    Slice(u8),
    /// The whole cube (`x` = like `R`, `y` = like `U`, `z` = like `F`).
    Rotation,
}

/// One move: a face, what it turns and how far (1 = clockwise quarter, 2 = half,
/// 3 = anticlockwise quarter), clockwise as seen looking at the face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The face the turn is seen from (`x` is `R`, `y` is `U`, `z` is `F`).
    pub face: Face,
    /// Which layers.
    pub kind: MoveKind,
    /// Quarter turns clockwise: 1, 2 or 3.
    pub turns: u8,
}

impl Move {
    /// An outer-layer face turn such as `R'`.
    pub const fn face(face: Face, turns: u8) -> Move {
        Move {
            face,
            kind: MoveKind::Block(1),
            turns,
        }
    }

    /// A block turn of the `depth` outer layers (`Rw` = depth 2).
    pub const fn block(face: Face, depth: u8, turns: u8) -> Move {
        Move {
            face,
            kind: MoveKind::Block(depth),
            turns,
        }
    }

    /// The inverse move.
    pub fn inverse(self) -> Move {
        Move {
            turns: (4 - self.turns) % 4,
            ..self
        }
    }

    /// Number of layers from the face's side this move reaches (its deepest layer).
    pub fn deepest_layer(self) -> Option<u8> {
        match self.kind {
            MoveKind::Block(d) | MoveKind::Slice(d) => Some(d),
            MoveKind::Rotation => None,
        }
    }

    /// True for whole-cube rotations, which count 0 moves.
    pub fn is_rotation(self) -> bool {
        self.kind == MoveKind::Rotation
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            MoveKind::Block(1) => write!(f, "{}", self.face.letter())?,
            MoveKind::Block(2) => write!(f, "{}w", self.face.letter())?,
            MoveKind::Block(d) => write!(f, "{}{}w", d, self.face.letter())?,
            MoveKind::Slice(d) => write!(f, "{}{}", d, self.face.letter())?,
            MoveKind::Rotation => {
                let c = match self.face {
                    Face::R => 'x',
                    Face::U => 'y',
                    Face::F => 'z',
                    Face::L => 'x',
                    Face::D => 'y',
                    Face::B => 'z',
                };
                write!(f, "{c}")?
            }
        }
        f.write_str(match self.turns {
            1 => "",
            2 => "2",
            _ => "'",
        })
    }
}

/// A bad move token: what it was, where it starts (0-based character offset) and
/// which token it was (1-based). Its message cuts a long token
/// ([`crate::cli::quote`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move {} (token {index}, character {offset}): {reason}", crate::cli::quote(.token))]
pub struct NotationError {
    /// The offending token.
    pub token: String,
    /// Its 1-based position among the tokens.
    pub index: usize,
    /// Its 0-based character offset in the input.
    pub offset: usize,
    /// What is wrong with it.
    pub reason: TokenError,
}

/// What is wrong with one move token (of a cube, a Pyraminx or a Domino).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// No face letter after the layer count (or an empty token).
    #[error("missing face letter")]
    MissingFace,
    /// A layer count that is 0 or does not fit a byte.
    #[error("bad layer count {}", crate::cli::quote(.0))]
    LayerCount(String),
    /// A letter that names no face or rotation.
    #[error("unknown face {0:?}")]
    UnknownFace(char),
    /// A layer count before `x`, `y` or `z`.
    #[error("a rotation takes no layer count")]
    RotationLayers,
    /// A `w` after a rotation, a lower-case face or another `w`.
    #[error("unexpected 'w'")]
    UnexpectedW,
    /// Something other than nothing, `2`, `2'` or `'` after the move.
    #[error("bad suffix {} (expected nothing, 2 or ')", crate::cli::quote(.0))]
    Suffix(String),
    /// A wide move of one layer (`1Rw`).
    #[error("a wide move turns at least 2 layers")]
    WideOneLayer,
    /// An empty Pyraminx token.
    #[error("empty")]
    Empty,
    /// A letter that names no Pyraminx vertex.
    #[error("unknown Pyraminx move (expected U L R B or u l r b)")]
    PyraminxVertex,
    /// Something other than nothing or `'` after a Pyraminx move.
    #[error("bad suffix (expected nothing or ')")]
    PyraminxSuffix,
    /// A token that is no Domino move.
    #[error("not a Domino move (U, D quarter or half turns; R2 L2 F2 B2)")]
    NotDomino,
}

/// Parses one token without regard to a cube size. Accepts `R`, `R'`, `R2`, `R2'`,
/// `Rw`, `3Rw`, `r` (= `Rw`), `3r`, `2R`, `x`, `y'`, `z2`.
pub fn parse_token(tok: &str) -> Result<Move, TokenError> {
    let chars: Vec<char> = tok.chars().collect();
    let mut i = 0;
    let mut digits = String::new();
    while i < chars.len() && chars[i].is_ascii_digit() {
        digits.push(chars[i]);
        i += 1;
    }
    let Some(&letter) = chars.get(i) else {
        return Err(TokenError::MissingFace);
    };
    i += 1;
    let layers: Option<u8> = if digits.is_empty() {
        None
    } else {
        match digits.parse::<u8>() {
            Ok(0) | Err(_) => return Err(TokenError::LayerCount(digits)),
            Ok(n) => Some(n),
        }
    };
    let mut wide = false;
    let (face, rotation) = match letter {
        'x' => (Face::R, true),
        'y' => (Face::U, true),
        'z' => (Face::F, true),
        c if c.is_ascii_uppercase() => match Face::from_letter(c) {
            Some(f) => (f, false),
            None => return Err(TokenError::UnknownFace(c)),
        },
        c if c.is_ascii_lowercase() => match Face::from_letter(c.to_ascii_uppercase()) {
            Some(f) => {
                wide = true;
                (f, false)
            }
            None => return Err(TokenError::UnknownFace(c)),
        },
        c => return Err(TokenError::UnknownFace(c)),
    };
    if rotation && layers.is_some() {
        return Err(TokenError::RotationLayers);
    }
    if chars.get(i) == Some(&'w') {
        if rotation || wide {
            return Err(TokenError::UnexpectedW);
        }
        wide = true;
        i += 1;
    }
    let rest: String = chars[i..].iter().collect();
    let turns = match rest.as_str() {
        "" => 1,
        "2" | "2'" => 2,
        "'" => 3,
        other => return Err(TokenError::Suffix(other.to_string())),
    };
    let kind = if rotation {
        MoveKind::Rotation
    } else if wide {
        if layers == Some(1) {
            return Err(TokenError::WideOneLayer);
        }
        MoveKind::Block(layers.unwrap_or(2))
    } else {
        match layers {
            None | Some(1) => MoveKind::Block(1),
            Some(n) => MoveKind::Slice(n),
        }
    };
    Ok(Move { face, kind, turns })
}

/// Parses a space-separated algorithm. Extra whitespace is accepted. Each token is
/// checked for syntax only; [`crate::cube::CubeN::check_move`] checks it fits a size.
pub fn parse_alg(s: &str) -> Result<Vec<Move>, NotationError> {
    let mut out = Vec::new();
    for (index, (offset, tok)) in tokens(s).enumerate() {
        let mv = parse_token(tok).map_err(|reason| NotationError {
            token: tok.to_string(),
            index: index + 1,
            offset,
            reason,
        })?;
        out.push(mv);
    }
    Ok(out)
}

/// Splits on whitespace, yielding each token with its character offset.
pub fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset_chars = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, char)
    for (ci, (bi, ch)) in s.char_indices().enumerate() {
        if ch.is_whitespace() {
            if let Some((b, c)) = start.take() {
                offset_chars.push((c, &s[b..bi]));
            }
        } else if start.is_none() {
            start = Some((bi, ci));
        }
    }
    if let Some((b, c)) = start {
        offset_chars.push((c, &s[b..]));
    }
    offset_chars.into_iter()
}

/// Prints an algorithm in canonical notation, tokens separated by single spaces.
pub fn format_alg(moves: &[Move]) -> String {
    let parts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    parts.join(" ")
}

/// The inverse of an algorithm.
pub fn invert_alg(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}

/// Number of moves in the outer block turn metric: rotations count 0, every other
/// move 1.
pub fn obtm(moves: &[Move]) -> usize {
    moves.iter().filter(|m| !m.is_rotation()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_round_trip() {
        for s in [
            "R", "R'", "R2", "Rw", "3Rw'", "2R2", "x", "y'", "z2", "Uw2", "4Lw",
        ] {
            let m = parse_token(s).unwrap();
            assert_eq!(m.to_string(), s);
        }
    }

    #[test]
    fn lenient_input() {
        let moves = parse_alg("  R2'   r  3r2 1R ").unwrap();
        assert_eq!(format_alg(&moves), "R2 Rw 3Rw2 R");
    }

    #[test]
    fn errors_name_token_and_position() {
        let e = parse_alg("R U Q2 F").unwrap_err();
        assert_eq!(e.token, "Q2");
        assert_eq!(e.index, 3);
        assert_eq!(e.offset, 4);
        assert!(e.to_string().contains("\"Q2\""), "{e}");
        for bad in ["R3", "Rww", "0R", "1Rw", "2x", "xw", "R''", "w", "3"] {
            assert!(parse_token(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn long_bad_tokens_are_cut_in_messages() {
        for tok in [
            "Q".repeat(130_000),
            format!("R{}", "'".repeat(130_000)),
            "7".repeat(130_000) + "R",
        ] {
            let e = parse_alg(&format!("R U {tok}")).unwrap_err();
            assert_eq!(e.token, tok);
            let msg = e.to_string();
            assert!(msg.len() < 300, "{}", &msg[..300]);
            assert!(msg.contains("characters)"), "{msg}");
        }
        let e = crate::pyraminx::parse_alg(&"x".repeat(5000)).unwrap_err();
        assert!(e.to_string().len() < 300);
        let e = crate::domino::parse_alg(&"x".repeat(5000)).unwrap_err();
        assert!(e.to_string().len() < 300);
    }

    #[test]
    fn inverse_and_metric() {
        let alg = parse_alg("R U' x 2R2").unwrap();
        assert_eq!(format_alg(&invert_alg(&alg)), "2R2 x' U R'");
        assert_eq!(obtm(&alg), 3);
    }
}
