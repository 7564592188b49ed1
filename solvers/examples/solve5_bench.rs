//! 5x5x5 benchmark on uniformly random states (warm tables, one thread): the
//! reduction stages built so far (U/D centres, L/R centres with the wing
//! parity, F/B centres with the midges oriented and the wings split), their
//! lengths in OBTM (average, min, max, per stage) and time (median, p99);
//! init time, table bytes, peak memory. Then the pairing stage's bound at the
//! start of each reduced cube.
//!
//! `cargo run --release -p solvers --example solve5_bench [-- COUNT [BUDGET_MS]]`
//!
//! Knobs (environment): BENCH5_C1 / BENCH5_C2 (stage-1 / stage-2 and -3
//! candidates), BENCH5_L2 (node budget of one length in stages 2 and 3),
//! BENCH5_FIRST (first seed).

use solvers::cube5::{Options, Solver};
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;

mod common;
use common::{peak_mib, summary};

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse::<u64>().ok());
    let count = args.next().unwrap_or(100) as usize;
    let mut opts = Options::default();
    if let Some(ms) = args.next() {
        opts.time_budget = Duration::from_millis(ms);
    }
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(k) = env("BENCH5_C1") {
        opts.stage1_candidates = k as usize;
    }
    if let Some(k) = env("BENCH5_C2") {
        opts.stage2_candidates = k as usize;
    }
    if let Some(k) = env("BENCH5_L2") {
        opts.stage2_level_nodes = k;
    }
    let dir = tablegen::artifact::tables_dir(None);
    let t = Instant::now();
    let solver = Solver::load(&dir, false).expect("5x5x5 tables");
    println!(
        "init {:.1} ms, tables {:.1} MB, budget {} ms",
        t.elapsed().as_secs_f64() * 1e3,
        solver.table_bytes() as f64 / 1e6,
        opts.time_budget.as_millis()
    );
    let cube = CubeN::new(5);
    let mut times = Vec::new();
    let mut lens = Vec::new();
    let mut stage_sum = [0usize; 3];
    let mut pair_bound = Vec::new();
    let first = env("BENCH5_FIRST").unwrap_or(0);
    for seed in first..first + count as u64 {
        let st = tablegen::orbits::random_state(&cube, seed);
        let t = Instant::now();
        let chains = solver.reduce(&st, opts).expect("reducible");
        times.push(t.elapsed().as_secs_f64());
        let best = &chains[0];
        lens.push(tablegen::notation::obtm(&best.moves));
        for (acc, n) in stage_sum.iter_mut().zip(best.lens) {
            *acc += n;
        }
        let (_, h) = solvers::cube5::Chained::root(solver.pair(), &best.state).expect("reduced");
        pair_bound.push(h);
    }
    let n = lens.len() as f64;
    println!("{}", summary("5x5x5 stages 1-3", &lens, &mut times));
    println!(
        "stages: centres-ud {:.2}, sides {:.2}, split {:.2}",
        stage_sum[0] as f64 / n,
        stage_sum[1] as f64 / n,
        stage_sum[2] as f64 / n
    );
    println!(
        "pairing stage bound at the reduced cube: avg {:.2} (min {}, max {})",
        pair_bound.iter().sum::<usize>() as f64 / n,
        pair_bound.iter().min().copied().unwrap_or(0),
        pair_bound.iter().max().copied().unwrap_or(0)
    );
    if let Some(m) = peak_mib() {
        println!("peak memory {m:.0} MiB");
    }
}
