//! The 4x4x4 reduction tables (`4x4x4-sides-stage`, `4x4x4-sides-parity`,
//! `4x4x4-wings-split3`, `4x4x4-wings-pair`, `4x4x4-pair-centres`) against a second method each: a hash-set BFS moved by
//! the plain facelet permutations, which shares no ranking or move table with
//! the catalog's spaces.

use std::collections::HashSet;
use tablegen::catalog::{self, Built, SpaceDef};
use tablegen::cube::CubeN;
use tablegen::cube4::{pairing_moves, Wings};
use tablegen::notation::{Face, Move};
use tablegen::progress::Progress;

fn build(id: &str) -> (Vec<Move>, catalog::BuildOutput, u64) {
    let def = catalog::find(id).unwrap();
    let SpaceDef::Reduction4 { moves, .. } = &def.space else {
        panic!("{id}")
    };
    let out = catalog::build(&def, &Progress::hidden()).unwrap();
    let Built::Dense(values) = &out.data else {
        panic!()
    };
    // Every rank is reached, and the stored distances agree with the histogram.
    let mut counted = vec![0u64; out.histogram.len()];
    for &v in values {
        counted[v as usize] += 1;
    }
    assert_eq!(counted, out.histogram, "{id}");
    (moves.clone(), out, def.expected_states)
}

/// Where each facelet goes under a move (the facelet model's pull permutation, inverted).
fn push_perms(cube: &CubeN, moves: &[Move]) -> Vec<Vec<u8>> {
    moves
        .iter()
        .map(|&m| {
            let pull = cube.perm(m);
            let mut to = vec![0u8; pull.len()];
            for (dst, &src) in pull.iter().enumerate() {
                to[src as usize] = dst as u8;
            }
            to
        })
        .collect()
}

/// Layered BFS from several starts over hashable states.
fn bfs<S: Clone + Eq + std::hash::Hash>(
    starts: Vec<S>,
    next: impl Fn(&S, &mut Vec<S>),
) -> Vec<u64> {
    let mut seen: HashSet<S> = starts.iter().cloned().collect();
    let mut frontier: Vec<S> = seen.iter().cloned().collect();
    let mut hist = vec![frontier.len() as u64];
    let mut buf = Vec::new();
    loop {
        let mut layer = Vec::new();
        for s in &frontier {
            buf.clear();
            next(s, &mut buf);
            for t in buf.drain(..) {
                if seen.insert(t.clone()) {
                    layer.push(t);
                }
            }
        }
        if layer.is_empty() {
            return hist;
        }
        hist.push(layer.len() as u64);
        frontier = layer;
    }
}

