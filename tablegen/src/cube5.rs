//! 5x5x5 edges and side centres for the reduction.
//!
//! A 5x5x5's corners, X-centres and wings are a 4x4x4 ([`part4`]: the
//! facelets off the middle row and column of each face) under every move that
//! turns at most two layers, so the 4x4x4 wing slots, classes and tables
//! ([`crate::cube4`]) serve it as they are. What the 5x5x5 adds is its middle
//! edges ("midges", moved by outer turns only while the wide turns are half
//! turns of two layers) and its T-centres.
//!
//! A tredge is the midge and the two wings of one edge. In the pairing group
//! `<U, D, R, L, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>` ([`cube4::pairing_moves`])
//! the midges keep their orientation (Kociemba's: only F and B quarter turns
//! flip) and the wings keep their class, so a tredge is paired when its high
//! wing and its low wing sit with its midge: the 4x4x4 pairing of the two wing
//! classes (`4x4x4-wings-pair`) and the pairing of the high wings with the
//! midges ([`MidPairSpace`]).
//!
//! The spaces ([`Reduction5`]), each a table of the catalog:
//!
//! - [`Reduction5::LrParity`] (`5x5x5-lr-x-parity`): the L/R X-centres among
//!   the side faces with the wing parity; goal, staged with an even one.
//! - [`Reduction5::FbEo`] (`5x5x5-fb-centres-eo`): once every centre is on its
//!   axis, which F/B T- and X-centres are F-coloured, with the midges'
//!   orientation; goal, the arrangements the pairing group reaches, no midge
//!   flipped.
//! - [`Reduction5::WingsSplit`] (`5x5x5-wings-split`): which 12 of the 24 wing
//!   slots hold high wings; goal, the 12 high slots.
//! - [`Reduction5::MidPair`] (`5x5x5-tredges-pair`): the high wings with the
//!   midges as one relative permutation; goal, every high wing with its midge.

use crate::bfs::Space;
use crate::cube::CubeN;
use crate::cube4::{self, odd, Wings};
use crate::notation::{Face, Move, MoveKind};
use crate::perm::{factorial, BYTE_ONES};
use crate::projection::{self, binomials, Block, FaceletMaskSpace, Orbit, ProjectionDef};
use crate::validate::{read_edges, skeleton3, EDGE_CELLS};
use crate::{ModelError, StateError};

/// The 4x4x4 of a 5x5x5 state: its facelets off the middle row and column of
/// each face (corners, X-centres, wings), in the 4x4x4 facelet order.
pub fn part4(state: &[u8]) -> Vec<u8> {
    let c5 = CubeN::new(5);
    let c4 = CubeN::new(4);
    let mut out = vec![0u8; c4.facelets()];
    for f in Face::ALL {
        for (r4, r) in [0, 1, 3, 4].into_iter().enumerate() {
            for (k4, k) in [0, 1, 3, 4].into_iter().enumerate() {
                out[c4.index(f, r4, k4)] = state[c5.index(f, r, k)];
            }
        }
    }
    out
}

/// The 4x4x4 move acting on [`part4`] as `m` acts on the 5x5x5: turns of one or
/// two layers and rotations are the same move; an error for the others (which
/// the stages never use).
pub fn move4(m: Move) -> Result<Move, ModelError> {
    match m.kind {
        MoveKind::Block(1 | 2) | MoveKind::Rotation => Ok(m),
        _ => Err(ModelError::MiddleLayer(m)),
    }
}

/// The 5x5x5 edges: the 24 wing slots of [`Wings`] (on [`part4`]) and the 12
/// midge slots, numbered as the wings' dedges (slot `e` holds the midge between
/// high wing slot `e` and low wing slot `12 + e`).
#[derive(Clone, Debug)]
pub struct Tredges {
    /// The wing slots.
    pub wings: Wings,
    /// Per dedge number, the Kociemba edge slot of the midge there.
    pub edge_of_dedge: [u8; 12],
    /// The inverse of `edge_of_dedge`.
    pub dedge_of_edge: [u8; 12],
}

impl Default for Tredges {
    fn default() -> Self {
        Tredges::new()
    }
}

/// The midges of a state: the piece in each slot and its flip (0 or 1), both
/// in dedge numbering.
pub type Midges = ([u8; 12], [u8; 12]);

