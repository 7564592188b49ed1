//! Tests of the 5x5x5 stages.

use super::*;
use crate::search::Clock;
use std::time::{Duration, Instant};
use tablegen::cube::CubeN;
use tablegen::notation::Face;

fn clock() -> Clock {
    let now = Instant::now();
    Clock {
        soft: now + Duration::from_secs(60),
        hard: now + Duration::from_secs(60),
    }
}

/// Whether every U/D-coloured T- and X-centre is on U or D (the fixed centres
/// are not looked at: after a colour renaming they show other colours).
fn staged(cube: &CubeN, s: &[u8]) -> bool {
    [Face::U, Face::D].iter().all(|&f| {
        (1..4).all(|r| {
            (1..4).all(|c| {
                let col = s[cube.index(f, r, c)];
                (r, c) == (2, 2) || col == Face::U as u8 || col == Face::D as u8
            })
        })
    })
}

/// Random 5x5x5 states: each solution stages the U/D centres (checked on
/// the facelets) and is no shorter than the bound at the root; scrambles of
/// a few moves get no more moves than they had.
#[test]
fn ud_centres_of_random_states() {
    let cube = CubeN::new(5);
    let st = CentreStage::ud(&crate::tables::test_tables_dir(), true).unwrap();
    let mut lens = Vec::new();
    for seed in 0..4 {
        let s = tablegen::orbits::random_state(&cube, seed);
        let found = st.solve(&s, 1, 2, clock());
        assert!(!found.is_empty(), "seed {seed}");
        let first = found[0].path.len();
        for f in &found {
            let moves: Vec<_> = f.path.iter().map(|&i| st.moves()[i]).collect();
            let mut t = s.clone();
            cube.apply_alg(&mut t, &moves);
            assert!(staged(&cube, &t), "seed {seed}");
            assert!(f.path.len() >= first);
        }
        assert!(first >= st.bound(&st.node(&s)));
        lens.push(first);
    }
    // Short scrambles of outer block turns: never longer than the scramble.
    let moves = st.moves().to_vec();
    for k in 0..40usize {
        let len = k % 4;
        let mut s = cube.solved();
        for j in 0..len {
            cube.apply(&mut s, moves[(k * 13 + j * 7) % moves.len()]);
        }
        let found = st.solve(&s, 1, 1, clock());
        assert!(found[0].path.len() <= len, "{k}: {:?}", found[0].path);
    }
    // On three axes at once: never longer than on U/D alone, and each
    // solution stages its colour pair on the axis of its fixed centres.
    let rotations = crate::moves::axis_rotations();
    for seed in 0..3 {
        let s = tablegen::orbits::random_state(&cube, seed);
        let found = st.solve(&s, 3, 3, clock());
        assert!(found[0].path.len() <= lens[seed as usize]);
        for f in &found {
            let moves: Vec<_> = f.path.iter().map(|&i| st.moves()[i]).collect();
            let mut t = in_frame(&s, &rotations[f.root]);
            cube.apply_alg(&mut t, &moves);
            assert!(staged(&cube, &t), "seed {seed}");
        }
    }
    let avg = lens.iter().sum::<usize>() as f64 / lens.len() as f64;
    // cube555's first phase (T and X staged on one of three axes) averages
    // near 7 to 8 moves; on the U/D axis alone ours is a little longer.
    assert!((6.0..11.0).contains(&avg), "average {avg}");
}

/// Stages 1, 2 and 3 chained: stage 2 from the best stage-1 ends of a random
/// state stages the L/R centres too, keeping U/D staged, and is never longer
/// in total than from the first stage-1 end alone; stage 3 then solves every
/// T- and X-centre: in the frame of the axis stage 1 chose, each face's
/// centres end the colour of its fixed centre.
#[test]
fn ud_then_lr_centres() {
    let cube = CubeN::new(5);
    let dir = crate::tables::test_tables_dir();
    let (ud, lr) = (
        CentreStage::ud(&dir, true).unwrap(),
        CentreStage::lr(&dir, true).unwrap(),
    );
    let rotations = crate::moves::axis_rotations();
    let solved = CentreStage::solved(&dir, true).unwrap();
    for seed in 0..2 {
        let s = tablegen::orbits::random_state(&cube, seed);
        let ends: Vec<(Vec<u8>, usize)> = ud
            .solve(&s, 3, 8, clock())
            .iter()
            .map(|f| {
                let moves: Vec<_> = f.path.iter().map(|&i| ud.moves()[i]).collect();
                let mut t = in_frame(&s, &rotations[f.root]);
                cube.apply_alg(&mut t, &moves);
                (t, moves.len())
            })
            .collect();
        let all = lr.solve_from(&ends, 1, clock());
        let one = lr.solve_from(&ends[..1], 1, clock());
        let total = |f: &crate::search::Found| ends[f.root].1 + f.path.len();
        assert!(total(&all[0]) <= total(&one[0]));
        let (mut t, _) = ends[all[0].root].clone();
        let moves: Vec<_> = all[0].path.iter().map(|&i| lr.moves()[i]).collect();
        cube.apply_alg(&mut t, &moves);
        assert!(staged(&cube, &t), "seed {seed}: U/D kept");
        for f in [Face::R, Face::L] {
            for r in 1..4 {
                for c in 1..4 {
                    let col = t[cube.index(f, r, c)];
                    assert!(
                        (r, c) == (2, 2) || col == Face::R as u8 || col == Face::L as u8,
                        "seed {seed}"
                    );
                }
            }
        }
        // Stage 3 from the four best stage-2 ends.
        let ends2: Vec<(Vec<u8>, usize)> = lr
            .solve_from(&ends, 4, clock())
            .iter()
            .map(|f| {
                let (mut t, n1) = ends[f.root].clone();
                let moves: Vec<_> = f.path.iter().map(|&i| lr.moves()[i]).collect();
                cube.apply_alg(&mut t, &moves);
                (t, n1 + moves.len())
            })
            .collect();
        let f3 = &solved.solve_from(&ends2, 1, clock())[0];
        let (mut t, _) = ends2[f3.root].clone();
        let m3: Vec<_> = f3.path.iter().map(|&i| solved.moves()[i]).collect();
        cube.apply_alg(&mut t, &m3);
        for f in Face::ALL {
            for r in 1..4 {
                for c in 1..4 {
                    assert_eq!(
                        t[cube.index(f, r, c)],
                        f as u8,
                        "seed {seed}: centres solved"
                    );
                }
            }
        }
    }
}
