//! The cycles the reduction places pieces with: sequences found once on a
//! small cube (wing 3-cycles, centre commutators) and what they move, the
//! setups in front of them, and a cycle as carried to the N-cube.

use super::*;

pub(super) use tablegen::cycles::{
    add_with_inverse, base_cost, bases, cand_moves, candidates, depth, effect_key, layer_turn,
    moved, next_turns, sequences, setup, track, Base, Cand, Layout, OrbitKind, Setup, MAX_PAIRS,
};

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// Marks the given facelets among `len`.
pub(super) fn marks(len: usize, facelets: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut out = vec![false; len];
    for f in facelets {
        out[f] = true;
    }
    out
}

/// A wing cycle in a wing orbit's local indices: its (from, to) pairs, its
/// cost and the cycle itself.
pub(super) type LocalCycle = (Vec<(u32, u32)>, u32, Cand);
