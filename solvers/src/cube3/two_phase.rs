//! The two-phase search itself: phase 1 into the subgroup by IDA* on the
//! phase-1 tables, each phase-1 solution finished by phase 2, over the six
//! views of the position (each axis as U-D, of the cube and its inverse).

use super::*;

/// Phase-1 coordinates of one view.
#[derive(Clone, Copy)]
pub(super) struct View {
    pub(super) cube: CubieCube,
    pub(super) axis: usize,
    pub(super) inverse: bool,
    pub(super) twist: usize,
    pub(super) flip: usize,
    pub(super) slice: usize,
}

pub(super) struct Search<'a> {
    pub(super) mt: &'a MoveTables,
    pub(super) sym8: &'a Sym8,
    pub(super) twist_mv: &'a [u32],
    pub(super) flip_mv: &'a [u32],
    pub(super) p2: &'a P2Moves,
    pub(super) ts: &'a [u8],
    pub(super) fs: &'a [u8],
    pub(super) tf: &'a [u8],
    pub(super) cs: &'a [u8],
    pub(super) es: &'a [u8],
    pub(super) ec: &'a [u8],
    /// The exact phase-1 distances (`3x3x3-optimal-flipslice-twist`, the
    /// flip-slice classes under the 16 U-D symmetries x twist) and those
    /// symmetries, when asked for: they replace the flip x slice and twist x
    /// flip bounds.
    pub(super) exact: Option<(&'a [u8], &'a tablegen::optimal3::Sym16)>,
    pub(super) view: View,
    /// Pre-moves of the current phase-1 search (see [`Search::premoves`]), in
    /// the order they were chosen; the cube they are applied to.
    pub(super) pre: [u8; MAX_PRE],
    pub(super) pre_len: usize,
    pub(super) pre_cube: CubieCube,
    /// Probe phase-1 solutions shorter than the search depth (see
    /// [`Search::premoves`]).
    pub(super) allow_shorter: bool,
    pub(super) path: [u8; 32],
    /// The best solution: its moves (in the view), phase lengths, view.
    pub(super) best: Option<(Vec<u8>, [usize; 3], View)>,
    pub(super) target: usize,
    pub(super) max_length: usize,
    pub(super) deadline: Instant,
    pub(super) strict: bool,
    pub(super) nodes: u64,
    pub(super) stop: bool,
    /// The best whole solution of every search sharing the answer, and the
    /// moves before this cube's (see [`Solver::solve_below_sharing`]).
    pub(super) shared: Option<(&'a AtomicUsize, usize)>,
    /// With `shared`: stop as soon as the best whole solution (this
    /// search's or a shared one) is this short.
    pub(super) settle: Option<usize>,
}

/// The phase-1 bound of raw coordinates: max of the twist x slice, flip x slice
/// and twist x flip tables.
#[inline(always)]
pub(super) fn phase1_bound(
    k: &Sym8,
    [ts, fs, tf]: [&[u8]; 3],
    t: usize,
    f: usize,
    s: usize,
) -> usize {
    nibble(ts, k.twist_slice_index(t, s))
        .max(nibble(fs, k.flip_slice_index(f, s)))
        .max(nibble(tf, k.twist_flip_index(t, f)))
}

/// The entry of raw phase-1 coordinates in the exact phase-1 table (the
/// optimal solver's small table).
#[inline(always)]
pub(super) fn exact_index(k: &tablegen::optimal3::Sym16, t: usize, f: usize, s: usize) -> usize {
    let x = s * tablegen::kociemba::N_FLIP + f;
    let sym = k.flipslice.sym_of[x] as usize;
    k.flipslice.class_of[x] as usize * tablegen::kociemba::N_TWIST
        + k.twist_conj[t * tablegen::optimal3::N_SYM16 + sym] as usize
}

/// A target no solution reaches: any length is accepted.
pub(super) const ANY_LENGTH: usize = 31;

