//! Optimal 3x3x2 Domino solver: walks the `domino` table (distance mod 3) downhill.
//!
//! State strings are the 3x3x3 facelet string without the middle rows of the four
//! side faces: 42 letters, faces in `U R F D L B` order, U and D as 3x3 (U with B at
//! the top, D with F at the top), R F L B as two rows of three (top row, then
//! bottom row, U at the top, as on the 3x3x3 net).

use crate::puzzle::{self, Input, Options, Position, Puzzle, Scramble, Solve, State};
use crate::tables::{load_or_build, DistanceTable, TableError};
use crate::{Solution, SolveError};
use rand::Rng;
use std::path::Path;
use tablegen::corners::read_corners;
use tablegen::cube::CubeN;
use tablegen::domino::{apply_pieces, htm_moves, DominoMove, DominoSpace};
use tablegen::notation::{Face, Move};

/// Facelets of the 3x3x3 that a Domino has, in state-string order.
pub fn domino_facelets() -> Vec<usize> {
    let c = CubeN::new(3);
    let mut out = Vec::with_capacity(42);
    for f in Face::ALL {
        let rows: &[usize] = if matches!(f, Face::U | Face::D) {
            &[0, 1, 2]
        } else {
            &[0, 2]
        };
        for &r in rows {
            for col in 0..3 {
                out.push(c.index(f, r, col));
            }
        }
    }
    out
}

/// The 3x3x3 move that a Domino move is.
pub fn as_cube_move(m: DominoMove) -> Move {
    match m {
        DominoMove::U(t) => Move::face(Face::U, t),
        DominoMove::D(t) => Move::face(Face::D, t),
        DominoMove::Half(c) => Move::face(Face::from_letter(c).expect("R L F B"), 2),
    }
}

/// The Domino's eight edges are the 3x3x3's U- and D-layer edges
/// (Kociemba's UR UF UL UB DR DF DL DB), U/D sticker first.
const EDGES: &[[(Face, usize, usize); 2]] = &tablegen::validate::EDGE_CELLS_UD;

/// Parses a 42-letter Domino state into `(cp, ep)` (slot -> piece); a
/// state that is no Domino's is [`SolveError::Input`].
pub fn parse_state(s: &str) -> Result<([u8; 8], [u8; 8]), SolveError> {
    let chars = tablegen::cube::state_letters(s)?;
    if chars.len() != 42 {
        return Err(SolveError::Input(format!(
            "a Domino state has 42 facelets, got {}",
            chars.len()
        )));
    }
    let c = CubeN::new(3);
    // Unseen middle rows get the face's own colour; they are never read.
    let mut st = c.solved();
    for (k, &i) in domino_facelets().iter().enumerate() {
        st[i] = chars[k] as u8;
    }
    if st[c.index(Face::U, 1, 1)] != Face::U as u8 || st[c.index(Face::D, 1, 1)] != Face::D as u8 {
        return Err(SolveError::input("the U and D centres must show U and D"));
    }
    let (cp, co) = read_corners(&c, &st, &[0, 1, 2, 3, 4, 5])?;
    if co.iter().any(|&t| t != 0) {
        return Err(SolveError::input(
            "a corner's U/D colour is not on the U or D face",
        ));
    }
    let mut ep = [0u8; 8];
    let mut seen = [false; 8];
    for (slot, cells) in EDGES.iter().enumerate() {
        let cols = cells.map(|(f, r, col)| st[c.index(f, r, col)]);
        let piece = EDGES
            .iter()
            .position(|e| e[0].0 as u8 == cols[0] && e[1].0 as u8 == cols[1])
            .ok_or_else(|| {
                SolveError::Input(format!("the edge in slot {slot} is not a Domino edge"))
            })?;
        if std::mem::replace(&mut seen[piece], true) {
            return Err(SolveError::Input(format!(
                "edge piece {piece} appears twice"
            )));
        }
        ep[slot] = piece as u8;
    }
    Ok((cp, ep))
}

/// Prints a position (`cp[slot] = piece`) as a 42-letter state string.
pub fn format_state(cp: &[u8; 8], ep: &[u8; 8]) -> String {
    let c = CubeN::new(3);
    let mut st = c.solved();
    let fac = tablegen::corners::corner_facelets(&c);
    for slot in 0..8 {
        let faces = tablegen::corners::CORNER_FACES[cp[slot] as usize];
        for k in 0..3 {
            st[fac[slot][k]] = faces[k] as u8;
        }
        for (&(f, r, col), home) in EDGES[slot].iter().zip(EDGES[ep[slot] as usize]) {
            st[c.index(f, r, col)] = home.0 as u8;
        }
    }
    domino_facelets()
        .iter()
        .map(|&i| Face::ALL[st[i] as usize].letter())
        .collect()
}

/// Applies Domino moves to the solved puzzle.
pub fn after(moves: &[DominoMove]) -> ([u8; 8], [u8; 8]) {
    let mut pos = ([0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]);
    for &m in moves {
        pos = apply_pieces(&pos.0, &pos.1, m);
    }
    pos
}

