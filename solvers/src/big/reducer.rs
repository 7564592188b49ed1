//! The orbit-by-orbit reduction of an N-cube to its small cube: wings
//! innermost first ([`super::wings`]), then centres (see the module
//! documentation of `big`).

use super::*;

/// The reduction of one size N (6 and up) to its small cube: every facelet
/// made its representative's colour.
pub struct Reducer {
    pub(super) n: usize,
    pub(super) cube: CubeN,
    pub(super) orbits: Orbits,
    /// Setups of none, one or two turns of the small cube (its faces and
    /// its `Rw`), each with where its inverse sends every facelet; kept. The
    /// single turns come first (`small_one_turn` of them, with none).
    pub(super) small_setups: Vec<Setup>,
    pub(super) small_one_turn: usize,
    /// The centre orbits that are not representatives, by their two depths
    /// (an oblique orbit with its mirror, whose cycles share layers).
    pub(super) groups: Vec<(Depths, Vec<usize>)>,
    /// The cycles of each kind of centre group, made once (see
    /// [`Reducer::kind_candidates`]).
    pub(super) kind_cands: [OnceLock<(usize, Vec<Cand>)>; 3],
    /// The bar cycles (up to [`bars::BAR_MAX_N`]), made once.
    pub(super) bars: OnceLock<bars::Bars>,
}

/// The cube of `coords.len()` layers read off an N-cube state at the given
/// rows and columns.
pub(super) fn read_small(n: usize, state: &[u8], coords: &[usize]) -> Vec<u8> {
    let k = coords.len();
    (0..6 * k * k)
        .map(|i| {
            let (f, r, c) = (i / (k * k), (i / k) % k, i % k);
            state[(f * n + coords[r]) * n + coords[c]]
        })
        .collect()
}

/// A turn of a smaller cube whose layer `i` is the N-cube's layers up to
/// `last[i]` (from the previous one's next) as turns of the N-cube.
pub(super) fn lift_by(last: &[u8], m: Move) -> Vec<Move> {
    match m.kind {
        MoveKind::Block(d) => vec![Move::block(m.face, last[d as usize - 1] + 1, m.turns)],
        MoveKind::Slice(d) => vec![
            Move::block(m.face, last[d as usize - 1] + 1, m.turns),
            Move::block(m.face, last[d as usize - 2] + 1, 4 - m.turns),
        ],
        MoveKind::Rotation => vec![m],
    }
}

/// A centre orbit's two depths, the smaller first.
pub(super) type Depths = (usize, usize);

/// The reduction's moves, by part (inner layers as [`MoveKind::Slice`]).
#[derive(Clone, Debug, Default)]
pub struct Reduction {
    /// Wing pairing, first.
    pub wings: Vec<Move>,
    /// Centre 3-cycles, then.
    pub centres: Vec<Move>,
}

