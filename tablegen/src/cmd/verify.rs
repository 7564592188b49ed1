//! `tablegen verify`: every file's structure, payload checksum and padding
//! ([`tablefmt::verify`]; for a sharded table, every shard's and each against
//! the index), that it holds the catalog table it stands for, and, when the
//! directory holding it has a `manifest.json` with an entry for that table,
//! that the whole file's SHA-256 is the entry's (for a sharded table: the
//! index's and every shard's, and the whole payload's checksum).
//!
//! `--all` checks everything in the table directory that is a table: each
//! catalog table in each form present (one file, shards and their index: both
//! when both are there), any other `*.tbl` file or shard index, and shard
//! files that no index lists.

use super::{bad, resolve, show_path, Target};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use tablegen::artifact::{check_against_catalog, locate_all, Located};
use tablegen::outln;

#[derive(clap::Args)]
pub struct Args {
    /// Table ids or artifact files.
    #[arg(value_name = "ID|FILE")]
    targets: Vec<String>,
    /// Verify everything in the table directory that is a table (see below).
    #[arg(long, conflicts_with = "targets")]
    all: bool,
}

/// What `--all` checks and what fails it, and examples: `verify --help`.
pub const AFTER_HELP: &str = "\
--all checks every table file and every sharded table (ID.shards.json and its shard files) in
the table directory: a table present in both forms has both checked. It fails (exit 2), naming
the files, when any of them is damaged or is not the table its name says, when the two forms of
a table hold different tables, and for shard files that no index lists (a sharded table without
its index cannot be read) unless the table is also there whole as one file. Warnings, which do
not fail it: a table whole in both forms (commands read the one file, the shards only take
room: remove one form, or build the table again, which keeps one), shard files left beside a
whole one-file table, and stale temporary files.

