//! 5x5x5 benchmark on uniformly random states (warm tables, one thread):
//! for each stage built so far, its length (average, min, max) and time
//! (median, p99), the tables' load time and the peak memory.
//!
//! `cargo run --release -p solvers --example solve5_bench [-- COUNT [AXES]]`

use solvers::cube5::CentreStage;
use solvers::search::Clock;
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;

/// Peak resident memory of this process (Linux), in MiB.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

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
    let init = t.elapsed();
    let cube = CubeN::new(5);
    let mut lens = Vec::new();
    let mut times = Vec::new();
    let mut lens2 = Vec::new();
    let mut times2 = Vec::new();
    let recolour = solvers::moves::recolourings();
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
                let mut st: Vec<u8> = s.iter().map(|&c| recolour[f.root][c as usize]).collect();
                cube.apply_alg(&mut st, &moves);
                (st, moves.len())
            })
            .collect();
        let found = lr.solve_from(&ends, 1, clock);
        times2.push(t.elapsed());
        lens2.push(found.first().map_or(0, |f| ends[f.root].1 + f.path.len()));
    }
    times.sort();
    times2.sort();
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
    if let Some(p) = peak_mib() {
        println!("peak memory {p:.0} MiB");
    }
}
