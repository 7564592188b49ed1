//! `tablegen manifest`: writes `manifest.json` for the table directory, or checks
//! that the small tables rebuild to the recorded bytes.
//!
//! Each entry records the table's header figures and two hashes: `checksum`,
//! the xxh3-128 of the payload that the file's header holds too, and `sha256`,
//! the SHA-256 of the whole file (what `sha256sum` prints), which `verify`
//! compares with every built table that has an entry. A sharded table's
//! entry has, instead of `sha256`, `index_sha256` and a `shards` list (each
//! shard's file, bytes, payload checksum and SHA-256); its `checksum` is that
//! of the shards' payloads end to end, which is the one-file form's, and
//! `bytes` the shards' in all.

use super::bad;
use std::path::Path;
use tablegen::artifact::{artifact_path, encode, locate, Located};
use tablegen::catalog::{self, TableDef};
use tablegen::outln;
use tablegen::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// Rebuild every table of at most this many states in memory and compare its
    /// checksum with the manifest instead of writing it.
    #[arg(long, value_name = "MAX_STATES")]
    check: Option<u64>,
}

/// The manifest entry of an artifact, checked: one file, or a sharded
/// table's index and shards.
fn entry(def: &TableDef, at: &Located) -> anyhow::Result<serde_json::Value> {
    let opened = at.header(&tablefmt::OpenOptions::default())?;
    let h = &opened.header;
    tablegen::artifact::check_against_catalog(def, h)
        .map_err(|m| bad(format!("{}: {m}", super::show_path(at.path()))))?;
    let mut e = serde_json::json!({
        "id": def.id,
        "puzzle": def.puzzle,
        "storage": def.storage(),
        "encoding": h.encoding.to_string(),
        "definition_hash": format!("{:016x}", h.definition_hash),
        "states": h.states,
        "histogram": h.histogram,
        "bytes": h.bytes,
        "checksum": h.checksum,
    });
    match &opened.shards {
        None => e["sha256"] = tablefmt::file_sha256(at.path())?.into(),
        Some((index, files)) => {
            e["index"] = super::file_name(at.path()).into();
            e["index_sha256"] = tablefmt::file_sha256(at.path())?.into();
            let shards = index
                .shards
                .iter()
                .zip(files)
                .map(|(s, f)| {
                    Ok(serde_json::json!({
                        "file": s.file,
                        "bytes": s.bytes,
                        "checksum": s.checksum,
                        "sha256": tablefmt::file_sha256(f)?,
                    }))
                })
                .collect::<Result<Vec<_>, tablefmt::FormatError>>()?;
            e["shards"] = shards.into();
        }
    }
    Ok(e)
}

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    super::check_tables_dir(tables)?;
    let path = tables.join("manifest.json");
    if let Some(max) = args.check {
        return check(&path, max);
    }
    // A table that is not built here keeps the entry it has in the old manifest.
    let old: Option<serde_json::Value> = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let mut entries = Vec::new();
    for def in catalog::catalog() {
        let file = artifact_path(tables, def.id);
        let Some(at) = locate(tables, def.id) else {
            let kept = old.as_ref().and_then(|m| {
                m["tables"]
                    .as_array()
                    .and_then(|t| t.iter().find(|e| e["id"] == def.id).cloned())
            });
            match kept {
                Some(e) if e["definition_hash"] == format!("{:016x}", def.definition_hash()) => {
                    entries.push(e);
                    continue;
                }
                _ => {
                    return Err(bad(format!(
                        "{} is missing: build it first (`tablegen build {}`)",
                        file.display(),
                        def.id
                    )))
                }
            }
        };
        entries.push(entry(&def, &at)?);
    }
    let text = serde_json::to_string_pretty(&serde_json::json!({ "tables": entries }))?;
    tablefmt::write_atomic(&path, format!("{text}\n").as_bytes())?;
    outln!("wrote {} ({} tables)", path.display(), entries.len())?;
    Ok(())
}

fn check(path: &Path, max_states: u64) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad(format!("cannot read {}: {e}", path.display())))?;
    let manifest: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| bad(format!("{}: not JSON: {e}", path.display())))?;
    let mut failures = 0;
    for def in catalog::catalog() {
        let Some(want) = manifest["tables"]
            .as_array()
            .and_then(|t| t.iter().find(|e| e["id"] == def.id))
        else {
            tablegen::errln!("{}: not in {}", def.id, path.display());
            failures += 1;
            continue;
        };
        let states = want["states"].as_u64().unwrap_or(u64::MAX);
        if states > max_states {
            outln!("skip {} ({} states)", def.id, states)?;
            continue;
        }
        let out = catalog::build(&def, &Progress::hidden())?;
        let bytes = encode(&def, &out)?;
        let got = tablefmt::Table::from_bytes(&bytes, &Default::default())?;
        // A sharded entry's bytes and SHA-256 are its shards'; its checksum
        // is the one file's all the same.
        let one_file = !want["shards"].is_array();
        let same = got.info().checksum == want["checksum"].as_str().unwrap_or_default()
            && format!("{:016x}", got.info().definition_hash)
                == want["definition_hash"].as_str().unwrap_or_default()
            && (!one_file
                || (bytes.len() as u64 == want["bytes"].as_u64().unwrap_or_default()
                    && tablefmt::sha256_hex(&bytes)
                        == want["sha256"].as_str().unwrap_or_default()));
        if same {
            outln!("ok {} {}", def.id, got.info().checksum)?;
        } else {
            tablegen::errln!(
                "{}: rebuilt {} ({} bytes, sha256 {}), manifest has {} ({} bytes, sha256 {})",
                def.id,
                got.info().checksum,
                bytes.len(),
                tablefmt::sha256_hex(&bytes),
                want["checksum"],
                want["bytes"],
                want["sha256"]
            );
            failures += 1;
        }
    }
    if failures > 0 {
        return Err(bad(format!(
            "{failures} table(s) differ from {}",
            path.display()
        )));
    }
    Ok(())
}
