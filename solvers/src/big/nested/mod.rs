//! An N-cube by way of the (N-2)-cube of its inner layers and a 5x5x5.
//!
//! Grouped `0 | 1 | 2..N-3 | N-2 | N-1`, an N-cube is a 5x5x5 once every
//! group of layers shows one colour: its corners are the corners, its X-
//! centres the outer X-centres, its wings the outer wings, its T-centres
//! the blocks of the 1st row between the outer wings' columns (the
//! obliques of depths (1, d) for d from 2 to (N-3)/2 with their mirrors,
//! and on odd N the outer T, depths (1, (N-1)/2)), its midges and centre the
//! middle group. The middle group has no representative of its own: its
//! centre must be solved outright, its edges paired, and the 3x3x3 they
//! make with the corners must be a real one (no flipped edge, no swapped
//! pair).
//!
//! The (N-2)-cube of layers `0-1 | 2 | .. | N-3 | N-2 - N-1` is exactly that
//! problem: its corners are the corners, its centres and edges are the
//! middle group's, and every N-cube turn moves them as an (N-2)-cube turn
//! does (the 1st layers move none of them). Its reduction (to a 3x3x3 with
//! no parity: the 4x4x4's [`crate::cube4::Solver::reduce`], the 5x5x5's
//! [`crate::cube5::Solver::reduce`], or this route once more, one size
//! down) does it, its `R` the N-cube's `R`, its `Rw` the `3Rw`. What is left
//! is the blocks: each must show one colour, any one. A greedy search makes
//! them so with two kinds of moves. The centre cycles of their orbits (the
//! obliques of depths 1 and d with their mirrors, and the outer T of odd
//! N), behind kept turns of the 5x5x5 (its faces and its `Rw`, the N-cube's
//! `Rw`: they move whole groups and leave the middle group alone). And
//! *free moves*, `S 2R S'`: a 1st inner layer moves no facelet of the inner
//! cube, so conjugated by any outer block turns it leaves the inner cube
//! exactly as it was, while `S` cuts through the middle group and the
//! layer carries parts of blocks away, as edge pairing on a 4x4x4 carries
//! wings ("slice, turn, slice back"). It also moves the outer X-centres
//! and wings, which the 5x5x5 solves anyway. The 5x5x5 solver finishes.
//! Once no cycle adds a facelet to a block's commonest colour, the blocks
//! are given colours, four blocks to a colour, and the search goes on
//! against those. Should it still stall from every orientation, the
//! solver falls back on the orbit-by-orbit reduction (`Solver::solve`).
//!
//! From the 8x8x8 on, the inner cube's reduction nests: a 9x9x9's inner
//! 7x7x7 goes through its own inner 5x5x5.

use super::{
    bases, cand_moves, depth, lift_by, marks, read_small, Cand, Layout, Options, Pick, Reducer,
    Setup,
};
use crate::deferred::{Deferred, Filler, Start};
use crate::moves::simplify;
use crate::{Hard, SolveError};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tablegen::cube::{rotations24, unrotate};
use tablegen::cycles::{read_list, route_setups, CycleSpace};
use tablegen::notation::{invert_alg, Face, Move};

mod blocks;
mod free;
mod scan;

use free::free_moves;
use scan::{each_on_two_threads, scan_order};

/// The colours of a cube.
const COLOURS: usize = 6;

/// Up to this size every level of the route makes its blocks from at least
/// [`MANY_TRIES`] orientations (a greedy search takes other paths seen from
/// another side; the shortest is kept), whatever the time budget: about
/// 10 moves fewer on a 7x7x7 and 9 on an 8x8x8 for 1.5 s and 3.5 s
/// more. Larger cubes take one, and more as the budget allows.
const MANY_TRIES_MAX_N: usize = 10;
const MANY_TRIES: usize = 8;

/// Up to this size every level of the route looks one move past each of
/// a step's [`LOOK`] best moves ([`Nested::look_ahead`]): on random states
/// a 7x7x7 about 7 moves fewer, a 9x9x9 10, for 2 to 3 times the time of
/// the blocks (`docs/nnn.md`). Larger cubes take the plain greedy step at
/// every level.
const LOOK_MAX_N: usize = 10;
const LOOK: usize = 4;

/// The inner cube of an N-cube's route.
enum Inner {
    /// The 4x4x4 (of a 6x6x6).
    Four,
    /// The 5x5x5 (of a 7x7x7).
    Five,
    /// A larger cube, by this route again.
    Nested(Box<Nested>),
}

/// One orbit of the blocks (an oblique orbit with its mirror, or the outer
/// T): its kind (an index into `Nested::kinds`), its second depth, and its
/// cycles (the first orbit of its kind's, renamed: [`relabel`]).
struct Group {
    kind: usize,
    depth: usize,
    /// Its cycles as the block search reads them ([`Scan`]), in runs of
    /// cycles that move facelets into the same blocks ([`Bucket`]).
    scan: Vec<Scan>,
    buckets: Vec<Bucket>,
}

/// A cycle of one orbit of the blocks as the block search scans it: its
/// pairs renamed into the orbit, and its index among its kind's cycles.
/// Compact and contiguous: a step may read every one.
#[derive(Clone, Copy)]
struct Scan {
    pairs: [[u16; 2]; super::MAX_PAIRS],
    index: u32,
}

/// A run of an orbit's cycles that move as many facelets, for the same
/// cost, into the same blocks (`mask`, as bits): what one of them adds is
/// at most, over those blocks, the facelets a block lacks, or `most` (the
/// most any of them moves into one block) if fewer. The block search
/// skips a run at once where that could not place as much per move as
/// its best so far. `distinct`: each cycle moves at most one facelet into
/// each block (then what it adds is the sum over its facelets).
struct Bucket {
    mask: u32,
    cost: u16,
    len: u8,
    most: u8,
    distinct: bool,
    start: u32,
    end: u32,
}

/// The cycles of one kind of orbit among the blocks: those of its first
/// orbit behind every setup.
struct Kind {
    depth: usize,
    lay: Layout,
    cands: Vec<Cand>,
    /// Each base cycle's moves on the kind's small cube.
    moves: Arc<Vec<Vec<Move>>>,
}

