//! The 5x5x5 reduction tables (`5x5x5-lr-x-parity`, `5x5x5-wings-split`,
//! `5x5x5-fb-centres-eo`, `5x5x5-tredges-pair`) against a second method each: a
//! hash-set BFS over facelet states of `CubeN::new(5)`, moved by the facelet
//! model's move permutations. Pieces, the wing classes, the midge orientation
//! and the wing parity are read off the facelets and their geometry here; no
//! ranking, slot numbering or move table is shared with `tablegen::cube5` (or
//! with `cube4::Wings`): only the move lists come from the catalog.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use tablegen::catalog::{self, Built, SpaceDef};
use tablegen::cube::CubeN;
use tablegen::cube4::pairing_moves;
use tablegen::notation::{Face, Move};
use tablegen::progress::Progress;

/// `5x5x5-tredges-pair` states by depth, from a full build.
const TREDGES_PAIR_HISTOGRAM: [u64; 16] = [
    1, 6, 55, 454, 3287, 21258, 125118, 680883, 3278462, 13363986, 43383252, 103042620, 156868710,
    124957752, 33212116, 63640,
];

/// Builds a catalog table (a [`SpaceDef::Reduction5`]) and checks that every
/// rank is reached and the stored distances recount to the histogram.
fn build(id: &str) -> (catalog::TableDef, Vec<Move>, catalog::BuildOutput) {
    let def = catalog::find(id).unwrap();
    let SpaceDef::Reduction5 { moves, .. } = &def.space else {
        panic!("{id} is not a 5x5x5 reduction space")
    };
    let moves = moves.clone();
    let out = catalog::build(&def, &Progress::hidden()).unwrap();
    let Built::Dense(values) = &out.data else {
        panic!("{id} is not dense")
    };
    let mut counted = vec![0u64; out.histogram.len()];
    for &v in values {
        assert!((v as usize) < counted.len(), "{id}: a rank is unreached");
        counted[v as usize] += 1;
    }
    assert_eq!(
        counted, out.histogram,
        "{id}: stored distances vs histogram"
    );
    (def, moves, out)
}

/// Face, row and column of a 5x5x5 facelet.
fn cell(i: usize) -> (u8, usize, usize) {
    ((i / 25) as u8, (i % 25) / 5, i % 5)
}

fn rim(x: usize) -> bool {
    x == 0 || x == 4
}

fn inner(x: usize) -> bool {
    x == 1 || x == 3
}

fn is_wing(i: usize) -> bool {
    let (_, r, c) = cell(i);
    (rim(r) && inner(c)) || (inner(r) && rim(c))
}

fn is_midge(i: usize) -> bool {
    let (_, r, c) = cell(i);
    (rim(r) && c == 2) || (r == 2 && rim(c))
}

fn is_x_centre(i: usize) -> bool {
    let (_, r, c) = cell(i);
    inner(r) && inner(c)
}

fn is_t_centre(i: usize) -> bool {
    let (_, r, c) = cell(i);
    (inner(r) && c == 2) || (r == 2 && inner(c))
}

fn on(i: usize, faces: &[Face]) -> bool {
    faces.iter().any(|&f| f as u8 == cell(i).0)
}

/// The facelets for which `keep` holds, grouped into cubies by position
/// (each group sorted, the groups by their first facelet), with the position.
fn cubies(cube: &CubeN, keep: impl Fn(usize) -> bool) -> Vec<([i32; 3], Vec<usize>)> {
    let mut out: Vec<([i32; 3], Vec<usize>)> = Vec::new();
    for i in (0..cube.facelets()).filter(|&i| keep(i)) {
        let (p, _) = cube.geometry(i);
        match out.iter_mut().find(|(q, _)| *q == p) {
            Some((_, v)) => v.push(i),
            None => out.push((p, vec![i])),
        }
    }
    out
}

/// Where each facelet goes under a move (the facelet model's pull permutation,
/// inverted).
fn push(cube: &CubeN, m: Move) -> Vec<usize> {
    let pull = cube.perm(m);
    let mut to = vec![0; pull.len()];
    for (dst, &src) in pull.iter().enumerate() {
        to[src as usize] = dst;
    }
    to
}

/// Marked subsets of at most 64 tracked facelets as bit masks (bit `k` for
/// `tracked[k]`), moved through byte tables built from the facelet permutations.
struct Masks {
    tables: Vec<Vec<[u64; 256]>>,
}

impl Masks {
    /// Panics if a move takes a tracked facelet off the tracked set.
    fn new(cube: &CubeN, moves: &[Move], tracked: &[usize]) -> Masks {
        assert!(tracked.len() <= 64);
        let tables = moves
            .iter()
            .map(|&m| {
                let to = push(cube, m);
                let img: Vec<usize> = tracked
                    .iter()
                    .map(|&f| {
                        tracked
                            .iter()
                            .position(|&t| t == to[f])
                            .unwrap_or_else(|| panic!("{m} moves facelet {f} off the tracked set"))
                    })
                    .collect();
                (0..img.len().div_ceil(8))
                    .map(|b| {
                        std::array::from_fn(|v| {
                            (0..8)
                                .filter(|&k| v >> k & 1 == 1 && 8 * b + k < img.len())
                                .fold(0u64, |acc, k| acc | 1 << img[8 * b + k])
                        })
                    })
                    .collect()
            })
            .collect();
        Masks { tables }
    }

    /// The mask after move `i`.
    fn apply(&self, i: usize, mask: u64) -> u64 {
        self.tables[i]
            .iter()
            .enumerate()
            .fold(0, |acc, (b, t)| acc | t[(mask >> (8 * b) & 0xff) as usize])
    }
}

/// The mask of the tracked facelets for which `marked` holds.
fn mask(tracked: &[usize], marked: impl Fn(usize) -> bool) -> u64 {
    tracked
        .iter()
        .enumerate()
        .filter(|&(_, &f)| marked(f))
        .fold(0, |m, (k, _)| m | 1 << k)
}

/// A fast hasher for the BFS sets (the std one spends most of the wing split's
/// BFS hashing): the written words multiplied in, splitmix64's finaliser.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        let z = (self.0 ^ self.0 >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ z >> 31
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(23);
    }
}

type Set<S> = HashSet<S, BuildHasherDefault<Mix>>;

