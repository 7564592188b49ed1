//! Tests of the 4x4x4 solver.

use super::centres::centres_of;
use super::phase3::NOT_REACHED;
use super::*;
use crate::tables::nibble;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use tablegen::bfs::Space;
use tablegen::cube::CubeN;
use tablegen::notation::MoveKind;

fn stages() -> CentreStages {
    CentreStages::load(&crate::tables::test_tables_dir(), true).unwrap()
}

fn all_centres(cube: &CubeN) -> Vec<usize> {
    Face::ALL
        .iter()
        .flat_map(|&f| centres_of(cube, f))
        .collect()
}

/// Solved except for a uniformly random arrangement of the 24 centre facelets
/// (a real 4x4x4 state: centres of one colour are interchangeable, so the
/// permutation can always be taken even, as the solved corners require).
fn random_centres(cube: &CubeN, rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
    let mut s = cube.solved();
    let cells = all_centres(cube);
    let mut colours: Vec<u8> = cells.iter().map(|&i| s[i]).collect();
    colours.shuffle(rng);
    for (&i, &c) in cells.iter().zip(&colours) {
        s[i] = c;
    }
    s
}

/// 200-299 random moves: outer block turns, inner slices and whole-cube
/// rotations (the centres then end up in another orientation).
fn random_scramble(cube: &CubeN, rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
    let mut s = cube.solved();
    for _ in 0..rng.gen_range(200..300) {
        let face = Face::ALL[rng.gen_range(0..6)];
        let kind = match rng.gen_range(0..10) {
            0..=3 => MoveKind::Block(1),
            4..=7 => MoveKind::Block(2),
            8 => MoveKind::Slice(2),
            _ => MoveKind::Rotation,
        };
        let turns = rng.gen_range(1..4);
        cube.apply(&mut s, Move { face, kind, turns });
    }
    s
}

/// Solves `state`, checks every stage (moves in its set, length = table
/// distance, goal reached on the colours) and returns the stage lengths.
fn check(st: &CentreStages, state: &[u8]) -> [usize; 3] {
    let cube = &st.cube;
    let sol = st.solve(state).unwrap();
    let mut s = state.to_vec();
    for (k, (stage, moves)) in st.stages.iter().zip(&sol).enumerate() {
        assert_eq!(
            moves.len(),
            stage.distance(&s).unwrap() as usize,
            "stage {k}"
        );
        for m in moves {
            assert!(stage.moves.contains(m), "stage {k}: {m} not in its set");
            let wide_quarter = m.kind == MoveKind::Block(2) && m.turns != 2;
            match k {
                0 => assert!(matches!(m.kind, MoveKind::Block(1 | 2))),
                1 => assert!(
                    !wide_quarter || m.face.axis() == 0,
                    "stage 2 uses {m}, which unstages U/D"
                ),
                _ => assert!(!wide_quarter, "stage 3 uses {m}"),
            }
        }
        cube.apply_alg(&mut s, moves);
        let on = |faces: &[Face], colours: &[Face]| {
            faces.iter().all(|&f| {
                centres_of(cube, f)
                    .iter()
                    .all(|&i| colours.iter().any(|&c| c as u8 == s[i]))
            })
        };
        use Face::*;
        assert!(on(&[U, D], &[U, D]), "stage {k}: U/D not staged");
        if k >= 1 {
            assert!(on(&[L, R], &[L, R]), "stage {k}: L/R not staged");
        }
    }
    for f in Face::ALL {
        for i in centres_of(cube, f) {
            assert_eq!(s[i], f as u8, "facelet {i}");
        }
    }
    [sol[0].len(), sol[1].len(), sol[2].len()]
}

#[test]
fn tables_and_move_sets() {
    let st = stages();
    let sizes: Vec<usize> = st.stages.iter().map(|s| s.moves.len()).collect();
    assert_eq!(sizes, [36, 28, 24]);
    let ranks: Vec<u64> = st.stages.iter().map(|s| s.space.size()).collect();
    assert_eq!(ranks, [735_471, 12_870, 343_000]);
    let solved = st.cube.solved();
    assert_eq!(st.solve(&solved).unwrap(), [vec![], vec![], vec![]]);
}

