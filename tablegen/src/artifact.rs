//! Where table artifacts live and how a build becomes a file.

use crate::catalog::{BuildOutput, Built, TableDef};
use std::path::{Path, PathBuf};
use tablefmt::{Encoding, TableMeta};

/// The table directory: `--tables DIR`, else `$CUBE_TABLES`, else the workspace's
/// `tables/` ([`find_tables_dir`] with [`Fallback::Workspace`]).
pub fn tables_dir(cli: Option<&Path>) -> PathBuf {
    tables_config(cli, None).dir
}

/// The table directory and the table source of a command line: `--tables
/// DIR` and `--tables-from URL`, else the environment, else the workspace's
/// `tables/` and no source ([`find_tables`] with [`Fallback::Workspace`]).
pub fn tables_config(cli_dir: Option<&Path>, cli_source: Option<&str>) -> TablesConfig {
    match find_tables(cli_dir, cli_source, Fallback::Workspace) {
        Some(config) => config,
        None => unreachable!("the workspace's tables/ is always a table directory"),
    }
}

/// Where the table directory is when neither the caller nor `$CUBE_TABLES`
/// names one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// The `tables/` of the workspace this crate was built in (the command
    /// lines, benchmarks and tests of a source tree).
    Workspace,
    /// The per-user data directory: `$XDG_DATA_HOME/cube-tables`, else
    /// `$HOME/.local/share/cube-tables` (an installed package, such as the
    /// Python one).
    UserData,
}

/// Which of [`find_tables_dir`]'s choices named the table directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TablesFrom {
    /// The caller (`--tables DIR`, `tables=DIR`).
    Caller,
    /// `$CUBE_TABLES`.
    Env,
    /// The fallback.
    Fallback(Fallback),
}

/// Where tables are, and where missing ones come from ([`find_tables`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablesConfig {
    /// The table directory.
    pub dir: PathBuf,
    /// Which choice named it.
    pub from: TablesFrom,
    /// The table source: a URL (or directory) written by `tablegen
    /// publish`, from which a solver downloads a table it lacks instead of
    /// building it (see [`crate::install::Source::new`]). `None`: build.
    pub source: Option<String>,
}

/// The table directory: `given`, else `$CUBE_TABLES` (if not empty), else
/// `fallback`; with where it came from ([`find_tables`] without a source).
pub fn find_tables_dir(given: Option<&Path>, fallback: Fallback) -> Option<(PathBuf, TablesFrom)> {
    find_tables(given, None, fallback).map(|c| (c.dir, c.from))
}

/// The table directory: `given`, else `$CUBE_TABLES` (if not empty), else
/// `fallback`; with where it came from; and the table source: `source`,
/// else `$CUBE_TABLES_FROM` (if not empty), else none. `None` only for
/// [`Fallback::UserData`] when neither `$XDG_DATA_HOME` nor `$HOME` is set
/// (empty counts as unset).
///
/// The one place the libraries of this workspace read the environment:
/// everything else is configured by its caller.
pub fn find_tables(
    given: Option<&Path>,
    source: Option<&str>,
    fallback: Fallback,
) -> Option<TablesConfig> {
    let nonempty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    let source = match source {
        Some(s) => Some(s.to_string()),
        None => nonempty("CUBE_TABLES_FROM").map(|v| v.to_string_lossy().into_owned()),
    };
    let config = |dir: PathBuf, from: TablesFrom| TablesConfig {
        dir,
        from,
        source: source.clone(),
    };
    if let Some(p) = given {
        return Some(config(p.to_path_buf(), TablesFrom::Caller));
    }
    if let Some(p) = nonempty("CUBE_TABLES") {
        return Some(config(PathBuf::from(p), TablesFrom::Env));
    }
    let dir = match fallback {
        Fallback::Workspace => {
            let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
            crate_dir.parent().unwrap_or(crate_dir).join("tables")
        }
        Fallback::UserData => {
            let data = match (nonempty("XDG_DATA_HOME"), nonempty("HOME")) {
                (Some(x), _) => PathBuf::from(x),
                (None, Some(h)) => Path::new(&h).join(".local").join("share"),
                (None, None) => return None,
            };
            data.join("cube-tables")
        }
    };
    Some(config(dir, TablesFrom::Fallback(fallback)))
}