/// Everything reachable from `starts` (the starts first).
fn orbit<S: Clone + Eq + Hash>(starts: Vec<S>, next: impl Fn(&S, &mut Vec<S>)) -> Vec<S> {
    let mut seen: Set<S> = Set::default();
    let mut all: Vec<S> = starts
        .into_iter()
        .filter(|s| seen.insert(s.clone()))
        .collect();
    let mut buf = Vec::new();
    let mut i = 0;
    while i < all.len() {
        next(&all[i], &mut buf);
        i += 1;
        for t in buf.drain(..) {
            if seen.insert(t.clone()) {
                all.push(t);
            }
        }
    }
    all
}

/// Layered BFS from several starts over hashable states, to `max_depth` at
/// most. Returns the states per depth.
fn bfs<S: Clone + Eq + Hash>(
    starts: Vec<S>,
    max_depth: usize,
    next: impl Fn(&S, &mut Vec<S>),
) -> Vec<u64> {
    let mut seen: Set<S> = Set::default();
    let mut frontier: Vec<S> = starts
        .into_iter()
        .filter(|s| seen.insert(s.clone()))
        .collect();
    let mut hist = vec![frontier.len() as u64];
    let mut buf = Vec::new();
    while hist.len() <= max_depth {
        let mut layer = Vec::new();
        for s in &frontier {
            next(s, &mut buf);
            for t in buf.drain(..) {
                if seen.insert(t.clone()) {
                    layer.push(t);
                }
            }
        }
        if layer.is_empty() {
            break;
        }
        hist.push(layer.len() as u64);
        frontier = layer;
    }
    hist
}

/// Parity of the permutation a move induces on the 24 wing pieces (true =
/// odd): one facelet of each wing cubie is followed to the cubie it lands on.
fn wing_parity(cube: &CubeN, m: Move) -> bool {
    let wings = cubies(cube, is_wing);
    assert_eq!(wings.len(), 24);
    let to = push(cube, m);
    let cubie_of = |f: usize| wings.iter().position(|(_, w)| w.contains(&f)).unwrap();
    let perm: Vec<usize> = wings
        .iter()
        .map(|(_, w)| {
            let c = cubie_of(to[w[0]]);
            assert_eq!(c, cubie_of(to[w[1]]), "{m} splits a wing");
            c
        })
        .collect();
    let mut seen = [false; 24];
    let mut cycles = 0;
    for i in 0..24 {
        if !seen[i] {
            cycles += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = perm[j];
            }
        }
    }
    (24 - cycles) % 2 == 1
}

/// The facelets the high wings occupy when solved: the orbits, under the
/// pairing group acting on facelets, of the two facelets of the wing at U row
/// 0 column 1 (cube4 seeds its high class from the first wing in facelet order,
/// which is this one; the L-R mirror keeps the move sets and swaps the two
/// classes, so the other choice would give the same histograms). Sorted.
fn high_wing_facelets(cube: &CubeN) -> Vec<usize> {
    let seed = cube.index(Face::U, 0, 1);
    let (_, wing) = cubies(cube, is_wing)
        .into_iter()
        .find(|(_, w)| w.contains(&seed))
        .unwrap();
    let group: Vec<Vec<usize>> = pairing_moves().iter().map(|&m| push(cube, m)).collect();
    let mut high = orbit(wing, |&f, out| out.extend(group.iter().map(|p| p[f])));
    high.sort_unstable();
    assert_eq!(
        high.len(),
        24,
        "two orbits of 12 facelets: wings keep their class and never flip"
    );
    assert!(high.iter().all(|&f| is_wing(f)));
    high
}

/// `5x5x5-lr-x-parity`: which of the 16 X-centre facelets of R F L B show R or
/// L, with the wing parity as one more bit that a move flips when its facelet
/// permutation moves the 24 wing cubies (found by position) oddly; goal, the
/// solved marks with even parity. The full hash-set BFS gives the whole
/// histogram, and its total is C(16,8) x 2.
#[test]
fn lr_x_parity_against_facelet_bfs() {
    use Face::*;
    let (def, moves, out) = build("5x5x5-lr-x-parity");
    assert_eq!(moves.len(), 28);
    assert_eq!(out.states(), def.expected_states);
    let cube = CubeN::new(5);
    let solved = cube.solved();
    let tracked: Vec<usize> = (0..cube.facelets())
        .filter(|&i| is_x_centre(i) && on(i, &[R, F, L, B]))
        .collect();
    assert_eq!(tracked.len(), 16);
    let masks = Masks::new(&cube, &moves, &tracked);
    let odd: Vec<u64> = moves
        .iter()
        .map(|&m| u64::from(wing_parity(&cube, m)))
        .collect();
    // Outer turns move the wings in pairs of 4-cycles; a wide quarter turn adds
    // one 4-cycle of its inner layer: Uw, Uw', Dw, Dw' are the odd ones.
    assert_eq!(odd.iter().sum::<u64>(), 4);
    const PARITY: u64 = 1 << 63;
    let start = mask(&tracked, |f| solved[f] == R as u8 || solved[f] == L as u8);
    let hist = bfs(vec![start], usize::MAX, |&s, next| {
        for (i, &o) in odd.iter().enumerate() {
            next.push(masks.apply(i, s & !PARITY) | ((s & PARITY) ^ (o << 63)));
        }
    });
    assert_eq!(hist, out.histogram);
    assert_eq!(hist.iter().sum::<u64>(), def.expected_states);
}

/// `5x5x5-wings-split`: the set of the 48 wing facelets that hold high-wing
/// stickers, the high wings being the pairing group's facelet orbits of one
/// wing ([`high_wing_facelets`]); goal, that set when solved. The full hash-set
/// BFS gives the whole histogram, and its total is C(24,12).
#[test]
fn wings_split_against_facelet_bfs() {
    let (def, moves, out) = build("5x5x5-wings-split");
    assert_eq!(moves.len(), 24);
    assert_eq!(out.states(), def.expected_states);
    let cube = CubeN::new(5);
    let tracked: Vec<usize> = (0..cube.facelets()).filter(|&i| is_wing(i)).collect();
    assert_eq!(tracked.len(), 48);
    let high = high_wing_facelets(&cube);
    let masks = Masks::new(&cube, &moves, &tracked);
    let start = mask(&tracked, |f| high.contains(&f));
    let hist = bfs(vec![start], usize::MAX, |&s, next| {
        next.extend((0..moves.len()).map(|i| masks.apply(i, s)));
    });
    assert_eq!(hist, out.histogram);
    assert_eq!(hist.iter().sum::<u64>(), def.expected_states);
}

