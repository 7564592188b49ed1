//! The piece orbits of any NxNxN cube, read off the facelet model: which
//! facelets move among one another under whole-cube turns, grouped by kind
//! (corners, fixed centres, centre orbits, midges, wing orbits), and the
//! checks a real cube passes orbit by orbit.
//!
//! Each centre orbit (X-centres, T-centres, obliques and their mirrors) is
//! 24 facelets, four of each colour on a real cube; each wing orbit is 24
//! pieces of two facelets, and a real cube shows each of its 24 pieces once.
//! A wing cannot be flipped in its slot, so the pieces of one orbit are told
//! apart by their two colours read in a fixed handedness: the facelet orbits
//! under whole-cube turns split each wing's two facelets into a "first" and a
//! "second" orbit of 24 facelets each. Corners, midges and fixed centres are
//! checked as the 3x3x3 skeleton ([`crate::validate`]).

use crate::cube::CubeN;
use crate::error::WingProblem;
use crate::notation::{Face, Move, MoveKind};
use crate::StateError;

/// The orbits of a cube of size `n`.
#[derive(Clone, Debug)]
pub struct Orbits {
    /// Centre orbits of 24 facelets (none for n <= 3).
    pub centres: Vec<Vec<usize>>,
    /// Wing orbits: 24 wings each, a wing as its two facelets in the orbit's
    /// handedness (first facelet in one facelet orbit, second in the other).
    pub wings: Vec<Vec<[usize; 2]>>,
}

/// What kind of cubie a facelet belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Corner,
    Edge,
    Centre,
}

fn kind(cube: &CubeN, i: usize) -> Kind {
    let m = cube.n() as i32 - 1;
    let (p, _) = cube.geometry(i);
    match p.iter().filter(|x| x.abs() == m).count() {
        3 => Kind::Corner,
        2 => Kind::Edge,
        _ => Kind::Centre,
    }
}

impl Orbits {
    /// The orbits of `cube`.
    pub fn new(cube: &CubeN) -> Orbits {
        let n = cube.facelets();
        let turns: Vec<_> = [Face::R, Face::U, Face::F]
            .into_iter()
            .map(|face| {
                cube.perm(Move {
                    face,
                    kind: MoveKind::Rotation,
                    turns: 1,
                })
            })
            .collect();
        // Facelet orbits under the whole-cube turns, numbered by their least
        // facelet.
        let mut orbit = vec![usize::MAX; n];
        let mut members: Vec<Vec<usize>> = Vec::new();
        for seed in 0..n {
            if orbit[seed] != usize::MAX {
                continue;
            }
            let id = members.len();
            orbit[seed] = id;
            let mut list = vec![seed];
            let mut k = 0;
            while k < list.len() {
                let f = list[k];
                k += 1;
                for t in &turns {
                    let g = t[f] as usize;
                    if orbit[g] == usize::MAX {
                        orbit[g] = id;
                        list.push(g);
                    }
                }
            }
            list.sort_unstable();
            members.push(list);
        }
        let centres = members
            .iter()
            .filter(|o| o.len() == 24 && kind(cube, o[0]) == Kind::Centre)
            .cloned()
            .collect();
        // Wings: edge facelets whose cubie has both facelets in orbits of 24
        // that differ (a midge's two facelets share one orbit of 24).
        let mut wings: Vec<Vec<[usize; 2]>> = Vec::new();
        let mut orbit_of_wing: Vec<usize> = Vec::new();
        let mut by_pos: std::collections::HashMap<[i32; 3], Vec<usize>> = Default::default();
        for i in (0..n).filter(|&i| kind(cube, i) == Kind::Edge) {
            by_pos.entry(cube.geometry(i).0).or_default().push(i);
        }
        let mut cubies: Vec<Vec<usize>> = by_pos.into_values().collect();
        cubies.sort();
        for v in cubies {
            let (a, b) = (v[0], v[1]);
            if orbit[a] == orbit[b] {
                continue;
            }
            let (first, second) = if orbit[a] < orbit[b] { (a, b) } else { (b, a) };
            let key = orbit[first];
            let k = match orbit_of_wing.iter().position(|&o| o == key) {
                Some(k) => k,
                None => {
                    orbit_of_wing.push(key);
                    wings.push(Vec::new());
                    wings.len() - 1
                }
            };
            wings[k].push([first, second]);
        }
        for w in &mut wings {
            w.sort_unstable();
        }
        Orbits { centres, wings }
    }

