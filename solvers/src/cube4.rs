//! 4x4x4 centres in three staged table walks: the first stages of a reduction
//! solver (edge pairing and the 3x3x3 stage come next).
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
use crate::walk_downhill;
use std::path::Path;
use tablegen::bfs::Space;
use tablegen::catalog::{self, SpaceDef};
use tablegen::cube::CubeN;
use tablegen::notation::{Face, Move};
use tablegen::projection::{self, FaceletMaskSpace, Orbit};

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
}
