//! The nested route's lists of cycles as tables ([`CycleSpace`]): its
//! setups, the orbits they are made for, the tables' entries, and a list
//! read back for any N-cube.

use super::*;

/// The turns the nested route sets its cycles up with on any N-cube: each
/// face's quarter, half and anticlockwise turns, of one layer and of two.
pub fn route_turns() -> Vec<Move> {
    Face::ALL
        .iter()
        .flat_map(|&f| (1..=3u8).flat_map(move |t| [Move::face(f, t), Move::block(f, 2, t)]))
        .collect()
}

/// The nested route's setups on `cube`: none, one or two of [`route_turns`],
/// kept.
pub fn route_setups(cube: &CubeN) -> Vec<Setup> {
    sequences(&route_turns())
        .into_iter()
        .map(|s| setup(cube, s, true))
        .collect()
}

/// The centre facelets of an N-cube whose row and column lie at depths 1
/// and `d` (`d >= 2`): the nested route's blocks at depth `d`.
pub fn route_group(n: usize, d: usize) -> Vec<usize> {
    (0..6 * n * n)
        .filter(|&i| {
            let (a, b) = (depth((i / n) % n, n), depth(i % n, n));
            (a, b) == (1, d) || (a, b) == (d, 1)
        })
        .collect()
}

/// A table of the nested route's cycles of one kind of orbit: which cycle
/// behind which route setup ([`route_setups`]) the route keeps, once per
/// effect, as [`candidates`] makes them on the kind's reference cube, and
/// where each stands in its list. The list depends on no N: an N-cube's (at
/// its route's depths 1 and `d`) is the reference cube's with rows and
/// columns renamed ([`carry`]), so reading it is carrying each kept cycle's
/// facelets and sending them through its setup, without reading the
/// millions of (cycle, setup) pairs the list is chosen from.
///
/// Stored as an FST map. A kept cycle's key is its base's and its setup's
/// indices (big-endian `u16` each); its value its place in the list and its
/// cost (`rank | cost << 24`). A base's three keys are a tag byte and its
/// index: `0xFD` its facelets' sources, `0xFE` their destinations (each
/// packed as [`pack_facelets`]), `0xFF` its moves ([`pack_moves`]). The
/// histogram counts the kept cycles by cost in outer block turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleSpace {
    /// Oblique centres with their mirrors, on the 8x8x8 at depths (1, 2).
    Oblique,
    /// T-centres, on the 7x7x7 at depths (1, 3).
    T,
}

/// The tag bytes of a base's keys: its pairs' sources, their destinations,
/// its moves. A kept cycle's key starts with its base's high byte, below
/// these.
const FROM_KEY: u8 = 0xFD;
const TO_KEY: u8 = 0xFE;
const MOVES_KEY: u8 = 0xFF;

impl CycleSpace {
    /// The reference cube's size and the depth of the orbit's other
    /// coordinate.
    pub fn reference(self) -> (usize, usize) {
        match self {
            CycleSpace::Oblique => (8, 2),
            CycleSpace::T => (7, 3),
        }
    }

    /// The kind of orbit.
    pub fn kind(self) -> OrbitKind {
        match self {
            CycleSpace::Oblique => OrbitKind::Oblique,
            CycleSpace::T => OrbitKind::T,
        }
    }

    /// The table of a kind, if it has one.
    pub fn of(kind: OrbitKind) -> Option<CycleSpace> {
        match kind {
            OrbitKind::Oblique => Some(CycleSpace::Oblique),
            OrbitKind::T => Some(CycleSpace::T),
            _ => None,
        }
    }