    /// Checks a facelet state (colours as [`CubeN::solved`]) orbit by orbit:
    /// four facelets of each colour in every centre orbit, and each wing of
    /// every wing orbit once. The error names the orbit and what is wrong.
    pub fn check(&self, cube: &CubeN, state: &[u8]) -> Result<(), StateError> {
        let solved = cube.solved();
        for (k, o) in self.centres.iter().enumerate() {
            let mut counts = [0usize; 6];
            for &f in o {
                counts[state[f] as usize % 6] += 1;
            }
            if let Some(c) = (0..6).find(|&c| counts[c] != 4) {
                return Err(StateError::CentreOrbit {
                    orbit: k + 1,
                    cells: describe_centre(cube, o[0]),
                    colour: Face::ALL[c],
                    count: counts[c],
                });
            }
        }
        for (k, o) in self.wings.iter().enumerate() {
            let mut want: Vec<(u8, u8)> = o.iter().map(|w| (solved[w[0]], solved[w[1]])).collect();
            want.sort_unstable();
            let mut got: Vec<(u8, u8)> = o.iter().map(|w| (state[w[0]], state[w[1]])).collect();
            got.sort_unstable();
            if got != want {
                let name = |(a, b): (u8, u8)| {
                    let l = |c: u8| Face::ALL.get(c as usize).map_or('?', |f| f.letter());
                    format!("{}{}", l(a), l(b))
                };
                let dup = got.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]);
                let missing = want.iter().find(|p| !got.contains(p)).copied();
                let problem = match (dup, missing) {
                    (Some(d), _) if want.binary_search(&d).is_ok() => WingProblem::Twice(name(d)),
                    (_, Some(m)) => {
                        let odd = got.iter().find(|p| want.binary_search(p).is_err());
                        match odd {
                            Some(&p) => WingProblem::Foreign {
                                shows: name(p),
                                missing: name(m),
                            },
                            None => WingProblem::Missing(name(m)),
                        }
                    }
                    _ => WingProblem::NotReal,
                };
                return Err(StateError::WingOrbit {
                    orbit: k + 1,
                    problem,
                });
            }
        }
        Ok(())
    }
}

/// A uniformly random state of an NxNxN cube (facelets, colours as
/// [`CubeN::solved`]) from a seed: the 3x3x3 skeleton as a random 3x3x3's
/// (corners; on odd cubes also the midges and fixed centres, with the 3x3x3's
/// parity and orientation rules), a uniformly random permutation of each wing
/// orbit, and a uniformly random arrangement of each centre orbit. On any cube
/// these are independent: each wing orbit's permutation parity is set by
/// inner slice quarter turns alone, and centres of one colour are
/// interchangeable.
pub fn random_state(cube: &CubeN, seed: u64) -> Vec<u8> {
    let n = cube.n();
    let mut x = seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1;
    let mut next = |k: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % k as u64) as usize
    };
    let solved = cube.solved();
    let mut s = solved.clone();
    // The skeleton: facelet (face, r, c) of a random 3x3x3 lands on rows and
    // columns 0, middle, n - 1 (the middle only on odd cubes).
    let c3 = crate::cube3::random_cube(seed ^ 0x5EED).to_facelets();
    let at = |k: usize| [0, (n - 1) / 2, n - 1][k];
    for f in 0..6 {
        for r in 0..3 {
            for c in 0..3 {
                let middle = r == 1 || c == 1;
                if n.is_multiple_of(2) && middle {
                    continue;
                }
                s[cube.index(Face::ALL[f], at(r), at(c))] = c3[f * 9 + r * 3 + c];
            }
        }
    }
    if n >= 4 {
        let o = Orbits::new(cube);
        for orbit in &o.wings {
            let mut perm: Vec<usize> = (0..orbit.len()).collect();
            for i in (1..perm.len()).rev() {
                perm.swap(i, next(i + 1));
            }
            for (p, &slot) in perm.iter().enumerate() {
                for k in 0..2 {
                    s[orbit[slot][k]] = solved[orbit[p][k]];
                }
            }
        }
        for orbit in &o.centres {
            let mut colours: Vec<u8> = orbit.iter().map(|&i| solved[i]).collect();
            for i in (1..colours.len()).rev() {
                colours.swap(i, next(i + 1));
            }
            for (&f, &c) in orbit.iter().zip(&colours) {
                s[f] = c;
            }
        }
    }
    s
}