/// The 12 midges by position (their facelets) and each one's reference
/// facelet, Kociemba's: the U/D one, else the F/B one.
fn midge_references(cube: &CubeN) -> (Vec<Vec<usize>>, Vec<usize>) {
    use Face::*;
    let midges = cubies(cube, is_midge);
    assert_eq!(midges.len(), 12);
    let reference = midges
        .iter()
        .map(|(_, m)| {
            let pick = |faces: &[Face]| m.iter().copied().find(|&f| on(f, faces));
            pick(&[U, D]).or_else(|| pick(&[F, B])).unwrap()
        })
        .collect();
    (midges.into_iter().map(|(_, m)| m).collect(), reference)
}

/// The `5x5x5-fb-centres-eo` states as masks over the 8 T- and 8 X-centre
/// facelets of F and B (set: shows F) and the 24 midge facelets (set: holds
/// its midge's reference sticker, Kociemba's: the U/D-coloured one, else the
/// F/B-coloured one; a midge is flipped when its reference sticker is not on
/// the slot's U/D facelet, else F/B facelet). Returns the masks moved by
/// `moves` and the goals: the orbit of solved under the pairing group.
fn fb_eo_setup(cube: &CubeN, moves: &[Move]) -> (Masks, Vec<u64>) {
    use Face::*;
    let solved = cube.solved();
    let centres: Vec<usize> = (0..cube.facelets())
        .filter(|&i| (is_t_centre(i) || is_x_centre(i)) && on(i, &[F, B]))
        .collect();
    assert_eq!(centres.len(), 16);
    let (midges, reference) = midge_references(cube);
    let tracked: Vec<usize> = centres
        .iter()
        .copied()
        .chain(midges.iter().flatten().copied())
        .collect();
    let start = mask(&tracked, |f| {
        if is_midge(f) {
            reference.contains(&f)
        } else {
            solved[f] == F as u8
        }
    });
    let group = Masks::new(cube, &pairing_moves(), &tracked);
    let goals = orbit(vec![start], |&s, next| {
        next.extend((0..pairing_moves().len()).map(|i| group.apply(i, s)));
    });
    // The pairing group flips no midge: the goals differ in their centres only.
    let midge_bits = !0u64 << centres.len();
    assert!(goals.iter().all(|g| g & midge_bits == start & midge_bits));
    (Masks::new(cube, moves, &tracked), goals)
}

/// `5x5x5-fb-centres-eo` to depth 4 (about 0.9 million states): the goal set
/// (432 centre arrangements, no midge flipped) and the first five depths of
/// a hash-set BFS over the facelet masks of [`fb_eo_setup`] equal the
/// catalog build's.
#[test]
fn fb_centres_eo_against_facelet_bfs_to_depth_4() {
    let (def, moves, out) = build("5x5x5-fb-centres-eo");
    assert_eq!(moves.len(), 24);
    assert_eq!(out.states(), def.expected_states);
    let cube = CubeN::new(5);
    let (masks, goals) = fb_eo_setup(&cube, &moves);
    assert_eq!(goals.len(), 432);
    assert_eq!(out.histogram[0], 432);
    let hist = bfs(goals, 4, |&s, next| {
        next.extend((0..moves.len()).map(|i| masks.apply(i, s)));
    });
    assert_eq!(hist.len(), 5);
    assert_eq!(hist, out.histogram[..5]);
}

/// `5x5x5-fb-centres-eo` whole: the full hash-set BFS over the facelet masks of
/// [`fb_eo_setup`] gives the catalog build's histogram, and its total is
/// C(8,4)^2 x 2^11 (takes about a minute).
#[test]
#[ignore = "300 MB, about a minute: the soak, ci/soak.sh"]
fn soak_fb_centres_eo_full_against_facelet_bfs() {
    let (def, moves, out) = build("5x5x5-fb-centres-eo");
    let cube = CubeN::new(5);
    let (masks, goals) = fb_eo_setup(&cube, &moves);
    let hist = bfs(goals, usize::MAX, |&s, next| {
        next.extend((0..moves.len()).map(|i| masks.apply(i, s)));
    });
    assert_eq!(hist, out.histogram);
    assert_eq!(hist.iter().sum::<u64>(), def.expected_states);
}

/// Relabels a tredge label array so that the labels appear in order 1, 2, ...
/// along the high-wing facelets: two arrays are then equal exactly when they
/// put, for each high-wing position, the same midge position with it (which
/// tredge is where does not count).
fn canonical(s: &mut [u8], high: &[usize]) {
    let mut map = [0u8; 13];
    let mut next = 1;
    for &f in high {
        let l = s[f] as usize;
        assert_ne!(l, 0, "a high-wing facelet holds a low wing");
        if map[l] == 0 {
            map[l] = next;
            next += 1;
        }
    }
    assert_eq!(next, 13);
    for x in s.iter_mut() {
        *x = map[*x as usize];
    }
}

/// `5x5x5-tredges-pair` to depth 6: a hash-set BFS over whole facelet arrays
/// in which the two facelets of each tredge's high wing and of its midge (same
/// edge, by position) carry the tredge's label and all others 0, moved by the
/// facelet permutations of the pairing group and relabelled in high-wing
/// facelet order ([`canonical`]); its depths 0-6 equal those of the full
/// build.
#[test]
fn tredges_pair_against_facelet_bfs_to_depth_6() {
    let def = catalog::find("5x5x5-tredges-pair").unwrap();
    let SpaceDef::Reduction5 { moves, .. } = &def.space else {
        panic!()
    };
    assert_eq!(moves, &pairing_moves());
    let cube = CubeN::new(5);
    let high = high_wing_facelets(&cube);
    // The midge on the same edge as a wing: the wing's position with its
    // off-middle coordinate (+-2 in doubled units) set to 0.
    let edge = |p: [i32; 3]| p.map(|x| if x.abs() == 2 { 0 } else { x });
    let midges = cubies(&cube, is_midge);
    let high_wings = cubies(&cube, |i| high.contains(&i));
    let mut start = vec![0u8; cube.facelets()];
    for (k, (q, m)) in midges.iter().enumerate() {
        for &f in m {
            start[f] = k as u8 + 1;
        }
        for (p, w) in &high_wings {
            if edge(*p) == *q {
                for &f in w {
                    start[f] = k as u8 + 1;
                }
            }
        }
    }
    for l in 1..=12 {
        assert_eq!(start.iter().filter(|&&x| x == l).count(), 4, "tredge {l}");
    }
    canonical(&mut start, &high);
    let perms: Vec<_> = moves.iter().map(|&m| cube.perm(m)).collect();
    let hist = bfs(vec![start], 6, |s, next| {
        for p in &perms {
            let mut t: Vec<u8> = p.iter().map(|&j| s[j as usize]).collect();
            canonical(&mut t, &high);
            next.push(t);
        }
    });
    assert_eq!(hist, TREDGES_PAIR_HISTOGRAM[..7]);
}

