//! The crate's one error type: which file, and what is wrong with it.

use crate::encoding::Encoding;
use std::fmt;
use std::path::{Path, PathBuf};

/// An error reading, checking or writing a table file.
///
/// It names the file (when there is one) and the fault; its `Display` is one line,
/// for example
/// `tables/foo.tbl: checksum mismatch (header says 3f…, payload hashes to 9a…)`.
/// Match on [`FormatError::kind`] to tell faults apart, or use
/// [`FormatError::code`] for a short stable name.
#[derive(Debug)]
pub struct FormatError {
    path: Option<PathBuf>,
    kind: ErrorKind,
}

/// What went wrong. New kinds may be added in later versions.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An operating-system call failed.
    Io {
        /// What was being done, e.g. `"cannot open"`.
        action: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The path is a directory or some other non-regular file.
    NotAFile {
        /// What it is instead, e.g. `"a directory"`, `"a character device"`
        /// (see [`crate::file_kind`]).
        found: &'static str,
    },
    /// The file is empty.
    Empty,
    /// The file is too short to be a table: shorter than its fixed preamble, or
    /// than the preamble and the archive's root.
    Truncated {
        /// The file's length in bytes.
        len: u64,
        /// The least length that could be valid.
        needed: u64,
    },
    /// The file does not start with the table magic `CUBETBL\0`.
    BadMagic {
        /// The first bytes found (up to 8).
        found: Vec<u8>,
    },
    /// The preamble names a format version this build does not read.
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this build reads and writes.
        expected: u32,
    },
    /// The archive, the header or the payload is inconsistent (bad rkyv structure,
    /// bad FST, wrong payload length, header self-check failed, …).
    Corrupt(String),
    /// The payload does not hash to the checksum recorded in the header.
    ChecksumMismatch {
        /// The checksum recorded in the header (hex).
        expected: String,
        /// The checksum of the payload bytes (hex).
        found: String,
    },
    /// The table has another id than the caller expected.
    WrongId {
        /// The id the caller asked for.
        expected: String,
        /// The id in the file.
        found: String,
    },
    /// The encoded file would exceed [`crate::MAX_FILE_BYTES`].
    TooLarge {
        /// The table id.
        id: String,
        /// The size the file would have (or a lower bound of it).
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// A value to pack does not fit the encoding.
    ValueOutOfRange {
        /// Index (state rank) of the first offending value.
        index: u64,
        /// The value.
        value: u8,
        /// The encoding asked for.
        encoding: Encoding,
    },
    /// The caller passed inconsistent input to a writer (e.g. a value count that
    /// differs from `states`, unsorted FST keys).
    Invalid(String),
}

impl FormatError {
    /// A new error about `path` (or about an in-memory buffer when `None`).
    pub fn new(path: Option<&Path>, kind: ErrorKind) -> Self {
        FormatError {
            path: path.map(Path::to_path_buf),
            kind,
        }
    }

    /// An I/O error about `path` while doing `action`.
    pub fn io(path: &Path, action: impl Into<String>, source: std::io::Error) -> Self {
        Self::new(
            Some(path),
            ErrorKind::Io {
                action: action.into(),
                source,
            },
        )
    }

    /// The same error, now naming `path` (replacing any previous path).
    pub fn with_path(mut self, path: &Path) -> Self {
        self.path = Some(path.to_path_buf());
        self
    }

    /// The file the error is about, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// True if the fault is the machine's, not the file's or the caller's: an
    /// operating-system call failed for want of room (disk full, quota,
    /// file size limit) or with an I/O error of the device. Commands exit 1
    /// for these (SPEC: a fault of the machine), 2 for the other faults.
    pub fn is_machine_fault(&self) -> bool {
        use std::io::ErrorKind as K;
        const EIO: i32 = 5;
        match &self.kind {
            ErrorKind::Io { source, .. } => {
                matches!(
                    source.kind(),
                    K::StorageFull | K::QuotaExceeded | K::FileTooLarge
                ) || (cfg!(unix) && source.raw_os_error() == Some(EIO))
            }
            _ => false,
        }
    }

