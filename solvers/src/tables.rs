//! Distance tables for solvers: memory-mapped from the table directory, or
//! downloaded from a table source (`set_source`) or built on first use (and
//! saved there when it is writable).

use std::path::Path;
use tablegen::catalog::{self, Built};
use tablegen::progress::Progress;

/// A dense distance table: one small distance per rank. Only
/// [`load_or_build`] makes one, and it refuses a sparse table.
pub struct DistanceTable(Backing);

enum Backing {
    /// A verified dense artifact, memory-mapped.
    Mapped(tablefmt::Table),
    /// Built in this process (one byte per rank).
    Owned(Vec<u8>),
    /// A verified sharded artifact, every shard memory-mapped.
    Sharded(tablefmt::ShardedTable),
}

impl DistanceTable {
    /// Distance of a rank.
    #[inline]
    pub fn get(&self, rank: u64) -> u8 {
        match &self.0 {
            Backing::Mapped(t) => t
                .dense()
                .expect("load_or_build only maps dense tables")
                .get(rank),
            Backing::Owned(v) => v[rank as usize],
            Backing::Sharded(t) => t.get(rank),
        }
    }

    /// The packed payload of a memory-mapped nibble table, read with
    /// [`nibble`] (no dispatch on the backing and encoding at each read).
    pub fn nibble_bytes(&self) -> Option<&[u8]> {
        match &self.0 {
            Backing::Mapped(t) if t.encoding() == tablefmt::Encoding::Nibble => Some(t.payload()),
            _ => None,
        }
    }

    /// Number of ranks.
    pub fn len(&self) -> u64 {
        match &self.0 {
            Backing::Mapped(t) => t.states(),
            Backing::Owned(v) => v.len() as u64,
            Backing::Sharded(t) => t.states(),
        }
    }

    /// Whether the table has no ranks.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the table takes in memory (packed payload, or one per rank).
    pub fn bytes(&self) -> u64 {
        match &self.0 {
            Backing::Mapped(t) => t.payload().len() as u64,
            Backing::Owned(v) => v.len() as u64,
            Backing::Sharded(t) => t.shards().iter().map(|s| s.payload().len() as u64).sum(),
        }
    }
}

/// Errors while getting a table.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The artifact exists but is corrupt or for another definition.
    #[error(transparent)]
    Format(#[from] tablefmt::FormatError),
    /// The artifact was built from another definition of the table.
    #[error(
        "{path}: built from another definition of {id}; rebuild it with `tablegen build {id}`"
    )]
    Stale {
        /// The file.
        path: String,
        /// The table id.
        id: String,
    },
    /// Building failed.
    #[error("building {0}: {1}")]
    Build(String, String),
    /// tablegen could not build the table, or make the space a solver reads
    /// it with (a fault of the catalog).
    #[error("building {0}: {1}")]
    Catalog(String, tablegen::catalog::BuildError),
    /// The file holds a table of the other kind (dense or sparse) than the
    /// solver reads.
    #[error("{path}: {msg}")]
    WrongKind {
        /// The file.
        path: String,
        /// What is wrong.
        msg: String,
    },
    /// Downloading the table from the table source failed.
    #[error(transparent)]
    Fetch(#[from] tablegen::install::InstallError),
}

impl TableError {
    /// Whether a table or the input is at fault (exit code 2) rather than
    /// the network or the machine (exit code 1).
    pub fn is_input(&self) -> bool {
        match self {
            TableError::Fetch(e) => e.is_input(),
            _ => true,
        }
    }
}

/// Where a missing table comes from: a release of `tablegen publish`.
#[cfg(feature = "fetch")]
struct TableSource {
    source: tablegen::install::Source,
    opts: tablegen::install::Options,
    /// Its manifest, once read.
    manifest: std::sync::Mutex<Option<std::sync::Arc<tablegen::install::Manifest>>>,
}

#[cfg(feature = "fetch")]
static SOURCE: std::sync::Mutex<Option<std::sync::Arc<TableSource>>> = std::sync::Mutex::new(None);

