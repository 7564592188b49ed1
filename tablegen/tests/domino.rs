//! The Domino's distance distribution by a second, independent method.
//!
//! The catalog's `domino` table works modulo the whole-puzzle turn about the U-D
//! axis with hand-written piece cycles and a canonical-form ranking. This method
//! shares none of that: the pieces' moves are read off the 3x3x3 facelet model, the
//! frame is fixed (so D turns are moves of their own and the four turned copies of
//! the solved puzzle are all goals), and the rank is simply (corner perm, edge
//! perm) over all 8! x 8! arrangements. A D turn is a U turn followed by a whole
//! turn, so each position modulo the turn has exactly four fixed-frame copies at
//! the same distance: every depth count must be four times the catalog's.
//!
//! It needs 1.6 GB and a few minutes, so it is ignored by default:
//! `bash ci/soak.sh` (or `CUBE_SOAK=1 cargo test --release -p tablegen --test tests -- --ignored soak_domino`).

use tablegen::bfs::{dense_bfs, Space};
use tablegen::cube::CubeN;
use tablegen::notation::{Face, Move, MoveKind};
use tablegen::perm::{perm_rank, perm_unrank};
use tablegen::progress::Progress;

const N8: usize = 40320;

/// Facelet pairs of the eight U/D-layer edges, Kociemba's UR UF UL UB DR DF DL DB.
use tablegen::validate::EDGE_CELLS_UD as EDGE_CELLS;

/// Where each slot's piece goes under a 3x3x3 move: read off the facelet
/// permutation by following one sticker of each slot.
fn slot_maps(cube: &CubeN, mv: Move) -> ([u8; 8], [u8; 8]) {
    let perm = cube.perm(mv);
    let mut dest = vec![0usize; perm.len()];
    for (j, &src) in perm.iter().enumerate() {
        dest[src as usize] = j;
    }
    let corners = tablegen::corners::corner_facelets(cube);
    let edges: Vec<[usize; 2]> = EDGE_CELLS
        .iter()
        .map(|c| c.map(|(f, r, col)| cube.index(f, r, col)))
        .collect();
    let mut cm = [0u8; 8];
    let mut em = [0u8; 8];
    for s in 0..8 {
        let to = dest[corners[s][0]];
        cm[s] = corners
            .iter()
            .position(|c| c.contains(&to))
            .expect("corner") as u8;
        let to = dest[edges[s][0]];
        em[s] = edges.iter().position(|e| e.contains(&to)).expect("edge") as u8;
    }
    (cm, em)
}

struct FixedFrame {
    nm: usize,
    cmove: Vec<u16>,
    emove: Vec<u16>,
    goals: Vec<u64>,
}

fn apply_map(x: usize, map: &[u8; 8]) -> u16 {
    let p = perm_unrank(x as u64, 8);
    let mut out = [0u8; 8];
    for (slot, &piece) in p.iter().enumerate() {
        out[map[slot] as usize] = piece;
    }
    perm_rank(&out) as u16
}

impl FixedFrame {
    fn new(half_turn_u: bool) -> FixedFrame {
        let cube = CubeN::new(3);
        let mut moves = Vec::new();
        for f in [Face::U, Face::D] {
            moves.push(Move::face(f, 1));
            moves.push(Move::face(f, 3));
            if half_turn_u {
                moves.push(Move::face(f, 2));
            }
        }
        for f in [Face::R, Face::L, Face::F, Face::B] {
            moves.push(Move::face(f, 2));
        }
        let maps: Vec<_> = moves.iter().map(|&m| slot_maps(&cube, m)).collect();
        let nm = moves.len();
        let mut cmove = vec![0u16; N8 * nm];
        let mut emove = vec![0u16; N8 * nm];
        for x in 0..N8 {
            for (m, (cm, em)) in maps.iter().enumerate() {
                cmove[x * nm + m] = apply_map(x, cm);
                emove[x * nm + m] = apply_map(x, em);
            }
        }
        let mut goals = Vec::new();
        for t in 0..4u8 {
            let y = Move {
                face: Face::U,
                kind: MoveKind::Rotation,
                turns: t,
            };
            let (cm, em) = if t == 0 {
                ([0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7])
            } else {
                slot_maps(&cube, y)
            };
            goals.push(apply_map(0, &cm) as u64 * N8 as u64 + apply_map(0, &em) as u64);
        }
        FixedFrame {
            nm,
            cmove,
            emove,
            goals,
        }
    }
}

impl Space for FixedFrame {
    fn size(&self) -> u64 {
        (N8 * N8) as u64
    }
    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let c = (rank / N8 as u64) as usize;
        let e = (rank % N8 as u64) as usize;
        for m in 0..self.nm {
            let r =
                self.cmove[c * self.nm + m] as u64 * N8 as u64 + self.emove[e * self.nm + m] as u64;
            if !f(r) {
                return;
            }
        }
    }
}

fn check(half_turn_u: bool, id: &str) {
    let space = FixedFrame::new(half_turn_u);
    let res = dense_bfs(&space, &Progress::new(id, space.size(), false));
    let quotient = tablegen::catalog::find(id)
        .unwrap()
        .expected_histogram
        .unwrap();
    let four_times: Vec<u64> = quotient.iter().map(|&c| 4 * c).collect();
    assert_eq!(
        res.histogram, four_times,
        "{id}: fixed frame vs 4 x catalog"
    );
}

#[test]
#[ignore = "1.6 GB, minutes: the soak, ci/soak.sh"]
fn soak_domino_fixed_frame_agrees() {
    check(true, "domino");
}

#[test]
#[ignore = "1.6 GB, minutes: the soak, ci/soak.sh"]
fn soak_domino_qtm_fixed_frame_agrees() {
    check(false, "domino-qtm");
}