impl Tredges {
    /// Matches the dedges of [`Wings`] with the 3x3x3 edge slots by their colours.
    pub fn new() -> Tredges {
        let wings = Wings::new();
        let mut edge_of_dedge = [0u8; 12];
        let mut dedge_of_edge = [0u8; 12];
        for (e, f) in wings.slots.iter().take(12).enumerate() {
            let mut pair = [(f[0] / 16) as u8, (f[1] / 16) as u8];
            pair.sort_unstable();
            let k = EDGE_CELLS
                .iter()
                .position(|c| {
                    let mut q = [c[0].0 as u8, c[1].0 as u8];
                    q.sort_unstable();
                    q == pair
                })
                .expect("every dedge lies on a 3x3x3 edge");
            edge_of_dedge[e] = k as u8;
            dedge_of_edge[k] = e as u8;
        }
        Tredges {
            wings,
            edge_of_dedge,
            dedge_of_edge,
        }
    }

    /// The midges of a 5x5x5 state whose middle centres are in place.
    pub fn read_midges(&self, state: &[u8]) -> Result<Midges, StateError> {
        let c3 = CubeN::new(3);
        let (ep, eo) = read_edges(&c3, &skeleton3(&CubeN::new(5), state))?;
        let mut piece = [0u8; 12];
        let mut flip = [0u8; 12];
        for k in 0..12 {
            let d = self.dedge_of_edge[k] as usize;
            piece[d] = self.dedge_of_edge[ep[k] as usize];
            flip[d] = eo[k];
        }
        Ok((piece, flip))
    }

    /// Where each midge slot's piece goes under `m` (a move that keeps the
    /// middle centres), and the flip it picks up on the way: `(to, flip)` with
    /// `flip[to[s]]` the flip added to the piece from `s`.
    pub fn midge_move(&self, m: Move) -> Result<([u8; 12], [u8; 12]), ModelError> {
        let c5 = CubeN::new(5);
        let mut s = c5.solved();
        c5.apply(&mut s, m);
        let (piece, flip) = self
            .read_midges(&s)
            .map_err(|state| ModelError::MidgeFrame { mv: m, state })?;
        let mut to = [0u8; 12];
        for (slot, &p) in piece.iter().enumerate() {
            to[p as usize] = slot as u8;
        }
        Ok((to, flip))
    }

    /// Where each wing slot's piece goes under `m` (see [`Wings::slot_perm`]).
    pub fn wing_move(&self, m: Move) -> Result<[u8; 24], ModelError> {
        Ok(self.wings.slot_perm(&CubeN::new(4), move4(m)?))
    }

    /// Where the piece of each wing slot goes when the cube is conjugated by
    /// a symmetry given as its facelet permutation (`perm`, as
    /// [`CubeN::symmetry`] makes it; a reflection where `mirror`): the
    /// symmetry's own slot permutation. A reflected wing shows its colours
    /// in the other hand, so it reads as the other wing of its edge.
    pub fn wing_images(&self, perm: &[u16], mirror: bool) -> Result<[u8; 24], ModelError> {
        let solved = CubeN::new(5).solved();
        let mapped: Vec<u8> = perm.iter().map(|&k| solved[k as usize]).collect();
        let wings = self
            .wings
            .read(&part4(&mapped))
            .map_err(|_| ModelError::Symmetry("a symmetry's wings"))?;
        // The wing in slot `j` shows the colours of piece `p`: it came from
        // slot `p` (or, reflected, from the other wing of `p`'s edge).
        let mut to = [u8::MAX; 24];
        for (j, &p) in wings.iter().enumerate() {
            let from = if mirror { (p + 12) % 24 } else { p };
            to[from as usize] = j as u8;
        }
        if to.contains(&u8::MAX) {
            return Err(ModelError::Symmetry("a symmetry's wing slots"));
        }
        Ok(to)
    }

    /// Under a move of the pairing group (or of a group in it): the images
    /// of the high slots and of the low slots, each within its class
    /// (0..12), and of the midge slots; an error if the move mixes the wing
    /// classes or flips a midge.
    pub fn class_move(&self, m: Move) -> Result<[[u8; 12]; 3], ModelError> {
        let w = self.wing_move(m)?;
        let (to, flip) = self.midge_move(m)?;
        if flip.iter().any(|&f| f != 0) {
            return Err(ModelError::FlipsMidges(m));
        }
        let mut out = [[0u8; 12], [0u8; 12], to];
        for e in 0..24 {
            if (e < 12) != (w[e] < 12) {
                return Err(ModelError::MixesClasses(m));
            }
            out[e / 12][e % 12] = w[e] % 12;
        }
        Ok(out)
    }
}

