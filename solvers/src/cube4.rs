//! 4x4x4: the centres in three staged table walks ([`CentreStages`]), and the
//! reduction solver under construction ([`Solver4`]).
//!
//! [`CentreStages`]:
//!
//! | stage | table | moves | goal |
//! |---|---|---|---|
//! | 1 | `4x4x4-ud-stage` | the 36 outer block turns | every U/D-coloured centre on the U or D face |
//! | 2 | `4x4x4-lr-stage` | 28: no `Rw Lw Fw Bw` quarter turns | also every L/R-coloured centre on L or R |
//! | 3 | `4x4x4-centers-solve` | 24: wide turns only as half turns | every centre on its face |
//!
//! [`Solver4`] is a three-phase reduction (U/D centres; L/R and F/B centres with
//! the wings separated into high/low slots; centres and pairing in the group
//! `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>`), then the 3x3x3
//! two-phase solver. Phases 1 and 2 work on any state; phase 3 does not yet have
//! a strong enough bound for random states (it solves states near the pairing
//! group's goal), so it is not wired into `cubesolve`.
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

use crate::cube3::Solver3;
use crate::tables::{load_or_build, nibble, DistanceTable, Nibbles, TableError};
use crate::walk_downhill;
use std::path::Path;
use std::time::{Duration, Instant};
use tablegen::bfs::Space;
use tablegen::catalog::{self, SpaceDef};
use tablegen::corners::read_corners;
use tablegen::cube::CubeN;
use tablegen::cube3::CubieCube;
use tablegen::cube4::{odd, PairingSpace, SeparationSpace, SideCentresSpace, Wings};
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace, Orbit};
use tablegen::validate::validate;

/// The three tables, in stage order.
pub const STAGE_IDS: [&str; 3] = ["4x4x4-ud-stage", "4x4x4-lr-stage", "4x4x4-centers-solve"];

