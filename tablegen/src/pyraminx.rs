//! The Pyraminx: six edges, four centres (axial pieces) and four tips.
//!
//! Vertices are `U` (top), `L` (front left), `R` (front right), `B` (back). A move
//! turns the layer around a vertex 120 degrees clockwise seen looking at that
//! vertex from outside (WCA). Without tips a position is an even permutation of
//! the edges (360), their flips (2^5) and the twist of the centres (3^4): 933,120.
//! Tips add 3^4 = 81 and commute with everything.
//!
//! The model is combinatorial: a vertex turn permutes the other three vertices,
//! and an edge sticker is the ordered pair `(c, d)` of the two vertices *not* on
//! its edge, lying on the face opposite `c`; a turn maps it to `(s(c), s(d))`.

use crate::bfs::Space;
use crate::notation::TokenError;
use crate::perm::{even_perm_rank, even_perm_unrank};

/// Number of positions without tips.
pub const STATES: u64 = 360 * 32 * 81;

/// Vertex names, in index order.
pub const VERTICES: [char; 4] = ['U', 'L', 'R', 'B'];

/// The edge slots as vertex pairs.
const EDGES: [(u8, u8); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

/// A Pyraminx move: a vertex (0..4), `tip` for the tip alone, clockwise (1) or
/// anticlockwise (2) third turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PyraMove {
    /// Vertex index (U L R B).
    pub vertex: u8,
    /// Tip only (`u l r b`).
    pub tip: bool,
    /// 1 = clockwise, 2 = anticlockwise.
    pub turns: u8,
}

impl std::fmt::Display for PyraMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = VERTICES[self.vertex as usize];
        let c = if self.tip { c.to_ascii_lowercase() } else { c };
        write!(f, "{c}{}", if self.turns == 2 { "'" } else { "" })
    }
}

/// Parses a Pyraminx algorithm (`U L' r b'`), naming the bad token and position.
pub fn parse_alg(s: &str) -> Result<Vec<PyraMove>, crate::notation::NotationError> {
    let mut out = Vec::new();
    for (i, (offset, tok)) in crate::notation::tokens(s).enumerate() {
        let err = |reason: TokenError| crate::notation::NotationError {
            token: tok.to_string(),
            index: i + 1,
            offset,
            reason,
        };
        let mut ch = tok.chars();
        let c = ch.next().ok_or_else(|| err(TokenError::Empty))?;
        let vertex = VERTICES
            .iter()
            .position(|&v| v == c.to_ascii_uppercase())
            .ok_or_else(|| err(TokenError::PyraminxVertex))?;
        let rest: String = ch.collect();
        let turns = match rest.as_str() {
            "" => 1,
            "'" => 2,
            _ => return Err(err(TokenError::PyraminxSuffix)),
        };
        out.push(PyraMove {
            vertex: vertex as u8,
            tip: c.is_ascii_lowercase(),
            turns,
        });
    }
    Ok(out)
}

/// The permutation of the vertices that a clockwise turn about vertex `v` makes,
/// from the geometry of a regular tetrahedron (U on top, a face towards F).
pub fn vertex_cycle(v: usize) -> [u8; 4] {
    let rho = 8f64.sqrt() / 3.0;
    let at = |deg: f64| {
        [
            rho * deg.to_radians().cos(),
            -1.0 / 3.0,
            rho * deg.to_radians().sin(),
        ]
    };
    // x = right, y = up, z = front: L front-left, R front-right, B back.
    let pts = [[0.0, 1.0, 0.0], at(150.0), at(30.0), at(270.0)];
    let k = pts[v];
    let mut sigma = [0u8; 4];
    for (i, p) in pts.iter().enumerate() {
        // Rotation by -120 degrees about k (clockwise seen from outside).
        let th = (-120f64).to_radians();
        let (s, c) = th.sin_cos();
        let cross = [
            k[1] * p[2] - k[2] * p[1],
            k[2] * p[0] - k[0] * p[2],
            k[0] * p[1] - k[1] * p[0],
        ];
        let d = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
        let q: Vec<f64> = (0..3)
            .map(|j| p[j] * c + cross[j] * s + k[j] * d * (1.0 - c))
            .collect();
        let j = pts
            .iter()
            .position(|t| (0..3).all(|a| (t[a] - q[a]).abs() < 1e-9))
            .expect("a tetrahedron rotation maps vertices to vertices");
        sigma[i] = j as u8;
    }
    sigma
}

fn edge_slot(a: u8, b: u8) -> usize {
    let key = (a.min(b), a.max(b));
    EDGES.iter().position(|&e| e == key).expect("an edge")
}

/// The piece-level position (tips apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pyra {
    /// Edge piece in each slot.
    pub ep: [u8; 6],
    /// Flip of the edge in each slot.
    pub eo: [u8; 6],
    /// Twist of each centre (clockwise thirds).
    pub co: [u8; 4],
}

impl Pyra {
    /// Solved.
    pub const SOLVED: Pyra = Pyra {
        ep: [0, 1, 2, 3, 4, 5],
        eo: [0; 6],
        co: [0; 4],
    };

    /// Applies a big-layer move (tips are tracked by the caller).
    pub fn apply(&self, vertex: usize, turns: u8) -> Pyra {
        let mut p = *self;
        for _ in 0..turns {
            let sigma = vertex_cycle(vertex);
            let mut next = p;
            for (s, &(a, b)) in EDGES.iter().enumerate() {
                if a as usize != vertex && b as usize != vertex {
                    continue;
                }
                let (c, d) = complement(a, b);
                let t = edge_slot(sigma[a as usize], sigma[b as usize]);
                let flip = (sigma[c as usize] > sigma[d as usize]) as u8;
                next.ep[t] = p.ep[s];
                next.eo[t] = p.eo[s] ^ flip;
            }
            next.co[vertex] = (p.co[vertex] + 1) % 3;
            p = next;
        }
        p
    }

