//! `tablegen publish`: zstd-compressed tables and a manifest. Each entry has
//! the table's figures and, for the raw and the compressed file, the size, the
//! xxh3-128 (`checksum`, `compressed_checksum`) and the whole-file SHA-256
//! (`sha256`, `compressed_sha256`: what `sha256sum` prints), which `install`
//! checks. A sharded table is published as its index, copied, and each shard
//! compressed; its entry lists them (`index`, `index_sha256`, `shards`), and
//! its `checksum` is the whole payload's, as in `tables/manifest.json`.

use super::{bad, show_path};
use std::path::{Path, PathBuf};
use tablegen::artifact::{check_against_catalog, locate, Located};
use tablegen::outln;

#[derive(clap::Args)]
pub struct Args {
    /// Output directory for the compressed artifacts and manifest.
    #[arg(long)]
    out: PathBuf,
    /// zstd level.
    #[arg(long, default_value_t = 19)]
    level: i32,
}

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    super::check_tables_dir(tables)?;
    let catalog = tablegen::catalog::catalog();
    if !catalog.iter().any(|def| locate(tables, def.id).is_some()) {
        return Err(bad(format!(
            "no table is built in {}: nothing to publish (see `tablegen build`)",
            show_path(tables)
        )));
    }
    if let Ok(md) = std::fs::metadata(&args.out) {
        if !md.is_dir() {
            return Err(bad(format!(
                "--out {} is not a directory but {}",
                show_path(&args.out),
                tablefmt::file_kind(&md.file_type())
            )));
        }
    }
    std::fs::create_dir_all(&args.out).map_err(|e| {
        bad(format!(
            "cannot create {}: {}",
            show_path(&args.out),
            tablefmt::io_reason(&e)
        ))
    })?;
    let mut entries = Vec::new();
    // The files of this release, by name.
    let mut written = vec!["manifest.json".to_string()];
    for def in catalog {
        let Some(at) = locate(tables, def.id) else {
            continue;
        };
        let opened = at.header(&tablefmt::OpenOptions::default())?;
        let h = &opened.header;
        // Never publish another table under this one's name.
        check_against_catalog(&def, h)
            .map_err(|m| bad(format!("{}: {m}", show_path(at.path()))))?;
        let mut entry = serde_json::json!({
            "id": def.id,
            "definition_hash": format!("{:016x}", h.definition_hash),
            "states": h.states,
            "histogram": h.histogram,
            "bytes": h.bytes,
            "checksum": h.checksum,
        });
        match (&at, &opened.shards) {
            (Located::Shards(index), Some((idx, files))) => {
                let name = super::file_name(index);
                let text = std::fs::read(index)
                    .map_err(|e| tablefmt::FormatError::io(index, "cannot read", e))?;
                tablefmt::write_atomic(&args.out.join(&name), &text)?;
                written.push(name.clone());
                let mut shards = Vec::with_capacity(files.len());
                let mut compressed = 0;
                for (s, f) in idx.shards.iter().zip(files) {
                    let mut e = compress(f, &format!("{}.zst", s.file), &args)?;
                    written.push(format!("{}.zst", s.file));
                    compressed += e["compressed_bytes"].as_u64().unwrap_or(0);
                    e["checksum"] = s.checksum.clone().into();
                    shards.push(e);
                }
                outln!(
                    "{}: {} -> {} bytes in {} shards",
                    def.id,
                    h.bytes,
                    compressed,
                    shards.len()
                )?;
                entry["index"] = name.into();
                entry["index_sha256"] = tablefmt::sha256_hex(&text).into();
                entry["shards"] = shards.into();
            }
            _ => {
                let e = compress(at.path(), &format!("{}.tbl.zst", def.id), &args)?;
                written.push(format!("{}.tbl.zst", def.id));
                outln!("{}: {} -> {} bytes", def.id, h.bytes, e["compressed_bytes"])?;
                for (k, v) in e.as_object().into_iter().flatten() {
                    entry[k] = v.clone();
                }
            }
        }
        entries.push(entry);
    }
    let manifest =
        serde_json::json!({ "generator": tablegen::artifact::generator(), "tables": entries });
    tablefmt::write_atomic(
        &args.out.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)?.as_bytes(),
    )?;
    note_other_files(&args.out, &written);
    Ok(())
}

/// Names, on standard error, the files in the release directory `out` that
/// are not in the release (`written`): left from an earlier publish, they
/// would be uploaded with the rest by mistake.
fn note_other_files(out: &Path, written: &[String]) {
    let Ok(list) = std::fs::read_dir(out) else {
        return;
    };
    let mut others: Vec<String> = list
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && !written.contains(n))
        .collect();
    if others.is_empty() {
        return;
    }
    others.sort();
    let shown = others.len().min(5);
    let more = match others.len() - shown {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    tablegen::errln!(
        "note: {} also holds {}{more}, which this release's manifest does not list (remove them before uploading the directory)",
        show_path(out),
        others[..shown].join(", ")
    );
}

/// Compresses the table file `src` into `name` in the release directory and
/// returns the fields of its entry: `file`, `sha256` (of `src`) and the
/// compressed file's `compressed_bytes`, `compressed_checksum` and
/// `compressed_sha256`.
fn compress(src: &Path, name: &str, args: &Args) -> anyhow::Result<serde_json::Value> {
    let dst = args.out.join(name);
    let (_, compressed) = tablefmt::compress_file(src, &dst, args.level)?;
    let zbytes = std::fs::read(&dst)?;
    Ok(serde_json::json!({
        "file": name,
        "sha256": tablefmt::file_sha256(src)?,
        "compressed_bytes": compressed,
        "compressed_checksum": tablefmt::checksum_hex(&zbytes),
        "compressed_sha256": tablefmt::sha256_hex(&zbytes),
    }))
}
