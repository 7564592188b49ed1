//! Where table artifacts live and how a build becomes a file.

use crate::catalog::{BuildOutput, Built, TableDef};
use std::path::{Path, PathBuf};
use tablefmt::{Encoding, TableMeta};

/// The table directory: `--tables DIR`, else `$CUBE_TABLES`, else the workspace's
/// `tables/`.
pub fn tables_dir(cli: Option<&Path>) -> PathBuf {
    if let Some(p) = cli {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("CUBE_TABLES") {
        if !p.is_empty() {
            return PathBuf::from(p);
        }
    }
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir.parent().unwrap_or(crate_dir).join("tables")
}

/// The artifact path of a table in a directory.
pub fn artifact_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.tbl"))
}

/// The generator string stored in headers.
pub fn generator() -> String {
    format!("tablegen {}", env!("CARGO_PKG_VERSION"))
}

/// Serialises a build into artifact bytes.
pub fn encode(def: &TableDef, out: &BuildOutput) -> Result<Vec<u8>, tablefmt::FormatError> {
    let meta = TableMeta {
        id: def.id.to_string(),
        definition_hash: def.definition_hash(),
        states: out.states(),
        histogram: out.histogram.clone(),
        generator: generator(),
        meta: vec![
            ("puzzle".into(), def.puzzle.into()),
            ("moves".into(), def.move_names().join(" ")),
            ("definition".into(), def.definition()),
        ],
    };
    match &out.data {
        Built::Dense(values) => match def.encoding {
            // Distance mod 3 is enough to walk downhill: neighbours differ by at
            // most one move, so the three candidates have distinct residues.
            Encoding::Trit => {
                let residues: Vec<u8> = values.iter().map(|&v| v % 3).collect();
                tablefmt::encode_dense(&meta, &residues, Encoding::Trit)
            }
            enc => tablefmt::encode_dense(&meta, values, enc),
        },
        Built::Sparse(entries) => {
            let fst = tablefmt::build_fst(entries.iter().map(|(k, v)| (k.as_slice(), *v)))?;
            tablefmt::encode_fst(&meta, fst)
        }
    }
}