    /// Rank in `0..STATES`.
    pub fn rank(&self) -> u64 {
        let e = even_perm_rank(&self.ep);
        let o = (0..5).fold(0u64, |a, i| a * 2 + self.eo[i] as u64);
        let c = (0..4).fold(0u64, |a, i| a * 3 + self.co[i] as u64);
        (e * 32 + o) * 81 + c
    }

    /// Position of a rank.
    pub fn unrank(r: u64) -> Pyra {
        let mut c = r % 81;
        let o = (r / 81) % 32;
        let e = r / 81 / 32;
        let ep: [u8; 6] = even_perm_unrank(e, 6).try_into().expect("6 edges");
        let mut eo = [0u8; 6];
        for (i, e) in eo.iter_mut().take(5).enumerate() {
            *e = ((o >> (4 - i)) & 1) as u8;
        }
        eo[5] = eo.iter().sum::<u8>() % 2;
        let mut co = [0u8; 4];
        for i in (0..4).rev() {
            co[i] = (c % 3) as u8;
            c /= 3;
        }
        Pyra { ep, eo, co }
    }
}

fn complement(a: u8, b: u8) -> (u8, u8) {
    let rest: Vec<u8> = (0..4).filter(|&v| v != a && v != b).collect();
    (rest[0], rest[1])
}

/// The Pyraminx without tips as a ranked space; moves `U U' L L' R R' B B'`.
pub struct PyraminxSpace {
    edge_move: Vec<[u16; 8]>,
    flip_move: Vec<[u8; 8]>,
    centre_move: Vec<[u8; 8]>,
}

/// Move index `m` = vertex * 2 + (0 clockwise, 1 anticlockwise).
pub fn move_of_index(m: usize) -> PyraMove {
    PyraMove {
        vertex: (m / 2) as u8,
        tip: false,
        turns: (m % 2) as u8 + 1,
    }
}

impl Default for PyraminxSpace {
    fn default() -> Self {
        Self::new()
    }
}

impl PyraminxSpace {
    /// Builds the coordinate move tables.
    pub fn new() -> PyraminxSpace {
        let mut edge_move = vec![[0u16; 8]; 360];
        let mut flip_move = vec![[0u8; 8]; 32];
        let mut centre_move = vec![[0u8; 8]; 81];
        for m in 0..8 {
            let mv = move_of_index(m);
            for (e, row) in edge_move.iter_mut().enumerate() {
                let p = Pyra::unrank(e as u64 * 32 * 81).apply(mv.vertex as usize, mv.turns);
                row[m] = (p.rank() / 81 / 32) as u16;
            }
            for (o, row) in flip_move.iter_mut().enumerate() {
                let p = Pyra::unrank(o as u64 * 81).apply(mv.vertex as usize, mv.turns);
                row[m] = ((p.rank() / 81) % 32) as u8;
            }
            for (c, row) in centre_move.iter_mut().enumerate() {
                let p = Pyra::unrank(c as u64).apply(mv.vertex as usize, mv.turns);
                row[m] = (p.rank() % 81) as u8;
            }
        }
        PyraminxSpace {
            edge_move,
            flip_move,
            centre_move,
        }
    }

    /// Applies move index `m` to a rank.
    #[inline]
    pub fn apply(&self, r: u64, m: usize) -> u64 {
        let c = (r % 81) as usize;
        let o = ((r / 81) % 32) as usize;
        let e = (r / 81 / 32) as usize;
        (self.edge_move[e][m] as u64 * 32 + self.flip_move[o][m] as u64) * 81
            + self.centre_move[c][m] as u64
    }
}

impl Space for PyraminxSpace {
    fn size(&self) -> u64 {
        STATES
    }
    fn goals(&self) -> Vec<u64> {
        vec![0]
    }
    #[inline]
    fn for_each_neighbour(&self, r: u64, mut f: impl FnMut(u64) -> bool) {
        for m in 0..8 {
            if !f(self.apply(r, m)) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u_turn_cycles_l_b_r() {
        // Seen from above with F at the bottom: L (lower left) -> B (top) -> R.
        assert_eq!(vertex_cycle(0), [0, 3, 1, 2]);
        for v in 0..4 {
            let s = vertex_cycle(v);
            assert_eq!(s[v] as usize, v);
            let s3: Vec<u8> = (0..4).map(|i| s[s[s[i] as usize] as usize]).collect();
            assert_eq!(s3, vec![0, 1, 2, 3]);
        }
    }

    #[test]
    fn moves_have_order_three_and_flip_evenly() {
        for v in 0..4 {
            let p = Pyra::SOLVED.apply(v, 1);
            assert_eq!(p.eo.iter().sum::<u8>() % 2, 0);
            assert_eq!(p.apply(v, 2), Pyra::SOLVED);
        }
    }

    #[test]
    fn rank_round_trip_and_tables() {
        let s = PyraminxSpace::new();
        for r in (0..STATES).step_by(611) {
            let p = Pyra::unrank(r);
            assert_eq!(p.rank(), r);
            for m in 0..8 {
                let mv = move_of_index(m);
                assert_eq!(s.apply(r, m), p.apply(mv.vertex as usize, mv.turns).rank());
            }
        }
    }

    #[test]
    fn notation() {
        let alg = parse_alg("U L' r b'").unwrap();
        let txt: Vec<String> = alg.iter().map(|m| m.to_string()).collect();
        assert_eq!(txt.join(" "), "U L' r b'");
        assert!(parse_alg("U2").is_err());
        assert!(parse_alg("F").is_err());
    }
}
