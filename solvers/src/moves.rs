//! Move helpers shared by the NxNxN solvers: merging turns of the same
//! layers, whole-cube turns, colour renaming, counting in the outer block turn
//! metric.

use tablegen::cube::CubeN;
use tablegen::notation::{Face, Move, MoveKind};

/// Merges turns of the same layers that meet across phase boundaries: block turns
/// about one axis commute, so a turn merges with the last turn of the same face
/// and depth among the trailing turns on its axis (and both vanish if they
/// cancel).
pub fn simplify(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &m in moves {
        let axis = m.face.axis();
        let mut merged = false;
        for j in (0..out.len()).rev() {
            let p = out[j];
            if p.face.axis() != axis {
                break;
            }
            if p.face == m.face && p.kind == m.kind {
                let turns = (p.turns + m.turns) % 4;
                if turns == 0 {
                    out.remove(j);
                } else {
                    out[j].turns = turns;
                }
                merged = true;
                break;
            }
        }
        if !merged {
            out.push(m);
        }
    }
    out
}

/// The whole-cube turn about `face`, `turns` quarter turns clockwise.
pub fn whole_turn(face: Face, turns: u8) -> Move {
    Move {
        face,
        kind: tablegen::notation::MoveKind::Rotation,
        turns,
    }
}

/// Colour renamings, as a table from colour to colour, that bring the U/D,
/// F/B and R/L colour pairs to the U/D colours: those of the whole-cube turns
/// I, `x y` and `z' y` (the colour on each face after the turn is renamed to
/// that face's own). The 4x4x4 reduction stages the pair renamed U/D first and
/// leaves the pair renamed F/B for its last phase's half turns; with these
/// turns that second pair is F/B, R/L and U/D in turn, so that over the three
/// every pair is left for the half turns once (with `x` and `z`, R/L never
/// was, and a third of the arrangements of the pairs on the axes were out of
/// reach of the reduction's second phase).
pub fn recolourings() -> [[u8; 6]; 3] {
    let rot = |face, k| whole_turn(face, k);
    [
        vec![],
        vec![rot(Face::R, 1), rot(Face::U, 1)],
        vec![rot(Face::F, 3), rot(Face::U, 1)],
    ]
    .map(|turn| recolouring(&turn))
}

/// The colour renaming of a whole-cube turn: the colour on each face after
/// the turn is renamed to that face's own.
pub fn recolouring(turn: &[Move]) -> [u8; 6] {
    let c3 = CubeN::new(3);
    let mut s = c3.solved();
    c3.apply_alg(&mut s, turn);
    let mut map = [0u8; 6];
    for f in Face::ALL {
        map[s[c3.index(f, 1, 1)] as usize] = f as u8;
    }
    map
}

/// Whole-cube turns that bring each axis (U-D, R-L, F-B) to U-D: a solver
/// that stages one axis first tries each by turning the cube.
pub fn axis_rotations() -> [Vec<Move>; 3] {
    [
        vec![],
        vec![whole_turn(Face::F, 1)],
        vec![whole_turn(Face::R, 1)],
    ]
}

/// Length in the outer block turn metric: a turn of an outer block of layers
/// counts one, an inner slice (`2R`, a block not at the face) two, a
/// whole-cube turn nothing.
pub fn obtm(moves: &[Move]) -> usize {
    moves
        .iter()
        .map(|m| match m.kind {
            MoveKind::Rotation => 0,
            MoveKind::Block(_) => 1,
            MoveKind::Slice(_) => 2,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obtm_counts() {
        let alg = tablegen::notation::parse_alg("R Rw 3Rw 2R x U2").unwrap();
        assert_eq!(obtm(&alg), 6, "R Rw 3Rw: 3, 2R: 2, x: 0, U2: 1");
    }

    #[test]
    fn merging_turns() {
        let alg = tablegen::notation::parse_alg("R L R' U U Rw2 Rw2").unwrap();
        let out = simplify(&alg);
        assert_eq!(tablegen::notation::format_alg(&out), "L U2");
    }
}
