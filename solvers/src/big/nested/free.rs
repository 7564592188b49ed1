//! The free moves of the block search: turns of a 1st inner layer
//! conjugated by outer block turns, which keep the inner cube and regroup
//! the blocks' facelets.

use super::*;

/// A turn of a 1st inner layer (which moves no facelet of the inner cube)
/// conjugated by outer block turns: `S 2R S'`. It keeps the inner cube as
/// it is, whatever `S` is, and regroups facelets among the blocks.
pub(super) struct Free {
    pub(super) moves: Vec<Move>,
    pub(super) cost: u32,
    /// (from, to) of every block facelet it moves.
    pub(super) pairs: Vec<(u32, u32)>,
    /// The blocks it moves facelets into, and each pair's among them.
    pub(super) blocks: Vec<u32>,
    pub(super) slot: Vec<u8>,
    /// `blocks` as bits.
    pub(super) mask: u32,
}

/// Every `S Y S'` with `S` one or two outer block turns and `Y` a quarter
/// or half turn of a 1st inner layer that regroups the blocks' facelets
/// (moves some facelet to another block than its fellows), the cheapest of
/// each effect on the blocks. Where `S` starts with a turn of the 5x5x5
/// (a face, or the N-cube's `Rw`), that turn may also stay done: it keeps
/// every block whole, as the cycles' kept setups do.
pub(super) fn free_moves(cube: &tablegen::cube::CubeN, block: &[u32]) -> Vec<Free> {
    use std::collections::HashMap;
    use tablegen::notation::MoveKind;
    let n = cube.n();
    let size = n - 4;
    let mut turns = Vec::new();
    for f in Face::ALL {
        for d in 1..=(n / 2) as u8 {
            for t in 1..=3u8 {
                turns.push(Move::block(f, d, t));
            }
        }
    }
    let ys: Vec<Move> = Face::ALL
        .iter()
        .flat_map(|&f| {
            (1..=3u8).map(move |t| Move {
                face: f,
                kind: MoveKind::Slice(2),
                turns: t,
            })
        })
        .collect();
    let y_tracks: Vec<Vec<u16>> = ys
        .iter()
        .map(|&y| super::super::track(cube, &[y]))
        .collect();
    let places: Vec<usize> = (0..block.len()).filter(|&i| block[i] != u32::MAX).collect();
    let kept = |m: Move| matches!(m.kind, MoveKind::Block(1 | 2));
    // The cheapest free move of each effect on the blocks, by a hash of
    // that effect.
    let mut best: HashMap<u64, Free> = HashMap::new();
    let mut dest = vec![(u32::MAX, 0usize); 24];
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for s in super::super::sequences(&turns).into_iter().skip(1) {
        // `t[j]`: where the facelet that ends at `j` comes from.
        let t_s = super::super::track(cube, &s);
        let mut inv_s = vec![0u16; t_s.len()];
        for (j, &src) in t_s.iter().enumerate() {
            inv_s[src as usize] = j as u16;
        }
        // Without its first turn undone (that turn alone, after).
        let first = (s.len() == 2 && kept(s[0])).then(|| super::super::track(cube, &[s[0]]));
        for (y, t_y) in ys.iter().zip(&y_tracks) {
            for keep in [false, true] {
                if keep && first.is_none() {
                    continue;
                }
                pairs.clear();
                for &j in &places {
                    // S, Y, S' (and S's first turn once more, kept).
                    let at = match (&first, keep) {
                        (Some(f), true) => f[j] as usize,
                        _ => j,
                    };
                    let src = t_s[t_y[inv_s[at] as usize] as usize] as usize;
                    if src != j {
                        pairs.push((src as u32, j as u32));
                    }
                }
                // Whole blocks onto whole blocks: nothing regrouped.
                dest.iter_mut().for_each(|d| *d = (u32::MAX, 0));
                let mut whole = true;
                for &(a, b) in &pairs {
                    let e = &mut dest[block[a as usize] as usize];
                    if e.1 == 0 {
                        e.0 = block[b as usize];
                    }
                    whole &= e.0 == block[b as usize];
                    e.1 += 1;
                }
                // (A block some of whose facelets stay sends them to itself.)
                let one =
                    |(b, &(d, k)): (usize, &(u32, usize))| k == 0 || k == size || d == b as u32;
                if whole && dest.iter().enumerate().all(one) {
                    continue;
                }
                let cost = 2 * s.len() as u32 + 2 - u32::from(keep);
                let key = super::super::effect_key(pairs.iter().copied());
                if best.get(&key).is_some_and(|b| b.cost <= cost) {
                    continue;
                }
                let mut moves = s.clone();
                moves.push(*y);
                let undo = invert_alg(&s);
                moves.extend_from_slice(&undo[..undo.len() - usize::from(keep)]);
                let mut blocks: Vec<u32> = Vec::new();
                let slot = (pairs.iter())
                    .map(|&(_, t)| {
                        let b = block[t as usize];
                        let k = blocks.iter().position(|&x| x == b).unwrap_or_else(|| {
                            blocks.push(b);
                            blocks.len() - 1
                        });
                        k as u8
                    })
                    .collect();
                best.insert(
                    key,
                    Free {
                        moves,
                        cost,
                        pairs: pairs.clone(),
                        mask: blocks.iter().fold(0, |m, &b| m | 1 << b),
                        blocks,
                        slot,
                    },
                );
            }
        }
    }
    let mut out: Vec<Free> = best.into_values().collect();
    out.sort_by(|a, b| (a.cost, &a.pairs).cmp(&(b.cost, &b.pairs)));
    out
}
