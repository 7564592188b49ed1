//! One module per subcommand; shared error handling.

pub mod build;
pub mod info;
pub mod install;
pub mod list;
pub mod manifest;
pub mod publish;
pub mod verify;

use std::path::Path;
use std::process::ExitCode;
use tablegen::artifact::Located;
use tablegen::catalog::{self, TableDef};

pub use tablegen::cli::{bad, quote, show_path};

/// Maps a result to the process exit code, printing one line on error.
pub fn exit(result: anyhow::Result<()>) -> ExitCode {
    tablegen::cli::exit("tablegen", result, |c| {
        c.downcast_ref::<tablegen::install::InstallError>()
            .is_some_and(tablegen::install::InstallError::is_input)
    })
}

/// Looks up a catalog id, or fails with the closest ids.
pub fn lookup(id: &str) -> anyhow::Result<TableDef> {
    catalog::find(id).ok_or_else(|| {
        let close = if id.len() <= 64 {
            catalog::close_ids(id)
        } else {
            Vec::new()
        };
        if close.is_empty() {
            bad(format!(
                "unknown table id {} (see `tablegen list`)",
                quote(id)
            ))
        } else {
            bad(format!(
                "unknown table id {}; did you mean {}?",
                quote(id),
                close.join(", ")
            ))
        }
    })
}

/// What a command-line argument names: an artifact file or a shard index,
/// and the catalog table it must hold (for an id, or a file named
/// `<catalog-id>.tbl` or `<catalog-id>.shards.json`).
pub struct Target {
    pub at: Located,
    pub def: Option<TableDef>,
}

/// Fails with one line when the table directory cannot be one (see
/// [`tablegen::artifact::tables_dir_problem`]).
pub fn check_tables_dir(tables: &Path) -> anyhow::Result<()> {
    match tablegen::artifact::tables_dir_problem(tables) {
        Some(msg) => Err(bad(msg)),
        None => Ok(()),
    }
}

/// An argument that is either an artifact file, a shard index or a catalog id.
pub fn resolve(tables: &Path, arg: &str) -> anyhow::Result<Target> {
    let p = Path::new(arg);
    // `symlink_metadata`: a dangling link or a link loop is a file argument too.
    if arg.ends_with(".tbl")
        || arg.ends_with(tablefmt::SHARD_INDEX_SUFFIX)
        || arg.contains('/')
        || std::fs::symlink_metadata(p).is_ok()
    {
        return Ok(Target {
            at: Located::of_path(p),
            def: tablegen::artifact::catalog_table_of_file(p),
        });
    }
    let def = lookup(arg)?;
    check_tables_dir(tables)?;
    let Some(at) = tablegen::artifact::locate(tables, def.id) else {
        return Err(bad(format!(
            "{} is not built (run `tablegen build {}`)",
            show_path(&tablegen::artifact::artifact_path(tables, def.id)),
            def.id
        )));
    };
    if let Err(e) = std::fs::metadata(at.path()) {
        return Err(bad(format!(
            "{}: {}",
            show_path(at.path()),
            tablefmt::io_reason(&e)
        )));
    }
    Ok(Target { at, def: Some(def) })
}

/// The last component of a path, as text (empty if it has none).
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