#[test]
fn bad_input_is_an_error() {
    let st = stages();
    let solved = st.cube.solved();
    let input = |r: Result<_, SolveError>| matches!(r, Err(SolveError::Input(_)));
    assert!(input(st.solve(&solved[..95])));
    assert!(input(st.solve(&[0; 97])));
    let mut s = solved.clone();
    s[5] = 6;
    assert!(input(st.solve(&s)));
    // Five U centres and three R centres.
    let mut s = solved.clone();
    s[centres_of(&st.cube, Face::R)[0]] = Face::U as u8;
    assert!(input(st.solve(&s)));
    // Only the centres count: a swapped pair of corner stickers is not looked at.
    let mut s = solved;
    s.swap(0, 3);
    assert!(st.solve(&s).is_ok());
}

#[test]
fn thousands_of_random_states() {
    let st = stages();
    let cube = &st.cube;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let n = 2000;
    let states: Vec<Vec<u8>> = (0..n).map(|_| random_centres(cube, &mut rng)).collect();
    let mut sum = [0usize; 3];
    let mut max = [0usize; 3];
    let mut total_max = 0;
    // Stage 1 if the U/D axis could be any of the three (a rotation x or z
    // first): what a free choice of orientation would save there.
    let mut best_axis = 0;
    for s in &states {
        let lens = check(&st, s);
        for k in 0..3 {
            sum[k] += lens[k];
            max[k] = max[k].max(lens[k]);
        }
        total_max = total_max.max(lens.iter().sum());
        let mut best = st.stages[0].distance(s).unwrap();
        for face in [Face::R, Face::F] {
            let mut r = s.clone();
            cube.apply(&mut r, whole_turn(face, 1));
            best = best.min(st.stages[0].distance(&r).unwrap());
        }
        best_axis += best as usize;
    }
    let avg = |x: usize| x as f64 / n as f64;
    // The figures the module documentation gives (6.02 moves for stage 1,
    // 12.94 for stages 2 and 3, from 20,000 states), within what 2,000
    // states can differ by (a standard error near 0.02 and 0.03 moves).
    assert!(
        (avg(sum[0]) - 6.02).abs() < 0.15,
        "stage 1: {}",
        avg(sum[0])
    );
    assert!(
        (avg(sum[1] + sum[2]) - 12.94).abs() < 0.25,
        "stages 2 and 3: {}",
        avg(sum[1] + sum[2])
    );
    // The tables' diameters bound every stage.
    assert!(max[0] <= 8 && max.iter().sum::<usize>() < 40, "{max:?}");
    // A free choice of axis can only shorten stage 1, and by little.
    assert!(best_axis <= sum[0] && avg(sum[0] - best_axis) < 0.1);
    assert!(total_max <= max.iter().sum());
    // Scrambles by moves (with slices and rotations).
    let m = 300;
    let mut sum = [0usize; 3];
    for _ in 0..m {
        let lens = check(&st, &random_scramble(cube, &mut rng));
        for k in 0..3 {
            sum[k] += lens[k];
        }
    }
    // Scrambles of many moves are random centre states too.
    let stage1 = sum[0] as f64 / m as f64;
    assert!(
        (stage1 - 6.02).abs() < 0.3,
        "stage 1 after scrambles: {stage1}"
    );
}

/// States on which phase 3 once kept deepening one root whose length budget
/// ran out (a 58-move phase 3 on seed 271, 23 on seed 703): each phase is
/// now near its usual length.
#[test]
fn phase3_does_not_deepen_one_root() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    for seed in [271, 703] {
        let state = tablegen::cube4::random_state(seed);
        let sol = s4.solve(&state, Options::default()).unwrap();
        let pair = sol.phases.iter().find(|p| p.0 == "pair").unwrap().1;
        assert!(pair <= 18, "seed {seed}: pair {pair}");
        assert!(sol.moves.len() <= 52, "seed {seed}: {}", sol.moves.len());
    }
}

/// Starts turned from one another by a whole-cube turn keeping the U-D axis
/// share a key; a turn that moves the U-D axis gives another key.
#[test]
fn canonical_keys_of_turned_states() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let rot = whole_turn;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for _ in 0..20 {
        let s = random_scramble(&cube, &mut rng);
        let key = s4.canonical(&s);
        for turn in [
            vec![rot(Face::U, 1)],
            vec![rot(Face::U, 2)],
            vec![rot(Face::R, 2)],
            vec![rot(Face::F, 2), rot(Face::U, 3)],
        ] {
            let mut t = s.clone();
            cube.apply_alg(&mut t, &turn);
            assert_eq!(s4.canonical(&t), key, "{turn:?}");
        }
        let mut t = s.clone();
        cube.apply(&mut t, rot(Face::R, 1));
        assert_ne!(s4.canonical(&t), key);
    }
}