/// One stage: a catalog projection, its moves and its distance table.
struct Stage {
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
    stages: [Stage; 3],
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

impl Stage {
    fn load(id: &'static str, cube: &CubeN, dir: &Path, quiet: bool) -> Result<Stage, TableError> {
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
        let len = match &table {
            DistanceTable::Mapped(t) => t.dense().map(|d| d.len()),
            DistanceTable::Owned(v) => Some(v.len() as u64),
        };
        if len != Some(space.size()) {
            return Err(bad(format!(
                "table has {len:?} ranks, the projection {}",
                space.size()
            )));
        }
        Ok(Stage {
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
        self.stages
            .iter()
            .map(|s| match &s.table {
                DistanceTable::Mapped(t) => t.payload().len() as u64,
                DistanceTable::Owned(v) => v.len() as u64,
            })
            .sum()
    }

    /// Loads (or builds, showing progress unless `quiet`) the three tables from
    /// `dir` and builds their projections from the catalog definitions.
    pub fn load(dir: &Path, quiet: bool) -> Result<CentreStages, TableError> {
        let cube = CubeN::new(4);
        let stages = [
            Stage::load(STAGE_IDS[0], &cube, dir, quiet)?,
            Stage::load(STAGE_IDS[1], &cube, dir, quiet)?,
            Stage::load(STAGE_IDS[2], &cube, dir, quiet)?,
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
    "4x4x4-sides-stage",
    "4x4x4-wings-separate",
    "4x4x4-wings-pair4",
];

/// Options of a 4x4x4 solve.
#[derive(Clone, Copy, Debug)]
pub struct Options4 {
    /// Time for the whole solve; the 3x3x3 stage gets what is left (at least 10 ms).
    pub time_budget: Duration,
    /// States kept per layer in the beam searches of phases 2 and 3.
    pub beam_width: usize,
    /// Node budget of each finishing IDA* of phase 3.
    pub finish_nodes: u64,
    /// Node budget of the exact (IDA*) phase 3 tried before the beam search.
    pub exact_nodes: u64,
}

impl Default for Options4 {
    fn default() -> Self {
        Options4 {
            beam_width: 2000,
            finish_nodes: 20_000,
            exact_nodes: 2_000_000,
            time_budget: Duration::from_millis(300),
        }
    }
}

/// A 4x4x4 solution: outer block turns, with the moves of each phase.
#[derive(Clone, Debug)]
pub struct Solution4 {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// `(phase, moves)` in solution order.
    pub phases: Vec<(&'static str, usize)>,
}

/// The 4x4x4 reduction solver.
///
/// | phase | goal | moves | bound |
/// |---|---|---|---|
/// | `centres-ud` | U/D centres on U or D | 36 | `4x4x4-ud-stage` (walk) |
/// | `separate` | L/R, F/B centres staged so the pairing group can solve them; high wings in high slots; even wing permutation | 28 (no `Rw Lw Fw Bw` quarters) | max of `4x4x4-sides-stage`, `4x4x4-wings-separate` |
/// | `pair` | centres solved, edges paired, no PLL parity | 20: `U D R L`, `F2 B2`, wide half turns | max of `4x4x4-centers-solve` and `4x4x4-wings-pair4` on three groups of four dedges |
/// | `3x3x3` | solved | 18 outer face turns | the two-phase solver |
pub struct Solver4 {
    stages: CentreStages,
    wings: Wings,
    sides: SideCentresSpace,
    sides_tab: Nibbles,
    sep: SeparationSpace,
    sep_tab: Nibbles,
    /// Phase-2 moves (the lr-stage set) and per move its axis key.
    p2_moves: Vec<Move>,
    pair: PairingSpace,
    pair_tab: Nibbles,
    /// Phase-3 moves.
    p3_moves: Vec<Move>,
    /// Per phase-3 move: index in the centers-solve move list.
    p3_centre_move: Vec<usize>,
    /// Per phase-3 move: toggles the PLL parity (corner parity + high wing parity).
    p3_pll: Vec<bool>,
    solver3: Solver3,
}

/// Order key of a move within its axis: moves on one axis commute, so a search
/// only takes them in increasing key order.
fn axis_key(m: Move) -> (usize, usize) {
    let layer = match m.kind {
        tablegen::notation::MoveKind::Block(d) => d as usize,
        _ => 0,
    };
    (m.face.axis(), m.face as usize * 4 + layer)
}

fn allowed(prev: Option<Move>, m: Move) -> bool {
    match prev {
        None => true,
        Some(p) => {
            let (a, k) = axis_key(p);
            let (b, l) = axis_key(m);
            a != b || l > k
        }
    }
}

/// Candidates of each beam layer handed to the finishing search.
const FINISH_TRIES: usize = 4;

/// Beam search: from `root`, keeps the `width` best children of each layer
/// (lowest `score(n).0`, states seen before dropped) until a child is a goal
/// (`score(n).1`); the best `FINISH_TRIES` of each layer are also handed to
/// `finish` (a bounded exact search). Returns the move indices to the first goal
/// found, or None after `max_depth` layers.
fn beam<N: Copy + Eq + std::hash::Hash>(
    root: N,
    moves: &[Move],
    width: usize,
    max_depth: usize,
    step: impl Fn(&N, usize) -> N,
    score: impl Fn(&N) -> (u32, bool),
    finish: impl Fn(&N, Option<Move>) -> Option<Vec<usize>>,
) -> Option<Vec<usize>> {
    if score(&root).1 {
        return Some(Vec::new());
    }
    // (node, parent index in the arena, move index, last move)
    let mut arena: Vec<(N, u32, u8)> = vec![(root, u32::MAX, u8::MAX)];
    let mut layer: Vec<u32> = vec![0];
    let path = |arena: &Vec<(N, u32, u8)>, mut i: u32| {
        let mut p = Vec::new();
        while arena[i as usize].1 != u32::MAX {
            p.push(arena[i as usize].2 as usize);
            i = arena[i as usize].1;
        }
        p.reverse();
        p
    };
    let mut seen = std::collections::HashSet::new();
    seen.insert(root);
    for _ in 0..max_depth {
        let mut cand: Vec<(u32, N, u32, u8)> = Vec::new();
        for &pi in &layer {
            let (node, _, last) = arena[pi as usize];
            let prev = (last != u8::MAX).then(|| moves[last as usize]);
            for (i, &m) in moves.iter().enumerate() {
                if !allowed(prev, m) {
                    continue;
                }
                let child = step(&node, i);
                if !seen.insert(child) {
                    continue;
                }
                let (sc, goal) = score(&child);
                if goal {
                    arena.push((child, pi, i as u8));
                    return Some(path(&arena, arena.len() as u32 - 1));
                }
                cand.push((sc, child, pi, i as u8));
            }
        }
        if cand.is_empty() {
            return None;
        }
        if cand.len() > width {
            cand.select_nth_unstable_by_key(width, |c| c.0);
            cand.truncate(width);
        }
        cand.sort_by_key(|c| c.0);
        for c in cand.iter().take(FINISH_TRIES) {
            if let Some(rest) = finish(&c.1, Some(moves[c.3 as usize])) {
                arena.push((c.1, c.2, c.3));
                let mut p = path(&arena, arena.len() as u32 - 1);
                p.extend(rest);
                return Some(p);
            }
        }
        layer.clear();
        for (_, n, pi, m) in cand {
            layer.push(arena.len() as u32);
            arena.push((n, pi, m));
        }
    }
    None
}

/// Phase-3 node: centres mask, high slot of each dedge's high piece, low slot of
/// its low piece, PLL parity.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct N3 {
    centres: u64,
    hi: [u8; 12],
    lo: [u8; 12],
    pll: bool,
}

struct P3<'a> {
    s: &'a Solver4,
    path: Vec<usize>,
    nodes: u64,
    limit: u64,
}

const GROUPS: [[usize; 4]; 3] = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]];

impl P3<'_> {
    fn h(&self, n: &N3) -> usize {
        let st = &self.s.stages.stages[2];
        let c = st.table.get(st.space.rank(n.centres)) as usize;
        let mut h = c;
        let bytes = self.s.pair_tab.bytes();
        for g in GROUPS {
            let mut pairs = g.map(|d| (n.hi[d], n.lo[d]));
            h = h.max(nibble(bytes, self.s.pair.rank(&mut pairs) as usize));
        }
        h
    }

