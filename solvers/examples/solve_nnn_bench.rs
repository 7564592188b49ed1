//! NxNxN benchmark (6x6x6 and up) on uniformly random states, one thread:
//! the whole solve (reduction to the 4x4x4 or 5x5x5, that cube's solver, its
//! 3x3x3 finish), its length in OBTM (average, min, max, and per phase) and
//! time (median, p99, max); init time and peak memory. Every solution is
//! replayed on the facelet model.
//!
//! `cargo run --release -p solvers --example solve_nnn_bench -- N [COUNT [BUDGET_MS]] [FLAGS]`
//!
//! BUDGET_MS is the 4x4x4's or 5x5x5's time budget (default: its own).
//!
//! Flags, the route's options ([`solvers::big::Options`]; up to 17x17x17,
//! the route through the inner cube), anywhere among the numbers:
//! `--trace` prints each level's free moves, the inner cube's time and each
//! orientation's blocks (on standard error); `--no-free` makes the blocks
//! with the cycles alone (no free moves), as before they were added;
//! `--tries K=T` makes the blocks of the KxKxK level (the cube itself or an
//! inner one) from at least T orientations (default 8 up to 10x10x10, then
//! 1); `--look K=M` makes the KxKxK level's block search look one move past
//! each of a step's M best moves (default 4 for every level of a cube up to
//! 10x10x10, then 1: none). `--tries` and `--look` may be given once per
//! level.

use solvers::big::{Options, Solver};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;

mod common;
use common::{peak_mib, summary};

const USAGE: &str =
    "usage: solve_nnn_bench N [COUNT [BUDGET_MS]] [--tries K=T]... [--look K=M]... [--no-free] [--trace]";

/// Exits with the usage and why.
fn usage(why: &str) -> ! {
    eprintln!("solve_nnn_bench: {why}\n{USAGE}");
    std::process::exit(2);
}

/// A flag's `K=V` (a level's size and its value).
fn level_value(flag: &str, arg: Option<String>) -> (usize, usize) {
    let arg = arg.unwrap_or_else(|| usage(&format!("{flag} needs K=V")));
    let parsed = arg
        .split_once('=')
        .and_then(|(k, v)| Some((k.parse().ok()?, v.parse().ok()?)));
    parsed.unwrap_or_else(|| usage(&format!("{flag} {arg}: not K=V (two numbers)")))
}

/// Prints a line of the route's trace.
fn trace(line: &str) {
    eprintln!("{line}");
}

fn main() {
    let mut numbers = Vec::new();
    let mut opts = Options::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tries" => opts.tries.push(level_value("--tries", args.next())),
            "--look" => opts.look.push(level_value("--look", args.next())),
            "--no-free" => opts.free_moves = false,
            "--trace" => opts.trace = Some(trace),
            _ => match a.parse::<u64>() {
                Ok(x) if numbers.len() < 3 => numbers.push(x),
                _ => usage(&format!("unexpected argument {a}")),
            },
        }
    }
    let mut numbers = numbers.into_iter();
    let Some(n) = numbers.next().map(|n| n as usize) else {
        usage("no N");
    };
    let count = numbers.next().unwrap_or(20) as usize;
    let budget = numbers.next().map(Duration::from_millis);
    let dir = tablegen::artifact::tables_dir(None);
    let t = Instant::now();
    let solver = match Solver::load_with(n, &dir, false, &opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("solve_nnn_bench: {e}");
            std::process::exit(2);
        }
    };
    println!(
        "{n}x{n}x{n}: init {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let cube = CubeN::new(n);
    let mut times = Vec::new();
    let mut lens = Vec::new();
    let mut phases: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for seed in 0..count as u64 {
        let st = tablegen::orbits::random_state(&cube, seed);
        let t = Instant::now();
        let sol = match solver.solve(&st, budget) {
            Ok(s) => s,
            Err(e) => panic!("seed {seed}: {e:?} after {:?}", t.elapsed()),
        };
        times.push(t.elapsed().as_secs_f64());
        let mut s = st.clone();
        cube.apply_alg(&mut s, &sol.moves);
        assert!(cube.is_solved(&s), "seed {seed}: not solved");
        lens.push(tablegen::notation::obtm(&sol.moves));
        for &(k, v) in &sol.phases {
            if !order.contains(&k) {
                order.push(k);
            }
            let e = phases.entry(k).or_default();
            e.0 += v;
            e.1 += 1;
        }
    }
    let c = lens.len() as f64;
    println!("{}", summary(&format!("{n}x{n}x{n}"), &lens, &mut times));
    println!(
        "phases (before merging): {}",
        order
            .iter()
            .map(|k| format!("{k} {:.2}", phases[k].0 as f64 / c))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let peak = peak_mib();
    if let Some(m) = peak {
        println!("peak memory {m:.0} MiB");
    }
    // One machine-readable line: N, states, average, min, max, median,
    // p99 and max time (ms), peak MiB.
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize] * 1e3;
    println!(
        "csv,{n},{},{:.2},{},{},{:.1},{:.1},{:.1},{:.0}",
        lens.len(),
        lens.iter().sum::<usize>() as f64 / c,
        lens.iter().min().copied().unwrap_or(0),
        lens.iter().max().copied().unwrap_or(0),
        pct(0.5),
        pct(0.99),
        pct(1.0),
        peak.unwrap_or(0.0)
    );
}
