//! `tablegen install`: puts published tables into the table directory, all or
//! none, each checked against its manifest entry and the catalog first. A
//! sharded table's index and shards are checked one against the other too,
//! and its whole payload's checksum against the entry's.

use super::{bad, check_tables_dir, quote, show_path};
use std::path::{Path, PathBuf};
use tablegen::artifact::{artifact_path, check_against_catalog, shards_path};
use tablegen::catalog::{self, TableDef};
use tablegen::outln;

#[derive(clap::Args)]
pub struct Args {
    /// Directory written by `tablegen publish`.
    #[arg(long)]
    from: PathBuf,
}

/// One manifest entry, as `tablegen publish` writes it, checked for form.
struct Entry {
    def: TableDef,
    /// The payload checksum (a sharded table's: its shards' end to end).
    checksum: String,
    bytes: u64,
    states: u64,
    histogram: Vec<u64>,
    definition_hash: String,
    form: Form,
}

/// How a table is published.
enum Form {
    /// One compressed file.
    File(Compressed),
    /// An index file (not compressed) and compressed shards.
    Shards {
        index: String,
        index_sha256: String,
        shards: Vec<Compressed>,
    },
}

/// A compressed table file in the release and what it must hold.
struct Compressed {
    file: String,
    /// The payload checksum of the table file.
    checksum: String,
    /// The SHA-256 of the table file.
    sha256: String,
    compressed_checksum: String,
    compressed_sha256: String,
    compressed_bytes: Option<u64>,
}

/// The largest shard index read.
const MAX_INDEX_BYTES: u64 = 16 << 20;

/// The largest compressed file read (a compressed table is never much larger
/// than the table itself).
const MAX_COMPRESSED_BYTES: u64 = tablefmt::MAX_FILE_BYTES + (1 << 20);

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    let from = &args.from;
    let mpath = from.join("manifest.json");
    let text = std::fs::read_to_string(&mpath).map_err(|e| {
        bad(format!(
            "cannot read {}: {}",
            show_path(&mpath),
            tablefmt::io_reason(&e)
        ))
    })?;
    let manifest: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| bad(format!("{}: not a manifest: {e}", show_path(&mpath))))?;
    let list = manifest["tables"]
        .as_array()
        .ok_or_else(|| bad(format!("{}: no \"tables\" list", show_path(&mpath))))?;
    // Every entry is checked for form before any file is read or written.
    let mut entries = Vec::with_capacity(list.len());
    for (i, t) in list.iter().enumerate() {
        let e = parse_entry(t)
            .map_err(|msg| bad(format!("{} entry {}: {msg}", show_path(&mpath), i + 1)))?;
        if entries.iter().any(|o: &Entry| o.def.id == e.def.id) {
            return Err(bad(format!(
                "{} entry {}: table {} is listed twice",
                show_path(&mpath),
                i + 1,
                e.def.id
            )));
        }
        entries.push(e);
    }
    check_tables_dir(tables)?;
    let created = std::fs::symlink_metadata(tables).is_err();
    std::fs::create_dir_all(tables).map_err(|e| {
        bad(format!(
            "cannot create table directory {}: {}",
            show_path(tables),
            tablefmt::io_reason(&e)
        ))
    })?;
    let result = stage_and_commit(tables, from, &entries);
    if result.is_err() && created {
        // Nothing was installed: leave no new empty directory either.
        let _ = std::fs::remove_dir(tables);
    }
    for e in result? {
        outln!("installed {} -> {}", e.0, show_path(&e.1))?;
    }
    Ok(())
}

/// Decompresses and checks every entry into temporary files in the table
/// directory, then renames them all into place (all or none), then removes
/// the other form of each table (one file or shards) and shards no longer
/// used. On any failure the temporary files are removed and the table
/// directory is as it was.
fn stage_and_commit(
    tables: &Path,
    from: &Path,
    entries: &[Entry],
) -> anyhow::Result<Vec<(&'static str, PathBuf)>> {
    let mut staged = Vec::with_capacity(entries.len());
    let mut done = Vec::with_capacity(entries.len());
    let mut old_shards = Vec::with_capacity(entries.len());
    for e in entries {
        old_shards.push(tablegen::artifact::shard_files(&shards_path(
            tables, e.def.id,
        )));
        match &e.form {
            Form::File(c) => {
                let dst = artifact_path(tables, e.def.id);
                let file = stage(from, &dst, c, |h| {
                    check_header(e, h).map_err(|msg| {
                        format!(
                            "{}: holds a table that does not match its manifest entry ({}): {msg}",
                            show_path(&from.join(&c.file)),
                            e.def.id
                        )
                    })
                })?;
                staged.push(file);
                done.push((e.def.id, dst));
            }
            Form::Shards { .. } => {
                staged.extend(stage_sharded(tables, from, e)?);
                done.push((e.def.id, shards_path(tables, e.def.id)));
            }
        }
    }
    tablefmt::commit_all(staged)?;
    for (e, old) in entries.iter().zip(&old_shards) {
        let sharded = matches!(e.form, Form::Shards { .. });
        tablegen::artifact::remove_other_forms(tables, e.def.id, sharded, old);
    }
    Ok(done)
}

