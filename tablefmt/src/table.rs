//! Opening and checking table files.

use crate::archive::{self, Parsed};
use crate::encoding::{DenseView, Encoding};
use crate::error::{ErrorKind, FormatError};
use crate::FORMAT_VERSION;
use memmap2::Mmap;
use std::fs::File;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// What [`Table::open`] checks besides the structure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenOptions {
    /// Hash the whole payload and compare it with the header's checksum, and
    /// check that every other byte (padding included) is the one the writer
    /// puts there (default `true`): then no changed byte anywhere in the file
    /// goes unnoticed. Without it, a damaged payload goes unnoticed: dense
    /// lookups stay in bounds but may return wrong values, and FST lookups on a
    /// damaged FST may misbehave (the `fst` crate trusts its input).
    pub verify_checksum: bool,
    /// Fail with [`ErrorKind::WrongId`] unless the table has this id.
    pub expect_id: Option<String>,
    /// With `verify_checksum`: skip the payload hash when a verification
    /// record beside the file names exactly the file opened and the checksum
    /// its header holds (see [`crate::record`]); the rest is still checked.
    /// Default `false`: `tablegen verify` and [`crate::verify`] always hash.
    pub trust_record: bool,
    /// With `verify_checksum`: after a full hash that passes, write the
    /// file's verification record when the file qualifies (see
    /// [`crate::record`]; best effort, never an error). Default `false`.
    pub write_record: bool,
}

/// How [`Table::open`] checked a table's payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verified {
    /// Not hashed (`verify_checksum` off): structure and header only.
    Structure,
    /// Hashed in full at this open.
    Hashed,
    /// Hashed in full at this open, and its verification record written.
    HashedAndRecorded,
    /// Not hashed: the file's verification record vouched for it.
    ByRecord,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            verify_checksum: true,
            expect_id: None,
            trust_record: false,
            write_record: false,
        }
    }
}

/// A table's header, owned: what `tablegen info` shows.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HeaderInfo {
    /// Table id.
    pub id: String,
    /// The caller's hash of the table definition.
    pub definition_hash: u64,
    /// Number of states (dense: ranks `0..states`).
    pub states: u64,
    /// Number of states per depth, from depth 0.
    pub histogram: Vec<u64>,
    /// Payload encoding.
    pub encoding: Encoding,
    /// xxh3-128 of the payload, 32 lower-case hex digits (as [`crate::checksum_hex`]).
    pub checksum: String,
    /// What wrote the table, e.g. `tablegen 0.1.0`.
    pub generator: String,
    /// Free-form key/value pairs, in the order written.
    pub meta: Vec<(String, String)>,
    /// The file's size in bytes.
    pub bytes: u64,
    /// The payload's size in bytes.
    pub payload_bytes: u64,
    /// The file format version (always [`FORMAT_VERSION`] for a file that opened).
    pub format_version: u32,
}

impl HeaderInfo {
    /// The value of meta key `key`, if present (the first one).
    pub fn meta_value(&self, key: &str) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn from_parsed(parsed: &Parsed, file_len: usize) -> Self {
        let h = &parsed.header;
        HeaderInfo {
            id: h.id.clone(),
            definition_hash: h.definition_hash,
            states: h.states,
            histogram: h.histogram.clone(),
            encoding: h.encoding,
            checksum: format!("{:032x}", h.checksum),
            generator: h.generator.clone(),
            meta: h.meta.clone(),
            bytes: file_len as u64,
            payload_bytes: parsed.payload.len() as u64,
            format_version: FORMAT_VERSION,
        }
    }
}

/// The bytes behind a [`Table`].
enum Backing {
    Mapped(Mmap),
    Memory(rkyv::util::AlignedVec<16>),
}

impl Backing {
    #[inline]
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mapped(m) => m,
            Backing::Memory(v) => v.as_slice(),
        }
    }
}