/// The artifact path of a table in a directory.
pub fn artifact_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.tbl"))
}

/// Why `dir` cannot serve as a table directory, if it cannot: it is something
/// other than a directory (`/dev/null`), or looking at it fails for another reason
/// than its absence (a symbolic link loop, no permission). A directory that does
/// not exist yet is fine: it means no table is built.
pub fn tables_dir_problem(dir: &Path) -> Option<String> {
    let shown = crate::cli::show_path(dir);
    match std::fs::metadata(dir) {
        Ok(md) if md.is_dir() => None,
        Ok(md) => Some(format!(
            "table directory {shown} is not a directory but {}",
            tablefmt::file_kind(&md.file_type())
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(format!(
            "table directory {shown}: {}",
            tablefmt::io_reason(&e)
        )),
    }
}

/// How an artifact's header differs from its catalog table (see
/// [`check_against_catalog`]); the message says what the file holds instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CatalogMismatch {
    /// The file holds another table.
    #[error("holds table {}, not {expected} (wrong file under this name)", crate::cli::quote(.found))]
    OtherTable {
        /// The id in the header.
        found: String,
        /// The catalog table's id.
        expected: &'static str,
    },
    /// The file holds the table built from another definition.
    #[error("built from another definition of {id} (hash {found:016x}, catalog has {expected:016x}); rebuild it")]
    OtherDefinition {
        /// The table id.
        id: &'static str,
        /// The definition hash in the header.
        found: u64,
        /// The catalog's definition hash.
        expected: u64,
    },
}

/// Checks that an artifact holds the catalog table `def`: the header's id and
/// definition hash must be the catalog's (a copy of another table under this
/// table's file name, or a table built from an older definition, is refused).
/// The error says what the file holds instead.
pub fn check_against_catalog(
    def: &TableDef,
    h: &tablefmt::HeaderInfo,
) -> Result<(), CatalogMismatch> {
    if h.id != def.id {
        return Err(CatalogMismatch::OtherTable {
            found: h.id.clone(),
            expected: def.id,
        });
    }
    if h.definition_hash != def.definition_hash() {
        return Err(CatalogMismatch::OtherDefinition {
            id: def.id,
            found: h.definition_hash,
            expected: def.definition_hash(),
        });
    }
    Ok(())
}

/// The catalog table a file name stands for: `DIR/<catalog-id>.tbl` or
/// `DIR/<catalog-id>.shards.json` gives that table, any other name `None`.
pub fn catalog_table_of_file(path: &Path) -> Option<TableDef> {
    let name = path.file_name()?.to_str()?;
    let id = name
        .strip_suffix(".tbl")
        .or_else(|| name.strip_suffix(tablefmt::SHARD_INDEX_SUFFIX))?;
    crate::catalog::find(id)
}

/// The generator string stored in headers.
pub fn generator() -> String {
    format!("tablegen {}", env!("CARGO_PKG_VERSION"))
}

/// The header's state count: a dense table's ranks (the states reached,
/// which the histogram counts, are fewer where the goals' orbit is not the
/// whole space), a sparse table's entries.
fn table_meta(def: &TableDef, out: &BuildOutput) -> TableMeta {
    let states = match &out.data {
        Built::Dense(values) => values.len() as u64,
        Built::DenseFile(path) => std::fs::metadata(path).map_or(out.states(), |m| m.len()),
        Built::Sparse(_) => out.states(),
        Built::Words(words) => words.len() as u64,
    };
    TableMeta {
        id: def.id.to_string(),
        definition_hash: def.definition_hash(),
        states,
        histogram: out.histogram.clone(),
        generator: generator(),
        meta: vec![
            ("puzzle".into(), def.puzzle.into()),
            ("moves".into(), def.move_names().join(" ")),
            ("definition".into(), def.definition()),
        ],
    }
}

/// What a dense table stores for a rank the search never reached (a space
/// whose goals' orbit is not all of it, such as `4x4x4-pair-centres`): the
/// encoding's largest value, which must then be beyond every distance; an
/// error for an encoding that has no such value (trits store distances mod
/// 3, crumbs hold at most 3).
fn unreached_mark(
    def: &TableDef,
    out: &BuildOutput,
    values: &[u8],
) -> Result<u8, tablefmt::FormatError> {
    let unreached = crate::bfs::UNREACHED;
    if !values.contains(&unreached) {
        return Ok(unreached);
    }
    match (def.encoding, def.encoding.max_value()) {
        (Encoding::Nibble | Encoding::Byte, Some(max)) if out.histogram.len() <= max as usize => {
            Ok(max)
        }
        _ => Err(tablefmt::ErrorKind::Invalid(format!(
            "{}: {} ranks are not reached, and {} cannot mark them apart from the distances",
            def.id,
            values.iter().filter(|&&v| v == unreached).count(),
            def.encoding
        ))
        .into()),
    }
}

/// The value a table stores for a distance: distance mod 3 is enough to
/// walk downhill (neighbours differ by at most one move, so the three
/// candidates have distinct residues); a rank not reached stores `unreached`.
fn stored(encoding: Encoding, distance: u8, unreached: u8) -> u8 {
    match encoding {
        _ if distance == crate::bfs::UNREACHED => unreached,
        Encoding::Trit => distance % 3,
        _ => distance,
    }
}

/// Serialises a build into artifact bytes.
pub fn encode(def: &TableDef, out: &BuildOutput) -> Result<Vec<u8>, tablefmt::FormatError> {
    let meta = table_meta(def, out);
    match &out.data {
        Built::Dense(values) => {
            let unreached = unreached_mark(def, out, values)?;
            let values: Vec<u8> = (values.iter())
                .map(|&v| stored(def.encoding, v, unreached))
                .collect();
            tablefmt::encode_dense(&meta, &values, def.encoding)
        }
        Built::DenseFile(path) => {
            let values = std::fs::read(path)
                .map_err(|e| tablefmt::FormatError::io(path, "cannot read the distances", e))?;
            let unreached = unreached_mark(def, out, &values)?;
            let values: Vec<u8> = (values.iter())
                .map(|&v| stored(def.encoding, v, unreached))
                .collect();
            tablefmt::encode_dense(&meta, &values, def.encoding)
        }
        Built::Sparse(entries) => {
            let fst = tablefmt::build_fst(entries.iter().map(|(k, v)| (k.as_slice(), *v)))?;
            tablefmt::encode_fst(&meta, fst)
        }
        Built::Words(words) => tablefmt::encode_words(&meta, words),
    }
}

/// The index of a sharded table in a directory (see [`tablefmt::ShardedTable`]).
pub fn shards_path(dir: &Path, id: &str) -> PathBuf {
    tablefmt::shard_index_path(dir, id)
}

/// Where a table is in a directory: one file, or shards and their index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// `ID.tbl` (or any table file named on a command line).
    File(PathBuf),
    /// The index `ID.shards.json` of a sharded table.
    Shards(PathBuf),
}

