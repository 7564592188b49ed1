//! Dense tables larger than one file: shards.
//!
//! A sharded table is an index, `NAME.shards.json`, and shard files
//! `NAME.KKK-of-NNN.tbl` beside it. Each shard is an ordinary dense table
//! file (checked as any other) holding a contiguous range of ranks; every
//! shard but the last holds the same number of ranks, a multiple of 320 (so
//! that every encoding packs whole bytes). A shard's header carries the
//! whole table's id, definition hash and histogram, and its place in the
//! meta keys `shard` (`K/N`), `first-state` and `table-states`. The index
//! lists the shards with their payload checksums, so that a shard of another
//! build is refused.

use crate::archive;
use crate::encoding::Encoding;
use crate::error::{ErrorKind, FormatError};
use crate::table::{HeaderInfo, OpenOptions, Table};
use crate::TableMeta;
use std::path::{Path, PathBuf};

/// The suffix of a sharded table's index file.
pub const SHARD_INDEX_SUFFIX: &str = ".shards.json";

/// One shard in a [`ShardIndex`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardEntry {
    /// The shard's file name, in the index's directory.
    pub file: String,
    /// Its first rank.
    pub first_state: u64,
    /// Its number of ranks.
    pub states: u64,
    /// Its payload's xxh3-128, 32 hex digits (as its header's).
    pub checksum: String,
    /// The file's length in bytes.
    pub bytes: u64,
}

/// The index of a sharded table: what the table is, and its shards in order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardIndex {
    /// Table id.
    pub id: String,
    /// The caller's definition hash, 16 hex digits.
    pub definition_hash: String,
    /// Number of ranks of the whole table.
    pub states: u64,
    /// States per depth of the whole table.
    pub histogram: Vec<u64>,
    /// The shards' encoding.
    pub encoding: Encoding,
    /// The shards, in rank order.
    pub shards: Vec<ShardEntry>,
}

/// The index path of a sharded table `NAME` in `dir`.
pub fn shard_index_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}{SHARD_INDEX_SUFFIX}"))
}

/// The file name of shard `k` of `n` of table `name`: `NAME.KKK-of-NNN.tbl`.
pub fn shard_file_name(name: &str, k: usize, n: usize) -> String {
    format!("{name}.{k:03}-of-{n:03}.tbl")
}

/// The table name of a shard file name: `NAME` for `NAME.KKK-of-NNN.tbl`
/// (as [`shard_file_name`] makes them), `None` for any other name.
pub fn shard_file_table(file_name: &str) -> Option<&str> {
    let rest = file_name.strip_suffix(".tbl")?;
    let (name, place) = rest.rsplit_once('.')?;
    let (k, n) = place.split_once("-of-")?;
    let digits = |s: &str| s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit());
    (!name.is_empty() && digits(k) && digits(n)).then_some(name)
}

/// The table name of an index path (`DIR/NAME.shards.json` gives `NAME`).
fn name_of(index: &Path) -> Result<String, FormatError> {
    index
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(SHARD_INDEX_SUFFIX))
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .ok_or_else(|| {
            FormatError::new(
                Some(index),
                ErrorKind::Invalid(format!("a shard index is named NAME{SHARD_INDEX_SUFFIX}")),
            )
        })
}

