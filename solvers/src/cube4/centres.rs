//! The 4x4x4 centres in three staged table walks ([`CentreStages`]).
//!
//! | stage | table | moves | goal |
//! |---|---|---|---|
//! | 1 | `4x4x4-ud-stage` | the 36 outer block turns | every U/D-coloured centre on the U or D face |
//! | 2 | `4x4x4-lr-stage` | 28: no `Rw Lw Fw Bw` quarter turns | also every L/R-coloured centre on L or R |
//! | 3 | `4x4x4-centers-solve` | 24: wide turns only as half turns | every centre on its face |
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

use crate::tables::{load_or_build, DistanceTable, TableError};
use crate::{walk_downhill, SolveError};
use std::path::Path;
use tablegen::bfs::Space;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube::CubeN;
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace, Orbit};

/// The three tables, in stage order.
pub const STAGE_IDS: [&str; 3] = ["4x4x4-ud-stage", "4x4x4-lr-stage", "4x4x4-centers-solve"];

/// One stage: a catalog projection, its moves and its distance table.
pub(super) struct CentreStage {
    pub(super) id: &'static str,
    pub(super) space: FaceletMaskSpace,
    pub(super) moves: Vec<Move>,
    /// Colours that set a bit of the mask (the union of the blocks' marked classes:
    /// each block only sees colours of its own class once the earlier stages are done).
    pub(super) marked: [bool; 6],
    /// Per block: its faces' centre facelets and how many of them must be marked.
    pub(super) blocks: Vec<(Vec<usize>, usize)>,
    pub(super) table: DistanceTable,
}

/// The three centre stages of the 4x4x4 (tables, projections, move sets).
pub struct CentreStages {
    pub(super) cube: CubeN,
    pub(super) stages: [CentreStage; 3],
}

/// Facelet indices of the four centres of `face` on a 4x4x4.
pub(super) fn centres_of(cube: &CubeN, face: Face) -> [usize; 4] {
    [
        cube.index(face, 1, 1),
        cube.index(face, 1, 2),
        cube.index(face, 2, 1),
        cube.index(face, 2, 2),
    ]
}

impl CentreStage {
    pub(super) fn load(
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
        let space = projection::build(&proj, &moves).map_err(|e| TableError::model(id, e))?;
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
    /// stage's precondition (each block must hold exactly its marked colours),
    /// which the stages before it (or the checks of the input) make sure of.
    pub(super) fn rank(&self, state: &[u8]) -> Result<u64, SolveError> {
        self.mask(state).map(|mask| self.space.rank(mask))
    }

    /// The state's projection, checked as [`CentreStage::rank`] says.
    pub(super) fn mask(&self, state: &[u8]) -> Result<u64, SolveError> {
        for (cells, want) in &self.blocks {
            let got = cells
                .iter()
                .filter(|&&i| self.marked[state[i] as usize])
                .count();
            if got != *want {
                return Err(SolveError::Internal(format!(
                    "{}: {got} marked centres in a block that needs {want}",
                    self.id
                )));
            }
        }
        let mask = self.space.project(state, &self.marked);
        let rank = self.space.rank(mask);
        if rank >= self.space.size() {
            return Err(SolveError::Internal(format!(
                "{}: rank {rank} out of range",
                self.id
            )));
        }
        Ok(mask)
    }

    /// Distance of the state to the stage's goal.
    #[cfg(test)]
    pub(super) fn distance(&self, state: &[u8]) -> Result<u8, SolveError> {
        Ok(self.table.get(self.rank(state)?))
    }

    /// Moves (indices into `self.moves`) from the state to the stage's goal.
    pub(super) fn walk(&self, state: &[u8]) -> Result<Vec<usize>, SolveError> {
        let rank = self.rank(state)?;
        let sp = &self.space;
        Ok(walk_downhill(
            &self.table,
            rank,
            self.moves.len(),
            |r, m| sp.rank(sp.apply(sp.unrank(r), m)),
        )?)
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
    /// colour: else [`SolveError::Input`]); use [`tablegen::validate::validate`]
    /// for the rest of the cube.
    pub fn solve(&self, state: &[u8]) -> Result<[Vec<Move>; 3], SolveError> {
        let cube = &self.cube;
        if state.len() != cube.facelets() {
            return Err(SolveError::Input(format!(
                "a 4x4x4 state has {} facelets, got {}",
                cube.facelets(),
                state.len()
            )));
        }
        if let Some(&c) = state.iter().find(|&&c| c >= 6) {
            return Err(SolveError::Input(format!("colour {c} out of range 0..6")));
        }
        let mut counts = [0usize; 6];
        for f in Face::ALL {
            for i in centres_of(cube, f) {
                counts[state[i] as usize] += 1;
            }
        }
        if let Some(f) = Face::ALL.iter().find(|&&f| counts[f as usize] != 4) {
            return Err(SolveError::Input(format!(
                "{} centres of colour {} (a 4x4x4 has 4 of each)",
                counts[*f as usize],
                f.letter()
            )));
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
                return Err(SolveError::Internal(format!(
                    "centres not solved after the stages (facelet {i} shows {})",
                    Face::ALL[s[i] as usize].letter()
                )));
            }
        }
        Ok(out)
    }
}
