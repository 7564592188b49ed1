//! `cubesolve`: solve and scramble puzzles with the toolkit's tables.

use anyhow::Context;
use clap::{Parser, Subcommand};
use solvers::puzzle::{self, Input};
use solvers::registry;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tablegen::cli::bad;
use tablegen::cube::FaceOrder;
use tablegen::outln;

#[derive(Parser)]
#[command(
    name = "cubesolve",
    version,
    about = "Solve and scramble twisty puzzles",
    after_help = "Examples:\n  cubesolve solve --puzzle 3x3x3 --scramble \"R U R' U'\"\n  cubesolve scramble --puzzle 2x2x2 --seed 7\n  cubesolve show --puzzle 5x5x5 --scramble \"Rw U2 3Fw'\" --svg cube.svg"
)]
struct Cli {
    /// Table directory (default: $CUBE_TABLES, else the workspace's tables/).
    #[arg(long, global = true, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Where a missing table is downloaded from instead of built: the URL
    /// (or directory) of tables written by `tablegen publish` (default:
    /// $CUBE_TABLES_FROM; none: build it).
    #[arg(long, global = true, value_name = "URL")]
    tables_from: Option<String>,
    /// Hash every byte of every table as it is opened, even a file whose
    /// full check `tablegen` recorded when it built, installed or verified it
    /// (by default such a file, unchanged since, is not hashed again).
    #[arg(long, global = true)]
    hash_tables: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a state or a scrambled puzzle.
    #[command(
        after_help = "Example:\n  cubesolve solve --puzzle 4x4x4 --scramble \"Rw U2 x Rw U2 Rw U2 Rw' U2 Lw U2 Rw' U2 Rw U2 Rw' U2 Rw'\""
    )]
    Solve(SolveArgs),
    /// Print a random-state scramble and the state it gives.
    #[command(after_help = "Example:\n  cubesolve scramble --puzzle 3x3x3 --seed 42")]
    Scramble(ScrambleArgs),
    /// Draw a position as an SVG picture of the unfolded puzzle.
    #[command(
        after_help = "Examples:\n  cubesolve show --puzzle 3x3x3 --scramble \"R U R' U'\" --svg cube.svg\n  cubesolve show --puzzle pyraminx --scramble \"U L' r b\" --svg - > pyraminx.svg"
    )]
    Show(ShowArgs),
}

/// The position given on the command line: `--state` or `--scramble`, at
/// most one of them (neither: a bad-input error naming both, or for
/// `solve`, a file of positions given by `--states` or `--scrambles`).
#[derive(clap::Args)]
#[group(skip)]
#[command(group(
    clap::ArgGroup::new("position")
        .args(["state", "scramble"])
        .multiple(false)
))]
struct PositionArgs {
    /// Facelet state string (cubes, domino).
    #[arg(long)]
    state: Option<String>,
    /// Scramble moves applied to the solved puzzle.
    #[arg(long)]
    scramble: Option<String>,
    /// Face order of --state for cubes: urfdlb (default) or ulfrbd.
    #[arg(long)]
    order: Option<FaceOrder>,
}

impl PositionArgs {
    /// The position; neither given is bad input, its message naming both
    /// options and then `more` (other ways the command takes).
    fn input(&self, more: &str) -> anyhow::Result<Input<'_>> {
        match (&self.state, &self.scramble) {
            (Some(text), _) => Ok(Input::State {
                text,
                order: self.order,
            }),
            (None, Some(text)) => {
                if self.order.is_some() {
                    return Err(bad("--order is for --state"));
                }
                Ok(Input::Scramble(text))
            }
            (None, None) => Err(bad(format!("give --state or --scramble{more}"))),
        }
    }
}

/// The `--puzzle` help of every command.
const PUZZLE_HELP: &str = "Puzzle: 2x2x2, 3x3x3, 4x4x4, 5x5x5, 6x6x6 to 64x64x64, pyraminx, domino";

