//! A manifest entry read and checked: its form (`parse_entry`) and, once
//! its table is decompressed, the table's header against it
//! (`check_header`).

use super::*;
use crate::artifact::CatalogMismatch;
use std::fmt;

/// Why a manifest entry, or the table it names, is not what it should be.
#[derive(Debug)]
pub(super) enum EntryError {
    /// The entry is not a JSON object.
    NotObject,
    /// Field `key` is absent or not a `what` (a string, a count, ...).
    Missing {
        key: &'static str,
        what: &'static str,
    },
    /// The id is not of a table id's form.
    NotTableId(String),
    /// The id is no table of the catalog.
    NotInCatalog(String),
    /// The table was built from another definition than the catalog's.
    OtherDefinition {
        id: String,
        got: String,
        want: String,
    },
    /// A sharded table's index is not named after the table.
    IndexName { got: String, want: String },
    /// Something wrong with shard `k`'s fields.
    Shard { k: usize, error: Box<EntryError> },
    /// A sharded table with no shards.
    NoShards,
    /// `"shards"` is neither absent nor a list.
    ShardsNotList,
    /// Field `key` is not `len` lower-case hex digits.
    NotHex {
        key: &'static str,
        value: String,
        len: usize,
    },
    /// Field `key` names a file outside the release directory.
    NotPlainFileName { key: &'static str, value: String },
    /// The table's header disagrees with the catalog.
    Catalog(CatalogMismatch),
    /// A field of the table's header differs from the entry's.
    Field {
        name: &'static str,
        got: String,
        want: String,
    },
    /// The table's state count differs from the catalog's figure.
    CatalogStates { got: u64, want: u64 },
    /// The table's histogram differs from the catalog's.
    CatalogHistogram { got: Vec<u64>, want: Vec<u64> },
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::NotObject => write!(f, "not an object"),
            EntryError::Missing { key, what } => write!(f, "no \"{key}\" {what}"),
            EntryError::NotTableId(id) => write!(f, "{} is not a table id", quote(id)),
            EntryError::NotInCatalog(id) => write!(
                f,
                "{} is not in the catalog (see `tablegen list`)",
                quote(id)
            ),
            EntryError::OtherDefinition { id, got, want } => write!(
                f,
                "{id}: \"definition_hash\" {got} is not the catalog's {want} (a table built from another definition)"
            ),
            EntryError::IndexName { got, want } => {
                write!(f, "\"index\" {} is not {want}", quote(got))
            }
            EntryError::Shard { k, error } => write!(f, "shard {k}: {error}"),
            EntryError::NoShards => write!(f, "\"shards\" is empty"),
            EntryError::ShardsNotList => write!(f, "\"shards\" is not a list"),
            EntryError::NotHex { key, value, len } => write!(
                f,
                "\"{key}\" is {}, not {len} lower-case hex digits",
                quote(value)
            ),
            EntryError::NotPlainFileName { key, value } => write!(
                f,
                "\"{key}\" {} is not a plain file name in the release directory",
                quote(value)
            ),
            EntryError::Catalog(m) => write!(f, "{m}"),
            EntryError::Field { name, got, want } => write!(
                f,
                "{name} is {}, the manifest says {}",
                cut(got),
                cut(want)
            ),
            EntryError::CatalogStates { got, want } => {
                write!(f, "{got} states, the catalog expects {want}")
            }
            EntryError::CatalogHistogram { got, want } => write!(
                f,
                "histogram {got:?} differs from the catalog's {want:?}"
            ),
        }
    }
}

impl std::error::Error for EntryError {}

