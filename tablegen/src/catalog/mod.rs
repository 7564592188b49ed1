//! The table catalog: every table the toolkit builds, as data.
//!
//! A table is a puzzle, a projection (what is tracked, which colours merge), a
//! move set, a goal, a ranking and a storage encoding. Adding one is an entry in
//! [`catalog`]; its expected state count (and, where published, its depth
//! histogram) is checked by the tests.

mod entries;
pub use entries::{axis_moves, catalog, lr_stage_moves, DOMINO_HTM, DOMINO_QTM};

use crate::bfs::{dense_bfs, sparse_bfs, Space};
use crate::notation::{format_alg, Move};
use crate::progress::Progress;
use crate::projection::ProjectionDef;
use crate::{
    centres5, cube2, cube3, cube4, cube5, domino, kociemba, optimal3, projection, pyraminx,
};
use tablefmt::Encoding;

/// How the states of a table are produced and ranked.
#[derive(Clone, Debug)]
pub enum SpaceDef {
    /// 2x2x2 corners, DBL fixed; half-turn (`qtm = false`) or quarter-turn moves.
    Cube2 {
        /// Quarter-turn metric.
        qtm: bool,
    },
    /// Pyraminx without tips.
    Pyraminx,
    /// The 3x3x2 Domino modulo the U-D turn; half-turn (`qtm = false`) or U2 = 2.
    Domino {
        /// U2 counts two moves.
        qtm: bool,
    },
    /// A facelet projection of an NxNxN cube, ranked densely.
    Facelets {
        /// The projection.
        def: ProjectionDef,
        /// The move set.
        moves: Vec<Move>,
    },
    /// A pruning space of the 3x3x3 two-phase algorithm.
    Cube3(kociemba::PhaseSpace),
    /// A pruning space of the optimal 3x3x3 solver.
    Optimal3(optimal3::OptimalSpace),
    /// A 4x4x4 reduction space (side centres, wing split or pairing), see [`cube4`].
    Reduction4 {
        /// Which space.
        space: cube4::Reduction4,
        /// The move set.
        moves: Vec<Move>,
    },
    /// A 5x5x5 reduction space (T side centres, wing split, midge orientation,
    /// tredge pairing), see [`cube5`].
    Reduction5 {
        /// Which space.
        space: cube5::Reduction5,
        /// The move set.
        moves: Vec<Move>,
    },
    /// A facelet projection too big to rank: sparse BFS of the masks to a depth.
    SparseFacelets {
        /// The projection (only its tracked facelets and marked colours are used).
        def: ProjectionDef,
        /// The move set.
        moves: Vec<Move>,
        /// Search depth.
        max_depth: u8,
    },
    /// The 5x5x5's U/D T- and X-centres together within a depth, up to the
    /// 16 symmetries that keep the U-D axis, each class's key hashed to a
    /// bucket that keeps the least depth ([`crate::centres5`]): one crumb
    /// per bucket.
    HashedCentres5 {
        /// The T-centres' projection.
        t: ProjectionDef,
        /// The X-centres' projection.
        x: ProjectionDef,
        /// The move set.
        moves: Vec<Move>,
    },
    /// The big cubes' route's cycles of one kind of centre orbit, once per
    /// effect (see [`crate::cycles::CycleSpace`]): an FST map, not a BFS.
    Cycles(crate::cycles::CycleSpace),
}

/// One catalog entry.
#[derive(Clone, Debug)]
pub struct TableDef {
    /// Table id, `PUZZLE-WHAT`.
    pub id: &'static str,
    /// Puzzle name (`2x2x2`, `pyraminx`, ...).
    pub puzzle: &'static str,
    /// One line on what the table is for.
    pub summary: &'static str,
    /// States and moves.
    pub space: SpaceDef,
    /// Storage encoding of the artifact.
    pub encoding: Encoding,
    /// The independent state count (a closed formula or a published figure).
    pub expected_states: u64,
    /// The published depth histogram, where one exists.
    pub expected_histogram: Option<&'static [u64]>,
    /// Where the expected figures come from.
    pub source: &'static str,
}

