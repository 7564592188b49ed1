//! Shared test helpers.

use std::collections::HashSet;
use std::sync::Arc;

/// Layered BFS over whole facelet vectors with a hash set: the slow, obvious
/// method that other results are checked against. Returns states per depth.
pub fn hashset_bfs(perms: &[Arc<Vec<u16>>], start: Vec<u8>, max_depth: usize) -> Vec<u64> {
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    seen.insert(start.clone());
    let mut frontier = vec![start];
    let mut hist = vec![1u64];
    for _ in 0..max_depth {
        let mut next = Vec::new();
        for s in &frontier {
            for p in perms {
                let t: Vec<u8> = p.iter().map(|&i| s[i as usize]).collect();
                if !seen.contains(&t) {
                    seen.insert(t.clone());
                    next.push(t);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        hist.push(next.len() as u64);
        frontier = next;
    }
    hist
}

/// The names of the entries of `dir`, sorted.
/// `names` (table files, shard indexes) with the verification record of each
/// table file (`.NAME.verified`, which every build and install leaves beside
/// the file), sorted as [`file_names`] sorts.
pub fn with_records(names: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    for n in names.iter().filter(|n| n.ends_with(".tbl")) {
        all.push(format!(".{n}.verified"));
    }
    all.sort();
    all
}

pub fn file_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