/// States that are one problem (turned as a whole, and their colours renamed
/// as a whole-cube turn would) share a problem key; a face turn gives another.
#[test]
fn problem_keys_of_turned_and_recoloured_states() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    assert_eq!(s4.turns24.len(), 24);
    let maps: std::collections::HashSet<[u8; 6]> = s4.recolours24.iter().copied().collect();
    assert_eq!(maps.len(), 24);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    for _ in 0..20 {
        let s = random_scramble(&cube, &mut rng);
        let key = s4.problem_key(&s);
        for _ in 0..8 {
            let p = &s4.turns24[rng.gen_range(0..24)];
            let m = &s4.recolours24[rng.gen_range(0..24)];
            let t: Vec<u8> = p.iter().map(|&i| m[s[i as usize] as usize]).collect();
            assert_eq!(s4.problem_key(&t), key);
        }
        let mut t = s.clone();
        cube.apply(&mut t, Move::face(Face::R, 1));
        assert_ne!(s4.problem_key(&t), key);
    }
}

/// A phase-2 end goes to the thread that claims it first, unless another
/// reaches the same problem in fewer moves (then both have it); the thread
/// that keeps it accepts it again.
#[test]
fn phase2_ends_are_claimed_by_the_shortest() {
    use crate::search::Link;
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let claims = super::phase2::Claims::default();
    let p = |t| super::phase2::P2 {
        s: &s4,
        claims: Some((&claims, t)),
    };
    let s = tablegen::cube4::random_state(5);
    let mut turned = s.clone();
    cube.apply(&mut turned, whole_turn(Face::R, 1));
    assert!(p(1).accept(&s, 0, 7));
    assert!(!p(0).accept(&turned, 0, 7), "as long as the first claim");
    assert!(p(0).accept(&turned, 0, 6), "shorter");
    assert!(!p(1).accept(&s, 0, 6), "no shorter than the new claim");
    assert!(p(0).accept(&s, 0, 9), "the owner's own end");
    let mut other = s.clone();
    cube.apply(&mut other, Move::face(Face::U, 1));
    assert!(p(1).accept(&other, 0, 9), "another problem");
    let unclaimed = super::phase2::P2 {
        s: &s4,
        claims: None,
    };
    assert!(unclaimed.accept(&s, 0, 20));
}

/// The phase-2 centre and parity bound: a breadth-first search over the
/// sides-stage states and the wing parity with the 23 phase-2 moves, from
/// the goal in both frames (as is and turned by `y`, even parity), gives
/// each state's exact distance; the bound read from the tables
/// (`sides_either`) is never above it, is 0 exactly on the goal, and the
/// two frames' goals are the 12-arrangement goal and its turn.
#[test]
fn phase2_centre_bound_is_admissible() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let sides = &s4.sides;
    let y = s4.p2_moves.len();
    // The table of both frames (`4x4x4-sides-parity-either`, a search from
    // the goals in both frames) is the sides table read in each.
    let par = s4.sides_tab.bytes();
    let mut either = vec![0u8; par.len()];
    for r in 0..900_900u64 {
        let (f, b) = sides.unrank(r);
        let (fy, by) = sides.apply(f, b, y);
        let ry = sides.rank(fy, by) as usize;
        for o in 0..2 {
            let i = 2 * r as usize + o;
            let d = nibble(par, i).min(nibble(par, 2 * ry + o)) as u8;
            either[i >> 1] |= d << ((i & 1) << 2);
        }
    }
    assert_eq!(either, s4.sides_either.bytes());
    let sets: Vec<u16> = (0u16..=u16::MAX).filter(|x| x.count_ones() == 4).collect();
    let mut states = vec![(0u16, 0u16); 900_900];
    for &f in &sets {
        for &b in sets.iter().filter(|&&b| b & f == 0) {
            states[sides.rank(f, b) as usize] = (f, b);
        }
    }
    // Entry 2r + o: sides rank r, wing parity o.
    let mut dist = vec![u8::MAX; 2 * states.len()];
    let mut frontier = Vec::new();
    for g in tablegen::bfs::Space::goals(sides) {
        let (f, b) = states[g as usize];
        let (fy, by) = sides.apply(f, b, y);
        for r in [g, sides.rank(fy, by)] {
            if dist[2 * r as usize] == u8::MAX {
                dist[2 * r as usize] = 0;
                frontier.push(2 * r as usize);
            }
        }
    }
    assert_eq!(frontier.len(), 24, "12 arrangements in each frame");
    let mut d = 0;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &e in &frontier {
            let (f, b) = states[e / 2];
            for &i in &s4.p2_active {
                let (g, c) = sides.apply(f, b, i);
                let t = 2 * sides.rank(g, c) as usize + (e & 1 ^ s4.p2_odd[i] as usize);
                if dist[t] == u8::MAX {
                    dist[t] = d + 1;
                    next.push(t);
                }
            }
        }
        frontier = next;
        d += 1;
    }
    let mut exact = 0;
    for (r, &d) in dist.iter().enumerate() {
        assert!(d != u8::MAX, "entry {r} unreached");
        let bound = nibble(s4.sides_either.bytes(), r) as u8;
        assert!(bound <= d, "rank {r}: bound {bound} over distance {d}");
        assert_eq!(bound == 0, d == 0);
        exact += (bound == d) as usize;
    }
    // Most states' bound is exact (it is a least over two frames of a
    // 28-move distance, where the search has 23 moves).
    assert!(exact * 2 > dist.len(), "{exact} exact bounds");
}

