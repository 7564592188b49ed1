//! 4x4x4: the centres in three staged table walks ([`CentreStages`]), and the
//! reduction solver ([`Solver`]).
//!
//! [`CentreStages`]:
//!
//! | stage | table | moves | goal |
//! |---|---|---|---|
//! | 1 | `4x4x4-ud-stage` | the 36 outer block turns | every U/D-coloured centre on the U or D face |
//! | 2 | `4x4x4-lr-stage` | 28: no `Rw Lw Fw Bw` quarter turns | also every L/R-coloured centre on L or R |
//! | 3 | `4x4x4-centers-solve` | 24: wide turns only as half turns | every centre on its face |
//!
//! [`Solver`] is a three-phase reduction (U/D centres; L/R and F/B centres with
//! the wings separated into high/low slots; centres and pairing in the group
//! `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>`), then the 3x3x3
//! two-phase solver; it is what `cubesolve solve --puzzle 4x4x4` runs (see its
//! own documentation for the phases and their bounds).
//!
//! Each table is a complete distance table over a facelet projection of the
//! catalog ([`tablegen::projection`]); a stage ranks the state's projection and
//! walks downhill ([`crate::walk_downhill`]), so each stage is optimal for its own
//! goal and move set (the sum is not optimal for the centres).
//!
//! **Orientation.** A 4x4x4 has no fixed centres, so the centres could be solved
//! in any of the 24 whole-cube orientations. These stages use the one the tables'
//! goals define: colour U (0) on face U, R (1) on R, F (2) on F, D (3) on D, L (4)
//! on L and B (5) on B — the colours of [`tablegen::cube::CubeN::solved`]. With
//! the standard colour scheme this is the orientation in which the corners, hence
//! the whole cube, end up solved, so the later stages need no rotation. A free
//! choice would gain little: over 20,000 random centre states, staging the U/D
//! colours on the best of the three axes instead of U/D shortens stage 1 from 6.02
//! to 6.01 moves on average, and the best of the two L/R choices and of the four
//! final orientations (I, x2, y2, z2) shortens stages 2+3 from 12.94 to 12.72.

use crate::cube3::Solver as Solver3;
use crate::search::{allowed, deepen, next_distance, Clock, Policy, Root, Share, Stage};
use crate::tables::{load_or_build, nibble, DistanceTable, Nibbles, TableError, Trits};
use crate::walk_downhill;
use crate::SolveError;
use std::path::Path;
use std::time::{Duration, Instant};
use tablegen::bfs::Space;
use tablegen::catalog::{self, SpaceDef};
use tablegen::corners::read_corners;
use tablegen::cube::CubeN;
use tablegen::cube3::CubieCube;
use tablegen::cube4::{odd, PairAllSpace, SideCentresSpace, SplitSpace, Wings};
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace, Orbit};
use tablegen::validate::validate;

/// The three tables, in stage order.
pub const STAGE_IDS: [&str; 3] = ["4x4x4-ud-stage", "4x4x4-lr-stage", "4x4x4-centers-solve"];

/// One stage: a catalog projection, its moves and its distance table.
struct CentreStage {
    id: &'static str,
    space: FaceletMaskSpace,
    moves: Vec<Move>,
    /// Colours that set a bit of the mask (the union of the blocks' marked classes:
    /// each block only sees colours of its own class once the earlier stages are done).
    marked: [bool; 6],
    /// Per block: its faces' centre facelets and how many of them must be marked.
    blocks: Vec<(Vec<usize>, usize)>,
    table: DistanceTable,
}

/// The three centre stages of the 4x4x4 (tables, projections, move sets).
pub struct CentreStages {
    cube: CubeN,
    stages: [CentreStage; 3],
}

/// Facelet indices of the four centres of `face` on a 4x4x4.
fn centres_of(cube: &CubeN, face: Face) -> [usize; 4] {
    [
        cube.index(face, 1, 1),
        cube.index(face, 1, 2),
        cube.index(face, 2, 1),
        cube.index(face, 2, 2),
    ]
}

impl CentreStage {
    fn load(
        id: &'static str,
        cube: &CubeN,
        dir: &Path,
        quiet: bool,
    ) -> Result<CentreStage, TableError> {
        let bad = |msg: String| TableError::Build(id.into(), msg);
        let def = catalog::find(id).ok_or_else(|| bad("not in the catalog".into()))?;
        let SpaceDef::Facelets { def: proj, moves } = def.space else {
            return Err(bad("not a dense facelet projection".into()));
        };
        if proj.n != 4 || proj.orbit != Orbit::AllCentres {
            return Err(bad("not a projection of the 4x4x4 centres".into()));
        }
        let space = projection::build(&proj, &moves).map_err(bad)?;
        if !space.is_dense() {
            return Err(bad("projection too big to rank densely".into()));
        }
        let mut marked = [false; 6];
        let mut blocks = Vec::new();
        for b in &proj.blocks {
            for &f in &b.marked {
                marked[f as usize] = true;
            }
            let cells: Vec<usize> = b.faces.iter().flat_map(|&f| centres_of(cube, f)).collect();
            blocks.push((cells, 4 * b.marked.len()));
        }
        let table = load_or_build(id, dir, quiet)?;
        let len = table.len();
        if len != space.size() {
            return Err(bad(format!(
                "table has {len} ranks, the projection {}",
                space.size()
            )));
        }
        Ok(CentreStage {
            id,
            space,
            moves,
            marked,
            blocks,
            table,
        })
    }

    /// Rank of the state's projection; an error if the state does not meet the
    /// stage's precondition (each block must hold exactly its marked colours).
    fn rank(&self, state: &[u8]) -> Result<u64, String> {
        for (cells, want) in &self.blocks {
            let got = cells
                .iter()
                .filter(|&&i| self.marked[state[i] as usize])
                .count();
            if got != *want {
                return Err(format!(
                    "{}: {got} marked centres in a block that needs {want}",
                    self.id
                ));
            }
        }
        let rank = self.space.rank(self.space.project(state, &self.marked));
        if rank >= self.space.size() {
            return Err(format!("{}: rank {rank} out of range", self.id));
        }
        Ok(rank)
    }

    /// Distance of the state to the stage's goal.
    #[cfg(test)]
    fn distance(&self, state: &[u8]) -> Result<u8, String> {
        Ok(self.table.get(self.rank(state)?))
    }

    /// Moves (indices into `self.moves`) from the state to the stage's goal.
    fn walk(&self, state: &[u8]) -> Result<Vec<usize>, String> {
        let rank = self.rank(state)?;
        let sp = &self.space;
        walk_downhill(&self.table, rank, self.moves.len(), |r, m| {
            sp.rank(sp.apply(sp.unrank(r), m))
        })
    }
}

impl CentreStages {
    /// Bytes of the three tables.
    pub fn table_bytes(&self) -> u64 {
        self.stages.iter().map(|s| s.table.bytes()).sum()
    }

    /// Loads (or builds, showing progress unless `quiet`) the three tables from
    /// `dir` and builds their projections from the catalog definitions.
    pub fn load(dir: &Path, quiet: bool) -> Result<CentreStages, TableError> {
        let cube = CubeN::new(4);
        let stages = [
            CentreStage::load(STAGE_IDS[0], &cube, dir, quiet)?,
            CentreStage::load(STAGE_IDS[1], &cube, dir, quiet)?,
            CentreStage::load(STAGE_IDS[2], &cube, dir, quiet)?,
        ];
        Ok(CentreStages { cube, stages })
    }

    /// Moves (tablegen::notation::Move) of each of the three stages that solve the
    /// centres of `state` (96 facelets, colours 0..6 = U R F D L B, as
    /// [`CubeN::solved`]), applied in order. Afterwards every centre facelet shows
    /// the colour of its face (U colour on U, and so on); edges and corners are
    /// moved but not looked at.
    ///
    /// Only the centres are checked (length, colours below 6, four centres of each
    /// colour); use [`tablegen::validate::validate`] for the rest of the cube.
    pub fn solve(&self, state: &[u8]) -> Result<[Vec<Move>; 3], String> {
        let cube = &self.cube;
        if state.len() != cube.facelets() {
            return Err(format!(
                "a 4x4x4 state has {} facelets, got {}",
                cube.facelets(),
                state.len()
            ));
        }
        if let Some(&c) = state.iter().find(|&&c| c >= 6) {
            return Err(format!("colour {c} out of range 0..6"));
        }
        let mut counts = [0usize; 6];
        for f in Face::ALL {
            for i in centres_of(cube, f) {
                counts[state[i] as usize] += 1;
            }
        }
        if let Some(f) = Face::ALL.iter().find(|&&f| counts[f as usize] != 4) {
            return Err(format!(
                "{} centres of colour {} (a 4x4x4 has 4 of each)",
                counts[*f as usize],
                f.letter()
            ));
        }
        let mut s = state.to_vec();
        let mut out: [Vec<Move>; 3] = Default::default();
        for (stage, moves) in self.stages.iter().zip(out.iter_mut()) {
            *moves = stage
                .walk(&s)?
                .into_iter()
                .map(|m| stage.moves[m])
                .collect();
            cube.apply_alg(&mut s, moves);
        }
        // The goal read off the colours, independently of the projections.
        for f in Face::ALL {
            if let Some(&i) = centres_of(cube, f).iter().find(|&&i| s[i] != f as u8) {
                return Err(format!(
                    "centres not solved after the stages (facelet {i} shows {})",
                    Face::ALL[s[i] as usize].letter()
                ));
            }
        }
        Ok(out)
    }
}