    /// The catalog id of the table.
    pub fn id(self) -> &'static str {
        match self {
            CycleSpace::Oblique => "nnn-route-oblique-cycles",
            CycleSpace::T => "nnn-route-t-cycles",
        }
    }

    /// What determines the table.
    pub fn describe(self) -> String {
        let (n, d) = self.reference();
        format!(
            "route-cycles kind={:?} reference={n}x{n}x{n} depths=(1,{d}) setups<=2 kept \
             key=base-u16be,setup-u16be value=rank|cost<<24 bases=0xFD/0xFE/0xFF+u16be",
            self.kind()
        )
    }

    /// The reference cube's layout.
    pub fn layout(self) -> Layout {
        let (n, d) = self.reference();
        Layout::centre(n, route_group(n, d)[0])
    }

    /// The reference cube's list, in order.
    pub fn list(self) -> Vec<Cand> {
        let (n, d) = self.reference();
        let cube = CubeN::new(n);
        let facelets = route_group(n, d);
        let mut lead = vec![false; cube.facelets()];
        facelets.iter().for_each(|&f| lead[f] = true);
        candidates(
            &cube,
            &facelets,
            &self.layout(),
            &lead,
            &route_setups(&cube),
        )
    }

    /// The table's entries, sorted by key, and its histogram (kept cycles
    /// by cost); the number of (cycle, setup) pairs read.
    pub fn entries(self) -> Result<(Entries, Vec<u64>, u64), String> {
        let cands = self.list();
        let bases = bases(self.kind());
        let mut out = Vec::with_capacity(cands.len() + 3 * bases.len());
        let mut histogram = Vec::new();
        for (rank, c) in cands.iter().enumerate() {
            if c.leads != c.len {
                return Err("a centre cycle with a facelet that leads no unit".into());
            }
            if rank >= 1 << 24 || c.base >= u32::from(FROM_KEY) << 8 || c.setup >= 1 << 16 {
                return Err(format!("cycle {rank} does not fit its key and value"));
            }
            let key = [
                (c.base as u16).to_be_bytes(),
                (c.setup as u16).to_be_bytes(),
            ]
            .concat();
            out.push((key, rank as u64 | u64::from(c.cost) << 24));
            if histogram.len() <= c.cost as usize {
                histogram.resize(c.cost as usize + 1, 0);
            }
            histogram[c.cost as usize] += 1;
        }
        for (i, b) in bases.iter().enumerate() {
            let [hi, lo] = u16::try_from(i)
                .map_err(|_| "more bases than keys")?
                .to_be_bytes();
            let (from, to): (Vec<u16>, Vec<u16>) = b.pairs.iter().copied().unzip();
            out.push((vec![FROM_KEY, hi, lo], pack_facelets(&from)?));
            out.push((vec![TO_KEY, hi, lo], pack_facelets(&to)?));
            out.push((vec![MOVES_KEY, hi, lo], pack_moves(&b.moves)?));
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if out.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err("a cycle kept twice behind one setup".into());
        }
        let read = bases.len() as u64 * sequences(&route_turns()).len() as u64;
        Ok((out, histogram, read))
    }
}

/// A sparse table's sorted (key, value) pairs.
pub type Entries = Vec<(Vec<u8>, u64)>;

/// Up to [`MAX_PAIRS`] facelet indices below 512, 9 bits each, the first in
/// the lowest bits, and their count in the top 4 bits.
pub fn pack_facelets(f: &[u16]) -> Result<u64, String> {
    if f.len() > MAX_PAIRS || f.iter().any(|&x| x >= 512) {
        return Err(format!(
            "{} facelets, up to {}",
            f.len(),
            f.iter().max().unwrap_or(&0)
        ));
    }
    let bits = f.iter().rev().fold(0u64, |v, &x| v << 9 | u64::from(x));
    Ok(bits | (f.len() as u64) << 60)
}

/// The facelets [`pack_facelets`] packed.
pub fn unpack_facelets(v: u64) -> impl Iterator<Item = u32> {
    (0..(v >> 60) as usize).map(move |i| (v >> (9 * i) & 511) as u32)
}

/// A move as one byte (0 for none): its face, its kind (a face turn or a
/// single inner layer up to the 9th) and its turns.
fn move_code(m: Move) -> Option<u8> {
    let layer = match m.kind {
        MoveKind::Block(1) => 0,
        MoveKind::Slice(d) if (2..=9).contains(&d) => d - 1,
        _ => return None,
    };
    Some(1 + (m.face as u8 * 9 + layer) * 3 + (m.turns - 1))
}

/// A base's moves (at most 8, face turns and single inner layers), one byte
/// each ([`move_code`]), the first in the lowest byte.
pub fn pack_moves(moves: &[Move]) -> Result<u64, String> {
    if moves.len() > 8 {
        return Err(format!(
            "a cycle of {} moves (at most 8 are stored)",
            moves.len()
        ));
    }
    moves.iter().rev().try_fold(0u64, |v, &m| {
        let c = move_code(m).ok_or_else(|| format!("a cycle turns {m}, which is not stored"))?;
        Ok(v << 8 | u64::from(c))
    })
}

/// The moves [`pack_moves`] packed.
pub fn unpack_moves(mut v: u64) -> Option<Vec<Move>> {
    let mut out = Vec::new();
    while v != 0 {
        let c = (v & 0xFF) as u8 - 1;
        v >>= 8;
        let (turns, rest) = (c % 3 + 1, c / 3);
        let (layer, face) = (rest % 9, rest / 9);
        let face = *Face::ALL.get(face as usize)?;
        out.push(if layer == 0 {
            Move::face(face, turns)
        } else {
            layer_turn(face, layer as usize, turns)
        });
    }
    Some(out)
}

/// Where facelet `f` of an `n0`-cube stands on an `n`-cube, given the
/// `n`-cube layer of each `n0`-cube layer ([`carry_coords`]), if its row
/// and column have one.
#[inline]
pub fn carry(coord: &[u32], n0: usize, n: usize, f: u32) -> Option<u32> {
    let f = f as usize;
    let (face, r, c) = (f / (n0 * n0), (f / n0) % n0, f % n0);
    let (r, c) = (*coord.get(r)?, *coord.get(c)?);
    (r != u32::MAX && c != u32::MAX).then(|| (face as u32 * n as u32 + r) * n as u32 + c)
}