/// The pairing group's facts the reduction relies on, by search over the
/// group from solved: the centres reach 58,800 of the 343,000 staged states
/// (70 x 70 x 12: any U/D and L/R arrangement, 12 F/B ones, which are the
/// goals of `4x4x4-sides-stage`); the PLL parity bit and the parity of the
/// high wings are independent of the centres (x 2 x 2); high and low wing
/// parities stay equal. The phase-3 centre table covers exactly that orbit.
#[test]
fn pairing_group_orbit() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let st2 = &s4.stages.stages[2];
    let solved = cube.solved();
    let group = tablegen::cube4::pairing_moves();
    assert_eq!(group, s4.p3_moves);
    let centre_move: Vec<usize> = group
        .iter()
        .map(|m| st2.moves.iter().position(|x| x == m).unwrap())
        .collect();
    let start = (
        s4.sides.project(&solved),
        st2.space.project(&solved, &st2.marked),
        false,
        false,
        false,
    );
    let sides = SideCentresSpace::new(&group).unwrap();
    let mut seen = std::collections::HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(x) = stack.pop() {
        for (i, &cm) in centre_move.iter().enumerate() {
            let (hi, lo) = &s4.pair.moves[i];
            let y = (
                sides.apply(x.0 .0, x.0 .1, i),
                st2.space.apply(x.1, cm),
                x.2 ^ odd(hi),
                x.3 ^ odd(lo),
                x.4 ^ s4.p3_pll[i],
            );
            if seen.insert(y) {
                stack.push(y);
            }
        }
    }
    type Node = ((u16, u16), u64, bool, bool, bool);
    let count = |f: &dyn Fn(&Node) -> u128| {
        seen.iter()
            .map(f)
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    assert_eq!(seen.len(), 58_800 * 2 * 2);
    assert_eq!(count(&|x| x.1 as u128), 58_800);
    assert_eq!(count(&|x| ((x.0 .0 as u128) << 16) | x.0 .1 as u128), 12);
    assert_eq!(count(&|x| (x.2 as u128) << 1 | x.3 as u128), 2);
    assert!(seen.iter().all(|x| x.2 == x.3));
    // The phase-3 centre table's reached entries are that orbit (with
    // either PLL bit), and the digit moves agree with the facelet-mask moves.
    let c3 = &s4.centres3;
    let orbit: std::collections::HashSet<u64> = seen.iter().map(|x| x.1).collect();
    let mut reached = 0;
    for r in 0..343_000u64 {
        let mask = st2.space.unrank(r);
        let d = PairCentres::digits_of(&st2.space, mask).unwrap();
        assert_eq!(PairCentres::rank(d) as u64, r);
        let both = [false, true].map(|pll| c3.dist(d, pll) != NOT_REACHED);
        assert_eq!(both[0], both[1], "rank {r}");
        assert_eq!(both[0], orbit.contains(&mask), "rank {r}");
        if !both[0] {
            continue;
        }
        reached += 1;
        for (i, &cm) in centre_move.iter().enumerate() {
            let y = st2.space.apply(mask, cm);
            assert_eq!(PairCentres::digits_of(&st2.space, y), Some(c3.step(d, i)));
        }
    }
    assert_eq!(reached, 58_800);
    // A mask no state has (solved's with one more facelet marked) has no
    // digits, whatever its rank.
    let solved = st2.space.project(&solved, &st2.marked);
    let off = solved | (!solved & (!solved).wrapping_neg());
    assert_eq!(off.count_ones(), solved.count_ones() + 1);
    assert_eq!(PairCentres::digits_of(&st2.space, off), None);
    // Solved is 0, with PLL parity not.
    let d = PairCentres::digits_of(&st2.space, solved).unwrap();
    assert_eq!(c3.dist(d, false), 0);
    assert!(c3.dist(d, true) > 0);
}

