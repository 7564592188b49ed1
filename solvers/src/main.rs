//! `cubesolve`: solve and scramble puzzles with the toolkit's tables.

use clap::{Parser, Subcommand};
use rand::{Rng, SeedableRng};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tablegen::cube::{CubeN, FaceOrder};

#[derive(Parser)]
#[command(
    name = "cubesolve",
    version,
    about = "Solve and scramble twisty puzzles"
)]
struct Cli {
    /// Table directory (default: $CUBE_TABLES, else the workspace's tables/).
    #[arg(long, global = true, value_name = "DIR")]
    tables: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a state or a scrambled puzzle.
    Solve(SolveArgs),
    /// Print a random-state scramble and the state it gives.
    Scramble(ScrambleArgs),
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Puzzle: 2x2x2, 3x3x3, 4x4x4, pyraminx, domino.
    #[arg(long)]
    puzzle: String,
    /// Facelet state string (cubes, domino).
    #[arg(
        long,
        conflicts_with = "scramble",
        required_unless_present = "scramble"
    )]
    state: Option<String>,
    /// Scramble moves applied to the solved puzzle.
    #[arg(long)]
    scramble: Option<String>,
    /// Face order of --state for cubes: urfdlb (default) or ulfrbd.
    #[arg(long)]
    order: Option<FaceOrder>,
    /// Also print an alg.cubing.net link to the solution (printed anyway when
    /// the output is a terminal; never past 2,000 characters).
    #[arg(long)]
    link: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// 3x3x3: stop at the first solution of at most this many moves.
    #[arg(long, default_value_t = 21)]
    max_length: usize,
    /// 3x3x3: milliseconds after which the best solution found is returned
    /// (default 1000); 4x4x4: time for the whole solve, the 3x3x3 finish gets what
    /// the reduction leaves (default 240).
    #[arg(long)]
    time_budget: Option<u64>,
    /// 4x4x4: milliseconds after which a solve that has found nothing gives up
    /// (exit code 1); it is never less than the time budget.
    #[arg(long, default_value_t = 30_000, value_name = "MS")]
    hard_limit: u64,
}

#[derive(clap::Args)]
struct ScrambleArgs {
    /// Puzzle: 2x2x2, 3x3x3, 4x4x4, pyraminx, domino.
    #[arg(long)]
    puzzle: String,
    /// Random seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

use tablegen::cli::bad;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let dir = tablegen::artifact::tables_dir(cli.tables.as_deref());
    let result = match cli.command {
        Command::Solve(a) => solve(&dir, a),
        Command::Scramble(a) => scramble(&dir, a),
    };
    tablegen::cli::exit("cubesolve", result, |c| {
        c.downcast_ref::<solvers::tables::TableError>().is_some()
            || c.downcast_ref::<solvers::SolveError>()
                .is_some_and(|e| e.is_input())
    })
}

fn cube_state(n: usize, args: &SolveArgs) -> anyhow::Result<(Vec<u8>, Option<String>)> {
    let cube = CubeN::new(n);
    if let Some(s) = &args.state {
        let order = args.order.unwrap_or(FaceOrder::Urfdlb);
        let st = cube.parse_state(s, order).map_err(bad)?;
        return Ok((st, None));
    }
    let text = args.scramble.as_deref().unwrap_or_default();
    let moves = tablegen::notation::parse_alg(text).map_err(|e| bad(e.to_string()))?;
    for &m in &moves {
        cube.check_move(m).map_err(bad)?;
    }
    let mut st = cube.solved();
    cube.apply_alg(&mut st, &moves);
    Ok((st, Some(tablegen::notation::format_alg(&moves))))
}

