//! `tablegen build`.

use super::{bad, lookup, quote, show_path};
use anyhow::Context;
use std::path::Path;
use std::time::Instant;
use tablegen::artifact::{artifact_path, Written};
use tablegen::catalog::{self, format_histogram, Engine};
use tablegen::dist::Cluster;
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
    /// Run the BFS on timely dataflow with this many workers per process (1
    /// to 1024). The table is the same as the in-memory engine's.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS), conflicts_with = "threads")]
    workers: Option<u32>,
    /// Timely processes in the build (1 to 1024); each runs this command
    /// with its own --process. Process 0 writes the table.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS), conflicts_with = "threads", requires = "process")]
    processes: Option<u32>,
    /// Seconds the processes of a build have to meet; past it, the build
    /// stops (exit 1) naming the processes that never came.
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = parse_secs, requires = "processes")]
    meet_timeout: f64,
    /// With --workers or --processes: stop (exit 1) once the layer of this
    /// depth is found and saved; the same command without it resumes there.
    #[arg(long, value_name = "DEPTH")]
    stop_after: Option<u8>,
    /// Out of core: keep the build's states on disk (next to the table), in
    /// sequential files, using at most about this much memory per process
    /// for them, e.g. `512M` or `4GiB` (at least 1 MiB). Runs on timely, one
    /// worker unless --workers says more. Slower; the table is the same.
    #[arg(long, value_name = "BYTES", value_parser = parse_memory_limit, conflicts_with = "threads")]
    memory_limit: Option<u64>,
    /// Largest table file to write, at least 1 MiB and at most the default,
    /// 100 MB; a table that does not fit is written as shards of at most
    /// this size with an index, `ID.shards.json` (opened as one table).
    #[arg(long, value_name = "BYTES", value_parser = parse_shard_bytes)]
    shard_bytes: Option<u64>,
    /// This process's index, 0 to --processes minus 1.
    #[arg(long, requires = "processes")]
    process: Option<u32>,
    /// File of `host:port` lines, one per process in index order (default:
    /// localhost ports 2101 and up).
    #[arg(long, requires = "processes")]
    hosts: Option<std::path::PathBuf>,
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
    let engine = engine(&args)?;
    let writer = match &engine {
        Engine::Timely(c) => c.process == 0,
        Engine::InMemory => true,
    };
    if let Engine::Timely(_) = engine {
        if let Some(d) = defs.iter().find(|d| d.storage() != "dense") {
            return Err(bad(format!(
                "{} is a sparse table: --workers, --processes and --memory-limit build dense tables only",
                d.id
            )));
        }
    }
    if writer {
        check_writable(tables)?;
    }
    for def in defs.iter().filter(|_| writer) {
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
        // A timely build keeps a checkpoint per layer next to the table and
        // resumes from it when run again after a failure.
        let engine = match &engine {
            Engine::Timely(c) => Engine::Timely(Cluster {
                checkpoint: Some((resume_dir(tables, def.id), def.definition_hash())),
                ..c.clone()
            }),
            e => e.clone(),
        };
        let out = catalog::build_with(&def, &engine, &progress)
            .map_err(|e| anyhow::anyhow!("{}: {e}", def.id))?;
        let secs = start.elapsed().as_secs_f64();
        let Some(out) = out else {
            if !args.json {
                outln!(
                    "{}: this process's part is done ({:.3}s); process 0 writes the table",
                    def.id,
                    secs
                )?;
            }
            continue;
        };
        if def.expected_states > 0 && out.states() != def.expected_states {
            anyhow::bail!(
                "{}: BFS reached {} states, expected {} ({}); not written",
                def.id,
                out.states(),
                def.expected_states,
                def.source
            );
        }
        let max_file = args.shard_bytes.unwrap_or(tablefmt::MAX_FILE_BYTES);
        // A table file fault exits 2, a full disk 1 (tablegen::cli::exit).
        let written = tablegen::artifact::write(&def, &out, tables, max_file)?;
        let bytes = written.bytes();
        let (path, shards) = match written {
            Written::File(_) => (artifact_path(tables, def.id), 1),
            Written::Shards { shards, .. } => {
                (tablegen::artifact::shards_path(tables, def.id), shards)
            }
        };
        if args.json {
            outln!(
                "{}",
                serde_json::json!({
                    "id": def.id,
                    "states": out.states(),
                    // A word table's histogram counts its layout's parts.
                    "max_depth": (def.encoding != tablefmt::Encoding::Word)
                        .then(|| out.histogram.len().saturating_sub(1)),
                    "histogram": out.histogram,
                    "seconds": secs,
                    "states_per_second": out.states() as f64 / secs,
                    "expansions": out.expansions,
                    "expansions_per_second": out.expansions as f64 / secs,
                    "bytes": bytes,
                    "files": shards,
                    "threads": rayon::current_num_threads(),
                    "engine": match &engine {
                        Engine::InMemory => serde_json::json!("in-memory"),
                        Engine::Timely(c) => serde_json::json!({
                            "workers": c.workers,
                            "processes": c.processes,
                            "memory_limit": c.memory_limit,
                        }),
                    },
                })
            )?;
        } else {
            let word = def.encoding == tablefmt::Encoding::Word;
            outln!(
                "{}: {} states, {}, {:.3}s ({:.1} M states/s, {:.1} M expansions/s), {} -> {}",
                def.id,
                out.states(),
                if word {
                    format!("{} parts", out.histogram.len())
                } else {
                    format!("max depth {}", out.histogram.len().saturating_sub(1))
                },
                secs,
                out.states() as f64 / secs / 1e6,
                out.expansions as f64 / secs / 1e6,
                super::list::human(bytes),
                path.display()
            )?;
            if shards > 1 {
                outln!("  in {shards} shards (--shard-bytes {max_file})")?;
            }
            if word {
                outln!("  parts {}", catalog::format_parts(&out.histogram))?;
            } else {
                outln!("  histogram {}", format_histogram(&out.histogram))?;
            }
        }
    }
    Ok(())
}

