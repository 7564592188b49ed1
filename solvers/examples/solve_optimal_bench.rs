//! Optimal 3x3x3 benchmark: random states (`tablegen::cube3::random_cube`,
//! seeds 0, 1, ...) solved optimally on all cores; per state its length,
//! time and nodes, then the length distribution, median and p90 time,
//! nodes per second, table bytes and peak memory. Every solution is
//! replayed on cubies.
//!
//! `cargo run --release -p solvers --example solve_optimal_bench [-- COUNT] [--first SEED] [--limit SECS] [--tables-size small|large|huge] [--states FILE] [--verbose]`
//!
//! With `--states FILE`, the states are the file's lines (54-letter facelet
//! strings, URFDLB) instead, as for a side-by-side run with another solver.

use solvers::cube3::optimal::Outcome;
use std::time::{Duration, Instant};
use tablegen::cube3::CubieCube;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let count: usize = std::env::args()
        .skip(1)
        .take_while(|a| !a.starts_with("--"))
        .find_map(|s| s.parse().ok())
        .unwrap_or(100);
    let first: u64 = arg("--first").and_then(|s| s.parse().ok()).unwrap_or(0);
    let limit = Duration::from_secs_f64(
        arg("--limit")
            .and_then(|s| s.parse().ok())
            .unwrap_or(3600.0),
    );
    let cubes: Vec<(String, CubieCube)> = match arg("--states") {
        Some(file) => std::fs::read_to_string(&file)
            .expect("cannot read --states")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(count)
            .map(|l| {
                let st = tablegen::cube::CubeN::new(3)
                    .parse_state(l.trim(), tablegen::cube::FaceOrder::Urfdlb)
                    .expect("a 3x3x3 state");
                (
                    l.trim().to_string(),
                    CubieCube::from_facelets(&st).expect("a legal cube"),
                )
            })
            .collect(),
        None => (first..first + count as u64)
            .map(|s| (format!("seed {s}"), tablegen::cube3::random_cube(s)))
            .collect(),
    };
    let dir = tablegen::artifact::tables_dir(None);
    let t = Instant::now();
    let solver = solvers::cube3::Solver::load(&dir, true).expect("3x3x3 tables");
    let size = solvers::cube3::optimal::TableSize::parse(
        &arg("--tables-size").unwrap_or_else(|| "large".into()),
    )
    .expect("--tables-size small, large or huge");
    let opt = solver.optimal(size).expect("optimal tables");
    println!(
        "machine: {} threads; tables loaded in {:.2} s, {} bytes",
        rayon::current_num_threads(),
        t.elapsed().as_secs_f64(),
        opt.table_bytes()
    );
    let (mut times, mut lengths, mut nodes) = (Vec::new(), Vec::new(), 0u64);
    let mut out_of_time = 0;
    for (name, cube) in &cubes {
        let t = Instant::now();
        let report = opt.solve(cube, None, Some(Instant::now() + limit));
        let secs = t.elapsed().as_secs_f64();
        nodes += report.nodes;
        if std::env::args().any(|a| a == "--verbose") {
            for (d, n, s) in &report.depths {
                println!("  depth {d}: {n} nodes, {s:.2} s");
            }
        }
        match report.outcome {
            Outcome::Solved(moves) => {
                let mut c = *cube;
                for &m in &moves {
                    c = c.apply_move(m);
                }
                assert_eq!(c, CubieCube::SOLVED, "{name}: the solution does not solve");
                println!(
                    "{name}: {} moves, {secs:.2} s, {} nodes, {}",
                    moves.len(),
                    report.nodes,
                    solvers::cube3::names(&moves).join(" ")
                );
                times.push(secs);
                lengths.push(moves.len());
            }
            Outcome::OutOfTime { proven } => {
                println!("{name}: out of time after {secs:.1} s, none shorter than {proven}");
                out_of_time += 1;
                times.push(secs);
            }
        }
    }
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    let mut dist = std::collections::BTreeMap::new();
    for &l in &lengths {
        *dist.entry(l).or_insert(0) += 1;
    }
    println!(
        "{} states: {} solved, {out_of_time} out of time; lengths {:?}; average {:.2}",
        cubes.len(),
        lengths.len(),
        dist,
        lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64
    );
    println!(
        "time per state: median {:.2} s, p90 {:.2} s, max {:.2} s; {:.1} M nodes/s; peak RSS {:.0} MiB",
        pct(0.5),
        pct(0.9),
        pct(1.0),
        nodes as f64 / total / 1e6,
        peak_rss_mib()
    );
}