/// An open, checked table: memory-mapped from a file ([`Table::open`]) or held in
/// memory ([`Table::from_bytes`]).
///
/// Lookups go straight to the mapped bytes: [`Table::dense`] and [`Table::fst`]
/// are cheap and allocation-free, so they may be called per lookup.
pub struct Table {
    path: Option<PathBuf>,
    backing: Backing,
    info: HeaderInfo,
    payload: Range<usize>,
    verified: Verified,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("info", &self.info)
            .field("payload", &self.payload)
            .finish()
    }
}

/// Maps `file` read-only.
///
/// This is the crate's only `unsafe`. A memory map is unsound in Rust's terms if
/// the file changes underneath it, and if another process *truncates* the file
/// while it is mapped, touching the lost pages raises `SIGBUS` and kills the
/// process. Table files are only ever replaced by atomic rename
/// ([`crate::write_atomic`]), which leaves the mapped inode intact, so our own
/// files are never truncated or rewritten in place. Do not edit table files in
/// place while a process has them open.
#[allow(unsafe_code)]
fn map_file(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: the map is read-only and we never create a mutable alias. The file
    // is written only by atomic rename (a new inode), never truncated or modified
    // in place by this project, so the mapped bytes stay valid and unchanged for
    // the life of the `Mmap`; see the function's documentation for the caveat about
    // other processes.
    unsafe { Mmap::map(file) }
}

impl Table {
    /// Opens, maps and checks a table file.
    ///
    /// Checks, in order: a regular non-empty file; the magic and format version;
    /// the rkyv archive structure (validated access); the header's self-hash; the
    /// payload's shape (dense length for `states`, or a readable FST); the expected
    /// id; and, unless `opts.verify_checksum` is false, the payload checksum and
    /// every byte outside the payload (padding included) against the layout the
    /// writer gives these header fields.
    pub fn open(path: &Path, opts: &OpenOptions) -> Result<Table, FormatError> {
        // Look before opening: opening a FIFO or device could block or have effects.
        let md = std::fs::metadata(path).map_err(|e| FormatError::io(path, "cannot open", e))?;
        if !md.is_file() {
            let found = crate::file_kind(&md.file_type());
            return Err(FormatError::new(Some(path), ErrorKind::NotAFile { found }));
        }
        let file = File::open(path).map_err(|e| FormatError::io(path, "cannot open", e))?;
        let md = file
            .metadata()
            .map_err(|e| FormatError::io(path, "cannot stat", e))?;
        if !md.is_file() {
            let found = crate::file_kind(&md.file_type());
            return Err(FormatError::new(Some(path), ErrorKind::NotAFile { found }));
        }
        if md.len() == 0 {
            return Err(FormatError::new(Some(path), ErrorKind::Empty));
        }
        let map = map_file(&file).map_err(|e| FormatError::io(path, "cannot memory-map", e))?;
        Table::check(Backing::Mapped(map), Some((path, &file, &md)), opts)
    }

    /// Checks a table held in memory (as [`Table::open`] does a file). The bytes
    /// are copied into a 16-aligned buffer, as the archive needs.
    pub fn from_bytes(bytes: &[u8], opts: &OpenOptions) -> Result<Table, FormatError> {
        let mut buf = rkyv::util::AlignedVec::<16>::with_capacity(bytes.len());
        buf.extend_from_slice(bytes);
        Table::check(Backing::Memory(buf), None, opts)
    }

    /// Checks a table in an already aligned buffer without copying it.
    pub fn from_aligned(
        bytes: rkyv::util::AlignedVec<16>,
        opts: &OpenOptions,
    ) -> Result<Table, FormatError> {
        Table::check(Backing::Memory(bytes), None, opts)
    }