/// `5x5x5-tredges-pair` whole (minutes, 479 MB): the build reaches 12! states,
/// the closed formula (any relative permutation of the high wings and the
/// midges, both parities: a wide half turn moves high wings and no midge); its
/// histogram is the one the table's first build gave (README), and the stored distances recount to it.
#[test]
#[ignore = "480 MB, minutes: the soak, ci/soak.sh"]
fn soak_tredges_pair_full_build() {
    let (def, _, out) = build("5x5x5-tredges-pair");
    assert_eq!(out.states(), 479_001_600);
    assert_eq!(out.states(), (1..=12).product::<u64>());
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(out.histogram, TREDGES_PAIR_HISTOGRAM);
}

/// Relabels the nonzero labels of a facelet array in the order they first
/// appear along `order` (the midge facelets): two arrays are then equal
/// exactly when they put the same pieces with the same midges (which tracked
/// tredge is which does not count).
fn canonical_by(s: &mut [u8], order: &[usize]) {
    canonical_keeping(s, order, 256);
}

/// A tredge's facelets when solved: midge, high wing, low wing; and its
/// midge's height (0: the E slice).
type Tredge = ([usize; 2], [usize; 2], [usize; 2], i32);

/// The tredges of a solved 5x5x5 by position: per dedge, its midge facelets,
/// its high wing's and its low wing's (classes as [`high_wing_facelets`]),
/// and the midge's height (0: the E slice).
fn tredges(cube: &CubeN) -> Vec<Tredge> {
    let high = high_wing_facelets(cube);
    let edge = |p: [i32; 3]| p.map(|x| if x.abs() == 2 { 0 } else { x });
    let wings = cubies(cube, is_wing);
    cubies(cube, is_midge)
        .into_iter()
        .map(|(q, m)| {
            let mut hi = [0; 2];
            let mut lo = [0; 2];
            for (p, w) in &wings {
                if edge(*p) == q {
                    if high.contains(&w[0]) {
                        hi.copy_from_slice(w);
                    } else {
                        lo.copy_from_slice(w);
                    }
                }
            }
            ([m[0], m[1]], hi, lo, q[1])
        })
        .collect()
}

/// A labelled-facelet BFS under `moves`: the starts (each relabelled by
/// [`canonical_by`] along the midge facelets), states per depth to `depth`.
fn labelled_bfs(cube: &CubeN, moves: &[Move], starts: Vec<Vec<u8>>, depth: usize) -> Vec<u64> {
    let order = midge_order(cube);
    let perms: Vec<_> = moves.iter().map(|&m| cube.perm(m)).collect();
    let starts = starts
        .into_iter()
        .map(|mut s| {
            canonical_by(&mut s, &order);
            s
        })
        .collect();
    bfs(starts, depth, |s, next| {
        for p in &perms {
            let mut t: Vec<u8> = p.iter().map(|&j| s[j as usize]).collect();
            canonical_by(&mut t, &order);
            next.push(t);
        }
    })
}

/// `5x5x5-e-slice-high` and `-low` to depth 6: a labelled-facelet BFS in
/// which the four E-slice tredges' midge facelets and high (or low) wing
/// facelets carry the tredge's label, the rest 0, relabelled in midge
/// order; its depths equal the build's.
#[test]
fn e_slice_tables_against_facelet_bfs_to_depth_6() {
    let cube = CubeN::new(5);
    let all = tredges(&cube);
    for (id, high) in [("5x5x5-e-slice-high", true), ("5x5x5-e-slice-low", false)] {
        let (def, moves, out) = build(id);
        assert_eq!(out.states(), def.expected_states);
        assert_eq!(out.states(), 495 * 12 * 11 * 10 * 9, "{id}");
        let mut start = vec![0u8; cube.facelets()];
        for (k, (m, hi, lo, y)) in all.iter().filter(|t| t.3 == 0).enumerate() {
            assert_eq!(*y, 0);
            for &f in m.iter().chain(if high { hi } else { lo }) {
                start[f] = k as u8 + 1;
            }
        }
        let hist = labelled_bfs(&cube, &moves, vec![start], 6);
        assert_eq!(hist, out.histogram[..7], "{id}");
    }
}

/// `5x5x5-e-slice-three` states by depth, from a full build.
const E_SLICE_THREE_HISTOGRAM: [u64; 13] = [
    4, 16, 136, 1080, 9588, 76960, 572044, 3771232, 20862480, 83953652, 178801180, 93704032,
    1575596,
];

/// `5x5x5-e-slice-three` to depth 5: the labelled-facelet BFS from the four
/// ways to pick three of the E-slice tredges (midge and both wings
/// labelled); its depths equal the full build's.
#[test]
fn e_slice_three_against_facelet_bfs_to_depth_5() {
    let def = catalog::find("5x5x5-e-slice-three").unwrap();
    let SpaceDef::Reduction5 { moves, .. } = &def.space else {
        panic!()
    };
    let cube = CubeN::new(5);
    let e: Vec<_> = tredges(&cube).into_iter().filter(|t| t.3 == 0).collect();
    let starts = (0..4)
        .map(|skip| {
            let mut s = vec![0u8; cube.facelets()];
            for (k, (m, hi, lo, _)) in e.iter().enumerate() {
                if k != skip {
                    for &f in m.iter().chain(hi).chain(lo) {
                        s[f] = k as u8 + 1;
                    }
                }
            }
            s
        })
        .collect();
    let hist = labelled_bfs(&cube, moves, starts, 5);
    assert_eq!(hist, E_SLICE_THREE_HISTOGRAM[..6]);
}

/// `5x5x5-e-slice-three` whole (a minute, 383 MB): every rank is reached
/// (the closed count: C(12,3) midge sets, 12·11·10 placements of each wing
/// kind) and the histogram is the one above.
#[test]
#[ignore = "383 MB, a minute: the soak, ci/soak.sh"]
fn soak_e_slice_three_full_build() {
    let (def, _, out) = build("5x5x5-e-slice-three");
    assert_eq!(out.states(), 220 * 1320 * 1320);
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(out.histogram, E_SLICE_THREE_HISTOGRAM);
}

