//! Where table artifacts live and how a build becomes a file.

use crate::catalog::{BuildOutput, Built, TableDef};
use std::path::{Path, PathBuf};
use tablefmt::{Encoding, TableMeta};

/// The table directory: `--tables DIR`, else `$CUBE_TABLES`, else the workspace's
/// `tables/`.
pub fn tables_dir(cli: Option<&Path>) -> PathBuf {
    if let Some(p) = cli {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("CUBE_TABLES") {
        if !p.is_empty() {
            return PathBuf::from(p);
        }
    }
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir.parent().unwrap_or(crate_dir).join("tables")
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

/// Checks that an artifact holds the catalog table `def`: the header's id and
/// definition hash must be the catalog's (a copy of another table under this
/// table's file name, or a table built from an older definition, is refused).
/// The error says what the file holds instead.
pub fn check_against_catalog(def: &TableDef, h: &tablefmt::HeaderInfo) -> Result<(), String> {
    if h.id != def.id {
        return Err(format!(
            "holds table {}, not {} (wrong file under this name)",
            crate::cli::quote(&h.id),
            def.id
        ));
    }
    if h.definition_hash != def.definition_hash() {
        return Err(format!(
            "built from another definition of {} (hash {:016x}, catalog has {:016x}); rebuild it",
            def.id,
            h.definition_hash,
            def.definition_hash()
        ));
    }
    Ok(())
}

/// The catalog table a file name stands for: `DIR/<catalog-id>.tbl` gives that
/// table, any other name `None`.
pub fn catalog_table_of_file(path: &Path) -> Option<TableDef> {
    let name = path.file_name()?.to_str()?;
    crate::catalog::find(name.strip_suffix(".tbl")?)
}

/// The generator string stored in headers.
pub fn generator() -> String {
    format!("tablegen {}", env!("CARGO_PKG_VERSION"))
}

fn table_meta(def: &TableDef, out: &BuildOutput) -> TableMeta {
    TableMeta {
        id: def.id.to_string(),
        definition_hash: def.definition_hash(),
        states: out.states(),
        histogram: out.histogram.clone(),
        generator: generator(),
        meta: vec![
            ("puzzle".into(), def.puzzle.into()),
            ("moves".into(), def.move_names().join(" ")),
            ("definition".into(), def.definition()),
        ],
    }
}

/// The value a table stores for a distance: distance mod 3 is enough to
/// walk downhill (neighbours differ by at most one move, so the three
/// candidates have distinct residues).
fn stored(encoding: Encoding, distance: u8) -> u8 {
    match encoding {
        Encoding::Trit => distance % 3,
        _ => distance,
    }
}

/// Serialises a build into artifact bytes.
pub fn encode(def: &TableDef, out: &BuildOutput) -> Result<Vec<u8>, tablefmt::FormatError> {
    let meta = table_meta(def, out);
    match &out.data {
        Built::Dense(values) => {
            let values: Vec<u8> = values.iter().map(|&v| stored(def.encoding, v)).collect();
            tablefmt::encode_dense(&meta, &values, def.encoding)
        }
        Built::DenseFile(path) => {
            let values = std::fs::read(path)
                .map_err(|e| tablefmt::FormatError::io(path, "cannot read the distances", e))?;
            let values: Vec<u8> = values.iter().map(|&v| stored(def.encoding, v)).collect();
            tablefmt::encode_dense(&meta, &values, def.encoding)
        }
        Built::Sparse(entries) => {
            let fst = tablefmt::build_fst(entries.iter().map(|(k, v)| (k.as_slice(), *v)))?;
            tablefmt::encode_fst(&meta, fst)
        }
    }
}

/// The index of a sharded table in a directory (see [`tablefmt::ShardedTable`]).
pub fn shards_path(dir: &Path, id: &str) -> PathBuf {
    tablefmt::shard_index_path(dir, id)
}

/// What [`write`] put in place.
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
        Built::Sparse(_) => true,
        _ => {
            tablefmt::dense_file_len(&meta, def.encoding)?
                <= max_file_bytes.min(tablefmt::MAX_FILE_BYTES)
        }
    };
    let written = match (&out.data, fits) {
        (Built::Sparse(_), _) | (Built::Dense(_), true) => {
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
                Built::Sparse(_) => {
                    return Err(tablefmt::ErrorKind::Invalid(
                        "a sparse table is never sharded".into(),
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
    let now = match written {
        Written::File(_) => {
            let _ = std::fs::remove_file(&index);
            Vec::new()
        }
        Written::Shards { .. } => {
            let _ = std::fs::remove_file(&path);
            shard_files(&index)
        }
    };
    for old in old_shards.iter().filter(|f| !now.contains(f)) {
        let _ = std::fs::remove_file(old);
    }
    if let Built::DenseFile(depths) = &out.data {
        let _ = std::fs::remove_file(depths);
        if let Some(dir) = depths.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
    Ok(written)
}

/// The shard files a sharded table's index lists (none if there is no
/// readable index).
fn shard_files(index: &Path) -> Vec<PathBuf> {
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
            *v = stored(self.encoding, *v);
        }
        Ok(n)
    }
}