    fn dfs(&mut self, n: &N3, g: usize, bound: usize, prev: Option<Move>) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return false;
        }
        let h = self.h(n);
        if h == 0 && !n.pll {
            return true;
        }
        // With PLL parity left, at least one more move is needed.
        if g + h.max(n.pll as usize) > bound {
            return false;
        }
        let st = &self.s.stages.stages[2];
        for (i, &m) in self.s.p3_moves.iter().enumerate() {
            if !allowed(prev, m) {
                continue;
            }
            let (hi_p, lo_p) = &self.s.pair.moves[i];
            let next = N3 {
                centres: st.space.apply(n.centres, self.s.p3_centre_move[i]),
                hi: n.hi.map(|x| hi_p[x as usize]),
                lo: n.lo.map(|x| lo_p[x as usize]),
                pll: n.pll ^ self.s.p3_pll[i],
            };
            self.path.push(i);
            if self.dfs(&next, g + 1, bound, Some(m)) {
                return true;
            }
            self.path.pop();
        }
        false
    }
}

impl Solver4 {
    /// Loads (or builds) every table the reduction uses from `dir`.
    pub fn load(dir: &Path, quiet: bool) -> Result<Solver4, TableError> {
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
        let sides = SideCentresSpace::new(&p2_moves).map_err(|e| bad(REDUCTION_IDS[0], e))?;
        let sep = SeparationSpace::new(&p2_moves);
        let pair = PairingSpace::new(4, &p3_moves).map_err(|e| bad(REDUCTION_IDS[2], e))?;
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
        let p3_pll = p3_moves
            .iter()
            .zip(&pair.moves)
            .map(|(&m, (hi, _))| {
                let mut s = cube.solved();
                cube.apply(&mut s, m);
                let (cp, _) = read_corners(cube, &s, &face_colour).expect("corners of a real cube");
                odd(&cp) ^ odd(hi)
            })
            .collect();
        Ok(Solver4 {
            sides_tab: Nibbles::load(REDUCTION_IDS[0], dir, quiet)?,
            sep_tab: Nibbles::load(REDUCTION_IDS[1], dir, quiet)?,
            pair_tab: Nibbles::load(REDUCTION_IDS[2], dir, quiet)?,
            solver3: Solver3::load(dir, quiet)?,
            stages,
            wings: Wings::new(),
            sides,
            sep,
            p2_moves,
            pair,
            p3_moves,
            p3_centre_move,
            p3_pll,
        })
    }

    /// Bytes of every table the solver reads.
    pub fn table_bytes(&self) -> u64 {
        let n = |t: &Nibbles| t.bytes().len() as u64;
        n(&self.sides_tab)
            + n(&self.sep_tab)
            + n(&self.pair_tab)
            + self.solver3.table_bytes()
            + self.stages.table_bytes()
    }

    /// Phases 1 and 2 (U/D centres staged; L/R and F/B centres staged for the
    /// pairing group, wings separated, even wing permutation) of a valid state:
    /// the moves and the length of each phase.
    pub fn reduce_to_pairing(&self, state: &[u8]) -> Result<(Vec<Move>, [usize; 2]), String> {
        validate(&self.stages.cube, state)?;
        self.wings.read(state)?;
        self.reduce_to_pairing_with(state, Options4::default().beam_width)
    }