impl Located {
    /// The file, or the index.
    pub fn path(&self) -> &Path {
        match self {
            Located::File(p) | Located::Shards(p) => p,
        }
    }

    /// What a path on a command line names: a shard index by its suffix,
    /// else a table file.
    pub fn of_path(path: &Path) -> Located {
        let index = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(tablefmt::SHARD_INDEX_SUFFIX));
        if index {
            Located::Shards(path.to_path_buf())
        } else {
            Located::File(path.to_path_buf())
        }
    }

    /// Opens and checks the table (with `opts`) and returns its header: a
    /// file's, or the whole header of a sharded table
    /// ([`tablefmt::ShardedTable::header`]; its checksum is computed only
    /// when `opts.verify_checksum` is set, else it is empty).
    pub fn header(&self, opts: &tablefmt::OpenOptions) -> Result<Opened, tablefmt::FormatError> {
        match self {
            Located::File(p) => Ok(Opened {
                header: tablefmt::Table::open(p, opts)?.info().clone(),
                shards: None,
            }),
            Located::Shards(p) => {
                let t = tablefmt::ShardedTable::open(p, opts)?;
                let header = if opts.verify_checksum {
                    t.header()
                } else {
                    t.header_unhashed()
                };
                Ok(Opened {
                    header,
                    shards: Some((t.index().clone(), t.shard_paths())),
                })
            }
        }
    }
}

