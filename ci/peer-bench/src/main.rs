//! Side-by-side benchmark of our 3x3x3 two-phase solver (`solvers::cube3`)
//! against the crates.io solvers `min2phase` and `kewb`.
//!
//! Every solver runs alone on one thread (the solvers are run one after the
//! other), on the same uniformly random states (`tablegen::cube3::random_cube`
//! for seeds `0..N`). Each solution is parsed into our move indices and applied
//! to the start state; a solution that does not solve it, or is longer than the
//! run's max length, counts as a failure and is printed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tablegen::cube3::{CubieCube, MOVE_NAMES};

const USAGE: &str =
    "usage: peer-bench [--count N] [--tables DIR] [--budget-ms MS] [--only ours,ours-small,min2phase,kewb] [--rounds R]

  --count N        random states, seeds 0..N (default 1000)
  --tables DIR     our table directory (default: the workspace's tables/)
  --budget-ms MS   time budget of the \"budget\" run (default 10)
  --only LIST      run these solvers only (comma-separated; ours: the default,
                   phase 1 on its exact distances, the 70 MB table loaded in init;
                   ours-small: phase 1 on the three small tables' bounds)
  --rounds R       run ours and min2phase R times, taking turns, and pool the
                   times (this VM's speed drifts by 10-20 % over seconds; taking
                   turns spreads the drift over both); kewb runs once";

/// The time budget of the \"at max length L\" runs: generous, so that a solver
/// must reach L rather than time out.
const GENEROUS: Duration = Duration::from_secs(10);

/// The two length-bounded runs.
const MAX_LENGTHS: [usize; 2] = [21, 20];

struct Args {
    count: u64,
    tables: PathBuf,
    budget_ms: u64,
    only: Option<Vec<String>>,
    rounds: u32,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        count: 1000,
        tables: tablegen::artifact::tables_dir(None),
        budget_ms: 10,
        only: None,
        rounds: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--count" => {
                args.count = value("--count")?
                    .parse()
                    .map_err(|e| format!("--count: {e}"))?
            }
            "--tables" => args.tables = PathBuf::from(value("--tables")?),
            "--budget-ms" => {
                args.budget_ms = value("--budget-ms")?
                    .parse()
                    .map_err(|e| format!("--budget-ms: {e}"))?
            }
            "--rounds" => {
                args.rounds = value("--rounds")?
                    .parse()
                    .map_err(|e| format!("--rounds: {e}"))?;
                if args.rounds == 0 {
                    return Err("--rounds: at least 1".into());
                }
            }
            "--only" => {
                let v = value("--only")?;
                let list: Vec<String> = v.split(',').map(str::to_string).collect();
                if let Some(x) = list
                    .iter()
                    .find(|x| !["ours", "ours-small", "min2phase", "kewb"].contains(&x.as_str()))
                {
                    return Err(format!("--only: unknown solver {x:?}"));
                }
                args.only = Some(list);
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {a:?}")),
        }
    }
    Ok(args)
}

/// One case of the benchmark.
struct Case {
    seed: u64,
    cube: CubieCube,
    facelets: String,
}

/// One solve's outcome: the solver's own text of the solution (for failure
/// reports) and its moves as our indices, or why they could not be read.
struct Outcome {
    text: String,
    moves: Result<Vec<usize>, String>,
    /// The solve time when measured elsewhere (in the kewb worker process).
    time: Option<Duration>,
}

/// One row of the result table.
struct Row {
    solver: &'static str,
    run: String,
    init_ms: Option<f64>,
    times: Vec<Duration>,
    lengths: Vec<usize>,
    failures: Vec<String>,
    table_bytes: String,
    skipped: Option<String>,
}

impl Row {
    fn skipped(solver: &'static str, run: String, why: &str) -> Row {
        Row {
            solver,
            run,
            init_ms: None,
            times: vec![],
            lengths: vec![],
            failures: vec![],
            table_bytes: String::new(),
            skipped: Some(why.to_string()),
        }
    }
}