/// Where a level's lists of cycles come from, when not made on the level.
enum Lists<'a> {
    /// Made on the level itself (the tests' route, without tables).
    #[cfg_attr(not(test), allow(dead_code))]
    Make,
    /// Carried from the outer level (its size and kinds).
    Parent(usize, &'a [Kind]),
    /// Read from the route's tables (`nnn-route-*-cycles`).
    Read(&'a [(CycleSpace, crate::tables::SparseTable)]),
}

/// A free move as the block search reads it: the blocks it moves facelets
/// into (as bits), its cost, and where its pairs (and slots) and its
/// blocks start in `Nested`'s flat arrays, and how many.
struct FreeScan {
    mask: u32,
    cost: u32,
    start: u32,
    len: u32,
    bstart: u32,
    blen: u32,
}

/// A step of the block search made ahead ([`Nested::look_ahead`]): what it
/// returned, and its best moves.
struct Ahead {
    missing: u32,
    choice: Option<usize>,
    top: Vec<(u32, u32, usize, usize)>,
}

/// The route of an N-cube (6 and up) through its inner (N-2)-cube and its
/// blocks to a 5x5x5.
pub(super) struct Nested {
    r: Arc<Reducer>,
    inner: Inner,
    /// Rows and columns of the inner cube, and the last N-cube layer of
    /// each of its layers.
    inner_coords: Vec<usize>,
    inner_last: Vec<u8>,
    /// The same for the 5x5x5.
    outer_coords: [usize; 5],
    outer_last: [u8; 5],
    /// Setups of up to two turns of the 5x5x5 (faces and the N-cube's
    /// `Rw`), kept.
    setups: Arc<Vec<Setup>>,
    /// The level's cycles and free moves: made on a thread of their own
    /// once a solve begins (its first step, the inner cube, needs none,
    /// nor does a state whose blocks are whole).
    cycles: Deferred<Cycles>,
    /// What makes them (every level's), started by the first solve
    /// ([`Nested::begin`]) or the first wait for them.
    start: Start,
    /// The block of every facelet (`u32::MAX` outside the blocks).
    block: Arc<Vec<u32>>,
    /// The number of blocks (24) and of facelets in each (N-4).
    blocks: usize,
    size: u8,
    /// Orientations the blocks are made from at least, whatever the time.
    min_tries: usize,
    /// How many of a step's best moves the block search looks one move
    /// past ([`Nested::look_ahead`]; 1: none, the plain greedy step).
    look: usize,
    /// Where the route's trace goes ([`Options::trace`]).
    trace: Option<fn(&str)>,
}

/// A level's cycles and free moves, as the block search reads them.
pub(super) struct Cycles {
    kinds: Vec<Kind>,
    groups: Vec<Group>,
    /// Conjugated 1st-layer turns (see [`Free`]), flattened for the
    /// block search: each one's head, then their moves, pairs (as `u16`,
    /// block by block in the order of `free_blocks`), and the blocks they
    /// move facelets into.
    free: Vec<FreeScan>,
    free_algs: Vec<Vec<Move>>,
    free_pairs: Vec<[u16; 2]>,
    free_blocks: Vec<u8>,
    /// How many facelets each free move moves into each of its blocks (as
    /// `free_blocks`).
    free_into: Vec<u8>,
    /// The number of cycles over every group (the free moves' indices
    /// follow), and the most facelets a cycle moves per move it costs, as
    /// (facelets, cost).
    cycles: usize,
    cycle_best: (u32, u32),
}

/// What the nested route made of a cube.
pub(super) enum Route {
    /// The inner cube reduced and the blocks formed: the moves of each, as
    /// outer block turns of the N-cube.
    Reduced {
        /// The inner cube's reduction.
        inner: Vec<Move>,
        /// The blocks' moves.
        blocks: Vec<Move>,
    },
    /// The blocks' greedy search stalled from every orientation tried.
    Stalled,
}

/// A level's cycles to make: its frame, the value, and what fills it.
type ToMake = (Frame, Deferred<Cycles>, Filler<Cycles>);

impl Nested {
    /// The route of an N-cube, `n >= 6`, with `opts`, its lists of cycles
    /// made rather than read (what the tables hold: tested against them).
    #[cfg(test)]
    pub(super) fn new(n: usize, opts: &Options) -> Nested {
        match Nested::build(n, opts, Vec::new()) {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        }
    }

    /// The route of an N-cube, `n >= 6`, with `opts`, its lists of cycles
    /// read from the route's tables in `dir` (built and saved there when
    /// missing) rather than made.
    pub(super) fn load(
        n: usize,
        opts: &Options,
        dir: &Path,
        quiet: bool,
    ) -> Result<Nested, SolveError> {
        // An oblique orbit on every N, the outer T's on odd N.
        let mut spaces = vec![CycleSpace::Oblique];
        if n % 2 == 1 {
            spaces.push(CycleSpace::T);
        }
        let tables = (spaces.into_iter())
            .map(|c| Ok((c, crate::tables::load_sparse(c.id(), dir, quiet)?)))
            .collect::<Result<Vec<_>, SolveError>>()?;
        Nested::build(n, opts, tables)
    }

    /// The route of an N-cube: its levels at once; their cycles and free
    /// moves later, on a thread of their own that the first solve starts,
    /// level by level (the outermost's lists read from `tables`, made where
    /// none is given; each inner level's carried from the level outside).
    fn build(
        n: usize,
        opts: &Options,
        tables: Vec<(CycleSpace, crate::tables::SparseTable)>,
    ) -> Result<Nested, SolveError> {
        // What each level's cycles are made from, filled in as the levels
        // are made; the work that makes them takes it when it starts.
        let todo: Arc<Mutex<Vec<ToMake>>> = Arc::default();
        let work = {
            let todo = todo.clone();
            let opts = opts.clone();
            move || {
                let todo = std::mem::take(&mut *todo.lock().unwrap_or_else(|p| p.into_inner()));
                let mut outer: Option<(usize, Deferred<Cycles>)> = None;
                for (frame, cycles, fill) in todo {
                    let lists = match &outer {
                        None if tables.is_empty() => Ok(Lists::Make),
                        None => Ok(Lists::Read(&tables)),
                        Some((n0, c)) => c.get().map(|c| Lists::Parent(*n0, &c.kinds)),
                    };
                    let made = lists.and_then(|lists| Cycles::make(&frame, &opts, lists));
                    fill.fill(made.map_err(|e| e.to_string()));
                    outer = Some((frame.r.n, cycles));
                }
            }
        };
        let start = Start::new(format!("the {n}x{n}x{n} route's cycles"), work);
        Ok(Nested::level(n, n, opts, &start, &mut |frame| {
            let (cycles, fill) = Deferred::pending();
            let mut todo = todo.lock().unwrap_or_else(|p| p.into_inner());
            todo.push((frame, cycles.clone(), fill));
            cycles
        }))
    }

    /// The level of size `n` of the route of a `top`-cube, and the levels
    /// inside it; `cycles` gives each level's cycles (outermost first) from
    /// its frame, which `start` makes.
    fn level(
        n: usize,
        top: usize,
        opts: &Options,
        start: &Start,
        cycles_of: &mut dyn FnMut(Frame) -> Deferred<Cycles>,
    ) -> Nested {
        debug_assert!(n >= 6);
        let r = Reducer::new(n);
        let cube = &r.cube;
        let setups = Arc::new(route_setups(cube));
        // A block: the facelets of one face in row 1 (or N-2) and the
        // middle group's columns, or the same across.
        let mid = |x: usize| (2..n - 2).contains(&x);
        let outer = |x: usize| x == 1 || x == n - 2;
        let mut block = vec![u32::MAX; cube.facelets()];
        let mut blocks = 0u32;
        let mut keys: Vec<(usize, usize, usize)> = Vec::new();
        for (i, b) in block.iter_mut().enumerate() {
            let (f, row, col) = (i / (n * n), (i / n) % n, i % n);
            let key = match (mid(row), mid(col)) {
                (true, false) if outer(col) => (f, usize::MAX, col),
                (false, true) if outer(row) => (f, row, usize::MAX),
                _ => continue,
            };
            *b = match keys.iter().position(|&k| k == key) {
                Some(k) => k as u32,
                None => {
                    keys.push(key);
                    blocks += 1;
                    blocks - 1
                }
            };
        }
        let (r, block) = (Arc::new(r), Arc::new(block));
        let frame = Frame {
            r: r.clone(),
            setups: setups.clone(),
            block: block.clone(),
        };
        let cycles = cycles_of(frame);
        let inner = match n - 2 {
            4 => Inner::Four,
            5 => Inner::Five,
            m => Inner::Nested(Box::new(Nested::level(m, top, opts, start, cycles_of))),
        };
        let mut inner_coords = vec![0];
        inner_coords.extend(2..n - 2);
        inner_coords.push(n - 1);
        let inner_last: Vec<u8> = inner_coords.iter().map(|&x| x as u8).collect();
        Nested {
            cycles,
            start: start.clone(),
            inner,
            inner_coords,
            inner_last,
            outer_coords: [0, 1, n / 2, n - 2, n - 1],
            outer_last: [0, 1, (n - 3) as u8, (n - 2) as u8, (n - 1) as u8],
            setups,
            block,
            blocks: blocks as usize,
            size: (n - 4) as u8,
            min_tries: Options::at(&opts.tries, n).unwrap_or(if n <= MANY_TRIES_MAX_N {
                MANY_TRIES
            } else {
                1
            }),
            look: Options::at(&opts.look, n)
                .unwrap_or(if top <= LOOK_MAX_N { LOOK } else { 1 })
                .max(1),
            trace: opts.trace,
            r,
        }
    }

    /// The level's cycles and free moves, once made (waiting for the
    /// thread that makes them if need be).
    pub(super) fn cycles(&self) -> Result<&Cycles, SolveError> {
        self.start.wait(&self.cycles)
    }

    /// Starts making the route's cycles, if not started yet: a solve
    /// begins with the inner cube, which needs none, and the cycles are
    /// made meanwhile (a solve whose blocks are whole never waits for
    /// them).
    pub(super) fn begin(&self) -> Result<(), SolveError> {
        self.start.now()
    }

    /// The size N.
    pub(super) fn n(&self) -> usize {
        self.r.n
    }

    /// Whether the innermost cube is a 4x4x4.
    pub(super) fn needs_four(&self) -> bool {
        match &self.inner {
            Inner::Four => true,
            Inner::Five => false,
            Inner::Nested(x) => x.needs_four(),
        }
    }

    /// Routes from this N-cube down to the innermost (one for a 6x6x6 or a
    /// 7x7x7).
    fn levels(&self) -> u32 {
        match &self.inner {
            Inner::Nested(x) => 1 + x.levels(),
            _ => 1,
        }
    }

    /// The 5x5x5 read off an N-cube state.
    pub(super) fn outer5(&self, state: &[u8]) -> Vec<u8> {
        read_small(self.n(), state, &self.outer_coords)
    }

    /// A turn of the 5x5x5 as N-cube turns.
    pub(super) fn lift5(&self, m: Move) -> Vec<Move> {
        lift_by(&self.outer_last, m)
    }

    /// Reduces `state` to its 5x5x5: the inner cube's reduction, then the
    /// blocks (from as many orientations as there is time for by
    /// `deadline`, at least one, the shortest kept). Returns the two parts
    /// as outer block turns of the N-cube as it is, or [`Route::Stalled`]
    /// if the blocks' greedy search stalled from every orientation tried,
    /// here or at an inner level (`state` is then to be dropped).
    pub(super) fn to_five(
        &self,
        four: Option<&crate::cube4::Solver>,
        five: &crate::cube5::Solver,
        state: &mut Vec<u8>,
        deadline: Instant,
        hard: Hard,
    ) -> Result<Route, SolveError> {
        let (n, r) = (self.n(), &self.r);
        let now = Instant::now();
        // Each level's blocks get an even share of the time.
        let share = deadline.saturating_duration_since(now) / self.levels();
        // Time spent waiting for the route's cycles (here or at an inner
        // level) is not the blocks' time: the deadline moves by it.
        let waited = self.start.waited();
        let small = read_small(n, state, &self.inner_coords);
        let (four_opts, five_opts) = super::small_options(None, hard);
        let inner = match &self.inner {
            Inner::Four => four
                .ok_or_else(|| SolveError::Internal("no 4x4x4 solver".into()))?
                .reduce(&small, four_opts)?,
            Inner::Five => five.reduce(&small, five_opts)?,
            Inner::Nested(x) => {
                let mut s = small;
                match x.reduce(four, five, &mut s, deadline - share, hard)? {
                    Some(moves) => moves,
                    None => return Ok(Route::Stalled),
                }
            }
        };
        if let Some(trace) = self.trace {
            trace(&format!("n {n}: inner in {:?}", now.elapsed()));
        }
        let inner: Vec<Move> = inner
            .into_iter()
            .flat_map(|m| lift_by(&self.inner_last, m))
            .collect();
        let inner = simplify(&super::outer_blocks(n, &inner));
        r.cube.apply_alg(state, &inner);
        if !self.blocks_done(state) {
            self.cycles()?;
        }
        let deadline = deadline + (self.start.waited() - waited);
        let mut best: Option<(usize, Vec<u8>, Vec<Move>)> = None;
        let mut longest = Duration::ZERO;
        for (k, rot) in rotations24().into_iter().enumerate() {
            let t = Instant::now();
            if k >= self.min_tries && t + longest > deadline {
                break;
            }
            let mut s = state.clone();
            r.cube.apply_alg(&mut s, &rot);
            // A greedy search can stall (every block near one colour, but
            // more blocks wanting a colour than it has): another
            // orientation takes another path.
            let Some(found) = self.make_blocks(&mut s, hard)? else {
                continue;
            };
            if let Some(trace) = self.trace {
                trace(&format!(
                    "n {n} rot {k}: blocks {} in {:?}",
                    super::super::moves::obtm(&found),
                    t.elapsed()
                ));
            }
            r.cube.apply_alg(&mut s, &invert_alg(&rot));
            let found = unrotate(&simplify(&super::outer_blocks(n, &found)), &rot);
            let len = simplify(&[&inner[..], &found[..]].concat()).len();
            if best.as_ref().is_none_or(|b| len < b.0) {
                best = Some((len, s, found));
            }
            longest = longest.max(t.elapsed());
        }
        let Some((_, s, blocks)) = best else {
            return Ok(Route::Stalled);
        };
        if !self.blocks_done(&s) {
            return Err(SolveError::Internal("a block is not one colour".into()));
        }
        *state = s;
        Ok(Route::Reduced { inner, blocks })
    }

    /// Reduces `state` to a 3x3x3 with no parity: [`Nested::to_five`], then
    /// the 5x5x5's reduction. Returns outer block turns of the N-cube, or
    /// `None` if the blocks stalled.
    fn reduce(
        &self,
        four: Option<&crate::cube4::Solver>,
        five: &crate::cube5::Solver,
        state: &mut Vec<u8>,
        deadline: Instant,
        hard: Hard,
    ) -> Result<Option<Vec<Move>>, SolveError> {
        let Route::Reduced { inner, blocks } = self.to_five(four, five, state, deadline, hard)?
        else {
            return Ok(None);
        };
        let last = five.reduce(&self.outer5(state), super::small_options(None, hard).1)?;
        let last: Vec<Move> = last.into_iter().flat_map(|m| self.lift5(m)).collect();
        let last = simplify(&super::outer_blocks(self.n(), &last));
        self.r.cube.apply_alg(state, &last);
        Ok(Some(simplify(&[inner, blocks, last].concat())))
    }
}

/// What a level's cycles are made from: its reducer, setups and blocks.
struct Frame {
    r: Arc<Reducer>,
    setups: Arc<Vec<Setup>>,
    block: Arc<Vec<u32>>,
}

impl Cycles {
    /// A level's cycles (its lists from `lists`) and free moves.
    fn make(frame: &Frame, opts: &Options, lists: Lists) -> Result<Cycles, SolveError> {
        let (r, setups, block) = (&*frame.r, &frame.setups[..], &frame.block[..]);
        let (n, cube) = (r.n, &r.cube);
        // The blocks' orbits by depths, each kind's first, and one list of
        // cycles per kind; the free moves beside them (on both cores).
        let orbits: Vec<(usize, Vec<usize>, Layout)> = (2..=(n - 1) / 2)
            .map(|d| {
                let facelets: Vec<usize> = (0..cube.facelets())
                    .filter(|&i| {
                        let (row, col) = ((i / n) % n, i % n);
                        block[i] != u32::MAX && depth(row, n).max(depth(col, n)) == d
                    })
                    .collect();
                let lay = r.layout(facelets[0], false);
                (d, facelets, lay)
            })
            .collect();
        let mut firsts: Vec<usize> = Vec::new();
        let mut kind_of = Vec::new();
        for (i, o) in orbits.iter().enumerate() {
            match firsts.iter().position(|&j| orbits[j].2.kind == o.2.kind) {
                Some(k) => kind_of.push(k),
                None => {
                    kind_of.push(firsts.len());
                    firsts.push(i);
                }
            }
        }
        let list = |&j: &usize| -> Result<Kind, SolveError> {
            let (d, facelets, lay) = &orbits[j];
            let given = match lists {
                Lists::Make => None,
                Lists::Parent(n0, parent_kinds) => {
                    (parent_kinds.iter().find(|k| k.lay.kind == lay.kind)).and_then(|k0| {
                        let cands = carry_cands(n0, &k0.lay, &k0.cands, n, lay)?;
                        Some((cands, k0.moves.clone()))
                    })
                }
                Lists::Read(tables) => match tables.iter().find(|t| t.0.kind() == lay.kind) {
                    Some((space, table)) => {
                        let (cands, moves) =
                            read_list(*space, n, lay, setups, |each| table.for_each(each))
                                .map_err(|e| {
                                    SolveError::Internal(format!("table {}: {e}", space.id()))
                                })?;
                        Some((cands, Arc::new(moves)))
                    }
                    None => None,
                },
            };
            let (cands, moves) = given.unwrap_or_else(|| {
                let lead = marks(cube.facelets(), facelets.iter().copied());
                let moves = bases(lay.kind).iter().map(|b| b.moves.clone());
                (
                    r.candidates(facelets, lay, &lead, setups),
                    Arc::new(moves.collect()),
                )
            });
            Ok(Kind {
                depth: *d,
                lay: lay.clone(),
                cands,
                moves,
            })
        };
        let free = || {
            if !opts.free_moves {
                return Vec::new();
            }
            let t = Instant::now();
            let f = free_moves(&r.cube, block);
            if let Some(trace) = opts.trace {
                trace(&format!(
                    "n {n}: {} free moves in {:?}",
                    f.len(),
                    t.elapsed()
                ));
            }
            f
        };
        // On threads of their own, not rayon's: a solver may be loaded on a
        // rayon worker, which must not block on work queued behind it.
        let (kinds, free) = std::thread::scope(|sc| {
            let free = sc.spawn(free);
            let kinds = each_on_two_threads(&firsts, list)
                .into_iter()
                .collect::<Result<Vec<Kind>, _>>();
            (kinds, tablegen::joined(free))
        });
        let kinds = kinds?;
        let jobs: Vec<(usize, usize)> = (orbits.iter().map(|o| o.0))
            .zip(kind_of.iter().copied())
            .collect();
        let groups = each_on_two_threads(&jobs, |&(d, kind)| {
            let at = relabel(n, kinds[kind].depth, d);
            let (scan, buckets) = scan_order(&kinds[kind].cands, &at, block);
            Group {
                kind,
                depth: d,
                scan,
                buckets,
            }
        });
        let (mut free_algs, mut free_pairs, mut free_blocks, mut free_into) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let free = (free.into_iter())
            .map(|f| {
                let head = FreeScan {
                    mask: f.mask,
                    cost: f.cost,
                    start: free_pairs.len() as u32,
                    len: f.pairs.len() as u32,
                    bstart: free_blocks.len() as u32,
                    blen: f.blocks.len() as u32,
                };
                let mut pairs: Vec<(u8, [u16; 2])> = (f.slot.iter().zip(&f.pairs))
                    .map(|(&k, &(a, b))| (k, [a as u16, b as u16]))
                    .collect();
                pairs.sort_by_key(|p| p.0);
                free_pairs.extend(pairs.iter().map(|p| p.1));
                let mut into = vec![0u8; f.blocks.len()];
                f.slot.iter().for_each(|&k| into[k as usize] += 1);
                free_into.extend(into);
                free_blocks.extend(f.blocks.iter().map(|&b| b as u8));
                free_algs.push(f.moves);
                head
            })
            .collect();
        let cycles = groups.iter().map(|g| kinds[g.kind].cands.len()).sum();
        let cycle_best = kinds
            .iter()
            .flat_map(|k| k.cands.iter())
            .map(|c| (c.pairs().len() as u32, c.cost))
            .fold((0, 1), |b, x| if x.0 * b.1 > b.0 * x.1 { x } else { b });
        Ok(Cycles {
            kinds,
            groups,
            free,
            free_algs,
            free_pairs,
            free_blocks,
            free_into,
            cycles,
            cycle_best,
        })
    }
}

/// Where row or column `x` of the blocks' orbit at depths (1, `from`)
/// stands in the one at depths (1, `to`): depth `from` goes to depth `to`
/// on the same side, every other depth stays.
fn rename(n: usize, from: usize, to: usize, x: usize) -> usize {
    if depth(x, n) != from {
        x
    } else if x < n / 2 {
        to
    } else {
        n - 1 - to
    }
}

/// The cycles of an orbit kind made on an `n0`-cube (its orbit laid out as
/// `lay0`), carried to the `n`-cube's orbit laid out as `lay`: each row
/// and column goes to the one of the same small-cube layer. The setups
/// (turns of the outer two layers) and the cycles (turns of the small
/// cube's layers) move the two orbits alike, and the renaming keeps the
/// order of facelets, so the list is the one [`Reducer::candidates`] makes
/// on the `n`-cube, in the same order (tested), without reading its millions
/// of (cycle, setup) pairs again.
/// `None` if a moved facelet's row or column is no layer of `lay0`.
fn carry_cands(
    n0: usize,
    lay0: &Layout,
    cands: &[Cand],
    n: usize,
    lay: &Layout,
) -> Option<Vec<Cand>> {
    let mut coord = vec![u32::MAX; n0];
    for (&x0, &x) in lay0.map.iter().zip(&lay.map) {
        if x0 < n0 && x < n {
            coord[x0] = x as u32;
        }
    }
    let at = |f: u16| -> Option<u16> {
        let f = f as usize;
        let (face, r, c) = (f / (n0 * n0), (f / n0) % n0, f % n0);
        let (r, c) = (coord[r], coord[c]);
        (r != u32::MAX && c != u32::MAX)
            .then(|| ((face as u32 * n as u32 + r) * n as u32 + c) as u16)
    };
    cands
        .iter()
        .map(|c| {
            let mut out = c.clone();
            for (slot, &(f, t)) in out.moved.iter_mut().zip(c.pairs()) {
                *slot = (at(f)?, at(t)?);
            }
            Some(out)
        })
        .collect()
}

/// Where each facelet stands once rows and columns are renamed as
/// [`rename`] does.
fn relabel(n: usize, from: usize, to: usize) -> Vec<u32> {
    (0..6 * n * n)
        .map(|i| {
            let (f, r, c) = (i / (n * n), (i / n) % n, i % n);
            ((f * n + rename(n, from, to, r)) * n + rename(n, from, to, c)) as u32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::blocks::{assignment, top_of};
    use super::*;

    /// The facelets of the blocks' orbit at depths (1, `d`).
    fn orbit(x: &Nested, d: usize) -> Vec<usize> {
        let n = x.n();
        (0..x.block.len())
            .filter(|&i| {
                let (row, col) = ((i / n) % n, i % n);
                x.block[i] != u32::MAX && depth(row, n).max(depth(col, n)) == d
            })
            .collect()
    }

    /// The options set each level's tries and look-ahead by its size (the
    /// later of two entries; a look of 0 is 1) and the free moves; the
    /// defaults are 8 tries and a look of 4 up to 10x10x10, with free moves.
    #[test]
    fn options_set_each_level() {
        let inner = |x: &Nested| match &x.inner {
            Inner::Nested(y) => (y.min_tries, y.look, y.cycles().unwrap().free.is_empty()),
            _ => panic!("no inner route"),
        };
        let opts = Options {
            tries: vec![(8, 2), (6, 5), (8, 3)],
            look: vec![(6, 0), (8, 2)],
            free_moves: false,
            trace: None,
        };
        let x = Nested::new(8, &opts);
        assert_eq!(
            (x.min_tries, x.look, x.cycles().unwrap().free.is_empty()),
            (3, 2, true)
        );
        assert_eq!(inner(&x), (5, 1, true));
        let x = Nested::new(8, &Options::default());
        assert_eq!(
            (x.min_tries, x.look, x.cycles().unwrap().free.is_empty()),
            (8, 4, false)
        );
        assert_eq!(inner(&x), (8, 4, false));
    }

    /// 24 blocks of N-4 facelets, each a row of the middle group next to
    /// the outer wings, one facelet of each orbit of depths (1, d) (two of
    /// an oblique orbit with its mirror), the orbits' facelets all blocks'.
    #[test]
    fn blocks_are_rows_of_the_middle() {
        for n in [6, 7, 8, 9] {
            let x = Nested::new(n, &Options::default());
            assert_eq!((x.blocks, x.size as usize), (24, n - 4), "{n}");
            let mut sizes = vec![0; x.blocks];
            for (i, &b) in x.block.iter().enumerate() {
                if b != u32::MAX {
                    sizes[b as usize] += 1;
                    let (row, col) = ((i / n) % n, i % n);
                    let (a, b) = (depth(row, n), depth(col, n));
                    assert_eq!(a.min(b), 1, "{n}: {i}");
                }
            }
            assert!(sizes.iter().all(|&s| s == n - 4), "{n}: {sizes:?}");
            let mut all = 0;
            for g in &x.cycles().unwrap().groups {
                let o = orbit(&x, g.depth);
                let per_block = if 2 * g.depth + 1 == n { 1 } else { 2 };
                assert_eq!(o.len(), 24 * per_block, "{n}: depth {}", g.depth);
                all += o.len();
            }
            assert_eq!(all, 24 * (n - 4), "{n}");
            assert!(x
                .cycles()
                .unwrap()
                .kinds
                .iter()
                .all(|k| !k.cands.is_empty()));
        }
    }

    /// Each orbit's own cycles are its kind's first orbit's, renamed, and
    /// their moves the same (what the block search relies on).
    #[test]
    fn orbits_of_a_kind_share_their_cycles() {
        let x = Nested::new(10, &Options::default());
        let r = &x.r;
        let mut renamed = 0;
        let mut offset = 0;
        for g in &x.cycles().unwrap().groups {
            let kind = &x.cycles().unwrap().kinds[g.kind];
            let count = kind.cands.len();
            if kind.depth != g.depth {
                let facelets = orbit(&x, g.depth);
                let lay = r.layout(facelets[0], false);
                let lead = marks(r.cube.facelets(), facelets.iter().copied());
                let own = r.candidates(&facelets, &lay, &lead, &x.setups);
                assert_eq!(own.len(), count, "depth {}", g.depth);
                let at = relabel(x.n(), kind.depth, g.depth);
                for (i, (a, b)) in own.iter().zip(&kind.cands).enumerate().step_by(97) {
                    let mut mine: Vec<(u32, u32)> = (a.pairs().iter())
                        .map(|&(f, t)| (f.into(), t.into()))
                        .collect();
                    let mut moved: Vec<(u32, u32)> = (b.pairs().iter())
                        .map(|&(f, t)| (at[f as usize], at[t as usize]))
                        .collect();
                    mine.sort_unstable();
                    moved.sort_unstable();
                    assert_eq!(mine, moved, "depth {}", g.depth);
                    assert_eq!(
                        r.cand_moves(a, &lay, &x.setups),
                        x.cand_moves(x.cycles().unwrap(), offset + i)
                    );
                }
                renamed += 1;
            }
            offset += count;
        }
        assert_eq!(renamed, 2);
    }

    /// The scan order is the one its definition states: most facelets per
    /// move first, then (len, cost, blocks), then index (checked against a
    /// sort by that comparison).
    #[test]
    fn scan_order_is_by_ratio_then_len_cost_blocks_index() {
        let x = Nested::new(7, &Options::default());
        for g in &x.cycles().unwrap().groups {
            let cands = &x.cycles().unwrap().kinds[g.kind].cands;
            let at = relabel(x.n(), x.cycles().unwrap().kinds[g.kind].depth, g.depth);
            let mask = |c: &Cand| {
                c.pairs()
                    .iter()
                    .fold(0u32, |m, &(_, t)| m | 1 << x.block[at[t as usize] as usize])
            };
            let masks: Vec<u32> = cands.iter().map(mask).collect();
            let mut want: Vec<usize> = (0..cands.len()).collect();
            want.sort_by(|&a, &b| {
                let (p, q) = (&cands[a], &cands[b]);
                (u64::from(q.len) * u64::from(p.cost))
                    .cmp(&(u64::from(p.len) * u64::from(q.cost)))
                    .then((p.len, p.cost, masks[a]).cmp(&(q.len, q.cost, masks[b])))
            });
            let got: Vec<usize> = g.scan.iter().map(|s| s.index as usize).collect();
            assert_eq!(got, want, "depth {}", g.depth);
            // Each cycle renamed; the runs cover the scan, each the cycles
            // of one (mask, cost, len) next to each other, with the most
            // any of them moves into one block.
            let mut end = 0;
            for b in &g.buckets {
                assert_eq!(b.start, end);
                assert!(b.end > b.start);
                end = b.end;
                let mut most = 0;
                for s in &g.scan[b.start as usize..b.end as usize] {
                    let c = &cands[s.index as usize];
                    assert_eq!((b.mask, b.cost, b.len), (mask(c), c.cost as u16, c.len));
                    let mut into = [0u8; 32];
                    for (k, &(f, t)) in c.pairs().iter().enumerate() {
                        let (f, t) = (at[f as usize], at[t as usize]);
                        assert_eq!(s.pairs[k], [f as u16, t as u16]);
                        into[x.block[t as usize] as usize] += 1;
                    }
                    most = most.max(*into.iter().max().unwrap());
                }
                assert_eq!(b.most, most);
                assert_eq!(b.distinct, b.mask.count_ones() == u32::from(b.len));
            }
            assert_eq!(end as usize, g.scan.len());
        }
    }

    /// The route's lists of cycles read from its tables are the lists it
    /// makes, in the same order, at every level and scanned alike.
    #[test]
    fn route_lists_read_from_tables_are_the_lists_made() {
        let dir = crate::tables::test_tables_dir();
        for n in [6, 7, 9] {
            let opts = Options {
                free_moves: false,
                ..Options::default()
            };
            let (mut made, mut read) = (
                &Nested::new(n, &opts),
                &Nested::load(n, &opts, &dir, true).unwrap(),
            );
            loop {
                let (mc, rc) = (made.cycles().unwrap(), read.cycles().unwrap());
                assert_eq!(mc.kinds.len(), rc.kinds.len(), "n {}", made.n());
                for (a, b) in mc.kinds.iter().zip(&rc.kinds) {
                    assert_eq!((a.depth, &a.lay.map), (b.depth, &b.lay.map));
                    assert_eq!(a.moves, b.moves);
                    assert_eq!(a.cands.len(), b.cands.len());
                    for (x, y) in a.cands.iter().zip(&b.cands) {
                        assert_eq!(
                            (x.base, x.setup, x.cost, x.leads, x.pairs()),
                            (y.base, y.setup, y.cost, y.leads, y.pairs()),
                            "n {}",
                            made.n()
                        );
                    }
                }
                for (g, h) in mc.groups.iter().zip(&rc.groups) {
                    let index = |g: &Group| g.scan.iter().map(|s| s.index).collect::<Vec<_>>();
                    assert_eq!(index(g), index(h));
                    assert_eq!(g.buckets.len(), h.buckets.len());
                }
                match (&made.inner, &read.inner) {
                    (Inner::Nested(a), Inner::Nested(b)) => (made, read) = (a, b),
                    _ => break,
                }
            }
        }
    }

    /// An inner level's cycles, carried from its outer level's, are the
    /// ones it would make itself: the same list in the same order.
    #[test]
    fn inner_levels_carry_their_outer_levels_cycles() {
        let mut carried = 0;
        for n in [8, 9] {
            let top = Nested::new(n, &Options::default());
            let Inner::Nested(x) = &top.inner else {
                panic!("a {n}-cube has an inner level")
            };
            for kind in &x.cycles().unwrap().kinds {
                let r = &x.r;
                let facelets = orbit(x, kind.depth);
                let lay = r.layout(facelets[0], false);
                assert_eq!(lay.kind, kind.lay.kind);
                let lead = marks(r.cube.facelets(), facelets.iter().copied());
                let own = r.candidates(&facelets, &lay, &lead, &x.setups);
                assert_eq!(own.len(), kind.cands.len(), "n {} {:?}", x.n(), lay.kind);
                for (a, b) in own.iter().zip(&kind.cands) {
                    assert_eq!(
                        (a.base, a.setup, a.cost, a.leads, a.pairs()),
                        (b.base, b.setup, b.cost, b.leads, b.pairs()),
                        "n {} {:?}",
                        x.n(),
                        lay.kind
                    );
                }
                carried += 1;
            }
        }
        // The 6-cube's oblique orbit, the 7-cube's oblique and T orbits.
        assert_eq!(carried, 3);
    }

    /// Whether the middle group shows one colour on each face's centre
    /// and each edge's side (the inner cube reduced).
    fn middle_reduced(n: usize, st: &[u8]) -> bool {
        let mid = 2..n - 2;
        (0..6).all(|f| {
            let at = |r: usize, c: usize| st[(f * n + r) * n + c];
            let centre = mid
                .clone()
                .all(|r| mid.clone().all(|c| at(r, c) == at(2, 2)));
            let sides = [0, n - 1].iter().all(|&e| {
                mid.clone().all(|k| at(e, k) == at(e, 2))
                    && mid.clone().all(|k| at(k, e) == at(2, e))
            });
            centre && sides
        })
    }

    /// Calls `f` with every permutation of `p[k..]` after `p[..k]`.
    fn permutations(p: &mut [u8], k: usize, f: &mut impl FnMut(&[u8])) {
        if k == p.len() {
            return f(p);
        }
        for i in k..p.len() {
            p.swap(k, i);
            permutations(p, k + 1, f);
            p.swap(k, i);
        }
    }

    /// The assignment gives each colour 4 blocks, holds at least as many
    /// facelets in place as a greedy one (each block in turn its commonest
    /// colour still free), finds the one that holds everything when there
    /// is one, and on six blocks (one to a colour) the best of all 720.
    #[test]
    fn assignment_is_four_blocks_a_colour_and_best() {
        const BLOCKS: usize = 24;
        let mut rng = 99u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for round in 0..50 {
            let size = 3 + round % 9;
            // Facelets of each colour dealt to the blocks at random (4
            // blocks' worth of each); every fifth round sorted, so that
            // every block is whole.
            let mut deck: Vec<u8> = (0..COLOURS as u8)
                .flat_map(|c| std::iter::repeat_n(c, 4 * size))
                .collect();
            for i in (1..deck.len()).rev() {
                deck.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            if round % 5 == 0 {
                deck.sort_unstable();
            }
            let mut counts = vec![[0u8; COLOURS]; BLOCKS];
            for (i, &c) in deck.iter().enumerate() {
                counts[i / size][c as usize] += 1;
            }
            let got = assignment(&counts);
            for c in 0..COLOURS as u8 {
                assert_eq!(got.iter().filter(|&&x| x == c).count(), 4, "{round}");
            }
            let held = |a: &[u8]| -> u32 {
                a.iter()
                    .enumerate()
                    .map(|(b, &c)| u32::from(counts[b][c as usize]))
                    .sum()
            };
            let mut free = [4u8; COLOURS];
            let greedy: Vec<u8> = counts
                .iter()
                .map(|h| {
                    let c = (0..COLOURS)
                        .filter(|&c| free[c] > 0)
                        .max_by_key(|&c| (h[c], std::cmp::Reverse(c)))
                        .unwrap();
                    free[c] -= 1;
                    c as u8
                })
                .collect();
            assert!(held(&got) >= held(&greedy), "{round}");
            // Six blocks, one to a colour: against every permutation.
            let small: Vec<[u8; COLOURS]> = (0..COLOURS)
                .map(|_| std::array::from_fn(|_| (next() % 9) as u8))
                .collect();
            let value = |a: &[u8]| -> u32 {
                a.iter()
                    .enumerate()
                    .map(|(b, &c)| u32::from(small[b][c as usize]))
                    .sum()
            };
            let mut best = 0;
            let mut perm: Vec<u8> = (0..COLOURS as u8).collect();
            permutations(&mut perm, 0, &mut |p| best = best.max(value(p)));
            let one = assignment(&small);
            let mut sorted = one.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..COLOURS as u8).collect::<Vec<_>>(), "{round}");
            assert_eq!(value(&one), best, "{round}: {small:?}");
            if round % 5 == 0 {
                assert_eq!(held(&got) as usize, BLOCKS * size, "{round}");
            }
        }
    }

    /// Blocks of an 8x8x8 scrambled by its own cycles form again, the
    /// moves replay to the state the search says, and the middle group
    /// stays reduced throughout (the cycles and kept setups leave it so).
    #[test]
    fn random_blocks_form() {
        let mut x = Nested::new(8, &Options::default());
        let total: usize = x
            .cycles()
            .unwrap()
            .groups
            .iter()
            .map(|g| x.cycles().unwrap().kinds[g.kind].cands.len())
            .sum();
        let mut rng = 12345u64;
        // Twice as greedy steps, once looking past each step's 4 best.
        for look in [1, 1, 4] {
            x.look = look;
            let cube = &x.r.cube;
            let mut start = cube.solved();
            for _ in 0..30 {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                cube.apply_alg(
                    &mut start,
                    &x.cand_moves(x.cycles().unwrap(), (rng >> 33) as usize % total),
                );
            }
            assert!(middle_reduced(8, &start) && !x.blocks_done(&start));
            let mut s = start.clone();
            let moves = x.make_blocks(&mut s, Hard::never()).unwrap().unwrap();
            assert!(x.blocks_done(&s) && middle_reduced(8, &s));
            let mut replay = start.clone();
            cube.apply_alg(&mut replay, &moves);
            assert_eq!(replay, s);
        }
    }

    /// A step's pick, with its bounds and early stops, is the best of every
    /// move measured one by one (each move's pairs applied to the state
    /// and the blocks counted again): the most facelets per move, of two
    /// as good the earlier in a whole scan (free moves, then cycles), and
    /// with 4 kept the 4 best in that order; against the commonest colours
    /// and against an assignment, early and late in the search.
    #[test]
    fn steps_skip_nothing_better() {
        let n = 7;
        let x = Nested::new(n, &Options::default());
        let cube = &x.r.cube;
        // Every move's pairs and cost, by index (cycles, then free moves).
        let mut moves: Vec<(Vec<[u16; 2]>, u32)> =
            vec![(Vec::new(), 0); x.cycles().unwrap().cycles];
        let mut offset = 0;
        for g in &x.cycles().unwrap().groups {
            for b in &g.buckets {
                for c in &g.scan[b.start as usize..b.end as usize] {
                    let pairs = c.pairs[..b.len as usize].to_vec();
                    moves[offset + c.index as usize] = (pairs, u32::from(b.cost));
                }
            }
            offset += g.scan.len();
        }
        for f in &x.cycles().unwrap().free {
            let pairs =
                &x.cycles().unwrap().free_pairs[f.start as usize..(f.start + f.len) as usize];
            moves.push((pairs.to_vec(), f.cost));
        }
        let rank = |i: usize| {
            if i >= x.cycles().unwrap().cycles {
                i - x.cycles().unwrap().cycles
            } else {
                x.cycles().unwrap().free.len() + i
            }
        };
        let held = |st: &[u8], want: Option<&[u8]>| -> Vec<i32> {
            let counts = x.counts(st);
            match want {
                Some(w) => (counts.iter().zip(w))
                    .map(|(h, &c)| i32::from(h[c as usize]))
                    .collect(),
                None => counts.iter().map(|h| i32::from(top_of(h))).collect(),
            }
        };
        let mut rng = 99u64;
        let mut checked = 0;
        for round in 0..4 {
            let mut st = cube.solved();
            for _ in 0..40 {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                cube.apply_alg(
                    &mut st,
                    &x.cand_moves(x.cycles().unwrap(), (rng >> 33) as usize % moves.len()),
                );
            }
            // Some greedy steps first, more in later rounds.
            for _ in 0..round * 6 {
                let mut pick = Pick::default();
                if let (_, Some(i)) = x.step(x.cycles().unwrap(), &st, &mut pick, false) {
                    cube.apply_alg(&mut st, &x.cand_moves(x.cycles().unwrap(), i));
                }
            }
            for assign in [false, true] {
                let want = assign.then(|| assignment(&x.counts(&st)));
                let before = held(&st, want.as_deref());
                let mut all: Vec<(u32, u32, usize)> = Vec::new();
                let mut after = st.clone();
                for (i, (pairs, cost)) in moves.iter().enumerate() {
                    for &[f, t] in pairs {
                        after[t as usize] = st[f as usize];
                    }
                    let now = held(&after, want.as_deref());
                    let gain: i32 = now.iter().zip(&before).map(|(a, b)| a - b).sum();
                    for &[_, t] in pairs {
                        after[t as usize] = st[t as usize];
                    }
                    if gain > 0 {
                        all.push((gain as u32, *cost, i));
                    }
                }
                all.sort_by(|a, b| {
                    (u64::from(b.0) * u64::from(a.1))
                        .cmp(&(u64::from(a.0) * u64::from(b.1)))
                        .then(rank(a.2).cmp(&rank(b.2)))
                });
                let mut pick = Pick {
                    keep: 4,
                    ..Pick::default()
                };
                x.step(x.cycles().unwrap(), &st, &mut pick, assign);
                let top: Vec<(u32, u32, usize)> =
                    pick.top.iter().map(|&(g, c, i, _)| (g, c, i)).collect();
                assert_eq!(top, all[..all.len().min(4)], "{round} {assign}");
                let mut one = Pick::default();
                let (_, choice) = x.step(x.cycles().unwrap(), &st, &mut one, assign);
                assert_eq!(choice, all.first().map(|a| a.2), "{round} {assign}");
                checked += 1;
            }
        }
        assert_eq!(checked, 8);
    }

    /// Every free move leaves each facelet of the inner cube where it is
    /// (but for a kept 5x5x5 turn), moves the blocks' facelets as its
    /// pairs say, regroups them (some block's facelets end in two blocks),
    /// costs its length in outer block turns, and no two have one effect
    /// on the blocks.
    #[test]
    fn free_moves_keep_the_inner_cube() {
        for n in [6, 7, 8] {
            let x = Nested::new(n, &Options::default());
            let cube = &x.r.cube;
            assert!(
                x.cycles().unwrap().free.len() > 1000,
                "{n}: {}",
                x.cycles().unwrap().free.len()
            );
            let inner: Vec<usize> = (0..cube.facelets())
                .filter(|&i| {
                    let (row, col) = ((i / n) % n, i % n);
                    x.inner_coords.contains(&row) && x.inner_coords.contains(&col)
                })
                .collect();
            let mut effects = std::collections::HashSet::new();
            for (f, moves) in x
                .cycles()
                .unwrap()
                .free
                .iter()
                .zip(&x.cycles().unwrap().free_algs)
            {
                // (Its pairs come block by block: compared in order of
                // destination.)
                let mut own: Vec<(u32, u32)> = x.cycles().unwrap().free_pairs
                    [f.start as usize..(f.start + f.len) as usize]
                    .iter()
                    .map(|&[a, b]| (u32::from(a), u32::from(b)))
                    .collect();
                own.sort_by_key(|p| p.1);
                let t = super::super::track(cube, moves);
                // A kept first turn (`P S Y S'` less the last `P'`, four
                // turns) turns the inner cube as a 3x3x3: undone here.
                let mut undone = moves.clone();
                if undone.len() == 4 {
                    undone.push(undone[0].inverse());
                }
                let u = super::super::track(cube, &undone);
                assert!(
                    inner.iter().all(|&i| u[i] as usize == i),
                    "{n}: {:?}",
                    moves
                );
                let mut pairs: Vec<(u32, u32)> = super::super::moved(&t)
                    .into_iter()
                    .filter(|&(_, to)| x.block[to as usize] != u32::MAX)
                    .map(|(a, b)| (u32::from(a), u32::from(b)))
                    .collect();
                pairs.sort_by_key(|p| p.1);
                assert_eq!(pairs, own, "{n}: {:?}", moves);
                // Some block's facelets end in two blocks or more.
                let regroups = (0..x.blocks as u32).any(|b| {
                    let mut to = (0..cube.facelets())
                        .filter(|&j| x.block[t[j] as usize] == b)
                        .map(|j| x.block[j]);
                    let first = to.next();
                    to.any(|d| Some(d) != first)
                });
                assert!(regroups, "{n}: {:?}", moves);
                let cost = crate::moves::obtm(&super::super::outer_blocks(n, moves));
                assert_eq!(cost as u32, f.cost, "{n}: {:?}", moves);
                assert!(effects.insert(own), "{n}: {:?}", moves);
            }
        }
    }
}