/// A table opened by [`Located::header`].
pub struct Opened {
    /// The header of the file, or of the whole sharded table.
    pub header: tablefmt::HeaderInfo,
    /// For a sharded table, its index and its shard files in order.
    pub shards: Option<(tablefmt::ShardIndex, Vec<PathBuf>)>,
}

/// Where table `id` is in `dir`: its file if there is one (anything at the
/// file's path, even a broken link, so that it is reported, not skipped),
/// else its shard index if there is one.
pub fn locate(dir: &Path, id: &str) -> Option<Located> {
    let file = artifact_path(dir, id);
    if std::fs::symlink_metadata(&file).is_ok() {
        return Some(Located::File(file));
    }
    let index = shards_path(dir, id);
    std::fs::symlink_metadata(&index)
        .is_ok()
        .then_some(Located::Shards(index))
}

/// Every form of table `id` in `dir`, each that is there: its file, then its
/// shard index. Commands that read the table read the first ([`locate`]);
/// `verify --all` checks both, for a damaged form that nothing reads is
/// still damage on the disk.
pub fn locate_all(dir: &Path, id: &str) -> Vec<Located> {
    let file = artifact_path(dir, id);
    let index = shards_path(dir, id);
    let mut found = Vec::with_capacity(2);
    if std::fs::symlink_metadata(&file).is_ok() {
        found.push(Located::File(file));
    }
    if std::fs::symlink_metadata(&index).is_ok() {
        found.push(Located::Shards(index));
    }
    found
}

/// After table `id` was put in place in `dir` as one file or as shards:
/// removes the other form, and the shard files in `old_shards` (those of
/// the index that was there before) that the table now in place does not
/// use.
pub fn remove_other_forms(dir: &Path, id: &str, sharded: bool, old_shards: &[PathBuf]) {
    let index = shards_path(dir, id);
    let now = if sharded {
        remove_table_file(&artifact_path(dir, id));
        shard_files(&index)
    } else {
        let _ = std::fs::remove_file(&index);
        Vec::new()
    };
    for old in old_shards.iter().filter(|f| !now.contains(f)) {
        remove_table_file(old);
    }
}

/// Removes a table file and its verification record ([`tablefmt::record`]).
fn remove_table_file(path: &Path) {
    let _ = std::fs::remove_file(path);
    if let Some(record) = tablefmt::record_path(path) {
        let _ = std::fs::remove_file(record);
    }
}

/// What [`write()`] put in place.
pub enum Written {
    /// One file of this many bytes.
    File(u64),
    /// Shards of these many bytes in all, and their index.
    Shards { bytes: u64, shards: usize },
}

impl Written {
    /// Bytes written in all.
    pub fn bytes(&self) -> u64 {
        match *self {
            Written::File(b) | Written::Shards { bytes: b, .. } => b,
        }
    }
}