/// `5x5x5-e-four-rl` states by depth, from a full build.
const E_FOUR_RL_HISTOGRAM: [u64; 15] = [
    1, 4, 30, 200, 1296, 8187, 49334, 283026, 1528102, 7504518, 30068326, 76791716, 72115012,
    9182472, 35776,
];

/// `5x5x5-e-four-rl` to depth 6: the labelled-facelet BFS under its 16
/// moves from the four E-slice tredges (midge and both wings labelled); its
/// depths equal the full build's. The moves keep the R and L layers' edge
/// pieces in them (checked: no labelled facelet reaches the M slice).
#[test]
fn e_four_rl_against_facelet_bfs_to_depth_6() {
    let def = catalog::find("5x5x5-e-four-rl").unwrap();
    let SpaceDef::Reduction5 { moves, .. } = &def.space else {
        panic!()
    };
    assert_eq!(moves.len(), 16);
    let cube = CubeN::new(5);
    let mut start = vec![0u8; cube.facelets()];
    for (k, (m, hi, lo, _)) in tredges(&cube).into_iter().filter(|t| t.3 == 0).enumerate() {
        for &f in m.iter().chain(&hi).chain(&lo) {
            start[f] = k as u8 + 1;
        }
    }
    let hist = labelled_bfs(&cube, moves, vec![start], 6);
    assert_eq!(hist, E_FOUR_RL_HISTOGRAM[..7]);
    assert_eq!(
        E_FOUR_RL_HISTOGRAM.iter().sum::<u64>(),
        tablegen::pair5::E_FOUR_STATES
    );
}

/// `5x5x5-e-four-rl` whole (a BFS of 197,568,000 states, 20 s on two
/// cores): 29,616 classes of the midges with their high wings x 1,680 low
/// placements, every index reached; its entries per depth are cube555's
/// published ones (the catalog's expected histogram), and each index
/// weighted by the states it stands for gives the whole space's depths
/// above (cube555's published states per depth).
#[test]
#[ignore = "a BFS of 197,568,000 states, 20 s on two cores: CI's sample"]
fn e_four_rl_full_build_against_cube555() {
    use tablegen::pair5::{rl_pair_moves, EFourRlSyms, EFourSpace};
    let (def, _, out) = build("5x5x5-e-four-rl");
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(out.states(), 29_616 * 1680);
    assert_eq!(Some(out.histogram.as_slice()), def.expected_histogram);
    let Built::Dense(values) = &out.data else {
        unreachable!()
    };
    let syms = EFourRlSyms::new(&EFourSpace::new(&rl_pair_moves()).unwrap()).unwrap();
    let mut states = vec![0u64; out.histogram.len()];
    for (i, &d) in values.iter().enumerate() {
        states[d as usize] += syms.weight(i as u64);
    }
    assert_eq!(states, E_FOUR_RL_HISTOGRAM);
}

/// `5x5x5-side-centres` whole: a hash-set BFS over the colours of the 32
/// side T- and X-centre facelets (2 bits each), moved by the facelet
/// permutations of the pairing group, from the last group's arrangements
/// (their closure under its facelet permutations); same states and depths.
#[test]
fn side_centres_against_facelet_bfs() {
    let (def, moves, out) = build("5x5x5-side-centres");
    let cube = CubeN::new(5);
    let sides: Vec<usize> = (0..cube.facelets())
        .filter(|&i| {
            (is_t_centre(i) || is_x_centre(i)) && on(i, &[Face::R, Face::L, Face::F, Face::B])
        })
        .collect();
    assert_eq!(sides.len(), 32);
    let key = |s: &[u8]| -> u64 {
        sides.iter().enumerate().fold(0u64, |acc, (k, &f)| {
            let c = match s[f] {
                x if x == Face::R as u8 => 0,
                x if x == Face::L as u8 => 1,
                x if x == Face::F as u8 => 2,
                x if x == Face::B as u8 => 3,
                _ => panic!("a U/D centre on the sides"),
            };
            acc | c << (2 * k)
        })
    };
    // States as the 32 colours; a move pulls each side facelet from one.
    let pull = |m: Move| -> Vec<usize> {
        let p = cube.perm(m);
        sides
            .iter()
            .map(|&f| {
                sides
                    .iter()
                    .position(|&g| g == p[f] as usize)
                    .expect("the group keeps the sides' centres on the sides")
            })
            .collect()
    };
    let step = |pulls: &[Vec<usize>], s: &u64, out: &mut Vec<u64>| {
        for p in pulls {
            out.push(
                p.iter()
                    .enumerate()
                    .fold(0u64, |acc, (k, &j)| acc | (s >> (2 * j) & 3) << (2 * k)),
            );
        }
    };
    let last: Vec<Vec<usize>> = tablegen::pair5::last8_moves()
        .into_iter()
        .map(pull)
        .collect();
    let group: Vec<Vec<usize>> = moves.iter().map(|&m| pull(m)).collect();
    let goals = orbit(vec![key(&cube.solved())], |s, out| step(&last, s, out));
    assert_eq!(goals.len(), 36);
    let hist = bfs(goals, 30, |s, out| step(&group, s, out));
    assert_eq!(hist, out.histogram);
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(out.states(), 70 * 70 * 432);
}

/// `5x5x5-last8-edges` to depth 6: a labelled-facelet BFS of the eight
/// U/D-layer tredges (midge, high and low wing facelets labelled, the rest
/// 0) in the last group counts every state; the table counts classes under
/// its symmetries, so each class found at a depth is weighted by its size
/// (the symmetries over those that fix it). The class count is Burnside's.
#[test]
fn last8_edges_against_facelet_bfs_to_depth_6() {
    let (def, moves, out) = build("5x5x5-last8-edges");
    let space = tablegen::pair5::Last8Space::new(&moves).unwrap();
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(out.states(), space.burnside());
    let Built::Dense(values) = &out.data else {
        panic!()
    };
    let mut weighted = vec![0u64; 7];
    let nsym = space.syms.len() as u64;
    for (r, &v) in values.iter().enumerate() {
        if (v as usize) < weighted.len() {
            let (h, l) = space.unrank(r as u64);
            let fixed = (0..space.syms.len())
                .filter(|&s| space.conj(s, h) == h && space.conj(s, l) == l)
                .count() as u64;
            weighted[v as usize] += nsym / fixed;
        }
    }
    let cube = CubeN::new(5);
    let mut start = vec![0u8; cube.facelets()];
    for (k, (m, hi, lo, y)) in tredges(&cube).iter().enumerate() {
        if *y != 0 {
            for &f in m.iter().chain(hi).chain(lo) {
                start[f] = k as u8 + 1;
            }
        }
    }
    let hist = labelled_bfs(&cube, &moves, vec![start], 6);
    assert_eq!(hist, weighted);
}