/// The states a person holds after reducing a 4x4x4 by hand: a reduced
/// cube with OLL parity (one dedge flipped), PLL parity (two dedges
/// swapped) or both, each followed by outer turns; and cubes with solved
/// centres and scrambled edges. Each is solved within the hard limit (a
/// reduced cube with OLL parity used to run for minutes in phase 2).
#[test]
fn parity_states_are_solved() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let parse = |t: &str| tablegen::notation::parse_alg(t).unwrap();
    let oll = "Rw U2 x Rw U2 Rw U2 Rw' U2 Lw U2 Rw' U2 Rw U2 Rw' U2 Rw' x'";
    let pll = "Rw2 U2 Rw2 Uw2 Rw2 Uw2";
    let bases = [
        oll.to_string(),
        pll.to_string(),
        format!("{oll} {pll}"),
        format!("y {pll} z {oll}"),
    ];
    let outer: Vec<Move> = CubeN::block_turns(1);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let opts = Options {
        hard_limit: Duration::from_secs(20),
        ..Options::default()
    };
    let mut cases = Vec::new();
    for base in &bases {
        for len in [0, 1, 2, 5, 25] {
            let mut s = cube.solved();
            cube.apply_alg(&mut s, &parse(base));
            for _ in 0..len {
                cube.apply(&mut s, outer[rng.gen_range(0..outer.len())]);
            }
            cases.push(s);
        }
    }
    // Centres solved, edges and corners scrambled: a random state with
    // its centre facelets set as solved (centres of one colour are
    // interchangeable, so the centre permutation's parity is free and the
    // state is a real cube).
    let solved = cube.solved();
    for seed in 0..8 {
        let mut s = tablegen::cube4::random_state(seed);
        for f in Face::ALL {
            for (r, c) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
                s[cube.index(f, r, c)] = solved[cube.index(f, r, c)];
            }
        }
        validate(&cube, &s).unwrap();
        cases.push(s);
    }
    for (i, s) in cases.iter().enumerate() {
        let sol = s4
            .solve(s, opts)
            .unwrap_or_else(|e| panic!("case {i}: {e}"));
        let mut t = s.clone();
        cube.apply_alg(&mut t, &sol.moves);
        assert!(cube.is_solved(&t), "case {i}");
    }
}

/// Any thread count deals out the nine phase-1 choices and gives a
/// solution that solves the cube (one thread, an even and an uneven share,
/// one choice per thread, more threads than choices).
#[test]
fn any_thread_count_solves() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    for (i, threads) in [1, 2, 4, 9, 20].into_iter().enumerate() {
        let s = tablegen::cube4::random_state(100 + i as u64);
        let opts = Options {
            threads,
            split_ends: threads != 4,
            time_budget: Duration::from_millis(60),
            ..Options::default()
        };
        let sol = s4
            .solve(&s, opts)
            .unwrap_or_else(|e| panic!("{threads} threads: {e}"));
        let mut t = s.clone();
        cube.apply_alg(&mut t, &sol.moves);
        assert!(cube.is_solved(&t), "{threads} threads");
        let merged: usize = sol
            .phases
            .iter()
            .filter(|p| p.0 == "merged")
            .map(|p| p.1)
            .sum();
        let phases: usize = sol
            .phases
            .iter()
            .filter(|p| p.0 != "merged")
            .map(|p| p.1)
            .sum();
        assert_eq!(
            phases,
            sol.moves.len() + merged,
            "{threads} threads: {:?}",
            sol.phases
        );
    }
}

/// A solved cube held in any of the 24 orientations gets the empty
/// solution; one turned and then given two turns gets two.
#[test]
fn turned_cubes_keep_their_orientation() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    for r in tablegen::cube::rotations24() {
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &r);
        let sol = s4.solve(&s, Options::default()).unwrap();
        assert!(sol.moves.is_empty(), "{r:?}: {:?}", sol.moves);
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg("R U").unwrap());
        let sol = s4.solve(&s, Options::default()).unwrap();
        assert_eq!(sol.moves.len(), 2, "{r:?}: {:?}", sol.moves);
    }
}