/// Ids of the reduction's own tables, besides the centre stages and the 3x3x3 ones.
pub const REDUCTION_IDS: [&str; 3] = [
    "4x4x4-sides-parity",
    "4x4x4-wings-split3",
    "4x4x4-wings-pair",
];

/// Options of a 4x4x4 solve.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Time for the whole solve: the 3x3x3 finishes share what is left (each
    /// at least `finish_min`).
    pub time_budget: Duration,
    /// Phase-1 solutions found (each a phase-2 start), shared among the nine
    /// (axis, colour pair) choices; copies (one start turned about the U-D axis)
    /// are dropped, and phase 2 takes the rest in order of their bound on
    /// phases 1 and 2.
    pub phase1_candidates: usize,
    /// Phase-1 solutions up to this many moves longer than optimal are tried.
    pub phase1_slack: usize,
    /// Phase 1 on all three axes, each with each colour pair (else the U/D
    /// colours on U-D only).
    pub all_axes: bool,
    /// Phase-2 solutions handed to phase 3, which keeps the shortest total.
    pub phase2_candidates: usize,
    /// Node budget of the phase-2 search (it stops early once it has one).
    pub phase2_nodes: u64,
    /// Node budget of one phase-2 length before the next is tried.
    pub phase2_level_nodes: u64,
    /// Node budget of one phase-3 total length before the next is tried.
    pub phase3_level_nodes: u64,
    /// Node budget of the phase-3 IDA* (a safety net: the bound is the exact
    /// pairing distance, so a search takes far fewer).
    pub exact_nodes: u64,
    /// Phase-3 solutions of the shortest total, each finished by the 3x3x3
    /// solver; the shortest whole is kept.
    pub phase3_solutions: usize,
    /// Nodes the phase-3 search goes on for after its first solution.
    pub phase3_more_nodes: u64,
    /// Least time each 3x3x3 finish gets (the first even past the time budget:
    /// once one whole solution is known, the budget ends the solve).
    pub finish_min: Duration,
    /// Time after which a solve that has found nothing gives up with
    /// [`SolveError::OutOfTime`] (never less than the time budget).
    pub hard_limit: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            phase1_candidates: 4000,
            phase1_slack: 1,
            all_axes: true,
            phase2_candidates: 100,
            phase2_nodes: 3_000_000,
            phase2_level_nodes: 500_000,
            phase3_level_nodes: 3_000_000,
            exact_nodes: 200_000_000,
            phase3_solutions: 16,
            phase3_more_nodes: 500_000,
            finish_min: Duration::from_millis(5),
            time_budget: Duration::from_millis(240),
            hard_limit: Duration::from_secs(30),
        }
    }
}

/// A 4x4x4 solution: outer block turns, with the moves of each phase.
#[derive(Clone, Debug)]
pub struct Solution4 {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// `(phase, moves)` in solution order, then `("merged", k)` if `k` moves
    /// vanished where one phase's last turn met the next phase's first: the
    /// phases add up to `moves.len() + k`.
    pub phases: Vec<(&'static str, usize)>,
}

/// The 4x4x4 reduction solver.
///
/// | phase | goal | moves | bound |
/// |---|---|---|---|
/// | `centres-ud` | one colour pair's centres on one axis (each of the 3 x 3 choices: the cube turned and its colours renamed; optimal and +1 solutions) | 36 | `4x4x4-ud-stage` (walk) |
/// | `separate` | the other centres staged so the pairing group can solve them, in either frame (F/B centres on F/B, or on R/L and the cube turned by `y`); each dedge with one wing in each class, an even number of them flipped; even wing permutation | 23 (28 less `Dw Lw2 Bw2`: see [`P2`]) | least over the two frames of the max of `4x4x4-sides-parity` (side centres and wing parity together) and `4x4x4-wings-split3` on four groups of three dedges |
/// | `pair` | centres solved, edges paired, no PLL parity (up to `x2 y2 z2`) | 17: `U D R L` turns, `F2 B2`, `Uw2 Rw2 Fw2` | max of the phase-3 centre distance and the exact pairing distance (`4x4x4-wings-pair`, mod 3, followed move by move) |
/// | `3x3x3` | solved | 18 outer face turns | the two-phase solver, on each of up to 16 `pair` solutions; the shortest whole is kept |
pub struct Solver {
    stages: CentreStages,
    wings: Wings,
    sides: SideCentresSpace,
    /// `4x4x4-sides-parity`: per sides-stage rank `r` and wing parity `o`
    /// (entry `2r + o`), the distance to the sides-stage goal with an even
    /// wing permutation.
    sides_tab: Nibbles,
    split: SplitSpace,
    split_tab: Nibbles,
    /// Per phase-2 move: wing slot images and whether it permutes the wings oddly.
    p2_slot: Vec<[u8; 24]>,
    p2_odd: Vec<bool>,
    /// Phase-2 moves (the lr-stage set).
    p2_moves: Vec<Move>,
    /// The least of `sides_tab` as it is and turned by `y` (nibbles, same
    /// entries; built at load).
    sides_either: Vec<u8>,
    /// Phase-2 moves searched: `Dw Lw2 Bw2` are `Uw Rw2 Fw2` and a whole-cube
    /// turn (y', x2, z2), so they are left out and the goal is taken in both
    /// frames the turns reach (see [`P2`]).
    p2_active: Vec<usize>,
    /// The facelet permutations of the eight whole-cube turns that keep the U-D
    /// axis (`y^k` and `x2 y^k`): facelet `i` of the turned state is facelet
    /// `p[i]` of the state.
    ud_turns: Vec<Vec<u8>>,
    /// Wing slot images of the whole-cube turn `y`; `sides` has `y` as its move
    /// `p2_moves.len()`.
    y_slot: [u8; 24],
    pair: PairAllSpace,
    pair_tab: Trits,
    /// Phase-3 moves.
    p3_moves: Vec<Move>,
    /// Per phase-3 move: toggles the PLL parity (corner parity + high wing parity).
    p3_pll: Vec<bool>,
    /// Phase-3 moves searched: `Dw2 Lw2 Bw2` are `Uw2 Rw2 Fw2` and a whole-cube
    /// half turn, so with the goal taken up to those turns they are left out.
    p3_active: Vec<usize>,
    /// Phase-3 centres: the pairing group's orbit of solved, with its move table
    /// and distances.
    centres3: PairCentres,
    solver3: Solver3,
}

/// The clock of a solve started at `start`.
fn clock_of(start: Instant, opts: &Options) -> Clock {
    Clock {
        soft: start + opts.time_budget,
        hard: start + opts.hard_limit.max(opts.time_budget),
    }
}

/// Phase-3 node: centres mask, the dedges' relative permutation, PLL parity and
/// the exact pairing distance of `sigma`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct N3 {
    centres: u16,
    sigma: [u8; 12],
    pll: bool,
    edges: u8,
}

/// Phase 3 as a stage of the engine: IDA* on the phase-3 centre distance
/// and the exact pairing distance (followed move by move in the mod-3
/// table); any node where both are 0 is a goal.
struct P3<'a> {
    s: &'a Solver,
}

impl Solver {
    /// Exact pairing distance of `sigma`: walk downhill in the mod-3 table.
    fn pairing_distance(&self, sigma: &[u8; 12]) -> Result<u8, String> {
        let t = self.pair_tab.bytes();
        let mut s = *sigma;
        let mut r = PairAllSpace::rank(&s);
        let mut d = 0u8;
        while r != 0 {
            let want = (tablefmt::trit(t, r as usize) + 2) % 3;
            let next = (0..self.pair.moves.len())
                .map(|i| self.pair.apply(&s, i))
                .map(|n| (PairAllSpace::rank(&n), n))
                .find(|&(nr, _)| tablefmt::trit(t, nr as usize) == want)
                .ok_or("the pairing table does not match its space")?;
            (r, s) = next;
            d += 1;
            if d > 40 {
                return Err("no way down in the pairing table".into());
            }
        }
        Ok(d)
    }
}

/// The centres in phase 3: the 58,800 arrangements the pairing group reaches from
/// solved (70 x 70 x 12), indexed in the order a breadth-first search from solved
/// meets them, a move table, and the distance of (arrangement, PLL bit) to solved
/// up to the half turns x2, y2, z2 under the moves phase 3 searches.
struct PairCentres {
    index: std::collections::HashMap<u64, u16>,
    moves: Vec<[u16; 20]>,
    dist: Vec<u8>,
}

impl PairCentres {
    fn new(
        stages: &CentreStages,
        p3_moves: &[Move],
        centre_move: &[usize],
        pll: &[bool],
        active: &[usize],
    ) -> PairCentres {
        let st = &stages.stages[2];
        let cube = &stages.cube;
        let solved = st.space.project(&cube.solved(), &st.marked);
        let mut index = std::collections::HashMap::from([(solved, 0u16)]);
        let mut masks = vec![solved];
        let mut moves: Vec<[u16; 20]> = Vec::new();
        let mut k = 0;
        while k < masks.len() {
            let mut row = [0u16; 20];
            for (i, slot) in row.iter_mut().enumerate().take(p3_moves.len()) {
                let y = st.space.apply(masks[k], centre_move[i]);
                let next = index.len() as u16;
                *slot = *index.entry(y).or_insert_with(|| {
                    masks.push(y);
                    next
                });
            }
            moves.push(row);
            k += 1;
        }
        // Goals: solved turned by x2, y2, z2 (and not), with no PLL parity.
        let mut dist = vec![u8::MAX; 2 * masks.len()];
        let mut layer = Vec::new();
        for r in [None, Some(Face::U), Some(Face::R), Some(Face::F)] {
            let mut g = cube.solved();
            if let Some(face) = r {
                cube.apply(&mut g, whole_turn(face, 2));
            }
            let c = index[&st.space.project(&g, &st.marked)] as usize;
            if dist[2 * c] != 0 {
                dist[2 * c] = 0;
                layer.push(2 * c);
            }
        }
        let mut d = 0;
        while !layer.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &x in &layer {
                for &i in active {
                    let y = 2 * moves[x / 2][i] as usize + ((x % 2 == 1) ^ pll[i]) as usize;
                    if dist[y] == u8::MAX {
                        dist[y] = d;
                        next.push(y);
                    }
                }
            }
            layer = next;
        }
        PairCentres { index, moves, dist }
    }
}

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