/// Compares a decompressed table's header with every field of its manifest
/// entry and with the catalog.
pub(super) fn check_header(e: &Entry, h: &tablefmt::HeaderInfo) -> Result<(), EntryError> {
    check_against_catalog(&e.def, h).map_err(EntryError::Catalog)?;
    let hash = format!("{:016x}", h.definition_hash);
    let fields: [(&'static str, String, String); 5] = [
        ("checksum", h.checksum.clone(), e.checksum.clone()),
        ("bytes", h.bytes.to_string(), e.bytes.to_string()),
        ("states", h.states.to_string(), e.states.to_string()),
        (
            "histogram",
            format!("{:?}", h.histogram),
            format!("{:?}", e.histogram),
        ),
        ("definition_hash", hash, e.definition_hash.clone()),
    ];
    for (name, got, want) in fields {
        if got != want {
            return Err(EntryError::Field { name, got, want });
        }
    }
    // The states reached (a dense table's ranks can be more).
    let reached: u64 = h.histogram.iter().sum();
    if e.def.expected_states > 0 && reached != e.def.expected_states {
        return Err(EntryError::CatalogStates {
            got: reached,
            want: e.def.expected_states,
        });
    }
    if let Some(want) = e.def.expected_histogram {
        if h.histogram.as_slice() != want {
            return Err(EntryError::CatalogHistogram {
                got: h.histogram.clone(),
                want: want.to_vec(),
            });
        }
    }
    Ok(())
}

/// A long field value for a message (a histogram), cut.
fn cut(s: &str) -> String {
    if s.chars().count() <= 120 {
        s.to_string()
    } else {
        let head: String = s.chars().take(120).collect();
        format!("{head}…")
    }
}

/// Checks an entry's form: a catalog id, a plain file name, the checksums,
/// SHA-256 hashes and figures `tablegen publish` writes.
pub(super) fn parse_entry(t: &serde_json::Value) -> Result<Entry, EntryError> {
    if !t.is_object() {
        return Err(EntryError::NotObject);
    }
    let number = |key: &'static str| -> Result<u64, EntryError> {
        t[key]
            .as_u64()
            .ok_or(EntryError::Missing { key, what: "count" })
    };
    let id = text(t, "id")?;
    if !catalog::is_id_syntax(id) {
        return Err(EntryError::NotTableId(id.to_string()));
    }
    let def = catalog::find(id).ok_or_else(|| EntryError::NotInCatalog(id.to_string()))?;
    let histogram = t["histogram"]
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_u64()).collect::<Option<Vec<_>>>())
        .ok_or(EntryError::Missing {
            key: "histogram",
            what: "list of counts",
        })?;
    let definition_hash = hex(t, "definition_hash", 16)?;
    let want_hash = format!("{:016x}", def.definition_hash());
    if definition_hash != want_hash {
        return Err(EntryError::OtherDefinition {
            id: id.to_string(),
            got: definition_hash,
            want: want_hash,
        });
    }
    let checksum = hex(t, "checksum", 32)?;
    let form = match &t["shards"] {
        serde_json::Value::Null => Form::File(compressed(t, &checksum)?),
        serde_json::Value::Array(list) => {
            let index = plain_file_name(t, "index")?;
            let want = format!("{id}{}", tablefmt::SHARD_INDEX_SUFFIX);
            if index != want {
                return Err(EntryError::IndexName { got: index, want });
            }
            let shards = list
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    hex(s, "checksum", 32)
                        .and_then(|sum| compressed(s, &sum))
                        .map_err(|error| EntryError::Shard {
                            k,
                            error: Box::new(error),
                        })
                })
                .collect::<Result<Vec<_>, EntryError>>()?;
            if shards.is_empty() {
                return Err(EntryError::NoShards);
            }
            Form::Shards {
                index,
                index_sha256: hex(t, "index_sha256", 64)?,
                shards,
            }
        }
        _ => return Err(EntryError::ShardsNotList),
    };
    Ok(Entry {
        checksum,
        form,
        bytes: number("bytes")?,
        states: number("states")?,
        histogram,
        definition_hash,
        def,
    })
}

/// Field `k` of `t`, a string.
fn text<'a>(t: &'a serde_json::Value, key: &'static str) -> Result<&'a str, EntryError> {
    t[key].as_str().ok_or(EntryError::Missing {
        key,
        what: "string",
    })
}

/// Field `k` of `t`, `len` lower-case hex digits.
fn hex(t: &serde_json::Value, key: &'static str, len: usize) -> Result<String, EntryError> {
    let v = text(t, key)?;
    if v.len() == len
        && v.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(v.to_string())
    } else {
        Err(EntryError::NotHex {
            key,
            value: v.to_string(),
            len,
        })
    }
}

/// Field `k` of `t`, a plain file name in the release directory.
fn plain_file_name(t: &serde_json::Value, key: &'static str) -> Result<String, EntryError> {
    let file = text(t, key)?;
    if is_plain_file_name(file) {
        Ok(file.to_string())
    } else {
        Err(EntryError::NotPlainFileName {
            key,
            value: file.to_string(),
        })
    }
}

/// The fields of a compressed file in an entry (the table's or a shard's),
/// whose table file has payload checksum `checksum`.
fn compressed(t: &serde_json::Value, checksum: &str) -> Result<Compressed, EntryError> {
    let compressed_bytes = match &t["compressed_bytes"] {
        serde_json::Value::Null => None,
        v => Some(v.as_u64().ok_or(EntryError::Missing {
            key: "compressed_bytes",
            what: "count",
        })?),
    };
    Ok(Compressed {
        file: plain_file_name(t, "file")?,
        checksum: checksum.to_string(),
        sha256: hex(t, "sha256", 64)?,
        compressed_checksum: hex(t, "compressed_checksum", 32)?,
        compressed_sha256: hex(t, "compressed_sha256", 64)?,
        compressed_bytes,
    })
}

/// A file name with no directory part: not empty, no separator, not `.` or
/// `..`, not absolute.
pub(super) fn is_plain_file_name(name: &str) -> bool {
    let p = Path::new(name);
    !name.is_empty()
        && !name.contains(['/', '\\', '\0'])
        && name != "."
        && name != ".."
        && !p.is_absolute()
        && p.components().count() == 1
        && matches!(p.components().next(), Some(std::path::Component::Normal(_)))
}
