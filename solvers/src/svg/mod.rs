//! Pictures of positions: the unfolded net of a cube, Domino or Pyraminx as a
//! plain SVG document (no scripts, no styles a browser needs to fetch).
//!
//! Every facelet is one shape (`class="facelet"`) filled with its colour and
//! named by `data-facelet`: the face letter and the facelet's index on that
//! face, in the order of the state string (row by row). Colours are cubing.js's:
//! U white, F green, R red, D yellow, L orange, B blue; on the Pyraminx F green,
//! L red, R blue, D yellow.
//!
//! Cubes and the Domino: U above F, then L F R B in a row, D below F, each face
//! as it is seen on the usual net (the state string's convention). The Pyraminx:
//! see [`pyraminx`].
//!
//! This module draws; it does not check positions (the parsers do that).

pub mod pyraminx;

use crate::puzzle::{Position, State};
use crate::{Solution, SolveError};
use std::fmt::Write;
use tablegen::notation::Face;

/// Fill colour of each cube face, in `U R F D L B` order.
pub const CUBE_COLOURS: [&str; 6] = [
    "#ffffff", // U white
    "#ff0000", // R red
    "#32cd32", // F green
    "#ffff00", // D yellow
    "#ffa500", // L orange
    "#2266ff", // B blue
];

/// A picture of a position of the named puzzle; `title` goes in the SVG's
/// `<title>` (a tooltip in browsers).
pub fn draw(position: &Position, title: &str) -> Result<String, SolveError> {
    match &position.state {
        State::Cube(st) => {
            let n = cube_size(st.len())?;
            Ok(cube_net(n, st, title))
        }
        State::Domino(cp, ep) => Ok(domino_net(cp, ep, title)),
        State::Pyraminx(p) => Ok(pyraminx::net(p, title)),
    }
}

/// N of an NxNxN cube with `facelets` facelets.
fn cube_size(facelets: usize) -> Result<usize, SolveError> {
    (2..=64)
        .find(|n| 6 * n * n == facelets)
        .ok_or_else(|| SolveError::Internal(format!("no cube has {facelets} facelets")))
}

/// Facelet pitch in picture units, and the gap between two faces.
const CELL: f64 = 10.0;
const GAP: f64 = 4.0;

/// One face of a rectangular net: its letter, size in facelets and colours
/// (row by row, as [`Face`] numbers).
struct NetFace<'a> {
    face: Face,
    rows: usize,
    cols: usize,
    colours: &'a [u8],
}

/// The cross-shaped net of six rectangular faces given in `U R F D L B` order:
/// U above F, L F R B in a row, D below F.
fn rect_net(faces: &[NetFace; 6], title: &str) -> String {
    let [u, r, f, d, l, b] = faces;
    let side_w = |x: &NetFace| x.cols as f64 * CELL + GAP;
    let top = u.rows as f64 * CELL + GAP;
    let x0 = [
        (u, side_w(l)),
        (l, 0.0),
        (f, side_w(l)),
        (r, side_w(l) + side_w(f)),
        (b, side_w(l) + side_w(f) + side_w(r)),
        (d, side_w(l)),
    ];
    let y0 = |x: &NetFace| match x.face {
        Face::U => 0.0,
        Face::D => top + f.rows as f64 * CELL + GAP,
        _ => top,
    };
    let width = x0[4].1 + b.cols as f64 * CELL;
    let height = top + f.rows as f64 * CELL + GAP + d.rows as f64 * CELL;
    let mut svg = Picture::new(width, height, title);
    for (face, x) in x0 {
        let y = y0(face);
        for (i, &c) in face.colours.iter().enumerate() {
            let (row, col) = (i / face.cols, i % face.cols);
            svg.rect(
                x + col as f64 * CELL,
                y + row as f64 * CELL,
                CUBE_COLOURS[c as usize % 6],
                face.face.letter(),
                i,
            );
        }
    }
    svg.finish()
}

/// The net of an NxNxN cube (facelets as [`tablegen::cube::CubeN`] numbers them).
pub fn cube_net(n: usize, state: &[u8], title: &str) -> String {
    let nn = n * n;
    let faces = Face::ALL.map(|face| NetFace {
        face,
        rows: n,
        cols: n,
        colours: &state[face as usize * nn..(face as usize + 1) * nn],
    });
    rect_net(&faces, title)
}