/// Sets the table source of this process: a table that is not in the table
/// directory is then downloaded from it (with progress unless the loading is
/// quiet, and checked as `tablegen install` checks it) instead of built; a
/// table its manifest does not list is still built. `None` (the default):
/// build every missing table. A command line sets it from `--tables-from`
/// or `$CUBE_TABLES_FROM` ([`tablegen::artifact::find_tables`]).
///
/// ```no_run
/// use tablegen::install::{Options, Source};
/// solvers::tables::set_source(
///     Some(Source::new("https://example.org/tables/manifest.json")),
///     Options::default(),
/// );
/// let dir = std::path::Path::new("tables");
/// let solver = solvers::registry::find("2x2x2").unwrap().load(dir, false).unwrap();
/// ```
#[cfg(feature = "fetch")]
pub fn set_source(source: Option<tablegen::install::Source>, opts: tablegen::install::Options) {
    let new = source.map(|source| {
        std::sync::Arc::new(TableSource {
            source,
            opts,
            manifest: std::sync::Mutex::new(None),
        })
    });
    // A poisoned lock only means a panic elsewhere; the value is whole.
    let mut current = SOURCE.lock().unwrap_or_else(|p| p.into_inner());
    *current = new;
}

/// Downloads table `def` into `dir` from the table source, if one is set
/// and its manifest lists the table; returns whether it did.
#[cfg(feature = "fetch")]
fn fetch(def: &catalog::TableDef, dir: &Path, quiet: bool) -> Result<bool, TableError> {
    let source = SOURCE.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let Some(src) = source else {
        return Ok(false);
    };
    let opts = tablegen::install::Options {
        quiet: quiet || src.opts.quiet,
        ..src.opts.clone()
    };
    let manifest = {
        let mut cached = src.manifest.lock().unwrap_or_else(|p| p.into_inner());
        match &*cached {
            Some(m) => m.clone(),
            None => {
                let m = std::sync::Arc::new(tablegen::install::Manifest::read(&src.source, &opts)?);
                *cached = Some(m.clone());
                m
            }
        }
    };
    if !manifest.contains(def.id) {
        if !quiet {
            tablegen::errln!(
                "note: {} does not list {}; building it",
                manifest.location(),
                def.id
            );
        }
        return Ok(false);
    }
    tablegen::install::install(dir, &manifest, Some(&[def.id]), &opts)?;
    Ok(true)
}

#[cfg(not(feature = "fetch"))]
fn fetch(_: &catalog::TableDef, _: &Path, _: bool) -> Result<bool, TableError> {
    Ok(false)
}

impl TableError {
    /// The space of table `id` cannot be made for its moves (a fault of the
    /// catalog).
    pub fn model(id: &str, e: tablegen::ModelError) -> TableError {
        TableError::Catalog(id.into(), e.into())
    }
}

/// The table directory of the tests: `target/test-tables` of the workspace,
/// seeded with the tables committed in `tables/` (copied when missing or
/// older). Tests never write into `tables/`; tables they build on first use
/// (the large ones) are kept here for the next run, as build products are.
#[doc(hidden)]
pub fn test_tables_dir() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let shipped = tablegen::artifact::tables_dir(None);
        let root = shipped.parent().map_or(shipped.clone(), Path::to_path_buf);
        let dir = root.join("target").join("test-tables");
        std::fs::create_dir_all(&dir).expect("cannot create target/test-tables");
        let newer = |a: &Path, b: &Path| -> bool {
            let time = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
            match (time(a), time(b)) {
                (Some(x), Some(y)) => x > y,
                (_, None) => true,
                _ => false,
            }
        };
        let entries = std::fs::read_dir(&shipped).expect("cannot read tables/");
        for e in entries.flatten() {
            let src = e.path();
            if src.extension().is_none_or(|x| x != "tbl") {
                continue;
            }
            let dst = dir.join(e.file_name());
            if newer(&src, &dst) {
                // Copy, then rename: test processes running at once each see
                // a whole file.
                let tmp = dir.join(format!(".copy.{}.tmp", std::process::id()));
                std::fs::copy(&src, &tmp).expect("cannot copy a table");
                std::fs::rename(&tmp, &dst).expect("cannot place a table");
            }
        }
        dir
    })
    .clone()
}

/// Says, once per process, that built tables cannot be saved in `dir`.
fn warn_unsaved(id: &str, dir: &Path, why: &str) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        let why = why.lines().next().unwrap_or_default();
        tablegen::errln!(
            "note: cannot save {id} in {} ({why}); tables are built again on every run (set --tables DIR to a writable directory)",
            dir.display()
        );
    });
}

/// A table as found in the table directory or as just built.
enum Opened {
    Mapped(tablefmt::Table),
    Sharded(tablefmt::ShardedTable),
    Built(tablegen::catalog::BuildOutput),
}

/// Whether opening a table trusts its verification record (see
/// [`set_trust_records`]).
static TRUST_RECORDS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Whether this process's table opens trust verification records (default
/// `true`). A table file `tablegen` built, installed or verified leaves a
/// record of that full check beside it ([`tablefmt::record`]); while the
/// file is unchanged, opening it then checks its structure, header, id and
/// definition but does not hash its whole payload again, which for the big
/// cubes' tables is most of the start-up. `false` hashes every byte of every
/// table at every open (`cubesolve --hash-tables`).
pub fn set_trust_records(trust: bool) {
    TRUST_RECORDS.store(trust, std::sync::atomic::Ordering::Relaxed);
}

