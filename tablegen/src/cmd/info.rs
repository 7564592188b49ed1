//! `tablegen info`.

use super::resolve;
use std::path::Path;

#[derive(clap::Args)]
pub struct Args {
    /// A table id or an artifact file.
    table: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    let path = resolve(tables, &args.table)?;
    let h = tablefmt::read_header(&path)?;
    let max_depth = h.histogram.len().saturating_sub(1);
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "id": h.id,
                "file": path.display().to_string(),
                "states": h.states,
                "max_depth": max_depth,
                "histogram": h.histogram,
                "bytes": h.bytes,
                "checksum": h.checksum,
                "encoding": h.encoding.to_string(),
                "definition_hash": format!("{:016x}", h.definition_hash),
                "generator": h.generator,
                "format_version": h.format_version,
                "meta": h.meta.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(),
            })
        );
    } else {
        println!("file       {}", path.display());
        println!("id         {}", h.id);
        println!("states     {}", h.states);
        println!("max depth  {max_depth}");
        println!(
            "histogram  {}",
            tablegen::catalog::format_histogram(&h.histogram)
        );
        println!("encoding   {}", h.encoding);
        println!("bytes      {}", h.bytes);
        println!("checksum   {}", h.checksum);
        println!("definition {:016x}", h.definition_hash);
        println!("generator  {}", h.generator);
        for (k, v) in &h.meta {
            println!("{k:<10} {v}");
        }
    }
    Ok(())
}