fn permute_mask(to: &[u8], mut m: u128) -> u128 {
    let mut out = 0;
    while m != 0 {
        out |= 1u128 << to[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    out
}

#[test]
fn sides_stage_against_facelet_bfs() {
    let (moves, out, expected) = build("4x4x4-sides-stage");
    assert_eq!(out.states(), expected);
    let cube = CubeN::new(4);
    let starts = sides_goals(&cube);
    assert_eq!(starts.len() as u64, out.histogram[0], "goal states");
    let perms = push_perms(&cube, &moves);
    let hist = bfs(starts, |s, out| {
        for p in &perms {
            out.push((permute_mask(p, s.0), permute_mask(p, s.1)));
        }
    });
    assert_eq!(out.histogram, hist);
}

/// `4x4x4-sides-parity`: the sides-stage facelet masks with the wing parity
/// read off each move's facelet cycles; goals the sides-stage goals with an
/// even wing permutation.
#[test]
fn sides_parity_against_facelet_bfs() {
    let (moves, out, expected) = build("4x4x4-sides-parity");
    assert_eq!(out.states(), expected);
    let cube = CubeN::new(4);
    let starts: Vec<_> = sides_goals(&cube)
        .into_iter()
        .map(|(f, b)| (f, b, false))
        .collect();
    let perms: Vec<(Vec<u8>, bool)> = push_perms(&cube, &moves)
        .into_iter()
        .map(|p| {
            let odd = wing_parity(&p);
            (p, odd)
        })
        .collect();
    let hist = bfs(starts, |s, out| {
        for (p, odd) in &perms {
            out.push((permute_mask(p, s.0), permute_mask(p, s.1), s.2 ^ odd));
        }
    });
    assert_eq!(out.histogram, hist);
    // Every state with an odd wing permutation is at least one move away, and
    // the parity makes a difference beyond that one move: the staged centres
    // with an odd permutation are several moves from the goal.
    let Built::Dense(values) = &out.data else {
        panic!()
    };
    let staged_odd: Vec<u8> = (0..values.len() / 2)
        .filter(|&r| values[2 * r] == 0)
        .map(|r| values[2 * r + 1])
        .collect();
    assert_eq!(staged_odd.len(), 12);
    assert!(staged_odd.iter().all(|&d| d >= 5), "{staged_odd:?}");
    // Forgetting the parity gives `4x4x4-sides-stage`, a space of its own
    // code: at every rank the nearer of the two parities is its distance.
    let (_, sides, _) = build("4x4x4-sides-stage");
    let Built::Dense(plain) = &sides.data else {
        panic!()
    };
    assert_eq!(plain.len() * 2, values.len());
    for (r, &d) in plain.iter().enumerate() {
        assert_eq!(values[2 * r].min(values[2 * r + 1]), d, "rank {r}");
    }
}

/// The sides-stage goals as (F mask, B mask) over the 96 facelets: every
/// arrangement of the F and B centres the pairing group reaches from solved.
fn sides_goals(cube: &CubeN) -> Vec<(u128, u128)> {
    // State: the facelets showing F and the facelets showing B, as masks over all
    // 96 facelets. Starts: everything the pairing group reaches from solved.
    let solved = cube.solved();
    let mask_of = |c: Face| -> u128 {
        (0..96)
            .filter(|&i| solved[i] == c as u8)
            .filter(|&i| {
                let (r, c) = ((i % 16) / 4, i % 4);
                (1..3).contains(&r) && (1..3).contains(&c)
            })
            .fold(0, |m, i| m | 1 << i)
    };
    let start = (mask_of(Face::F), mask_of(Face::B));
    let group = push_perms(cube, &pairing_moves());
    let mut starts = vec![start];
    let mut seen = HashSet::from([start]);
    let mut i = 0;
    while i < starts.len() {
        let s = starts[i];
        i += 1;
        for p in &group {
            let t = (permute_mask(p, s.0), permute_mask(p, s.1));
            if seen.insert(t) {
                starts.push(t);
            }
        }
    }
    starts
}

/// Parity of the wing permutation of a move, from the facelet permutation alone:
/// wings never flip, so each wing cycle of length L is two facelet cycles of
/// length L on the 48 wing facelets.
fn wing_parity(to: &[u8]) -> bool {
    let wing = |i: usize| {
        let (r, c) = ((i % 16) / 4, i % 4);
        (r == 0 || r == 3) != (c == 0 || c == 3)
    };
    let even_cycles = even_cycles(to, &wing);
    assert_eq!(even_cycles % 2, 0);
    (even_cycles / 2) % 2 == 1
}

/// The cycles of even length of facelet permutation `to` on the facelets in
/// `set` (which it must keep): their number's parity is the permutation's.
fn even_cycles(to: &[u8], set: &dyn Fn(usize) -> bool) -> usize {
    let mut seen = [false; 96];
    let mut even = 0;
    for i in (0..96).filter(|&i| set(i)) {
        let mut j = i;
        let mut len = 0;
        while !seen[j] {
            seen[j] = true;
            j = to[j] as usize;
            len += 1;
        }
        if len > 0 && len % 2 == 0 {
            even += 1;
        }
    }
    even
}

#[test]
#[ignore = "a hash-set BFS of 290,400 starts, a minute and a half: the soak, ci/soak.sh"]
fn soak_wings_split3_against_facelet_bfs() {
    let (moves, out, expected) = build("4x4x4-wings-split3");
    assert_eq!(out.states(), expected);
    let cube = CubeN::new(4);
    let w = Wings::new();
    // State: three unordered pairs of facelets (each wing slot named by its first
    // sticker), the pairs sorted; goal: each pair has one high and one low slot.
    let high: HashSet<u8> = w.slots[..12].iter().map(|f| f[0] as u8).collect();
    let all: Vec<u8> = w.slots.iter().map(|f| f[0] as u8).collect();
    let mut starts = Vec::new();
    let his: Vec<u8> = all.iter().copied().filter(|f| high.contains(f)).collect();
    let los: Vec<u8> = all.iter().copied().filter(|f| !high.contains(f)).collect();
    for a in 0..12 {
        for b in a + 1..12 {
            for c in b + 1..12 {
                let hs = [his[a], his[b], his[c]];
                for x in 0..12 {
                    for y in 0..12 {
                        for z in 0..12 {
                            if x == y || y == z || x == z {
                                continue;
                            }
                            let ls = [los[x], los[y], los[z]];
                            let mut k: [(u8, u8); 3] =
                                std::array::from_fn(|i| (hs[i].min(ls[i]), hs[i].max(ls[i])));
                            k.sort_unstable();
                            starts.push(k);
                        }
                    }
                }
            }
        }
    }
    let perms = push_perms(&cube, &moves);
    let hist = bfs(starts, |s, out| {
        for p in &perms {
            let mut k = s.map(|(a, b)| {
                let (x, y) = (p[a as usize], p[b as usize]);
                (x.min(y), x.max(y))
            });
            k.sort_unstable();
            out.push(k);
        }
    });
    assert_eq!(out.histogram, hist);
}

/// The full pairing table: every even relative permutation is reached (12!/2,
/// the count the parity argument gives), the stored residues agree with the
/// histogram, and its first eight depths equal a hash-set BFS over the facelets
/// the 24 wing slots' first stickers move to (the dedges unlabelled).
#[test]
#[ignore = "239.5M states, a minute and a half: the soak, ci/soak.sh"]
fn soak_wings_pair_all_against_facelet_bfs() {
    let (moves, out, expected) = build("4x4x4-wings-pair");
    assert_eq!(out.states(), 239_500_800);
    assert_eq!(out.states(), expected);
    let cube = CubeN::new(4);
    let w = Wings::new();
    let mut start: Vec<(u8, u8)> = (0..12)
        .map(|e| (w.slots[e][0] as u8, w.slots[e + 12][0] as u8))
        .collect();
    start.sort_unstable();
    let perms = push_perms(&cube, &moves);
    let mut seen: HashSet<Vec<(u8, u8)>> = HashSet::from([start.clone()]);
    let mut frontier = vec![start];
    let mut hist = vec![1u64];
    for _ in 0..7 {
        let mut next = Vec::new();
        for s in &frontier {
            for p in &perms {
                let mut k: Vec<(u8, u8)> = s
                    .iter()
                    .map(|&(a, b)| (p[a as usize], p[b as usize]))
                    .collect();
                k.sort_unstable();
                if seen.insert(k.clone()) {
                    next.push(k);
                }
            }
        }
        hist.push(next.len() as u64);
        frontier = next;
    }
    assert_eq!(&out.histogram[..8], hist.as_slice());
    assert_eq!(out.histogram.len(), 14, "max depth 13");
}

/// `4x4x4-pair-centres`: the facelets showing U, R and F among the centres
/// (masks over all 96 facelets) and the PLL parity, each move's parity read
/// off its facelet cycles: the corner facelets' permutation has the corners'
/// parity (a twisted cycle of length L is one facelet cycle of 3L, an
/// untwisted one three of L), and the high wings are the orbit of one wing
/// facelet under the pairing moves. Goals: solved and solved turned by x2, y2
/// and z2, even.
#[test]
fn pair_centres_against_facelet_bfs() {
    let def = catalog::find("4x4x4-pair-centres").unwrap();
    let out = catalog::build(&def, &Progress::hidden()).unwrap();
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(def.expected_states, 70 * 70 * 12 * 2);
    let Built::Dense(values) = &out.data else {
        panic!()
    };
    assert_eq!(values.len(), 2 * 70 * 70 * 70);
    let cube = CubeN::new(4);
    use Face::*;
    let mut moves = Vec::new();
    for face in [U, D, R, L] {
        for t in [1, 2, 3] {
            moves.push(Move::face(face, t));
        }
    }
    moves.extend([Move::face(F, 2), Move::face(B, 2)]);
    moves.extend([U, R, F].map(|f| Move::block(f, 2, 2)));
    let mut sorted = moves.clone();
    sorted.sort_by_key(|m| m.to_string());
    let SpaceDef::Reduction4 { moves: theirs, .. } = &def.space else {
        panic!()
    };
    let mut theirs = theirs.clone();
    theirs.sort_by_key(|m| m.to_string());
    assert_eq!(sorted, theirs);
    let perms = push_perms(&cube, &moves);
    let row = |i: usize| (i % 16) / 4;
    let col = |i: usize| i % 4;
    let corner = |i: usize| matches!(row(i), 0 | 3) && matches!(col(i), 0 | 3);
    let centre = |i: usize| (1..3).contains(&row(i)) && (1..3).contains(&col(i));
    let wing = |i: usize| (row(i) == 0 || row(i) == 3) != (col(i) == 0 || col(i) == 3);
    // The high wings: the orbit of the first wing facelet.
    let mut high = vec![(0..96).find(|&i| wing(i)).unwrap()];
    let mut k = 0;
    while k < high.len() {
        for p in &perms {
            let j = p[high[k]] as usize;
            if !high.contains(&j) {
                high.push(j);
            }
        }
        k += 1;
    }
    assert_eq!(high.len(), 12, "one facelet of each of 12 wings");
    let parity_on = |to: &[u8], set: &dyn Fn(usize) -> bool| even_cycles(to, set) % 2 == 1;
    let flips: Vec<bool> = (perms.iter())
        .map(|p| parity_on(p, &corner) != parity_on(p, &|i| high.contains(&i)))
        .collect();
    assert!(flips.iter().any(|&f| f) && flips.iter().any(|&f| !f));
    let masks = |s: &[u8]| -> [u128; 3] {
        [U, R, F].map(|c| {
            (0..96)
                .filter(|&i| centre(i) && s[i] == c as u8)
                .fold(0, |m, i| m | 1 << i)
        })
    };
    let mut starts = Vec::new();
    for turn in ["", "x2", "y2", "z2"] {
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg(turn).unwrap());
        starts.push((masks(&s), false));
    }
    let hist = bfs(starts, |s, out| {
        for (p, &flip) in perms.iter().zip(&flips) {
            out.push((s.0.map(|m| permute_mask(p, m)), s.1 ^ flip));
        }
    });
    assert_eq!(hist.iter().sum::<u64>(), 117_600);
    assert_eq!(out.histogram, hist);
}

/// `4x4x4-sides-parity-either`, a BFS from the goals and the goals turned by
/// y', against `4x4x4-sides-parity` read in both frames: every entry is the
/// least of the state's distance as it is and turned by y.
#[test]
fn sides_parity_either_is_the_least_of_both_frames() {
    let (moves, either, expected) = build("4x4x4-sides-parity-either");
    assert_eq!(either.states(), expected);
    let (theirs, par, _) = build("4x4x4-sides-parity");
    assert_eq!(moves, theirs);
    let (Built::Dense(e), Built::Dense(p)) = (&either.data, &par.data) else {
        panic!()
    };
    let y = tablegen::notation::parse_alg("y").unwrap();
    let turn = tablegen::cube4::SideCentresSpace::new(&y).unwrap();
    let mut lower = 0;
    for r in 0..p.len() as u64 / 2 {
        let (f, b) = turn.unrank(r);
        let (f, b) = turn.apply(f, b, 0);
        let ry = turn.rank(f, b);
        for o in 0..2 {
            let (i, iy) = ((2 * r + o) as usize, (2 * ry + o) as usize);
            assert_eq!(e[i], p[i].min(p[iy]), "rank {r} parity {o}");
            lower += usize::from(p[iy] < p[i]);
        }
    }
    // The turned frame is nearer for some states: the table is not the
    // frame as it is.
    assert!(lower > 0);
}