    /// A short stable name of the kind of fault: `io`, `not-a-file`, `empty`,
    /// `truncated`, `bad-magic`, `unsupported-version`, `corrupt`,
    /// `checksum-mismatch`, `wrong-id`, `too-large`, `value-out-of-range`, `invalid`.
    pub fn code(&self) -> &'static str {
        match &self.kind {
            ErrorKind::Io { .. } => "io",
            ErrorKind::NotAFile { .. } => "not-a-file",
            ErrorKind::Empty => "empty",
            ErrorKind::Truncated { .. } => "truncated",
            ErrorKind::BadMagic { .. } => "bad-magic",
            ErrorKind::UnsupportedVersion { .. } => "unsupported-version",
            ErrorKind::Corrupt(_) => "corrupt",
            ErrorKind::ChecksumMismatch { .. } => "checksum-mismatch",
            ErrorKind::WrongId { .. } => "wrong-id",
            ErrorKind::TooLarge { .. } => "too-large",
            ErrorKind::ValueOutOfRange { .. } => "value-out-of-range",
            ErrorKind::Invalid(_) => "invalid",
        }
    }
}

impl From<ErrorKind> for FormatError {
    fn from(kind: ErrorKind) -> Self {
        FormatError { path: None, kind }
    }
}

/// An OS error for a message: its own text, except that a path going round a
/// loop of symbolic links (`ELOOP`) is called a `symbolic link loop`.
pub fn io_reason(e: &std::io::Error) -> String {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const ELOOP: i32 = 40;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const ELOOP: i32 = 62;
    if cfg!(unix) && e.raw_os_error() == Some(ELOOP) {
        format!("symbolic link loop ({e})")
    } else {
        e.to_string()
    }
}

/// Shows up to 8 bytes as an escaped byte string.
fn show_bytes(b: &[u8]) -> String {
    let mut s = String::from("b\"");
    for &c in b {
        s.extend(std::ascii::escape_default(c).map(char::from));
    }
    s.push('"');
    s
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io { action, source } => write!(f, "{action}: {}", io_reason(source)),
            ErrorKind::NotAFile { found } => write!(f, "not a regular file but {found}"),
            ErrorKind::Empty => write!(f, "empty file (0 bytes), not a table"),
            ErrorKind::Truncated { len, needed } => write!(
                f,
                "truncated or damaged: the file is {len} bytes, a table file has at least {needed}"
            ),
            ErrorKind::BadMagic { found } => {
                if found.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
                    write!(
                        f,
                        "not a table file but a zstd-compressed one (magic {}); decompress it first",
                        show_bytes(found)
                    )
                } else {
                    write!(
                        f,
                        "not a table file (bad magic: found {}, expected {})",
                        show_bytes(found),
                        show_bytes(&crate::MAGIC)
                    )
                }
            }
            ErrorKind::UnsupportedVersion { found, expected } => write!(
                f,
                "unsupported table format version (found {found}, expected {expected})"
            ),
            ErrorKind::Corrupt(msg) => write!(f, "corrupt table: {msg}"),
            ErrorKind::ChecksumMismatch { expected, found } => write!(
                f,
                "checksum mismatch (header says {expected}, payload hashes to {found})"
            ),
            ErrorKind::WrongId { expected, found } => {
                write!(
                    f,
                    "wrong table: expected id {expected:?}, file holds {found:?}"
                )
            }
            ErrorKind::TooLarge { id, bytes, limit } => write!(
                f,
                "table {id:?} too large: {bytes} bytes, the limit is {limit} bytes"
            ),
            ErrorKind::ValueOutOfRange {
                index,
                value,
                encoding,
            } => write!(
                f,
                "value {value} at index {index} does not fit the {encoding} encoding (max {})",
                encoding.max_value().unwrap_or(0)
            ),
            ErrorKind::Invalid(msg) => write!(f, "invalid input: {msg}"),
        }
    }
}

/// A path for a message: cut in the middle when longer than 256 characters (a
/// stray huge argument must not flood the one-line message).
pub(crate) fn show_path(p: &Path) -> String {
    const MAX: usize = 256;
    const KEEP: usize = 40;
    let s = p.display().to_string();
    let n = s.chars().count();
    if n <= MAX {
        return s;
    }
    let head: String = s.chars().take(KEEP).collect();
    let tail: String = s.chars().skip(n - KEEP).collect();
    format!("{head}…{tail} ({n} characters)")
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}: {}", show_path(p), self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for FormatError {
    /// None: the OS reason is already part of `Display`, and callers print whole
    /// chains (`{:#}`), which would say it twice. [`ErrorKind::Io`] keeps the
    /// `io::Error` for callers that want its kind.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }
}
