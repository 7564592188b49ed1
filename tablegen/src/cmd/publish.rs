//! `tablegen publish` and `tablegen install`.

use super::bad;
use std::path::{Path, PathBuf};
use tablegen::artifact::artifact_path;
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

#[derive(clap::Args)]
pub struct InstallArgs {
    /// Directory written by `tablegen publish`.
    #[arg(long)]
    from: PathBuf,
}

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    super::check_tables_dir(tables)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| bad(format!("cannot create {}: {e}", args.out.display())))?;
    let mut entries = Vec::new();
    for def in tablegen::catalog::catalog() {
        let src = artifact_path(tables, def.id);
        if !src.exists() {
            continue;
        }
        let h = tablefmt::verify(&src)?;
        let name = format!("{}.tbl.zst", def.id);
        let dst = args.out.join(&name);
        let (raw, compressed) = tablefmt::compress_file(&src, &dst, args.level)?;
        let zbytes = std::fs::read(&dst)?;
        outln!("{}: {} -> {} bytes", def.id, raw, compressed)?;
        entries.push(serde_json::json!({
            "id": def.id,
            "file": name,
            "definition_hash": format!("{:016x}", h.definition_hash),
            "states": h.states,
            "histogram": h.histogram,
            "bytes": raw,
            "checksum": h.checksum,
            "compressed_bytes": compressed,
            "compressed_checksum": tablefmt::checksum_hex(&zbytes),
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

pub fn install(tables: &Path, args: InstallArgs) -> anyhow::Result<()> {
    let mpath = args.from.join("manifest.json");
    let text = std::fs::read_to_string(&mpath)
        .map_err(|e| bad(format!("cannot read {}: {e}", mpath.display())))?;
    let manifest: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| bad(format!("{}: not a manifest: {e}", mpath.display())))?;
    let list = manifest["tables"]
        .as_array()
        .ok_or_else(|| bad(format!("{}: no \"tables\" list", mpath.display())))?;
    super::check_tables_dir(tables)?;
    std::fs::create_dir_all(tables)
        .map_err(|e| bad(format!("cannot create {}: {e}", tables.display())))?;
    for t in list {
        let (Some(id), Some(file), Some(sum)) =
            (t["id"].as_str(), t["file"].as_str(), t["checksum"].as_str())
        else {
            return Err(bad(format!(
                "{}: entry without id/file/checksum",
                mpath.display()
            )));
        };
        let src = args.from.join(file);
        let dst = artifact_path(tables, id);
        tablefmt::decompress_file(&src, &dst)?;
        let h = tablefmt::read_header(&dst)?;
        if h.checksum != sum || h.id != id {
            return Err(bad(format!(
                "{}: installed table does not match the manifest ({} {}, expected {} {})",
                dst.display(),
                h.id,
                h.checksum,
                id,
                sum
            )));
        }
        outln!("installed {} -> {}", id, dst.display())?;
    }
    Ok(())
}
