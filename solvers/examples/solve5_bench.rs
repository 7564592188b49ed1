//! 5x5x5 benchmark on uniformly random states (warm tables, one solve at a
//! time on every core, or BENCH5_THREADS threads): the
//! whole solve (five reduction stages and the 3x3x3 finish), its length in
//! OBTM (average, min, max, and per stage: the reduction and the finish
//! apart) and time (median, p99, max); init time, table bytes, peak memory.
//!
//! `cargo run --release -p solvers --example solve5_bench [-- COUNT [BUDGET_MS]] [--trace] [--each]`
//!
//! `--each` prints a line per state: its seed, milliseconds, moves and each
//! stage's moves (the tail's states, to run again with `--trace`).
//!
//! `--trace` prints each stage's roots, bounds, solutions, time and nodes
//! (on standard error: [`solvers::cube5::Options::trace`]).
//!
//! Knobs (environment): BENCH5_C1 / BENCH5_C2 / BENCH5_C3 (stage-1 /
//! stage-2 / stage-3 candidates), BENCH5_L2 (node budget of one length in stages 2 to 5),
//! BENCH5_FALL (ms the finishes may take in all after the budget), BENCH5_FMIN (least time of one 3x3x3 finish, ms), BENCH5_G2 / BENCH5_G4 / BENCH5_G5 (nodes stages 2-3 / 4 / 5 goes on for after its first solution), BENCH5_S1 (stage 1's share of the budget, eighths), BENCH5_R3 (stage-3 roots kept), BENCH5_SETS (sets of four tredges tried per stage-3 end), BENCH5_R4
//! (stage-4 roots kept), BENCH5_L4 (node budget of one length in stages 4 and 5),
//! BENCH5_W4 / BENCH5_W5 (stage 4's / 5's bound weight,
//! eighths), BENCH5_RL (0: stage 4 in the pairing group only), BENCH5_WRL
//! (the R/L-layer stage 4's bound weight, eighths), BENCH5_SRL (0: stage 3
//! keeps the ends the R/L-layer stage cannot take), BENCH5_REFRAME (0:
//! stage 3 only in stage 1's frame), BENCH5_SLICE (0: stage 3 in six
//! frames, each end taken free of the M slice only), BENCH5_C4 /
//! BENCH5_C5 (stage-4 / stage-5 candidates), BENCH5_THREADS (threads of
//! the stages and finishes; 0: one per core), BENCH5_FIRST (first seed).

use solvers::cube5::{Options, Solver, STAGES};
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;

mod common;
use common::{peak_mib, summary};

/// Prints a line of the stages' trace.
fn trace(line: &str) {
    eprintln!("{line}");
}

fn main() {
    let mut opts = Options::default();
    let mut numbers = Vec::new();
    let mut each = false;
    for a in std::env::args().skip(1) {
        match (a.as_str(), a.parse::<u64>()) {
            ("--trace", _) => opts.trace = Some(trace),
            ("--each", _) => each = true,
            (_, Ok(x)) if numbers.len() < 2 => numbers.push(x),
            _ => {
                eprintln!("solve5_bench: unexpected argument {a}\nusage: solve5_bench [COUNT [BUDGET_MS]] [--trace] [--each]");
                std::process::exit(2);
            }
        }
    }
    let mut args = numbers.into_iter();
    let count = args.next().unwrap_or(100) as usize;
    if let Some(ms) = args.next() {
        opts.time_budget = Duration::from_millis(ms);
    }
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    // Each knob: its variable, the option it sets, and how.
    macro_rules! knobs {
        ($($var:literal => $field:ident : $conv:expr),* $(,)?) => {
            $(if let Some(k) = env($var) {
                opts.$field = ($conv)(k);
            })*
        };
    }
    let size = |k: u64| k as usize;
    let small = |k: u64| k as u8;
    let nodes = |k: u64| k;
    knobs!(
        "BENCH5_C1" => stage1_candidates: size,
        "BENCH5_C2" => stage2_candidates: size,
        "BENCH5_C3" => stage3_candidates: size,
        "BENCH5_L2" => stage2_level_nodes: nodes,
        "BENCH5_FALL" => finish_time: Duration::from_millis,
        "BENCH5_FMIN" => finish_min: Duration::from_millis,
        "BENCH5_G2" => stage2_grace: nodes,
        "BENCH5_G4" => stage4_grace: nodes,
        "BENCH5_G5" => stage5_grace: nodes,
        "BENCH5_S1" => stage1_share: small,
        "BENCH5_R3" => split_roots: size,
        "BENCH5_SETS" => pair_sets: size,
        "BENCH5_W5" => last_weight: small,
        "BENCH5_W4" => pair_weight: small,
        "BENCH5_WRL" => rl_weight: small,
        "BENCH5_RL" => pair_rl: |k: u64| k != 0,
        "BENCH5_SRL" => split_for_rl: |k: u64| k != 0,
        "BENCH5_REFRAME" => reframe: |k: u64| k != 0,
        "BENCH5_SLICE" => slice_pair: |k: u64| k != 0,
        "BENCH5_L4" => pair_level_nodes: nodes,
        "BENCH5_R4" => stage4_roots: size,
        "BENCH5_C4" => stage4_candidates: size,
        "BENCH5_C5" => stage5_candidates: size,
        "BENCH5_THREADS" => threads: size,
    );
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
    let mut reduction = Vec::new();
    let mut stage_sum = [0usize; 6];
    let first = env("BENCH5_FIRST").unwrap_or(0);
    for seed in first..first + count as u64 {
        let st = tablegen::orbits::random_state(&cube, seed);
        let t = Instant::now();
        let sol = match solver.solve(&st, opts) {
            Ok(s) => s,
            Err(e) => panic!("seed {seed}: {e:?} after {:?}", t.elapsed()),
        };
        times.push(t.elapsed().as_secs_f64());
        let mut s = st.clone();
        cube.apply_alg(&mut s, &sol.moves);
        assert!(cube.is_solved(&s), "seed {seed}: not solved");
        lens.push(tablegen::notation::obtm(&sol.moves));
        let mut red = 0;
        for (k, name) in STAGES.iter().enumerate() {
            let n = sol.phases.iter().find(|p| p.0 == *name).map_or(0, |p| p.1);
            stage_sum[k] += n;
            if k < 5 {
                red += n;
            }
        }
        reduction.push(red);
        if each {
            println!(
                "seed {seed}: {:.0} ms, {} moves ({})",
                times[times.len() - 1] * 1e3,
                lens[lens.len() - 1],
                sol.phases
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let n = lens.len() as f64;
    println!("{}", summary("5x5x5", &lens, &mut times));
    println!(
        "reduction {:.2} + 3x3x3 {:.2} (before merging); stages: {}",
        reduction.iter().sum::<usize>() as f64 / n,
        stage_sum[5] as f64 / n,
        STAGES
            .iter()
            .zip(stage_sum)
            .map(|(k, v)| format!("{k} {:.2}", v as f64 / n))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(m) = peak_mib() {
        println!("peak memory {m:.0} MiB");
    }
}
