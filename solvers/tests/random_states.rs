//! Random *states* (uniform random ranks, not random moves), solved and checked by
//! replaying the solution on an independent model of the puzzle.

use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use tablegen::cube::CubeN;

fn tables() -> PathBuf {
    // The tests' own directory (target/test-tables): never tables/.
    solvers::tables::test_tables_dir()
}

fn rng() -> rand_xoshiro::Xoshiro256PlusPlus {
    rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(20261122)
}

#[test]
fn two_by_two_random_states_are_solved_optimally() {
    let dir = tables();
    let solver = solvers::cube2::Solver::load(&dir, true).unwrap();
    let cube = CubeN::new(2);
    let mut r = rng();
    let mut lengths = [0usize; 12];
    for _ in 0..3000 {
        let rank = r.gen_range(0..tablegen::cube2::STATES);
        let mut state = tablegen::cube2::Cube2::facelets_of(rank);
        // Any whole-cube orientation is a valid input.
        let rots = tablegen::cube::rotations24();
        cube.apply_alg(&mut state, &rots[r.gen_range(0..24)]);
        let sol = solver.solve(&state).unwrap();
        let moves = tablegen::notation::parse_alg(&sol.text()).unwrap();
        cube.apply_alg(&mut state, &moves);
        assert!(cube.is_solved(&state), "rank {rank}: {}", sol.text());
        assert_eq!(moves.len(), solver.distance(rank) as usize, "optimal");
        lengths[moves.len()] += 1;
    }
    // God's number is 11 (HTM); random states mostly need 8-10 moves.
    assert_eq!(lengths.iter().sum::<usize>(), 3000);
    assert!(lengths[9] > lengths[6]);
}

#[test]
fn pyraminx_random_states_are_solved() {
    use solvers::pyraminx::{PyraState, Solver};
    use tablegen::pyraminx::{parse_alg, Pyra, STATES};
    let solver = Solver::load(&tables(), true).unwrap();
    let mut r = rng();
    let mut max = 0;
    for _ in 0..3000 {
        let core = Pyra::unrank(r.gen_range(0..STATES));
        let tips = [0u8; 4].map(|_| r.gen_range(0..3u8));
        let mut st = PyraState { core, tips };
        let sol = solver.solve(&st).unwrap();
        for m in parse_alg(&sol.text()).unwrap() {
            st = st.apply(m);
        }
        assert!(st.is_solved(), "{}", sol.text());
        max = max.max(sol.moves.len());
    }
    // God's number with tips is 11 + 4.
    assert!(max <= 15);
    // Optimal: a scramble of k moves is never solved in more than k.
    let all = parse_alg("U U' L L' R R' B B' u u' l l' r r' b b'").unwrap();
    for _ in 0..500 {
        let k = r.gen_range(0..9);
        let mut st = PyraState::SOLVED;
        for _ in 0..k {
            st = st.apply(all[r.gen_range(0..all.len())]);
        }
        let sol = solver.solve(&st).unwrap();
        assert!(
            sol.moves.len() <= k,
            "{k}-move scramble solved in {}",
            sol.moves.len()
        );
    }
}

#[test]
fn domino_random_states_are_solved() {
    use solvers::domino::{after, Solver};
    use tablegen::domino::{parse_alg, DominoSpace, STATES};
    let solver = Solver::load(&tables(), true).unwrap();
    let space = DominoSpace::new(tablegen::domino::htm_moves());
    let mut r = rng();
    for _ in 0..2000 {
        let (cp, ep) = space.pieces(r.gen_range(0..STATES));
        let sol = solver.solve(&cp, &ep).unwrap();
        assert!(sol.moves.len() <= 18, "God's number is 18");
        // Replay on the facelet model: scramble = inverse of solution applied to
        // solved must give the same state string.
        let moves = parse_alg(&sol.text()).unwrap();
        let mut pos = (cp, ep);
        for &m in &moves {
            pos = tablegen::domino::apply_pieces(&pos.0, &pos.1, m);
        }
        let solved = after(&[]);
        assert_eq!(
            solver.rank(&pos.0, &pos.1),
            solver.rank(&solved.0, &solved.1)
        );
    }
}

/// Uniformly random 4x4x4 states (random corner, wing and centre arrangements, so
/// every OLL and PLL parity case occurs), solved by the reduction and replayed on
/// the facelet model from the printed notation. Search widths are reduced to keep
/// the test short; the solver's correctness does not depend on them. Four
/// hundred here; the slow set solves 1,600 more.
#[test]
fn four_by_four_random_states_are_solved() {
    four_by_four_random_states(0, 400);
}

/// 1,600 more in the ignored set; the soak (`CUBE_SOAK`) 5,000 more.
#[test]
#[ignore = "1,600 more solves, about a minute: run with --ignored"]
fn four_by_four_more_random_states_are_solved() {
    let count = if std::env::var_os("CUBE_SOAK").is_some() {
        5000
    } else {
        1600
    };
    four_by_four_random_states(400, count);
}

/// Solves the random 4x4x4 states of seeds `first..first + count` (the
/// variable `SOLVE4_STATES` sets another count) and checks them.
fn four_by_four_random_states(first: u64, count: u64) {
    use rayon::prelude::*;
    use solvers::cube4::{Options, Solver};
    use tablegen::notation::MoveKind;
    let solver = Solver::load(&tables(), true).unwrap();
    let cube = CubeN::new(4);
    let opts = Options {
        phase2_candidates: 1,
        phase3_solutions: 2,
        finish_min: std::time::Duration::from_millis(1),
        time_budget: std::time::Duration::from_millis(5),
        ..Options::default()
    };
    let w = tablegen::cube4::Wings::new();
    let count: u64 = std::env::var("SOLVE4_STATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(count);
    let results: Vec<(usize, bool)> = (first..first + count)
        .into_par_iter()
        .map(|seed| {
            let state = tablegen::cube4::random_state(seed ^ 0x4444);
            let odd_wings = tablegen::cube4::odd(&w.read(&state).unwrap());
            let sol = solver
                .solve(&state, opts)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let text: Vec<String> = sol.moves.iter().map(|m| m.to_string()).collect();
            let moves = tablegen::notation::parse_alg(&text.join(" ")).unwrap();
            assert_eq!(moves, sol.moves, "notation round trip");
            assert!(moves
                .iter()
                .all(|m| matches!(m.kind, MoveKind::Block(1 | 2))));
            let mut s = state.clone();
            cube.apply_alg(&mut s, &moves);
            assert!(cube.is_solved(&s), "seed {seed}: {}", text.join(" "));
            let phases: usize = sol
                .phases
                .iter()
                .map(|&(name, n)| if name == "merged" { 0 } else { n })
                .sum();
            let merged = sol
                .phases
                .iter()
                .find(|p| p.0 == "merged")
                .map_or(0, |p| p.1);
            assert_eq!(phases, moves.len() + merged);
            (moves.len(), odd_wings)
        })
        .collect();
    let odd = results.iter().filter(|r| r.1).count();
    let n = results.len();
    // About half the states have an odd wing permutation (OLL parity): within
    // five standard deviations of n/2.
    let spread = 2.5 * (n as f64).sqrt();
    assert!(
        (odd as f64 - n as f64 / 2.0).abs() <= spread,
        "OLL parity cases: {odd} of {n}"
    );
    let max = results.iter().map(|r| r.0).max().unwrap();
    let avg = results.iter().map(|r| r.0).sum::<usize>() as f64 / n as f64;
    eprintln!("4x4x4: {n} random states, avg {avg:.2} moves, max {max}");
    assert!(max <= 80, "max {max}");
}
