//! Writing files atomically, and zstd compression for publishing.

use crate::error::{ErrorKind, FormatError};
use crate::table::{HeaderInfo, OpenOptions, Table};
use crate::MAX_FILE_BYTES;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A temporary file that is removed when dropped unless it was renamed into place.
struct TempFile {
    path: PathBuf,
    armed: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.armed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Creates a fresh temporary file next to `path`, named
/// `.NAME.tmp.PID.COUNTER.NANOS`.
fn create_temp(path: &Path) -> Result<(File, TempFile), FormatError> {
    let name = path.file_name().ok_or_else(|| {
        FormatError::new(
            Some(path),
            ErrorKind::Invalid("the path has no file name".into()),
        )
    })?;
    let dir = parent_dir(path);
    let mut last_err = None;
    for _ in 0..16 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".tmp.{}.{n}.{nanos}", std::process::id()));
        let tmp = dir.join(tmp_name);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => {
                return Ok((
                    f,
                    TempFile {
                        path: tmp,
                        armed: true,
                    },
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(e) => {
                return Err(FormatError::io(
                    path,
                    format!("cannot create a temporary file in {}", dir.display()),
                    e,
                ))
            }
        }
    }
    Err(FormatError::io(
        path,
        "cannot create a unique temporary file",
        last_err.unwrap_or_else(|| std::io::Error::other("name collisions")),
    ))
}

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

/// The directory holding `path` (`.` for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` atomically.
///
/// The bytes go to a uniquely named temporary file in the same directory, which is
/// flushed to disk (`fsync`) and then renamed over `path`; finally the directory is
/// synced so the rename itself is durable. Readers see either the old file or the
/// complete new one, never a partial file; concurrent writers of the same path do
/// not disturb each other (the last rename wins). On failure the temporary file is
/// removed and the error names `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FormatError> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// [`write_atomic`] with the contents produced by `fill`.
fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), FormatError> {
    if let Ok(md) = std::fs::metadata(path) {
        if !md.is_file() {
            let found = file_kind(&md.file_type());
            return Err(FormatError::new(Some(path), ErrorKind::NotAFile { found }));
        }
    }
    let (mut file, mut tmp) = create_temp(path)?;
    fill(&mut file).map_err(|e| FormatError::io(path, "cannot write", e))?;
    file.sync_all()
        .map_err(|e| FormatError::io(path, "cannot sync to disk", e))?;
    drop(file);
    std::fs::rename(&tmp.path, path)
        .map_err(|e| FormatError::io(path, "cannot rename the temporary file into place", e))?;
    tmp.armed = false;
    sync_dir(parent_dir(path)).map_err(|e| FormatError::io(path, "cannot sync the directory", e))
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> std::io::Result<()> {
    Ok(())
}

/// xxh3-128 of `bytes` as 32 lower-case hex digits (the same digits `xxhsum -H2`
/// prints, and the form of [`crate::HeaderInfo::checksum`]).
pub fn checksum_hex(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
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
/// before anything is written, so `dst` is either left as it was or replaced by a
/// valid table; the table's header is returned. Output larger than [`crate::MAX_FILE_BYTES`] is refused.
pub fn decompress_file(src: &Path, dst: &Path) -> Result<HeaderInfo, FormatError> {
    let file = File::open(src).map_err(|e| FormatError::io(src, "cannot open", e))?;
    let decoder = zstd::stream::read::Decoder::new(file)
        .map_err(|e| FormatError::io(src, "cannot start zstd decompression", e))?;
    let mut buf = rkyv::util::AlignedVec::<16>::new();
    let mut limited = decoder.take(MAX_FILE_BYTES + 1);
    let mut chunk = vec![0u8; 1 << 16];
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
        buf.extend_from_slice(&chunk[..n]);
    }
    if buf.len() as u64 > MAX_FILE_BYTES {
        return Err(FormatError::new(
            Some(src),
            ErrorKind::TooLarge {
                id: src.display().to_string(),
                bytes: buf.len() as u64,
                limit: MAX_FILE_BYTES,
            },
        ));
    }
    let table = Table::from_aligned(buf, &OpenOptions::default()).map_err(|e| e.with_path(src))?;
    write_atomic(dst, table.as_bytes())?;
    Ok(table.info().clone())
}