/// Writes a build as table `def.id` in `dir`, atomically: one file
/// (`ID.tbl`) if it fits in `max_file_bytes`, else shards of at most that
/// size with their index (`ID.shards.json`); whichever it is replaces the
/// other form. The distances of an out-of-core build are streamed from
/// their file, which is then removed (with its directory, once empty).
pub fn write(
    def: &TableDef,
    out: &BuildOutput,
    dir: &Path,
    max_file_bytes: u64,
) -> Result<Written, tablefmt::FormatError> {
    let path = artifact_path(dir, def.id);
    let index = shards_path(dir, def.id);
    let old_shards = shard_files(&index);
    let meta = table_meta(def, out);
    let fits = match &out.data {
        // Encoded whole: one file, or the writer's error if it is too large.
        Built::Sparse(_) | Built::Words(_) => true,
        _ => {
            tablefmt::dense_file_len(&meta, def.encoding)?
                <= max_file_bytes.min(tablefmt::MAX_FILE_BYTES)
        }
    };
    let written = match (&out.data, fits) {
        (Built::Sparse(_) | Built::Words(_), _) | (Built::Dense(_), true) => {
            let bytes = encode(def, out)?;
            tablefmt::write_atomic(&path, &bytes)?;
            Written::File(bytes.len() as u64)
        }
        (data, _) => {
            let mut values: Box<dyn std::io::Read> = match data {
                Built::Dense(v) => Box::new(&v[..]),
                Built::DenseFile(depths) => {
                    let f = std::fs::File::open(depths).map_err(|e| {
                        tablefmt::FormatError::io(depths, "cannot read the distances", e)
                    })?;
                    Box::new(std::io::BufReader::with_capacity(1 << 20, f))
                }
                Built::Sparse(_) | Built::Words(_) => {
                    return Err(tablefmt::ErrorKind::Invalid(
                        "a sparse or word table is never sharded".into(),
                    )
                    .into())
                }
            };
            let mut values = Stored {
                inner: &mut values,
                encoding: def.encoding,
            };
            if fits {
                Written::File(tablefmt::write_dense_from(
                    &path,
                    &meta,
                    &mut values,
                    def.encoding,
                )?)
            } else {
                let idx = tablefmt::write_dense_sharded_from(
                    &index,
                    &meta,
                    &mut values,
                    def.encoding,
                    max_file_bytes,
                )?;
                Written::Shards {
                    bytes: idx.shards.iter().map(|s| s.bytes).sum(),
                    shards: idx.shards.len(),
                }
            }
        }
    };
    // The other form of the table, or shards of an earlier build that are
    // not this one's.
    remove_other_forms(
        dir,
        def.id,
        matches!(written, Written::Shards { .. }),
        &old_shards,
    );
    if let Built::DenseFile(depths) = &out.data {
        let _ = std::fs::remove_file(depths);
        if let Some(dir) = depths.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
    record_written(&match written {
        Written::File(_) => Located::File(path),
        Written::Shards { .. } => Located::Shards(index),
    })?;
    Ok(written)
}

/// Reads back every file of a table just written (its one file, or each
/// shard its index lists), hashing it in full, and records the check so that
/// opening it to solve does not hash it again ([`tablefmt::record`]). A file
/// that does not read back as written is an error.
pub fn record_written(at: &Located) -> Result<(), tablefmt::FormatError> {
    let files = match at {
        Located::File(p) => vec![p.clone()],
        Located::Shards(index) => shard_files(index),
    };
    for f in files {
        tablefmt::settle_and_record(&f)?;
    }
    Ok(())
}

/// The shard files a sharded table's index lists (none if there is no
/// readable index).
pub fn shard_files(index: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(index) else {
        return Vec::new();
    };
    let Ok(idx) = serde_json::from_str::<tablefmt::ShardIndex>(&text) else {
        return Vec::new();
    };
    let dir = index.parent().unwrap_or(Path::new("."));
    idx.shards
        .iter()
        .filter(|s| !s.file.contains(['/', '\\']))
        .map(|s| dir.join(&s.file))
        .collect()
}

/// Distances read as the values a table stores ([`stored`]).
struct Stored<R> {
    inner: R,
    encoding: Encoding,
}

impl<R: std::io::Read> std::io::Read for Stored<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for v in &mut buf[..n] {
            *v = stored(self.encoding, *v, crate::bfs::UNREACHED);
        }
        Ok(n)
    }
}
