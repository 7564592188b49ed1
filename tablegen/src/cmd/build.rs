//! `tablegen build`.

use super::{bad, lookup, show_path};
use anyhow::Context;
use std::path::Path;
use std::time::Instant;
use tablegen::artifact::{artifact_path, encode};
use tablegen::catalog::{self, format_histogram};
use tablegen::outln;
use tablegen::progress::Progress;

/// The most worker threads `--threads` accepts: far more than any machine this
/// runs on has cores, and few enough that spawning them takes no time.
const MAX_THREADS: i64 = 1024;

#[derive(clap::Args)]
pub struct Args {
    /// Table ids (see `tablegen list`).
    ids: Vec<String>,
    /// Build every table in the catalog.
    #[arg(long, conflicts_with = "ids")]
    all: bool,
    /// Worker threads, 1 to 1024 (default: all cores). The output is the same
    /// for any count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS))]
    threads: Option<u32>,
    /// No progress output.
    #[arg(long, short)]
    quiet: bool,
    /// Print one JSON object per table with the build figures.
    #[arg(long)]
    json: bool,
}

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    let defs = if args.all {
        catalog::catalog()
    } else if args.ids.is_empty() {
        return Err(bad(
            "name the tables to build, or --all (see `tablegen list`)",
        ));
    } else {
        args.ids
            .iter()
            .map(|id| lookup(id))
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    if let Some(t) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t as usize)
            .build_global()
            .context("setting up the thread pool")?;
    }
    check_writable(tables)?;
    for def in &defs {
        // Temporary files a killed build left behind (no live process holds
        // them); a build of the same table running now keeps its own.
        let path = artifact_path(tables, def.id);
        for p in tablefmt::remove_stale_temp_files(&path)? {
            if !args.quiet {
                tablegen::errln!("removed stale temporary file {}", show_path(&p));
            }
        }
    }
    for def in defs {
        let progress = Progress::new(def.id, def.expected_states, args.quiet || args.json);
        let start = Instant::now();
        let out =
            catalog::build(&def, &progress).map_err(|e| anyhow::anyhow!("{}: {e}", def.id))?;
        let secs = start.elapsed().as_secs_f64();
        if def.expected_states > 0 && out.states() != def.expected_states {
            anyhow::bail!(
                "{}: BFS reached {} states, expected {} ({}); not written",
                def.id,
                out.states(),
                def.expected_states,
                def.source
            );
        }
        let bytes = encode(&def, &out).map_err(|e| bad(e.to_string()))?;
        let path = artifact_path(tables, def.id);
        tablefmt::write_atomic(&path, &bytes).map_err(|e| bad(e.to_string()))?;
        if args.json {
            outln!(
                "{}",
                serde_json::json!({
                    "id": def.id,
                    "states": out.states(),
                    "max_depth": out.histogram.len() - 1,
                    "histogram": out.histogram,
                    "seconds": secs,
                    "states_per_second": out.states() as f64 / secs,
                    "expansions": out.expansions,
                    "expansions_per_second": out.expansions as f64 / secs,
                    "bytes": bytes.len(),
                    "threads": rayon::current_num_threads(),
                })
            )?;
        } else {
            outln!(
                "{}: {} states, max depth {}, {:.3}s ({:.1} M states/s, {:.1} M expansions/s), {} -> {}",
                def.id,
                out.states(),
                out.histogram.len() - 1,
                secs,
                out.states() as f64 / secs / 1e6,
                out.expansions as f64 / secs / 1e6,
                super::list::human(bytes.len() as u64),
                path.display()
            )?;
            outln!("  histogram {}", format_histogram(&out.histogram))?;
        }
    }
    Ok(())
}

/// Fails early (before a long BFS) if the table directory cannot be written.
fn check_writable(dir: &Path) -> anyhow::Result<()> {
    super::check_tables_dir(dir)?;
    std::fs::create_dir_all(dir).map_err(|e| {
        bad(format!(
            "cannot create table directory {}: {}",
            show_path(dir),
            tablefmt::io_reason(&e)
        ))
    })?;
    let probe = dir.join(format!(".tablegen-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| {
        bad(format!(
            "table directory {} is not writable: {}",
            show_path(dir),
            tablefmt::io_reason(&e)
        ))
    })?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}