impl Reducer {
    /// The reducer of an N-cube, `MIN_N <= n <= MAX_N`.
    pub fn new(n: usize) -> Reducer {
        let cube = CubeN::new(n);
        // The small cube's turns: its faces, and its `Rw` (the N-cube's
        // `hRw`; the small `3Rw` of odd N is `Lw'` turned, and so are the
        // even N's `hLw` and `hRw'`: the whole-cube turn changes nothing
        // a setup does, so the opposite face's block stands for it).
        let small: Vec<Move> = Face::ALL
            .iter()
            .flat_map(|&f| {
                (1..=3u8).flat_map(move |t| [Move::face(f, t), Move::block(f, (n / 2) as u8, t)])
            })
            .collect();
        let small_setups: Vec<Setup> = sequences(&small)
            .into_iter()
            .map(|s| setup(&cube, s, true))
            .collect();
        let orbits = Orbits::new(&cube);
        let mut r = Reducer {
            n,
            cube,
            orbits,
            small_setups,
            small_one_turn: 1 + small.len(),
            groups: Vec::new(),
            kind_cands: Default::default(),
            bars: OnceLock::new(),
        };
        let mut groups: Vec<(Depths, Vec<usize>)> = Vec::new();
        for o in &r.orbits.centres {
            let rep = o.iter().all(|&f| {
                let (row, col) = ((f / n) % n, f % n);
                r.rep(row) == row && r.rep(col) == col
            });
            if rep {
                continue;
            }
            let (row, col) = ((o[0] / n) % n, o[0] % n);
            let (a, b) = (depth(row, n), depth(col, n));
            let key = (a.min(b), a.max(b));
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, u)) => u.extend(o),
                None => groups.push((key, o.clone())),
            }
        }
        r.groups = groups;
        r
    }

    /// The representative of coordinate `x` (a row or column index): the
    /// innermost coordinate of its group.
    pub fn rep(&self, x: usize) -> usize {
        let (n, h) = (self.n, self.n / 2);
        if x == 0 || x == n - 1 {
            x
        } else if x < h {
            h - 1
        } else if x == h || n % 2 == 0 {
            h
        } else {
            h + 1
        }
    }

    /// The small cube's rows and columns on the N-cube, in order.
    pub fn small_coords(&self) -> Vec<usize> {
        let (n, h) = (self.n, self.n / 2);
        if n % 2 == 0 {
            vec![0, h - 1, h, n - 1]
        } else {
            vec![0, h - 1, h, h + 1, n - 1]
        }
    }

    /// The small cube read off an N-cube state.
    pub fn small_state(&self, state: &[u8]) -> Vec<u8> {
        read_small(self.n, state, &self.small_coords())
    }

    /// A turn of the small cube as turns of the N-cube: block depth `d` is
    /// the small cube's layers `0..d`, the N-cube's up to the last layer of
    /// group `d - 1`.
    pub fn lift(&self, m: Move) -> Vec<Move> {
        let (n, h) = (self.n, self.n / 2);
        let last: Vec<u8> = if n % 2 == 0 {
            vec![0, h as u8 - 1, n as u8 - 2, n as u8 - 1]
        } else {
            vec![0, h as u8 - 1, h as u8, n as u8 - 2, n as u8 - 1]
        };
        lift_by(&last, m)
    }

    /// The colour each facelet must show: its representative's.
    pub(super) fn target(&self, state: &[u8]) -> Vec<u8> {
        let n = self.n;
        (0..self.cube.facelets())
            .map(|i| {
                let (f, r, c) = (i / (n * n), (i / n) % n, i % n);
                state[(f * n + self.rep(r)) * n + self.rep(c)]
            })
            .collect()
    }

    /// How the small cube of facelet `first`'s orbit sits in the N-cube:
    /// a wing orbit's 4x4x4, or a centre orbit's ([`Layout::centre`]).
    pub(super) fn layout(&self, first: usize, wing: bool) -> Layout {
        let n = self.n;
        if !wing {
            return Layout::centre(n, first);
        }
        let (r0, c0) = ((first / n) % n, first % n);
        let a = depth(if r0 == 0 || r0 == n - 1 { c0 } else { r0 }, n);
        Layout {
            size: 4,
            map: vec![0, a, n - 1 - a, n - 1],
            kind: OrbitKind::Wing,
        }
    }

    /// The cycles of a centre orbit (given by its facelets) or a wing orbit
    /// (its facelets, both of each wing), with every setup
    /// ([`tablegen::cycles::candidates`]).
    pub(super) fn candidates(
        &self,
        facelets: &[usize],
        lay: &Layout,
        lead: &[bool],
        setups: &[Setup],
    ) -> Vec<Cand> {
        candidates(&self.cube, facelets, lay, lead, setups)
    }

    /// The moves of a candidate on the N-cube.
    pub(super) fn cand_moves(&self, c: &Cand, lay: &Layout, setups: &[Setup]) -> Vec<Move> {
        cand_moves(&bases(lay.kind)[c.base as usize].moves, c, lay, setups)
    }

    /// Places the facelets of centre group `g` by greedy cycles behind
    /// setups of up to two turns of the small cube; returns the moves and
    /// updates `state` (the setups, kept, turn the small cube; every
    /// finished facelet stays its representative's colour).
    pub(super) fn place(
        &self,
        state: &mut [u8],
        g: usize,
        hard: Hard,
    ) -> Result<Vec<Move>, SolveError> {
        let facelets = &self.groups[g].1;
        let lay = self.layout(facelets[0], false);
        // The cycles of the first group of this kind, and where each of its
        // facelets stands in this group.
        let (canon, cands) = self.kind_candidates(lay.kind);
        let at = self.relabel(canon, g);
        let mut target = self.target(state);
        let mut moves = Vec::new();
        let mut pick = Pick::default();
        for _ in 0..20 * facelets.len() {
            if facelets.iter().all(|&f| state[f] == target[f]) {
                return Ok(moves);
            }
            hard.check("centres")?;
            let right =
                |f: u16, t: u16| state[at[f as usize] as usize] == target[at[t as usize] as usize];
            for (i, c) in cands.iter().enumerate() {
                let mut gain = 0i32;
                let mut touches = false;
                for &(f, t) in &c.pairs()[..c.leads as usize] {
                    let before = right(t, t);
                    touches |= !before;
                    gain += i32::from(right(f, t)) - i32::from(before);
                }
                pick.consider(i, gain, touches, c.cost);
            }
            let i = pick
                .choose()
                .ok_or_else(|| SolveError::Internal("no 3-cycle places another piece".into()))?;
            let seq = self.cand_moves(&cands[i], &lay, &self.small_setups);
            self.cube.apply_alg(state, &seq);
            moves.extend(seq);
            target = self.target(state);
        }
        Err(SolveError::Internal("an orbit did not come home".into()))
    }

    /// Reduces `state` in place to its small cube.
    pub fn reduce(&self, state: &mut [u8]) -> Result<Reduction, SolveError> {
        self.reduce_within(state, Hard::never())
    }

    /// [`Reducer::reduce`], given up at `hard`.
    pub(super) fn reduce_within(
        &self,
        state: &mut [u8],
        hard: Hard,
    ) -> Result<Reduction, SolveError> {
        Ok(Reduction {
            wings: self.pair_all_wings(state, hard)?,
            centres: self.place_centres(state, hard)?,
        })
    }

    /// Places every centre group (the wings paired).
    pub(super) fn place_centres(
        &self,
        state: &mut [u8],
        hard: Hard,
    ) -> Result<Vec<Move>, SolveError> {
        if self.n <= bars::BAR_MAX_N {
            return self.place_joint(state, hard);
        }
        let mut moves = Vec::new();
        for g in 0..self.groups.len() {
            moves.extend(self.place(state, g, hard)?);
        }
        Ok(moves)
    }

    /// Reduces `state` from each of the given orientations (whole-cube
    /// rotations; the solver gives all 24) in turn, keeping the shortest
    /// reduction: the greedy searches see the faces in another order, take
    /// other paths and leave other centres to place. After the first, a try starts only if
    /// it would end by `deadline` (judged by the longest so far). Returns
    /// the best's wing and centre moves as outer block turns of the cube as
    /// it is, and leaves `state` reduced by them (in its own orientation:
    /// the small cube's centres where its solver expects them).
    pub(super) fn best_oriented(
        &self,
        state: &mut Vec<u8>,
        rotations: &[Vec<Move>],
        deadline: Instant,
        hard: Hard,
    ) -> Result<Reduction, SolveError> {
        let mut best: Option<(usize, Vec<u8>, &[Move], Reduction)> = None;
        // The longest try so far: no try starts that would end past the
        // deadline.
        let mut longest = Duration::ZERO;
        for r in rotations {
            let t = Instant::now();
            if best.is_some() && t + longest > deadline {
                break;
            }
            let mut s = state.clone();
            self.cube.apply_alg(&mut s, r);
            let found = self.reduce_within(&mut s, hard)?;
            let part = |m: &[Move]| unrotate(&simplify(&outer_blocks(self.n, m)), r);
            let red = Reduction {
                wings: part(&found.wings),
                centres: part(&found.centres),
            };
            let len = simplify(&[&red.wings[..], &red.centres[..]].concat()).len();
            if best.as_ref().is_none_or(|b| len < b.0) {
                best = Some((len, s, r, red));
            }
            longest = longest.max(t.elapsed());
        }
        let (_, mut s, r, red) =
            best.ok_or_else(|| SolveError::Internal("no orientation".into()))?;
        self.cube.apply_alg(&mut s, &invert_alg(r));
        *state = s;
        Ok(red)
    }

    /// The cycles of the first centre group of a kind (X-, T- or oblique
    /// orbits) behind every setup, made once, with that group's index.
    ///
    /// Every group of a kind is the first one with its layers renamed: the
    /// small cube's turns move each alike (a face turn turns every depth,
    /// and the small cube's `Rw` holds every layer short of the middle), so
    /// the first group's cycles, renamed, are each group's own (tested).
    pub(super) fn kind_candidates(&self, kind: OrbitKind) -> (usize, &[Cand]) {
        let (canon, cands) = self.kind_cands[kind as usize].get_or_init(|| {
            let g = (0..self.groups.len())
                .find(|&g| self.layout(self.groups[g].1[0], false).kind == kind)
                .unwrap_or(0);
            let facelets = &self.groups[g].1;
            let lay = self.layout(facelets[0], false);
            let lead = marks(self.cube.facelets(), facelets.iter().copied());
            (
                g,
                self.candidates(facelets, &lay, &lead, &self.small_setups),
            )
        });
        (*canon, cands)
    }

    /// Where each facelet of centre group `from` stands in group `to` of
    /// the same kind (and every other facelet where it is): rows and
    /// columns at one depth of `from` go to the same side at `to`'s.
    pub(super) fn relabel(&self, from: usize, to: usize) -> Vec<u32> {
        let n = self.n;
        let ((a0, b0), (a1, b1)) = (self.groups[from].0, self.groups[to].0);
        let coord = |x: usize| {
            let d = depth(x, n);
            let e = if d == a0 {
                a1
            } else if d == b0 {
                b1
            } else {
                return x;
            };
            if x < n / 2 {
                e
            } else {
                n - 1 - e
            }
        };
        let mut at: Vec<u32> = (0..self.cube.facelets() as u32).collect();
        for &f in &self.groups[from].1 {
            let (face, r, c) = (f / (n * n), (f / n) % n, f % n);
            at[f] = ((face * n + coord(r)) * n + coord(c)) as u32;
        }
        at
    }

    /// Makes the centre cycles now (a solver's start-up) rather than in its
    /// first solve.
    pub fn prepare(&self) {
        for (_, facelets) in &self.groups {
            self.kind_candidates(self.layout(facelets[0], false).kind);
        }
        if self.n <= bars::BAR_MAX_N {
            self.bars();
        }
    }

    /// True if every facelet shows its representative's colour.
    pub fn is_reduced(&self, state: &[u8]) -> bool {
        self.target(state) == state
    }

    /// The facelet model.
    pub fn cube(&self) -> &CubeN {
        &self.cube
    }
}
