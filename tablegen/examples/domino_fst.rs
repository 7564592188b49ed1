//! The Domino thesis's question, answered with FSTs: for every BFS depth, the set of
//! positions at that depth stored as an FST (a minimal acyclic automaton over
//! bytes), under the thesis's two encodings and four piece orderings. Prints one
//! CSV row per (encoding, ordering, depth) with keys, FST bytes and node count.
//!
//! `cargo run --release -p tablegen --example domino_fst > docs/domino-fst.csv`
//!
//! Positions are modulo the U-D turn; each is encoded by its canonical
//! representative (the turn that brings corner piece 0 to slot URF or DFR).

use rayon::prelude::*;
use std::time::Instant;
use tablegen::bfs::dense_bfs;
use tablegen::domino::{htm_moves, DominoSpace};
use tablegen::progress::Progress;

/// A field of the key: a corner slot or an edge slot.
#[derive(Clone, Copy)]
enum Field {
    Corner(usize),
    Edge(usize),
}

fn ordering(name: &str) -> Vec<Field> {
    // Around each layer the slots alternate corner, edge: URF UF UFL UL ULB UB UBR
    // UR (corner i is followed by edge i+1 mod 4 going the way U turns), U layer
    // first, then the D layer the same way.
    let mut ce = Vec::new();
    let mut ec = Vec::new();
    for layer in 0..2 {
        for i in 0..4 {
            let c = Field::Corner(layer * 4 + i);
            let e = Field::Edge(layer * 4 + (i + 1) % 4);
            ce.extend([c, e]);
            ec.extend([e, c]);
        }
    }
    match name {
        "c-alt-e" => ce,
        "e-alt-c" => ec,
        "corners-first" => (0..8)
            .map(Field::Corner)
            .chain((0..8).map(Field::Edge))
            .collect(),
        _ => (0..8)
            .map(Field::Edge)
            .chain((0..8).map(Field::Corner))
            .collect(),
    }
}

/// The key bits that the corner fields (`corners = true`) or the edge fields of a
/// position contribute: 4 bits per field with pieces numbered 0..15 (encoding one,
/// 8 bytes) or 3 bits with corners and edges numbered 0..7 apart (encoding two, 6
/// bytes); the first field in the most significant bits. A key is the OR of its
/// corner part and its edge part.
fn key_part(p: &[u8], corners: bool, fields: &[Field], bits: u32) -> u64 {
    let mut k = 0u64;
    for f in fields {
        let v = match (*f, corners) {
            (Field::Corner(s), true) => p[s] as u64,
            (Field::Edge(s), false) => p[s] as u64 + if bits == 4 { 8 } else { 0 },
            _ => 0,
        };
        k = (k << bits) | v;
    }
    k
}

/// Number of distinct states (nodes) of an FST, counted from the root (a node is
/// known by its address, so a bitmap over the bytes marks the ones seen).
fn node_count(fst: &fst::raw::Fst<Vec<u8>>) -> usize {
    let mut seen = vec![0u64; fst.as_bytes().len() / 64 + 1];
    let mut count = 0;
    let mut stack = vec![fst.root().addr()];
    while let Some(addr) = stack.pop() {
        let (w, b) = (addr / 64, addr % 64);
        if seen[w] >> b & 1 == 1 {
            continue;
        }
        seen[w] |= 1 << b;
        count += 1;
        let node = fst.node(addr);
        for t in node.transitions() {
            stack.push(t.addr);
        }
    }
    count
}

fn main() {
    let start = Instant::now();
    let space = DominoSpace::new(htm_moves());
    let bfs = dense_bfs(
        &space,
        &Progress::new("domino", tablegen::domino::STATES, false),
    );
    eprintln!("BFS done in {:.1}s", start.elapsed().as_secs_f64());
    println!("encoding,ordering,depth,states,fst_bytes,fst_nodes,key_bytes");
    for (enc, bits) in [("one", 4u32), ("two", 3u32)] {
        let key_bytes = (16 * bits / 8) as usize;
        for ord in ["c-alt-e", "e-alt-c", "corners-first", "edges-first"] {
            let fields = ordering(ord);
            let ckey: Vec<u64> = (0..2 * 5040u64)
                .map(|cc| key_part(&space.pieces(cc * 40320).0, true, &fields, bits))
                .collect();
            let ekey: Vec<u64> = (0..40320u64)
                .map(|e| key_part(&space.pieces(e).1, false, &fields, bits))
                .collect();
            for (depth, &count) in bfs.histogram.iter().enumerate() {
                let t = Instant::now();
                let mut keys: Vec<u64> = bfs
                    .depth
                    .par_iter()
                    .enumerate()
                    .filter(|(_, &d)| d as usize == depth)
                    .map(|(r, _)| ckey[r / 40320] | ekey[r % 40320])
                    .collect();
                assert_eq!(keys.len() as u64, count);
                keys.par_sort_unstable();
                let mut b = fst::SetBuilder::memory();
                let shift = 64 - 8 * key_bytes;
                for k in &keys {
                    let bytes = (k << shift).to_be_bytes();
                    b.insert(&bytes[..key_bytes])
                        .expect("sorted, distinct keys");
                }
                drop(keys);
                let set = b.into_set();
                let raw = set.into_fst();
                let bytes = raw.as_bytes().len();
                let nodes = node_count(&raw);
                println!("{enc},{ord},{depth},{count},{bytes},{nodes},{key_bytes}");
                eprintln!(
                    "{enc} {ord} depth {depth}: {count} keys, {bytes} bytes, {nodes} nodes ({:.1}s)",
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
    eprintln!("total {:.1}s", start.elapsed().as_secs_f64());
}