fn solve(dir: &std::path::Path, args: SolveArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let quiet = args.json;
    if args.order.is_some() && matches!(args.puzzle.as_str(), "pyraminx" | "domino") {
        return Err(bad(format!(
            "--order is for cube state strings; {} has its own format (see the README)",
            args.puzzle
        )));
    }
    let (solution, setup, puzzle) = match args.puzzle.as_str() {
        "2x2x2" => {
            let (st, scr) = cube_state(2, &args)?;
            // Refuse a bad state before loading (or building) any table.
            tablegen::validate::validate(&CubeN::new(2), &st).map_err(bad)?;
            let solver = solvers::cube2::Solver2::new(dir, quiet)?;
            (solver.solve(&st).map_err(bad)?, scr, "2x2x2")
        }
        "3x3x3" => {
            let (st, scr) = cube_state(3, &args)?;
            let cube = tablegen::cube3::CubieCube::from_facelets(&st).map_err(bad)?;
            let (rotation, _) =
                tablegen::validate::orient_centres(&CubeN::new(3), &st).map_err(bad)?;
            let solver = solvers::cube3::Solver3::load(dir, quiet)?;
            let opts = solvers::cube3::Options {
                max_length: args.max_length,
                time_budget: std::time::Duration::from_millis(args.time_budget.unwrap_or(1000)),
                strict: false,
            };
            let (found, phases, _) = solver.solve_phased(&cube, opts);
            let moves: Vec<_> = found.iter().map(|&m| tablegen::cube3::move_of(m)).collect();
            let moves = tablegen::cube::unrotate(&moves, &rotation);
            let sol = solvers::Solution {
                moves: moves.iter().map(|m| m.to_string()).collect(),
                phases: phases.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
            };
            (sol, scr, "3x3x3")
        }
        "4x4x4" => {
            let (st, scr) = cube_state(4, &args)?;
            // Refuse a bad state before loading (or building) any table.
            tablegen::validate::validate(&CubeN::new(4), &st).map_err(bad)?;
            tablegen::cube4::Wings::new().read(&st).map_err(bad)?;
            let solver = solvers::cube4::Solver4::load(dir, quiet)?;
            let mut opts = solvers::cube4::Options4::default();
            if let Some(ms) = args.time_budget {
                opts.time_budget = std::time::Duration::from_millis(ms);
            }
            opts.hard_limit = std::time::Duration::from_millis(args.hard_limit);
            let sol = solver.solve(&st, opts)?;
            let solution = solvers::Solution {
                moves: sol.moves.iter().map(|m| m.to_string()).collect(),
                phases: sol
                    .phases
                    .iter()
                    .map(|&(k, v)| (k.to_string(), v))
                    .collect(),
            };
            (solution, scr, "4x4x4")
        }
        "pyraminx" => {
            let Some(text) = &args.scramble else {
                return Err(bad("pyraminx takes --scramble (no state string format)"));
            };
            let moves = tablegen::pyraminx::parse_alg(text).map_err(|e| bad(e.to_string()))?;
            let mut st = solvers::pyraminx::PyraState::SOLVED;
            for &m in &moves {
                st = st.apply(m);
            }
            let solver = solvers::pyraminx::SolverPyra::new(dir, quiet)?;
            let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            (
                solver.solve(&st).map_err(bad)?,
                Some(names.join(" ")),
                "pyraminx",
            )
        }
        "domino" => {
            let (pos, setup) = match (&args.state, &args.scramble) {
                (Some(st), _) => (solvers::domino::parse_state(st).map_err(bad)?, None),
                (None, Some(text)) => {
                    let moves =
                        tablegen::domino::parse_alg(text).map_err(|e| bad(e.to_string()))?;
                    let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                    (solvers::domino::after(&moves), Some(names.join(" ")))
                }
                (None, None) => return Err(bad("give --state or --scramble")),
            };
            let solver = solvers::domino::SolverDomino::new(dir, quiet)?;
            (solver.solve(&pos.0, &pos.1).map_err(bad)?, setup, "domino")
        }
        other => {
            return Err(bad(format!(
                "no solver for puzzle {other:?} (have: 2x2x2, 3x3x3, 4x4x4, pyraminx, domino)"
            )))
        }
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if args.json {
        let phases: serde_json::Map<String, serde_json::Value> = solution
            .phases
            .iter()
            .map(|(k, v)| (k.clone(), (*v).into()))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "puzzle": puzzle,
                "solution": solution.text(),
                "moves": solution.moves.len(),
                "ms": ms,
                "phases": phases,
            })
        );
    } else {
        println!("{}", solution.text());
        if args.link || std::io::stdout().is_terminal() {
            let setup = setup.unwrap_or_else(|| invert_text(&solution.moves));
            let link = format!(
                "https://alg.cubing.net/?puzzle={}&setup={}&alg={}",
                puzzle,
                url_alg(&setup),
                url_alg(&solution.text())
            );
            if link.len() <= MAX_LINK {
                println!("{link}");
            } else if args.link {
                eprintln!("note: no link: it would be {} characters", link.len());
            }
        }
    }
    Ok(())
}

