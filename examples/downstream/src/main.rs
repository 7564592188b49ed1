//! Solving a 3x3x3 and a 4x4x4 from shipped tables, in a project of its own.
//!
//! `cargo run --release -- [TABLES_DIR]` (default: $CUBE_TABLES, else
//! `tables`). Tables missing there are built on first use (progress on
//! standard error).

use solvers::puzzle::{Input, Options};
use solvers::registry;
use std::path::PathBuf;

const SCRAMBLES: [(&str, &str); 2] = [
    ("3x3x3", "R U R' U' F2 D L2 B' U2 R'"),
    (
        "4x4x4",
        "Rw U2 x Rw U2 Rw U2 Rw' U2 Lw U2 Rw' U2 Rw U2 Rw' U2 Rw'",
    ),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir: PathBuf = std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("CUBE_TABLES"))
        .map_or_else(|| PathBuf::from("tables"), PathBuf::from);

    // A table file, opened and checked byte by byte by tablefmt.
    let table = tablefmt::Table::open(
        &dir.join("3x3x3-phase1-twist-flip.tbl"),
        &tablefmt::OpenOptions::default(),
    )?;
    let info = table.info();
    println!(
        "{}: {} states, checksum {}",
        info.id, info.states, info.checksum
    );

    for (name, scramble) in SCRAMBLES {
        let p = registry::find(name)?;
        let position = p.parse(&Input::Scramble(scramble))?;
        let solver = p.load(&dir, false)?;
        let solution = solver.solve(&position, &Options::default())?;
        let solved = position.state.after(&solution.moves)?.is_solved();
        println!(
            "{name}: {} ({} moves, solved: {solved})",
            solution.text(),
            solution.moves.len()
        );
        if !solved {
            return Err(format!("{name}: the solution does not solve the scramble").into());
        }
    }
    Ok(())
}
