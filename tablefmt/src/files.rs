//! Writing files atomically, and zstd compression for publishing.

use crate::error::{ErrorKind, FormatError};
use crate::staged::StagedFile;
use crate::table::{HeaderInfo, OpenOptions, Table};
use crate::MAX_FILE_BYTES;
use sha2::Digest;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

/// What kind of file a file type is, for messages: `"a regular file"`,
/// `"a directory"`, `"a symbolic link"`, `"a character device"` (`/dev/null`),
/// `"a block device"`, `"a FIFO"`, `"a socket"`.
pub fn file_kind(ft: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else if ft.is_symlink() {
        "a symbolic link"
    } else if ft.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Writes `bytes` to `path` atomically.
///
/// The bytes go to a uniquely named temporary file in the same directory, which is
/// flushed to disk (`fsync`) and then renamed over `path`; finally the directory is
/// synced so the rename itself is durable. Readers see either the old file or the
/// complete new one, never a partial file; concurrent writers of the same path do
/// not disturb each other (the last rename wins). On failure the temporary file is
/// removed and the error names `path`. Stale temporary files of `path`, left by
/// killed writers, are removed first (see [`crate::stale_temp_files`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FormatError> {
    StagedFile::create(path, |f| {
        f.write_all(bytes)
            .map_err(|e| FormatError::io(path, "cannot write", e))
    })?
    .commit()
}

/// xxh3-128 of `bytes` as 32 lower-case hex digits (the same digits `xxhsum -H2`
/// prints, and the form of [`crate::HeaderInfo::checksum`]).
pub fn checksum_hex(bytes: &[u8]) -> String {
    format!("{:032x}", twox_hash::XxHash3_128::oneshot(bytes))
}

/// xxh3-128 of byte slices end to end, as [`checksum_hex`] gives it (the
/// checksum of a sharded table's payloads, which is its one-file form's).
pub fn joined_checksum_hex<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut hasher = twox_hash::XxHash3_128::new();
    for p in parts {
        hasher.write(p);
    }
    format!("{:032x}", hasher.finish_128())
}

/// SHA-256 of `bytes` as 64 lower-case hex digits (what `sha256sum` prints).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&sha2::Sha256::digest(bytes))
}

/// SHA-256 of the whole file at `path`, as [`sha256_hex`] gives it (read in
/// chunks: the file is not held in memory).
pub fn file_sha256(path: &Path) -> Result<String, FormatError> {
    let mut file = File::open(path).map_err(|e| FormatError::io(path, "cannot open", e))?;
    let mut hasher = sha2::Sha256::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => hasher.update(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(FormatError::io(path, "cannot read", e)),
        }
    }
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Builds the bytes of an [`fst::Map`] from `(key, value)` pairs in strictly
/// increasing key order (fails with [`ErrorKind::Invalid`] otherwise).
pub fn build_fst<I, K>(entries: I) -> Result<Vec<u8>, FormatError>
where
    I: IntoIterator<Item = (K, u64)>,
    K: AsRef<[u8]>,
{
    let mut b = fst::MapBuilder::memory();
    for (i, (k, v)) in entries.into_iter().enumerate() {
        b.insert(k, v).map_err(|e| {
            FormatError::from(ErrorKind::Invalid(format!(
                "fst entry {i}: {}",
                crate::archive::one_line(e)
            )))
        })?;
    }
    b.into_inner().map_err(|e| {
        ErrorKind::Invalid(format!(
            "cannot finish the fst: {}",
            crate::archive::one_line(e)
        ))
        .into()
    })
}

/// Compresses a table file with zstd at `level` (1..=22; 19 is a good publishing
/// level) and writes `dst` atomically. Returns `(raw bytes, compressed bytes)`.
///
/// The source is not checked; run [`crate::verify`] first.
pub fn compress_file(src: &Path, dst: &Path, level: i32) -> Result<(u64, u64), FormatError> {
    let raw = std::fs::read(src).map_err(|e| FormatError::io(src, "cannot read", e))?;
    let z = zstd::bulk::compress(&raw, level)
        .map_err(|e| FormatError::io(src, format!("cannot compress (zstd level {level})"), e))?;
    write_atomic(dst, &z)?;
    Ok((raw.len() as u64, z.len() as u64))
}

/// Decompresses a zstd file made by [`compress_file`] into `dst`, atomically.
///
/// The decompressed bytes are fully checked as a table (structure and checksum)
/// before anything is renamed, so `dst` is either left as it was or replaced by a
/// valid table; the table's header is returned. Output larger than
/// [`crate::MAX_FILE_BYTES`] is refused.
pub fn decompress_file(src: &Path, dst: &Path) -> Result<HeaderInfo, FormatError> {
    let file = File::open(src).map_err(|e| FormatError::io(src, "cannot open", e))?;
    let (staged, header) = stage_decompressed(file, src, dst)?;
    staged.commit()?;
    Ok(header)
}

/// Decompresses zstd data (read from `compressed`; `src` names it in errors)
/// into a staged file for `dst` and fully checks the file written (structure and
/// payload checksum, as [`crate::verify`]), without putting it in place: the
/// caller checks the header, then commits ([`StagedFile::commit`],
/// [`crate::commit_all`]) or drops it. Output larger than
/// [`crate::MAX_FILE_BYTES`] is refused. Faults of the data name `src`.
pub fn stage_decompressed(
    compressed: impl Read,
    src: &Path,
    dst: &Path,
) -> Result<(StagedFile, HeaderInfo), FormatError> {
    let staged = StagedFile::create(dst, |out| {
        let decoder = zstd::stream::read::Decoder::new(compressed)
            .map_err(|e| FormatError::io(src, "cannot start zstd decompression", e))?;
        let mut limited = decoder.take(MAX_FILE_BYTES + 1);
        let mut chunk = vec![0u8; 1 << 16];
        let mut total = 0u64;
        loop {
            let n = match limited.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(FormatError::io(
                        src,
                        "cannot decompress (not zstd, or damaged)",
                        e,
                    ))
                }
            };
            total += n as u64;
            if total > MAX_FILE_BYTES {
                return Err(FormatError::new(
                    Some(src),
                    ErrorKind::TooLarge {
                        id: src.display().to_string(),
                        bytes: total,
                        limit: MAX_FILE_BYTES,
                    },
                ));
            }
            out.write_all(&chunk[..n])
                .map_err(|e| FormatError::io(dst, "cannot write", e))?;
        }
        Ok(())
    })?;
    let table =
        Table::open(staged.temp_path(), &OpenOptions::default()).map_err(|e| e.with_path(src))?;
    let header = table.info().clone();
    drop(table);
    Ok((staged, header))
}