/// Opens table `id` from `dir` (checked: structure, checksum, id, definition),
/// or downloads it from the table source (`set_source`) or builds it
/// (showing progress unless `quiet`) and tries to save it there.
fn open_or_build(id: &str, dir: &Path, quiet: bool) -> Result<Opened, TableError> {
    let def = catalog::find(id)
        .ok_or_else(|| TableError::Build(id.into(), "not in the catalog".into()))?;
    if let Some(opened) = open_existing(&def, dir)? {
        return Ok(opened);
    }
    if fetch(&def, dir, quiet)? {
        if let Some(opened) = open_existing(&def, dir)? {
            return Ok(opened);
        }
    }
    build(&def, dir, quiet)
}

/// Opens table `def` from `dir` (checked: structure, checksum, id,
/// definition), if it is there.
fn open_existing(def: &catalog::TableDef, dir: &Path) -> Result<Option<Opened>, TableError> {
    let id = def.id;
    let opts = tablefmt::OpenOptions {
        verify_checksum: true,
        expect_id: Some(id.to_string()),
        // A file `tablegen` built, installed or verified, unchanged since,
        // is not hashed again (see `set_trust_records`).
        trust_record: TRUST_RECORDS.load(std::sync::atomic::Ordering::Relaxed),
        write_record: false,
    };
    // A file whose table has another definition is refused.
    let check = |hash: u64, path: &Path| {
        if hash == def.definition_hash() {
            Ok(())
        } else {
            Err(TableError::Stale {
                path: path.display().to_string(),
                id: id.into(),
            })
        }
    };
    let path = tablegen::artifact::artifact_path(dir, id);
    if path.exists() {
        let table = tablefmt::Table::open(&path, &opts)?;
        check(table.info().definition_hash, &path)?;
        return Ok(Some(Opened::Mapped(table)));
    }
    let index = tablegen::artifact::shards_path(dir, id);
    if index.exists() {
        let table = tablefmt::ShardedTable::open(&index, &opts)?;
        check(table.definition_hash(), &index)?;
        return Ok(Some(Opened::Sharded(table)));
    }
    Ok(None)
}

/// Builds table `def` (showing progress unless `quiet`) and tries to save
/// it in `dir`.
fn build(def: &catalog::TableDef, dir: &Path, quiet: bool) -> Result<Opened, TableError> {
    let id = def.id;
    let progress = Progress::new(id, def.expected_states, quiet);
    let out = catalog::build(def, &progress).map_err(|e| TableError::Catalog(id.into(), e))?;
    // Saving is a convenience: a read-only table directory still solves,
    // but it builds the table again on every run, and that is said once.
    // A table too large for one file is saved as shards.
    let saved = if dir.exists() && !dir.is_dir() {
        Err("not a directory".to_string())
    } else {
        Ok(())
    };
    let saved = saved
        .and_then(|()| std::fs::create_dir_all(dir).map_err(|e| e.to_string()))
        .and_then(|()| {
            tablegen::artifact::write(def, &out, dir, tablefmt::MAX_FILE_BYTES)
                .map_err(|e| e.to_string())
        });
    if let Err(e) = saved {
        warn_unsaved(id, dir, &e);
    }
    Ok(Opened::Built(out))
}

/// Opens (or builds) the dense table `id` from `dir`; a sparse table under
/// that id is refused.
pub fn load_or_build(id: &str, dir: &Path, quiet: bool) -> Result<DistanceTable, TableError> {
    match open_or_build(id, dir, quiet)? {
        Opened::Mapped(table) => {
            if table.dense().is_none() {
                return Err(TableError::WrongKind {
                    path: tablegen::artifact::artifact_path(dir, id)
                        .display()
                        .to_string(),
                    msg: format!(
                        "a sparse table ({}) where a dense one is needed",
                        table.encoding()
                    ),
                });
            }
            Ok(DistanceTable(Backing::Mapped(table)))
        }
        Opened::Sharded(table) => Ok(DistanceTable(Backing::Sharded(table))),
        Opened::Built(out) => match out.data {
            Built::Dense(v) => Ok(DistanceTable(Backing::Owned(v))),
            Built::Sparse(_) | Built::DenseFile(_) | Built::Words(_) => Err(TableError::Build(
                id.into(),
                "not a dense table of distances in memory".into(),
            )),
        },
    }
}

