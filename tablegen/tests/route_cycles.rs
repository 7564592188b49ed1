//! The big cubes' route's cycle tables against an exact count: every cycle
//! behind every setup read, each effect kept once at its lowest cost.

use std::collections::HashMap;
use tablegen::catalog::{self, Built};
use tablegen::cube::CubeN;
use tablegen::cycles::{
    base_cost, bases, read_list, route_group, route_setups, CycleSpace, MAX_PAIRS,
};
use tablegen::progress::Progress;

type Effect = ([(u32, u32); MAX_PAIRS], usize);

/// Every effect of every (cycle, setup) pair on the reference cube with its
/// lowest cost, by an exact map of whole effects (no hashing of effects to
/// keys, no skipped setups).
fn exact_effects(space: CycleSpace) -> HashMap<Effect, u32> {
    let (n, d) = space.reference();
    let cube = CubeN::new(n);
    let group: std::collections::HashSet<u32> =
        route_group(n, d).into_iter().map(|f| f as u32).collect();
    let setups = route_setups(&cube);
    let mut best: HashMap<Effect, u32> = HashMap::new();
    for b in bases(space.kind()) {
        let pairs: Vec<(u32, u32)> = b.pairs.iter().map(|&(f, t)| (f as u32, t as u32)).collect();
        if !pairs.iter().all(|(f, _)| group.contains(f)) {
            continue;
        }
        for s in &setups {
            let mut moved = [(0, 0); MAX_PAIRS];
            for (slot, &(f, t)) in moved.iter_mut().zip(&pairs) {
                *slot = (s.dest[f as usize], s.dest[t as usize]);
            }
            moved[..pairs.len()].sort_unstable();
            let cost = base_cost(&b.moves) + s.moves.len() as u32;
            let e = best.entry((moved, pairs.len())).or_insert(cost);
            *e = (*e).min(cost);
        }
    }
    best
}

#[test]
fn route_cycle_tables_keep_each_effect_once_at_its_lowest_cost() {
    for space in [CycleSpace::Oblique, CycleSpace::T] {
        let def = catalog::find(space.id()).unwrap();
        let out = catalog::build(&def, &Progress::hidden()).unwrap();
        let exact = exact_effects(space);
        assert_eq!(out.states(), exact.len() as u64, "{}", space.id());
        assert_eq!(out.states(), def.expected_states, "{}", space.id());
        let mut histogram = vec![0u64; out.histogram.len()];
        for &c in exact.values() {
            histogram[c as usize] += 1;
        }
        assert_eq!(out.histogram, histogram, "{}: by cost", space.id());
        // The table read back on its own cube: each kept cycle makes its
        // effect at that effect's lowest cost, and the list is the one the
        // route makes, in its order.
        let Built::Sparse(entries) = &out.data else {
            panic!("{} is not an FST table", space.id())
        };
        let (n, _) = space.reference();
        let setups = route_setups(&CubeN::new(n));
        let (cands, moves) = read_list(space, n, &space.layout(), &setups, |each| {
            entries.iter().for_each(|(k, v)| each(k, *v))
        })
        .unwrap();
        assert_eq!(moves.len(), bases(space.kind()).len());
        let made = space.list();
        assert_eq!(cands.len(), made.len());
        for (c, m) in cands.iter().zip(&made) {
            assert_eq!(
                (c.base, c.setup, c.cost, c.leads, c.pairs()),
                (m.base, m.setup, m.cost, m.leads, m.pairs())
            );
            let mut key = [(0, 0); MAX_PAIRS];
            for (k, &(f, t)) in key.iter_mut().zip(c.pairs()) {
                *k = (u32::from(f), u32::from(t));
            }
            assert_eq!(exact.get(&(key, c.pairs().len())), Some(&c.cost));
            assert_eq!(
                moves[c.base as usize],
                bases(space.kind())[c.base as usize].moves
            );
        }
    }
}

#[test]
fn a_damaged_cycle_table_is_an_error_not_a_panic() {
    let space = CycleSpace::T;
    let (entries, _, _) = space.entries().unwrap();
    let (n, _) = space.reference();
    let setups = route_setups(&CubeN::new(n));
    let read = |keep: &dyn Fn(&[u8]) -> bool, bad_value: Option<u64>| {
        read_list(space, n, &space.layout(), &setups, |each| {
            for (k, v) in &entries {
                if keep(k) {
                    each(k, bad_value.filter(|_| k.len() == 4).unwrap_or(*v));
                }
            }
        })
    };
    assert!(read(&|_| true, None).is_ok());
    // A base's moves missing; a key of another length; every kept cycle in
    // one place of the list; a place past the end.
    assert!(read(&|k| k != [0xFF, 0, 7], None).is_err());
    let err = read_list(space, n, &space.layout(), &setups, |each| {
        each(&[1, 2, 3, 4, 5], 0)
    });
    assert!(err.is_err());
    assert!(read(&|_| true, Some(0)).is_err());
    assert!(read(&|_| true, Some(1 << 23)).is_err());
    // A layout of another kind.
    let oblique = CycleSpace::Oblique.layout();
    assert!(read_list(space, 8, &oblique, &setups, |_| {}).is_err());
}