/// A phase-1+2 candidate: moves (on the cube turned for its axis), the length of
/// each phase, the state after them (turned) and the axis.
struct Candidate {
    /// Phases 1 and 2, on the cube turned by `axis_rotations()[axis]`.
    moves: Vec<Move>,
    lens: [usize; 2],
    /// The state after them (on the turned cube, its colours renamed for the
    /// colour pair phase 1 staged), turned by `y` too if `turned`.
    state: Vec<u8>,
    axis: usize,
    /// Phase 2 ended in the goal turned by `y` (see [`P2`]).
    turned: bool,
}

/// Colour renamings, as a table from colour to colour, that bring the U/D,
/// F/B and R/L colour pairs to the U/D colours: those of the whole-cube turns
/// I, x and z (the colour on each face after the turn is renamed to that face's
/// own).
fn recolourings() -> [[u8; 6]; 3] {
    let c3 = CubeN::new(3);
    let rot = |face| whole_turn(face, 1);
    [vec![], vec![rot(Face::R)], vec![rot(Face::F)]].map(|turn| {
        let mut s = c3.solved();
        c3.apply_alg(&mut s, &turn);
        let mut map = [0u8; 6];
        for f in Face::ALL {
            map[s[c3.index(f, 1, 1)] as usize] = f as u8;
        }
        map
    })
}

/// Per entry `2r + o` of `par` (`4x4x4-sides-parity`), the least of its distance
/// as it is and turned by the move `y` of `sides` (which keeps the wing
/// parity: it permutes the wings in six 4-cycles). Nibbles, as `par`.
fn either_frame(sides: &SideCentresSpace, par: &[u8], y: usize) -> Vec<u8> {
    let mut out = vec![0u8; par.len()];
    for r in 0..sides.size() as usize {
        let (f, b) = sides.unrank(r as u64);
        let (fy, by) = sides.apply(f, b, y);
        let ry = sides.rank(fy, by) as usize;
        for o in 0..2 {
            let i = 2 * r + o;
            let d = nibble(par, i).min(nibble(par, 2 * ry + o)) as u8;
            out[i >> 1] |= d << ((i & 1) << 2);
        }
    }
    out
}

/// Indices of `moves` other than the wide turns of D, L and B: each of those is
/// the wide turn of the opposite face and a whole-cube turn, which phases 2 and
/// 3 take care of by their goals.
fn without_dlb_wide(moves: &[Move]) -> Vec<usize> {
    (0..moves.len())
        .filter(|&i| {
            let m = moves[i];
            !(m.kind == tablegen::notation::MoveKind::Block(2)
                && matches!(m.face, Face::D | Face::L | Face::B))
        })
        .collect()
}

/// The whole-cube turn about `face`, `turns` quarter turns clockwise.
fn whole_turn(face: Face, turns: u8) -> Move {
    Move {
        face,
        kind: tablegen::notation::MoveKind::Rotation,
        turns,
    }
}

/// The whole-cube turn `y`.
fn y_turn() -> Move {
    whole_turn(Face::U, 1)
}

/// Whole-cube turns that bring each axis to U-D (phase 1 stages that axis's
/// centres). Phase 2 takes both choices of the axis it restricts (F-B, or R-L:
/// see [`P2`]).
fn axis_rotations() -> [Vec<Move>; 3] {
    [
        vec![],
        vec![whole_turn(Face::F, 1)],
        vec![whole_turn(Face::R, 1)],
    ]
}

/// Phase-2 node: sides-stage coordinate, slot of each wing piece, wing parity,
/// and the sides-with-parity distances of the node as it is and turned by `y`.
#[derive(Clone, Copy, Debug)]
struct N2 {
    f: u16,
    b: u16,
    pos: [u8; 24],
    odd: bool,
    sides: [u8; 2],
}

/// Phase-2 search: IDA* on the sides-with-parity table; the
/// wing split (one wing of each dedge in each class) is checked at the leaves.
///
/// Only 23 of the 28 moves are searched (`Dw Lw2 Bw2` left out): `Dw` is `Uw`
/// followed by the whole-cube turn `y'`, and `Lw2`, `Bw2` are `Rw2`, `Fw2`
/// followed by `x2`, `z2`. The goal is closed under `x2 y2 z2` (they are in the
/// pairing group), so a 28-move solution is a 23-move one that ends in the goal
/// either as the cube is or turned by `y` (F/B centres on R/L). The search takes
/// both frames as goals: a leaf in the turned frame is turned by `y` before
/// phase 3. The tables are distances under all 28 moves to the unturned goal,
/// so each frame's bound reads them on the node as it is or turned by `y`, and a
/// node is pruned when both frames' bounds exceed what is left.
struct P2<'a> {
    s: &'a Solver,
}

impl P2<'_> {
    fn h(&self, n: &N2) -> usize {
        (0..2)
            .map(|t| {
                let mut h = n.sides[t] as usize;
                let pos = self.frame(n, t);
                for g in 0..4 {
                    h = h.max(self.split_h(&pos, g));
                }
                h
            })
            .min()
            .unwrap_or(0)
    }

    /// Wing positions in frame `t` (0: as is, 1: turned by `y`).
    #[inline]
    fn frame(&self, n: &N2, t: usize) -> [u8; 24] {
        if t == 0 {
            n.pos
        } else {
            n.pos.map(|x| self.s.y_slot[x as usize])
        }
    }

    /// Bound of the split table on dedges 3g, 3g+1, 3g+2.
    #[inline]
    fn split_h(&self, pos: &[u8; 24], g: usize) -> usize {
        let pairs: [(u8, u8); 3] = std::array::from_fn(|i| {
            let d = 3 * g + i;
            (pos[d], pos[d + 12])
        });
        nibble(self.s.split_tab.bytes(), self.s.split.rank(&pairs) as usize)
    }

    /// The frames (bit t: frame t) whose bound is at most `limit`, looking at
    /// the cheap bounds first.
    #[inline]
    fn within(&self, n: &N2, limit: usize) -> u8 {
        let mut frames = 0;
        for t in 0..2 {
            if n.sides[t] as usize > limit {
                continue;
            }
            // The split table's largest distance is 3: it only prunes below that.
            if limit >= 3 || {
                let pos = self.frame(n, t);
                (0..4).all(|g| self.split_h(&pos, g) <= limit)
            } {
                frames |= 1 << t;
            }
        }
        frames
    }
}

impl Stage for P2<'_> {
    type Node = N2;

    fn prune(&self, n: &N2, left: usize) -> bool {
        self.within(n, left) == 0
    }

    /// Every path of exactly the length searched that ends in the goal: the
    /// tag is the frame (1: turned by `y`).
    fn goal(&self, n: &N2, left: usize) -> Option<u8> {
        if left > 0 {
            return None;
        }
        // Split: one wing of each dedge in each class. Phase 3 keeps the
        // parity of sigma, and sigma's parity is that of the wing permutation
        // (even here) plus the number of dedges whose high piece sits in the
        // low class: that number must be even too (else OLL parity).
        let frames = self.within(n, 0);
        (0..2u8).find(|&t| {
            frames & (1 << t) != 0 && {
                let pos = self.frame(n, t as usize);
                let split = (0..12).all(|d| (pos[d] < 12) != (pos[d + 12] < 12));
                let flipped = (0..12).filter(|&d| pos[d] >= 12).count();
                split && flipped % 2 == 0
            }
        })
    }

    /// Children in two passes: their sides-with-parity entries (both frames)
    /// are prefetched together (the cache misses overlap), then children
    /// failing that bound are counted and dropped before their wings are moved.
    fn expand(&self, n: &N2, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N2)>) -> u64 {
        let s = self.s;
        let left = left - 1;
        let prev = prev.map(|i| s.p2_moves[i]);
        let either = &s.sides_either;
        let mut kids = [(0usize, 0usize, (0u16, 0u16)); 28];
        let mut k = 0;
        for &i in &s.p2_active {
            if !allowed(prev, s.p2_moves[i]) {
                continue;
            }
            let fb = s.sides.apply(n.f, n.b, i);
            let r = s.sides.rank(fb.0, fb.1) as usize;
            let e = 2 * r + (n.odd ^ s.p2_odd[i]) as usize;
            crate::tables::prefetch(either, e >> 1);
            kids[k] = (i, r, fb);
            k += 1;
        }
        let mut dropped = 0;
        for &(i, r, fb) in &kids[..k] {
            let odd = n.odd ^ s.p2_odd[i];
            if nibble(either, 2 * r + odd as usize) > left {
                dropped += 1;
                continue;
            }
            // Each frame's distance, for the survivors only.
            out.push((i, s.step2(n, i, fb, s.frame_sides(fb, r, odd))));
        }
        dropped
    }
}

impl P3<'_> {
    fn h(&self, n: &N3) -> usize {
        let c = self.s.centres3.dist[2 * n.centres as usize + n.pll as usize] as usize;
        c.max(n.edges as usize)
    }
}