impl TableDef {
    /// The move set in canonical notation.
    pub fn move_names(&self) -> Vec<String> {
        match &self.space {
            SpaceDef::Cube2 { qtm } => {
                let m = if *qtm {
                    cube2::qtm_moves()
                } else {
                    cube2::htm_moves()
                };
                m.iter().map(|m| m.to_string()).collect()
            }
            SpaceDef::Pyraminx => (0..8)
                .map(|m| pyraminx::move_of_index(m).to_string())
                .collect(),
            SpaceDef::Domino { qtm } => {
                let m = if *qtm {
                    domino::qtm_moves()
                } else {
                    domino::htm_moves()
                };
                m.iter().map(|m| m.to_string()).collect()
            }
            SpaceDef::Cube3(p) => p
                .move_indices()
                .into_iter()
                .map(|m| cube3::MOVE_NAMES[m].to_string())
                .collect(),
            SpaceDef::Optimal3(_) => cube3::MOVE_NAMES.iter().map(|m| m.to_string()).collect(),
            SpaceDef::Cycles(_) => (crate::cycles::route_turns().iter())
                .map(|m| m.to_string())
                .collect(),
            SpaceDef::Facelets { moves, .. }
            | SpaceDef::SparseFacelets { moves, .. }
            | SpaceDef::HashedCentres5 { moves, .. }
            | SpaceDef::Reduction4 { moves, .. }
            | SpaceDef::Reduction5 { moves, .. } => moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// Dense (ranked) or sparse (FST) storage.
    pub fn storage(&self) -> &'static str {
        match self.space {
            SpaceDef::SparseFacelets { .. } | SpaceDef::Cycles(_) => "fst",
            _ => "dense",
        }
    }

    /// A canonical text of everything that determines the table's contents.
    pub fn definition(&self) -> String {
        let space = match &self.space {
            SpaceDef::Cube2 { .. } => "cube2 fixed=DBL rank=perm7*729+twist6".to_string(),
            SpaceDef::Pyraminx => "pyraminx-notips rank=(evenperm6*32+flip5)*81+twist4".into(),
            SpaceDef::Domino { .. } => {
                "domino mod-y canon=corner0-in-slot0or4 rank=(layer*5040+perm7)*40320+perm8".into()
            }
            SpaceDef::Facelets { def, .. } => def.describe(),
            SpaceDef::Cube3(p) => p.describe().into(),
            SpaceDef::Optimal3(p) => p.describe().into(),
            SpaceDef::Reduction4 { space, .. } => space.describe(),
            SpaceDef::Reduction5 { space, .. } => space.describe(),
            SpaceDef::SparseFacelets { def, max_depth, .. } => {
                format!("sparse {} depth<={max_depth}", def.describe())
            }
            SpaceDef::Cycles(c) => c.describe(),
            SpaceDef::HashedCentres5 { t, x, .. } => format!(
                "hashed t=({}) x=({}) symmetries=16-keeping-y key=min(rank_t*{}+rank_x) depth<={} buckets=2^{} bucket=(key*0x9E3779B97F4A7C15)>>{} crumb=0:<={},1:{},2:{},3:>={}",
                t.describe(),
                x.describe(),
                735_471,
                centres5::MAX_DEPTH,
                centres5::BUCKET_BITS,
                64 - centres5::BUCKET_BITS,
                centres5::MAX_DEPTH - 2,
                centres5::MAX_DEPTH - 1,
                centres5::MAX_DEPTH,
                centres5::MAX_DEPTH + 1,
            ),
        };
        format!(
            "id={} puzzle={} space={} moves={} goal=solved encoding={}",
            self.id,
            self.puzzle,
            space,
            self.move_names().join(","),
            self.encoding
        )
    }

    /// xxh3-64 of [`TableDef::definition`].
    pub fn definition_hash(&self) -> u64 {
        twox_hash::XxHash3_64::oneshot(self.definition().as_bytes())
    }

    /// Expected artifact payload size in bytes (dense: states x bits / 8).
    pub fn expected_payload_bytes(&self) -> u64 {
        match self.encoding {
            Encoding::Fst => 0,
            e => (self.expected_states as f64 * e.bits_per_state() / 8.0).ceil() as u64,
        }
    }
}

/// What a build produced.
pub enum Built {
    /// One value (the distance) per rank.
    Dense(Vec<u8>),
    /// A file of one value (the distance) per rank, from an out-of-core
    /// build; writing the table removes it.
    DenseFile(std::path::PathBuf),
    /// Sorted `(key bytes, value)` pairs: a distance, or what the table's
    /// space says (the route's cycles: [`crate::cycles::CycleSpace`]).
    Sparse(Vec<(Vec<u8>, u64)>),
    /// One word per rank, not a distance ([`Encoding::Word`]): what the
    /// table's space says (a class index, a symmetry); the histogram then
    /// counts the entries of each part of its layout.
    Words(Vec<u32>),
}

/// A finished build.
pub struct BuildOutput {
    /// The table's contents.
    pub data: Built,
    /// States per depth.
    pub histogram: Vec<u64>,
    /// State-move expansions done.
    pub expansions: u64,
}

impl BuildOutput {
    /// Number of states reached.
    pub fn states(&self) -> u64 {
        self.histogram.iter().sum()
    }
}

/// Why a table was not built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The table's space cannot be made for its move set (a fault of the
    /// catalog).
    #[error(transparent)]
    Model(#[from] crate::ModelError),
    /// A dense table whose projection is too large to rank densely.
    #[error("projection too big to rank densely")]
    NotDense,
    /// A cycle table that could not be made.
    #[error("{0}: {1}")]
    Cycles(&'static str, String),
    /// A table built in memory only asked of another engine.
    #[error("{0} is built in memory only (a BFS of the whole space, then reduced by symmetry)")]
    InMemoryOnly(&'static str),
    /// A sparse table asked of the timely engine.
    #[error("{0} is a sparse table: the timely engine builds dense tables only")]
    SparseOnTimely(&'static str),
    /// The engine ended without a table where one was expected.
    #[error("no table was built")]
    NothingBuilt,
    /// The timely engine failed.
    #[cfg(feature = "timely")]
    #[error(transparent)]
    Dist(#[from] crate::dist::DistError),
}

/// Which engine runs a dense BFS.
#[derive(Clone, Debug, Default)]
pub enum Engine {
    /// [`dense_bfs`]: one process, rayon threads.
    #[default]
    InMemory,
    /// [`crate::dist::timely_bfs`]: timely workers, in one process or many.
    #[cfg(feature = "timely")]
    Timely(crate::dist::Cluster),
}

fn dense<S: Space + Send + 'static>(
    space: S,
    engine: &Engine,
    progress: &Progress,
) -> Result<Option<BuildOutput>, BuildError> {
    Ok(match engine {
        Engine::InMemory => {
            let r = dense_bfs(&space, progress);
            Some(BuildOutput {
                data: Built::Dense(r.depth),
                histogram: r.histogram,
                expansions: r.expansions,
            })
        }
        #[cfg(feature = "timely")]
        Engine::Timely(cluster) => {
            use crate::dist::Depths;
            crate::dist::timely_bfs(space, cluster, progress)?.map(|r| BuildOutput {
                data: match r.depths {
                    Depths::Memory(v) => Built::Dense(v),
                    Depths::File(p) => Built::DenseFile(p),
                },
                histogram: r.histogram,
                expansions: r.expansions,
            })
        }
    })
}

/// A table whose own builder runs in memory only (its entries, histogram
/// and expansions); refused on another engine.
fn in_memory(
    def: &TableDef,
    engine: &Engine,
    build: impl FnOnce() -> Result<(Vec<u8>, Vec<u64>, u64), crate::ModelError>,
) -> Result<Option<BuildOutput>, BuildError> {
    if !matches!(engine, Engine::InMemory) {
        return Err(BuildError::InMemoryOnly(def.id));
    }
    let (entries, histogram, expansions) = build()?;
    Ok(Some(BuildOutput {
        data: Built::Dense(entries),
        histogram,
        expansions,
    }))
}

/// Runs the BFS of a table in memory.
pub fn build(def: &TableDef, progress: &Progress) -> Result<BuildOutput, BuildError> {
    build_with(def, &Engine::InMemory, progress)?.ok_or(BuildError::NothingBuilt)
}

/// Runs the BFS of a table on `engine`: the table, or `None` in a process
/// of a distributed build that hands its part to process 0.
pub fn build_with(
    def: &TableDef,
    engine: &Engine,
    progress: &Progress,
) -> Result<Option<BuildOutput>, BuildError> {
    match &def.space {
        SpaceDef::Cube2 { qtm } => {
            let moves = if *qtm {
                cube2::qtm_moves()
            } else {
                cube2::htm_moves()
            };
            dense(cube2::Cube2::new(moves), engine, progress)
        }
        SpaceDef::Pyraminx => dense(pyraminx::PyraminxSpace::new(), engine, progress),
        SpaceDef::Domino { qtm } => {
            let moves = if *qtm {
                domino::qtm_moves()
            } else {
                domino::htm_moves()
            };
            dense(domino::DominoSpace::new(moves), engine, progress)
        }
        SpaceDef::Cube3(p) => dense(kociemba::PhaseBfs::new(*p), engine, progress),
        SpaceDef::Optimal3(p) => dense(optimal3::OptimalBfs::new(*p), engine, progress),
        SpaceDef::Reduction4 { space, moves } => match *space {
            cube4::Reduction4::SideCentres => {
                dense(cube4::SideCentresSpace::new(moves)?, engine, progress)
            }
            cube4::Reduction4::SideCentresParity => {
                dense(cube4::SidesParitySpace::new(moves)?, engine, progress)
            }
            cube4::Reduction4::PairAll => dense(cube4::PairAllSpace::new(moves)?, engine, progress),
            cube4::Reduction4::SideCentresParityEither => {
                dense(cube4::SidesParityEitherSpace::new(moves)?, engine, progress)
            }
            cube4::Reduction4::PairCentres => {
                dense(cube4::PairCentresSpace::new(moves)?, engine, progress)
            }
            cube4::Reduction4::Split(k) => {
                dense(cube4::SplitSpace::new(k as usize, moves), engine, progress)
            }
        },
        SpaceDef::Reduction5 { space, moves } => match *space {
            cube5::Reduction5::LrParity => {
                dense(cube5::LrParitySpace::new(moves)?, engine, progress)
            }
            cube5::Reduction5::FbEo => dense(cube5::FbEoSpace::new(moves)?, engine, progress),
            cube5::Reduction5::WingsSplit => {
                dense(cube5::WingsSplitSpace::new(moves)?, engine, progress)
            }
            cube5::Reduction5::MidPair => dense(cube5::MidPairSpace::new(moves)?, engine, progress),
            cube5::Reduction5::SplitEo => in_memory(def, engine, || {
                crate::split5::build_split_eo(moves, progress)
            }),
            cube5::Reduction5::ESlice(high) => dense(
                crate::pair5::ESliceSpace::new(high, moves)?,
                engine,
                progress,
            ),
            cube5::Reduction5::Sides => dense(
                crate::pair5::SidesSpace::new(moves, &crate::pair5::last8_moves())?,
                engine,
                progress,
            ),
            cube5::Reduction5::ETriple => {
                dense(crate::pair5::ETripleSpace::new(moves)?, engine, progress)
            }
            cube5::Reduction5::EFour => in_memory(def, engine, || {
                crate::pair5::build_e_four_rl(moves, progress)
            }),
            cube5::Reduction5::EFourBoth { high } => in_memory(def, engine, || {
                crate::pair5::build_e_four_both(high, moves, progress)
            }),
            cube5::Reduction5::Last8 => {
                dense(crate::pair5::Last8Space::new(moves)?, engine, progress)
            }
            cube5::Reduction5::Last8Centres => dense(
                crate::pair5::Last8CentresSpace::new(moves)?,
                engine,
                progress,
            ),
            cube5::Reduction5::SplitEoClasses => {
                if !matches!(engine, Engine::InMemory) {
                    return Err(BuildError::InMemoryOnly(def.id));
                }
                let (words, histogram) = crate::split5::build_split_eo_classes(moves)?;
                Ok(Some(BuildOutput {
                    data: Built::Words(words),
                    histogram,
                    expansions: 0,
                }))
            }
        },
        SpaceDef::Facelets { def: p, moves } => {
            let space = projection::build(p, moves)?;
            if !space.is_dense() {
                return Err(BuildError::NotDense);
            }
            dense(space, engine, progress)
        }
        SpaceDef::Cycles(c) => {
            if !matches!(engine, Engine::InMemory) {
                return Err(BuildError::SparseOnTimely(def.id));
            }
            let (entries, histogram, expansions) =
                c.entries().map_err(|e| BuildError::Cycles(def.id, e))?;
            Ok(Some(BuildOutput {
                data: Built::Sparse(entries),
                histogram,
                expansions,
            }))
        }
        SpaceDef::HashedCentres5 { t, x, moves } => {
            if !matches!(engine, Engine::InMemory) {
                return Err(BuildError::SparseOnTimely(def.id));
            }
            let b = centres5::UdJoint::new(t, x, moves)?.build(progress);
            let mut histogram = vec![0u64; 4];
            for &c in &b.codes {
                histogram[c as usize] += 1;
            }
            Ok(Some(BuildOutput {
                data: Built::Dense(b.codes),
                histogram,
                expansions: b.expansions,
            }))
        }
        SpaceDef::SparseFacelets {
            def: p,
            moves,
            max_depth,
        } => {
            if !matches!(engine, Engine::InMemory) {
                return Err(BuildError::SparseOnTimely(def.id));
            }
            let space = projection::build(p, moves)?;
            let n = moves.len();
            let r = sparse_bfs(
                &[space.goal_mask()],
                *max_depth,
                |k, out| out.extend((0..n).map(|m| space.apply(k, m))),
                progress,
            );
            let expansions = r.histogram.iter().sum::<u64>() * n as u64;
            Ok(Some(BuildOutput {
                data: Built::Sparse(
                    r.entries
                        .into_iter()
                        .map(|(k, d)| (k.to_be_bytes().to_vec(), d as u64))
                        .collect(),
                ),
                histogram: r.histogram,
                expansions,
            }))
        }
    }
}

/// Looks a table up by id.
pub fn find(id: &str) -> Option<TableDef> {
    catalog().into_iter().find(|t| t.id == id)
}

/// True if `id` has the form of a table id: `PUZZLE-WHAT`, lower-case ASCII
/// letters and digits in words joined by single `-`, at most 64 characters
/// (every catalog id has it). Such an id is safe as a file name: no separator,
/// no dot, never `..`.
pub fn is_id_syntax(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Catalog ids closest to a mistyped one (for error messages).
pub fn close_ids(id: &str) -> Vec<&'static str> {
    let mut scored: Vec<(f64, &'static str)> = catalog()
        .iter()
        .map(|t| (strsim::jaro_winkler(id, t.id), t.id))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored
        .into_iter()
        .filter(|(s, _)| *s > 0.7)
        .take(3)
        .map(|(_, id)| id)
        .collect()
}

/// A word table's histogram (the sizes of its layout's parts; its values
/// are not distances) as `a + b + c`.
pub fn format_parts(h: &[u64]) -> String {
    h.iter().map(u64::to_string).collect::<Vec<_>>().join(" + ")
}

/// Prints a histogram as `d:count` pairs.
pub fn format_histogram(h: &[u64]) -> String {
    h.iter()
        .enumerate()
        .map(|(d, c)| format!("{d}:{c}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The move list of an algorithm for display.
pub fn moves_text(moves: &[Move]) -> String {
    format_alg(moves)
}

#[cfg(test)]
mod id_tests {
    use super::*;

    #[test]
    fn every_catalog_id_has_the_id_syntax() {
        for t in catalog() {
            assert!(is_id_syntax(t.id), "{}", t.id);
        }
        for bad in [
            "",
            "../../escaped",
            "/abs",
            "a/b",
            "A-b",
            "a--b",
            "-a",
            "a-",
            "a.tbl",
            "..",
            "a b",
            &"a".repeat(65),
        ] {
            assert!(!is_id_syntax(bad), "{bad:?}");
        }
    }
}