/// Our move index of a move name in face-turn notation (`U`, `U2`, `U'`; also
/// `U1`, `U3` and `U2'`).
fn parse_move(tok: &str) -> Result<usize, String> {
    let mut chars = tok.chars();
    let face = chars.next().ok_or("empty move")?;
    let f = "URFDLB"
        .find(face)
        .ok_or_else(|| format!("unknown face in move {tok:?}"))?;
    let turn = match chars.as_str() {
        "" | "1" => 0,
        "2" | "2'" => 1,
        "'" | "3" => 2,
        _ => return Err(format!("unknown move {tok:?}")),
    };
    let m = f * 3 + turn;
    debug_assert!(MOVE_NAMES[m].starts_with(face));
    Ok(m)
}

fn parse_moves(s: &str) -> Result<Vec<usize>, String> {
    s.split_whitespace().map(parse_move).collect()
}

/// Runs `solve` on every case, verifies and times each solve.
fn run_cases(
    solver: &'static str,
    run: String,
    cases: &[Case],
    max_len: Option<usize>,
    mut solve: impl FnMut(&Case) -> Outcome,
) -> Row {
    let mut times = Vec::with_capacity(cases.len());
    let mut lengths = Vec::with_capacity(cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let t = Instant::now();
        let out = solve(case);
        times.push(out.time.unwrap_or_else(|| t.elapsed()));
        let fail = match &out.moves {
            Err(e) => Some(e.clone()),
            Ok(moves) => {
                lengths.push(moves.len());
                let end = moves.iter().fold(case.cube, |c, &m| c.apply_move(m));
                if end != CubieCube::SOLVED {
                    Some("does not solve the state".to_string())
                } else if max_len.is_some_and(|l| moves.len() > l) {
                    Some(format!("{} moves > max {}", moves.len(), max_len.unwrap()))
                } else {
                    None
                }
            }
        };
        if let Some(why) = fail {
            failures.push(format!(
                "{solver} {run} seed {}: {why}; state {} solution {:?}",
                case.seed, case.facelets, out.text
            ));
        }
    }
    Row {
        solver,
        run,
        init_ms: None,
        times,
        lengths,
        failures,
        table_bytes: String::new(),
        skipped: None,
    }
}