/// The solver.
pub struct Solver {
    space: DominoSpace,
    table: DistanceTable,
    goal: u64,
}

impl Solver {
    /// Loads (or builds: about half a minute) the `domino` table.
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        let space = DominoSpace::new(htm_moves());
        let goal = space.rank_full(0, 0);
        Ok(Solver {
            space,
            table: load_or_build("domino", dir, quiet)?,
            goal,
        })
    }

    /// Rank of a position.
    pub fn rank(&self, cp: &[u8; 8], ep: &[u8; 8]) -> u64 {
        self.space.rank_pieces(cp, ep)
    }

    /// Optimal solution of a position (fixed frame, `cp[slot] = piece`). The table
    /// holds distance mod 3: neighbours are one move nearer, level or one further,
    /// so the residue picks the way down. Each candidate move is made on the real
    /// position, so the moves named are the physical ones.
    pub fn solve(&self, cp: &[u8; 8], ep: &[u8; 8]) -> Result<Solution, SolveError> {
        let all = htm_moves();
        let path = crate::walk_downhill_mod3(
            (*cp, *ep),
            all.len(),
            64,
            |(c, e)| self.rank(c, e) == self.goal,
            |(c, e)| self.table.get(self.rank(c, e)) % 3,
            |(c, e), m| apply_pieces(c, e, all[m]),
        )
        .map_err(|e| SolveError::Internal(format!("domino: {e}")))?;
        let moves: Vec<String> = path.iter().map(|&m| all[m].to_string()).collect();
        Ok(Solution {
            phases: vec![("optimal".into(), moves.len())],
            moves,
            optimal: true,
        })
    }
}

/// The Domino in the [`puzzle`] registry.
pub struct DominoPuzzle;

impl Puzzle for DominoPuzzle {
    fn name(&self) -> &'static str {
        "domino"
    }
    fn parse(&self, input: &Input) -> Result<Position, SolveError> {
        puzzle::no_order(self.name(), input)?;
        match *input {
            Input::State { text, .. } => {
                let (cp, ep) = parse_state(text)?;
                Ok(Position {
                    state: State::Domino(cp, ep),
                    setup: None,
                })
            }
            Input::Scramble(text) => {
                let moves = tablegen::domino::parse_alg(text)
                    .map_err(|e| SolveError::Input(e.to_string()))?;
                let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                let (cp, ep) = after(&moves);
                Ok(Position {
                    state: State::Domino(cp, ep),
                    setup: Some(names.join(" ")),
                })
            }
        }
    }
    fn load(&self, tables: &Path, quiet: bool) -> Result<Box<dyn Solve>, SolveError> {
        Ok(Box::new(Solver::load(tables, quiet)?))
    }
}

impl Solve for Solver {
    fn solve(&self, position: &Position, _: &Options) -> Result<Solution, SolveError> {
        match &position.state {
            State::Domino(cp, ep) => Solver::solve(self, cp, ep),
            _ => Err(SolveError::Internal("not a Domino position".into())),
        }
    }
    fn scramble(&self, seed: u64) -> Result<Scramble, SolveError> {
        let (cp, ep) = self
            .space
            .pieces(puzzle::rng(seed).gen_range(0..tablegen::domino::STATES));
        let sol = Solver::solve(self, &cp, &ep)?;
        Ok(Scramble {
            moves: puzzle::invert(&sol.moves),
            state: Some(format_state(&cp, &ep)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The piece model and the 3x3x3 facelet model agree on every move, through
    /// the state string.
    #[test]
    fn pieces_and_facelets_agree() {
        let c = CubeN::new(3);
        let alg = tablegen::domino::parse_alg("U R2 D' F2 U2 L2 B2 D R2 U'").unwrap();
        let mut st = c.solved();
        let mut pos = after(&[]);
        for &m in &alg {
            c.apply(&mut st, as_cube_move(m));
            pos = apply_pieces(&pos.0, &pos.1, m);
            let text: String = domino_facelets()
                .iter()
                .map(|&i| Face::ALL[st[i] as usize].letter())
                .collect();
            assert_eq!(format_state(&pos.0, &pos.1), text);
            assert_eq!(parse_state(&text).unwrap(), pos);
        }
    }

    #[test]
    fn bad_states_are_refused() {
        let solved = format_state(&[0, 1, 2, 3, 4, 5, 6, 7], &[0, 1, 2, 3, 4, 5, 6, 7]);
        let err = parse_state(&solved[1..]).unwrap_err();
        assert!(matches!(err, SolveError::Input(_)), "{err}");
        assert!(err.to_string().contains("42"));
        let mut b = solved.clone().into_bytes();
        b.swap(0, 9); // a U sticker and an R sticker
        assert!(parse_state(std::str::from_utf8(&b).unwrap()).is_err());
        // A space inside is named by its position, not counted.
        let spaced = format!("{} {}", &solved[..9], &solved[9..]);
        let err = parse_state(&spaced).unwrap_err().to_string();
        assert!(err.contains("' ' at character 10 of the state"), "{err}");
    }
}
