//! The 3x3x3 two-phase solver as the bigger cubes' finish uses it: random
//! cubes, each given a fixed time to find its shortest solution
//! (`solve_below`, phase 1 on the exact phase-1 table), the average length.
//! The finishes of the 4x4x4 are this search; the length it reaches in a few
//! milliseconds is what a faster search buys there.
//!
//! `cargo run --release -p solvers --example finish3_bench -- [COUNT [MS]]`
//! (default 1,000 cubes, 5 ms each; tables from `$CUBE_TABLES` or `tables/`).
//! A cube for which nothing is found in the time is counted apart, not
//! averaged.

use std::time::{Duration, Instant};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    let count = args.first().copied().unwrap_or(1000);
    let ms = args.get(1).copied().unwrap_or(5);
    let dir = tablegen::artifact::tables_dir(None);
    let solver = solvers::cube3::Solver::load(&dir, true).expect("3x3x3 tables");
    solver
        .load_exact_phase1()
        .expect("3x3x3-optimal-flipslice-twist");
    let (mut total, mut max, mut missed) = (0, 0, 0u64);
    let t = Instant::now();
    for seed in 0..count {
        let cube = tablegen::cube3::random_cube(seed + 1000);
        let moves = solver.solve_below(&cube, 22, Duration::from_millis(ms));
        // No moves: nothing found in the time (counted apart; rare at 5 ms
        // on an idle machine). Every solution found is replayed.
        if moves.is_empty() {
            missed += 1;
            continue;
        }
        let mut c = cube;
        for &m in &moves {
            c = c.apply_move(m);
        }
        assert_eq!(c, tablegen::cube3::CubieCube::SOLVED, "seed {seed}");
        total += moves.len();
        max = max.max(moves.len());
    }
    println!(
        "3x3x3 finish n={count} {ms} ms each: avg {:.3} moves (max {max}), none found {missed}, {:.1} s",
        total as f64 / (count - missed).max(1) as f64,
        t.elapsed().as_secs_f64()
    );
}