/// The midge facelets in index order (the order labels are renumbered in).
fn midge_order(cube: &CubeN) -> Vec<usize> {
    let mut order: Vec<usize> = cubies(cube, is_midge)
        .into_iter()
        .flat_map(|(_, m)| m)
        .collect();
    order.sort_unstable();
    order
}

/// Relabels a labelled facelet state: the labels below `keep` renumbered in
/// the order they first appear along `order` (the rest 0), those from `keep`
/// on kept as they are.
fn canonical_keeping(s: &mut [u8], order: &[usize], keep: usize) {
    let mut map: [u8; 256] = std::array::from_fn(|x| if x >= keep { x as u8 } else { 0 });
    let mut next = 1;
    for &f in order {
        let l = s[f] as usize;
        if l != 0 && map[l] == 0 {
            map[l] = next;
            next += 1;
        }
    }
    for x in s.iter_mut() {
        *x = map[*x as usize];
    }
}

/// `5x5x5-last8-low-centres` whole: every rank is reached (8! relative
/// low-wing permutations x C(8,4)² U/D centre arrangements), its histogram
/// is cube555's published one (the catalog's), and to depth 6 it is the
/// labelled-facelet BFS in which the eight U/D-layer tredges' midges and
/// low wings carry the tredge's label (relabelled in midge order) and the
/// U/D T- and X-centres of colour U a label of their own.
#[test]
fn last8_low_centres_against_facelet_bfs_to_depth_6() {
    let (def, moves, out) = build("5x5x5-last8-low-centres");
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(out.states(), 40_320 * 70 * 70);
    assert_eq!(Some(out.histogram.as_slice()), def.expected_histogram);
    let cube = CubeN::new(5);
    const CENTRE: u8 = 200;
    let mut start = vec![0u8; cube.facelets()];
    for (k, (m, _, lo, y)) in tredges(&cube).iter().enumerate() {
        if *y != 0 {
            for &f in m.iter().chain(lo) {
                start[f] = k as u8 + 1;
            }
        }
    }
    for (i, s) in start.iter_mut().enumerate() {
        if (is_t_centre(i) || is_x_centre(i)) && on(i, &[Face::U]) {
            *s = CENTRE;
        }
    }
    let order = midge_order(&cube);
    let canon = |s: &mut Vec<u8>| canonical_keeping(s, &order, CENTRE as usize);
    canon(&mut start);
    let perms: Vec<_> = moves.iter().map(|&m| cube.perm(m)).collect();
    let hist = bfs(vec![start], 6, |s, next| {
        for p in &perms {
            let mut t: Vec<u8> = p.iter().map(|&j| s[j as usize]).collect();
            canon(&mut t);
            next.push(t);
        }
    });
    assert_eq!(hist, out.histogram[..7]);
}

/// `5x5x5-e-four-rl-centres` whole: 29,616 edge classes under the four
/// rotations (cube555's count: its 145,118,400 symmetric entries) x 4,900
/// centre arrangements, every index reached; its entries per depth are cube555's
/// published ones (the catalog's expected histogram); its indices weighted
/// by the states each stands for give the whole space's 576,240,000 states
/// at cube555's published depths and, to depth 6, at the depths of the
/// labelled-facelet BFS in which the four E-slice tredges' midges and low
/// wings carry the tredge's label and the R/L centres of colour R (both
/// orbits) a label of their own, from every arrangement the last group
/// reaches. The high wings' states, read through the reflection, have the
/// low wings' depths: checked on states along random walks.
#[test]
#[ignore = "a BFS of 576,240,000 states, under a minute on two cores: CI's sample"]
fn e_four_rl_centres_table_against_cube555_and_facelet_bfs() {
    use tablegen::pair5::{
        rl_pair_moves, EFourBothSpace, EFourMirror, EFourSyms, E_FOUR_BOTH_STATES, E_FOUR_CENTRES,
        E_FOUR_EDGES,
    };
    let id = "5x5x5-e-four-rl-centres";
    let (def, moves, out) = build(id);
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(out.histogram, def.expected_histogram.unwrap());
    let Built::Dense(values) = &out.data else {
        unreachable!()
    };
    let last = tablegen::pair5::last8_moves();
    let space = EFourBothSpace::new(false, &moves, &last).unwrap();
    let syms = EFourSyms::new(&space, false).unwrap();
    // 29,616 classes: cube555's 145,118,400 symmetric entries over 4,900.
    assert_eq!(syms.reps.len() as u64 * E_FOUR_CENTRES, 145_118_400);
    assert!(syms.reps.iter().all(|&e| (e as u64) < E_FOUR_EDGES));
    // Whole-space depths: cube555's published states per depth.
    let mut states = vec![0u64; out.histogram.len()];
    for (i, &d) in values.iter().enumerate() {
        states[d as usize] += syms.weight(i as u64);
    }
    assert_eq!(
        states,
        [
            6,
            24,
            216,
            1_622,
            11_198,
            75_990,
            498_774,
            3_105_912,
            17_585_391,
            81_079_954,
            230_361_431,
            220_472_982,
            23_022_104,
            24_396
        ]
    );
    assert_eq!(states.iter().sum::<u64>(), E_FOUR_BOTH_STATES);
    // Labelled-facelet BFS to depth 6.
    let cube = CubeN::new(5);
    const CENTRE: u8 = 200;
    let order = midge_order(&cube);
    let canon = |s: &mut Vec<u8>| canonical_keeping(s, &order, CENTRE as usize);
    let mut start = vec![0u8; cube.facelets()];
    for (k, (m, _, lo, y)) in tredges(&cube).iter().enumerate() {
        if *y == 0 {
            for &f in m.iter().chain(lo) {
                start[f] = k as u8 + 1;
            }
        }
    }
    for (i, s) in start.iter_mut().enumerate() {
        if (is_t_centre(i) || is_x_centre(i)) && on(i, &[Face::R]) {
            *s = CENTRE;
        }
    }
    canon(&mut start);
    let last_perms: Vec<_> = last.iter().map(|&m| cube.perm(m)).collect();
    let only =
        |s: &[u8]| -> Vec<u8> { s.iter().map(|&v| if v == CENTRE { v } else { 0 }).collect() };
    let mut arrangements = vec![only(&start)];
    let mut k = 0;
    while k < arrangements.len() {
        for p in &last_perms {
            let t: Vec<u8> = p.iter().map(|&j| arrangements[k][j as usize]).collect();
            if !arrangements.contains(&t) {
                arrangements.push(t);
            }
        }
        k += 1;
    }
    let goals: Vec<Vec<u8>> = arrangements
        .iter()
        .map(|a| {
            start
                .iter()
                .zip(a)
                .map(|(&s, &c)| if s == CENTRE { c } else { s.max(c) })
                .collect()
        })
        .collect();
    assert_eq!(goals.len() as u64, states[0]);
    let perms: Vec<_> = moves.iter().map(|&m| cube.perm(m)).collect();
    let hist = bfs(goals, 6, |s, next| {
        for p in &perms {
            let mut t: Vec<u8> = p.iter().map(|&j| s[j as usize]).collect();
            canon(&mut t);
            next.push(t);
        }
    });
    assert_eq!(hist, states[..7]);
    // The high wings through the reflection: along random walks in the
    // high wings' space, each step changes the read distance by at most
    // one, and from the goal it starts at 0 (so it is the distance: a
    // function that is 0 exactly on the goals and changes by at most one a
    // move, read of the low table's exact distances, under a map that
    // takes moves to moves and goals to goals).
    let high = EFourBothSpace::new(true, &rl_pair_moves(), &last).unwrap();
    let mirror = EFourMirror::new(&high, &space).unwrap();
    let read = |r: u64| -> u8 {
        let ((mids, wings, t), x) = EFourBothSpace::unrank(r);
        let i = syms.index(
            mids.map(|s| mirror.mids[s as usize]),
            wings.map(|s| mirror.wings[s as usize]),
            mirror.t[t as usize],
            mirror.x[x as usize],
        );
        values[i as usize]
    };
    let mut x = 77u64;
    for g in high.goal_ranks() {
        assert_eq!(read(*g), 0);
    }
    for _ in 0..20 {
        let mut r = high.goal_ranks()[0];
        for _ in 0..40 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let next = high.apply(&EFourBothSpace::unrank(r), (x >> 33) as usize % moves.len());
            assert!(read(r).abs_diff(read(next)) <= 1);
            r = next;
        }
    }
}

