//! `tablegen verify`: every file's structure, payload checksum and padding
//! ([`tablefmt::verify`]), that it holds the catalog table it stands for, and,
//! when the directory holding it has a `manifest.json` with an entry for that
//! table, that the whole file's SHA-256 is the entry's.

use super::{bad, resolve, show_path, Target};
use std::path::Path;
use tablegen::artifact::{artifact_path, check_against_catalog};
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
            .map(|def| Target {
                path: artifact_path(tables, def.id),
                def: Some(def),
            })
            .filter(|t| std::fs::symlink_metadata(&t.path).is_ok())
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
            Ok(h) => outln!("ok {} ({}, {} states)", show_path(&t.path), h.id, h.states)?,
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
    let h = tablefmt::verify(&t.path).map_err(|e| e.to_string())?;
    let def = t.def.clone().or_else(|| tablegen::catalog::find(&h.id));
    if let Some(def) = &def {
        check_against_catalog(def, &h).map_err(|m| format!("{}: {m}", show_path(&t.path)))?;
    }
    check_manifest(&t.path, def.as_ref().map_or(h.id.as_str(), |d| d.id))?;
    Ok(h)
}

/// Compares the whole file's SHA-256 with the entry for `id` in the
/// `manifest.json` of the directory that holds the file, when there is such an
/// entry. The structure check and the payload checksum already catch any
/// changed byte; this also catches a whole, valid table that is not the one
/// the manifest lists (an older build, another generator).
fn check_manifest(path: &Path, id: &str) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mpath = dir.join("manifest.json");
    let text = match std::fs::read_to_string(&mpath) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
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
        .and_then(|t| t.iter().find(|e| e["id"] == id));
    let Some(want) = entry.and_then(|e| e["sha256"].as_str()) else {
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