Each file that passes, unchanged for at least two seconds before its check, gets a record of the
check beside it (.NAME.verified: the file's identity and checksum), so that solvers opening it
while it stays unchanged do not hash it again; verify itself always hashes every byte.

Example:
  tablegen verify --all
  tablegen verify 4x4x4-ud-stage tables/pyraminx.tbl";

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    let (targets, strays) = if args.all {
        super::check_tables_dir(tables)?;
        scan(tables)?
    } else if args.targets.is_empty() {
        return Err(bad("name the tables or files to verify, or --all"));
    } else {
        let targets = args
            .targets
            .iter()
            .map(|t| resolve(tables, t))
            .collect::<anyhow::Result<Vec<_>>>()?;
        (targets, Vec::new())
    };
    let stray_files: usize = strays.iter().map(|s| s.files.len()).sum();
    let n = targets.len() + stray_files;
    let mut failures = Vec::new();
    // Each fault is said once: as it is found when there are several files,
    // else as the command's one error line.
    let fail = |msg: String, files: usize, failures: &mut Vec<String>| {
        if n > 1 {
            tablegen::errln!("{msg}");
        }
        failures.extend(std::iter::repeat_n(msg, files));
    };
    let mut whole: Vec<(&Target, tablefmt::HeaderInfo)> = Vec::new();
    for t in &targets {
        match check(t) {
            Ok(h) => {
                outln!(
                    "ok {} ({}, {} states)",
                    show_path(t.at.path()),
                    h.id,
                    h.states
                )?;
                whole.push((t, h));
            }
            Err(msg) => fail(msg, 1, &mut failures),
        }
    }
    // A catalog table whole in both forms: the same table twice is room
    // wasted (a warning), two different tables under one id a failure.
    for (i, (file, hf)) in whole.iter().enumerate() {
        let (Located::File(fp), Some(def)) = (&file.at, &file.def) else {
            continue;
        };
        let twin = whole[i + 1..].iter().find(|(t, _)| {
            matches!(t.at, Located::Shards(_)) && t.def.as_ref().is_some_and(|d| d.id == def.id)
        });
        let Some((shards, hs)) = twin else {
            continue;
        };
        let ip = shards.at.path();
        if hf.checksum == hs.checksum {
            tablegen::errln!(
                "warning: {} is here in both forms, {} and {} with its shards: commands read the one file, never the shards (remove one form; a build of the table keeps one)",
                def.id,
                show_path(fp),
                show_path(ip)
            );
        } else {
            fail(
                format!(
                    "{} and {}: two different tables for {} (checksums {} and {}); commands read {}: remove the form that is wrong",
                    show_path(fp),
                    show_path(ip),
                    def.id,
                    hf.checksum,
                    hs.checksum,
                    show_path(fp)
                ),
                1,
                &mut failures,
            );
        }
    }
    // Shard files no index lists: the table they belong to cannot be read
    // from them (a failure), unless it is here whole as one file (then they
    // are leftovers, a warning).
    for s in &strays {
        let whole_file = whole.iter().any(|(t, _)| {
            matches!(&t.at, Located::File(p) if p == &tablegen::artifact::artifact_path(tables, &s.table))
        });
        let what = if s.index_exists {
            format!("not listed by their index {}", show_path(&s.index))
        } else {
            format!("no index {}", show_path(&s.index))
        };
        let files = show_files(&s.files);
        if whole_file {
            tablegen::errln!(
                "warning: orphan shard files {files} ({what}; the table is whole as one file, which commands read: remove them)"
            );
        } else {
            fail(
                format!(
                    "{files}: orphan shard files, {what}: no command reads them (build or install the table again, or remove them)"
                ),
                s.files.len(),
                &mut failures,
            );
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

/// Shard files of one table that no index in the directory lists.
struct Strays {
    /// The table name of their file names.
    table: String,
    /// The index they would have.
    index: PathBuf,
    /// Whether that index is there (then it does not list them).
    index_exists: bool,
    files: Vec<PathBuf>,
}

/// Up to three paths, then how many more.
fn show_files(files: &[PathBuf]) -> String {
    let mut s: Vec<String> = files.iter().take(3).map(|f| show_path(f)).collect();
    if files.len() > 3 {
        s.push(format!("and {} more", files.len() - 3));
    }
    s.join(", ")
}

/// What `--all` checks in `dir`: each catalog table in each form present,
/// then every other table file (`*.tbl` that is not a shard's name) and
/// shard index, by name; and the shard files (`NAME.KKK-of-NNN.tbl`) that
/// no index lists, by table. An index that cannot be read lists nothing, but
/// its table's shard files are not called orphans: the index's fault is.
fn scan(dir: &Path) -> anyhow::Result<(Vec<Target>, Vec<Strays>)> {
    let mut targets: Vec<Target> = tablegen::catalog::catalog()
        .into_iter()
        .flat_map(|def| {
            locate_all(dir, def.id).into_iter().map(move |at| Target {
                at,
                def: Some(def.clone()),
            })
        })
        .collect();
    let mut names: Vec<String> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            return Err(bad(format!(
                "table directory {}: {}",
                show_path(dir),
                tablefmt::io_reason(&e)
            )))
        }
    };
    names.sort();
    for name in &names {
        let path = dir.join(name);
        if tablegen::artifact::catalog_table_of_file(&path).is_some() {
            continue;
        }
        if name.ends_with(tablefmt::SHARD_INDEX_SUFFIX) {
            targets.push(Target {
                at: Located::Shards(path),
                def: None,
            });
        } else if name.ends_with(".tbl") && tablefmt::shard_file_table(name).is_none() {
            targets.push(Target {
                at: Located::File(path),
                def: None,
            });
        }
    }
    let mut strays: Vec<Strays> = Vec::new();
    // The files the index of the table last looked at lists (`None`: it
    // cannot be read, and its fault is said as the index's).
    let mut listed: Option<(&str, Option<HashSet<PathBuf>>)> = None;
    for name in &names {
        let Some(table) = tablefmt::shard_file_table(name) else {
            continue;
        };
        let index = tablefmt::shard_index_path(dir, table);
        let index_exists = std::fs::symlink_metadata(&index).is_ok();
        let path = dir.join(name);
        if index_exists {
            if listed.as_ref().is_none_or(|(t, _)| *t != table) {
                let files = tablefmt::read_shard_index(&index).ok().map(|idx| {
                    idx.shards
                        .iter()
                        .map(|s| dir.join(&s.file))
                        .collect::<HashSet<_>>()
                });
                listed = Some((table, files));
            }
            let known = listed
                .as_ref()
                .and_then(|(_, f)| f.as_ref())
                .is_none_or(|f| f.contains(&path));
            if known {
                continue;
            }
        }
        match strays.last_mut() {
            Some(s) if s.table == table => s.files.push(path),
            _ => strays.push(Strays {
                table: table.to_string(),
                index,
                index_exists,
                files: vec![path],
            }),
        }
    }
    Ok((targets, strays))
}

/// Fully checks one artifact, that it holds the catalog table it stands for
/// (the id asked about, or its file name `<catalog-id>.tbl`; for any other file
/// name, the table its header names, if that is in the catalog), and that it is
/// the file its directory's manifest lists. The error is one line naming the
/// file.
fn check(t: &Target) -> Result<tablefmt::HeaderInfo, String> {
    let path = t.at.path();
    // Every byte is hashed; a file that passes, unchanged for a while, is
    // recorded so that solvers need not hash it again (`tablefmt::record`).
    let opts = tablefmt::OpenOptions {
        write_record: true,
        ..tablefmt::OpenOptions::default()
    };
    let opened = t.at.header(&opts).map_err(|e| e.to_string())?;
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
