//! The 3x3x3 two-phase pruning tables against a second method each: a hash-set
//! BFS over labelled facelet states of the facelet model (nothing shared with the
//! coordinates), and for the symmetry-reduced twist x flip table, the unreduced
//! BFS over all 3^7 x 2^11 pairs.

use super::common::hashset_bfs;
use tablegen::bfs::{dense_bfs, Space};
use tablegen::catalog::{self, Built};
use tablegen::corners::corner_facelets;
use tablegen::cube::CubeN;
use tablegen::cube3::{move_of, CubieCube};
use tablegen::kociemba::{k4, move_tables, N_FLIP, N_TWIST, P2_MOVES};
use tablegen::progress::Progress;
use tablegen::validate::EDGE_CELLS;

/// A facelet vector labelled by `corner(slot, k)` / `edge(slot, k)` (k = 0 is the
/// U/D sticker, or F/B on slice edges), centres 0.
fn labelled(corner: impl Fn(usize, usize) -> u8, edge: impl Fn(usize, usize) -> u8) -> Vec<u8> {
    let c3 = CubeN::new(3);
    let mut v = vec![0u8; 54];
    for (slot, cells) in corner_facelets(&c3).iter().enumerate() {
        for (k, &i) in cells.iter().enumerate() {
            v[i] = corner(slot, k);
        }
    }
    for (slot, cells) in EDGE_CELLS.iter().enumerate() {
        for (k, &(f, r, c)) in cells.iter().enumerate() {
            v[c3.index(f, r, c)] = edge(slot, k);
        }
    }
    v
}

fn check(id: &str, start: Vec<u8>, phase2: bool) {
    let def = catalog::find(id).unwrap();
    let out = catalog::build(&def, &Progress::hidden()).unwrap();
    assert_eq!(out.states(), def.expected_states, "{id}");
    let c3 = CubeN::new(3);
    let moves: Vec<usize> = if phase2 {
        P2_MOVES.to_vec()
    } else {
        (0..18).collect()
    };
    let perms: Vec<_> = moves.iter().map(|&m| c3.perm(move_of(m))).collect();
    assert_eq!(out.histogram, hashset_bfs(&perms, start, 64), "{id}");
    let Built::Dense(values) = &out.data else {
        panic!()
    };
    let mut counted = vec![0u64; out.histogram.len()];
    for &v in values {
        counted[v as usize] += 1;
    }
    assert_eq!(counted, out.histogram);
}

#[test]
fn twist_slice() {
    let start = labelled(|_, k| 1 + (k == 0) as u8, |slot, _| 3 + (slot >= 8) as u8);
    check("3x3x3-phase1-twist-slice", start, false);
}

#[test]
fn flip_slice() {
    let start = labelled(
        |_, _| 0,
        |slot, k| 3 + 2 * (slot >= 8) as u8 + (k == 0) as u8,
    );
    check("3x3x3-phase1-flip-slice", start, false);
}

#[test]
fn corner_perm_slice_perm() {
    // Phase-2 moves keep orientations, so the U/D sticker names the corner.
    let start = labelled(
        |slot, k| if k == 0 { 1 + slot as u8 } else { 0 },
        |slot, k| {
            if k == 0 && slot >= 8 {
                20 + slot as u8
            } else {
                0
            }
        },
    );
    check("3x3x3-phase2-cperm-sperm", start, true);
}

#[test]
fn edge_perm_slice_perm() {
    let start = labelled(|_, _| 0, |slot, k| if k == 0 { 20 + slot as u8 } else { 0 });
    check("3x3x3-phase2-eperm-sperm", start, true);
}

/// All 3^7 x 2^11 (twist, flip) pairs, ranked `twist * 2048 + flip`.
struct TwistFlip;

impl Space for TwistFlip {
    fn size(&self) -> u64 {
        (N_TWIST * N_FLIP) as u64
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    fn for_each_neighbour(&self, r: u64, mut f: impl FnMut(u64) -> bool) {
        let mt = move_tables();
        let (t, fl) = (r as usize / N_FLIP, r as usize % N_FLIP);
        for m in 0..18 {
            let n = mt.twist[t * 18 + m] as usize * N_FLIP + mt.flip[fl * 18 + m] as usize;
            if !f(n as u64) {
                return;
            }
        }
    }
}

#[test]
fn twist_flip_reduced_equals_unreduced() {
    let def = catalog::find("3x3x3-phase1-twist-flip").unwrap();
    let out = catalog::build(&def, &Progress::hidden()).unwrap();
    assert_eq!(out.states(), def.expected_states);
    let Built::Dense(reduced) = &out.data else {
        panic!()
    };
    let full = dense_bfs(&TwistFlip, &Progress::hidden());
    assert_eq!(
        full.histogram.iter().sum::<u64>(),
        (N_TWIST * N_FLIP) as u64
    );
    let k = k4();
    let mut hist = vec![0u64; out.histogram.len()];
    for t in 0..N_TWIST {
        for f in 0..N_FLIP {
            let d = full.depth[t * N_FLIP + f];
            assert_eq!(reduced[k.twist_flip_index(t, f)], d, "twist {t} flip {f}");
            if k.flip_rep[k.flip_class[f] as usize] as usize == f {
                hist[d as usize] += 1;
            }
        }
    }
    // The reduced table holds exactly the pairs whose flip is a representative.
    assert_eq!(hist, out.histogram);
}

/// The unreduced twist x flip distribution from a hash-set BFS over orientation
/// cubies (the slowest test here, about 25 s).
#[test]
fn twist_flip_unreduced_by_hash_set() {
    use std::collections::HashSet;
    let key = |c: &CubieCube| {
        c.co.iter()
            .chain(&c.eo)
            .fold(0u64, |a, &x| a * 3 + x as u64)
    };
    let mut seen = HashSet::from([key(&CubieCube::SOLVED)]);
    let mut frontier = vec![CubieCube::SOLVED];
    let mut hist = vec![1u64];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for c in &frontier {
            for m in 0..18 {
                let mut d = c.apply_move(m);
                // Only orientations matter: forget where the pieces are.
                d.cp = CubieCube::SOLVED.cp;
                d.ep = CubieCube::SOLVED.ep;
                if seen.insert(key(&d)) {
                    next.push(d);
                }
            }
        }
        if !next.is_empty() {
            hist.push(next.len() as u64);
        }
        frontier = next;
    }
    let full = dense_bfs(&TwistFlip, &Progress::hidden());
    assert_eq!(hist, full.histogram);
}