impl Stage for P3<'_> {
    type Node = N3;

    fn prune(&self, n: &N3, left: usize) -> bool {
        self.h(n) > left
    }

    fn goal(&self, n: &N3, _left: usize) -> Option<u8> {
        (self.h(n) == 0).then_some(0)
    }

    /// Children in two passes: the centre bound (a small table) first; the
    /// survivors' entries in the big pairing table are prefetched together
    /// so that their cache misses overlap, then read in move order.
    fn expand(&self, n: &N3, prev: Option<usize>, left: usize, out: &mut Vec<(usize, N3)>) -> u64 {
        let s = self.s;
        let left = left - 1;
        let prev = prev.map(|i| s.p3_moves[i]);
        let mut kids = [(0usize, 0u16, [0u8; 12], 0usize); 17];
        let mut k = 0;
        for &i in &s.p3_active {
            if !allowed(prev, s.p3_moves[i]) {
                continue;
            }
            let centres = s.centres3.moves[n.centres as usize][i];
            let pll = n.pll ^ s.p3_pll[i];
            if s.centres3.dist[2 * centres as usize + pll as usize] as usize > left {
                continue;
            }
            let sigma = s.pair.apply(&n.sigma, i);
            let r = PairAllSpace::rank(&sigma) as usize;
            crate::tables::prefetch(s.pair_tab.bytes(), r / 5);
            kids[k] = (i, centres, sigma, r);
            k += 1;
        }
        for &(i, centres, sigma, r) in &kids[..k] {
            let t = tablefmt::trit(s.pair_tab.bytes(), r);
            out.push((
                i,
                N3 {
                    centres,
                    sigma,
                    pll: n.pll ^ s.p3_pll[i],
                    edges: next_distance(n.edges, t),
                },
            ));
        }
        0
    }
}

