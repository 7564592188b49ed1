//! `tablegen install`: puts published tables into the table directory, all or
//! none, each checked against its manifest entry and the catalog first.

use super::{bad, check_tables_dir, quote, show_path};
use std::path::{Path, PathBuf};
use tablegen::artifact::{artifact_path, check_against_catalog};
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
    file: String,
    checksum: String,
    sha256: String,
    compressed_checksum: String,
    compressed_sha256: String,
    compressed_bytes: Option<u64>,
    bytes: u64,
    states: u64,
    histogram: Vec<u64>,
    definition_hash: String,
}

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

/// Decompresses and checks every entry into a temporary file in the table
/// directory, then renames them all into place (all or none). On any failure
/// the temporary files are removed and the table directory is as it was.
fn stage_and_commit(
    tables: &Path,
    from: &Path,
    entries: &[Entry],
) -> anyhow::Result<Vec<(&'static str, PathBuf)>> {
    let mut staged = Vec::with_capacity(entries.len());
    let mut done = Vec::with_capacity(entries.len());
    for e in entries {
        let dst = artifact_path(tables, e.def.id);
        staged.push(stage(from, &dst, e)?);
        done.push((e.def.id, dst));
    }
    tablefmt::commit_all(staged)?;
    Ok(done)
}

/// Reads, checks, decompresses and verifies one entry's file into a staged
/// (temporary, not yet in place) file for `dst`.
fn stage(from: &Path, dst: &Path, e: &Entry) -> anyhow::Result<tablefmt::StagedFile> {
    let src = from.join(&e.file);
    let shown = show_path(&src);
    let md = std::fs::symlink_metadata(&src)
        .map_err(|err| bad(format!("{shown}: {}", tablefmt::io_reason(&err))))?;
    if !md.is_file() {
        return Err(bad(format!(
            "{shown}: not a regular file but {}",
            tablefmt::file_kind(&md.file_type())
        )));
    }
    if md.len() > MAX_COMPRESSED_BYTES {
        return Err(bad(format!(
            "{shown}: {} bytes, more than a compressed table can be ({MAX_COMPRESSED_BYTES})",
            md.len()
        )));
    }
    let z = std::fs::read(&src)
        .map_err(|err| bad(format!("{shown}: {}", tablefmt::io_reason(&err))))?;
    if let Some(want) = e.compressed_bytes {
        if z.len() as u64 != want {
            return Err(bad(format!(
                "{shown}: {} bytes, the manifest says {want}",
                z.len()
            )));
        }
    }
    let sum = tablefmt::checksum_hex(&z);
    if sum != e.compressed_checksum {
        return Err(bad(format!(
            "{shown}: checksum {sum}, the manifest says {}",
            e.compressed_checksum
        )));
    }
    let sha = tablefmt::sha256_hex(&z);
    if sha != e.compressed_sha256 {
        return Err(bad(format!(
            "{shown}: SHA-256 {sha}, the manifest says {}",
            e.compressed_sha256
        )));
    }
    let (staged, h) = tablefmt::stage_decompressed(z.as_slice(), &src, dst)?;
    check_header(e, &h).map_err(|msg| {
        bad(format!(
            "{shown}: holds a table that does not match its manifest entry ({}): {msg}",
            e.def.id
        ))
    })?;
    let sha = tablefmt::file_sha256(staged.temp_path())?;
    if sha != e.sha256 {
        return Err(bad(format!(
            "{shown}: decompresses to a file with SHA-256 {sha}, the manifest says {} ({})",
            e.sha256, e.def.id
        )));
    }
    Ok(staged)
}

/// Compares a decompressed table's header with every field of its manifest
/// entry and with the catalog.
fn check_header(e: &Entry, h: &tablefmt::HeaderInfo) -> Result<(), String> {
    check_against_catalog(&e.def, h)?;
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
    let text = |k: &str| -> Result<&str, String> {
        t[k].as_str().ok_or_else(|| format!("no \"{k}\" string"))
    };
    let number = |k: &str| -> Result<u64, String> {
        t[k].as_u64().ok_or_else(|| format!("no \"{k}\" count"))
    };
    let hex = |k: &str, len: usize| -> Result<String, String> {
        let v = text(k)?;
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
    };
    let id = text("id")?;
    if !catalog::is_id_syntax(id) {
        return Err(format!("{} is not a table id", quote(id)));
    }
    let def = catalog::find(id)
        .ok_or_else(|| format!("{} is not in the catalog (see `tablegen list`)", quote(id)))?;
    let file = text("file")?;
    if !is_plain_file_name(file) {
        return Err(format!(
            "\"file\" {} is not a plain file name in the release directory",
            quote(file)
        ));
    }
    let histogram = t["histogram"]
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_u64()).collect::<Option<Vec<_>>>())
        .ok_or("no \"histogram\" list of counts")?;
    let compressed_bytes = match &t["compressed_bytes"] {
        serde_json::Value::Null => None,
        v => Some(v.as_u64().ok_or("\"compressed_bytes\" is not a count")?),
    };
    let definition_hash = hex("definition_hash", 16)?;
    let want_hash = format!("{:016x}", def.definition_hash());
    if definition_hash != want_hash {
        return Err(format!(
            "{id}: \"definition_hash\" {definition_hash} is not the catalog's {want_hash} (a table built from another definition)"
        ));
    }
    Ok(Entry {
        file: file.to_string(),
        checksum: hex("checksum", 32)?,
        sha256: hex("sha256", 64)?,
        compressed_checksum: hex("compressed_checksum", 32)?,
        compressed_sha256: hex("compressed_sha256", 64)?,
        compressed_bytes,
        bytes: number("bytes")?,
        states: number("states")?,
        histogram,
        definition_hash,
        def,
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