#[derive(clap::Args)]
struct ShowArgs {
    #[arg(long, help = PUZZLE_HELP)]
    puzzle: String,
    #[command(flatten)]
    position: PositionArgs,
    /// Where to write the picture (SVG): a file, or - for standard output.
    #[arg(long, value_name = "FILE")]
    svg: PathBuf,
}

#[derive(clap::Args)]
struct SolveArgs {
    #[arg(long, help = PUZZLE_HELP)]
    puzzle: String,
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Also print an alg.cubing.net link to the solution (printed anyway when
    /// the output is a terminal; never past 2,000 characters).
    #[arg(long)]
    link: bool,
    /// 3x3x3: stop at the first solution of at most this many moves.
    #[arg(long, default_value_t = 21)]
    max_length: usize,
    /// The shortest solution, proven (half-turn metric): a 3x3x3 search on
    /// the optimal tables (see --optimal-tables), seconds to minutes a
    /// random cube; bounded by --hard-limit, default 10 minutes. The 2x2x2,
    /// Pyraminx and Domino are solved optimally anyway.
    #[arg(long)]
    optimal: bool,
    /// With --optimal: the tables, `large` (670 MB, built on first use in a
    /// few minutes), `huge` (1.34 GB, about nine minutes to build; 1.4
    /// times fewer nodes) or `small` (73 MB, ten seconds; several times slower).
    #[arg(long, value_name = "SIZE", default_value = "large", value_parser = parse_size)]
    optimal_tables: solvers::cube3::optimal::TableSize,
    /// 3x3x3: what bounds phase 1. `exact` (the default): its exact
    /// distances, the optimal solver's small table (70 MB, built on first use
    /// in about ten seconds, but not by a solve given --hard-limit; read in a
    /// few tens of milliseconds, only by a solve that needs the two phases),
    /// about twice as fast at 20 moves;
    /// `small`: the three small tables' bounds (0.85 MB), for a machine short
    /// of memory or disk.
    #[arg(long, value_name = "TABLES", value_parser = ["exact", "small"])]
    phase1_tables: Option<String>,
    /// The same as --phase1-tables exact (kept for scripts that name it).
    #[arg(long, hide = true, conflicts_with = "phase1_tables")]
    exact_phase1: bool,
    /// Milliseconds after which the best solution found is returned. 3x3x3:
    /// default 1000; 4x4x4: the whole solve, the 3x3x3 finish gets what the
    /// reduction leaves (default 240); 5x5x5: the whole solve (default 850);
    /// 6x6x6 and up: the whole solve (default 2500; more time, more
    /// orientations tried, the shortest kept).
    #[arg(long, value_name = "MS")]
    time_budget: Option<u64>,
    /// Milliseconds after which a solve that has found nothing gives up
    /// (exit code 1), counted from the start, loading the tables included;
    /// never less than the time budget (default: 30 s; 6x6x6 and up 180 s,
    /// counted from when the tables are loaded).
    #[arg(long, value_name = "MS")]
    hard_limit: Option<u64>,
    /// 4x4x4: past the time budget, a solve whose best is longer than N
    /// moves goes on until it has one of N or fewer, or --target-time comes
    /// (as min2phase's target length: states already short keep the
    /// budget's time, the long ones get more).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    target_length: Option<u16>,
    /// With --target-length: when a solve going on for it stops, in
    /// milliseconds from its start (default 1000; never before the time
    /// budget, nor after the hard limit).
    #[arg(long, value_name = "MS", requires = "target_length")]
    target_time: Option<u64>,
    /// Threads of the solve (default: one per core). 4x4x4: its nine
    /// phase-1 choices dealt out among them (at most nine); 5x5x5: the roots
    /// of its stages and its 3x3x3 finishes; optimal 3x3x3: its
    /// search's tasks.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Also draw the position and the position after each phase of the
    /// solution, as SVG pictures 00-start.svg, 01-PHASE.svg, ... in DIR
    /// (made if missing).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Solve many states: one facelet state a line of FILE (- for standard
    /// input; empty lines and lines starting with # are skipped), the tables
    /// loaded once. One solution a line, in order; with --json one object a
    /// line, with its `line` and its `ms` counted from that state's own start
    /// (the loading not included), as is --hard-limit. Stops at the first
    /// line that cannot be solved, naming it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["state", "scramble", "svg", "scrambles"])]
    states: Option<PathBuf>,
    /// As --states, one scramble a line.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["state", "scramble", "svg"])]
    scrambles: Option<PathBuf>,
}

/// The lines of a file of positions, read as they come.
type Lines = Box<dyn Iterator<Item = std::io::Result<String>>>;

/// What `solve` is given: one position, or a file of states or scrambles.
enum Work {
    One(puzzle::Position),
    Many { lines: Lines, scrambles: bool },
}

impl SolveArgs {
    /// The position parsed, or the file of positions opened (before the
    /// tables are loaded, so that a bad position or path is said at once).
    fn work(&self, p: &dyn puzzle::Puzzle) -> anyhow::Result<Work> {
        let pos = &self.position;
        match (&self.states, &self.scrambles) {
            (Some(f), _) => Ok(Work::Many {
                lines: open_lines(f)?,
                scrambles: false,
            }),
            (None, Some(_)) if pos.order.is_some() => {
                Err(bad("--order is for --state or --states"))
            }
            (None, Some(f)) => Ok(Work::Many {
                lines: open_lines(f)?,
                scrambles: true,
            }),
            (None, None) => Ok(Work::One(
                p.parse(&pos.input(" (or a file of them: --states or --scrambles)")?)?,
            )),
        }
    }
}

#[derive(clap::Args)]
struct ScrambleArgs {
    #[arg(long, help = PUZZLE_HELP)]
    puzzle: String,
    /// Random seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

fn main() -> ExitCode {
    let cli: Cli = tablegen::cli::parse_or_exit("cubesolve");
    let config =
        tablegen::artifact::tables_config(cli.tables.as_deref(), cli.tables_from.as_deref());
    let dir = config.dir;
    solvers::tables::set_trust_records(!cli.hash_tables);
    solvers::tables::set_source(
        config.source.as_deref().map(tablegen::install::Source::new),
        tablegen::install::Options::default(),
    );
    let result = match cli.command {
        Command::Solve(a) => solve(&dir, a),
        Command::Scramble(a) => scramble(&dir, a),
        Command::Show(a) => show(a),
    };
    tablegen::cli::exit("cubesolve", result, |c| {
        c.downcast_ref::<solvers::tables::TableError>()
            .is_some_and(|e| e.is_input())
            || c.downcast_ref::<solvers::SolveError>()
                .is_some_and(|e| e.is_input())
    })
}

fn solve(dir: &Path, args: SolveArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let p = registry::find(&args.puzzle)?;
    if args.optimal && !registry::solves_optimally(p.name()) {
        return Err(solvers::SolveError::input(format!(
            "--optimal: {} has no optimal solver (the 3x3x3 has; the 2x2x2, pyraminx and domino are solved optimally anyway)",
            p.name()
        ))
        .into());
    }
    if (args.exact_phase1 || args.phase1_tables.is_some()) && p.name() != "3x3x3" {
        let flag = if args.exact_phase1 {
            "--exact-phase1"
        } else {
            "--phase1-tables"
        };
        return Err(solvers::SolveError::input(format!(
            "{flag}: {} has no phase 1 (the 3x3x3's two-phase solver has)",
            p.name()
        ))
        .into());
    }
    if args.target_length.is_some() && !registry::takes_target(p.name()) {
        return Err(solvers::SolveError::input(format!(
            "--target-length: {} has no target length (the 4x4x4 has; the 3x3x3 has --max-length)",
            p.name()
        ))
        .into());
    }
    let work = args.work(p)?;
    if let Some(n) = args.threads {
        // The first and only pool of the process: this cannot fail here.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n.into())
            .build_global();
    }
    let time_budget = args.time_budget.map(Duration::from_millis);
    // A hard limit given is counted from the start, never below the budget.
    let limit = args
        .hard_limit
        .map(|ms| Duration::from_millis(ms).max(time_budget.unwrap_or_default()));
    // Loading (or building on first use) cannot stop half-way: with a hard
    // limit given, a watchdog ends the process at the limit if it is still
    // loading (a table being written is left as a temporary file, which the
    // next build removes).
    let loaded = limit.map(|limit| {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            let left = limit.saturating_sub(start.elapsed());
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(left) {
                tablegen::errln!(
                    "cubesolve: {}",
                    solvers::SolveError::OutOfTime("loading the tables".into())
                );
                std::process::exit(1);
            }
        });
        tx
    });
    let solver = p.load(dir, args.json)?;
    drop(loaded);
    // What is left of the limit after the loading.
    let hard_limit = limit.map(|l| l.saturating_sub(start.elapsed()));
    if hard_limit == Some(Duration::ZERO) {
        return Err(solvers::SolveError::OutOfTime("loading the tables".into()).into());
    }
    let opts = puzzle::Options {
        time_budget,
        hard_limit,
        max_length: args.max_length,
        optimal: args.optimal,
        optimal_tables: args.optimal_tables,
        exact_phase1: args.phase1_tables.as_deref() != Some("small"),
        threads: args.threads.map_or(0, usize::from),
        target: (args.target_length)
            .map(|n| (usize::from(n), args.target_time.map(Duration::from_millis))),
    };
    let position = match work {
        Work::One(position) => position,
        Work::Many { lines, scrambles } => {
            // Each position's limit counts from its own start.
            let opts = puzzle::Options {
                hard_limit: limit,
                ..opts
            };
            let result = solve_lines(&args, p, solver.as_ref(), lines, scrambles, opts);
            // As below: the exit frees the tables at once.
            std::mem::forget(solver);
            return result;
        }
    };
    let solution = solver.solve(&position, &opts)?;
    // The process ends soon: its exit frees the tables at once, where
    // dropping the solver would unmap and free them piece by piece.
    std::mem::forget(solver);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).with_context(|| {
            format!(
                "cannot make the picture directory {}",
                tablegen::cli::show_path(dir)
            )
        })?;
        for (name, svg) in solvers::svg::solve_series(p.name(), &position, &solution)? {
            tablefmt::write_atomic(&dir.join(name), svg.as_bytes())?;
        }
    }
    if args.json {
        outln!("{}", json_of(p.name(), &solution, ms))?;
    } else {
        outln!("{}", solution.text())?;
        if args.link || std::io::stdout().is_terminal() {
            let setup = position
                .setup
                .unwrap_or_else(|| puzzle::invert(&solution.moves));
            let link = format!(
                "https://alg.cubing.net/?puzzle={}&setup={}&alg={}",
                p.name(),
                url_alg(&setup),
                url_alg(&solution.text())
            );
            if link.len() <= MAX_LINK {
                outln!("{link}")?;
            } else if args.link {
                tablegen::errln!("note: no link: it would be {} characters", link.len());
            }
        }
    }
    Ok(())
}