    fn reduce_to_pairing_with(
        &self,
        state: &[u8],
        width: usize,
    ) -> Result<(Vec<Move>, [usize; 2]), String> {
        let cube = &self.stages.cube;
        let mut s = state.to_vec();
        let mut all = Vec::new();
        // Phase 1: U/D centres staged (table walk).
        let st0 = &self.stages.stages[0];
        let p1: Vec<Move> = st0.walk(&s)?.into_iter().map(|m| st0.moves[m]).collect();
        cube.apply_alg(&mut s, &p1);
        let n1 = p1.len();
        all.extend(p1);
        // Phase 2: the sides stage and the wing separation.
        let piece = self.wings.read(&s)?;
        let (sep, par) = SeparationSpace::project(&piece);
        let (f, b) = self.sides.project(&s);
        let root = (sep, par, f, b);
        let sep_t = self.sep_tab.bytes();
        let sides_t = self.sides_tab.bytes();
        let path2 = beam(
            root,
            &self.p2_moves,
            width,
            40,
            |st, i| {
                let (sep, odd) = self.sep.apply(st.0, st.1, i);
                let (f, b) = self.sides.apply(st.2, st.3, i);
                (sep, odd, f, b)
            },
            |st| {
                let a = nibble(sep_t, self.sep.rank(st.0, st.1) as usize) as u32;
                let b = nibble(sides_t, self.sides.rank(st.2, st.3) as usize) as u32;
                (a + b + a.max(b), a + b == 0)
            },
            |_, _| None,
        )
        .ok_or("phase 2 found nothing within 40 moves")?;
        let m2: Vec<Move> = path2.iter().map(|&i| self.p2_moves[i]).collect();
        let n2 = m2.len();
        all.extend(m2);
        Ok((all, [n1, n2]))
    }