/// With no time at all, a solve that needs a search says so (an error
/// that names the hard limit), instead of searching on.
#[test]
fn hard_limit_ends_the_solve() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let s = tablegen::cube4::random_state(3);
    let opts = Options {
        time_budget: Duration::ZERO,
        hard_limit: Duration::ZERO,
        ..Options::default()
    };
    match s4.solve(&s, opts) {
        Err(SolveError::OutOfTime(_)) => {}
        other => panic!("expected OutOfTime, got {:?}", other.map(|s| s.moves)),
    }
    // With no budget but time to find one, the solve returns a solution.
    let opts = Options {
        time_budget: Duration::ZERO,
        ..Options::default()
    };
    let sol = s4.solve(&s, opts).unwrap();
    let cube = CubeN::new(4);
    let mut t = s.clone();
    cube.apply_alg(&mut t, &sol.moves);
    assert!(cube.is_solved(&t));
}

/// States a few pairing-group moves from solved: the reduction solves them
/// and the result is checked on the facelets.
#[test]
fn near_reduced_states_are_solved() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let g = tablegen::cube4::pairing_moves();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for k in 0..200 {
        let mut s = cube.solved();
        let len = 1 + k % 8;
        for _ in 0..len {
            cube.apply(&mut s, g[rng.gen_range(0..g.len())]);
        }
        // On every core.
        let sol = s4.solve(&s, Options::default()).unwrap();
        let mut t = s.clone();
        cube.apply_alg(&mut t, &sol.moves);
        assert!(cube.is_solved(&t));
        // On one thread (all nine phase-1 choices), the reduction is no
        // longer than the scramble (the empty phases 1 and 2 are a
        // candidate, and phase 3 deepens on the total length). Over several
        // threads, one without the empty phase 1 may find a whole solution
        // as short with a longer reduction, and the first found is kept.
        let one = Options {
            threads: 1,
            ..Options::default()
        };
        let sol = s4.solve(&s, one).unwrap();
        let mut t = s.clone();
        cube.apply_alg(&mut t, &sol.moves);
        assert!(cube.is_solved(&t));
        let reduce: usize = sol.phases[..3].iter().map(|p| p.1).sum();
        assert!(
            reduce <= len,
            "{reduce} moves to reduce a {len}-move scramble"
        );
        let merged = sol
            .phases
            .iter()
            .find(|p| p.0 == "merged")
            .map_or(0, |p| p.1);
        assert_eq!(
            sol.phases.iter().map(|p| p.1).sum::<usize>(),
            sol.moves.len() + 2 * merged
        );
    }
    // Phases 1 and 2 on random scrambles: staged and separated afterwards.
    let mut lens = [0usize; 2];
    for _ in 0..20 {
        let mut s = cube.solved();
        for _ in 0..100 {
            cube.apply(&mut s, CubeN::block_turns(2)[rng.gen_range(0..36)]);
        }
        let (moves, n) = s4.reduce_to_pairing(&s).unwrap();
        lens[0] += n[0];
        lens[1] += n[1];
        cube.apply_alg(&mut s, &moves);
        let piece = s4.wings.read(&s).unwrap();
        // Each dedge has one wing in each class, and an even number of them
        // has the high piece in the low class.
        let mut pos = [0usize; 24];
        for (slot, &p) in piece.iter().enumerate() {
            pos[p as usize] = slot;
        }
        assert!(
            (0..12).all(|d| (pos[d] < 12) != (pos[d + 12] < 12)),
            "split"
        );
        assert_eq!((0..12).filter(|&d| pos[d] >= 12).count() % 2, 0);
        assert!(!odd(&piece), "even wing permutation");
        let (f, b) = s4.sides.project(&s);
        let goals: Vec<u64> = tablegen::bfs::Space::goals(&s4.sides);
        assert!(goals.contains(&s4.sides.rank(f, b)));
    }
    // Phase 1 is a walk in a table whose diameter is 8 (optimal or one
    // over); phase 2 is near six moves on average.
    assert!(lens[0] <= 20 * 9 && lens[1] <= 20 * 10, "{lens:?}");
}

/// The reduction alone leaves a cube the 3x3x3 solver finishes with face
/// turns: every centre solved, every edge paired, no parity.
#[test]
fn reductions_leave_a_3x3x3() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = &s4.stages.cube;
    let cube3 = CubeN::new(3);
    for seed in 0..6 {
        let mut s = tablegen::cube4::random_state(900 + seed);
        let moves = s4.reduce(&s, Options::default()).unwrap();
        assert!(moves.len() <= 40, "seed {seed}: {} moves", moves.len());
        cube.apply_alg(&mut s, &moves);
        let s3 = tablegen::validate::skeleton3(cube, &s);
        let (rotation, s3) = tablegen::validate::orient_centres(&cube3, &s3).unwrap();
        let cc = tablegen::cube3::CubieCube::from_facelets(&s3).unwrap();
        let opts = crate::cube3::Options {
            max_length: 21,
            time_budget: std::time::Duration::from_millis(50),
            ..Default::default()
        };
        let finish: Vec<Move> = s4
            .solver3
            .solve(&cc, opts)
            .iter()
            .map(|&m| tablegen::cube3::move_of(m))
            .collect();
        cube.apply_alg(&mut s, &rotation);
        cube.apply_alg(&mut s, &finish);
        assert!(cube.is_solved(&s), "seed {seed}");
    }
}

