//! `tablefmt` stores lookup tables on disk: checksummed, versioned, memory-mapped,
//! written atomically. It knows nothing about puzzles.
//!
//! Two kinds of table:
//!
//! - **Dense**: a ranked state space `0..states` with one small value per state (a
//!   distance, or a distance mod 3), packed with an [`Encoding`]: `Nibble` (4
//!   bits), `Crumb` (2 bits), `Trit` (5 base-3 digits per byte, 1.6 bits) or `Byte`.
//!   [`DenseView::get`] is O(1) and allocation-free.
//! - **Sparse**: an [`fst::Map`] from packed state bytes (sorted) to `u64`.
//!
//! # File layout (format version 1)
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `b"CUBETBL\0"` |
//! | 8..12 | format version, u32 little-endian (= [`FORMAT_VERSION`]) |
//! | 12..16 | reserved, u32 0 |
//! | 16.. | an rkyv 0.8 archive (little-endian, 32-bit relative pointers) of `TableFile { header, payload }` |
//!
//! The header holds the id, the caller's definition hash, the state count, the depth
//! histogram, the encoding, the xxh3-128 checksum of the payload bytes, the
//! generator string, free-form key/value pairs, and an xxh3-64 self-hash of those
//! fields (so a damaged header is caught cheaply). The payload is the packed
//! dense bytes or the FST bytes. Files are at most [`MAX_FILE_BYTES`].
//!
//! Reading checks the magic and version *before* touching the archive (an old or
//! foreign file gets a message naming the version found and expected), then
//! validates the archive with rkyv's checked access, the header's self-hash, the
//! payload's shape and — unless asked not to — the payload checksum and every
//! byte outside the payload (the archive's pointers and padding must be the ones
//! the writer puts there for this header), so that no changed byte anywhere in
//! the file goes unnoticed. Every fault is
//! a [`FormatError`] whose one-line `Display` names the file and the fault; no
//! input makes the reader panic.
//!
//! # Example
//!
//! ```
//! use tablefmt::{encode_dense, write_atomic, Encoding, OpenOptions, Table, TableMeta};
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("toy.tbl");
//! let values = [0u8, 1, 2, 1, 2, 2, 1];
//! let meta = TableMeta {
//!     id: "toy".into(),
//!     definition_hash: 0x1234,
//!     states: values.len() as u64,
//!     histogram: vec![1, 3, 3],
//!     generator: "example 0.1".into(),
//!     meta: vec![("puzzle".into(), "none".into())],
//! };
//! let bytes = encode_dense(&meta, &values, Encoding::Trit)?;
//! write_atomic(&path, &bytes)?;
//!
//! let opts = OpenOptions { expect_id: Some("toy".into()), ..OpenOptions::default() };
//! let table = Table::open(&path, &opts)?;
//! assert_eq!(table.info().histogram, [1, 3, 3]);
//! let dense = table.dense().expect("a dense table");
//! assert_eq!(dense.get(4), 2);
//! assert_eq!(dense.iter().collect::<Vec<_>>(), values);
//!
//! // Damage one payload byte: opening now fails, naming the file and the fault.
//! let mut broken = bytes.clone();
//! broken[table.payload_range().start] ^= 1;
//! write_atomic(&path, &broken)?;
//! let err = Table::open(&path, &opts).unwrap_err();
//! assert!(err.to_string().contains("toy.tbl: checksum mismatch"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod archive;
mod encoding;
mod error;
mod files;
pub mod record;
mod shards;
mod staged;
mod table;

pub use encoding::{
    pack_dense, pack_words, trit, unpack_dense, word, DenseView, Encoding, ParseEncodingError,
    WordView,
};
pub use error::{io_reason, ErrorKind, FormatError};
pub use files::{
    build_fst, checksum_hex, compress_file, decompress_file, file_kind, file_sha256,
    joined_checksum_hex, sha256_hex, stage_decompressed, write_atomic,
};
pub use fst;
pub use memmap2;
pub use record::{record_path, settle, settle_and_record, SETTLE};
pub use shards::{
    read_shard_index, shard_file_name, shard_file_table, shard_index_path,
    write_dense_sharded_from, ShardEntry, ShardIndex, ShardedTable, SHARD_INDEX_SUFFIX,
};
pub use staged::{commit_all, remove_stale_temp_files, stale_temp_files, StagedFile};
pub use table::{read_header, verify, HeaderInfo, OpenOptions, Table, Verified};

/// The first 8 bytes of every table file.
pub const MAGIC: [u8; 8] = *b"CUBETBL\0";

/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Length of the fixed preamble (magic, version, reserved) before the archive.
pub const PREAMBLE_LEN: usize = 16;

/// The largest table file the writers produce, in bytes.
pub const MAX_FILE_BYTES: u64 = 100_000_000;

