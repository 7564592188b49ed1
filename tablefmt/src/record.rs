//! Verification records: a table file hashed in full once is not hashed again
//! at every open while it is still the same file.
//!
//! Hashing a table's whole payload touches every page of it. For the large
//! tables of the big cubes that is most of a solver's start-up, while the
//! solve itself reads a few thousand entries. So after a full check passes,
//! the checker may leave a record beside the file, `DIR/.NAME.verified`: the
//! file's identity (device, inode, length, modification and change times to
//! the nanosecond) and its payload checksum. An open that trusts records
//! ([`crate::OpenOptions::trust_record`]) skips the payload hash when the
//! record names exactly the file it opened and the checksum its header holds;
//! everything else (structure, header hash, id, padding) is still checked.
//!
//! Why a record cannot vouch for changed bytes:
//! - A file replaced by rename (how tables are written) is a new inode.
//! - A write in place sets the modification time to the current time. A
//!   record is only written for a file whose modification time is at least
//!   [`SETTLE`] older than the start of the hash it records, so such a write,
//!   before or after the hash, leaves a time the record does not hold, even
//!   on file systems whose clock ticks coarsely.
//! - Setting the times back by hand changes the change time.
//!
//! What a record does not cover: bytes that rot on the disk with no write at
//! all (`tablegen verify` hashes every byte whenever asked), and platforms
//! without inode numbers (there, nothing is recorded and every open hashes).
//! Records are best effort: one that cannot be written or read only means
//! the next open hashes in full.

use crate::error::FormatError;
use std::ffi::OsString;
use std::fs::{File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// First line of a record.
const MAGIC: &str = "tablefmt-verified 1";

/// How much older than the start of a full hash a file's last modification
/// must be for the hash to be recorded: more than any file system's
/// timestamp granularity.
pub const SETTLE: Duration = Duration::from_secs(2);

/// Where the record of table file `path` is: `DIR/.NAME.verified`.
pub fn record_path(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let mut rec = OsString::from(".");
    rec.push(name);
    rec.push(".verified");
    Some(crate::staged::parent_dir(path).join(rec))
}

/// The identity of the file `md` describes, as a record holds it.
#[cfg(unix)]
fn identity(md: &Metadata) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    Some(format!(
        "{} {} {} {}.{:09} {}.{:09}",
        md.dev(),
        md.ino(),
        md.len(),
        md.mtime(),
        md.mtime_nsec(),
        md.ctime(),
        md.ctime_nsec()
    ))
}

#[cfg(not(unix))]
fn identity(_: &Metadata) -> Option<String> {
    None
}

/// The whole text of the record of the file `md` describes, with payload
/// checksum `checksum`.
fn contents(md: &Metadata, checksum: u128) -> Option<String> {
    Some(format!("{MAGIC}\n{}\n{checksum:032x}\n", identity(md)?))
}

/// True if the record beside `path` names the file `md` describes (the one
/// opened) and payload checksum `checksum`.
pub(crate) fn matches(path: &Path, md: &Metadata, checksum: u128) -> bool {
    let (Some(rec), Some(want)) = (record_path(path), contents(md, checksum)) else {
        return false;
    };
    // Look before opening: opening a FIFO or a device could block.
    if !std::fs::metadata(&rec).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(f) = File::open(rec) else {
        return false;
    };
    // A record is under 200 bytes: read one byte more than it should be, so
    // that a longer file never matches.
    let mut text = String::new();
    let limit = want.len() as u64 + 1;
    f.take(limit).read_to_string(&mut text).is_ok() && text == want
}

/// Writes the record of the file just hashed in full: `file`, opened at
/// `path`, whose metadata was `before` when the hash began at `hashed_at`.
/// Nothing is written (and `false` returned) unless the file is unchanged
/// since then, `path` still names it, and its last modification is at least
/// [`SETTLE`] older than `hashed_at`.
pub(crate) fn write(
    path: &Path,
    file: &File,
    before: &Metadata,
    hashed_at: SystemTime,
    checksum: u128,
) -> bool {
    let settled = before
        .modified()
        .ok()
        .and_then(|m| hashed_at.duration_since(m).ok())
        .is_some_and(|age| age >= SETTLE);
    let id = identity(before);
    let unchanged = id.is_some()
        && file.metadata().ok().and_then(|m| identity(&m)) == id
        && std::fs::metadata(path).ok().and_then(|m| identity(&m)) == id;
    let (true, true, Some(rec), Some(text)) = (
        settled,
        unchanged,
        record_path(path),
        contents(before, checksum),
    ) else {
        return false;
    };
    crate::write_atomic(&rec, text.as_bytes()).is_ok()
}

/// Sets the modification time of the table file just written at `path`
/// [`SETTLE`] in the past, so that the full check that follows the write can
/// be recorded at once (see the module documentation: a later write in place
/// sets a time the record does not hold).
pub fn settle(path: &Path) -> Result<(), FormatError> {
    let f = File::options()
        .write(true)
        .open(path)
        .map_err(|e| FormatError::io(path, "cannot open to set its time", e))?;
    f.set_modified(SystemTime::now() - SETTLE - Duration::from_millis(100))
        .map_err(|e| FormatError::io(path, "cannot set the modification time", e))
}

/// After writing the table file at `path`: sets its modification time back
/// ([`settle`]), checks it in full from the disk and records the check.
/// Returns whether a record was written; a file that fails the check is an
/// error (what was written is not what reads back).
pub fn settle_and_record(path: &Path) -> Result<bool, FormatError> {
    if settle(path).is_err() {
        return Ok(false);
    }
    let opts = crate::OpenOptions {
        write_record: true,
        ..crate::OpenOptions::default()
    };
    let table = crate::Table::open(path, &opts)?;
    Ok(table.verified() == crate::Verified::HashedAndRecorded)
}
