//! The facelet move model against the published 3x3x3 distance counts.

use super::common::hashset_bfs;
use tablegen::cube::CubeN;
use tablegen::notation::{Face, Move};

fn counts(turns: &[u8], depth: usize) -> Vec<u64> {
    let cube = CubeN::new(3);
    let perms: Vec<_> = Face::ALL
        .iter()
        .flat_map(|&f| turns.iter().map(move |&t| Move::face(f, t)))
        .map(|m| cube.perm(m))
        .collect();
    hashset_bfs(&perms, cube.solved(), depth)
}

/// OEIS A080601: 3x3x3 positions at distance 0..4 in the half-turn metric.
#[test]
fn three_by_three_htm_counts() {
    assert_eq!(counts(&[1, 2, 3], 4), vec![1, 18, 243, 3240, 43239]);
}

/// OEIS A080602: quarter-turn metric, distance 0..4.
#[test]
fn three_by_three_qtm_counts() {
    assert_eq!(counts(&[1, 3], 4), vec![1, 12, 114, 1068, 10011]);
}
