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

/// An error caused by the user's input (exit code 2).
#[derive(Debug)]
pub struct BadInput(pub String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BadInput {}

/// A bad-input error.
pub fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

/// Maps a result to the process exit code, printing one line on error.
pub fn exit(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                if io.kind() == std::io::ErrorKind::BrokenPipe {
                    return ExitCode::SUCCESS;
                }
            }
            eprintln!("tablegen: {e:#}");
            let input = e.chain().any(|c| {
                c.downcast_ref::<BadInput>().is_some()
                    || c.downcast_ref::<tablefmt::FormatError>().is_some()
            });
            ExitCode::from(if input { 2 } else { 1 })
        }
    }
}

/// Looks up a catalog id, or fails with the closest ids.
pub fn lookup(id: &str) -> anyhow::Result<TableDef> {
    catalog::find(id).ok_or_else(|| {
        let close = catalog::close_ids(id);
        if close.is_empty() {
            bad(format!("unknown table id {id:?} (see `tablegen list`)"))
        } else {
            bad(format!(
                "unknown table id {id:?}; did you mean {}?",
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
