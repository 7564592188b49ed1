//! Random *states* (uniform random ranks, not random moves), solved and checked by
//! replaying the solution on an independent model of the puzzle.

use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use tablegen::cube::CubeN;

fn tables() -> PathBuf {
    // A private directory: tests build what they need and never touch tables/.
    let dir = std::env::temp_dir().join(format!("cubesolve-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rng() -> rand_xoshiro::Xoshiro256PlusPlus {
    rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(20261122)
}

#[test]
fn two_by_two_random_states_are_solved_optimally() {
    let dir = tables();
    let solver = solvers::cube2::Solver2::new(&dir, true).unwrap();
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
    use solvers::pyraminx::{PyraState, SolverPyra};
    use tablegen::pyraminx::{parse_alg, Pyra, STATES};
    let solver = SolverPyra::new(&tables(), true).unwrap();
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
    use solvers::domino::{after, SolverDomino};
    use tablegen::domino::{parse_alg, DominoSpace, STATES};
    let solver = SolverDomino::new(&tables(), true).unwrap();
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