    /// Checks `backing` (mapped from `file`, whose metadata at open was the
    /// third item of `file`, when there is a file) as `opts` asks.
    fn check(
        backing: Backing,
        file: Option<(&Path, &File, &std::fs::Metadata)>,
        opts: &OpenOptions,
    ) -> Result<Table, FormatError> {
        let path = file.map(|f| f.0);
        let err = |kind| FormatError::new(path, kind);
        let bytes = backing.bytes();
        let parsed = archive::parse(bytes).map_err(err)?;
        if let Some(want) = &opts.expect_id {
            if *want != parsed.header.id {
                return Err(err(ErrorKind::WrongId {
                    expected: want.clone(),
                    found: parsed.header.id.clone(),
                }));
            }
        }
        let mut verified = Verified::Structure;
        if opts.verify_checksum {
            let checksum = parsed.header.checksum;
            let vouched = opts.trust_record
                && file.is_some_and(|(p, _, md)| crate::record::matches(p, md, checksum));
            if vouched {
                verified = Verified::ByRecord;
            } else {
                let hashed_at = std::time::SystemTime::now();
                archive::check_checksum(bytes, &parsed).map_err(err)?;
                verified = Verified::Hashed;
                if let (true, Some((p, f, md))) = (opts.write_record, file) {
                    if crate::record::write(p, f, md, hashed_at, checksum) {
                        verified = Verified::HashedAndRecorded;
                    }
                }
            }
            archive::check_layout(bytes, &parsed).map_err(err)?;
        }
        let info = HeaderInfo::from_parsed(&parsed, bytes.len());
        Ok(Table {
            path: path.map(Path::to_path_buf),
            payload: parsed.payload,
            info,
            backing,
            verified,
        })
    }

    /// How the payload was checked when the table was opened.
    pub fn verified(&self) -> Verified {
        self.verified
    }

    /// The header.
    pub fn info(&self) -> &HeaderInfo {
        &self.info
    }

    /// The file this table was opened from (`None` for in-memory tables).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The payload's encoding.
    pub fn encoding(&self) -> Encoding {
        self.info.encoding
    }

    /// The number of states.
    pub fn states(&self) -> u64 {
        self.info.states
    }

    /// Byte range of the payload within the file.
    pub fn payload_range(&self) -> Range<usize> {
        self.payload.clone()
    }

    /// The raw payload bytes (packed dense values or FST bytes).
    #[inline]
    pub fn payload(&self) -> &[u8] {
        &self.backing.bytes()[self.payload.clone()]
    }

    /// The whole file's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.backing.bytes()
    }

    /// The dense values, or `None` for an FST table. Cheap: call it per lookup if
    /// convenient.
    #[inline]
    pub fn dense(&self) -> Option<DenseView<'_>> {
        if !self.info.encoding.is_dense() {
            return None;
        }
        DenseView::new(self.payload(), self.info.encoding, self.info.states)
    }

    /// The words of a [`Encoding::Word`] table, or `None` for any other.
    #[inline]
    pub fn words(&self) -> Option<crate::WordView<'_>> {
        if self.info.encoding != Encoding::Word {
            return None;
        }
        crate::WordView::new(self.payload(), self.info.states)
    }

    /// The FST map (zero-copy over the mapped bytes), or `None` for a dense table.
    pub fn fst(&self) -> Option<fst::Map<&[u8]>> {
        if self.info.encoding != Encoding::Fst {
            return None;
        }
        fst::Map::new(self.payload()).ok()
    }

    /// Hashes the payload now and compares it with the header, and checks the
    /// bytes outside the payload (as [`OpenOptions::verify_checksum`] does at
    /// open time).
    pub fn verify_checksum(&self) -> Result<(), FormatError> {
        let err = |kind| FormatError::new(self.path.as_deref(), kind);
        let bytes = self.backing.bytes();
        let parsed = archive::parse(bytes).map_err(err)?;
        archive::check_checksum(bytes, &parsed).map_err(err)?;
        archive::check_layout(bytes, &parsed).map_err(err)
    }
}

/// Reads and checks a table's header and structure, *without* hashing the payload
/// (fast, for `info`).
pub fn read_header(path: &Path) -> Result<HeaderInfo, FormatError> {
    let opts = OpenOptions {
        verify_checksum: false,
        ..OpenOptions::default()
    };
    Table::open(path, &opts).map(|t| t.info)
}

/// Fully checks a table file, payload checksum included, and returns its header.
pub fn verify(path: &Path) -> Result<HeaderInfo, FormatError> {
    Table::open(path, &OpenOptions::default()).map(|t| t.info)
}