/// What the writers store about a table besides its values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableMeta {
    /// Table id (e.g. `2x2x2-htm`).
    pub id: String,
    /// A hash of the table's definition, chosen by the caller; readers compare it
    /// to detect stale tables.
    pub definition_hash: u64,
    /// Number of states (dense: the number of values).
    pub states: u64,
    /// Number of states per depth, from depth 0.
    pub histogram: Vec<u64>,
    /// What wrote the table, e.g. `tablegen 0.1.0`.
    pub generator: String,
    /// Free-form key/value pairs.
    pub meta: Vec<(String, String)>,
}

/// Encodes a dense table: returns the whole file's bytes.
///
/// `values` holds one value per state (`values.len()` must equal `meta.states`),
/// each fitting `encoding` (else [`ErrorKind::ValueOutOfRange`]). Fails with
/// [`ErrorKind::TooLarge`] if the file would exceed [`MAX_FILE_BYTES`].
pub fn encode_dense(
    meta: &TableMeta,
    values: &[u8],
    encoding: Encoding,
) -> Result<Vec<u8>, FormatError> {
    archive::encode_dense(meta, values, encoding)
}

/// Encodes a [`Encoding::Word`] table (one 32-bit value per state, not a
/// distance): returns the whole file's bytes. `values.len()` must equal
/// `meta.states`; what `meta.histogram` counts is the caller's to say.
pub fn encode_words(meta: &TableMeta, values: &[u32]) -> Result<Vec<u8>, FormatError> {
    archive::encode_words(meta, values)
}

/// Writes a dense table to `path` atomically, reading its `meta.states`
/// values (one byte each) from `values` in rank order: the file
/// [`encode_dense`] gives, written without holding the values or the
/// payload in memory (a few MiB of buffers whatever the table's size).
/// Returns the file's length. A short read fails, and nothing is written.
pub fn write_dense_from(
    path: &std::path::Path,
    meta: &TableMeta,
    values: &mut dyn std::io::Read,
    encoding: Encoding,
) -> Result<u64, FormatError> {
    let (staged, len, _) = archive::stage_dense_from(path, meta, encoding, values)?;
    staged.commit()?;
    Ok(len)
}

/// The length of the file [`encode_dense`] would write for `meta` in
/// `encoding` (nothing is allocated but zeroed pages never touched).
pub fn dense_file_len(meta: &TableMeta, encoding: Encoding) -> Result<u64, FormatError> {
    let len = encoding.packed_len(meta.states).unwrap_or(0);
    let len = usize::try_from(len).map_err(|_| {
        FormatError::from(ErrorKind::TooLarge {
            id: meta.id.clone(),
            bytes: len,
            limit: MAX_FILE_BYTES,
        })
    })?;
    archive::dense_file_len(meta, encoding, len).map_err(FormatError::from)
}

/// Encodes a sparse table from the bytes of an [`fst::Map`] (see [`build_fst`]):
/// returns the whole file's bytes.
pub fn encode_fst(meta: &TableMeta, fst_bytes: Vec<u8>) -> Result<Vec<u8>, FormatError> {
    archive::encode_fst(meta, fst_bytes)
}

/// A zeroed anonymous buffer of `len` bytes for a table read at random,
/// backed by 2 MB pages where the system gives them (Linux transparent huge
/// pages, on request): with 4 KB pages nearly every lookup in a table of
/// hundreds of megabytes also misses the TLB.
pub fn huge_buffer(len: usize) -> std::io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapOptions::new().len(len.max(1)).map_anon()?;
    // Advice only: without it (or on other systems) the pages are 4 KB.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}

/// `len` zeroed `u32`s in a [`huge_buffer`].
pub struct HugeU32 {
    map: memmap2::MmapMut,
    len: usize,
}

impl HugeU32 {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> std::io::Result<HugeU32> {
        let bytes = len
            .checked_mul(4)
            .ok_or_else(|| std::io::Error::other("buffer too large"))?;
        Ok(HugeU32 {
            map: huge_buffer(bytes)?,
            len,
        })
    }

    /// The values.
    #[allow(unsafe_code)]
    pub fn as_slice(&self) -> &[u32] {
        // SAFETY: the map is at least `len * 4` bytes, page-aligned (so
        // aligned for u32), initialised (zeroed by the kernel, then written
        // only through `as_mut_slice`), and every bit pattern is a valid u32;
        // the slice borrows `self`, which owns the map.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<u32>(), self.len) }
    }

    /// The values, to write.
    #[allow(unsafe_code)]
    pub fn as_mut_slice(&mut self) -> &mut [u32] {
        // SAFETY: as in `as_slice`, and the mutable borrow of `self` makes
        // this the only view of the map.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast::<u32>(), self.len) }
    }
}