/// Stages a sharded table: its index, checked against the entry and the
/// catalog; each shard, checked against its entry and the index; the whole
/// payload's checksum against the entry's.
fn stage_sharded(
    tables: &Path,
    from: &Path,
    e: &Entry,
) -> anyhow::Result<Vec<tablefmt::StagedFile>> {
    let Form::Shards {
        index,
        index_sha256,
        shards,
    } = &e.form
    else {
        return Ok(Vec::new());
    };
    let src = from.join(index);
    let shown = show_path(&src);
    let text = read_limited(&src, MAX_INDEX_BYTES)?;
    let sha = tablefmt::sha256_hex(&text);
    if sha != *index_sha256 {
        return Err(bad(format!(
            "{shown}: SHA-256 {sha}, the manifest says {index_sha256}"
        )));
    }
    let idx: tablefmt::ShardIndex = serde_json::from_slice(&text)
        .map_err(|err| bad(format!("{shown}: not a shard index: {err}")))?;
    let n = idx.shards.len();
    let fits = idx.id == e.def.id
        && idx.definition_hash == e.definition_hash
        && idx.states == e.states
        && idx.histogram == e.histogram
        && idx.encoding == e.def.encoding
        && n == shards.len()
        && idx.shards.iter().map(|s| s.bytes).sum::<u64>() == e.bytes
        && idx
            .shards
            .iter()
            .enumerate()
            .all(|(k, s)| s.file == tablefmt::shard_file_name(e.def.id, k, n));
    if !fits {
        return Err(bad(format!(
            "{shown}: not the index of the table its manifest entry describes ({})",
            e.def.id
        )));
    }
    let mut staged = Vec::with_capacity(n + 1);
    for (k, (s, c)) in idx.shards.iter().zip(shards).enumerate() {
        let place = format!("{k}/{n}");
        let first = s.first_state.to_string();
        let file = stage(from, &tables.join(&s.file), c, |h| {
            let fits = check_against_catalog(&e.def, h).is_ok()
                && h.checksum == s.checksum
                && h.checksum == c.checksum
                && h.states == s.states
                && h.bytes == s.bytes
                && h.histogram == e.histogram
                && h.meta_value("shard") == Some(place.as_str())
                && h.meta_value("first-state") == Some(first.as_str());
            if fits {
                Ok(())
            } else {
                Err(format!(
                    "{}: not shard {place} of the table its manifest entry describes ({})",
                    show_path(&from.join(&c.file)),
                    e.def.id
                ))
            }
        })?;
        staged.push(file);
    }
    let mut tables_read = Vec::with_capacity(n);
    for f in &staged {
        let opts = tablefmt::OpenOptions {
            verify_checksum: false,
            expect_id: None,
        };
        tables_read.push(tablefmt::Table::open(f.temp_path(), &opts)?);
    }
    let sum = tablefmt::joined_checksum_hex(tables_read.iter().map(tablefmt::Table::payload));
    drop(tables_read);
    if sum != e.checksum {
        return Err(bad(format!(
            "{shown}: the shards' payloads have checksum {sum}, the manifest says {} ({})",
            e.checksum, e.def.id
        )));
    }
    let target = shards_path(tables, e.def.id);
    staged.push(tablefmt::StagedFile::create(&target, |f| {
        use std::io::Write;
        f.write_all(&text)
            .map_err(|err| tablefmt::FormatError::io(&target, "cannot write", err))
    })?);
    Ok(staged)
}

