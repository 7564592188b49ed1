//! The optimal solver's tables, reduced by the 16 U-D symmetries, against
//! figures that share nothing with the reduction: each table's rows weighted
//! by their class's orbit give the histogram of the whole unreduced space,
//! which must be the unreduced BFS's (corners, 88,179,840 positions) and the
//! published one (corners; the 2,217,093,120 phase-1 cosets, M. Reid 1995).

use super::kociemba_tables::Pair;
use tablegen::bfs::dense_bfs;
use tablegen::catalog::{self, Built};
use tablegen::cube3::CubieCube;
use tablegen::kociemba::{move_tables, N_PERM8, N_TWIST};
use tablegen::optimal3::{sym16, OptimalSpace};
use tablegen::progress::Progress;

/// Depths of every corner position (8! x 3^7) under the 18 face moves, as
/// published (Jaap Scherphuis' puzzle pages, "corners of the 3x3x3"; the
/// same counts as Korf's corner pattern database).
const CORNERS_HTM: [u64; 12] = [
    1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736,
];

/// The phase-1 cosets `G / <U, D, R2, L2, F2, B2>` by distance in face turns
/// (Michael Reid, Cube-Lovers, January 1995; Dik Winter's 1992 count).
const COSETS_HTM: [u64; 13] = [
    1, 4, 50, 592, 7156, 87236, 1043817, 12070278, 124946368, 821605960, 1199128738, 58202444, 476,
];

fn unreduced(id: &str, space: OptimalSpace) -> Vec<u64> {
    let def = catalog::find(id).unwrap();
    let out = catalog::build(&def, &Progress::hidden()).unwrap();
    assert_eq!(out.states(), def.expected_states, "{id}");
    let Built::Dense(depth) = &out.data else {
        panic!("{id} is dense")
    };
    space.unreduced_histogram(|i| depth[i])
}

#[test]
fn corners_table_is_the_unreduced_bfs_and_the_published_count() {
    let k = sym16();
    let raw = dense_bfs(
        &Pair {
            a: &k.corners().cperm_move,
            b: &move_tables().twist,
            a_size: N_PERM8,
            b_size: N_TWIST,
            moves: 18,
        },
        &Progress::hidden(),
    );
    assert_eq!(
        CubieCube::SOLVED.corner_perm(),
        0,
        "the raw BFS starts at 0"
    );
    assert_eq!(raw.histogram, CORNERS_HTM);
    let reduced = unreduced("3x3x3-optimal-corners", OptimalSpace::Corners);
    assert_eq!(reduced, CORNERS_HTM);
}

/// About ten seconds and 400 MB: the CI sample and the soak.
#[test]
#[ignore]
fn flipslice_twist_table_gives_reids_coset_depths() {
    let reduced = unreduced(
        "3x3x3-optimal-flipslice-twist",
        OptimalSpace::FlipSliceTwist,
    );
    assert_eq!(reduced, COSETS_HTM);
}

/// The large table (3.3 billion entries, about three minutes and 3.5 GB):
/// its unreduced histogram's first depths against a hash-set BFS of the raw
/// (flip, sorted slice, twist) triples, which shares only the move tables.
#[test]
#[ignore]
fn soak_flipslicesorted_twist_table_agrees_with_a_raw_bfs() {
    use tablegen::optimal3::N_SSLICE;
    let reduced = unreduced(
        "3x3x3-optimal-flipslicesorted-twist",
        OptimalSpace::FlipSortedSliceTwist,
    );
    assert_eq!(reduced.iter().sum::<u64>(), 2048 * N_SSLICE as u64 * 2187);
    let raw = raw_sorted_bfs(false, 7);
    assert_eq!(raw, reduced[..raw.len()]);
}

/// The huge table (6.7 billion entries, about six minutes and 7 GB): the
/// same check on raw (flip, sorted slice, twist, corner parity) quadruples.
/// (The solver's soak checks each coset's least over both parities against
/// the large table.)
#[test]
#[ignore]
fn soak_flipslicesorted_twist_parity_table_agrees_with_a_raw_bfs() {
    use tablegen::optimal3::N_SSLICE;
    let reduced = unreduced(
        "3x3x3-optimal-flipslicesorted-twist-parity",
        OptimalSpace::FlipSortedSliceTwistParity,
    );
    assert_eq!(
        reduced.iter().sum::<u64>(),
        2 * 2048 * N_SSLICE as u64 * 2187
    );
    let raw = raw_sorted_bfs(true, 7);
    assert_eq!(raw, reduced[..raw.len()]);
}

/// The first `depths` layers of a hash-set BFS over raw (flip, sorted
/// slice, twist) triples, with the corner parity when `parity`: it shares
/// only the move tables with the reduced tables.
fn raw_sorted_bfs(parity: bool, depths: usize) -> Vec<u64> {
    use std::collections::HashSet;
    use tablegen::optimal3::{move_parity, sorted_slice};
    let (mt, t, par) = (move_tables(), sorted_slice(), move_parity());
    let key = |f: u64, s: u64, tw: u64, p: u64| ((s * 2048 + f) * 2187 + tw) * 2 + p;
    let s0 = tablegen::optimal3::slice_sorted(&CubieCube::SOLVED) as u64;
    let mut seen = HashSet::from([key(0, s0, 0, 0)]);
    let mut frontier = vec![key(0, s0, 0, 0)];
    let mut raw = vec![1u64];
    for _ in 0..depths {
        let mut next = Vec::new();
        for &x in &frontier {
            let (p, x) = (x & 1, x / 2);
            let (fs, tw) = ((x / 2187) as usize, (x % 2187) as usize);
            let (s, f) = (fs / 2048, fs % 2048);
            for (m, &pm) in par.iter().enumerate() {
                let y = key(
                    mt.flip[f * 18 + m] as u64,
                    t.moves[s * 18 + m] as u64,
                    mt.twist[tw * 18 + m] as u64,
                    if parity { p ^ pm as u64 } else { 0 },
                );
                if seen.insert(y) {
                    next.push(y);
                }
            }
        }
        raw.push(next.len() as u64);
        frontier = next;
    }
    raw
}