/// Writes a dense table as shards of at most `max_file_bytes` each plus the
/// index `index` (`DIR/NAME.shards.json`), reading its `meta.states` values
/// (one byte each) from `values` in rank order, a chunk at a time. All the
/// files are put in place together, or none. Returns the index.
pub fn write_dense_sharded_from(
    index: &Path,
    meta: &TableMeta,
    values: &mut dyn std::io::Read,
    encoding: Encoding,
    max_file_bytes: u64,
) -> Result<ShardIndex, FormatError> {
    use std::io::Read;
    let name = name_of(index)?;
    let dir = index.parent().unwrap_or(Path::new("."));
    let invalid = |msg: String| FormatError::new(Some(index), ErrorKind::Invalid(msg));
    if encoding.max_value().is_none() {
        return Err(invalid(format!(
            "only dense tables of byte values are sharded, not {encoding}"
        )));
    }
    // The most ranks a shard can hold: the frame's bytes (with room for the
    // longest place keys) off the limit, the payload rounded down to whole
    // units of 320 ranks.
    let max_file_bytes = max_file_bytes.min(crate::MAX_FILE_BYTES);
    let per_byte = encoding.states_per_byte().unwrap_or(1);
    let mut probe = meta.clone();
    probe.meta.extend([
        ("shard".into(), "999/999".into()),
        ("first-state".into(), u64::MAX.to_string()),
        ("table-states".into(), u64::MAX.to_string()),
    ]);
    let frame = archive::dense_file_len(&probe, encoding, 0)
        .map_err(|k| FormatError::new(Some(index), k))?
        + 64;
    let room = max_file_bytes.saturating_sub(frame);
    let per_shard = (room * per_byte) / 320 * 320;
    if per_shard == 0 {
        return Err(invalid(format!(
            "{max_file_bytes} bytes cannot hold a shard of this table"
        )));
    }
    let count = meta.states.div_ceil(per_shard).max(1) as usize;
    if count > 999 {
        return Err(invalid(format!(
            "{count} shards of {max_file_bytes} bytes: at most 999"
        )));
    }
    let mut staged = Vec::with_capacity(count + 1);
    let mut shards = Vec::with_capacity(count);
    for k in 0..count {
        let first = k as u64 * per_shard;
        let states = per_shard.min(meta.states - first);
        let mut m = meta.clone();
        m.states = states;
        m.meta.extend([
            ("shard".into(), format!("{k}/{count}")),
            ("first-state".into(), first.to_string()),
            ("table-states".into(), meta.states.to_string()),
        ]);
        let file = shard_file_name(&name, k, count);
        let mut part = (&mut *values).take(states);
        let (s, bytes, sum) = archive::stage_dense_from(&dir.join(&file), &m, encoding, &mut part)?;
        staged.push(s);
        shards.push(ShardEntry {
            file,
            first_state: first,
            states,
            checksum: format!("{sum:032x}"),
            bytes,
        });
    }
    let idx = ShardIndex {
        id: meta.id.clone(),
        definition_hash: format!("{:016x}", meta.definition_hash),
        states: meta.states,
        histogram: meta.histogram.clone(),
        encoding,
        shards,
    };
    let text = serde_json::to_string_pretty(&idx)
        .map_err(|e| invalid(format!("cannot write the index: {e}")))?;
    staged.push(crate::StagedFile::create(index, |f| {
        use std::io::Write;
        f.write_all(text.as_bytes())
            .map_err(|e| FormatError::io(index, "cannot write", e))
    })?);
    crate::commit_all(staged)?;
    Ok(idx)
}

/// Reads and parses a shard index (no shard is opened).
pub fn read_shard_index(index: &Path) -> Result<ShardIndex, FormatError> {
    let text =
        std::fs::read_to_string(index).map_err(|e| FormatError::io(index, "cannot read", e))?;
    serde_json::from_str(&text).map_err(|e| {
        FormatError::new(
            Some(index),
            ErrorKind::Corrupt(format!("not a shard index: {e}")),
        )
    })
}

/// Where `path` leads when it is a symbolic link (or a chain of them) to a
/// file outside `dir` (the shard file a name with `../` would be); `None` when
/// it is no link, stays inside `dir`, or cannot be resolved (opening it then
/// says why). Shard files are opened only through this check, so that a link
/// to `/etc/passwd` is refused before a byte of it is read.
pub(crate) fn link_out_of(dir: &Path, path: &Path) -> Option<PathBuf> {
    let md = std::fs::symlink_metadata(path).ok()?;
    if !md.is_symlink() {
        return None;
    }
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let dir = std::fs::canonicalize(dir).ok()?;
    let to = std::fs::canonicalize(path).ok()?;
    (!to.starts_with(&dir)).then_some(to)
}

/// The meta keys a shard's header has and the whole table's has not.
const PLACE_KEYS: [&str; 3] = ["shard", "first-state", "table-states"];

/// A sharded dense table, every shard memory-mapped and checked as
/// [`Table::open`] checks a file, and each against the index.
pub struct ShardedTable {
    index: ShardIndex,
    shards: Vec<Table>,
    per_shard: u64,
    definition_hash: u64,
}