/// Pre-moves are tried only while phase 1 is searched this deep or deeper (as
/// min2phase's MIN_P1PRE_LEN).
pub(super) const MIN_PRE_DEPTH1: usize = 7;

/// At most this many pre-moves.
pub(super) const MAX_PRE: usize = 20;

/// The pre-moves that may come last (next to phase 2): quarter turns of R, F,
/// L, B (any other move is in the phase-2 group, or a quarter turn's variant
/// found through it: see `start_phase2`).
pub(super) const LAST_PREMOVES: [usize; 4] = [3, 6, 12, 15];

/// Appends move `m` to a move sequence, merged with the last move when both
/// turn the same face (also across a turn of the opposite face, which
/// commutes).
pub(super) fn push_merged(sol: &mut Vec<u8>, m: u8) {
    let n = sol.len();
    let same = |x: u8| x / 3 == m / 3;
    let at = if n >= 1 && same(sol[n - 1]) {
        Some(n - 1)
    } else if n >= 2 && sol[n - 1] / 3 % 3 == m / 3 % 3 && same(sol[n - 2]) {
        Some(n - 2)
    } else {
        None
    };
    match at {
        None => sol.push(m),
        Some(i) => {
            // Quarter turns: 1, 2, 3 for indices 0, 1, 2.
            let turns = (sol[i] % 3 + 1 + m % 3 + 1) % 4;
            if turns == 0 {
                sol.remove(i);
            } else {
                sol[i] = m / 3 * 3 + turns - 1;
            }
        }
    }
}

/// Phase-2 coordinates of a cube in the phase-2 group.
pub(super) fn coord2(k: &Sym8, c: &CubieCube) -> Coord2 {
    Coord2 {
        c: k.cperm.class_sym(c.corner_perm() as usize),
        e: k.udperm.class_sym(c.ud_edge_perm() as usize),
        s: c.slice_perm(),
        cc: c.corner_comb() as u8,
    }
}

/// The phase-1 coordinates of a cube.
pub(super) fn phase1_coords(c: &CubieCube) -> (usize, usize, usize) {
    (c.twist() as usize, c.flip() as usize, c.slice() as usize)
}

/// The moves that may end a phase-1 solution: those not in the phase-2 group
/// (R, R', F, F', L, L', B, B').
pub(super) const LAST_PHASE1_MOVES: [usize; 8] = [3, 5, 6, 8, 12, 14, 15, 17];

/// `ALLOWED[prev]`: bit `m` set when move `m` may follow `prev` (18: none).
pub(super) const ALLOWED: [u32; 19] = allowed_masks(&{
    let mut all = [0usize; 18];
    let mut m = 0;
    while m < 18 {
        all[m] = m;
        m += 1;
    }
    all
});

/// `ALLOWED2[prev]`: bit `i` set when phase-2 move `P2_MOVES[i]` may follow
/// `prev` (18: none).
pub(super) const ALLOWED2: [u32; 19] = allowed_masks(&P2_MOVES);

/// Per previous move (18: none), bit `i` set when `moves[i]` may follow it.
pub(super) const fn allowed_masks(moves: &[usize]) -> [u32; 19] {
    let mut a = [0u32; 19];
    let mut prev = 0;
    while prev < 19 {
        let mut i = 0;
        while i < moves.len() {
            if allowed(prev, moves[i]) {
                a[prev] |= 1 << i;
            }
            i += 1;
        }
        prev += 1;
    }
    a
}

/// May move `m` follow `prev`? Not on the same face, and of two opposite faces
/// only in one order.
#[inline(always)]
pub(super) const fn allowed(prev: usize, m: usize) -> bool {
    if prev >= 18 {
        return true;
    }
    let (pf, f) = (prev / 3, m / 3);
    pf != f && !(pf % 3 == f % 3 && pf > f)
}

