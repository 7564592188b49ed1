//! `tablegen publish`: zstd-compressed tables and a manifest. Each entry has
//! the table's figures and, for the raw and the compressed file, the size, the
//! xxh3-128 (`checksum`, `compressed_checksum`) and the whole-file SHA-256
//! (`sha256`, `compressed_sha256`: what `sha256sum` prints), which `install`
//! checks.

use super::{bad, show_path};
use std::path::{Path, PathBuf};
use tablegen::artifact::{artifact_path, check_against_catalog};
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
    for def in tablegen::catalog::catalog() {
        let src = artifact_path(tables, def.id);
        if !src.exists() {
            continue;
        }
        let h = tablefmt::verify(&src)?;
        // Never publish another table under this one's name.
        check_against_catalog(&def, &h).map_err(|m| bad(format!("{}: {m}", show_path(&src))))?;
        let name = format!("{}.tbl.zst", def.id);
        let dst = args.out.join(&name);
        let (raw, compressed) = tablefmt::compress_file(&src, &dst, args.level)?;
        let zbytes = std::fs::read(&dst)?;
        let sha256 = tablefmt::file_sha256(&src)?;
        outln!("{}: {} -> {} bytes", def.id, raw, compressed)?;
        entries.push(serde_json::json!({
            "id": def.id,
            "file": name,
            "definition_hash": format!("{:016x}", h.definition_hash),
            "states": h.states,
            "histogram": h.histogram,
            "bytes": raw,
            "checksum": h.checksum,
            "sha256": sha256,
            "compressed_bytes": compressed,
            "compressed_checksum": tablefmt::checksum_hex(&zbytes),
            "compressed_sha256": tablefmt::sha256_hex(&zbytes),
        }));
    }
    let manifest =
        serde_json::json!({ "generator": tablegen::artifact::generator(), "tables": entries });
    tablefmt::write_atomic(
        &args.out.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)?.as_bytes(),
    )?;
    Ok(())
}
