//! The 5x5x5's stage-1 joint table of T- and X-centres
//! (`5x5x5-ud-stage-hashed`): its BFS's states per depth against the
//! published figures and against the sparse facelet BFS without symmetry,
//! its keys under the symmetries, its bound against known distances.

use std::sync::OnceLock;
use tablegen::catalog::{self, SpaceDef};
use tablegen::centres5::{self, bound_of_code, bucket, JointBuild, UdJoint};
use tablegen::progress::Progress;

fn joint() -> &'static UdJoint {
    static J: OnceLock<UdJoint> = OnceLock::new();
    J.get_or_init(
        || match catalog::find("5x5x5-ud-stage-hashed").map(|d| d.space) {
            Some(SpaceDef::HashedCentres5 { t, x, moves }) => {
                UdJoint::new(&t, &x, &moves).expect("the symmetries hold")
            }
            _ => panic!("5x5x5-ud-stage-hashed is a hashed centre table"),
        },
    )
}

fn built() -> &'static JointBuild {
    static B: OnceLock<JointBuild> = OnceLock::new();
    B.get_or_init(|| joint().build(&Progress::hidden()))
}

/// A small deterministic generator (xorshift).
fn rng(seed: u64) -> impl FnMut(usize) -> usize {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move |n| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % n as u64) as usize
    }
}

#[test]
fn ud_joint_states_per_depth_are_the_published_ones() {
    let b = built();
    assert_eq!(b.states, centres5::STATES, "states per depth");
    assert_eq!(b.classes, centres5::CLASSES, "classes per depth");
    assert_eq!(b.codes.len(), 1 << centres5::BUCKET_BITS);
    // Every class within 7 moves is in a bucket of its depth or less; most
    // buckets hold none of them.
    let beyond = b.codes.iter().filter(|&&c| c == 3).count();
    assert!(
        beyond * 10 > b.codes.len() * 8,
        "{beyond} buckets say at least 8"
    );
}

#[test]
fn ud_joint_within_5_is_the_sparse_facelet_bfs() {
    let def = catalog::find("5x5x5-ud-stage-d5").expect("in the catalog");
    let out = catalog::build(&def, &Progress::hidden()).expect("builds");
    assert_eq!(out.histogram, centres5::STATES[..6]);
}

#[test]
fn ud_joint_keys_are_the_same_for_symmetric_states_and_bound_walks() {
    let j = joint();
    let b = built();
    let n = j.t.moves();
    let mut r = rng(7);
    let cube = tablegen::cube::CubeN::new(5);
    let syms: Vec<_> = centres5::ud_symmetries()
        .into_iter()
        .map(|s| {
            let p = cube.symmetry(s);
            (j.t.perm_maps(&p).unwrap(), j.x.perm_maps(&p).unwrap())
        })
        .collect();
    let mut syms_seen = std::collections::HashSet::new();
    for (st, sx) in &syms {
        syms_seen.insert((st.clone(), sx.clone()));
    }
    assert_eq!(syms_seen.len(), 16, "the 16 symmetries act distinctly");
    let mut at_least_8 = 0;
    for walk in 0..2000 {
        let len = walk % 16;
        let (mut t, mut x) = (j.t.goal_mask(), j.x.goal_mask());
        for _ in 0..len {
            let m = r(n);
            t = j.t.apply(t, m);
            x = j.x.apply(x, m);
        }
        let (key, stab) = j.key(t, x);
        assert!((1..=16).contains(&stab) && 16 % stab == 0);
        for (st, sx) in &syms {
            let k = j.key(
                tablegen::projection::apply_maps(st, t),
                tablegen::projection::apply_maps(sx, x),
            );
            assert_eq!(k, (key, stab));
        }
        let bound = bound_of_code(b.codes[bucket(key)]) as usize;
        assert!(bound <= len, "a walk of {len} moves bounded by {bound}");
        at_least_8 += usize::from(bound == 8);
    }
    assert!(at_least_8 > 150, "{at_least_8} walks bounded by 8");
}