    /// Solves a 4x4x4 facelet state (96 facelets, colours as [`CubeN::solved`]).
    /// The cube ends solved with the U colour on U, R on R and so on.
    pub fn solve(&self, state: &[u8], opts: Options4) -> Result<Solution4, String> {
        let start = Instant::now();
        let cube = &self.stages.cube;
        validate(cube, state)?;
        let mut s = state.to_vec();
        self.wings.read(&s)?;
        let (mut all, [n1, n2]) = self.reduce_to_pairing_with(&s, opts.beam_width)?;
        cube.apply_alg(&mut s, &all);
        let mut phases = vec![("centres-ud", n1), ("separate", n2)];
        let width = opts.beam_width;
        // Phase 3: centres solved, edges paired, no PLL parity.
        let piece = self.wings.read(&s)?;
        let mut hi = [0u8; 12];
        let mut lo = [0u8; 12];
        for (slot, &p) in piece.iter().enumerate() {
            let p = p as usize;
            match (p < 12, slot < 12) {
                (true, true) => hi[p] = slot as u8,
                (false, false) => lo[p - 12] = slot as u8 - 12,
                _ => return Err("phase 2 left a wing out of its class".into()),
            }
        }
        let (cp, _) = read_corners(cube, &s, &[0, 1, 2, 3, 4, 5])?;
        let st2 = &self.stages.stages[2];
        let root = N3 {
            centres: st2.space.project(&s, &st2.marked),
            hi,
            lo,
            pll: odd(&cp) ^ odd(&hi),
        };
        let pair_t = self.pair_tab.bytes();
        let exact = {
            let mut p3 = P3 {
                s: self,
                path: Vec::new(),
                nodes: 0,
                limit: opts.exact_nodes,
            };
            let mut bound = p3.h(&root).max(root.pll as usize);
            loop {
                if p3.dfs(&root, 0, bound, None) {
                    break Some(p3.path);
                }
                if p3.nodes > p3.limit {
                    break None;
                }
                bound += 1;
            }
        };
        let path3 = match exact {
            Some(p) => Some(p),
            None => beam(
                root,
                &self.p3_moves,
                width,
                60,
                |n, i| {
                    let (hi_p, lo_p) = &self.pair.moves[i];
                    N3 {
                        centres: st2.space.apply(n.centres, self.p3_centre_move[i]),
                        hi: n.hi.map(|x| hi_p[x as usize]),
                        lo: n.lo.map(|x| lo_p[x as usize]),
                        pll: n.pll ^ self.p3_pll[i],
                    }
                },
                |n| {
                    let c = st2.table.get(st2.space.rank(n.centres)) as u32;
                    let mut sum = c;
                    let mut max = c;
                    for g in GROUPS {
                        let mut pairs = g.map(|d| (n.hi[d], n.lo[d]));
                        let d = nibble(pair_t, self.pair.rank(&mut pairs) as usize) as u32;
                        sum += d;
                        max = max.max(d);
                    }
                    (sum + max + n.pll as u32, sum == 0 && !n.pll)
                },
                |n, prev| {
                    let mut p3 = P3 {
                        s: self,
                        path: Vec::new(),
                        nodes: 0,
                        limit: opts.finish_nodes,
                    };
                    let mut bound = p3.h(n);
                    while p3.nodes < p3.limit {
                        if p3.dfs(n, 0, bound, prev) {
                            return Some(p3.path);
                        }
                        bound += 1;
                    }
                    None
                },
            ),
        }
        .ok_or("phase 3 found nothing within 60 moves")?;
        let m3: Vec<Move> = path3.iter().map(|&i| self.p3_moves[i]).collect();
        cube.apply_alg(&mut s, &m3);
        phases.push(("pair", m3.len()));
        all.extend(m3);
        // The reduced cube as a 3x3x3: corners, one wing per dedge, one centre per face.
        let s3 = tablegen::validate::skeleton3(cube, &s);
        let cc = CubieCube::from_facelets(&s3).map_err(|e| format!("reduced cube: {e}"))?;
        let left = opts
            .time_budget
            .saturating_sub(start.elapsed())
            .max(Duration::from_millis(10));
        let found = self.solver3.solve(
            &cc,
            crate::cube3::Options {
                max_length: 21,
                time_budget: left,
            },
        );
        let m4: Vec<Move> = found.iter().map(|&m| tablegen::cube3::move_of(m)).collect();
        cube.apply_alg(&mut s, &m4);
        phases.push(("3x3x3", m4.len()));
        all.extend(m4);
        if !cube.is_solved(&s) {
            return Err("internal error: the solution does not solve the cube".into());
        }
        Ok(Solution4 { moves: all, phases })
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
        CentreStages::load(&tablegen::artifact::tables_dir(None), true).unwrap()
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
                let rot = Move {
                    face,
                    kind: MoveKind::Rotation,
                    turns: 1,
                };
                cube.apply(&mut r, rot);
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

    /// The pairing group's facts the reduction relies on, by search over the
    /// group from solved: the centres reach 58,800 of the 343,000 staged states
    /// (70 x 70 x 12: any U/D and L/R arrangement, 12 F/B ones, which are the
    /// goals of `4x4x4-sides-stage`); the PLL parity bit and the parity of the
    /// high wings are independent of the centres (x 2 x 2); high and low wing
    /// parities stay equal.
    #[test]
    fn pairing_group_orbit() {
        let s4 = Solver4::load(&tablegen::artifact::tables_dir(None), true).unwrap();
        let cube = CubeN::new(4);
        let st2 = &s4.stages.stages[2];
        let solved = cube.solved();
        let start = (
            s4.sides.project(&solved),
            st2.space.project(&solved, &st2.marked),
            false,
            false,
            false,
        );
        let group = tablegen::cube4::pairing_moves();
        assert_eq!(group, s4.p3_moves);
        let sides = SideCentresSpace::new(&group).unwrap();
        let mut seen = std::collections::HashSet::from([start]);
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            for i in 0..group.len() {
                let (hi, lo) = &s4.pair.moves[i];
                let y = (
                    sides.apply(x.0 .0, x.0 .1, i),
                    st2.space.apply(x.1, s4.p3_centre_move[i]),
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
    }

    /// States a few pairing-group moves from solved: the reduction (phases 2-4)
    /// solves them and the result is checked on the facelets. Random states are
    /// not yet in reach of phase 3 (see the issue notes).
    #[test]
    fn near_reduced_states_are_solved() {
        let s4 = Solver4::load(&tablegen::artifact::tables_dir(None), true).unwrap();
        let cube = CubeN::new(4);
        let g = tablegen::cube4::pairing_moves();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for k in 0..200 {
            let mut s = cube.solved();
            let len = 1 + k % 8;
            for _ in 0..len {
                cube.apply(&mut s, g[rng.gen_range(0..g.len())]);
            }
            let sol = s4.solve(&s, Options4::default()).unwrap();
            let mut t = s.clone();
            cube.apply_alg(&mut t, &sol.moves);
            assert!(cube.is_solved(&t));
            assert_eq!(sol.phases[0].1 + sol.phases[1].1, 0, "already staged");
            assert_eq!(
                sol.phases.iter().map(|p| p.1).sum::<usize>(),
                sol.moves.len()
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
            assert!(
                (0..24).all(|i| (piece[i] < 12) == (i < 12)),
                "wings separated"
            );
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