impl Solver {
    /// Loads (or builds) every table the reduction uses from `dir`.
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver, TableError> {
        let bad = |id: &str, msg: String| TableError::Build(id.into(), msg);
        let stages = CentreStages::load(dir, quiet)?;
        let moves_of = |id: &str| -> Result<Vec<Move>, TableError> {
            match catalog::find(id).map(|d| d.space) {
                Some(SpaceDef::Reduction4 { moves, .. }) => Ok(moves),
                _ => Err(bad(id, "not a 4x4x4 reduction table".into())),
            }
        };
        let p2_moves = moves_of(REDUCTION_IDS[0])?;
        if moves_of(REDUCTION_IDS[1])? != p2_moves {
            return Err(bad(
                REDUCTION_IDS[1],
                "move set differs from the sides stage".into(),
            ));
        }
        let p3_moves = moves_of(REDUCTION_IDS[2])?;
        // The sides space also has the whole-cube turn `y` (its last move).
        let y = y_turn();
        let sides = SideCentresSpace::new(&[p2_moves.clone(), vec![y]].concat())
            .map_err(|e| bad(REDUCTION_IDS[0], e))?;
        let wings = Wings::new();
        let y_slot = wings.slot_perm(&stages.cube, y);
        let p2_active = without_dlb_wide(&p2_moves);
        let p2_slot: Vec<[u8; 24]> = p2_moves
            .iter()
            .map(|&m| wings.slot_perm(&stages.cube, m))
            .collect();
        let p2_odd = p2_slot.iter().map(|p| odd(p)).collect();
        let pair = PairAllSpace::new(&p3_moves).map_err(|e| bad(REDUCTION_IDS[2], e))?;
        let cs = &stages.stages[2];
        let p3_centre_move = p3_moves
            .iter()
            .map(|m| {
                cs.moves
                    .iter()
                    .position(|x| x == m)
                    .ok_or_else(|| bad(cs.id, format!("{m} is not in its move set")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let cube = &stages.cube;
        let face_colour = [0, 1, 2, 3, 4, 5];
        let p3_pll: Vec<bool> = p3_moves
            .iter()
            .zip(&pair.moves)
            .map(|(&m, (hi, _))| {
                let mut s = cube.solved();
                cube.apply(&mut s, m);
                let (cp, _) = read_corners(cube, &s, &face_colour).expect("corners of a real cube");
                odd(&cp) ^ odd(hi)
            })
            .collect();
        let p3_active = without_dlb_wide(&p3_moves);
        let centres3 = PairCentres::new(&stages, &p3_moves, &p3_centre_move, &p3_pll, &p3_active);
        let sides_tab = Nibbles::load(REDUCTION_IDS[0], dir, quiet)?;
        let ud_turns = (0..8)
            .map(|k| {
                let mut turn = Vec::new();
                if k % 4 > 0 {
                    turn.push(whole_turn(Face::U, k % 4));
                }
                if k >= 4 {
                    turn.push(whole_turn(Face::R, 2));
                }
                let mut p: Vec<u8> = (0..stages.cube.facelets() as u8).collect();
                stages.cube.apply_alg(&mut p, &turn);
                p
            })
            .collect();
        let sides_either = either_frame(&sides, sides_tab.bytes(), p2_moves.len());
        Ok(Solver {
            sides_tab,
            sides_either,
            ud_turns,

            pair_tab: Trits::load_trits(REDUCTION_IDS[2], dir, quiet)?,
            split: SplitSpace::new(3, &p2_moves),
            split_tab: Nibbles::load(REDUCTION_IDS[1], dir, quiet)?,
            solver3: Solver3::load(dir, quiet)?,
            stages,
            wings,
            sides,
            p2_slot,
            p2_odd,
            p2_moves,
            p2_active,
            y_slot,
            pair,
            p3_moves,
            centres3,
            p3_active,
            p3_pll,
        })
    }

    /// Bytes of every table the solver reads.
    pub fn table_bytes(&self) -> u64 {
        let n = |t: &Nibbles| t.bytes().len() as u64;
        n(&self.sides_tab)
            + n(&self.split_tab)
            + n(&self.pair_tab)
            + self.solver3.table_bytes()
            + self.stages.table_bytes()
    }

    /// Phase-1 solutions (U/D centres staged) of the optimal length and up to
    /// `slack` moves longer, at most `cap`, shortest first, as move indices into
    /// the ud-stage move list. Each length is enumerated by a depth-first search
    /// bounded by the (exact) table distance.
    fn phase1_candidates(
        &self,
        state: &[u8],
        slack: usize,
        cap: usize,
    ) -> Result<Vec<Vec<usize>>, String> {
        let st = &self.stages.stages[0];
        let root = st.rank(state)?;
        fn go(
            st: &CentreStage,
            r: u64,
            left: usize,
            path: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
            cap: usize,
        ) {
            if left == 0 {
                if st.table.get(r) == 0 {
                    out.push(path.clone());
                }
                return;
            }
            let prev = path.last().map(|&m| st.moves[m]);
            for m in 0..st.moves.len() {
                if out.len() >= cap {
                    return;
                }
                if !allowed(prev, st.moves[m]) {
                    continue;
                }
                let t = st.space.rank(st.space.apply(st.space.unrank(r), m));
                if (st.table.get(t) as usize) < left {
                    path.push(m);
                    go(st, t, left - 1, path, out, cap);
                    path.pop();
                }
            }
        }
        let opt = st.table.get(root) as usize;
        let mut out = Vec::new();
        for len in opt..=opt + slack {
            go(st, root, len, &mut Vec::new(), &mut out, cap);
        }
        if out.is_empty() {
            return Err("4x4x4-ud-stage: no way down".into());
        }
        Ok(out)
    }

    /// Phase-2 node of a state whose U/D centres are staged.
    fn node2(&self, state: &[u8]) -> Result<N2, String> {
        let piece = self.wings.read(state)?;
        let mut pos = [0u8; 24];
        for (slot, &p) in piece.iter().enumerate() {
            pos[p as usize] = slot as u8;
        }
        let (f, b) = self.sides.project(state);
        Ok(N2 {
            f,
            b,
            pos,
            odd: odd(&piece),
            sides: self.frame_sides((f, b), self.sides.rank(f, b) as usize, odd(&piece)),
        })
    }

    /// Sides-stage-with-parity distances of side centres `(f, b)` of rank `r`
    /// and wing parity `odd`, as they are and turned by `y`.
    #[inline]
    fn frame_sides(&self, (f, b): (u16, u16), r: usize, odd: bool) -> [u8; 2] {
        let tab = self.sides_tab.bytes();
        let (fy, by) = self.sides.apply(f, b, self.p2_moves.len());
        let ry = self.sides.rank(fy, by) as usize;
        [
            nibble(tab, 2 * r + odd as usize) as u8,
            nibble(tab, 2 * ry + odd as usize) as u8,
        ]
    }

    /// The least, in lexicographic order, of a state's facelets turned by each
    /// whole-cube turn that keeps the U-D axis: states turned from one another
    /// by these have the same key. (Phases 2 and 3 are the same problem on
    /// them: their goals and move sets are closed under these turns, `y` and
    /// `y'` by taking both frames in phase 2.)
    fn canonical(&self, s: &[u8]) -> Vec<u8> {
        self.ud_turns
            .iter()
            .map(|p| p.iter().map(|&i| s[i as usize]).collect::<Vec<u8>>())
            .min()
            .unwrap_or_default()
    }

    /// Phase-2 child of `n` by move `i`, whose side centres `(f, b)` and their
    /// distances (as is, turned by `y`) are known.
    #[inline]
    fn step2(&self, n: &N2, i: usize, (f, b): (u16, u16), sides: [u8; 2]) -> N2 {
        let p = &self.p2_slot[i];
        N2 {
            f,
            b,
            pos: n.pos.map(|x| p[x as usize]),
            odd: n.odd ^ self.p2_odd[i],
            sides,
        }
    }

    /// Phases 1 and 2 of a valid state: candidates (moves, phase lengths, state
    /// after them), shortest first; at most `want`.
    fn reduce_candidates(
        &self,
        state: &[u8],
        opts: &Options,
        clock: Clock,
    ) -> Result<Vec<Candidate>, SolveError> {
        let cube = &self.stages.cube;
        let st0 = &self.stages.stages[0];
        // Phase 1 on each axis: the cube is turned so that the axis is U-D, and the
        // moves found are renamed for the cube as given at the end.
        let mut starts = Vec::new();
        let axes = if opts.all_axes { 3 } else { 1 };
        // On each axis, each colour pair is staged in turn: the colours are
        // renamed as a whole-cube turn would (the state stays a real cube, and a
        // move sequence that solves it solves the original in another
        // orientation).
        let recolours = recolourings();
        let mut seen = std::collections::HashSet::new();
        for (axis, rotation) in axis_rotations().into_iter().take(axes).enumerate() {
            let mut turned = state.to_vec();
            cube.apply_alg(&mut turned, &rotation);
            for colour in recolours.iter().take(axes) {
                let turned: Vec<u8> = turned.iter().map(|&c| colour[c as usize]).collect();
                let cap = opts.phase1_candidates.div_ceil(axes * axes);
                for p1 in self.phase1_candidates(&turned, opts.phase1_slack, cap)? {
                    let moves: Vec<Move> = p1.iter().map(|&m| st0.moves[m]).collect();
                    let mut s = turned.clone();
                    cube.apply_alg(&mut s, &moves);
                    // A start that is another one turned (by a whole-cube turn
                    // keeping the U-D axis) gives the same phases 2 and 3.
                    if !seen.insert(self.canonical(&s)) {
                        continue;
                    }
                    let root = self.node2(&s)?;
                    starts.push((moves, s, root, axis));
                }
            }
        }
        let p2 = P2 { s: self };
        // The most promising starts by their bound on phases 1 and 2, first.
        let mut starts: Vec<_> = starts
            .into_iter()
            .map(|st| (st.0.len() + p2.h(&st.2), st))
            .collect();
        starts.sort_by_key(|(lower, st)| (*lower, st.0.len()));
        starts.truncate(opts.phase1_candidates);
        let roots: Vec<Root<N2>> = starts
            .iter()
            .map(|(lower, (m1, _, node, _))| Root {
                node: *node,
                before: m1.len(),
                lower: *lower,
            })
            .collect();
        // Deepen on the length of phases 1 and 2 together, over every start.
        // A length that has not given enough after its budget is left for the
        // next: the wing split with an even flip count can be rare at one
        // length (it correlates with the centres) and common one move later.
        // The budget of a length grows fourfold with each length over the
        // first bound; from six over, lengths run to completion (a goal is
        // always reachable, so this ends).
        let policy = Policy {
            want: opts.phase2_candidates,
            level_nodes: opts.phase2_level_nodes,
            growth: 4,
            unlimited_after: 6,
            share: Share::Equal,
            enough_nodes: opts.phase2_nodes,
            more_nodes: u64::MAX,
            max_nodes: u64::MAX,
            max_total: 60,
        };
        let found = deepen(&p2, &roots, &policy, clock);
        if found.found.is_empty() {
            return Err(if found.expired {
                SolveError::OutOfTime("phase 2".into())
            } else {
                SolveError::Internal("phase 2 found nothing within 60 moves".into())
            });
        }
        let mut out = Vec::new();
        seen.clear();
        for f in found.found {
            let (path, turned) = (f.path, f.tag == 1);
            let (m1, s1, _, axis) = &starts[f.root].1;
            let m2: Vec<Move> = path.iter().map(|&i| self.p2_moves[i]).collect();
            let mut s = s1.clone();
            cube.apply_alg(&mut s, &m2);
            if turned {
                cube.apply(&mut s, y_turn());
            }
            // Ends turned from one another give the same phase 3: one is kept
            // (the first, whose phases 1 and 2 are no longer).
            if !seen.insert(self.canonical(&s)) {
                continue;
            }
            let mut moves = m1.clone();
            moves.extend(&m2);
            out.push(Candidate {
                moves,
                lens: [m1.len(), m2.len()],
                state: s,
                axis: *axis,
                turned,
            });
        }
        Ok(out)
    }

    /// Phases 1 and 2 (U/D centres staged; L/R and F/B centres staged for the
    /// pairing group, each dedge with one wing in each class, even wing
    /// permutation) of a valid state: the moves and the length of each phase.
    /// The moves end with the whole-cube turn `y` when phase 2 reached its goal
    /// with the F/B centres on R/L (the lengths do not count it).
    pub fn reduce_to_pairing(&self, state: &[u8]) -> Result<(Vec<Move>, [usize; 2]), SolveError> {
        self.check(state)?;
        let opts = Options {
            all_axes: false,
            ..Options::default()
        };
        let clock = clock_of(Instant::now(), &opts);
        let mut c = self.reduce_candidates(state, &opts, clock)?;
        let mut c = c.swap_remove(0);
        if c.turned {
            c.moves.push(y_turn());
        }
        Ok((c.moves, c.lens))
    }

    /// Phase-3 root of a state after phase 2: per dedge, its wing in the high class
    /// and its wing in the low class give `sigma`.
    fn node3(&self, s: &[u8]) -> Result<N3, String> {
        let cube = &self.stages.cube;
        let piece = self.wings.read(s)?;
        let mut hi = [u8::MAX; 12];
        let mut lo = [u8::MAX; 12];
        for (slot, &p) in piece.iter().enumerate() {
            let d = p as usize % 12;
            if slot < 12 {
                hi[d] = slot as u8;
            } else {
                lo[d] = slot as u8 - 12;
            }
        }
        if hi.contains(&u8::MAX) || lo.contains(&u8::MAX) {
            return Err("phase 2 left both wings of a dedge in one class".into());
        }
        let (cp, _) = read_corners(cube, s, &[0, 1, 2, 3, 4, 5])?;
        let st2 = &self.stages.stages[2];
        let sigma = PairAllSpace::sigma(&hi, &lo).ok_or("phase 2 left an odd pairing")?;
        let mask = st2.space.project(s, &st2.marked);
        let centres = *self
            .centres3
            .index
            .get(&mask)
            .ok_or("phase 2 left centres the pairing group cannot solve")?;
        Ok(N3 {
            centres,
            sigma,
            pll: odd(&cp) ^ odd(&hi),
            edges: self.pairing_distance(&sigma)?,
        })
    }

    /// Solves a 4x4x4 facelet state (96 facelets, colours as [`CubeN::solved`]).
    /// The cube ends solved with the U colour on U, R on R and so on.
    /// The cube ends solved in the orientation its centres, then its corners,
    /// are closest to (a solved cube held in any orientation gets the empty
    /// solution).
    pub fn solve(&self, state: &[u8], opts: Options) -> Result<Solution4, SolveError> {
        self.check(state)?;
        let cube = &self.stages.cube;
        let rotation = self.frame(state)?;
        let mut turned = state.to_vec();
        cube.apply_alg(&mut turned, &rotation);
        let mut sol = self.solve_in_frame(&turned, opts)?;
        sol.moves = tablegen::cube::unrotate(&sol.moves, &rotation);
        let mut s = state.to_vec();
        cube.apply_alg(&mut s, &sol.moves);
        if !cube.is_solved(&s) {
            return Err(SolveError::Internal(
                "the solution does not solve the cube".into(),
            ));
        }
        Ok(sol)
    }

    /// The whole-cube turn after which most centre facelets show their face's
    /// colour, then most corners are solved (the first of
    /// [`tablegen::cube::rotations24`] on a tie): the orientation the solve
    /// ends in. A 4x4x4 has no fixed centres; without this, a solved cube
    /// held in another orientation got moves (`x` was answered `Rw Lw'`).
    fn frame(&self, state: &[u8]) -> Result<Vec<Move>, SolveError> {
        let cube = &self.stages.cube;
        let centres: Vec<(usize, u8)> = Face::ALL
            .iter()
            .flat_map(|&f| {
                [(1, 1), (1, 2), (2, 1), (2, 2)].map(|(r, c)| (cube.index(f, r, c), f as u8))
            })
            .collect();
        let mut best = ((0, 0), Vec::new());
        for r in tablegen::cube::rotations24() {
            let mut s = state.to_vec();
            cube.apply_alg(&mut s, &r);
            let (cp, co) = read_corners(cube, &s, &[0, 1, 2, 3, 4, 5])?;
            let score = (
                centres.iter().filter(|&&(i, c)| s[i] == c).count(),
                (0..8)
                    .filter(|&i| cp[i] as usize == i && co[i] == 0)
                    .count(),
            );
            if score > best.0 {
                best = (score, r);
            }
        }
        Ok(best.1)
    }

    /// Solves a checked state with the U colour ending on U, R on R and so on.
    fn solve_in_frame(&self, state: &[u8], opts: Options) -> Result<Solution4, SolveError> {
        let start = Instant::now();
        let clock = clock_of(start, &opts);
        let cube = &self.stages.cube;
        let cands = self.reduce_candidates(state, &opts, clock)?;
        // Phase 3 over every candidate at once: total length L = 0, 1, ...; the
        // first candidate whose phase 3 fits in L - (its phases 1 and 2) wins.
        let p3 = P3 { s: self };
        let mut roots = Vec::new();
        for c in &cands {
            let node = self.node3(&c.state)?;
            let before = c.lens[0] + c.lens[1];
            roots.push((
                Root {
                    node,
                    before,
                    lower: before + p3.h(&node),
                },
                c,
            ));
        }
        roots.sort_by_key(|r| r.0.lower);
        // As in phase 2, a length that takes too long is left for the next one,
        // where solutions are denser. Once one solution is found, the search goes
        // on a little for more (each ends in a different 3x3x3).
        // A root that used up a length's budget is passed over at the next
        // lengths until every root in reach has (then all are tried again):
        // else it would be searched again, deeper, at every next length, never
        // letting the others be tried, until the depth-first search ends in a
        // very long path (seen: 58 moves where other roots had 14).
        let policy = Policy {
            want: opts.phase3_solutions,
            level_nodes: opts.phase3_level_nodes,
            growth: 1,
            unlimited_after: u32::MAX,
            share: Share::PassOverSpent,
            enough_nodes: u64::MAX,
            more_nodes: opts.phase3_more_nodes,
            max_nodes: opts.exact_nodes,
            max_total: usize::MAX,
        };
        let stage_roots: Vec<Root<N3>> = roots.iter().map(|r| r.0).collect();
        let found = deepen(&p3, &stage_roots, &policy, clock);
        if found.found.is_empty() {
            return Err(if found.expired {
                SolveError::OutOfTime("phase 3".into())
            } else {
                SolveError::Internal(format!(
                    "phase 3 found nothing within {} nodes",
                    opts.exact_nodes
                ))
            });
        }
        // The 3x3x3 finish of each phase-3 solution; the shortest whole wins.
        // Each finish only has to beat the best so far, in what is left of the
        // time budget shared among the finishes still to run.
        let mut best: Option<Solution4> = None;
        // The reduced cubes, each once: phase-3 solutions of one length from
        // different candidates often end in the same 3x3x3.
        let mut finals: Vec<(&Candidate, Vec<Move>, Vec<Move>, CubieCube)> = Vec::new();
        for f in &found.found {
            let (cand, path3) = (roots[f.root].1, &f.path);
            let mut s = cand.state.clone();
            let m3: Vec<Move> = path3.iter().map(|&i| self.p3_moves[i]).collect();
            cube.apply_alg(&mut s, &m3);
            // The reduced cube as a 3x3x3: corners, one wing per dedge, one centre
            // per face. Phase 3 may leave the cube turned (x2, y2 or z2): the
            // 3x3x3 is solved on the turned-back skeleton and its moves renamed
            // for the cube as it is.
            let s3 = tablegen::validate::skeleton3(cube, &s);
            let (rotation, s3) = tablegen::validate::orient_centres(&CubeN::new(3), &s3)
                .map_err(|e| format!("reduced cube: {e}"))?;
            let cc = CubieCube::from_facelets(&s3).map_err(|e| format!("reduced cube: {e}"))?;
            if !finals.iter().any(|f| f.3 == cc) {
                finals.push((cand, m3, rotation, cc));
            }
        }
        let count = finals.len();
        for (i, (cand, m3, rotation, cc)) in finals.into_iter().enumerate() {
            let before = cand.moves.len() + m3.len();
            let target = match &best {
                Some(b) => b.moves.len().saturating_sub(before + 1),
                None => 21,
            };
            // Past the time budget, the best so far is the answer.
            if best.is_some() && start.elapsed() >= opts.time_budget {
                break;
            }
            // A finish that cannot beat the best so far is not tried.
            if best.is_some() && self.solver3.lower_bound(&cc) > target {
                continue;
            }
            // Each cube gets its share of what is left of the budget (at least
            // `finish_min`) and keeps shortening within it. The first cube
            // starts from its first solution within 21 moves; every later one
            // only looks for finishes that beat the best whole so far.
            let share = opts.time_budget.saturating_sub(start.elapsed()) / (count - i) as u32;
            let end = Instant::now() + share.max(opts.finish_min);
            let mut below = target + 1;
            for take_any in [best.is_none(), false] {
                let rem = end.saturating_duration_since(Instant::now());
                let found = if take_any {
                    self.solver3.solve(
                        &cc,
                        crate::cube3::Options {
                            max_length: 21,
                            time_budget: rem,
                            strict: false,
                        },
                    )
                } else if rem.is_zero() || below <= 1 {
                    break;
                } else {
                    self.solver3.solve_below(&cc, below, rem)
                };
                if found.is_empty() && cc != CubieCube::SOLVED {
                    break;
                }
                below = found.len();
                let m4: Vec<Move> = found.iter().map(|&m| tablegen::cube3::move_of(m)).collect();
                let m4 = tablegen::cube::unrotate(&m4, &rotation);
                let mut after = m3.clone();
                after.extend(&m4);
                // Phases 3 and 4 were found on the cube turned by `y` if phase 2
                // ended in the turned frame.
                if cand.turned {
                    after = tablegen::cube::unrotate(&after, &[y_turn()]);
                }
                let mut all = cand.moves.clone();
                all.extend(&after);
                // The moves were found on the cube turned for the candidate's axis.
                let found_len = all.len();
                let all = simplify(&tablegen::cube::unrotate(
                    &all,
                    &axis_rotations()[cand.axis],
                ));
                if best.as_ref().is_none_or(|b| all.len() < b.moves.len()) {
                    let mut phases = vec![
                        ("centres-ud", cand.lens[0]),
                        ("separate", cand.lens[1]),
                        ("pair", m3.len()),
                        ("3x3x3", m4.len()),
                    ];
                    if found_len > all.len() {
                        phases.push(("merged", found_len - all.len()));
                    }
                    best = Some(Solution4 { moves: all, phases });
                }
                if !take_any {
                    // `solve_below` returns at its deadline or when nothing
                    // shorter exists: there is nothing more to look for.
                    break;
                }
            }
        }
        best.ok_or_else(|| SolveError::Internal("no phase-3 solution".into()))
    }

    /// Refuses a state that is not a real 4x4x4.
    fn check(&self, state: &[u8]) -> Result<(), SolveError> {
        validate(&self.stages.cube, state).map_err(SolveError::Input)?;
        self.wings.read(state).map_err(SolveError::Input)?;
        Ok(())
    }
}

/// The 4x4x4 in the [`crate::puzzle`] registry.
pub struct Cube4Puzzle;

impl crate::puzzle::Puzzle for Cube4Puzzle {
    fn name(&self) -> &'static str {
        "4x4x4"
    }
    fn parse(&self, input: &crate::puzzle::Input) -> Result<crate::puzzle::Position, SolveError> {
        let pos = crate::puzzle::parse_cube(4, input)?;
        // Refuse a bad state before loading (or building) any table.
        let st = crate::puzzle::cube_state(&pos)?;
        validate(&CubeN::new(4), st).map_err(SolveError::Input)?;
        Wings::new().read(st).map_err(SolveError::Input)?;
        Ok(pos)
    }
    fn load(
        &self,
        tables: &Path,
        quiet: bool,
    ) -> Result<Box<dyn crate::puzzle::Solve>, SolveError> {
        Ok(Box::new(Solver::load(tables, quiet)?))
    }
}

impl crate::puzzle::Solve for Solver {
    fn solve(
        &self,
        position: &crate::puzzle::Position,
        opts: &crate::puzzle::Options,
    ) -> Result<crate::Solution, SolveError> {
        let mut o = Options {
            hard_limit: opts.hard_limit,
            ..Options::default()
        };
        if let Some(t) = opts.time_budget {
            o.time_budget = t;
        }
        let sol = Solver::solve(self, crate::puzzle::cube_state(position)?, o)?;
        Ok(crate::Solution {
            moves: sol.moves.iter().map(|m| m.to_string()).collect(),
            phases: sol
                .phases
                .iter()
                .map(|&(k, v)| (k.to_string(), v))
                .collect(),
        })
    }
    fn scramble(&self, seed: u64) -> Result<crate::puzzle::Scramble, SolveError> {
        let state = tablegen::cube4::random_state(rand::Rng::gen(&mut crate::puzzle::rng(seed)));
        let sol = crate::puzzle::Solve::solve(
            self,
            &crate::puzzle::Position {
                state: crate::puzzle::State::Cube(state.clone()),
                setup: None,
            },
            &crate::puzzle::Options::default(),
        )?;
        crate::puzzle::cube_scramble(4, &sol)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::time::Instant;
    use tablegen::notation::MoveKind;

    fn stages() -> CentreStages {
        CentreStages::load(&crate::tables::test_tables_dir(), true).unwrap()
    }

    fn all_centres(cube: &CubeN) -> Vec<usize> {
        Face::ALL
            .iter()
            .flat_map(|&f| centres_of(cube, f))
            .collect()
    }

    /// Solved except for a uniformly random arrangement of the 24 centre facelets
    /// (a real 4x4x4 state: centres of one colour are interchangeable, so the
    /// permutation can always be taken even, as the solved corners require).
    fn random_centres(cube: &CubeN, rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
        let mut s = cube.solved();
        let cells = all_centres(cube);
        let mut colours: Vec<u8> = cells.iter().map(|&i| s[i]).collect();
        colours.shuffle(rng);
        for (&i, &c) in cells.iter().zip(&colours) {
            s[i] = c;
        }
        s
    }

    /// 200-299 random moves: outer block turns, inner slices and whole-cube
    /// rotations (the centres then end up in another orientation).
    fn random_scramble(cube: &CubeN, rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
        let mut s = cube.solved();
        for _ in 0..rng.gen_range(200..300) {
            let face = Face::ALL[rng.gen_range(0..6)];
            let kind = match rng.gen_range(0..10) {
                0..=3 => MoveKind::Block(1),
                4..=7 => MoveKind::Block(2),
                8 => MoveKind::Slice(2),
                _ => MoveKind::Rotation,
            };
            let turns = rng.gen_range(1..4);
            cube.apply(&mut s, Move { face, kind, turns });
        }
        s
    }

    /// Solves `state`, checks every stage (moves in its set, length = table
    /// distance, goal reached on the colours) and returns the stage lengths.
    fn check(st: &CentreStages, state: &[u8]) -> [usize; 3] {
        let cube = &st.cube;
        let sol = st.solve(state).unwrap();
        let mut s = state.to_vec();
        for (k, (stage, moves)) in st.stages.iter().zip(&sol).enumerate() {
            assert_eq!(
                moves.len(),
                stage.distance(&s).unwrap() as usize,
                "stage {k}"
            );
            for m in moves {
                assert!(stage.moves.contains(m), "stage {k}: {m} not in its set");
                let wide_quarter = m.kind == MoveKind::Block(2) && m.turns != 2;
                match k {
                    0 => assert!(matches!(m.kind, MoveKind::Block(1 | 2))),
                    1 => assert!(
                        !wide_quarter || m.face.axis() == 0,
                        "stage 2 uses {m}, which unstages U/D"
                    ),
                    _ => assert!(!wide_quarter, "stage 3 uses {m}"),
                }
            }
            cube.apply_alg(&mut s, moves);
            let on = |faces: &[Face], colours: &[Face]| {
                faces.iter().all(|&f| {
                    centres_of(cube, f)
                        .iter()
                        .all(|&i| colours.iter().any(|&c| c as u8 == s[i]))
                })
            };
            use Face::*;
            assert!(on(&[U, D], &[U, D]), "stage {k}: U/D not staged");
            if k >= 1 {
                assert!(on(&[L, R], &[L, R]), "stage {k}: L/R not staged");
            }
        }
        for f in Face::ALL {
            for i in centres_of(cube, f) {
                assert_eq!(s[i], f as u8, "facelet {i}");
            }
        }
        [sol[0].len(), sol[1].len(), sol[2].len()]
    }

    #[test]
    fn tables_and_move_sets() {
        let st = stages();
        let sizes: Vec<usize> = st.stages.iter().map(|s| s.moves.len()).collect();
        assert_eq!(sizes, [36, 28, 24]);
        let ranks: Vec<u64> = st.stages.iter().map(|s| s.space.size()).collect();
        assert_eq!(ranks, [735_471, 12_870, 343_000]);
        let solved = st.cube.solved();
        assert_eq!(st.solve(&solved).unwrap(), [vec![], vec![], vec![]]);
    }

    #[test]
    fn bad_input_is_an_error() {
        let st = stages();
        let solved = st.cube.solved();
        assert!(st.solve(&solved[..95]).is_err());
        assert!(st.solve(&[0; 97]).is_err());
        let mut s = solved.clone();
        s[5] = 6;
        assert!(st.solve(&s).is_err());
        // Five U centres and three R centres.
        let mut s = solved.clone();
        s[centres_of(&st.cube, Face::R)[0]] = Face::U as u8;
        assert!(st.solve(&s).is_err());
        // Only the centres count: a swapped pair of corner stickers is not looked at.
        let mut s = solved;
        s.swap(0, 3);
        assert!(st.solve(&s).is_ok());
    }

    #[test]
    fn thousands_of_random_states() {
        let st = stages();
        let cube = &st.cube;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let n = 2000;
        let states: Vec<Vec<u8>> = (0..n).map(|_| random_centres(cube, &mut rng)).collect();
        let t = Instant::now();
        for s in &states {
            st.solve(s).unwrap();
        }
        let per_solve = t.elapsed() / n as u32;
        let mut sum = [0usize; 3];
        let mut max = [0usize; 3];
        let mut total_max = 0;
        // Stage 1 if the U/D axis could be any of the three (a rotation x or z
        // first): what a free choice of orientation would save there.
        let mut best_axis = 0;
        for s in &states {
            let lens = check(&st, s);
            for k in 0..3 {
                sum[k] += lens[k];
                max[k] = max[k].max(lens[k]);
            }
            total_max = total_max.max(lens.iter().sum());
            let mut best = st.stages[0].distance(s).unwrap();
            for face in [Face::R, Face::F] {
                let mut r = s.clone();
                cube.apply(&mut r, whole_turn(face, 1));
                best = best.min(st.stages[0].distance(&r).unwrap());
            }
            best_axis += best as usize;
        }
        let avg = |x: usize| x as f64 / n as f64;
        eprintln!(
            "{n} random centre states: stages {:.2} + {:.2} + {:.2} = {:.2} moves on average \
             (max {} {} {}, total max {total_max}); {:?} per solve; \
             stage 1 with the best of 3 axes {:.2}",
            avg(sum[0]),
            avg(sum[1]),
            avg(sum[2]),
            avg(sum.iter().sum()),
            max[0],
            max[1],
            max[2],
            per_solve,
            avg(best_axis),
        );
        // Scrambles by moves (with slices and rotations).
        let m = 300;
        let mut sum = [0usize; 3];
        for _ in 0..m {
            let lens = check(&st, &random_scramble(cube, &mut rng));
            for k in 0..3 {
                sum[k] += lens[k];
            }
        }
        eprintln!(
            "{m} scrambles of 200+ moves: stages {:.2} + {:.2} + {:.2}",
            sum[0] as f64 / m as f64,
            sum[1] as f64 / m as f64,
            sum[2] as f64 / m as f64,
        );
    }

    /// States on which phase 3 once kept deepening one root whose length budget
    /// ran out (a 58-move phase 3 on seed 271, 23 on seed 703): each phase is
    /// now near its usual length.
    #[test]
    fn phase3_does_not_deepen_one_root() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        for seed in [271, 703] {
            let state = tablegen::cube4::random_state(seed);
            let sol = s4.solve(&state, Options::default()).unwrap();
            let pair = sol.phases.iter().find(|p| p.0 == "pair").unwrap().1;
            assert!(pair <= 18, "seed {seed}: pair {pair}");
            assert!(sol.moves.len() <= 52, "seed {seed}: {}", sol.moves.len());
        }
    }

    /// Starts turned from one another by a whole-cube turn keeping the U-D axis
    /// share a key; a turn that moves the U-D axis gives another key.
    #[test]
    fn canonical_keys_of_turned_states() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        let cube = CubeN::new(4);
        let rot = whole_turn;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..20 {
            let s = random_scramble(&cube, &mut rng);
            let key = s4.canonical(&s);
            for turn in [
                vec![rot(Face::U, 1)],
                vec![rot(Face::U, 2)],
                vec![rot(Face::R, 2)],
                vec![rot(Face::F, 2), rot(Face::U, 3)],
            ] {
                let mut t = s.clone();
                cube.apply_alg(&mut t, &turn);
                assert_eq!(s4.canonical(&t), key, "{turn:?}");
            }
            let mut t = s.clone();
            cube.apply(&mut t, rot(Face::R, 1));
            assert_ne!(s4.canonical(&t), key);
        }
    }

    /// The phase-2 centre and parity bound: a breadth-first search over the
    /// sides-stage states and the wing parity with the 23 phase-2 moves, from
    /// the goal in both frames (as is and turned by `y`, even parity), gives
    /// each state's exact distance; the bound read from the tables
    /// (`sides_either`) is never above it, is 0 exactly on the goal, and the
    /// two frames' goals are the 12-arrangement goal and its turn.
    #[test]
    fn phase2_centre_bound_is_admissible() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        let sides = &s4.sides;
        let y = s4.p2_moves.len();
        let sets: Vec<u16> = (0u16..=u16::MAX).filter(|x| x.count_ones() == 4).collect();
        let mut states = vec![(0u16, 0u16); 900_900];
        for &f in &sets {
            for &b in sets.iter().filter(|&&b| b & f == 0) {
                states[sides.rank(f, b) as usize] = (f, b);
            }
        }
        // Entry 2r + o: sides rank r, wing parity o.
        let mut dist = vec![u8::MAX; 2 * states.len()];
        let mut frontier = Vec::new();
        for g in tablegen::bfs::Space::goals(sides) {
            let (f, b) = states[g as usize];
            let (fy, by) = sides.apply(f, b, y);
            for r in [g, sides.rank(fy, by)] {
                if dist[2 * r as usize] == u8::MAX {
                    dist[2 * r as usize] = 0;
                    frontier.push(2 * r as usize);
                }
            }
        }
        assert_eq!(frontier.len(), 24, "12 arrangements in each frame");
        let mut d = 0;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &e in &frontier {
                let (f, b) = states[e / 2];
                for &i in &s4.p2_active {
                    let (g, c) = sides.apply(f, b, i);
                    let t = 2 * sides.rank(g, c) as usize + (e & 1 ^ s4.p2_odd[i] as usize);
                    if dist[t] == u8::MAX {
                        dist[t] = d + 1;
                        next.push(t);
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        let mut exact = 0;
        for (r, &d) in dist.iter().enumerate() {
            assert!(d != u8::MAX, "entry {r} unreached");
            let bound = nibble(&s4.sides_either, r) as u8;
            assert!(bound <= d, "rank {r}: bound {bound} over distance {d}");
            assert_eq!(bound == 0, d == 0);
            exact += (bound == d) as usize;
        }
        // Most states' bound is exact (it is a least over two frames of a
        // 28-move distance, where the search has 23 moves).
        assert!(exact * 2 > dist.len(), "{exact} exact bounds");
    }

    /// The pairing group's facts the reduction relies on, by search over the
    /// group from solved: the centres reach 58,800 of the 343,000 staged states
    /// (70 x 70 x 12: any U/D and L/R arrangement, 12 F/B ones, which are the
    /// goals of `4x4x4-sides-stage`); the PLL parity bit and the parity of the
    /// high wings are independent of the centres (x 2 x 2); high and low wing
    /// parities stay equal. The phase-3 centre table covers exactly that orbit.
    #[test]
    fn pairing_group_orbit() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        let cube = CubeN::new(4);
        let st2 = &s4.stages.stages[2];
        let solved = cube.solved();
        let group = tablegen::cube4::pairing_moves();
        assert_eq!(group, s4.p3_moves);
        let centre_move: Vec<usize> = group
            .iter()
            .map(|m| st2.moves.iter().position(|x| x == m).unwrap())
            .collect();
        let start = (
            s4.sides.project(&solved),
            st2.space.project(&solved, &st2.marked),
            false,
            false,
            false,
        );
        let sides = SideCentresSpace::new(&group).unwrap();
        let mut seen = std::collections::HashSet::from([start]);
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            for (i, &cm) in centre_move.iter().enumerate() {
                let (hi, lo) = &s4.pair.moves[i];
                let y = (
                    sides.apply(x.0 .0, x.0 .1, i),
                    st2.space.apply(x.1, cm),
                    x.2 ^ odd(hi),
                    x.3 ^ odd(lo),
                    x.4 ^ s4.p3_pll[i],
                );
                if seen.insert(y) {
                    stack.push(y);
                }
            }
        }
        type Node = ((u16, u16), u64, bool, bool, bool);
        let count = |f: &dyn Fn(&Node) -> u128| {
            seen.iter()
                .map(f)
                .collect::<std::collections::HashSet<_>>()
                .len()
        };
        assert_eq!(seen.len(), 58_800 * 2 * 2);
        assert_eq!(count(&|x| x.1 as u128), 58_800);
        assert_eq!(count(&|x| ((x.0 .0 as u128) << 16) | x.0 .1 as u128), 12);
        assert_eq!(count(&|x| (x.2 as u128) << 1 | x.3 as u128), 2);
        assert!(seen.iter().all(|x| x.2 == x.3));
        // The phase-3 centre index is that orbit, and its move table agrees with
        // the facelet-mask moves.
        let c3 = &s4.centres3;
        assert_eq!(c3.index.len(), 58_800);
        for (&mask, &k) in c3.index.iter().take(2000) {
            for (i, &cm) in centre_move.iter().enumerate() {
                let y = st2.space.apply(mask, cm);
                assert_eq!(c3.index[&y], c3.moves[k as usize][i]);
            }
        }
        // Distances: every (arrangement, PLL bit) is reached; solved is 0.
        assert!(c3.dist.iter().all(|&d| d != u8::MAX));
        assert_eq!(c3.dist[0], 0);
    }

    /// The states a person holds after reducing a 4x4x4 by hand: a reduced
    /// cube with OLL parity (one dedge flipped), PLL parity (two dedges
    /// swapped) or both, each followed by outer turns; and cubes with solved
    /// centres and scrambled edges. Each is solved within the hard limit (a
    /// reduced cube with OLL parity used to run for minutes in phase 2).
    #[test]
    fn parity_states_are_solved() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        let cube = CubeN::new(4);
        let parse = |t: &str| tablegen::notation::parse_alg(t).unwrap();
        let oll = "Rw U2 x Rw U2 Rw U2 Rw' U2 Lw U2 Rw' U2 Rw U2 Rw' U2 Rw' x'";
        let pll = "Rw2 U2 Rw2 Uw2 Rw2 Uw2";
        let bases = [
            oll.to_string(),
            pll.to_string(),
            format!("{oll} {pll}"),
            format!("y {pll} z {oll}"),
        ];
        let outer: Vec<Move> = CubeN::block_turns(1);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let opts = Options {
            hard_limit: Duration::from_secs(20),
            ..Options::default()
        };
        let mut cases = Vec::new();
        for base in &bases {
            for len in [0, 1, 2, 5, 25] {
                let mut s = cube.solved();
                cube.apply_alg(&mut s, &parse(base));
                for _ in 0..len {
                    cube.apply(&mut s, outer[rng.gen_range(0..outer.len())]);
                }
                cases.push(s);
            }
        }
        // Centres solved, edges and corners scrambled: a random state with
        // its centre facelets set as solved (centres of one colour are
        // interchangeable, so the centre permutation's parity is free and the
        // state is a real cube).
        let solved = cube.solved();
        for seed in 0..8 {
            let mut s = tablegen::cube4::random_state(seed);
            for f in Face::ALL {
                for (r, c) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
                    s[cube.index(f, r, c)] = solved[cube.index(f, r, c)];
                }
            }
            validate(&cube, &s).unwrap();
            cases.push(s);
        }
        for (i, s) in cases.iter().enumerate() {
            let sol = s4
                .solve(s, opts)
                .unwrap_or_else(|e| panic!("case {i}: {e}"));
            let mut t = s.clone();
            cube.apply_alg(&mut t, &sol.moves);
            assert!(cube.is_solved(&t), "case {i}");
        }
    }