/// The `--json` object of a solution.
fn json_of(puzzle: &str, solution: &solvers::Solution, ms: f64) -> serde_json::Value {
    let phases: serde_json::Map<String, serde_json::Value> = solution
        .phases
        .iter()
        .map(|(k, v)| (k.clone(), (*v).into()))
        .collect();
    let mut out = serde_json::json!({
        "puzzle": puzzle,
        "solution": solution.text(),
        "moves": solution.moves.len(),
        "ms": ms,
        "phases": phases,
        "optimal": solution.optimal,
    });
    if solution.optimal {
        // No shorter solution exists: every depth below was searched.
        out["proven_depth"] = solution.moves.len().into();
    }
    out
}

/// The lines of a file of positions (`-`: standard input).
fn open_lines(f: &Path) -> anyhow::Result<Lines> {
    use std::io::BufRead;
    if f.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdin().lock().lines()));
    }
    let file = std::fs::File::open(f).map_err(|e| {
        bad(format!(
            "cannot read the positions file {}: {e}",
            tablegen::cli::show_path(f)
        ))
    })?;
    Ok(Box::new(std::io::BufReader::new(file).lines()))
}

/// Solves every position of `lines` (scrambles, else states) with one
/// loaded solver, printing each solution as it comes; the first line that
/// fails ends the run, named.
fn solve_lines(
    args: &SolveArgs,
    p: &dyn puzzle::Puzzle,
    solver: &dyn puzzle::Solve,
    lines: Lines,
    scrambles: bool,
    opts: puzzle::Options,
) -> anyhow::Result<()> {
    for (i, line) in lines.enumerate() {
        let n = i + 1;
        let line = line.with_context(|| format!("cannot read line {n} of the positions"))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let start = Instant::now();
        let input = if scrambles {
            Input::Scramble(text)
        } else {
            Input::State {
                text,
                order: args.position.order,
            }
        };
        let solution = p
            .parse(&input)
            .and_then(|position| solver.solve(&position, &opts))
            .with_context(|| format!("line {n}"))?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if args.json {
            let mut out = json_of(p.name(), &solution, ms);
            out["line"] = n.into();
            outln!("{out}")?;
        } else {
            outln!("{}", solution.text())?;
        }
    }
    Ok(())
}

