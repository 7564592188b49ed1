//! 4x4x4 reduction benchmark on uniformly random states (warm tables, one
//! thread): OBTM length (average, min, max, per phase), median and p99 solve
//! time, table bytes and peak memory.
//!
//! `cargo run --release -p solvers --example solve4_bench [-- COUNT [BUDGET_MS [WIDTH]]]`

use solvers::cube4::{Options, Solver};
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;

mod common;
use common::{peak_mib, summary};

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse::<u64>().ok());
    let count = args.next().unwrap_or(1000) as usize;
    let mut opts = Options::default();
    if let Some(ms) = args.next() {
        opts.time_budget = Duration::from_millis(ms);
    }
    if let Some(w) = args.next() {
        // Narrower search: W phase-1 candidates, W/8 phase-2 candidates.
        opts.phase1_candidates = w as usize;
        opts.phase2_candidates = (w as usize / 8).max(1);
    }
    // Experiment knobs: BENCH4_P3 (phase-3 solutions finished), BENCH4_MORE
    // (phase-3 nodes after the first, per ms of budget), BENCH4_FINMIN (ms per finish at least),
    // BENCH4_SLOW (print the seeds that take longer than this many ms),
    // BENCH4_EACH (1: print each seed's moves and time), BENCH4_REDUCE (1:
    // time phases 1 to 3 alone, on one thread, ended by their node budgets),
    // BENCH4_FIRST (first seed), BENCH4_P2LEVEL / BENCH4_P2NODES (phase-2 node
    // budgets of one length / in all), BENCH4_P1C / BENCH4_P2C (phase-1 /
    // phase-2 candidates), BENCH4_P3LEVEL (phase-3 node budget of one length),
    // BENCH4_P1SLACK (phase-1 moves over optimal), BENCH4_P1GEN (phase-1
    // solutions ranked for the starts), BENCH4_SPLIT (0: each thread keeps the
    // phase-2 ends it shares with another), BENCH4_THREADS (threads of
    // a solve; default one per core), BENCH4_TARGET / BENCH4_TARGET_MS (a
    // target length, and when a solve going on for it stops).
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    if let Some(k) = env("BENCH4_P3") {
        opts.phase3_solutions = k as usize;
    }
    if let Some(k) = env("BENCH4_P2C") {
        opts.phase2_candidates = k as usize;
    }
    if let Some(k) = env("BENCH4_P1C") {
        opts.phase1_candidates = k as usize;
    }
    if let Some(k) = env("BENCH4_P1GEN") {
        opts.phase1_generated = k as usize;
    }
    if let Some(k) = env("BENCH4_MORE") {
        opts.phase3_more_nodes_per_ms = k;
    }
    if let Some(k) = env("BENCH4_P2LEVEL") {
        opts.phase2_level_nodes = k;
    }
    if let Some(k) = env("BENCH4_P2NODES") {
        opts.phase2_nodes = k;
    }
    if let Some(k) = env("BENCH4_P3LEVEL") {
        opts.phase3_level_nodes = k;
    }
    if let Some(k) = env("BENCH4_P1SLACK") {
        opts.phase1_slack = k as usize;
    }
    if let Some(k) = env("BENCH4_THREADS") {
        opts.threads = k as usize;
    }
    if let Some(k) = env("BENCH4_SPLIT") {
        opts.split_ends = k != 0;
    }
    if let Some(k) = env("BENCH4_TARGET") {
        opts.target_length = Some(k as usize);
    }
    if let Some(k) = env("BENCH4_TARGET_MS") {
        opts.target_time = Duration::from_millis(k);
    }
    if let Some(k) = env("BENCH4_FINMIN") {
        opts.finish_min = Duration::from_millis(k);
    }
    let dir = tablegen::artifact::tables_dir(None);
    let t = Instant::now();
    let s4 = Solver::load(&dir, true).expect("4x4x4 tables");
    println!(
        "init {:.1} ms, tables {:.1} MB, budget {} ms",
        t.elapsed().as_secs_f64() * 1e3,
        s4.table_bytes() as f64 / 1e6,
        opts.time_budget.as_millis()
    );
    let cube = CubeN::new(4);
    if env("BENCH4_REDUCE").is_some_and(|k| k != 0) {
        reduce_only(&s4, opts, count);
        return;
    }
    let mut times = Vec::new();
    let mut lens = Vec::new();
    let mut phase_sum: Vec<(&str, usize)> = Vec::new();
    let slow = env("BENCH4_SLOW");
    let each = env("BENCH4_EACH").is_some_and(|k| k != 0);
    let first = env("BENCH4_FIRST").unwrap_or(0);
    for seed in first..first + count as u64 {
        let st = tablegen::cube4::random_state(seed);
        let t = Instant::now();
        let sol = s4.solve(&st, opts).expect("solvable");
        times.push(t.elapsed().as_secs_f64());
        if slow.is_some_and(|ms| t.elapsed() > Duration::from_millis(ms)) {
            println!(
                "slow: seed {seed}, {:.0} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        let mut s = st.clone();
        cube.apply_alg(&mut s, &sol.moves);
        assert!(cube.is_solved(&s), "seed {seed}: not solved");
        lens.push(sol.moves.len());
        if each {
            println!(
                "each: seed {seed} moves {} ms {:.1}",
                sol.moves.len(),
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        for &(p, n) in &sol.phases {
            match phase_sum.iter_mut().find(|(q, _)| *q == p) {
                Some(acc) => acc.1 += n,
                None => phase_sum.push((p, n)),
            }
        }
    }
    let n = lens.len() as f64;
    let mean = times.iter().sum::<f64>() / n * 1e3;
    let gone_on = times
        .iter()
        .filter(|&&t| t > opts.time_budget.as_secs_f64() * 1.05)
        .count();
    println!("{}", summary("4x4x4", &lens, &mut times));
    println!("mean {mean:.1} ms; past the budget by over 5 %: {gone_on}");
    let phases: Vec<String> = phase_sum
        .iter()
        .map(|(p, s)| format!("{p} {:.2}", *s as f64 / n))
        .collect();
    println!("phases: {}", phases.join(", "));
    if let Some(m) = peak_mib() {
        println!("peak memory {m:.0} MiB");
    }
}

/// Phases 1 to 3 alone ([`Solver::reduce`]) on one thread, with a time
/// budget long enough that their node budgets end them: the same moves on
/// every run of a build, so that two builds' times compare the searches'
/// speed alone.
fn reduce_only(s4: &Solver, mut opts: Options, count: usize) {
    opts.time_budget = Duration::from_secs(20);
    opts.hard_limit = Duration::from_secs(60);
    // Phase 3's search after its first solution as at a 150 ms budget.
    opts.phase3_more_nodes_per_ms = 150_000 / 20_000;
    let cube = CubeN::new(4);
    let reduced = solvers::big::Reducer::new(4);
    let mut times = Vec::new();
    let mut lens = Vec::new();
    for seed in 0..count as u64 {
        let st = tablegen::cube4::random_state(seed);
        let t = Instant::now();
        let moves = s4.reduce(&st, opts).expect("reducible");
        times.push(t.elapsed().as_secs_f64());
        let mut s = st.clone();
        cube.apply_alg(&mut s, &moves);
        assert!(reduced.is_reduced(&s), "seed {seed}: not reduced");
        lens.push(moves.len());
    }
    let total: f64 = times.iter().sum();
    println!("{}", summary("4x4x4 phases 1-3", &lens, &mut times));
    println!("total {:.2} s", total);
}