    /// A solved cube held in any of the 24 orientations gets the empty
    /// solution; one turned and then given two turns gets two.
    #[test]
    fn turned_cubes_keep_their_orientation() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        let cube = CubeN::new(4);
        for r in tablegen::cube::rotations24() {
            let mut s = cube.solved();
            cube.apply_alg(&mut s, &r);
            let sol = s4.solve(&s, Options::default()).unwrap();
            assert!(sol.moves.is_empty(), "{r:?}: {:?}", sol.moves);
            cube.apply_alg(&mut s, &tablegen::notation::parse_alg("R U").unwrap());
            let sol = s4.solve(&s, Options::default()).unwrap();
            assert_eq!(sol.moves.len(), 2, "{r:?}: {:?}", sol.moves);
        }
    }

    /// With no time at all, a solve that needs a search says so (an error
    /// that names the hard limit), instead of searching on.
    #[test]
    fn hard_limit_ends_the_solve() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        let s = tablegen::cube4::random_state(3);
        let opts = Options {
            time_budget: Duration::ZERO,
            hard_limit: Duration::ZERO,
            ..Options::default()
        };
        match s4.solve(&s, opts) {
            Err(SolveError::OutOfTime(_)) => {}
            other => panic!("expected OutOfTime, got {:?}", other.map(|s| s.moves)),
        }
        // With no budget but time to find one, the solve returns a solution.
        let opts = Options {
            time_budget: Duration::ZERO,
            ..Options::default()
        };
        let sol = s4.solve(&s, opts).unwrap();
        let cube = CubeN::new(4);
        let mut t = s.clone();
        cube.apply_alg(&mut t, &sol.moves);
        assert!(cube.is_solved(&t));
    }

    /// States a few pairing-group moves from solved: the reduction solves them
    /// and the result is checked on the facelets.
    #[test]
    fn near_reduced_states_are_solved() {
        let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
        let cube = CubeN::new(4);
        let g = tablegen::cube4::pairing_moves();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for k in 0..200 {
            let mut s = cube.solved();
            let len = 1 + k % 8;
            for _ in 0..len {
                cube.apply(&mut s, g[rng.gen_range(0..g.len())]);
            }
            let sol = s4.solve(&s, Options::default()).unwrap();
            let mut t = s.clone();
            cube.apply_alg(&mut t, &sol.moves);
            assert!(cube.is_solved(&t));
            // The reduction is no longer than the scramble (the empty phases 1
            // and 2 are a candidate, and phase 3 deepens on the total length).
            let reduce: usize = sol.phases[..3].iter().map(|p| p.1).sum();
            assert!(
                reduce <= len,
                "{reduce} moves to reduce a {len}-move scramble"
            );
            let merged = sol
                .phases
                .iter()
                .find(|p| p.0 == "merged")
                .map_or(0, |p| p.1);
            assert_eq!(
                sol.phases.iter().map(|p| p.1).sum::<usize>(),
                sol.moves.len() + 2 * merged
            );
        }
        // Phases 1 and 2 on random scrambles: staged and separated afterwards.
        let mut lens = [0usize; 2];
        let t = Instant::now();
        for _ in 0..20 {
            let mut s = cube.solved();
            for _ in 0..100 {
                cube.apply(&mut s, CubeN::block_turns(2)[rng.gen_range(0..36)]);
            }
            let (moves, n) = s4.reduce_to_pairing(&s).unwrap();
            lens[0] += n[0];
            lens[1] += n[1];
            cube.apply_alg(&mut s, &moves);
            let piece = s4.wings.read(&s).unwrap();
            // Each dedge has one wing in each class, and an even number of them
            // has the high piece in the low class.
            let mut pos = [0usize; 24];
            for (slot, &p) in piece.iter().enumerate() {
                pos[p as usize] = slot;
            }
            assert!(
                (0..12).all(|d| (pos[d] < 12) != (pos[d + 12] < 12)),
                "split"
            );
            assert_eq!((0..12).filter(|&d| pos[d] >= 12).count() % 2, 0);
            assert!(!odd(&piece), "even wing permutation");
            let (f, b) = s4.sides.project(&s);
            let goals: Vec<u64> = tablegen::bfs::Space::goals(&s4.sides);
            assert!(goals.contains(&s4.sides.rank(f, b)));
        }
        eprintln!(
            "phases 1-2 on 20 scrambles: {:.2} + {:.2} moves, {:?} each",
            lens[0] as f64 / 20.0,
            lens[1] as f64 / 20.0,
            t.elapsed() / 20
        );
    }
}
