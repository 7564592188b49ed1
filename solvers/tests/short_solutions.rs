//! Short scrambles get short solutions through the registry (what `cubesolve`
//! runs): optimal 3x3x3 solutions within 7 turns, checked against a distance
//! found by an independent breadth-first search on facelets; one and two block
//! turns and whole-cube turns on every cube size.

use rand::{Rng, SeedableRng};
use solvers::puzzle::{self, Input, Options, Solve};
use solvers::registry;
use std::collections::{HashMap, HashSet};
use tablegen::cube::CubeN;
use tablegen::notation::{format_alg, parse_alg, Face, Move};

fn load(name: &str) -> (&'static dyn puzzle::Puzzle, Box<dyn Solve>) {
    let p = registry::find(name).unwrap();
    let solver = p.load(&solvers::tables::test_tables_dir(), true).unwrap();
    (p, solver)
}

/// Solves a scramble through the registry; checks the solution on the facelet
/// model and returns its length.
fn solve(n: usize, p: &dyn puzzle::Puzzle, s: &dyn Solve, scramble: &str) -> usize {
    let pos = p.parse(&Input::Scramble(scramble)).unwrap();
    let sol = s.solve(&pos, &Options::default()).unwrap();
    let cube = CubeN::new(n);
    let mut st = cube.solved();
    cube.apply_alg(&mut st, &parse_alg(scramble).unwrap());
    cube.apply_alg(&mut st, &parse_alg(&sol.text()).unwrap());
    assert!(cube.is_solved(&st), "{scramble}: {}", sol.text());
    assert_eq!(
        sol.phases.iter().map(|p| p.1).sum::<usize>(),
        sol.moves.len(),
        "{scramble}: {:?}",
        sol.phases
    );
    sol.moves.len()
}

fn face_turns() -> Vec<Move> {
    Face::ALL
        .iter()
        .flat_map(|&f| [1, 2, 3].map(|t| Move::face(f, t)))
        .collect()
}

/// Distance from solved (18 face turns, fixed centres) of a 3x3x3 within 7
/// turns: facelet states within 4 turns of solved by breadth-first search,
/// met by every state within 3 turns of the cube. `None` past 7.
struct Distance {
    cube: CubeN,
    near: HashMap<Vec<u8>, usize>,
}

impl Distance {
    fn new() -> Distance {
        let cube = CubeN::new(3);
        let mut near = HashMap::new();
        near.insert(cube.solved(), 0);
        let mut frontier = vec![cube.solved()];
        for d in 1..=4 {
            let mut next = Vec::new();
            for s in &frontier {
                for m in face_turns() {
                    let mut t = s.clone();
                    cube.apply(&mut t, m);
                    if !near.contains_key(&t) {
                        near.insert(t.clone(), d);
                        next.push(t);
                    }
                }
            }
            frontier = next;
        }
        Distance { cube, near }
    }

    fn of(&self, state: &[u8]) -> Option<usize> {
        let mut seen = HashSet::new();
        seen.insert(state.to_vec());
        let mut frontier = vec![state.to_vec()];
        let mut best = self.near.get(state).copied();
        for j in 1..=3 {
            let mut next = Vec::new();
            for s in &frontier {
                for m in face_turns() {
                    let mut t = s.clone();
                    self.cube.apply(&mut t, m);
                    if seen.insert(t.clone()) {
                        if let Some(&d) = self.near.get(&t) {
                            best = Some(best.map_or(j + d, |b| b.min(j + d)));
                        }
                        next.push(t);
                    }
                }
            }
            frontier = next;
        }
        best
    }
}

#[test]
fn random_3x3x3_scrambles_up_to_7_turns_get_optimal_solutions() {
    let (p, s) = load("3x3x3");
    let dist = Distance::new();
    let turns = face_turns();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(20);
    for k in 0..=7 {
        for _ in 0..25 {
            let alg: Vec<Move> = (0..k)
                .map(|_| turns[rng.gen_range(0..turns.len())])
                .collect();
            let scramble = format_alg(&alg);
            let mut st = dist.cube.solved();
            dist.cube.apply_alg(&mut st, &alg);
            let optimal = dist.of(&st).expect("within 7 turns");
            let len = solve(3, p, s.as_ref(), &scramble);
            assert!(len <= k, "{scramble}: {len} moves");
            assert_eq!(len, optimal, "{scramble}");
        }
    }
}

#[test]
fn the_3x3x3_turned_or_one_wide_turn_away() {
    let (p, s) = load("3x3x3");
    for (scramble, len) in [
        ("", 0),
        ("x", 0),
        ("y z'", 0),
        ("x2 R", 1),
        ("Rw", 1),
        ("y Lw2 U'", 2),
        ("2R", 2),
        ("R U R' U'", 4),
        ("z R U F' D2 L B' R2", 7),
    ] {
        assert_eq!(solve(3, p, s.as_ref(), scramble), len, "{scramble}");
    }
}

/// Every one block turn and a sample of two, alone and after whole-cube turns.
fn one_and_two_block_turns(n: usize, pairs_every: usize) {
    let (p, s) = load(&format!("{n}x{n}x{n}"));
    let turns = solvers::short::block_turns(n);
    for rot in ["", "x y", "z2"] {
        assert_eq!(solve(n, p, s.as_ref(), rot), 0, "{rot}");
        for (i, a) in turns.iter().enumerate() {
            let one = format!("{rot} {a}");
            assert!(solve(n, p, s.as_ref(), &one) <= 1, "{one}");
            for b in turns.iter().skip(i % pairs_every).step_by(pairs_every) {
                let two = format!("{a} {rot} {b}");
                assert!(solve(n, p, s.as_ref(), &two) <= 2, "{two}");
            }
        }
    }
}

#[test]
fn one_and_two_turns_on_the_2x2x2() {
    one_and_two_block_turns(2, 1);
}

#[test]
fn one_and_two_turns_on_the_3x3x3() {
    one_and_two_block_turns(3, 3);
}

#[test]
fn one_and_two_turns_on_the_4x4x4() {
    one_and_two_block_turns(4, 5);
}