fn parse_size(s: &str) -> Result<solvers::cube3::optimal::TableSize, String> {
    solvers::cube3::optimal::TableSize::parse(s)
}

/// Longest alg.cubing.net link printed: browsers and chat tools cut longer ones.
const MAX_LINK: usize = 2000;

/// alg.cubing.net's URL spelling: `_` for a space, `-` for a prime.
fn url_alg(s: &str) -> String {
    s.replace(' ', "_").replace('\'', "-")
}

fn show(args: ShowArgs) -> anyhow::Result<()> {
    let position = registry::parse_any(&args.puzzle, &args.position.input("")?)?;
    let title = match &position.setup {
        Some(moves) => format!("{} {moves}", args.puzzle),
        None => args.puzzle.clone(),
    };
    let svg = solvers::svg::draw(&position, &title)?;
    if args.svg.as_os_str() == "-" {
        // The io::Error stays in the chain: a reader gone away is success.
        tablegen::out!("{svg}").context("cannot write the picture to standard output")?;
    } else {
        write_picture(&args.svg, svg.as_bytes())?;
    }
    Ok(())
}

/// Writes a picture to `path`: a new or regular file atomically (temporary
/// file and rename); through the link, as a shell redirection does, when
/// `path` is a symbolic link (`/dev/stdout`); straight into it when it is a
/// device or a FIFO (`/dev/null`). A directory or a block device is refused.
fn write_picture(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
    let direct = match std::fs::metadata(path) {
        Ok(md) => {
            let ft = md.file_type();
            #[cfg(unix)]
            let refused = ft.is_dir() || std::os::unix::fs::FileTypeExt::is_block_device(&ft);
            #[cfg(not(unix))]
            let refused = ft.is_dir();
            if refused {
                return Err(tablefmt::FormatError::new(
                    Some(path),
                    tablefmt::ErrorKind::NotAFile {
                        found: tablefmt::file_kind(&ft),
                    },
                )
                .into());
            }
            link || !ft.is_file()
        }
        Err(_) => false,
    };
    if !direct {
        tablefmt::write_atomic(path, bytes)?;
        return Ok(());
    }
    let cannot = |e: std::io::Error| tablefmt::FormatError::io(path, "cannot write the picture", e);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(cannot)?;
    // A regular file behind a link is cut to the picture; a device or FIFO
    // has no length to cut.
    if f.metadata().is_ok_and(|m| m.is_file()) {
        f.set_len(0).map_err(cannot)?;
    }
    f.write_all(bytes)
        .and_then(|()| f.flush())
        .map_err(cannot)?;
    Ok(())
}

fn scramble(dir: &Path, args: ScrambleArgs) -> anyhow::Result<()> {
    let p = registry::find(&args.puzzle)?;
    let seed = args.seed.unwrap_or_else(puzzle::clock_seed);
    let solver = p.load(dir, false)?;
    let s = solver.scramble(seed)?;
    outln!("{}", s.moves)?;
    if let Some(state) = s.state {
        outln!("{state}")?;
    }
    Ok(())
}