/// States per depth to `depth` of `5x5x5-split-eo`'s space as facelet
/// masks: the 48 wing facelets (set: holds a high-wing sticker,
/// [`high_wing_facelets`]) and the 24 midge facelets (set: holds its
/// midge's reference sticker, [`midge_references`]); a hash-set BFS under
/// `moves` from solved and from solved with every wing in the other class
/// and every midge flipped.
fn split_eo_facelet_depths(moves: &[Move], depth: usize) -> Vec<u64> {
    let cube = CubeN::new(5);
    let tracked: Vec<usize> = (0..cube.facelets()).filter(|&i| is_wing(i)).collect();
    let high = high_wing_facelets(&cube);
    let (midges, reference) = midge_references(&cube);
    let mids: Vec<usize> = midges.iter().flatten().copied().collect();
    let w = mask(&tracked, |f| high.contains(&f));
    let m = mask(&mids, |f| reference.contains(&f));
    let goals = vec![(w, m), (w ^ ((1 << 48) - 1), m ^ ((1 << 24) - 1))];
    let (wings, mids) = (
        Masks::new(&cube, moves, &tracked),
        Masks::new(&cube, moves, &mids),
    );
    bfs(goals, depth, |&(w, m), next| {
        next.extend((0..moves.len()).map(|i| (wings.apply(i, w), mids.apply(i, m))));
    })
}

/// `5x5x5-split-eo`'s states per depth (each entry weighted by the states
/// it stands for) to `depth`, by a BFS over the entries the search reads,
/// each such entry counted with the other entries of its class it stands
/// for (the flips' images under the symmetries fixing the class's mask).
fn split_eo_weighted_bfs(space: &tablegen::split5::SplitEo, depth: usize) -> Vec<u64> {
    use tablegen::bfs::Space;
    let mut seen = std::collections::HashSet::new();
    let mut frontier = space.goals();
    seen.extend(frontier.iter().copied());
    let weigh = |i: u64| -> u64 {
        let (m, e) = space.state_of(i);
        // The distinct entries of this state's orbit within the class.
        let images: HashSet<u16> = (0..tablegen::split5::SPLIT_EO_SYMS)
            .filter(|&k| space.act(k, m, e).0 == m)
            .map(|k| space.act(k, m, e).1 & 0x7ff)
            .collect();
        images.len() as u64 * space.weight(i)
    };
    let mut hist = vec![frontier.iter().map(|&i| weigh(i)).sum()];
    while hist.len() <= depth {
        let mut next = Vec::new();
        for &i in &frontier {
            space.for_each_neighbour(i, |t| {
                if seen.insert(t) {
                    next.push(t);
                }
                true
            });
        }
        hist.push(next.iter().map(|&i| weigh(i)).sum());
        frontier = next;
    }
    hist
}

/// `5x5x5-split-eo`'s symmetries: their class count is Burnside's (the
/// average number of wing splits each fixes, over the 32), which is also
/// cube555's phase-3 class count; the classes' orbits cover C(24,12); and
/// the entries the search reads, weighted by the states they stand for,
/// give to depth 6 the states of a hash-set BFS over facelet masks from the
/// goal and its swapped form ([`split_eo_facelet_depths`]), which shares no code with
/// the symmetries.
#[test]
fn split_eo_symmetries_against_burnside_and_facelet_bfs_to_depth_6() {
    use tablegen::split5::{SplitEo, SPLIT_EO_CLASSES, SPLIT_EO_SYMS};
    let def = catalog::find("5x5x5-split-eo").unwrap();
    let SpaceDef::Reduction5 { moves, .. } = &def.space else {
        panic!()
    };
    let space = SplitEo::new(moves).unwrap();
    let masks = tablegen::perm::bit_sets(24, 12);
    let fixed: u64 = (0..SPLIT_EO_SYMS)
        .map(|k| masks.iter().filter(|&&m| space.act(k, m, 0).0 == m).count() as u64)
        .sum();
    assert_eq!(fixed % SPLIT_EO_SYMS as u64, 0);
    assert_eq!(fixed / SPLIT_EO_SYMS as u64, SPLIT_EO_CLASSES);
    assert_eq!(space.classes(), SPLIT_EO_CLASSES);
    let orbits: u64 = (0..space.classes()).map(|c| space.weight(c * 2048)).sum();
    assert_eq!(orbits, 2_704_156);

    let hist = split_eo_facelet_depths(moves, 6);
    assert_eq!(hist.len(), 7);
    assert_eq!(split_eo_weighted_bfs(&space, 6), hist);
}

