//! Solver benchmark on random states (warm tables, one thread): median and p99
//! solve time and average length, per puzzle.
//!
//! `cargo run --release -p solvers --example solve_bench [-- COUNT]`

use rand::{Rng, SeedableRng};
use std::time::Instant;

fn report(name: &str, mut times: Vec<f64>, lengths: &[usize]) {
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
    let avg = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
    let max = lengths.iter().max().copied().unwrap_or(0);
    println!(
        "{name:<10} n={:<6} median {:>8.1} us  p99 {:>8.1} us  avg length {avg:.2}  max {max}",
        times.len(),
        pct(0.5) * 1e6,
        pct(0.99) * 1e6
    );
}

fn main() {
    let count: usize = std::env::args()
        .skip(1)
        .find_map(|s| s.parse().ok())
        .unwrap_or(1000);
    let dir = tablegen::artifact::tables_dir(None);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);

    let t = Instant::now();
    let s2 = solvers::cube2::Solver::load(&dir, true).expect("2x2x2 table");
    println!("2x2x2 init {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let (mut times, mut lens) = (Vec::new(), Vec::new());
    for _ in 0..count {
        let st = tablegen::cube2::Cube2::facelets_of(rng.gen_range(0..tablegen::cube2::STATES));
        let t = Instant::now();
        let sol = s2.solve(&st).expect("solvable");
        times.push(t.elapsed().as_secs_f64());
        lens.push(sol.moves.len());
    }
    report("2x2x2", times, &lens);

    let t = Instant::now();
    let sp = solvers::pyraminx::Solver::load(&dir, true).expect("pyraminx table");
    println!("pyraminx init {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let (mut times, mut lens) = (Vec::new(), Vec::new());
    for _ in 0..count {
        let core = tablegen::pyraminx::Pyra::unrank(rng.gen_range(0..tablegen::pyraminx::STATES));
        let tips = [0u8; 4].map(|_| rng.gen_range(0..3u8));
        let st = solvers::pyraminx::PyraState { core, tips };
        let t = Instant::now();
        let sol = sp.solve(&st).expect("solvable");
        times.push(t.elapsed().as_secs_f64());
        lens.push(sol.moves.len());
    }
    report("pyraminx", times, &lens);

    let t = Instant::now();
    let s3 = solvers::cube3::Solver::load(&dir, true).expect("3x3x3 tables");
    // As `cubesolve` solves: phase 1 on its exact distances.
    s3.load_exact_phase1().expect("3x3x3 exact phase-1 table");
    println!(
        "3x3x3 init {:.1} ms, tables {} bytes",
        t.elapsed().as_secs_f64() * 1e3,
        s3.table_bytes()
    );
    for (name, max_length, budget_ms) in [
        ("3x3x3 <=21", 21, 60_000),
        ("3x3x3 <=20", 20, 60_000),
        ("3x3x3 10ms", 0, 10),
    ] {
        let opts = solvers::cube3::Options {
            max_length,
            time_budget: std::time::Duration::from_millis(budget_ms),
            ..Default::default()
        };
        let (mut times, mut lens) = (Vec::new(), Vec::new());
        for seed in 0..count as u64 {
            let c = tablegen::cube3::random_cube(seed);
            let t = Instant::now();
            let sol = s3.solve(&c, opts);
            times.push(t.elapsed().as_secs_f64());
            lens.push(sol.len());
        }
        report(name, times, &lens);
    }
    // What `cubesolve solve` runs: the registry's solver on a facelet state,
    // default options (stop at 21 moves, 1 s budget).
    let p3 = solvers::registry::find("3x3x3").expect("3x3x3 puzzle");
    let l3 = p3.load(&dir, true).expect("3x3x3 tables");
    let (mut times, mut lens) = (Vec::new(), Vec::new());
    for seed in 0..count as u64 {
        let text = tablegen::cube::CubeN::new(3).format_state(
            &tablegen::cube3::random_cube(seed).to_facelets(),
            tablegen::cube::FaceOrder::Urfdlb,
        );
        let input = solvers::puzzle::Input::State {
            text: &text,
            order: None,
        };
        let pos = p3.parse(&input).expect("a legal state");
        let t = Instant::now();
        let sol = l3
            .solve(&pos, &solvers::puzzle::Options::default())
            .expect("solved");
        times.push(t.elapsed().as_secs_f64());
        lens.push(sol.moves.len());
    }
    report("3x3x3 cli", times, &lens);
    if std::env::args().any(|a| a == "--only-3x3x3") {
        return;
    }

    let t = Instant::now();
    let sd = solvers::domino::Solver::load(&dir, true).expect("domino table");
    println!("domino init {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let space = tablegen::domino::DominoSpace::new(tablegen::domino::htm_moves());
    let (mut times, mut lens) = (Vec::new(), Vec::new());
    for _ in 0..count {
        let (cp, ep) = space.pieces(rng.gen_range(0..tablegen::domino::STATES));
        let t = Instant::now();
        let sol = sd.solve(&cp, &ep).expect("solvable");
        times.push(t.elapsed().as_secs_f64());
        lens.push(sol.moves.len());
    }
    report("domino", times, &lens);
}