/// Longest alg.cubing.net link printed: browsers and chat tools cut longer ones.
const MAX_LINK: usize = 2000;

fn invert_text(moves: &[String]) -> String {
    moves
        .iter()
        .rev()
        .map(|m| {
            if let Some(base) = m.strip_suffix('\'') {
                base.to_string()
            } else if m.ends_with('2') {
                m.clone()
            } else {
                format!("{m}'")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// alg.cubing.net's URL spelling: `_` for a space, `-` for a prime.
fn url_alg(s: &str) -> String {
    s.replace(' ', "_").replace('\'', "-")
}

fn scramble(dir: &std::path::Path, args: ScrambleArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    match args.puzzle.as_str() {
        "2x2x2" => {
            let solver = solvers::cube2::Solver2::new(dir, false)?;
            let rank = rng.gen_range(0..tablegen::cube2::STATES);
            let state = tablegen::cube2::Cube2::facelets_of(rank);
            let sol = solver.solve(&state).map_err(bad)?;
            println!("{}", invert_text(&sol.moves));
            println!("{}", CubeN::new(2).format_state(&state, FaceOrder::Urfdlb));
        }
        "3x3x3" => {
            let solver = solvers::cube3::Solver3::load(dir, false)?;
            let cube = tablegen::cube3::random_cube(rng.gen());
            let found = solver.solve(&cube, solvers::cube3::Options::default());
            let moves: Vec<String> = found
                .iter()
                .map(|&m| tablegen::cube3::move_of(m).to_string())
                .collect();
            println!("{}", invert_text(&moves));
            println!(
                "{}",
                CubeN::new(3).format_state(&cube.to_facelets(), FaceOrder::Urfdlb)
            );
        }
        "4x4x4" => {
            let solver = solvers::cube4::Solver4::load(dir, false)?;
            let state = tablegen::cube4::random_state(rng.gen());
            let sol = solver.solve(&state, solvers::cube4::Options4::default())?;
            let moves: Vec<String> = sol.moves.iter().map(|m| m.to_string()).collect();
            println!("{}", invert_text(&moves));
            println!("{}", CubeN::new(4).format_state(&state, FaceOrder::Urfdlb));
        }
        "pyraminx" => {
            let solver = solvers::pyraminx::SolverPyra::new(dir, false)?;
            let core =
                tablegen::pyraminx::Pyra::unrank(rng.gen_range(0..tablegen::pyraminx::STATES));
            let tips = [0; 4].map(|_: u8| rng.gen_range(0..3u8));
            let st = solvers::pyraminx::PyraState { core, tips };
            let sol = solver.solve(&st).map_err(bad)?;
            println!("{}", invert_text(&sol.moves));
        }
        "domino" => {
            let solver = solvers::domino::SolverDomino::new(dir, false)?;
            let space = tablegen::domino::DominoSpace::new(tablegen::domino::htm_moves());
            let (cp, ep) = space.pieces(rng.gen_range(0..tablegen::domino::STATES));
            let sol = solver.solve(&cp, &ep).map_err(bad)?;
            println!("{}", invert_text(&sol.moves));
            println!("{}", solvers::domino::format_state(&cp, &ep));
        }
        other => {
            return Err(bad(format!(
                "no scrambler for puzzle {other:?} (have: 2x2x2, 3x3x3, 4x4x4, pyraminx, domino)"
            )))
        }
    }
    Ok(())
}