impl Search<'_> {
    #[inline(always)]
    pub(super) fn h1(&self, t: usize, f: usize, s: usize) -> usize {
        match self.exact {
            Some((e, k)) => nibble(e, exact_index(k, t, f, s)),
            None => phase1_bound(self.sym8, [self.ts, self.fs, self.tf], t, f, s),
        }
    }

    #[inline(always)]
    pub(super) fn h2(&self, x: Coord2) -> usize {
        let ix = self.p2_index(x);
        nibble(self.es, ix[0])
            .max(nibble(self.cs, ix[1]))
            .max(nibble(self.ec, ix[2]))
    }

    /// Indices of a phase-2 node in the U/D edge perm x slice perm, corner perm
    /// x slice perm and U/D edge perm x corner combination tables.
    #[inline(always)]
    pub(super) fn p2_index(&self, x: Coord2) -> [usize; 3] {
        let k = self.sym8;
        let (cc, cs) = ((x.c >> 3) as usize, (x.c & 7) as usize);
        let (ec, es) = ((x.e >> 3) as usize, (x.e & 7) as usize);
        let (s, comb) = (x.s as usize, x.cc as usize);
        [
            ec * N_SPERM + k.sperm_conj[s * N_SYM + es] as usize,
            cc * N_SPERM + k.sperm_conj[s * N_SYM + cs] as usize,
            ec * N_CCOMB + k.ccomb_conj[comb * N_SYM + es] as usize,
        ]
    }

    /// Lowers the target to what beats the best whole solution shared with
    /// other searches, if any.
    pub(super) fn read_shared(&mut self) {
        if let Some((best, before)) = self.shared {
            let beat = best
                .load(std::sync::atomic::Ordering::Relaxed)
                .saturating_sub(before);
            self.target = self.target.min(beat);
        }
    }

    /// Past the deadline: stop if a solution is known, else accept any length
    /// from now on (the search always returns a solution). Reads the shared
    /// best first.
    pub(super) fn out_of_time(&mut self) -> bool {
        self.read_shared();
        if let (Some(len), Some((_, before))) = (self.settle, self.shared) {
            if self.target.saturating_add(before) <= len {
                self.stop = true;
            }
        }
        if Instant::now() > self.deadline {
            if self.best.is_some() || self.strict {
                self.stop = true;
            } else {
                self.target = ANY_LENGTH;
            }
        }
        self.stop
    }

    /// Phase-1 search at `depth` moves done, `left` to go.
    pub(super) fn phase1(
        &mut self,
        t: usize,
        f: usize,
        s: usize,
        depth: usize,
        left: usize,
        prev: usize,
    ) {
        self.nodes += 1;
        if self.nodes & 0x3FF == 0 && self.out_of_time() {
            return;
        }
        let in_h = t == 0 && f == 0 && s == 0;
        if in_h && (left == 0 || (left < 5 && self.allow_shorter)) {
            // A phase-1 solution ending in a phase-2 move was already tried one move
            // shorter, with that move in phase 2.
            if depth == 0 || !P2_MOVES.contains(&prev) {
                self.start_phase2(depth);
            }
            return;
        }
        // Already in the phase-2 group with moves to spare: a path that leaves it
        // and comes back needs at least five moves (as in Kociemba's and
        // min2phase's searches), and paths that stay in it end in a phase-2 move.
        if left == 0 || (in_h && left < 5) {
            return;
        }
        if left == 1 {
            // The last move must bring the cube into the phase-2 group, so the
            // coordinates are compared with 0 instead of reading tables; and it
            // cannot be a phase-2 move (see above), so only the eight quarter
            // turns of R, F, L, B are tried.
            for m in LAST_PHASE1_MOVES {
                if allowed(prev, m)
                    && self.mt.twist[t * 18 + m] == 0
                    && self.mt.flip[f * 18 + m] == 0
                    && self.mt.slice[s * 18 + m] == 0
                {
                    self.nodes += 1;
                    self.path[depth] = m as u8;
                    self.start_phase2(depth + 1);
                    if self.stop {
                        return;
                    }
                }
            }
            return;
        }
        // Children are checked on the twist x slice bound first (its table is
        // the smallest, mostly cached); the survivors' two other entries are
        // fetched together, so that their cache misses overlap, then checked.
        let mt = self.mt;
        let sym8 = self.sym8;
        let mut kids = [(0u8, 0u16, 0u16, 0u16, 0u32, 0u32); 18];
        let mut n = 0;
        let mut mask = ALLOWED[prev];
        while mask != 0 {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            // Each move-table entry carries its value's class and symmetry.
            let tw = self.twist_mv[t * 18 + m];
            let (t2, s2) = ((tw & 0xFFFF) as usize, mt.slice[s * 18 + m] as usize);
            let (tc, ts) = ((tw >> 19) as usize, (tw >> 16 & 7) as usize);
            let its = tc * N_SLICE + sym8.slice_conj[s2 * N_SYM + ts] as usize;
            if nibble(self.ts, its) >= left {
                continue;
            }
            let fw = self.flip_mv[f * 18 + m];
            let f2 = (fw & 0xFFFF) as usize;
            let (ifs, itf) = match self.exact {
                Some((e, k)) => {
                    let i = exact_index(k, t2, f2, s2);
                    prefetch(e, i >> 1);
                    (i, usize::MAX)
                }
                None => {
                    let (fc, fs) = ((fw >> 19) as usize, (fw >> 16 & 7) as usize);
                    let ifs = fc * N_SLICE + sym8.slice_conj[s2 * N_SYM + fs] as usize;
                    let itf = fc * N_TWIST + sym8.twist_conj[t2 * N_SYM + fs] as usize;
                    prefetch(self.fs, ifs >> 1);
                    prefetch(self.tf, itf >> 1);
                    (ifs, itf)
                }
            };
            kids[n] = (
                m as u8, t2 as u16, f2 as u16, s2 as u16, ifs as u32, itf as u32,
            );
            n += 1;
        }
        for &(m, t2, f2, s2, ifs, itf) in &kids[..n] {
            let out = match self.exact {
                Some((e, _)) => nibble(e, ifs as usize) >= left,
                None => {
                    nibble(self.fs, ifs as usize) >= left || nibble(self.tf, itf as usize) >= left
                }
            };
            if out {
                continue;
            }
            self.path[depth] = m;
            self.phase1(
                t2 as usize,
                f2 as usize,
                s2 as usize,
                depth + 1,
                left - 1,
                m as usize,
            );
            if self.stop {
                return;
            }
        }
    }

    /// Phase 1 on the cube with pre-moves (Rokicki's and min2phase's idea): a
    /// solution `S` of `m C` gives the solution `S m` of `C`. Each sequence of
    /// pre-moves is one more view of the cube, so that at each total phase-1
    /// length (`length1`: pre-moves and phase-1 moves) many more phase-1
    /// solutions are probed, and a short whole is found sooner. Pre-moves are
    /// tried while phase 1 stays at least `MIN_PRE_DEPTH1` deep; at that depth
    /// shorter phase-1 solutions are probed too (they are not searched
    /// elsewhere with these pre-moves). `coords` are `cube`'s phase-1
    /// coordinates; `last` the last pre-move (18: none).
    pub(super) fn premoves(
        &mut self,
        cube: CubieCube,
        (t, f, s): (usize, usize, usize),
        k: usize,
        length1: usize,
        last: usize,
    ) {
        let depth1 = length1 - k;
        // The last pre-move (next to phase 2) must be a quarter turn of R, F, L
        // or B: any other would belong to phase 2.
        if (k == 0 || LAST_PREMOVES.contains(&last)) && self.h1(t, f, s) <= depth1 {
            self.pre_len = k;
            self.pre_cube = cube;
            self.allow_shorter = k > 0 && depth1 == MIN_PRE_DEPTH1;
            self.phase1(t, f, s, 0, depth1, 18);
            if self.stop {
                return;
            }
        }
        if depth1 <= MIN_PRE_DEPTH1 || k == MAX_PRE {
            return;
        }
        // When no pre-move can follow this one, only those that may come last.
        let final_level = depth1 == MIN_PRE_DEPTH1 + 1;
        // The children first; for those that may start phase 1 (see above),
        // the exact phase-1 entry is fetched in two rounds (its flip-slice
        // class and symmetry, a table of megabytes, then the entry), so that
        // the children's cache misses overlap; then each child is searched.
        // (Measured: 10 % off the median of a 20-move solve, a fifth off its
        // p99.)
        let mut kids = [(0u8, CubieCube::SOLVED, (0, 0, 0)); 18];
        let mut n = 0;
        for m in 0..18 {
            // One axis at a time (as min2phase: moves on one axis commute).
            if last < 18 && m / 3 % 3 == last / 3 % 3 {
                continue;
            }
            if final_level && !LAST_PREMOVES.contains(&m) {
                continue;
            }
            let c = moves()[m].multiply(&cube);
            let (t2, f2, s2) = phase1_coords(&c);
            if let Some((_, sym)) = self.exact.filter(|_| LAST_PREMOVES.contains(&m)) {
                let x = s2 * tablegen::kociemba::N_FLIP + f2;
                prefetch(&sym.flipslice.class_of, x);
                prefetch(&sym.flipslice.sym_of, x);
            }
            kids[n] = (m as u8, c, (t2, f2, s2));
            n += 1;
        }
        if let Some((e, sym)) = self.exact {
            for &(m, _, (t2, f2, s2)) in &kids[..n] {
                if LAST_PREMOVES.contains(&(m as usize)) {
                    prefetch(e, exact_index(sym, t2, f2, s2) >> 1);
                }
            }
        }
        for &(m, c, coords) in &kids[..n] {
            self.pre[k] = m;
            self.premoves(c, coords, k + 1, length1, m as usize);
            if self.stop {
                return;
            }
        }
    }

    /// Phase 2 after a phase-1 solution of `len1` moves (`path[..len1]`) of the
    /// current view with its pre-moves.
    pub(super) fn start_phase2(&mut self, len1: usize) {
        let k = self.pre_len;
        if len1 + k + 1 > self.target {
            return;
        }
        let mut c = self.pre_cube;
        for &m in &self.path[..len1] {
            c = c.apply_move(m as usize);
        }
        let x = coord2(self.sym8, &c);
        // With pre-moves, the last one (a quarter turn) may also be its inverse:
        // `m' C S = m2 (m C S)`, with the half turn `m2` in the phase-2 group.
        let x2 = (k > 0).then(|| {
            let half = self.pre[k - 1] as usize / 3 * 3 + 1;
            coord2(self.sym8, &moves()[half].multiply(&c))
        });
        let h = match x2 {
            Some(x2) => self.h2(x).min(self.h2(x2)),
            None => self.h2(x),
        };
        // Only solutions shorter than the best so far are of use; until phase 1
        // is long, phase 2 is kept short (other phase-1 solutions are cheaper
        // than a deep phase-2 search). 13 as min2phase's MAX_DEPTH2 (12 measured
        // 0.58 ms median at max 21, 13 0.54 ms, 11 0.70 ms).
        let cap2 = if len1 + k >= 12 { 18 } else { 13 };
        let max2 = (self.target - 1 - len1 - k).min(cap2);
        if h > max2 {
            return;
        }
        let prev = if len1 == 0 {
            18
        } else {
            self.path[len1 - 1] as usize
        };
        // As in min2phase: the first search allows the longest phase 2 of use
        // and stops at any solution; each solution found lowers the bound to one
        // shorter, until none is found. A solution within `max_length` ends the
        // search, but only once this phase 2 is as short as it goes: the
        // shorter phase 2 costs a few small searches, and saves about 0.17
        // moves at 21.
        let mut bound = max2;
        let mut within = false;
        loop {
            let mut found = self.phase2(x, len1, bound, prev).map(|t| (t, false));
            if found.is_none() && !self.stop {
                if let Some(x2) = x2 {
                    found = self.phase2(x2, len1, bound, prev).map(|t| (t, true));
                }
            }
            let Some((end2, inverted)) = found else {
                break;
            };
            // Shorter than the target, as the bound was.
            let total = end2 + k;
            // The solution of `C`: phase 1, phase 2, the pre-moves last first
            // (merged with phase 2's last move when it turns the same face).
            let mut sol = self.path[..end2].to_vec();
            for (i, &m) in self.pre[..k].iter().rev().enumerate() {
                push_merged(&mut sol, if i == 0 && inverted { m + 2 } else { m });
            }
            let pre = sol.len() - end2;
            // Another search's answer may have lowered the target while
            // phase 2 ran (see `read_shared`): then this one is of no use.
            if sol.len() < self.target {
                self.target = sol.len();
                self.best = Some((sol, [len1, end2 - len1, pre], self.view));
                within |= total <= self.max_length;
            }
            if self.stop || end2 - len1 <= h {
                break;
            }
            bound = end2 - len1 - 1;
        }
        self.stop |= within;
        self.out_of_time();
    }

    pub(super) fn phase2(
        &mut self,
        x: Coord2,
        depth: usize,
        left: usize,
        prev: usize,
    ) -> Option<usize> {
        // Solved with moves to spare: a shorter phase 2 (the bound is a maximum).
        // (The identity is alone in its class.)
        if x.c >> 3 == 0 && x.e >> 3 == 0 && x.s == 0 {
            return Some(depth);
        }
        if left == 0 {
            return None;
        }
        self.nodes += 1;
        if self.nodes & 0x3FF == 0 && self.out_of_time() {
            return None;
        }
        // The tables are small enough to stay in cache: each child is checked
        // as it is made, the inverse's bound first (it cuts most), the other
        // entries only for the children that pass.
        let (mt, p2, k) = (self.mt, self.p2, self.sym8);
        let (cc, cs) = ((x.c >> 3) as usize, (x.c & 7) as usize);
        let (ec, es) = ((x.e >> 3) as usize, (x.e & 7) as usize);
        let mut mask = ALLOWED2[prev];
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            // A node `S r S` (class representative r, symmetry S) moved by m is
            // `S (r m') S` with `m' = S m S`; the table gives `r m' = T r2 T`,
            // and the symmetries compose by exclusive or.
            let c2 = p2.cperm[cc * 10 + p2.symmove[cs][i] as usize] ^ cs as u16;
            let e2 = p2.udperm[ec * 10 + p2.symmove[es][i] as usize] ^ es as u16;
            let y = Coord2 {
                c: c2,
                e: e2,
                s: mt.sperm[x.s as usize * 10 + i] as u8,
                cc: mt.ccomb[x.cc as usize * 10 + i] as u8,
            };
            // The bound of the inverse is not consistent: a child two past the
            // bound shows that this node is out of reach too.
            let hi = nibble(self.ec, p2.inverse_eperm_ccomb(k, y));
            if hi > left + 1 {
                return None;
            }
            if hi >= left {
                continue;
            }
            let ix = self.p2_index(y);
            if nibble(self.ec, ix[2]) >= left
                || nibble(self.es, ix[0]) >= left
                || nibble(self.cs, ix[1]) >= left
            {
                continue;
            }
            let m = P2_MOVES[i];
            self.path[depth] = m as u8;
            if let Some(total) = self.phase2(y, depth + 1, left - 1, m) {
                return Some(total);
            }
            if self.stop {
                return None;
            }
        }
        None
    }
}