/// Reads a regular file of at most `limit` bytes.
fn read_limited(src: &Path, limit: u64) -> anyhow::Result<Vec<u8>> {
    let shown = show_path(src);
    let md = std::fs::symlink_metadata(src)
        .map_err(|err| bad(format!("{shown}: {}", tablefmt::io_reason(&err))))?;
    if !md.is_file() {
        return Err(bad(format!(
            "{shown}: not a regular file but {}",
            tablefmt::file_kind(&md.file_type())
        )));
    }
    if md.len() > limit {
        return Err(bad(format!(
            "{shown}: {} bytes, more than such a file can be ({limit})",
            md.len()
        )));
    }
    std::fs::read(src).map_err(|err| bad(format!("{shown}: {}", tablefmt::io_reason(&err))))
}

/// Reads, checks, decompresses and verifies one compressed file into a
/// staged (temporary, not yet in place) file for `dst`, whose header must
/// pass `check` (which gives the whole error line).
fn stage(
    from: &Path,
    dst: &Path,
    c: &Compressed,
    check: impl FnOnce(&tablefmt::HeaderInfo) -> Result<(), String>,
) -> anyhow::Result<tablefmt::StagedFile> {
    let src = from.join(&c.file);
    let shown = show_path(&src);
    let z = read_limited(&src, MAX_COMPRESSED_BYTES)?;
    if let Some(want) = c.compressed_bytes {
        if z.len() as u64 != want {
            return Err(bad(format!(
                "{shown}: {} bytes, the manifest says {want}",
                z.len()
            )));
        }
    }
    let sum = tablefmt::checksum_hex(&z);
    if sum != c.compressed_checksum {
        return Err(bad(format!(
            "{shown}: checksum {sum}, the manifest says {}",
            c.compressed_checksum
        )));
    }
    let sha = tablefmt::sha256_hex(&z);
    if sha != c.compressed_sha256 {
        return Err(bad(format!(
            "{shown}: SHA-256 {sha}, the manifest says {}",
            c.compressed_sha256
        )));
    }
    let (staged, h) = tablefmt::stage_decompressed(z.as_slice(), &src, dst)?;
    check(&h).map_err(bad)?;
    let sha = tablefmt::file_sha256(staged.temp_path())?;
    if sha != c.sha256 {
        return Err(bad(format!(
            "{shown}: decompresses to a file with SHA-256 {sha}, the manifest says {}",
            c.sha256
        )));
    }
    Ok(staged)
}

/// Compares a decompressed table's header with every field of its manifest
/// entry and with the catalog.
fn check_header(e: &Entry, h: &tablefmt::HeaderInfo) -> Result<(), String> {
    check_against_catalog(&e.def, h).map_err(|m| m.to_string())?;
    let hash = format!("{:016x}", h.definition_hash);
    let fields: [(&str, String, String); 5] = [
        ("checksum", h.checksum.clone(), e.checksum.clone()),
        ("bytes", h.bytes.to_string(), e.bytes.to_string()),
        ("states", h.states.to_string(), e.states.to_string()),
        (
            "histogram",
            format!("{:?}", h.histogram),
            format!("{:?}", e.histogram),
        ),
        ("definition_hash", hash, e.definition_hash.clone()),
    ];
    for (name, got, want) in fields {
        if got != want {
            return Err(format!(
                "{name} is {}, the manifest says {}",
                cut(&got),
                cut(&want)
            ));
        }
    }
    if e.def.expected_states > 0 && h.states != e.def.expected_states {
        return Err(format!(
            "{} states, the catalog expects {}",
            h.states, e.def.expected_states
        ));
    }
    if let Some(want) = e.def.expected_histogram {
        if h.histogram.as_slice() != want {
            return Err(format!(
                "histogram {:?} differs from the catalog's {:?}",
                h.histogram, want
            ));
        }
    }
    Ok(())
}

/// A long field value for a message (a histogram), cut.
fn cut(s: &str) -> String {
    if s.chars().count() <= 120 {
        s.to_string()
    } else {
        let head: String = s.chars().take(120).collect();
        format!("{head}…")
    }
}

