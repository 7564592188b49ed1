//! `tablegen list`.

use tablegen::artifact::{check_against_catalog, locate, Located};
use tablegen::catalog::catalog;
use tablegen::outln;

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(tables: &std::path::Path, args: Args) -> anyhow::Result<()> {
    super::check_tables_dir(tables)?;
    let mut rows = Vec::new();
    for t in catalog() {
        let at = locate(tables, t.id);
        let (status, size, shards) = status(&t, at.as_ref());
        rows.push(serde_json::json!({
            "id": t.id,
            "puzzle": t.puzzle,
            "states": t.expected_states,
            "moves": t.move_names(),
            "storage": t.storage(),
            "encoding": t.encoding.to_string(),
            "expected_payload_bytes": t.expected_payload_bytes(),
            "built": status == Status::Built,
            "status": status.name(),
            "bytes": size,
            "shards": shards,
            "summary": t.summary,
        }));
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(());
    }
    outln!(
        "{:<26} {:<9} {:>12} {:>6} {:<6} {:>12} {:<6}",
        "id",
        "puzzle",
        "states",
        "moves",
        "kind",
        "size",
        "built"
    )?;
    for (t, r) in catalog().iter().zip(&rows) {
        let states = if t.expected_states > 0 {
            t.expected_states.to_string()
        } else {
            "-".into()
        };
        let size = match r["bytes"].as_u64() {
            Some(b) => human(b),
            None if t.expected_payload_bytes() > 0 => {
                format!("~{}", human(t.expected_payload_bytes()))
            }
            None => "-".into(),
        };
        outln!(
            "{:<26} {:<9} {:>12} {:>6} {:<6} {:>12} {:<6}",
            t.id,
            t.puzzle,
            states,
            t.move_names().len(),
            t.storage(),
            size,
            match r["status"].as_str() {
                Some("built") => "yes",
                Some("missing") => "no",
                Some(other) => other,
                None => "?",
            }
        )?;
    }
    Ok(())
}

/// Whether a table is built.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    /// The file holds this table, built from the catalog's definition (header
    /// checked, payload checksum not: that is `verify`'s job).
    Built,
    /// No file.
    Missing,
    /// The file holds another table, or one built from another definition.
    Mismatched,
    /// The file cannot be read as a table.
    Damaged,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Built => "built",
            Status::Missing => "missing",
            Status::Mismatched => "mismatched",
            Status::Damaged => "damaged",
        }
    }
}

/// A table's status, its bytes (a sharded table's in all) and its number of
/// shards (none for one file).
fn status(
    def: &tablegen::catalog::TableDef,
    at: Option<&Located>,
) -> (Status, Option<u64>, Option<usize>) {
    let Some(at) = at else {
        return (Status::Missing, None, None);
    };
    let opts = tablefmt::OpenOptions {
        verify_checksum: false,
        ..tablefmt::OpenOptions::default()
    };
    match at.header(&opts) {
        Ok(o) => {
            let status = if check_against_catalog(def, &o.header).is_ok() {
                Status::Built
            } else {
                Status::Mismatched
            };
            let shards = o.shards.map(|(idx, _)| idx.shards.len());
            (status, Some(o.header.bytes), shards)
        }
        Err(_) => {
            let size = match at {
                Located::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
                Located::Shards(_) => None,
            };
            (Status::Damaged, size, None)
        }
    }
}

/// Bytes in human units.
pub fn human(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.1} KiB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}
