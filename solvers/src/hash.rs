//! A fast hasher for the solvers' own hash maps, whose keys are packed
//! positions (integers): the standard library's SipHash, built to resist
//! chosen keys, costs several times more and buys nothing here.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-and-fold hashing of integer keys.
#[derive(Default)]
pub(crate) struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    /// Eight bytes a step (keys such as facelet states are tens of bytes).
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut k = [0u8; 8];
            k.copy_from_slice(w);
            self.write_u64(u64::from_le_bytes(k));
        }
        for &b in words.remainder() {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_u64(&mut self, k: u64) {
        let x = (self.0 ^ k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ x >> 32;
    }
    fn write_u128(&mut self, k: u128) {
        self.write_u64(k as u64 ^ ((k >> 64) as u64).rotate_left(29));
    }
}

/// A hash map with [`MixHasher`].
pub(crate) type MixMap<K, V> = HashMap<K, V, BuildHasherDefault<MixHasher>>;

/// A hash set with [`MixHasher`].
pub(crate) type MixSet<K> = std::collections::HashSet<K, BuildHasherDefault<MixHasher>>;