/// Swaps the two colours of chosen tredges (the midge and both wings of each)
/// on a 5x5x5 facelet state. A tredge so recoloured reads as flipped: its
/// midge flips and its two wings trade classes, so the pairing group's goal
/// (midges oriented, high wings in high slots) has one form per set of
/// recoloured tredges. An even set keeps the state a legal cube (each
/// recoloured tredge is one wing transposition and one midge flip), and a
/// tredge is paired in the recoloured state exactly when it is in the real
/// one: the swap is the same on its three pieces.
#[derive(Clone, Debug)]
pub struct Recolour {
    /// The facelets of every midge and every wing, as pairs.
    pairs: Vec<[usize; 2]>,
    /// The two colours of each tredge (dedge numbering).
    colours: [[u8; 2]; 12],
}

impl Default for Recolour {
    fn default() -> Self {
        Recolour::new()
    }
}

impl Recolour {
    /// The 5x5x5's edge pieces.
    pub fn new() -> Recolour {
        let cube = CubeN::new(5);
        let t = Tredges::new();
        let solved = cube.solved();
        let mut pairs: Vec<[usize; 2]> = EDGE_CELLS
            .iter()
            .map(|c| c.map(|(f, r, k)| cube.index(f, 2 * r, 2 * k)))
            .collect();
        let colours = std::array::from_fn(|e| {
            let [a, b] = pairs[t.edge_of_dedge[e] as usize];
            [solved[a], solved[b]]
        });
        pairs.extend(crate::orbits::Orbits::new(&cube).wings[0].iter().copied());
        Recolour { pairs, colours }
    }

    /// The set `set` of tredges once the colours are renamed (colour `c`
    /// becomes `rename[c]`, a renaming of the cube turned whole): bit `e`
    /// moves to the dedge whose two colours are dedge `e`'s renamed.
    pub fn rename_set(&self, set: u16, rename: &[u8; 6]) -> u16 {
        let mut out = 0u16;
        for e in (0..12).filter(|e| set >> e & 1 == 1) {
            let [c, d] = self.colours[e].map(|c| rename[c as usize % 6]);
            if let Some(f) = self
                .colours
                .iter()
                .position(|&p| p == [c, d] || p == [d, c])
            {
                out |= 1 << f;
            }
        }
        out
    }

    /// Recolours the tredges of `set` (bit `e` for dedge `e`).
    pub fn apply(&self, state: &mut [u8], set: u16) {
        if set == 0 {
            return;
        }
        for &[a, b] in &self.pairs {
            let (x, y) = (state[a], state[b]);
            let hit = (0..12).filter(|e| set >> e & 1 == 1).any(|e| {
                let [c, d] = self.colours[e];
                (x, y) == (c, d) || (x, y) == (d, c)
            });
            if hit {
                state.swap(a, b);
            }
        }
    }
}

/// A 5x5x5 space of the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction5 {
    /// The L/R X-centres among the side faces (U/D staged) with the parity of
    /// the wing permutation: goal, staged with an even one.
    LrParity,
    /// The F-coloured T- and X-centres among the F/B ones (every centre on
    /// its axis) with the midges' orientation: goal, the arrangements the
    /// pairing group reaches from solved, no midge flipped.
    FbEo,
    /// The set of wing slots holding high wings: goal, the high slots.
    WingsSplit,
    /// The high wings relative to the midges: goal, each with its own.
    MidPair,
    /// The set of wing slots holding high wings with the midges' flips, up
    /// to 32 symmetries ([`crate::split5::SplitEo`]): goal, the high slots,
    /// no midge flipped (or its swapped form).
    SplitEo,
    /// Four tredges' midges and wings of one class (high if `true`), in the
    /// pairing group: goal, paired in the E slice ([`crate::pair5::ESliceSpace`]).
    ESlice(bool),
    /// Three tredges' midges with both their wings, in the pairing group:
    /// goal, paired in the E slice ([`crate::pair5::ETripleSpace`]).
    ETriple,
    /// Four tredges' midges with both their wings, all in the R and L
    /// layers, in `<R, L, U2, D2, F2, B2, Uw2, Dw2, Rw2, Lw2, Fw2, Bw2>`: goal,
    /// paired in the E slice ([`crate::pair5::EFourSpace`]).
    EFour,
    /// Four tredges' midges with their high (`high`) or low wings, all in
    /// the R and L layers, with both R/L centre orbits, in the same group,
    /// up to the rotations that keep its axes ([`crate::pair5::EFourSyms`]
    /// on [`crate::pair5::EFourBothSpace`]).
    EFourBoth {
        /// The high wings (else the low).
        high: bool,
    },
    /// The side centres, T and X together, in the pairing group: goal, the
    /// last group's arrangements ([`crate::pair5::SidesSpace`]).
    Sides,
    /// The U/D-layer high and low wings relative to their midges, up to
    /// symmetry ([`crate::pair5::Last8Space`]): goal, paired.
    Last8,
    /// The U/D-layer low wings relative to their midges with the U/D T- and
    /// X-centres ([`crate::pair5::Last8CentresSpace`]): goal, paired and
    /// solved.
    Last8Centres,
    /// Not distances: the classes of [`Reduction5::SplitEo`] as words
    /// ([`crate::split5::SplitEo::words`]), so that a solver maps them
    /// instead of finding them at every load.
    SplitEoClasses,
}