/// The engine the arguments ask for: timely when --workers or --processes is
/// given, else the in-memory BFS.
fn engine(args: &Args) -> anyhow::Result<Engine> {
    if args.workers.is_none() && args.processes.is_none() && args.memory_limit.is_none() {
        if args.stop_after.is_some() {
            return Err(bad(
                "--stop-after needs the timely engine (--workers, --processes or --memory-limit)",
            ));
        }
        return Ok(Engine::InMemory);
    }
    let workers = args.workers.unwrap_or(1) as usize;
    let processes = args.processes.unwrap_or(1) as usize;
    let process = args.process.unwrap_or(0) as usize;
    if process >= processes {
        return Err(bad(format!(
            "--process {process} is out of range: {processes} processes are numbered 0 to {}",
            processes - 1
        )));
    }
    let hosts = match &args.hosts {
        None => Cluster::default_hosts(processes),
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| {
                bad(format!(
                    "cannot read hosts file {}: {}",
                    show_path(p),
                    tablefmt::io_reason(&e)
                ))
            })?;
            let hosts: Vec<String> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from)
                .collect();
            if hosts.len() != processes {
                return Err(bad(format!(
                    "hosts file {} lists {} hosts for {processes} processes",
                    show_path(p),
                    hosts.len()
                )));
            }
            if let Some(h) = hosts.iter().find(|h| !is_host_port(h)) {
                return Err(bad(format!(
                    "hosts file {}: {} is not host:port",
                    show_path(p),
                    quote(h)
                )));
            }
            hosts
        }
    };
    Ok(Engine::Timely(Cluster {
        workers,
        processes,
        process,
        hosts,
        checkpoint: None,
        stop_after: args.stop_after,
        memory_limit: args.memory_limit,
        meet_timeout: std::time::Duration::from_secs_f64(args.meet_timeout),
    }))
}

/// `--meet-timeout`: seconds, more than 0 and at most a day.
fn parse_secs(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err(format!("{s:?} is not a number of seconds from 0 to 86400")),
    }
}

/// `--shard-bytes`: a byte count up to the largest file the writers make.
fn parse_shard_bytes(s: &str) -> Result<u64, String> {
    let b = parse_bytes(s, "shard size")?;
    if b > tablefmt::MAX_FILE_BYTES {
        return Err(format!(
            "{s:?} is above the largest table file, {} bytes",
            tablefmt::MAX_FILE_BYTES
        ));
    }
    Ok(b)
}

/// `--memory-limit`: a byte count of at least 1 MiB.
fn parse_memory_limit(s: &str) -> Result<u64, String> {
    parse_bytes(s, "memory limit")
}

/// A byte count of at least 1 MiB (`what` names it in the refusal):
/// digits, then optionally K, M, G or T (powers of 1000) or KiB, MiB, GiB
/// or TiB (powers of 1024); a trailing `B` is allowed.
fn parse_bytes(s: &str, what: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a byte count (e.g. 512M or 4GiB)"))?;
    let unit = unit.trim().to_ascii_lowercase();
    let unit = unit.strip_suffix('b').unwrap_or(&unit);
    let scale: u64 = match unit {
        "" => 1,
        "k" => 1_000,
        "m" => 1_000_000,
        "g" => 1_000_000_000,
        "t" => 1_000_000_000_000,
        "ki" => 1 << 10,
        "mi" => 1 << 20,
        "gi" => 1 << 30,
        "ti" => 1 << 40,
        _ => {
            return Err(format!(
                "{s:?}: unknown unit (K, M, G, T, KiB, MiB, GiB, TiB)"
            ))
        }
    };
    let bytes = n
        .checked_mul(scale)
        .ok_or_else(|| format!("{s:?} is too large"))?;
    if bytes < 1 << 20 {
        return Err(format!(
            "{s:?} is below the least {what}, 1 MiB (1048576 bytes; 1M is 10^6 bytes)"
        ));
    }
    Ok(bytes)
}

/// Where a timely build of `id` keeps its checkpoints.
pub fn resume_dir(tables: &Path, id: &str) -> std::path::PathBuf {
    tables.join(format!(".{id}.resume"))
}

/// `host:port` with a port number.
fn is_host_port(s: &str) -> bool {
    match s.rsplit_once(':') {
        Some((host, port)) => !host.is_empty() && port.parse::<u16>().is_ok(),
        None => false,
    }
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