impl ShardedTable {
    /// Opens the sharded table of index `index` (`DIR/NAME.shards.json`).
    pub fn open(index: &Path, opts: &OpenOptions) -> Result<ShardedTable, FormatError> {
        let corrupt = |msg: String| FormatError::new(Some(index), ErrorKind::Corrupt(msg));
        let idx = read_shard_index(index)?;
        if let Some(want) = &opts.expect_id {
            if *want != idx.id {
                return Err(FormatError::new(
                    Some(index),
                    ErrorKind::WrongId {
                        expected: want.clone(),
                        found: idx.id.clone(),
                    },
                ));
            }
        }
        if idx.encoding.max_value().is_none() {
            return Err(corrupt(format!(
                "a sharded table is dense with byte values, not {}",
                idx.encoding
            )));
        }
        let definition_hash = u64::from_str_radix(&idx.definition_hash, 16)
            .map_err(|_| corrupt("the definition hash is not 16 hex digits".into()))?;
        let per_shard = idx.shards.first().map_or(0, |s| s.states);
        let mut next = 0u64;
        for (k, s) in idx.shards.iter().enumerate() {
            let last = k + 1 == idx.shards.len();
            if s.first_state != next
                || s.states == 0
                || (!last && s.states != per_shard)
                || (last && s.states > per_shard)
                || s.file.contains(['/', '\\'])
            {
                return Err(corrupt(format!("shard {k} ({}) is out of place", s.file)));
            }
            next += s.states;
        }
        if next != idx.states || idx.shards.is_empty() {
            return Err(corrupt(format!(
                "the shards hold {next} states, the table {}",
                idx.states
            )));
        }
        let dir = index.parent().unwrap_or(Path::new("."));
        let mut shards = Vec::with_capacity(idx.shards.len());
        for (k, s) in idx.shards.iter().enumerate() {
            let path = dir.join(&s.file);
            if let Some(to) = link_out_of(dir, &path) {
                return Err(corrupt(format!(
                    "shard {k} ({}) is a symbolic link out of the table's directory (to {}); \
                     refused, as a name with ../ is",
                    s.file,
                    crate::error::show_path(&to)
                )));
            }
            let t = Table::open(&path, opts)?;
            let h = t.info();
            let place = format!("{k}/{}", idx.shards.len());
            let fits = h.id == idx.id
                && h.definition_hash == definition_hash
                && h.encoding == idx.encoding
                && h.states == s.states
                && h.checksum == s.checksum
                && h.histogram == idx.histogram
                && h.meta_value("shard") == Some(place.as_str())
                && h.meta_value("first-state") == Some(s.first_state.to_string().as_str());
            if !fits {
                return Err(FormatError::new(
                    Some(&path),
                    ErrorKind::Corrupt(format!(
                        "not shard {place} of the table {} indexes",
                        index.display()
                    )),
                ));
            }
            shards.push(t);
        }
        Ok(ShardedTable {
            index: idx,
            shards,
            per_shard,
            definition_hash,
        })
    }

    /// The index.
    pub fn index(&self) -> &ShardIndex {
        &self.index
    }

    /// The table's definition hash.
    pub fn definition_hash(&self) -> u64 {
        self.definition_hash
    }

    /// Number of ranks.
    pub fn states(&self) -> u64 {
        self.index.states
    }

    /// The shards, in rank order.
    pub fn shards(&self) -> &[Table] {
        &self.shards
    }

    /// The shard files, in rank order, with their directory.
    pub fn shard_paths(&self) -> Vec<PathBuf> {
        self.shards
            .iter()
            .filter_map(|t| t.path().map(Path::to_path_buf))
            .collect()
    }

    /// The whole table's header, as its one-file form would have it, but for
    /// the checksum ([`ShardedTable::header`] computes it; here it is
    /// empty): the first shard's, with the whole table's states, the bytes of
    /// all the shards, their payloads' length, and no place keys.
    pub fn header_unhashed(&self) -> HeaderInfo {
        let mut h = self.shards[0].info().clone();
        h.states = self.index.states;
        h.bytes = self.shards.iter().map(|t| t.info().bytes).sum();
        h.payload_bytes = self.shards.iter().map(|t| t.info().payload_bytes).sum();
        h.checksum = String::new();
        h.meta.retain(|(k, _)| !PLACE_KEYS.contains(&k.as_str()));
        h
    }

    /// [`ShardedTable::header_unhashed`] with, as `checksum`, the xxh3-128 of
    /// the shards' payloads end to end. Those payloads are the one-file
    /// form's payload, so the checksum is that form's too. It is computed
    /// here, a pass over every shard.
    pub fn header(&self) -> HeaderInfo {
        let mut h = self.header_unhashed();
        h.checksum = crate::joined_checksum_hex(self.shards.iter().map(Table::payload));
        h
    }

    /// The value of rank `i` (`i < states()`).
    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        let k = (i / self.per_shard) as usize;
        self.shards[k]
            .dense()
            .map_or(0, |d| d.get(i - k as u64 * self.per_shard))
    }
}