/// Opens (or builds) the word table `id` from `dir` ([`tablefmt::Encoding::Word`]:
/// one 32-bit value per rank, not a distance): mapped, or as built.
pub fn load_words(id: &str, dir: &Path, quiet: bool) -> Result<tablegen::Words, TableError> {
    let wrong = |what: String| TableError::WrongKind {
        path: tablegen::artifact::artifact_path(dir, id)
            .display()
            .to_string(),
        msg: format!("{what} where a table of words is needed"),
    };
    match open_or_build(id, dir, quiet)? {
        Opened::Mapped(table) if table.words().is_some() => {
            Ok(tablegen::Words::Mapped(Box::new(table)))
        }
        Opened::Mapped(table) => Err(wrong(format!("a table in {}", table.encoding()))),
        Opened::Sharded(table) => Err(wrong(format!(
            "a sharded table ({})",
            table.index().encoding
        ))),
        Opened::Built(out) => match out.data {
            Built::Words(v) => Ok(tablegen::Words::Owned(v)),
            Built::Dense(_) | Built::DenseFile(_) | Built::Sparse(_) => {
                Err(TableError::Build(id.into(), "not a table of words".into()))
            }
        },
    }
}

/// A sparse table: distances of the states it holds (those within its depth),
/// keyed by packed state bytes. Only [`load_sparse`] makes one.
pub struct SparseTable(SparseBacking);

enum SparseBacking {
    Mapped(tablefmt::Table),
    Owned(std::collections::HashMap<Vec<u8>, u64>),
}

impl SparseTable {
    /// Bytes of the table (the FST's payload when mapped; an estimate of the
    /// map when built in memory).
    pub fn bytes(&self) -> u64 {
        match &self.0 {
            SparseBacking::Mapped(t) => t.payload().len() as u64,
            SparseBacking::Owned(m) => m.keys().map(|k| k.len() as u64 + 8).sum(),
        }
    }

    /// Every (key, value) the table holds, in any order.
    pub fn for_each(&self, f: &mut dyn FnMut(&[u8], u64)) {
        use tablefmt::fst::Streamer;
        match &self.0 {
            SparseBacking::Mapped(t) => {
                if let Some(map) = t.fst() {
                    let mut s = map.stream();
                    while let Some((k, v)) = s.next() {
                        f(k, v);
                    }
                }
            }
            SparseBacking::Owned(m) => m.iter().for_each(|(k, &v)| f(k, v)),
        }
    }

    /// The distance of a state, if the table holds it.
    pub fn get(&self, key: &[u8]) -> Option<u64> {
        match &self.0 {
            SparseBacking::Mapped(t) => t.fst().and_then(|m| m.get(key)),
            SparseBacking::Owned(m) => m.get(key).copied(),
        }
    }
}

/// Opens (or builds) the sparse table `id` from `dir`; a dense table under
/// that id is refused.
pub fn load_sparse(id: &str, dir: &Path, quiet: bool) -> Result<SparseTable, TableError> {
    match open_or_build(id, dir, quiet)? {
        Opened::Mapped(table) => {
            if table.fst().is_none() {
                return Err(TableError::WrongKind {
                    path: tablegen::artifact::artifact_path(dir, id)
                        .display()
                        .to_string(),
                    msg: format!(
                        "a dense table ({}) where a sparse one is needed",
                        table.encoding()
                    ),
                });
            }
            Ok(SparseTable(SparseBacking::Mapped(table)))
        }
        Opened::Sharded(table) => Err(TableError::WrongKind {
            path: tablegen::artifact::shards_path(dir, id)
                .display()
                .to_string(),
            msg: format!(
                "a sharded dense table ({}) where a sparse one is needed",
                table.index().encoding
            ),
        }),
        Opened::Built(out) => match out.data {
            Built::Sparse(v) => Ok(SparseTable(SparseBacking::Owned(v.into_iter().collect()))),
            Built::Dense(_) | Built::DenseFile(_) | Built::Words(_) => {
                Err(TableError::Build(id.into(), "not a sparse table".into()))
            }
        },
    }
}

/// A distance table read as its packed payload bytes, without going through the
/// container on every lookup: nibbles (4 bits per rank, the even rank in the low
/// half of each byte) or trits (distance mod 3, 5 per byte, for walking downhill
/// or for an exact bound that follows the search one move at a time).
pub struct Packed {
    mapped: Option<tablefmt::Table>,
    owned: Vec<u8>,
    /// A sharded table's payloads end to end, on 2 MB pages where possible.
    joined: Option<(tablefmt::memmap2::MmapMut, usize)>,
}

