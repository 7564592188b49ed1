//! 5x5x5 benchmark on uniformly random states (warm tables, one thread):
//! for each stage built so far, its length (average, min, max) and time
//! (median, p99), the tables' load time and the peak memory.
//!
//! `cargo run --release -p solvers --example solve5_bench [-- COUNT [AXES]]`

use solvers::cube5::{in_frame, CentreStage};
use solvers::search::Clock;
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;

mod common;
use common::peak_mib;

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    // Stage 1 on this many axes (1: U/D only; 3: the best colour pair).
    let axes: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let dir = tablegen::artifact::tables_dir(None);
    let t = Instant::now();
    let stage = CentreStage::ud(&dir, false).expect("5x5x5 tables");
    let lr = CentreStage::lr(&dir, false).expect("5x5x5 tables");
    let solved = CentreStage::solved(&dir, false).expect("5x5x5 tables");
    let init = t.elapsed();
    let cube = CubeN::new(5);
    let mut lens = Vec::new();
    let mut times = Vec::new();
    let mut lens2 = Vec::new();
    let mut times2 = Vec::new();
    let rotations = solvers::moves::axis_rotations();
    let mut lens3 = Vec::new();
    let mut times3 = Vec::new();
    for seed in 0..count as u64 {
        let s = tablegen::orbits::random_state(&cube, seed);
        let t = Instant::now();
        let clock = Clock {
            soft: t + Duration::from_secs(60),
            hard: t + Duration::from_secs(60),
        };
        let found = stage.solve(&s, axes, 1, clock);
        times.push(t.elapsed());
        lens.push(found.first().map_or(0, |f| f.path.len()));
        // Stages 1 and 2 chained: stage 2 from the eight best stage-1 ends.
        let t = Instant::now();
        let ends: Vec<(Vec<u8>, usize)> = stage
            .solve(&s, axes, 8, clock)
            .iter()
            .map(|f| {
                let moves: Vec<_> = f.path.iter().map(|&i| stage.moves()[i]).collect();
                let mut st = in_frame(&s, &rotations[f.root]);
                cube.apply_alg(&mut st, &moves);
                (st, moves.len())
            })
            .collect();
        let found = lr.solve_from(&ends, 8, clock);
        times2.push(t.elapsed());
        lens2.push(found.first().map_or(0, |f| ends[f.root].1 + f.path.len()));
        // All centres: stage 3 from the eight best stage-2 ends (only with
        // BENCH5_STAGE3=1: its bound, the larger of two orbits' distances,
        // is weak, and some states take up to the minute the clock allows).
        if std::env::var_os("BENCH5_STAGE3").is_some() {
            let ends2: Vec<(Vec<u8>, usize)> = found
                .iter()
                .map(|f| {
                    let (mut st, n) = ends[f.root].clone();
                    let moves: Vec<_> = f.path.iter().map(|&i| lr.moves()[i]).collect();
                    cube.apply_alg(&mut st, &moves);
                    (st, n + moves.len())
                })
                .collect();
            let found = solved.solve_from(&ends2, 1, clock);
            times3.push(t.elapsed());
            lens3.push(found.first().map_or(0, |f| ends2[f.root].1 + f.path.len()));
        }
    }
    times.sort();
    times2.sort();
    times3.sort();
    let avg = lens.iter().sum::<usize>() as f64 / count as f64;
    println!("init {:.1} ms", init.as_secs_f64() * 1e3);
    println!(
        "centres-ud ({axes} axes): n={count} avg {avg:.2} moves (min {}, max {}), median {:.1} ms, p99 {:.1} ms",
        lens.iter().min().unwrap_or(&0),
        lens.iter().max().unwrap_or(&0),
        times[count / 2].as_secs_f64() * 1e3,
        times[(count * 99 / 100).min(count - 1)].as_secs_f64() * 1e3,
    );
    println!(
        "centres-ud + centres-lr (8 stage-1 ends): avg {:.2} moves (min {}, max {}), median {:.1} ms, p99 {:.1} ms",
        lens2.iter().sum::<usize>() as f64 / count as f64,
        lens2.iter().min().unwrap_or(&0),
        lens2.iter().max().unwrap_or(&0),
        times2[count / 2].as_secs_f64() * 1e3,
        times2[(count * 99 / 100).min(count - 1)].as_secs_f64() * 1e3,
    );
    if !lens3.is_empty() {
        println!(
            "all centres (stages 1-3, 8 ends each): avg {:.2} moves (min {}, max {}), median {:.1} ms, p99 {:.1} ms",
            lens3.iter().sum::<usize>() as f64 / count as f64,
            lens3.iter().min().unwrap_or(&0),
            lens3.iter().max().unwrap_or(&0),
            times3[count / 2].as_secs_f64() * 1e3,
            times3[(count * 99 / 100).min(count - 1)].as_secs_f64() * 1e3,
        );
    }
    if let Some(p) = peak_mib() {
        println!("peak memory {p:.0} MiB");
    }
}
