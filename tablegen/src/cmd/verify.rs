//! `tablegen verify`: every file's structure, payload checksum and padding
//! ([`tablefmt::verify`]; for a sharded table, every shard's and each against
//! the index), that it holds the catalog table it stands for, and, when the
//! directory holding it has a `manifest.json` with an entry for that table,
//! that the whole file's SHA-256 is the entry's (for a sharded table: the
//! index's and every shard's, and the whole payload's checksum).

use super::{bad, resolve, show_path, Target};
use std::path::{Path, PathBuf};
use tablegen::artifact::{check_against_catalog, locate, Located};
use tablegen::outln;

#[derive(clap::Args)]
pub struct Args {
    /// Table ids or artifact files.
    #[arg(value_name = "ID|FILE")]
    targets: Vec<String>,
    /// Verify every built table of the catalog.
    #[arg(long, conflicts_with = "targets")]
    all: bool,
}

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    let targets: Vec<Target> = if args.all {
        super::check_tables_dir(tables)?;
        tablegen::catalog::catalog()
            .into_iter()
            .filter_map(|def| locate(tables, def.id).map(|at| Target { at, def: Some(def) }))
            .collect()
    } else if args.targets.is_empty() {
        return Err(bad("name the tables or files to verify, or --all"));
    } else {
        args.targets
            .iter()
            .map(|t| resolve(tables, t))
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    let n = targets.len();
    let mut failures = Vec::new();
    for t in &targets {
        match check(t) {
            Ok(h) => outln!(
                "ok {} ({}, {} states)",
                show_path(t.at.path()),
                h.id,
                h.states
            )?,
            Err(msg) => {
                // Each fault is said once: as it is found when there are several
                // files, else as the command's one error line.
                if n > 1 {
                    tablegen::errln!("{msg}");
                }
                failures.push(msg);
            }
        }
    }
    // Stale temporary files are warnings, not failures: they are never at a
    // table's final path, so no reader ever opens one, and every table verified
    // above is whole. They only waste disk space until the next build of their
    // table removes them.
    if args.all {
        let stale = tablefmt::stale_temp_files(tables).unwrap_or_default();
        for p in stale {
            tablegen::errln!(
                "warning: stale temporary file {} (left by an interrupted write; the next build of its table removes it)",
                show_path(&p)
            );
        }
    }
    match failures.len() {
        0 => Ok(()),
        1 if n == 1 => Err(bad(failures.remove(0))),
        k => Err(bad(format!(
            "verification failed: {k} of {n} files failed (named above)"
        ))),
    }
}

/// Fully checks one artifact, that it holds the catalog table it stands for
/// (the id asked about, or its file name `<catalog-id>.tbl`; for any other file
/// name, the table its header names, if that is in the catalog), and that it is
/// the file its directory's manifest lists. The error is one line naming the
/// file.
fn check(t: &Target) -> Result<tablefmt::HeaderInfo, String> {
    let path = t.at.path();
    let opened =
        t.at.header(&tablefmt::OpenOptions::default())
            .map_err(|e| e.to_string())?;
    let h = opened.header;
    let def = t.def.clone().or_else(|| tablegen::catalog::find(&h.id));
    if let Some(def) = &def {
        check_against_catalog(def, &h).map_err(|m| format!("{}: {m}", show_path(path)))?;
    }
    let id = def.as_ref().map_or(h.id.as_str(), |d| d.id);
    match (&t.at, &opened.shards) {
        (Located::Shards(index), Some((_, files))) => check_sharded_manifest(index, files, &h, id)?,
        _ => check_manifest(path, id)?,
    }
    Ok(h)
}

/// The entry for `id` in the `manifest.json` of the directory that holds
/// `path`, if there is such a file and entry.
fn manifest_entry(path: &Path, id: &str) -> Result<Option<(PathBuf, serde_json::Value)>, String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mpath = dir.join("manifest.json");
    let text = match std::fs::read_to_string(&mpath) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "{}: {}",
                show_path(&mpath),
                tablefmt::io_reason(&e)
            ))
        }
    };
    let manifest: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a manifest: {e}", show_path(&mpath)))?;
    let entry = manifest["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|e| e["id"] == id))
        .cloned();
    Ok(entry.map(|e| (mpath, e)))
}

/// Compares a sharded table with its manifest entry, when there is one: the
/// whole payload's checksum, the index's SHA-256 and each shard's. An entry
/// for the one-file form does not fit a sharded table.
fn check_sharded_manifest(
    index: &Path,
    files: &[PathBuf],
    h: &tablefmt::HeaderInfo,
    id: &str,
) -> Result<(), String> {
    let Some((mpath, entry)) = manifest_entry(index, id)? else {
        return Ok(());
    };
    let differs = |what: String, got: &str, want: &str| {
        format!(
            "{what}: {got}, but {} lists {want} for {id} (not the table the manifest lists)",
            show_path(&mpath)
        )
    };
    let want = entry["checksum"].as_str().unwrap_or_default();
    if h.checksum != want {
        return Err(differs(
            format!("{} checksum", show_path(index)),
            &h.checksum,
            want,
        ));
    }
    let Some(listed) = entry["shards"].as_array() else {
        return Err(format!(
            "{}: a sharded table, but {} lists {id} as one file",
            show_path(index),
            show_path(&mpath)
        ));
    };
    let want = entry["index_sha256"].as_str().unwrap_or_default();
    let got = tablefmt::file_sha256(index).map_err(|e| e.to_string())?;
    if got != want {
        return Err(differs(format!("{} SHA-256", show_path(index)), &got, want));
    }
    if listed.len() != files.len() {
        return Err(format!(
            "{}: {} shards, but {} lists {} for {id}",
            show_path(index),
            files.len(),
            show_path(&mpath),
            listed.len()
        ));
    }
    for (file, e) in files.iter().zip(listed) {
        let want = e["sha256"].as_str().unwrap_or_default();
        let got = tablefmt::file_sha256(file).map_err(|e| e.to_string())?;
        if got != want {
            return Err(differs(format!("{} SHA-256", show_path(file)), &got, want));
        }
    }
    Ok(())
}

/// Compares the whole file's SHA-256 with the entry for `id` in the
/// `manifest.json` of the directory that holds the file, when there is such an
/// entry. The structure check and the payload checksum already catch any
/// changed byte; this also catches a whole, valid table that is not the one
/// the manifest lists (an older build, another generator).
fn check_manifest(path: &Path, id: &str) -> Result<(), String> {
    let Some((mpath, entry)) = manifest_entry(path, id)? else {
        return Ok(());
    };
    let Some(want) = entry["sha256"].as_str() else {
        if entry["shards"].is_array() {
            return Err(format!(
                "{}: one file, but {} lists {id} as a sharded table",
                show_path(path),
                show_path(&mpath)
            ));
        }
        return Ok(());
    };
    let got = tablefmt::file_sha256(path).map_err(|e| e.to_string())?;
    if got != want {
        return Err(format!(
            "{}: SHA-256 {got}, but {} lists {want} for {id} (not the file the manifest lists)",
            show_path(path),
            show_path(&mpath)
        ));
    }
    Ok(())
}