/// A table stored as nibbles.
pub type Nibbles = Packed;
/// A table stored as crumbs (2 bits a rank).
pub type Crumbs = Packed;
/// A table stored as trits (distance mod 3).
pub type Trits = Packed;

impl Packed {
    /// Opens (or builds) table `id`, which must be stored as nibbles.
    pub fn load(id: &str, dir: &Path, quiet: bool) -> Result<Packed, TableError> {
        Packed::load_as(id, dir, quiet, tablefmt::Encoding::Nibble)
    }

    /// Opens (or builds) table `id`, which must be stored as trits.
    pub fn load_trits(id: &str, dir: &Path, quiet: bool) -> Result<Packed, TableError> {
        Packed::load_as(id, dir, quiet, tablefmt::Encoding::Trit)
    }

    /// Opens (or builds) table `id`, which must be stored as crumbs.
    pub fn load_crumbs(id: &str, dir: &Path, quiet: bool) -> Result<Packed, TableError> {
        Packed::load_as(id, dir, quiet, tablefmt::Encoding::Crumb)
    }

    fn load_as(
        id: &str,
        dir: &Path,
        quiet: bool,
        encoding: tablefmt::Encoding,
    ) -> Result<Packed, TableError> {
        match load_or_build(id, dir, quiet)?.0 {
            Backing::Mapped(t) => {
                if t.encoding() != encoding {
                    return Err(TableError::Build(
                        id.into(),
                        format!("stored as {}, expected {encoding}", t.encoding()),
                    ));
                }
                Ok(Packed {
                    mapped: Some(t),
                    owned: Vec::new(),
                    joined: None,
                })
            }
            Backing::Sharded(t) => {
                if t.index().encoding != encoding {
                    return Err(TableError::Build(
                        id.into(),
                        format!("stored as {}, expected {encoding}", t.index().encoding),
                    ));
                }
                // The shards' payloads end to end are the one file's.
                let len = t.shards().iter().map(|s| s.payload().len()).sum();
                let mut joined = tablefmt::huge_buffer(len)
                    .map_err(|e| TableError::Build(id.into(), format!("cannot allocate: {e}")))?;
                let mut at = 0;
                for s in t.shards() {
                    let p = s.payload();
                    joined[at..at + p.len()].copy_from_slice(p);
                    at += p.len();
                }
                Ok(Packed {
                    mapped: None,
                    owned: Vec::new(),
                    joined: Some((joined, len)),
                })
            }
            Backing::Owned(mut v) => {
                if encoding == tablefmt::Encoding::Trit {
                    v.iter_mut().for_each(|d| *d %= 3);
                }
                Ok(Packed {
                    mapped: None,
                    owned: tablefmt::pack_dense(&v, encoding)?,
                    joined: None,
                })
            }
        }
    }

    /// The packed bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        match (&self.mapped, &self.joined) {
            (Some(t), _) => t.payload(),
            (None, Some((j, len))) => &j[..*len],
            (None, None) => &self.owned,
        }
    }
}

/// The crumb (2 bits) of rank `i` in packed bytes.
#[inline(always)]
pub fn crumb(bytes: &[u8], i: usize) -> u8 {
    (bytes[i >> 2] >> ((i & 3) << 1)) & 3
}

/// The nibble of rank `i` in packed bytes.
#[inline(always)]
pub fn nibble(bytes: &[u8], i: usize) -> usize {
    ((bytes[i >> 1] >> ((i & 1) << 2)) & 15) as usize
}

pub use tablegen::prefetch;

/// A small space's moves as a table: per rank and move, the rank after it.
/// A search follows a node by one lookup a move instead of applying and
/// ranking its state.
pub struct MoveTable {
    moves: usize,
    next: Vec<u16>,
}

impl MoveTable {
    /// The table of a space of at most 65,536 ranks (`None` if larger)
    /// whose neighbours come one per move, `moves` of them.
    pub fn new<S: tablegen::bfs::Space>(space: &S, moves: usize) -> Option<MoveTable> {
        let size = usize::try_from(space.size()).ok()?;
        if size > 1 << 16 {
            return None;
        }
        let mut next = Vec::with_capacity(size * moves);
        for r in 0..size as u64 {
            let before = next.len();
            space.for_each_neighbour(r, |x| {
                next.push(x as u16);
                true
            });
            if next.len() != before + moves {
                return None;
            }
        }
        Some(MoveTable { moves, next })
    }

    /// The rank after move `i`.
    #[inline]
    pub fn step(&self, rank: u16, i: usize) -> u16 {
        self.next[rank as usize * self.moves + i]
    }
}