/// C(24, 12): sets of 12 wing slots.
pub const SPLIT_SETS: u64 = 2_704_156;

/// C(16, 8) x 2: L/R X-centre stagings with a wing parity.
pub const LR_PARITY: u64 = 25_740;

/// C(8, 4)^2 x 2^11: F/B T- and X-centre arrangements with midge flips.
pub const FB_EO: u64 = 10_035_200;

impl Reduction5 {
    /// Text for the table definition.
    pub fn describe(self) -> String {
        match self {
            Reduction5::LrParity => "5x5x5-x-centres R,F,L,B as R/L or other with wing parity rank=colex(R/L,16c8)*2+parity goal=staged, even".into(),
            Reduction5::FbEo => "5x5x5 t- and x-centres F,B as F or B with midge orientation (Kociemba) rank=(colex(t,8c4)*70+colex(x,8c4))*2048+flips of slots 0..11 in dedge order goal=pairing-group orbit of solved".into(),
            Reduction5::WingsSplit => "5x5x5-wings slots holding high wings rank=colex(24c12) goal=the high slots".into(),
            Reduction5::SplitEo => "5x5x5-wings slots holding high wings with the midge flips (dedge order), up to the 16 symmetries keeping the F-B axis and the swap of both wing classes with all midges flipped rank=class(colex(24c12))*2048+least flips of slots 0..10 goal=the high slots, no midge flipped".into(),
            Reduction5::MidPair => "5x5x5-tredges high wing slot -> midge slot of the same tredge rank=lehmer12 goal=identity".into(),
            Reduction5::ESlice(high) => format!("5x5x5-tredges four midges (slot order) with their {} wings rank=colex(12c4)*11880+placement goal=paired in the E slice", if high { "high" } else { "low" }),
            Reduction5::EFourBoth { high } => format!("5x5x5-tredges four midges (slot order) with their {} wings, all in the R/L layers' eight dedges, and the t- and x-centres R,L (R marked), up to the rotations none x2 y2 z2 rank=class(colex(8c4)*1680+placement)*4900+rotated(colex(t,8c4)*70+colex(x,8c4)) goal=paired in the E slice, centres together in the orbit of solved under U D R2 L2 F2 B2 Rw2 Lw2 Fw2 Bw2", if high {"high"} else {"low"}),
            Reduction5::Sides => "5x5x5 t- and x-centres R,L (R marked) and F,B (F marked) in the pairing group rank=(colex(t R/L)*70+colex(x R/L))*432+index of the F/B pattern goal=orbit of solved under U D R2 L2 F2 B2 Rw2 Lw2 Fw2 Bw2".into(),
            Reduction5::ETriple => "5x5x5-tredges three midges (slot order) with their high and low wings rank=(colex(12c3)*1320+high placement)*1320+low placement goal=paired in the E slice".into(),
            Reduction5::EFour => "5x5x5-tredges four midges (slot order) with their high and low wings, all in the R/L layers' eight dedges, up to the rotations none x2 y2 z2 rank=class(colex(8c4)*1680+high placement)*1680+rotated low placement goal=paired in the E slice".into(),
            Reduction5::Last8 => "5x5x5-tredges U/D-layer high and low wings -> midge slot, equal parity, up to the slot symmetries of the moves rank=offset(class(high))+index of least low goal=identity".into(),
            Reduction5::Last8Centres => "5x5x5-tredges U/D-layer low wings -> midge slot with t- and x-centres U,D (U marked) rank=(lehmer8*70+colex(t,8c4))*70+colex(x,8c4) goal=identity, solved".into(),
            Reduction5::SplitEoClasses => format!("words, the classes of ({}): per colex(24c12) rank below C(23,12) class<<5|symmetry taking it to the class's least mask, then per class its least mask, then per class the bits of the symmetries fixing it", Reduction5::SplitEo.describe()),
        }
    }