/// The side-centre masks and wing parity followed along a phase-1 path
/// ([`P1Rank`]) are those of the facelet state the path gives, and the
/// path applied through the rank's own permutations is that state.
#[test]
fn phase1_ranking_follows_the_facelets() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let st0 = &s4.stages.stages[0];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    for _ in 0..50 {
        let s = random_scramble(&cube, &mut rng);
        let root = s4.p1_rank.root(&s, &s4.wings).unwrap();
        let path: Vec<u8> = (0..rng.gen_range(0..12))
            .map(|_| rng.gen_range(0..st0.moves.len()) as u8)
            .collect();
        let mut t = s.clone();
        let moves: Vec<Move> = path.iter().map(|&m| st0.moves[m as usize]).collect();
        cube.apply_alg(&mut t, &moves);
        assert_eq!(s4.p1_rank.apply(&s, &path), t);
        let at = path
            .iter()
            .fold(root, |a, &m| s4.p1_rank.step(a, m as usize));
        let want = s4.p1_rank.root(&t, &s4.wings).unwrap();
        assert_eq!(at, want, "{moves:?}");
    }
}

/// The choices' colour renamings make a different colour pair the one
/// phase 2 leaves for phase 3's half turns (the one renamed F/B) for each
/// pair staged first, so that over the choices every colour pair is
/// staged first once and left for the half turns once: no arrangement of
/// the colour pairs on the axes is out of the goals' reach.
#[test]
fn every_colour_pair_is_left_for_the_half_turns_once() {
    let maps = crate::moves::recolourings();
    // The colour pair (colour mod 3) each renaming gives `face`'s colour.
    let renamed_to = |face: Face| -> Vec<u8> {
        maps.iter()
            .map(|m| (0..6u8).find(|&c| m[c as usize] == face as u8).unwrap() % 3)
            .collect()
    };
    let (staged, halves) = (renamed_to(Face::U), renamed_to(Face::F));
    let mut s = staged.clone();
    s.sort_unstable();
    assert_eq!(s, [0, 1, 2], "each pair staged first once: {staged:?}");
    let mut h = halves.clone();
    h.sort_unstable();
    assert_eq!(
        h,
        [0, 1, 2],
        "each pair left for the half turns once: {halves:?}"
    );
}

/// The phase-1 enumeration's listed last moves ([`phase1::Tails`]) give
/// the same solutions, in the same order, as searching every node.
#[test]
fn phase1_tails_change_no_solution() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let st0 = &s4.stages.stages[0];
    let either = s4.sides_either.bytes();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(43);
    let mut solutions = 0;
    for _ in 0..12 {
        let s = random_scramble(&cube, &mut rng);
        let root = s4.p1_rank.root(&s, &s4.wings).unwrap();
        let mask = st0.mask(&s).unwrap();
        let opt = st0.table.get(st0.space.rank(mask)) as usize;
        let run = |tails: Option<&phase1::Tails>| {
            let mut e = Enumerate::new(st0, &s4.p1_rank, either, &s4.sides, tails, 3000);
            for len in opt..=opt + 2 {
                e.solutions(mask, root, len);
            }
            (e.out.iter())
                .map(|r| (r.key, r.len, r.path[..r.len as usize].to_vec()))
                .collect::<Vec<_>>()
        };
        let listed = run(Some(&s4.p1_tails));
        assert!(!listed.is_empty());
        assert_eq!(listed, run(None));
        solutions += listed.len();
    }
    assert!(solutions > 1000, "{solutions} solutions");
}

