//! One module per subcommand; shared error handling.

pub mod build;
pub mod info;
pub mod list;
pub mod manifest;
pub mod publish;
pub mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tablegen::catalog::{self, TableDef};

pub use tablegen::cli::{bad, quote, show_path};

/// Maps a result to the process exit code, printing one line on error.
pub fn exit(result: anyhow::Result<()>) -> ExitCode {
    tablegen::cli::exit("tablegen", result, |_| false)
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

/// An argument that is either an artifact file or a catalog id.
pub fn resolve(tables: &Path, arg: &str) -> anyhow::Result<PathBuf> {
    let p = Path::new(arg);
    if p.exists() || arg.ends_with(".tbl") || arg.contains('/') {
        return Ok(p.to_path_buf());
    }
    let def = lookup(arg)?;
    let path = tablegen::artifact::artifact_path(tables, def.id);
    if !path.exists() {
        return Err(bad(format!(
            "{} is not built (run `tablegen build {}`)",
            path.display(),
            def.id
        )));
    }
    Ok(path)
}
