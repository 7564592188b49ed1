//! `tablegen install`: puts published tables into the table directory, from
//! the directory `tablegen publish` wrote or from its URL after an upload
//! ([`tablegen::install`]).

use super::show_path;
use std::path::PathBuf;
use std::time::Duration;
use tablegen::install::{self, Source, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECS};
use tablegen::outln;

pub const AFTER_HELP: &str = "\
Every file is checked against the manifest (sizes, xxh3 and SHA-256) and the
catalog before any table is placed; then all are placed, or none. A download
goes beside its table under a temporary name (.FILE.SHA.part) and a later run
continues it with an HTTP range request. Each attempt gives up when the server
does not answer for --timeout seconds (connecting, or any read); a failed
attempt is tried again --retries times, after 1, 2, 4, then 8 s. Exit code 2
for a bad or tampered release, 1 for a network failure.

Example:
  tablegen install --from release/
  tablegen install --from https://github.com/OWNER/REPO/releases/download/v1/manifest.json
  tablegen install 4x4x4-wings-pair --from https://example.org/tables/ --timeout 10";

#[derive(clap::Args)]
pub struct Args {
    /// Tables to install (default: every table the manifest lists).
    #[arg(value_name = "ID")]
    ids: Vec<String>,
    /// The directory `tablegen publish` wrote, or the http(s) URL of its
    /// manifest or of the directory holding it (default: --tables-from,
    /// else $CUBE_TABLES_FROM).
    #[arg(long, value_name = "DIR|URL")]
    from: Option<PathBuf>,
    /// Seconds to wait to connect, and for each read, before an attempt fails.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    timeout: u64,
    /// How many times a failed download is tried again.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_RETRIES,
          value_parser = clap::value_parser!(u32).range(0..=10))]
    retries: u32,
    /// Print no download progress.
    #[arg(long, short)]
    quiet: bool,
}

/// The source a path argument names: a URL when it is one, else a directory.
pub fn source_of(p: PathBuf) -> Source {
    match p.to_str() {
        Some(text) => Source::new(text),
        None => Source::Dir(p),
    }
}

pub fn run(tables: &std::path::Path, configured: Option<Source>, args: Args) -> anyhow::Result<()> {
    let Some(source) = args.from.map(source_of).or(configured) else {
        return Err(tablegen::cli::bad(
            "no release to install from: give --from DIR|URL, --tables-from URL or $CUBE_TABLES_FROM (see `tablegen install --help`)",
        ));
    };
    let opts = install::Options {
        timeout: Duration::from_secs(args.timeout),
        retries: args.retries,
        quiet: args.quiet,
    };
    let manifest = install::Manifest::read(&source, &opts)?;
    let ids = args
        .ids
        .iter()
        .map(|id| super::lookup(id).map(|def| def.id))
        .collect::<anyhow::Result<Vec<&str>>>()?;
    let only = (!ids.is_empty()).then_some(ids.as_slice());
    for e in install::install(tables, &manifest, only, &opts)? {
        outln!("installed {} -> {}", e.id, show_path(&e.path))?;
    }
    Ok(())
}
