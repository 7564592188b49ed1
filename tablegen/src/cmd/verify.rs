//! `tablegen verify`.

use super::{bad, resolve};
use std::path::Path;
use tablegen::artifact::artifact_path;
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
    let paths = if args.all {
        tablegen::catalog::catalog()
            .iter()
            .map(|t| artifact_path(tables, t.id))
            .filter(|p| p.exists())
            .collect()
    } else if args.targets.is_empty() {
        return Err(bad("name the tables or files to verify, or --all"));
    } else {
        args.targets
            .iter()
            .map(|t| resolve(tables, t))
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    let mut failed = None;
    for p in &paths {
        match tablefmt::verify(p) {
            Ok(h) => {
                if let Some(def) = tablegen::catalog::find(&h.id) {
                    if def.definition_hash() != h.definition_hash {
                        let msg = format!(
                            "{}: built from another definition of {} (hash {:016x}, catalog has {:016x}); rebuild it",
                            p.display(), h.id, h.definition_hash, def.definition_hash()
                        );
                        eprintln!("{msg}");
                        failed.get_or_insert(msg);
                        continue;
                    }
                }
                outln!("ok {} ({}, {} states)", p.display(), h.id, h.states)?;
            }
            Err(e) => {
                eprintln!("{e}");
                failed.get_or_insert(e.to_string());
            }
        }
    }
    match failed {
        Some(first) => Err(bad(format!("verification failed: {first}"))),
        None => Ok(()),
    }
}