/// The moves phase 1's enumeration leaves out (`Dw`, `Lw2`, `Bw2`:
/// [`phase1::follow_lists`]) only make copies: each start over every move
/// is, up to a whole-cube turn about U-D, a start without them, none
/// longer, or one followed by a move of phase 2 (a path rewritten without
/// them can go on from the goal with a move that keeps it, which the
/// enumeration leaves to phase 2).
#[test]
fn phase1_moves_left_out_make_only_copies() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let cube = CubeN::new(4);
    let st0 = &s4.stages.stages[0];
    let either = s4.sides_either.bytes();
    let mut every = P1Rank::new(&cube, &st0.moves, &s4.sides, &s4.wings);
    every.follow = phase1::follow_lists(&st0.moves, false);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(47);
    let mut after_phase2_move = 0;
    for _ in 0..4 {
        let s = random_scramble(&cube, &mut rng);
        let mask = st0.mask(&s).unwrap();
        let opt = st0.table.get(st0.space.rank(mask)) as usize;
        // Each start (up to a turn): its shortest phase 1 and its state.
        let starts = |rank: &P1Rank| {
            let root = rank.root(&s, &s4.wings).unwrap();
            let mut e = Enumerate::new(st0, rank, either, &s4.sides, None, usize::MAX);
            for len in opt..=opt + 1 {
                e.solutions(mask, root, len);
            }
            let mut best: HashMap<Vec<u8>, (u8, Vec<u8>)> = HashMap::new();
            for r in &e.out {
                let t = rank.apply(&s, &r.path[..r.len as usize]);
                best.entry(s4.canonical(&t)).or_insert((r.len, t));
            }
            (e.out.len(), best)
        };
        let (n_every, all) = starts(&every);
        let (n_kept, kept) = starts(&s4.p1_rank);
        assert!(n_kept < n_every, "{n_kept} paths against {n_every}");
        assert!(kept.keys().all(|k| all.contains_key(k)));
        let mut then_phase2: HashMap<Vec<u8>, u8> = HashMap::new();
        for (len, t) in kept.values() {
            for &m in &s4.p2_moves {
                let mut u = t.clone();
                cube.apply(&mut u, m);
                let l = then_phase2.entry(s4.canonical(&u)).or_insert(len + 1);
                *l = (*l).min(len + 1);
            }
        }
        for (start, (len, _)) in &all {
            if kept.get(start).is_some_and(|k| k.0 <= *len) {
                continue;
            }
            assert!(
                then_phase2.get(start).is_some_and(|l| l <= len),
                "a start of {len} moves is lost"
            );
            after_phase2_move += 1;
        }
    }
    assert!(after_phase2_move > 0);
}

/// Phase 2's exact wing test near the goal ([`near_split::NearSplit`])
/// against every path of at most three of its moves, on wings a few moves
/// from split and on random wings, in both frames.
#[test]
fn phase2_near_split_is_exact() {
    let s4 = Solver::load(&crate::tables::test_tables_dir(), true).unwrap();
    let moves: Vec<[u8; 24]> = s4.p2_active.iter().map(|&i| s4.p2_slot[i]).collect();
    let y_slot = s4.wings.slot_perm(&s4.stages.cube, y_turn());
    // The goal of phase 2's wings in frame t, as its `goal` tests it.
    let goal = |pos: &[u8; 24], t: usize| {
        let pos = if t == 0 {
            *pos
        } else {
            pos.map(|x| y_slot[x as usize])
        };
        let split = (0..12).all(|d| (pos[d] < 12) != (pos[d + 12] < 12));
        split && (0..12).filter(|&d| pos[d] >= 12).count() % 2 == 0
    };
    // The least path length (at most 3; else 4) to the goal, by brute force.
    let brute = |pos: &[u8; 24], t: usize| -> usize {
        let mut level = vec![*pos];
        for len in 0..=near_split::MAX_LIMIT {
            if level.iter().any(|p| goal(p, t)) {
                return len;
            }
            level = (level.iter())
                .flat_map(|p| moves.iter().map(move |m| p.map(|x| m[x as usize])))
                .collect();
        }
        near_split::MAX_LIMIT + 1
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(44);
    let mut seen = [0usize; near_split::MAX_LIMIT + 2];
    for k in 0..240 {
        let pos: [u8; 24] = if k % 4 == 3 {
            let mut p: [u8; 24] = std::array::from_fn(|i| i as u8);
            p.shuffle(&mut rng);
            p
        } else {
            // Split with none flipped, then up to four random moves.
            let mut p: [u8; 24] = std::array::from_fn(|i| i as u8);
            for _ in 0..rng.gen_range(0..=4) {
                let m = &moves[rng.gen_range(0..moves.len())];
                p = p.map(|x| m[x as usize]);
            }
            p
        };
        for t in 0..2 {
            let d = brute(&pos, t);
            assert_eq!(s4.near_split.distance(&pos, t), d, "{pos:?}, frame {t}");
            seen[d] += 1;
        }
    }
    // Every distance the test can tell was met.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}