/// A centre orbit's name by its place on the U face: `X-centres`, `T-centres`
/// or `centres at row r, column c`.
fn describe_centre(cube: &CubeN, f: usize) -> String {
    let n = cube.n();
    let (r, c) = ((f % (n * n)) / n, f % n);
    let m = n - 1;
    let (dr, dc) = (r.min(m - r), c.min(m - c));
    if dr == dc {
        format!("X-centres {dr} in from the corner")
    } else if n % 2 == 1 && (r == m / 2 || c == m / 2) {
        format!("T-centres {} in from the edge", dr.min(dc))
    } else {
        format!("obliques at row {r}, column {c}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Orbit counts for N = 2..9 by formula: centre orbits (N-2)^2 / 4
    /// rounded down, wing orbits (N-2) / 2 rounded down; every orbit has 24
    /// members; the solved cube passes.
    #[test]
    fn orbit_counts_by_formula() {
        for n in 2..=9 {
            let cube = CubeN::new(n);
            let o = Orbits::new(&cube);
            let inner = n.saturating_sub(2);
            assert_eq!(o.centres.len(), inner * inner / 4, "n={n} centres");
            assert_eq!(o.wings.len(), inner / 2, "n={n} wings");
            assert!(o.centres.iter().all(|c| c.len() == 24));
            assert!(o.wings.iter().all(|w| w.len() == 24));
            o.check(&cube, &cube.solved()).unwrap();
        }
    }

    /// Every outer block turn keeps each orbit an orbit: a scrambled cube
    /// passes, and a wing's first facelet stays first.
    #[test]
    fn moves_keep_orbits() {
        for n in 4..=7 {
            let cube = CubeN::new(n);
            let o = Orbits::new(&cube);
            let mut s = cube.solved();
            let moves = CubeN::block_turns(n as u8 / 2);
            for k in 0..200 {
                cube.apply(&mut s, moves[(k * 7 + k / 3) % moves.len()]);
            }
            o.check(&cube, &s).unwrap();
            for m in &moves {
                let p = cube.perm(*m);
                for orbit in &o.wings {
                    for w in orbit {
                        // The facelet that lands on w[0] came from a first facelet.
                        assert!(orbit.iter().any(|v| v[0] == p[w[0]] as usize));
                    }
                }
            }
        }
    }

    /// Random states of every size are real cubes, and differ by seed.
    #[test]
    fn random_states_are_valid() {
        for n in 2..=9 {
            let cube = CubeN::new(n);
            let a = random_state(&cube, 1);
            crate::validate::validate(&cube, &a).unwrap_or_else(|e| panic!("n={n}: {e}"));
            if n > 2 {
                assert_ne!(a, random_state(&cube, 2), "n={n}");
            }
        }
    }

    /// Bad states: a centre sticker swapped between orbits, a wing sticker
    /// swapped with another orbit's, a flipped wing.
    #[test]
    fn bad_orbits_are_named() {
        let cube = CubeN::new(5);
        let o = Orbits::new(&cube);
        let solved = cube.solved();
        // A U T-centre and an F X-centre exchange stickers: colour counts of
        // the whole cube stay right.
        let mut s = solved.clone();
        let t = cube.index(Face::U, 1, 2);
        let x = cube.index(Face::F, 1, 1);
        s.swap(t, x);
        let e = o.check(&cube, &s).unwrap_err();
        assert!(matches!(e, StateError::CentreOrbit { .. }), "{e}");
        assert!(e.to_string().starts_with("centre orbit"), "{e}");
        // A wing flipped in place.
        let mut s = solved.clone();
        let w = o.wings[0][0];
        s.swap(w[0], w[1]);
        let e = o.check(&cube, &s).unwrap_err();
        assert!(e.to_string().contains("wing orbit 1"), "{e}");
    }
}