/// `5x5x5-split-eo-classes`: its three parts are C(23,12) splits (by the
/// binomial formula) and two of Burnside's class count (the test above);
/// the same bytes whatever the thread count; and the space read through the
/// table gives every sampled state and its images the entries the space
/// that found its classes gives. Words that disagree with the symmetries
/// are refused.
#[test]
fn split_eo_classes_table_against_the_formula_and_the_classes_found() {
    use tablegen::split5::{SplitEo, SPLIT_EO_CLASSES, SPLIT_EO_SYMS};
    let def = catalog::find("5x5x5-split-eo-classes").unwrap();
    let SpaceDef::Reduction5 { moves, .. } = def.space.clone() else {
        panic!("not a 5x5x5 reduction space")
    };
    let out = catalog::build(&def, &Progress::hidden()).unwrap();
    let binom = |n: u64, k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
    let parts = [binom(23, 12), SPLIT_EO_CLASSES, SPLIT_EO_CLASSES];
    assert_eq!(out.histogram, parts);
    assert_eq!(Some(out.histogram.as_slice()), def.expected_histogram);
    assert_eq!(out.states(), def.expected_states);
    let Built::Words(words) = out.data else {
        panic!("not words")
    };
    assert_eq!(words.len() as u64, parts.iter().sum::<u64>());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let again = one.install(|| tablegen::split5::build_split_eo_classes(&moves).unwrap());
    assert_eq!(again.0, words);

    let found = SplitEo::new(&moves).unwrap();
    let read = SplitEo::with_classes(&moves, tablegen::Words::Owned(words.clone())).unwrap();
    assert_eq!(read.classes(), SPLIT_EO_CLASSES);
    for i in (0..found.entries()).step_by(1_000_003) {
        let (m, e) = found.state_of(i);
        assert_eq!(read.state_of(i), (m, e));
        assert_eq!(read.weight(i), found.weight(i));
        for k in 0..SPLIT_EO_SYMS {
            let (m2, e2) = found.act(k, m, e);
            assert_eq!(
                read.index(m2, e2),
                found.index(m2, e2),
                "entry {i}, symmetry {k}"
            );
        }
    }
    // Another class's least mask, a stabiliser short of a bit, too few words.
    let reps_at = binom(23, 12) as usize;
    let mut bad = words.clone();
    bad.swap(reps_at, reps_at + 1);
    assert!(SplitEo::with_classes(&moves, tablegen::Words::Owned(bad)).is_err());
    let mut bad = words.clone();
    bad[reps_at + SPLIT_EO_CLASSES as usize] = 0;
    assert!(SplitEo::with_classes(&moves, tablegen::Words::Owned(bad)).is_err());
    let short = words[..words.len() - 1].to_vec();
    assert!(SplitEo::with_classes(&moves, tablegen::Words::Owned(short)).is_err());
}

/// `5x5x5-split-eo` built, with the whole space's states per depth: each
/// entry weighted by the states it stands for.
fn split_eo_build() -> (catalog::TableDef, Vec<Move>, catalog::BuildOutput, Vec<u64>) {
    let (def, moves, out) = build("5x5x5-split-eo");
    let Built::Dense(values) = &out.data else {
        unreachable!()
    };
    let space = tablegen::split5::SplitEo::new(&moves).unwrap();
    let mut states = vec![0u64; out.histogram.len()];
    for (i, &d) in values.iter().enumerate() {
        states[d as usize] += space.weight(i as u64);
    }
    (def, moves, out, states)
}

/// `5x5x5-split-eo` whole (a BFS of 176,226,304 entries, about 25 s on two
/// cores): every entry reached; the entries weighted by the states they
/// stand for total C(24,12) x 2^11 (the whole space) and give, to depth 6,
/// the facelet BFS's states; the entries per depth are the catalog's.
#[test]
#[ignore = "a BFS of 176,226,304 entries, 25 s on two cores: CI's sample"]
fn split_eo_full_build() {
    let (def, moves, out, states) = split_eo_build();
    assert_eq!(out.states(), def.expected_states);
    assert_eq!(Some(out.histogram.as_slice()), def.expected_histogram);
    assert_eq!(states.iter().sum::<u64>(), 2_704_156 * 2048);
    assert_eq!(states[..7], split_eo_facelet_depths(&moves, 6));
}

/// `5x5x5-split-eo` against a BFS of the whole space without symmetry: a
/// dense BFS over every (split, flips) pair from the goal and its swap (5.5
/// billion states, a byte each: 5.5 GB, minutes), whose depths per state
/// are what the table's entries, weighted by the states each stands for,
/// must give.
#[test]
#[ignore = "5.5 GB, minutes: the soak, ci/soak.sh"]
fn soak_split_eo_against_raw_bfs() {
    use tablegen::bfs::{dense_bfs, Space};
    use tablegen::cube5::{MidgeEoSpace, WingsSplitSpace};
    struct Raw {
        split: WingsSplitSpace,
        eo: MidgeEoSpace,
    }
    impl Space for Raw {
        fn size(&self) -> u64 {
            2_704_156 * 2048
        }
        fn goals(&self) -> Vec<u64> {
            vec![
                self.split.rank(0xfff) * 2048,
                self.split.rank(0xff_f000) * 2048 + MidgeEoSpace::rank(0xfff),
            ]
        }
        fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
            let m = self.split.unrank_mask(rank / 2048);
            let e = MidgeEoSpace::unrank(rank % 2048);
            for i in 0..self.eo.moves.len() {
                let r = self.split.rank(self.split.apply(m, i)) * 2048
                    + MidgeEoSpace::rank(self.eo.apply(e, i));
                if !f(r) {
                    return;
                }
            }
        }
    }
    let (_, moves, _, states) = split_eo_build();
    let raw = Raw {
        split: WingsSplitSpace::new(&moves).unwrap(),
        eo: MidgeEoSpace::new(&moves).unwrap(),
    };
    let r = dense_bfs(&raw, &Progress::hidden());
    assert_eq!(r.histogram, states);
}
