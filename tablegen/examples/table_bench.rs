//! Storage benchmark: for every artifact in the table directory, its size, bits
//! per state, zstd-compressed size, open + validate time (with and without the
//! checksum) and the cost of a random lookup in the warm table.
//!
//! `cargo run --release -p tablegen --example table_bench [-- DIR]`

use std::hint::black_box;
use std::time::Instant;
use tablefmt::{OpenOptions, Table};

/// A small xorshift generator: the benchmark needs spread-out indices, not quality.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(v);
    }
    (best, last.expect("runs >= 1"))
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| tablegen::artifact::tables_dir(None));
    println!(
        "{:<20} {:>11} {:>6} {:>11} {:>10} {:>10} {:>10}",
        "id", "bytes", "bits", "zstd-19", "open+sum", "open", "lookup"
    );
    for def in tablegen::catalog::catalog() {
        let path = tablegen::artifact::artifact_path(&dir, def.id);
        if !path.exists() {
            continue;
        }
        let raw = std::fs::read(&path).expect("readable artifact");
        let zstd = zstd::bulk::compress(&raw, 19).expect("zstd").len();
        let (t_check, table) = best_of(5, || {
            Table::open(&path, &OpenOptions::default()).expect("valid artifact")
        });
        let unchecked = OpenOptions {
            verify_checksum: false,
            ..OpenOptions::default()
        };
        let (t_open, _) = best_of(5, || {
            Table::open(&path, &unchecked).expect("valid artifact")
        });
        let states = table.states();
        let mut rng = Rng(0x9E3779B97F4A7C15);
        let lookup_ns = if let Some(view) = table.dense() {
            let n = 10_000_000u64;
            let t = Instant::now();
            let mut acc = 0u64;
            for _ in 0..n {
                acc += view.get(rng.next() % states) as u64;
            }
            black_box(acc);
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        } else if let Some(map) = table.fst() {
            // Look up keys that are present: sample them first, then time.
            let keys: Vec<Vec<u8>> = {
                use tablefmt::fst::Streamer;
                let mut s = map.stream();
                let mut all = Vec::new();
                while let Some((k, _)) = s.next() {
                    if rng.next().is_multiple_of(8) {
                        all.push(k.to_vec());
                    }
                }
                all
            };
            let n = 1_000_000usize;
            let t = Instant::now();
            let mut acc = 0u64;
            for i in 0..n {
                acc += map.get(&keys[i % keys.len()]).unwrap_or(0);
            }
            black_box(acc);
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        } else {
            f64::NAN
        };
        println!(
            "{:<20} {:>11} {:>6.2} {:>11} {:>8.2}ms {:>8.3}ms {:>8.1}ns",
            def.id,
            raw.len(),
            raw.len() as f64 * 8.0 / states.max(1) as f64,
            zstd,
            t_check * 1e3,
            t_open * 1e3,
            lookup_ns
        );
    }
}
