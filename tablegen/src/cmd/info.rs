//! `tablegen info`.

use super::resolve;
use std::path::Path;
use tablegen::outln;

#[derive(clap::Args)]
pub struct Args {
    /// A table id or an artifact file.
    table: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(tables: &Path, args: Args) -> anyhow::Result<()> {
    let at = resolve(tables, &args.table)?.at;
    let path = at.path();
    let opened = at.header(&tablefmt::OpenOptions {
        verify_checksum: false,
        ..tablefmt::OpenOptions::default()
    })?;
    let h = opened.header;
    let shards: Vec<String> = opened.shards.map_or_else(Vec::new, |(idx, _)| {
        idx.shards.iter().map(|s| s.file.clone()).collect()
    });
    // A word table's histogram counts its layout's parts, not depths.
    let word = h.encoding == tablefmt::Encoding::Word;
    let max_depth = (!word).then(|| h.histogram.len().saturating_sub(1));
    if args.json {
        outln!(
            "{}",
            serde_json::json!({
                "id": h.id,
                "file": path.display().to_string(),
                "states": h.states,
                "max_depth": max_depth,
                "histogram": h.histogram,
                "bytes": h.bytes,
                "checksum": (!h.checksum.is_empty()).then_some(&h.checksum),
                "encoding": h.encoding.to_string(),
                "definition_hash": format!("{:016x}", h.definition_hash),
                "generator": h.generator,
                "format_version": h.format_version,
                "meta": h.meta.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(),
                "shards": shards,
            })
        )?;
    } else {
        outln!("file       {}", path.display())?;
        outln!("id         {}", h.id)?;
        outln!("states     {}", h.states)?;
        if let Some(max_depth) = max_depth {
            outln!("max depth  {max_depth}")?;
            outln!(
                "histogram  {}",
                tablegen::catalog::format_histogram(&h.histogram)
            )?;
        } else {
            outln!(
                "parts      {}",
                tablegen::catalog::format_parts(&h.histogram)
            )?;
        }
        outln!("encoding   {}", h.encoding)?;
        outln!("bytes      {}", h.bytes)?;
        if shards.is_empty() {
            outln!("checksum   {}", h.checksum)?;
        } else {
            // The whole payload's checksum is `verify`'s to compute.
            outln!("shards     {}", shards.len())?;
        }
        outln!("definition {:016x}", h.definition_hash)?;
        outln!("generator  {}", h.generator)?;
        for (k, v) in &h.meta {
            outln!("{k:<10} {v}")?;
        }
    }
    Ok(())
}