    /// Number of ranks.
    pub fn size(self) -> u64 {
        match self {
            Reduction5::LrParity => LR_PARITY,
            Reduction5::FbEo => FB_EO,
            Reduction5::WingsSplit => SPLIT_SETS,
            Reduction5::MidPair => factorial(12),
            Reduction5::SplitEo => crate::split5::SPLIT_EO_ENTRIES,
            Reduction5::ESlice(_) => crate::pair5::E_SLICE_STATES,
            Reduction5::ETriple => crate::pair5::E_TRIPLE_STATES,
            Reduction5::EFour => crate::pair5::E_FOUR_RL_ENTRIES,
            Reduction5::EFourBoth { .. } => crate::pair5::E_FOUR_BOTH_ENTRIES,
            Reduction5::Sides => crate::pair5::SIDE_STATES,
            Reduction5::Last8 => crate::pair5::LAST8_STATES,
            Reduction5::Last8Centres => crate::pair5::LAST8_CENTRES_STATES,
            Reduction5::SplitEoClasses => crate::split5::SPLIT_EO_CLASS_WORDS,
        }
    }
}

/// One block of one centre orbit of the 5x5x5: the facelets of `faces`,
/// those of colour `marked` set.
fn centre_block(orbit: Orbit, faces: Vec<Face>, marked: Face) -> ProjectionDef {
    ProjectionDef {
        n: 5,
        orbit,
        blocks: vec![Block {
            faces,
            marked: vec![marked],
        }],
    }
}

/// The L/R X-centres among the side faces with the wing parity: rank
/// `2 * staging + odd`.
pub struct LrParitySpace {
    /// The X-centres' projection (R and L marked).
    pub x: FaceletMaskSpace,
    /// Per move: whether it permutes the wings oddly.
    pub odd: Vec<bool>,
}

impl LrParitySpace {
    /// The space under `moves` (which must keep U/D staged).
    pub fn new(moves: &[Move]) -> Result<LrParitySpace, ModelError> {
        use Face::*;
        let t = Tredges::new();
        let def = ProjectionDef {
            n: 5,
            orbit: Orbit::XCentres(1),
            blocks: vec![Block {
                faces: vec![R, F, L, B],
                marked: vec![R, L],
            }],
        };
        Ok(LrParitySpace {
            x: projection::build(&def, moves)?,
            odd: moves
                .iter()
                .map(|&m| t.wing_move(m).map(|p| odd(&p)))
                .collect::<Result<_, _>>()?,
        })
    }
}

impl Space for LrParitySpace {
    fn size(&self) -> u64 {
        LR_PARITY
    }
    fn goals(&self) -> Vec<u64> {
        vec![2 * self.x.rank(self.x.goal_mask())]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let m = self.x.unrank(rank / 2);
        for (i, &o) in self.odd.iter().enumerate() {
            if !f(2 * self.x.rank(self.x.apply(m, i)) + (rank & 1 ^ o as u64)) {
                return;
            }
        }
    }
}

/// The F/B T- and X-centres (which of the eight of each orbit are
/// F-coloured) with the midge flips: rank `(t * 70 + x) * 2048 + flips`.
pub struct FbEoSpace {
    /// The T-centres' projection (F marked among F and B).
    pub t: FaceletMaskSpace,
    /// The X-centres' projection.
    pub x: FaceletMaskSpace,
    /// The midge flips.
    pub eo: MidgeEoSpace,
    goals: Vec<u64>,
}

