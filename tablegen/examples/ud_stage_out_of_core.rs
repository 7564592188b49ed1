//! The 5x5x5 U/D T- x X-centre staging space, C(24,8)^2 = 540,917,591,841
//! states (a table of 135 GB at 2 bits a state, 541 GB at a byte), built out of
//! core with the timely engine to a given depth, then checked.
//!
//! ```text
//! cargo run --release -p tablegen --example ud_stage_out_of_core -- \
//!     DIR [--depth D] [--memory-limit BYTES] [--workers W] [--check-depth C]
//! ```
//!
//! `DIR` holds the build's files (its checkpoints: run again with a larger
//! `--depth`, the build goes on from where it stopped). The histogram found
//! is compared, up to depth `C` (default 6), with a hash-set BFS of the same
//! states as one facelet projection (T- and X-centres tracked together, as
//! the catalog's `5x5x5-ud-stage-d5`); at every depth the number of states
//! within it must lie between the larger of the single-orbit tables' counts
//! and their product.

use std::time::Instant;
use tablegen::bfs::{dense_bfs, sparse_bfs, Product, Space};
use tablegen::catalog::{self, SpaceDef};
use tablegen::dist::{timely_bfs, Cluster, DistError};
use tablegen::progress::Progress;
use tablegen::projection::{self, FaceletMaskSpace};

fn projection_of(id: &str) -> FaceletMaskSpace {
    let Some(def) = catalog::find(id) else {
        panic!("{id} is not in the catalog");
    };
    match &def.space {
        SpaceDef::Facelets { def, moves } | SpaceDef::SparseFacelets { def, moves, .. } => {
            projection::build(def, moves).expect("a projection")
        }
        _ => panic!("{id} is not a facelet projection"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let dir = args.first().filter(|a| !a.starts_with("--")).cloned();
    let Some(dir) = dir else {
        eprintln!(
            "usage: ud_stage_out_of_core DIR [--depth D] [--memory-limit BYTES] [--workers W] [--check-depth C]"
        );
        std::process::exit(2);
    };
    let num = |name: &str, default: u64| -> u64 {
        flag(name).map_or(default, |v| {
            v.parse().unwrap_or_else(|_| {
                eprintln!("{name}: {v:?} is not a number");
                std::process::exit(2)
            })
        })
    };
    let depth = num("--depth", 7) as u8;
    let limit = num("--memory-limit", 4 << 30);
    let workers = num("--workers", 1) as usize;
    let check = num("--check-depth", 6).min(depth as u64) as u8;

    let t = projection_of("5x5x5-ud-t-stage");
    let x = projection_of("5x5x5-ud-x-stage");
    let single = [
        dense_bfs(&t, &Progress::hidden()).histogram,
        dense_bfs(&x, &Progress::hidden()).histogram,
    ];
    let space = Product { a: t, b: x };
    let size = space.size();
    println!(
        "space: {size} states (C(24,8)^2 = {})",
        735_471u64 * 735_471
    );
    assert_eq!(size, 735_471u64 * 735_471);

    let cluster = Cluster {
        checkpoint: Some((dir.clone().into(), 0x5555_7878_0000_0001)),
        stop_after: Some(depth),
        memory_limit: Some(limit),
        ..Cluster::local(workers)
    };
    let start = Instant::now();
    let progress = Progress::new("5x5x5 T x X staging", size, false);
    match timely_bfs(space, &cluster, &progress) {
        Err(DistError::Stopped(_)) => {}
        Err(e) => {
            eprintln!("the build failed: {e}");
            std::process::exit(1);
        }
        Ok(_) => println!("the build reached every state"),
    }
    let secs = start.elapsed().as_secs_f64();
    let meta = std::path::Path::new(&dir).join(format!("w0-of-{workers}.json"));
    let text = std::fs::read_to_string(&meta).expect("the checkpoint's figures");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let hist: Vec<u64> = v["histogram"]
        .as_array()
        .expect("a histogram")
        .iter()
        .filter_map(|x| x.as_u64())
        .collect();
    let spent = v["spent"]
        .as_array()
        .and_then(|s| s.last())
        .and_then(|x| x.as_u64())
        .unwrap_or(0);
    println!(
        "reached depth {} in {secs:.1}s this run ({} workers, memory limit {limit} bytes); {spent} expansions in all",
        hist.len() - 1,
        workers
    );
    println!("histogram {hist:?}");

    // The same states as one projection, by a hash-set BFS.
    let union = projection_of("5x5x5-ud-stage-d5");
    let n = union.moves();
    let sparse = sparse_bfs(
        &[union.goal_mask()],
        check,
        |k, out| out.extend((0..n).map(|m| union.apply(k, m))),
        &Progress::hidden(),
    );
    println!("hash-set BFS to depth {check}: {:?}", sparse.histogram);
    let upto = (check as usize + 1).min(hist.len());
    assert_eq!(hist[..upto], sparse.histogram[..upto], "histograms differ");

    // Within d moves: at least as many as either orbit alone, at most their
    // product.
    let (mut ball, mut bt, mut bx) = (0u64, 0u64, 0u64);
    for (d, &h) in hist.iter().enumerate() {
        ball += h;
        bt += single[0].get(d).copied().unwrap_or(0);
        bx += single[1].get(d).copied().unwrap_or(0);
        assert!(ball >= bt.max(bx) && ball <= bt * bx, "depth {d}");
    }
    println!(
        "checked: depths 0..={} equal the hash-set BFS; every depth within the single-orbit bounds",
        upto - 1
    );
}