/// Adds one round's rows to `rows`: the first round's as they are, later
/// rounds' times, lengths and failures to the row of the same solver and run.
fn pool(rows: &mut Vec<Row>, new: Vec<Row>, round: u32) {
    for r in new {
        match rows
            .iter_mut()
            .find(|x| round > 0 && x.solver == r.solver && x.run == r.run)
        {
            Some(x) => {
                x.times.extend(r.times);
                x.lengths.extend(r.lengths);
                x.failures.extend(r.failures);
            }
            None => rows.push(r),
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn bench_ours(args: &Args, cases: &[Case], exact: bool) -> Vec<Row> {
    use solvers::cube3::{Options, Solver};
    let name = if exact { "ours" } else { "ours-small" };
    let t = Instant::now();
    let loaded = Solver::load(&args.tables, true).and_then(|s| {
        if exact {
            s.load_exact_phase1()?;
        }
        Ok(s)
    });
    let solver = match loaded {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}: loading tables from {}: {e}", args.tables.display());
            return vec![Row::skipped(name, "init".into(), "table load failed")];
        }
    };
    let init = t.elapsed();
    let bytes = solver.table_bytes().to_string();
    let mut rows = Vec::new();
    for l in MAX_LENGTHS {
        rows.push(run_cases(name, format!("max {l}"), cases, Some(l), |c| {
            let moves = solver.solve(
                &c.cube,
                Options {
                    max_length: l,
                    time_budget: GENEROUS,
                    strict: false,
                    exact_phase1: exact,
                },
            );
            Outcome {
                text: solvers::cube3::names(&moves).join(" "),
                moves: Ok(moves),
                time: None,
            }
        }));
    }
    let budget = Duration::from_millis(args.budget_ms);
    rows.push(run_cases(
        name,
        format!("budget {}ms", args.budget_ms),
        cases,
        None,
        |c| {
            let moves = solver.solve(
                &c.cube,
                Options {
                    max_length: 0,
                    time_budget: budget,
                    strict: false,
                    exact_phase1: exact,
                },
            );
            Outcome {
                text: solvers::cube3::names(&moves).join(" "),
                moves: Ok(moves),
                time: None,
            }
        },
    ));
    for r in &mut rows {
        r.table_bytes = bytes.clone();
    }
    rows[0].init_ms = Some(ms(init));
    rows
}

/// min2phase's pruning tables: four 4-bit-per-entry tables (`StaticTables` in
/// its lib.rs: slice x flip-sym, slice x twist-sym, ccomb x eperm-sym, mperm x
/// cperm-sym, each `[u32; N / 8 + 1]`). The crate keeps its tables private, so
/// the size is computed from its constants.
const fn min2phase_prune_bytes() -> usize {
    const N_SLICE: usize = 495;
    const N_FLIP_SYM: usize = 336;
    const N_TWST_SYM: usize = 324;
    const N_PERM_SYM: usize = 2768;
    const N_CCOMB: usize = 70;
    const N_MPERM: usize = 24;
    4 * ((N_SLICE * N_FLIP_SYM / 8 + 1)
        + (N_SLICE * N_TWST_SYM / 8 + 1)
        + (N_CCOMB * N_PERM_SYM / 8 + 1)
        + (N_MPERM * N_PERM_SYM / 8 + 1))
}

/// All of min2phase's `StaticTables` (move, conjugation and symmetry tables
/// plus the pruning tables), from the same source.
const fn min2phase_all_bytes() -> usize {
    const N_MOVES_P1: usize = 18;
    const N_MOVES_P2: usize = 10;
    let u16s = 2768 // perm_sym_inv
        + 336 + 2048 + 336 // flip sym2raw, raw2sym, selfsym
        + 324 + 2187 + 324 // twist
        + 2768 + 40320 + 2768 // eperm
        + 336 * N_MOVES_P1 + 324 * N_MOVES_P1 + 495 * N_MOVES_P1 + 495 * 8
        + 2768 * N_MOVES_P2 * 2 // cperm_move, eperm_move
        + 24 * N_MOVES_P2 + 24 * 16 + 70 * N_MOVES_P2 + 70 * 16;
    2 * u16s + 2768 /* cperm2comb */ + min2phase_prune_bytes()
}

fn bench_min2phase(args: &Args, cases: &[Case]) -> Vec<Row> {
    const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    // The tables are lazy statics built on first use: the first solve (of the
    // solved state, which costs nothing else) is the init.
    let t = Instant::now();
    let first = min2phase::solve(&SOLVED.to_string(), 21);
    let init = t.elapsed();
    if !first.trim().is_empty() {
        eprintln!("min2phase: solving the solved state gave {first:?}");
    }
    let mut rows = Vec::new();
    for l in MAX_LENGTHS {
        rows.push(run_cases(
            "min2phase",
            format!("max {l}"),
            cases,
            Some(l),
            |c| {
                // Its max length is inclusive ("number of moves ..., included").
                let text = min2phase::solve(&c.facelets, l as u8);
                let moves = if text.starts_with("Error") {
                    Err(format!("min2phase returned {text:?}"))
                } else {
                    parse_moves(&text)
                };
                Outcome {
                    text,
                    moves,
                    time: None,
                }
            },
        ));
    }
    rows.push(Row::skipped(
        "min2phase",
        format!("budget {}ms", args.budget_ms),
        "n/a: the Rust crate has no time limit or probe API (only solve(facelets, maxl))",
    ));
    for r in &mut rows {
        r.table_bytes = min2phase_prune_bytes().to_string();
    }
    rows[0].init_ms = Some(ms(init));
    rows
}

/// Bytes of a kewb table (a `Vec<Vec<T>>`), counting the elements only.
fn kewb_table_bytes<T>(t: &[Vec<T>]) -> usize {
    t.iter().map(|r| r.len() * std::mem::size_of::<T>()).sum()
}

/// kewb's solve of one facelet string: its text and our move indices.
fn kewb_solve(
    table: &kewb::DataTable,
    facelets: &str,
    max_length: u8,
    timeout: Option<f32>,
) -> Outcome {
    use kewb::{CubieCube as KCube, FaceCube, Solver};
    let state = match FaceCube::try_from(facelets).and_then(|fc| KCube::try_from(&fc)) {
        Ok(s) => s,
        Err(e) => {
            return Outcome {
                text: String::new(),
                moves: Err(format!("kewb rejected the facelets: {e}")),
                time: None,
            }
        }
    };
    let mut solver = Solver::new(table, max_length, timeout);
    match solver.solve(state) {
        Some(sol) => {
            let text = sol.to_string();
            let moves = parse_moves(&text);
            Outcome {
                text,
                moves,
                time: None,
            }
        }
        None => Outcome {
            text: String::new(),
            moves: Err("kewb found no solution".into()),
            time: None,
        },
    }
}

/// The hidden `--kewb-worker` mode: kewb solves in a child process that the
/// bench can kill, since kewb has no usable time limit for length-bounded
/// solves (see `bench_kewb`). Reads `MAXLEN FACELETS` lines, answers
/// `ok NANOS MOVES...` or `err NANOS MESSAGE`; says `ready` after its init.
fn kewb_worker() -> ! {
    use std::io::{BufRead, Write};
    let table = kewb::DataTable::default();
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready").and_then(|_| out.flush()).ok();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Some((l, facelets)) = line.split_once(' ') else {
            continue;
        };
        let Ok(l) = l.parse::<u8>() else { continue };
        let t = Instant::now();
        let o = kewb_solve(&table, facelets, l, None);
        let nanos = t.elapsed().as_nanos();
        let reply = match o.moves {
            Ok(_) => format!("ok {nanos} {}", o.text),
            Err(e) => format!("err {nanos} {e}"),
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    std::process::exit(0)
}

/// A running `--kewb-worker` child and the lines it prints.
struct KewbWorker {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl KewbWorker {
    fn start() -> Result<KewbWorker, String> {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .arg("--kewb-worker")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting the kewb worker: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut w = KewbWorker {
            child,
            stdin,
            lines,
        };
        match w.lines.recv_timeout(Duration::from_secs(600)) {
            Ok(l) if l == "ready" => Ok(w),
            other => {
                w.stop();
                Err(format!("the kewb worker did not start: {other:?}"))
            }
        }
    }

    /// One solve; None when it took longer than `cap` (the worker is then
    /// killed and must be restarted).
    fn solve(&mut self, facelets: &str, max_length: u8, cap: Duration) -> Option<Outcome> {
        use std::io::Write;
        let sent = writeln!(self.stdin, "{max_length} {facelets}").and_then(|_| self.stdin.flush());
        if let Err(e) = sent {
            return Some(Outcome {
                text: String::new(),
                moves: Err(format!("kewb worker: {e}")),
                time: None,
            });
        }
        let line = match self.lines.recv_timeout(cap) {
            Ok(l) => l,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return None,
            Err(e) => {
                return Some(Outcome {
                    text: String::new(),
                    moves: Err(format!("kewb worker: {e}")),
                    time: None,
                })
            }
        };
        let mut parts = line.splitn(3, ' ');
        let (kind, nanos, rest) = (
            parts.next().unwrap_or(""),
            parts.next().and_then(|n| n.parse::<u64>().ok()),
            parts.next().unwrap_or("").to_string(),
        );
        let time = nanos.map(Duration::from_nanos);
        Some(match kind {
            "ok" => Outcome {
                moves: parse_moves(&rest),
                text: rest,
                time,
            },
            _ => Outcome {
                text: String::new(),
                moves: Err(rest),
                time,
            },
        })
    }

    fn stop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

fn bench_kewb(args: &Args, cases: &[Case]) -> (Vec<Row>, Vec<String>) {
    let t = Instant::now();
    let table = kewb::DataTable::default();
    let init = t.elapsed();
    let p = &table.pruning_table;
    let prune = kewb_table_bytes(&p.co_e)
        + kewb_table_bytes(&p.eo_e)
        + kewb_table_bytes(&p.cp_e)
        + kewb_table_bytes(&p.ep_e);
    let m = &table.move_table;
    let moves = kewb_table_bytes(&m.co)
        + kewb_table_bytes(&m.eo)
        + kewb_table_bytes(&m.e_combo)
        + kewb_table_bytes(&m.cp)
        + kewb_table_bytes(&m.ep)
        + kewb_table_bytes(&m.e_ep);
    let mut notes = vec![format!(
        "kewb tables in memory: {prune} B pruning (1 byte/entry) + {moves} B move tables = {} B",
        prune + moves
    )];

    let mut rows = Vec::new();
    for l in MAX_LENGTHS {
        // kewb's max length is exclusive (phase-2 depths run over
        // `0..max_length - len1`), so L + 1 asks for at most L moves. kewb has
        // no usable time limit here: with a timeout it never returns before it
        // runs out (and returns nothing when it exhausts the depths first). So
        // each solve runs in a child process, killed after the generous budget.
        let mut worker: Option<KewbWorker> = None;
        let mut timeouts = 0;
        let run = format!("max {l}");
        rows.push(run_cases("kewb", run.clone(), cases, Some(l), |c| {
            if worker.is_none() {
                match KewbWorker::start() {
                    Ok(w) => worker = Some(w),
                    Err(e) => {
                        return Outcome {
                            text: String::new(),
                            moves: Err(e),
                            time: None,
                        }
                    }
                }
            }
            let w = worker.as_mut().expect("started");
            match w.solve(&c.facelets, l as u8 + 1, GENEROUS) {
                Some(o) => o,
                None => {
                    w.stop();
                    worker = None;
                    timeouts += 1;
                    Outcome {
                        text: String::new(),
                        moves: Err(format!(
                            "no solution within {} s (killed)",
                            GENEROUS.as_secs()
                        )),
                        time: Some(GENEROUS),
                    }
                }
            }
        }));
        if let Some(mut w) = worker {
            w.stop();
        }
        if timeouts > 0 {
            notes.push(format!(
                "kewb {run}: {timeouts} solve(s) killed at the {} s cap (counted as failures, timed at the cap)",
                GENEROUS.as_secs()
            ));
        }
    }
    // With a timeout kewb searches until it runs out and returns the best found
    // (or nothing); max length 31 stands for "no length target".
    let budget = args.budget_ms as f32 / 1e3;
    rows.push(run_cases(
        "kewb",
        format!("budget {}ms", args.budget_ms),
        cases,
        None,
        |c| kewb_solve(&table, &c.facelets, 31, Some(budget)),
    ));
    for r in &mut rows {
        r.table_bytes = prune.to_string();
    }
    rows[0].init_ms = Some(ms(init));
    (rows, notes)
}

fn machine_info() -> String {
    let nproc = std::thread::available_parallelism()
        .map(|n| n.get().to_string())
        .unwrap_or_else(|_| "?".into());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    format!("machine: nproc {nproc}, cpu {cpu}")
}

fn print_table(rows: &[Row]) {
    let header = [
        "solver",
        "run",
        "init ms",
        "median ms",
        "p99 ms",
        "avg len",
        "max len",
        "failures",
        "table bytes",
    ];
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    let mut skipped = Vec::new();
    for r in rows {
        if let Some(why) = &r.skipped {
            skipped.push(format!("{} {}: {why}", r.solver, r.run));
            lines.push(vec![
                r.solver.to_string(),
                r.run.clone(),
                "-".into(),
                "n/a".into(),
                "n/a".into(),
                "n/a".into(),
                "n/a".into(),
                "n/a".into(),
                r.table_bytes.clone(),
            ]);
            continue;
        }
        let mut t = r.times.clone();
        t.sort();
        let n = t.len();
        let (median, p99) = if n == 0 {
            (f64::NAN, f64::NAN)
        } else {
            let median = if n % 2 == 1 {
                ms(t[n / 2])
            } else {
                (ms(t[n / 2 - 1]) + ms(t[n / 2])) / 2.0
            };
            // Nearest rank.
            let k = ((0.99 * n as f64).ceil() as usize).clamp(1, n) - 1;
            (median, ms(t[k]))
        };
        let (avg, max) = if r.lengths.is_empty() {
            ("-".to_string(), "-".to_string())
        } else {
            let sum: usize = r.lengths.iter().sum();
            (
                format!("{:.2}", sum as f64 / r.lengths.len() as f64),
                r.lengths.iter().max().unwrap().to_string(),
            )
        };
        lines.push(vec![
            r.solver.to_string(),
            r.run.clone(),
            r.init_ms.map_or("-".into(), |v| format!("{v:.1}")),
            format!("{median:.3}"),
            format!("{p99:.3}"),
            avg,
            max,
            format!("{}/{}", r.failures.len(), n),
            r.table_bytes.clone(),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| lines.iter().map(|l| l[i].len()).max().unwrap_or(0))
        .collect();
    for (k, l) in lines.iter().enumerate() {
        let cells: Vec<String> = l
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i < 2 {
                    format!("{c:<w$}", w = widths[i])
                } else {
                    format!("{c:>w$}", w = widths[i])
                }
            })
            .collect();
        println!("{}", cells.join("  ").trim_end());
        if k == 0 {
            println!(
                "{}",
                "-".repeat(widths.iter().sum::<usize>() + 2 * (widths.len() - 1))
            );
        }
    }
    for s in skipped {
        println!("note: {s}");
    }
}

/// The 54-letter facelet string in Kociemba's URFDLB order. `to_facelets`
/// gives face indices 0..6 in `Face` order U R F D L B (not letters).
fn facelet_string(f: &[u8]) -> String {
    assert_eq!(f.len(), 54, "a 3x3x3 has 54 facelets");
    f.iter()
        .map(|&x| match x {
            0..=5 => b"URFDLB"[x as usize] as char,
            b'U' | b'R' | b'F' | b'D' | b'L' | b'B' => x as char,
            _ => panic!("unexpected facelet value {x}"),
        })
        .collect()
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--kewb-worker") {
        kewb_worker();
    }
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("peer-bench: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    println!("{}", machine_info());
    println!(
        "cases: {} uniformly random states (tablegen::cube3::random_cube, seeds 0..{}); one thread, solvers run one after the other; \"max L\" runs have a {} s budget",
        args.count,
        args.count,
        GENEROUS.as_secs()
    );
    let cases: Vec<Case> = (0..args.count)
        .map(|seed| {
            let cube = tablegen::cube3::random_cube(seed);
            let facelets = facelet_string(&cube.to_facelets());
            Case {
                seed,
                cube,
                facelets,
            }
        })
        .collect();

    let wants = |s: &str| args.only.as_ref().is_none_or(|o| o.iter().any(|x| x == s));
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for round in 0..args.rounds {
        if wants("ours") {
            eprintln!("running ours (tables {}) ...", args.tables.display());
            pool(&mut rows, bench_ours(&args, &cases, true), round);
        }
        if wants("ours-small") {
            eprintln!("running ours-small (tables {}) ...", args.tables.display());
            pool(&mut rows, bench_ours(&args, &cases, false), round);
        }
        if wants("min2phase") {
            eprintln!("running min2phase ...");
            pool(&mut rows, bench_min2phase(&args, &cases), round);
        }
    }
    if args.rounds > 1 {
        notes.push(format!(
            "{} rounds, ours and min2phase taking turns: times, lengths and failures pooled; init from the first round",
            args.rounds
        ));
    }
    if wants("min2phase") {
        notes.push(format!(
            "min2phase tables (computed from its source, not exposed): {} B pruning (4 bits/entry), {} B all static tables",
            min2phase_prune_bytes(),
            min2phase_all_bytes()
        ));
    }
    if wants("kewb") {
        eprintln!("running kewb ...");
        let (r, n) = bench_kewb(&args, &cases);
        rows.extend(r);
        notes.extend(n);
    }
    println!();
    print_table(&rows);
    println!("table bytes = pruning tables only (ours: cube3::Solver::table_bytes())");
    for n in notes {
        println!("note: {n}");
    }
    // At most this many failures are listed per row (all are counted).
    const LIST: usize = 20;
    if rows.iter().any(|r| !r.failures.is_empty()) {
        println!("\nfailures:");
        for r in &rows {
            for f in r.failures.iter().take(LIST) {
                println!("  {f}");
            }
            if r.failures.len() > LIST {
                println!(
                    "  ... and {} more for {} {}",
                    r.failures.len() - LIST,
                    r.solver,
                    r.run
                );
            }
        }
    }
}