impl FbEoSpace {
    /// The space under `moves` (which must keep every centre on its axis).
    pub fn new(moves: &[Move]) -> Result<FbEoSpace, ModelError> {
        use Face::*;
        let tdef = centre_block(Orbit::TCentres(1), vec![F, B], F);
        let xdef = centre_block(Orbit::XCentres(1), vec![F, B], F);
        let t = projection::build(&tdef, moves)?;
        let x = projection::build(&xdef, moves)?;
        // The pairing group's orbit of solved, on both projections at once.
        let group = cube4::pairing_moves();
        let (tg, xg) = (
            projection::build(&tdef, &group)?,
            projection::build(&xdef, &group)?,
        );
        let start = (tg.goal_mask(), xg.goal_mask());
        let mut seen = std::collections::BTreeSet::from([start]);
        let mut stack = vec![start];
        while let Some((a, b)) = stack.pop() {
            for i in 0..group.len() {
                let n = (tg.apply(a, i), xg.apply(b, i));
                if seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        let goals = seen
            .into_iter()
            .map(|(a, b)| (t.rank(a) * 70 + x.rank(b)) * 2048)
            .collect();
        Ok(FbEoSpace {
            t,
            x,
            eo: MidgeEoSpace::new(moves)?,
            goals,
        })
    }

    /// Rank of (T mask, X mask, flip mask).
    #[inline]
    pub fn rank(&self, t: u64, x: u64, eo: u16) -> u64 {
        (self.t.rank(t) * 70 + self.x.rank(x)) * 2048 + MidgeEoSpace::rank(eo)
    }
}

impl Space for FbEoSpace {
    fn size(&self) -> u64 {
        FB_EO
    }
    fn goals(&self) -> Vec<u64> {
        self.goals.clone()
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let eo = MidgeEoSpace::unrank(rank % 2048);
        let tx = rank / 2048;
        let (t, x) = (self.t.unrank(tx / 70), self.x.unrank(tx % 70));
        for i in 0..self.eo.moves.len() {
            let r = self.rank(self.t.apply(t, i), self.x.apply(x, i), self.eo.apply(eo, i));
            if !f(r) {
                return;
            }
        }
    }
}

/// Which wing slots hold high wings (bit `s` for slot `s`).
pub struct WingsSplitSpace {
    /// Per move, the image of each slot.
    pub moves: Vec<[u8; 24]>,
    /// Per move, per byte of a mask, the image of each byte value.
    byte_maps: Vec<[[u32; 256]; 3]>,
    /// Per byte of a mask and set bits below it, the byte's part of the
    /// colex rank (`rank_parts[(byte * 13 + below) * 256 + value]`).
    rank_parts: Vec<u32>,
    /// The masks by rank, made on first use (a solver only ranks).
    sets: std::sync::OnceLock<Vec<u32>>,
}

impl WingsSplitSpace {
    /// The space under `moves` (turns of at most two layers).
    pub fn new(moves: &[Move]) -> Result<WingsSplitSpace, ModelError> {
        let t = Tredges::new();
        let moves: Vec<[u8; 24]> = moves
            .iter()
            .map(|&m| t.wing_move(m))
            .collect::<Result<_, _>>()?;
        let byte_maps = moves
            .iter()
            .map(|p| {
                std::array::from_fn(|byte| {
                    std::array::from_fn(|v| {
                        let mut out = 0u32;
                        for k in 0..8 {
                            if v >> k & 1 == 1 {
                                out |= 1 << p[byte * 8 + k];
                            }
                        }
                        out
                    })
                })
            })
            .collect();
        Ok(WingsSplitSpace {
            moves,
            byte_maps,
            rank_parts: {
                let binom = binomials(24);
                let mut t = vec![0u32; 3 * 13 * 256];
                for byte in 0..3 {
                    for below in 0..13 {
                        for v in 0..256usize {
                            let mut r = 0u64;
                            let mut k = below;
                            for j in 0..8 {
                                if v >> j & 1 == 1 {
                                    k += 1;
                                    if k <= 24 {
                                        r += binom[8 * byte + j][k];
                                    }
                                }
                            }
                            t[(byte * 13 + below) * 256 + v] = r as u32;
                        }
                    }
                }
                t
            },
            sets: std::sync::OnceLock::new(),
        })
    }

    /// The mask of a rank (see [`WingsSplitSpace::rank`]).
    #[inline]
    pub fn unrank_mask(&self, rank: u64) -> u32 {
        self.sets.get_or_init(|| crate::perm::bit_sets(24, 12))[rank as usize]
    }

    /// The mask of a wing reading (piece per slot, high pieces `0..12`).
    pub fn mask(pieces: &[u8; 24]) -> u32 {
        pieces
            .iter()
            .enumerate()
            .filter(|(_, &p)| p < 12)
            .fold(0, |m, (s, _)| m | 1 << s)
    }

    /// Applies move `i`.
    #[inline]
    pub fn apply(&self, mask: u32, i: usize) -> u32 {
        let [a, b, c] = &self.byte_maps[i];
        a[(mask & 0xff) as usize] | b[(mask >> 8 & 0xff) as usize] | c[(mask >> 16) as usize]
    }

    /// Colex rank of a 12-slot mask.
    #[inline]
    pub fn rank(&self, mask: u32) -> u64 {
        let (b0, b1, b2) = (mask & 0xff, mask >> 8 & 0xff, mask >> 16 & 0xff);
        // Set bits counted by lookup (no hardware popcount on the baseline
        // target).
        let c0 = BYTE_ONES[b0 as usize] as u32;
        let c1 = (c0 + BYTE_ONES[b1 as usize] as u32).min(12);
        let t = &self.rank_parts;
        (t[b0 as usize]
            + t[(13 + c0.min(12) as usize) * 256 + b1 as usize]
            + t[(26 + c1 as usize) * 256 + b2 as usize]) as u64
    }
}

impl Space for WingsSplitSpace {
    fn size(&self) -> u64 {
        SPLIT_SETS
    }
    fn goals(&self) -> Vec<u64> {
        vec![self.rank(0xfff)]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let m = self.unrank_mask(rank);
        for i in 0..self.moves.len() {
            if !f(self.rank(self.apply(m, i))) {
                return;
            }
        }
    }
}

/// The midges' flips as 12 bits (bit `s` for slot `s`, dedge numbering); rank:
/// the low 11 bits (the flips' sum is even). A part of [`FbEoSpace`].
pub struct MidgeEoSpace {
    /// Per move, the image of each slot and the flip added on the way.
    pub moves: Vec<([u8; 12], [u8; 12])>,
}

impl MidgeEoSpace {
    /// The space under `moves` (moves that keep the middle centres).
    pub fn new(moves: &[Move]) -> Result<MidgeEoSpace, ModelError> {
        let t = Tredges::new();
        Ok(MidgeEoSpace {
            moves: moves
                .iter()
                .map(|&m| t.midge_move(m))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The flip mask of a midge reading.
    pub fn mask(flip: &[u8; 12]) -> u16 {
        flip.iter()
            .enumerate()
            .fold(0, |m, (s, &f)| m | u16::from(f & 1) << s)
    }

    /// Applies move `i`.
    #[inline]
    pub fn apply(&self, mask: u16, i: usize) -> u16 {
        let (to, flip) = &self.moves[i];
        let mut out = 0;
        for (s, &t) in to.iter().enumerate() {
            let t = t as usize;
            out |= ((mask >> s & 1) ^ u16::from(flip[t])) << t;
        }
        out
    }

    /// Rank: the first 11 flips.
    #[inline]
    pub fn rank(mask: u16) -> u64 {
        u64::from(mask & 0x7ff)
    }

    /// The mask of a rank.
    pub fn unrank(rank: u64) -> u16 {
        let m = rank as u16 & 0x7ff;
        m | ((m.count_ones() as u16 & 1) << 11)
    }
}

/// The high wings relative to the midges: `sigma[h]` is the midge slot of the
/// tredge whose high wing is in high slot `h`. Paired is the identity; a move
/// with high-slot images `hi` and midge images `mid` maps `sigma` to
/// `mid . sigma . hi^-1`. The wide half turns move high wings and no midge,
/// an odd permutation of the high slots, so both parities occur: 12! ranks.
pub struct MidPairSpace {
    /// Per move: images of the 12 high slots and of the 12 midge slots.
    pub moves: Vec<([u8; 12], [u8; 12])>,
}

impl MidPairSpace {
    /// The space under `moves`; an error if a move mixes the wing classes or
    /// flips a midge (the pairing group does neither).
    pub fn new(moves: &[Move]) -> Result<MidPairSpace, ModelError> {
        let t = Tredges::new();
        let moves = moves
            .iter()
            .map(|&m| {
                let [hi, _, to] = t.class_move(m)?;
                Ok((hi, to))
            })
            .collect::<Result<_, ModelError>>()?;
        Ok(MidPairSpace { moves })
    }

    /// `sigma` of a state given, per tredge, the high slot of its high wing and
    /// the slot of its midge.
    pub fn sigma(hi: &[u8; 12], mid: &[u8; 12]) -> [u8; 12] {
        crate::perm::relative12(hi, mid)
    }

    /// `sigma` after move `i`.
    #[inline]
    pub fn apply(&self, sigma: &[u8; 12], i: usize) -> [u8; 12] {
        let (hi, mid) = &self.moves[i];
        crate::perm::relative12_moved(sigma, hi, mid)
    }

    /// Lehmer rank of `sigma` (`0..12!`).
    #[inline]
    pub fn rank(sigma: &[u8; 12]) -> u64 {
        crate::perm::rank12(sigma)
    }

    /// The `sigma` of a rank.
    #[inline]
    pub fn unrank(r: u64) -> [u8; 12] {
        crate::perm::unrank12(r)
    }
}

impl Space for MidPairSpace {
    fn size(&self) -> u64 {
        factorial(12)
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    fn for_each_neighbour(&self, rank: u64, mut f: impl FnMut(u64) -> bool) {
        let s = Self::unrank(rank);
        for i in 0..self.moves.len() {
            if !f(Self::rank(&self.apply(&s, i))) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perm::perm_rank;

    /// Recolouring an even set of tredges: a legal state whose midges of
    /// the set read flipped and whose wings of the set trade classes; twice
    /// is the identity; it commutes with moves.
    #[test]
    fn recolour_flips_tredges() {
        let c5 = CubeN::new(5);
        let t = Tredges::new();
        let r = Recolour::new();
        let alg = crate::notation::parse_alg("Rw U' Fw2 D Lw' B2 Uw R' Dw2 F").unwrap();
        for set in [0b11u16, 0b1010_0000_0101, 0xfff] {
            let mut s = c5.solved();
            r.apply(&mut s, set);
            crate::validate::validate(&c5, &s).unwrap();
            let (piece, flip) = t.read_midges(&s).unwrap();
            for e in 0..12 {
                assert_eq!(piece[e] as usize, e);
                assert_eq!(flip[e] as u16, set >> e & 1, "set {set:b} dedge {e}");
            }
            let wings = t.wings.read(&part4(&s)).unwrap();
            for (slot, &p) in wings.iter().enumerate() {
                let swapped = set >> (slot % 12) & 1 == 1;
                let want = if swapped { (slot + 12) % 24 } else { slot };
                assert_eq!(p as usize, want, "set {set:b} slot {slot}");
            }
            let mut a = c5.solved();
            c5.apply_alg(&mut a, &alg);
            r.apply(&mut a, set);
            let mut b = s.clone();
            c5.apply_alg(&mut b, &alg);
            assert_eq!(a, b);
            r.apply(&mut a, set);
            let mut c = c5.solved();
            c5.apply_alg(&mut c, &alg);
            assert_eq!(a, c);
        }
    }

    #[test]
    fn part4_follows_the_4x4x4() {
        let c5 = CubeN::new(5);
        let c4 = CubeN::new(4);
        let alg = crate::notation::parse_alg("Rw U' Fw2 D Lw' B2 Uw R' Dw2 F x y'").unwrap();
        let mut s5 = c5.solved();
        c5.apply_alg(&mut s5, &alg);
        let mut s4 = c4.solved();
        c4.apply_alg(&mut s4, &alg);
        assert_eq!(part4(&s5), s4);
        assert!(move4(crate::notation::parse_token("3Rw").unwrap()).is_err());
    }

    #[test]
    fn sigma_rank_round_trip() {
        let mut x = 12345u64;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (x >> 20) % factorial(12);
            let s = MidPairSpace::unrank(r);
            assert_eq!(MidPairSpace::rank(&s), r);
            assert_eq!(perm_rank(&s), r);
        }
    }

    #[test]
    fn pairing_group_keeps_midge_orientation_and_wing_classes() {
        let t = Tredges::new();
        let sp = MidPairSpace::new(&cube4::pairing_moves()).unwrap();
        assert_eq!(sp.moves.len(), 20);
        // F quarter turns flip four midges; Rw mixes the wing classes.
        let (_, flip) = t.midge_move(Move::face(Face::F, 1)).unwrap();
        assert_eq!(flip.iter().filter(|&&f| f == 1).count(), 4);
        assert!(MidPairSpace::new(&[Move::block(Face::R, 2, 1)]).is_err());
    }

    #[test]
    fn reading_follows_the_moves() {
        // sigma of a scrambled state, moved by the space, equals sigma read off
        // the facelets after the move.
        let c5 = CubeN::new(5);
        let t = Tredges::new();
        let moves = cube4::pairing_moves();
        let sp = MidPairSpace::new(&moves).unwrap();
        let eo = MidgeEoSpace::new(&moves).unwrap();
        let split = WingsSplitSpace::new(&moves).unwrap();
        let read = |s: &[u8]| {
            let w = t.wings.read(&part4(s)).unwrap();
            let (mp, fl) = t.read_midges(s).unwrap();
            let mut hi = [0u8; 12];
            let mut mid = [0u8; 12];
            for (slot, &p) in w.iter().enumerate().take(12) {
                hi[p as usize] = slot as u8;
            }
            for (slot, &p) in mp.iter().enumerate() {
                mid[p as usize] = slot as u8;
            }
            (
                MidPairSpace::sigma(&hi, &mid),
                MidgeEoSpace::mask(&fl),
                WingsSplitSpace::mask(&w),
            )
        };
        let mut s = c5.solved();
        let mut x = 7u64;
        for _ in 0..300 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (x >> 33) as usize % moves.len();
            let (sig, e, m) = read(&s);
            c5.apply(&mut s, moves[i]);
            let (sig2, e2, m2) = read(&s);
            assert_eq!(sp.apply(&sig, i), sig2);
            assert_eq!(eo.apply(e, i), e2);
            assert_eq!(split.apply(m, i), m2);
        }
    }
}