/// The net of a Domino: U and D 3x3, the sides two rows of three.
pub fn domino_net(cp: &[u8; 8], ep: &[u8; 8], title: &str) -> String {
    let text = crate::domino::format_state(cp, ep);
    let colours: Vec<u8> = text
        .chars()
        .map(|c| Face::from_letter(c).map_or(0, |f| f as u8))
        .collect();
    let mut at = 0;
    let faces = Face::ALL.map(|face| {
        let rows = if matches!(face, Face::U | Face::D) {
            3
        } else {
            2
        };
        let part = &colours[at..at + rows * 3];
        at += rows * 3;
        NetFace {
            face,
            rows,
            cols: 3,
            colours: part,
        }
    });
    rect_net(&faces, title)
}

/// An SVG document being written.
struct Picture {
    out: String,
}

impl Picture {
    /// Starts a document `width` x `height` units, drawn at 4 pixels a unit
    /// (or less, for wide pictures) with a margin.
    fn new(width: f64, height: f64, title: &str) -> Picture {
        let scale = (4.0f64).min(1600.0 / width.max(height));
        let m = 2.0;
        let mut out = String::new();
        let _ = write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" \
             viewBox=\"{} {} {} {}\" width=\"{:.0}\" height=\"{:.0}\">\n\
             <title>{}</title>\n\
             <g stroke=\"#000000\" stroke-width=\"0.6\" stroke-linejoin=\"round\">\n",
            -m,
            -m,
            width + 2.0 * m,
            height + 2.0 * m,
            (width + 2.0 * m) * scale,
            (height + 2.0 * m) * scale,
            escape(title)
        );
        Picture { out }
    }

    fn rect(&mut self, x: f64, y: f64, fill: &str, face: char, index: usize) {
        let _ = writeln!(
            self.out,
            "<rect class=\"facelet\" data-facelet=\"{face}{index}\" x=\"{x}\" y=\"{y}\" \
             width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
        );
    }

    fn polygon(&mut self, points: &[(f64, f64)], fill: &str, face: char, index: usize) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.3},{y:.3}"))
            .collect();
        let _ = writeln!(
            self.out,
            "<polygon class=\"facelet\" data-facelet=\"{face}{index}\" points=\"{}\" fill=\"{fill}\"/>",
            pts.join(" ")
        );
    }

    fn finish(mut self) -> String {
        self.out.push_str("</g>\n</svg>\n");
        self.out
    }
}

/// Text for XML character data and attribute values.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Pictures of a solve, stage by stage: `00-start.svg` (the position), then
/// `01-<phase>.svg` ... the position after each phase of `solution`, in
/// order (the last is solved). A 4x4x4 solution may report `("merged", k)`:
/// `k` moves vanished where one phase met the next, so a picture between two
/// phases may be up to `k` moves early (the last is exact).
pub fn solve_series(
    name: &str,
    position: &Position,
    solution: &Solution,
) -> Result<Vec<(String, String)>, SolveError> {
    let phases: Vec<&(String, usize)> = solution
        .phases
        .iter()
        .filter(|(k, _)| k != "merged")
        .collect();
    let mut out = vec![(
        "00-start.svg".to_string(),
        draw(position, &format!("{name}: start"))?,
    )];
    let total = solution.moves.len();
    let (mut done, mut counted) = (0, 0);
    let mut state = position.state.clone();
    for (i, (phase, count)) in phases.iter().enumerate() {
        counted += count;
        let end = if i + 1 == phases.len() {
            total
        } else {
            counted.min(total)
        };
        state = state.after(&solution.moves[done..end])?;
        done = end;
        let pos = Position {
            state: state.clone(),
            setup: None,
        };
        let title = format!("{name}: after {phase} ({count} moves)");
        out.push((
            format!("{:02}-{}.svg", i + 1, file_part(phase)),
            draw(&pos, &title)?,
        ));
    }
    Ok(out)
}

/// A phase name as part of a file name.
fn file_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