/// The `n`-cube layer of each of an `n0`-cube's layers (`u32::MAX` for
/// none) between two layouts of one kind.
pub fn carry_coords(n0: usize, lay0: &Layout, n: usize, lay: &Layout) -> Vec<u32> {
    let mut coord = vec![u32::MAX; n0];
    for (&x0, &x) in lay0.map.iter().zip(&lay.map) {
        if x0 < n0 && x < n {
            coord[x0] = x as u32;
        }
    }
    coord
}

/// A cycle table's list read for an N-cube laid out as `lay`, behind the
/// route's `setups` on that cube ([`route_setups`]): every entry (key,
/// value), in any order, goes to the callback `entries` is given. Returns
/// the cycles in their order and each base's moves.
pub fn read_list(
    space: CycleSpace,
    n: usize,
    lay: &Layout,
    setups: &[Setup],
    entries: impl FnOnce(&mut dyn FnMut(&[u8], u64)),
) -> Result<(Vec<Cand>, Vec<Vec<Move>>), String> {
    let (n0, _) = space.reference();
    let lay0 = space.layout();
    if lay.kind != lay0.kind {
        return Err(format!(
            "a {:?} layout for the {:?} cycles",
            lay.kind, lay0.kind
        ));
    }
    let coord = carry_coords(n0, &lay0, n, lay);
    let mut kept: Vec<(u16, u16, u32, u32)> = crate::huge_vec(1 << 20);
    let mut from: Vec<Option<u64>> = Vec::new();
    let mut to: Vec<Option<u64>> = Vec::new();
    let mut moves: Vec<Option<u64>> = Vec::new();
    let mut fault: Option<String> = None;
    entries(&mut |key: &[u8], v: u64| {
        let set = |list: &mut Vec<Option<u64>>, i: usize| {
            if list.len() <= i {
                list.resize(i + 1, None);
            }
            list[i] = Some(v);
        };
        match *key {
            [tag, hi, lo] if tag >= FROM_KEY => {
                let i = u16::from_be_bytes([hi, lo]) as usize;
                match tag {
                    FROM_KEY => set(&mut from, i),
                    TO_KEY => set(&mut to, i),
                    _ => set(&mut moves, i),
                }
            }
            [b0, b1, s0, s1] => kept.push((
                u16::from_be_bytes([b0, b1]),
                u16::from_be_bytes([s0, s1]),
                (v & 0xFF_FFFF) as u32,
                (v >> 24) as u32,
            )),
            _ => fault = Some(format!("a key of {} bytes", key.len())),
        }
    });
    if let Some(f) = fault {
        return Err(f);
    }
    let missing = || "a base's entry missing".to_string();
    let moves: Vec<Vec<Move>> = (moves.into_iter())
        .map(|v| v.and_then(unpack_moves))
        .collect::<Option<_>>()
        .ok_or_else(missing)?;
    // Each base's pairs on the N-cube.
    let mut pairs: Vec<Vec<(u32, u32)>> = Vec::with_capacity(moves.len());
    for i in 0..moves.len() {
        let (Some(Some(f)), Some(Some(t))) = (from.get(i), to.get(i)) else {
            return Err(missing());
        };
        let p: Option<Vec<(u32, u32)>> = unpack_facelets(*f)
            .zip(unpack_facelets(*t))
            .map(|(f, t)| Some((carry(&coord, n0, n, f)?, carry(&coord, n0, n, t)?)))
            .collect();
        match p {
            Some(p) if (1..=MAX_PAIRS).contains(&p.len()) => pairs.push(p),
            _ => return Err("a base's facelets off its orbit".into()),
        }
    }
    // Each kept cycle made in the table's order (by base, then setup: each
    // base's and setup's facelets read in turn) and put in its place in the
    // list (a cycle moves at least one facelet: an empty place has none).
    const EMPTY: Cand = Cand {
        base: 0,
        setup: 0,
        cost: 0,
        moved: [(0, 0); MAX_PAIRS],
        len: 0,
        leads: 0,
    };
    let mut cands = crate::huge_vec(kept.len());
    cands.resize(kept.len(), EMPTY);
    for (base, setup, rank, cost) in kept {
        let (Some(p), Some(s)) = (pairs.get(base as usize), setups.get(setup as usize)) else {
            return Err("a kept cycle of a base or setup the table does not hold".into());
        };
        // Sorted as they are made (at most six: an insertion sort).
        let mut moved = [(0u16, 0u16); MAX_PAIRS];
        for (k, &(f, t)) in p.iter().enumerate() {
            let x = (s.dest[f as usize] as u16, s.dest[t as usize] as u16);
            let mut j = k;
            while j > 0 && moved[j - 1] > x {
                moved[j] = moved[j - 1];
                j -= 1;
            }
            moved[j] = x;
        }
        // Every kept cycle in a place of its own below their count: so
        // every place is filled.
        match cands.get_mut(rank as usize) {
            Some(slot) if slot.len == 0 => {
                *slot = Cand {
                    base: u32::from(base),
                    setup: u32::from(setup),
                    cost,
                    moved,
                    len: p.len() as u8,
                    leads: p.len() as u8,
                }
            }
            _ => return Err("two kept cycles in one place of the list, or one past it".into()),
        }
    }
    Ok((cands, moves))
}