/// Checks an entry's form: a catalog id, a plain file name, the checksums,
/// SHA-256 hashes and figures `tablegen publish` writes.
fn parse_entry(t: &serde_json::Value) -> Result<Entry, String> {
    if !t.is_object() {
        return Err("not an object".into());
    }
    let number = |k: &str| -> Result<u64, String> {
        t[k].as_u64().ok_or_else(|| format!("no \"{k}\" count"))
    };
    let id = text(t, "id")?;
    if !catalog::is_id_syntax(id) {
        return Err(format!("{} is not a table id", quote(id)));
    }
    let def = catalog::find(id)
        .ok_or_else(|| format!("{} is not in the catalog (see `tablegen list`)", quote(id)))?;
    let histogram = t["histogram"]
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_u64()).collect::<Option<Vec<_>>>())
        .ok_or("no \"histogram\" list of counts")?;
    let definition_hash = hex(t, "definition_hash", 16)?;
    let want_hash = format!("{:016x}", def.definition_hash());
    if definition_hash != want_hash {
        return Err(format!(
            "{id}: \"definition_hash\" {definition_hash} is not the catalog's {want_hash} (a table built from another definition)"
        ));
    }
    let checksum = hex(t, "checksum", 32)?;
    let form = match &t["shards"] {
        serde_json::Value::Null => Form::File(compressed(t, &checksum)?),
        serde_json::Value::Array(list) => {
            let index = plain_file_name(t, "index")?;
            if index != format!("{id}{}", tablefmt::SHARD_INDEX_SUFFIX) {
                return Err(format!(
                    "\"index\" {} is not {id}{}",
                    quote(&index),
                    tablefmt::SHARD_INDEX_SUFFIX
                ));
            }
            let shards = list
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    hex(s, "checksum", 32)
                        .and_then(|sum| compressed(s, &sum))
                        .map_err(|msg| format!("shard {k}: {msg}"))
                })
                .collect::<Result<Vec<_>, String>>()?;
            if shards.is_empty() {
                return Err("\"shards\" is empty".into());
            }
            Form::Shards {
                index,
                index_sha256: hex(t, "index_sha256", 64)?,
                shards,
            }
        }
        _ => return Err("\"shards\" is not a list".into()),
    };
    Ok(Entry {
        checksum,
        form,
        bytes: number("bytes")?,
        states: number("states")?,
        histogram,
        definition_hash,
        def,
    })
}

/// Field `k` of `t`, a string.
fn text<'a>(t: &'a serde_json::Value, k: &str) -> Result<&'a str, String> {
    t[k].as_str().ok_or_else(|| format!("no \"{k}\" string"))
}

/// Field `k` of `t`, `len` lower-case hex digits.
fn hex(t: &serde_json::Value, k: &str, len: usize) -> Result<String, String> {
    let v = text(t, k)?;
    if v.len() == len
        && v.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(v.to_string())
    } else {
        Err(format!(
            "\"{k}\" is {}, not {len} lower-case hex digits",
            quote(v)
        ))
    }
}

/// Field `k` of `t`, a plain file name in the release directory.
fn plain_file_name(t: &serde_json::Value, k: &str) -> Result<String, String> {
    let file = text(t, k)?;
    if is_plain_file_name(file) {
        Ok(file.to_string())
    } else {
        Err(format!(
            "\"{k}\" {} is not a plain file name in the release directory",
            quote(file)
        ))
    }
}

/// The fields of a compressed file in an entry (the table's or a shard's),
/// whose table file has payload checksum `checksum`.
fn compressed(t: &serde_json::Value, checksum: &str) -> Result<Compressed, String> {
    let compressed_bytes = match &t["compressed_bytes"] {
        serde_json::Value::Null => None,
        v => Some(v.as_u64().ok_or("\"compressed_bytes\" is not a count")?),
    };
    Ok(Compressed {
        file: plain_file_name(t, "file")?,
        checksum: checksum.to_string(),
        sha256: hex(t, "sha256", 64)?,
        compressed_checksum: hex(t, "compressed_checksum", 32)?,
        compressed_sha256: hex(t, "compressed_sha256", 64)?,
        compressed_bytes,
    })
}

/// A file name with no directory part: not empty, no separator, not `.` or
/// `..`, not absolute.
fn is_plain_file_name(name: &str) -> bool {
    let p = Path::new(name);
    !name.is_empty()
        && !name.contains(['/', '\\', '\0'])
        && name != "."
        && name != ".."
        && !p.is_absolute()
        && p.components().count() == 1
        && matches!(p.components().next(), Some(std::path::Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_file_names() {
        for ok in ["pyraminx.tbl.zst", "a", ".hidden.zst", "a..b"] {
            assert!(is_plain_file_name(ok), "{ok}");
        }
        for no in [
            "",
            ".",
            "..",
            "../outside.zst",
            "/etc/passwd",
            "a/b.zst",
            "a\\b",
            "./a",
            "a\0b",
        ] {
            assert!(!is_plain_file_name(no), "{no:?}");
        }
    }
}
