//! A manifest entry read and checked: its form (`parse_entry`) and, once
//! its table is decompressed, the table's header against it
//! (`check_header`).

use super::*;

/// Compares a decompressed table's header with every field of its manifest
/// entry and with the catalog.
pub(super) fn check_header(e: &Entry, h: &tablefmt::HeaderInfo) -> Result<(), String> {
    check_against_catalog(&e.def, h).map_err(|m| m.to_string())?;
    let hash = format!("{:016x}", h.definition_hash);
    let fields: [(&str, String, String); 5] = [
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
            return Err(format!(
                "{name} is {}, the manifest says {}",
                cut(&got),
                cut(&want)
            ));
        }
    }
    if e.def.expected_states > 0 && h.states != e.def.expected_states {
        return Err(format!(
            "{} states, the catalog expects {}",
            h.states, e.def.expected_states
        ));
    }
    if let Some(want) = e.def.expected_histogram {
        if h.histogram.as_slice() != want {
            return Err(format!(
                "histogram {:?} differs from the catalog's {:?}",
                h.histogram, want
            ));
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
pub(super) fn parse_entry(t: &serde_json::Value) -> Result<Entry, String> {
    if !t.is_object() {
        return Err("not an object".into());
    }
    let number = |k: &str| -> Result<u64, String> {
        t[k].as_u64().ok_or_else(|| format!("no \"{k}\" count"))
    };
    let id = text(t, "id")?;
    if !catalog::is_id_syntax(id) {
        return Err(format!("{} is not a table id", quote(id)));
    }
    let def = catalog::find(id)
        .ok_or_else(|| format!("{} is not in the catalog (see `tablegen list`)", quote(id)))?;
    let histogram = t["histogram"]
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_u64()).collect::<Option<Vec<_>>>())
        .ok_or("no \"histogram\" list of counts")?;
    let definition_hash = hex(t, "definition_hash", 16)?;
    let want_hash = format!("{:016x}", def.definition_hash());
    if definition_hash != want_hash {
        return Err(format!(
            "{id}: \"definition_hash\" {definition_hash} is not the catalog's {want_hash} (a table built from another definition)"
        ));
    }
    let checksum = hex(t, "checksum", 32)?;
    let form = match &t["shards"] {
        serde_json::Value::Null => Form::File(compressed(t, &checksum)?),
        serde_json::Value::Array(list) => {
            let index = plain_file_name(t, "index")?;
            if index != format!("{id}{}", tablefmt::SHARD_INDEX_SUFFIX) {
                return Err(format!(
                    "\"index\" {} is not {id}{}",
                    quote(&index),
                    tablefmt::SHARD_INDEX_SUFFIX
                ));
            }
            let shards = list
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    hex(s, "checksum", 32)
                        .and_then(|sum| compressed(s, &sum))
                        .map_err(|msg| format!("shard {k}: {msg}"))
                })
                .collect::<Result<Vec<_>, String>>()?;
            if shards.is_empty() {
                return Err("\"shards\" is empty".into());
            }
            Form::Shards {
                index,
                index_sha256: hex(t, "index_sha256", 64)?,
                shards,
            }
        }
        _ => return Err("\"shards\" is not a list".into()),
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
fn text<'a>(t: &'a serde_json::Value, k: &str) -> Result<&'a str, String> {
    t[k].as_str().ok_or_else(|| format!("no \"{k}\" string"))
}

/// Field `k` of `t`, `len` lower-case hex digits.
fn hex(t: &serde_json::Value, k: &str, len: usize) -> Result<String, String> {
    let v = text(t, k)?;
    if v.len() == len
        && v.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(v.to_string())
    } else {
        Err(format!(
            "\"{k}\" is {}, not {len} lower-case hex digits",
            quote(v)
        ))
    }
}

/// Field `k` of `t`, a plain file name in the release directory.
fn plain_file_name(t: &serde_json::Value, k: &str) -> Result<String, String> {
    let file = text(t, k)?;
    if is_plain_file_name(file) {
        Ok(file.to_string())
    } else {
        Err(format!(
            "\"{k}\" {} is not a plain file name in the release directory",
            quote(file)
        ))
    }
}

/// The fields of a compressed file in an entry (the table's or a shard's),
/// whose table file has payload checksum `checksum`.
fn compressed(t: &serde_json::Value, checksum: &str) -> Result<Compressed, String> {
    let compressed_bytes = match &t["compressed_bytes"] {
        serde_json::Value::Null => None,
        v => Some(v.as_u64().ok_or("\"compressed_bytes\" is not a count")?),
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
