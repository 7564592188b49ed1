//! The file layout: a 16-byte preamble, then an rkyv archive of [`TableFile`].
//!
//! Everything here is private to the crate; the public face is [`crate::Table`],
//! [`crate::encode_dense`] and [`crate::encode_fst`].

use crate::encoding::{pack_dense, Encoding};
use crate::error::{ErrorKind, FormatError};
use crate::{TableMeta, FORMAT_VERSION, MAGIC, MAX_FILE_BYTES, PREAMBLE_LEN};
use std::ops::Range;

/// The archived root.
#[derive(rkyv::Archive, rkyv::Serialize)]
pub(crate) struct TableFile {
    pub header: Header,
    pub payload: Payload,
}

/// Everything about the table but its values.
#[derive(rkyv::Archive, rkyv::Serialize)]
pub(crate) struct Header {
    pub id: String,
    pub definition_hash: u64,
    pub states: u64,
    pub histogram: Vec<u64>,
    /// [`Encoding::tag`].
    pub encoding: u8,
    /// xxh3-128 of the payload bytes, little-endian.
    pub checksum: [u8; 16],
    pub generator: String,
    pub meta: Vec<MetaEntry>,
    /// xxh3-64 of the canonical form of every field above ([`header_hash`]), so a
    /// damaged header is caught without hashing the payload.
    pub header_hash: u64,
}

/// One free-form key/value pair.
#[derive(rkyv::Archive, rkyv::Serialize)]
pub(crate) struct MetaEntry {
    pub key: String,
    pub value: String,
}

/// The values.
#[derive(rkyv::Archive, rkyv::Serialize)]
pub(crate) enum Payload {
    /// A packed dense payload.
    Dense(Vec<u8>),
    /// The bytes of an `fst::Map`.
    Fst(Vec<u8>),
}

/// The header fields in owned form, as read back from a file.
pub(crate) struct HeaderFields {
    pub id: String,
    pub definition_hash: u64,
    pub states: u64,
    pub histogram: Vec<u64>,
    pub encoding: Encoding,
    pub checksum: u128,
    pub generator: String,
    pub meta: Vec<(String, String)>,
}

/// xxh3-64 over a length-prefixed canonical serialisation of the header fields.
#[allow(clippy::too_many_arguments)]
fn header_hash<'a>(
    id: &str,
    definition_hash: u64,
    states: u64,
    histogram: impl ExactSizeIterator<Item = u64>,
    encoding: u8,
    checksum: &[u8; 16],
    generator: &str,
    meta: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
) -> u64 {
    fn put_str(buf: &mut Vec<u8>, s: &str) {
        buf.extend_from_slice(&(s.len() as u64).to_le_bytes());
        buf.extend_from_slice(s.as_bytes());
    }
    let mut buf = Vec::with_capacity(256);
    buf.extend_from_slice(b"cubetbl header v1\0");
    put_str(&mut buf, id);
    buf.extend_from_slice(&definition_hash.to_le_bytes());
    buf.extend_from_slice(&states.to_le_bytes());
    buf.extend_from_slice(&(histogram.len() as u64).to_le_bytes());
    for h in histogram {
        buf.extend_from_slice(&h.to_le_bytes());
    }
    buf.push(encoding);
    buf.extend_from_slice(checksum);
    put_str(&mut buf, generator);
    buf.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    for (k, v) in meta {
        put_str(&mut buf, k);
        put_str(&mut buf, v);
    }
    twox_hash::XxHash3_64::oneshot(&buf)
}

/// Folds a (possibly multi-line) message from a dependency onto one line.
pub(crate) fn one_line(msg: impl std::fmt::Display) -> String {
    msg.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rewrites the memory addresses in an rkyv message (`ptr 0x00007f…`) as byte
/// offsets into the file that starts at address `base`.
pub(crate) fn addresses_to_offsets(msg: &str, base: usize) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let digits = rest[at + 2..]
            .find(|c: char| !c.is_ascii_hexdigit())
            .map_or(rest.len() - at - 2, |n| n);
        let hex = &rest[at + 2..at + 2 + digits];
        match u64::from_str_radix(hex, 16) {
            Ok(addr) if digits > 0 => {
                let off = addr as i128 - base as i128;
                if (0..(1i128 << 40)).contains(&off) {
                    out.push_str(&format!("byte {off}"));
                } else {
                    out.push_str("an address outside the file");
                }
            }
            _ => out.push_str(&rest[at..at + 2 + digits]),
        }
        rest = &rest[at + 2 + digits..];
    }
    out.push_str(rest);
    out.replace("ptr byte", "at byte").replace("..byte ", "..")
}

/// xxh3-128 of `bytes`.
pub(crate) fn hash128(bytes: &[u8]) -> u128 {
    twox_hash::XxHash3_128::oneshot(bytes)
}

/// The archived root of a file with these header fields and payload.
fn table_file(
    meta: &TableMeta,
    encoding: Encoding,
    checksum: [u8; 16],
    payload: Vec<u8>,
) -> TableFile {
    TableFile {
        header: header(meta, encoding, checksum),
        payload: if encoding.is_dense() {
            Payload::Dense(payload)
        } else {
            Payload::Fst(payload)
        },
    }
}

/// The header of a file with these fields. Its self-hash is computed here, so
/// a value built from the fields read back from a file is the one the writer
/// built.
fn header(meta: &TableMeta, encoding: Encoding, checksum: [u8; 16]) -> Header {
    let tag = encoding.tag();
    let hh = header_hash(
        &meta.id,
        meta.definition_hash,
        meta.states,
        meta.histogram.iter().copied(),
        tag,
        &checksum,
        &meta.generator,
        meta.meta.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    );
    Header {
        id: meta.id.clone(),
        definition_hash: meta.definition_hash,
        states: meta.states,
        histogram: meta.histogram.clone(),
        encoding: tag,
        checksum,
        generator: meta.generator.clone(),
        meta: meta
            .meta
            .iter()
            .map(|(k, v)| MetaEntry {
                key: k.clone(),
                value: v.clone(),
            })
            .collect(),
        header_hash: hh,
    }
}

/// [`TableFile`] as the layout check rebuilds it: the same archive, byte for
/// byte, but the payload is only a length. Its bytes, which the check skips
/// (the checksum covers them), are written from a small block of zeros, so
/// checking a table's layout allocates and touches nothing of the payload's
/// size.
#[derive(rkyv::Archive, rkyv::Serialize)]
struct TableShape {
    header: Header,
    payload: PayloadShape,
}

/// [`Payload`] as a length (see [`TableShape`]).
#[derive(rkyv::Archive, rkyv::Serialize)]
enum PayloadShape {
    Dense(#[rkyv(with = Unwritten)] usize),
    Fst(#[rkyv(with = Unwritten)] usize),
}

/// Archives a length `n` as a `Vec<u8>` of `n` zeros would be archived,
/// without the vector.
struct Unwritten;

impl rkyv::with::ArchiveWith<usize> for Unwritten {
    type Archived = rkyv::vec::ArchivedVec<u8>;
    type Resolver = rkyv::vec::VecResolver;

    fn resolve_with(len: &usize, resolver: Self::Resolver, out: rkyv::Place<Self::Archived>) {
        rkyv::vec::ArchivedVec::resolve_from_len(*len, resolver, out);
    }
}

impl<S> rkyv::with::SerializeWith<usize, S> for Unwritten
where
    S: rkyv::rancor::Fallible + rkyv::ser::Writer + ?Sized,
{
    fn serialize_with(len: &usize, serializer: &mut S) -> Result<Self::Resolver, S::Error> {
        // As a `[u8]` is written: aligned for `u8` (no padding), then its bytes.
        static ZEROS: [u8; 1 << 16] = [0; 1 << 16];
        let pos = rkyv::ser::WriterExt::align_for::<u8>(serializer)?;
        let mut left = *len;
        while left > 0 {
            let n = left.min(ZEROS.len());
            serializer.write(&ZEROS[..n])?;
            left -= n;
        }
        Ok(rkyv::vec::VecResolver::from_pos(pos))
    }
}

/// The 16-byte preamble.
fn preamble() -> [u8; PREAMBLE_LEN] {
    let mut p = [0u8; PREAMBLE_LEN];
    p[..8].copy_from_slice(&MAGIC);
    p[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    p
}

/// Serialises a whole file: preamble + archive.
fn encode(meta: &TableMeta, encoding: Encoding, payload: Vec<u8>) -> Result<Vec<u8>, FormatError> {
    let too_large = |bytes: u64| {
        FormatError::from(ErrorKind::TooLarge {
            id: meta.id.clone(),
            bytes,
            limit: MAX_FILE_BYTES,
        })
    };
    let floor = (PREAMBLE_LEN + payload.len()) as u64;
    if floor > MAX_FILE_BYTES {
        return Err(too_large(floor));
    }
    let checksum = hash128(&payload).to_le_bytes();
    let file = table_file(meta, encoding, checksum, payload);
    let mut out = Vec::with_capacity(floor as usize + 1024);
    out.extend_from_slice(&preamble());
    // The serializer aligns relative to the start of `out`, and the preamble is 16
    // bytes long, so the archive starts 16-aligned in the file.
    let out = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&file, out)
        .map_err(|e| ErrorKind::Corrupt(format!("cannot serialise the archive: {e}")))?;
    if out.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(out.len() as u64));
    }
    Ok(out)
}

/// A writer that compares what the serialiser writes with a file's bytes
/// instead of keeping it. Bytes in `skip` (the payload, which the checksum
/// covers) are not compared, so the payload given to the serialiser may be
/// zeros that are never read.
struct Compare<'a> {
    file: &'a [u8],
    pos: usize,
    skip: Range<usize>,
    /// The first offset where the file differs, and the byte the writer puts
    /// there (the file may end before it).
    diff: Option<(usize, u8)>,
}

impl Compare<'_> {
    /// Compares `written`, meant for the file's bytes from `start` on.
    fn compare(&mut self, start: usize, written: &[u8]) {
        if self.diff.is_some() {
            return;
        }
        let found = written
            .iter()
            .enumerate()
            .find(|&(i, w)| self.file.get(start + i) != Some(w));
        self.diff = found.map(|(i, &w)| (start + i, w));
    }
}

impl rkyv::ser::Positional for Compare<'_> {
    fn pos(&self) -> usize {
        self.pos
    }
}

impl<E> rkyv::ser::Writer<E> for Compare<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), E> {
        let (start, end) = (self.pos, self.pos + bytes.len());
        // The parts of start..end before and after the skipped range.
        let before = self.skip.start.clamp(start, end);
        let after = self.skip.end.clamp(start, end);
        self.compare(start, &bytes[..before - start]);
        self.compare(after, &bytes[after - start..]);
        self.pos = end;
        Ok(())
    }
}

/// Checks that every byte of the file outside the payload is the byte the
/// writer puts there for this header and payload length: the preamble, the
/// archive's pointers and lengths, and the padding between and inside its
/// objects, which neither rkyv's validation nor the header's self-hash look at.
/// With [`check_checksum`] this covers every byte of the file. Nothing of the
/// payload's size is allocated ([`TableShape`]).
pub(crate) fn check_layout(bytes: &[u8], parsed: &Parsed) -> Result<(), ErrorKind> {
    let h = &parsed.header;
    let meta = TableMeta {
        id: h.id.clone(),
        definition_hash: h.definition_hash,
        states: h.states,
        histogram: h.histogram.clone(),
        generator: h.generator.clone(),
        meta: h.meta.clone(),
    };
    let len = parsed.payload.len();
    let file = TableShape {
        header: header(&meta, h.encoding, h.checksum.to_le_bytes()),
        payload: if h.encoding.is_dense() {
            PayloadShape::Dense(len)
        } else {
            PayloadShape::Fst(len)
        },
    };
    let mut cmp = Compare {
        file: bytes,
        pos: 0,
        skip: parsed.payload.clone(),
        diff: None,
    };
    rkyv::ser::Writer::<rkyv::rancor::Error>::write(&mut cmp, &preamble())
        .expect("comparing never fails");
    let cmp = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&file, cmp)
        .map_err(|e| ErrorKind::Corrupt(format!("cannot serialise the archive: {e}")))?;
    match cmp.diff {
        Some((at, want)) if at < bytes.len() => Err(ErrorKind::Corrupt(format!(
            "byte {at} is {:#04x} where a table with this header and payload has {want:#04x} \
             (damaged padding or layout)",
            bytes[at]
        ))),
        _ if cmp.pos != bytes.len() => Err(ErrorKind::Corrupt(format!(
            "the file is {} bytes, a table with this header and payload is {}",
            bytes.len(),
            cmp.pos
        ))),
        _ => Ok(()),
    }
}

/// See [`crate::encode_dense`].
pub(crate) fn encode_dense(
    meta: &TableMeta,
    values: &[u8],
    encoding: Encoding,
) -> Result<Vec<u8>, FormatError> {
    if !encoding.is_dense() {
        return Err(ErrorKind::Invalid(
            "encode_dense needs a dense encoding; use encode_fst for fst".into(),
        )
        .into());
    }
    check_dense_size(meta, values.len(), encoding)?;
    let payload = pack_dense(values, encoding)?;
    encode(meta, encoding, payload)
}

/// See [`crate::encode_words`].
pub(crate) fn encode_words(meta: &TableMeta, values: &[u32]) -> Result<Vec<u8>, FormatError> {
    check_dense_size(meta, values.len(), Encoding::Word)?;
    encode(meta, Encoding::Word, crate::encoding::pack_words(values))
}

/// `values` values for a dense table of `meta.states` states, in a file
/// within [`MAX_FILE_BYTES`].
fn check_dense_size(
    meta: &TableMeta,
    values: usize,
    encoding: Encoding,
) -> Result<(), FormatError> {
    if values as u64 != meta.states {
        return Err(ErrorKind::Invalid(format!(
            "table {:?}: {} values given for {} states",
            meta.id, values, meta.states
        ))
        .into());
    }
    let packed_len = encoding.packed_len(meta.states).unwrap_or(0);
    if packed_len.saturating_add(PREAMBLE_LEN as u64) > MAX_FILE_BYTES {
        return Err(ErrorKind::TooLarge {
            id: meta.id.clone(),
            bytes: packed_len + PREAMBLE_LEN as u64,
            limit: MAX_FILE_BYTES,
        }
        .into());
    }
    Ok(())
}

/// A serialiser's writer that puts what it writes into a file at the same
/// offset, except the payload, which it recognises by address (the bytes of
/// the stand-in payload given to the serialiser) and only notes the offset of.
struct ToFile<'a> {
    file: &'a std::fs::File,
    pos: usize,
    /// Addresses of the stand-in payload.
    payload: Range<usize>,
    /// Where the payload starts in the file, once seen.
    at: Option<usize>,
    /// The first failure: a write that failed (the OS error), or a payload
    /// not in one piece.
    error: Option<Result<String, std::io::Error>>,
}

impl rkyv::ser::Positional for ToFile<'_> {
    fn pos(&self) -> usize {
        self.pos
    }
}

impl<E> rkyv::ser::Writer<E> for ToFile<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), E> {
        use std::io::{Seek, SeekFrom, Write};
        let addr = bytes.as_ptr() as usize;
        if !bytes.is_empty() && self.payload.contains(&addr) {
            // The payload, perhaps in pieces: they must follow each other.
            let at = *self.at.get_or_insert(self.pos);
            if self.pos - at != addr - self.payload.start {
                self.error
                    .get_or_insert_with(|| Ok("the payload is not written in one piece".into()));
            }
        } else if self.error.is_none() {
            let mut f = self.file;
            if let Err(e) = f
                .seek(SeekFrom::Start(self.pos as u64))
                .and_then(|_| f.write_all(bytes))
            {
                self.error = Some(Err(e));
            }
        }
        self.pos += bytes.len();
        Ok(())
    }
}

/// Serialises the file of this header around a payload of `len` bytes into
/// `file`, writing everything but the payload; returns the payload's offset
/// and the file's length.
fn write_frame(
    file: &std::fs::File,
    meta: &TableMeta,
    encoding: Encoding,
    checksum: [u8; 16],
    len: usize,
) -> Result<(usize, usize), ErrorKind> {
    // Zeroed pages that are never touched: the writer skips them by address.
    let stand_in = vec![0u8; len];
    let payload = stand_in.as_ptr() as usize..stand_in.as_ptr() as usize + len;
    let tf = table_file(meta, encoding, checksum, stand_in);
    let mut w = ToFile {
        file,
        pos: 0,
        payload,
        at: None,
        error: None,
    };
    rkyv::ser::Writer::<rkyv::rancor::Error>::write(&mut w, &preamble())
        .map_err(|e| ErrorKind::Corrupt(e.to_string()))?;
    let w = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&tf, w)
        .map_err(|e| ErrorKind::Corrupt(format!("cannot serialise the archive: {e}")))?;
    match w.error {
        // The OS refused the write (a full disk): the file could not be
        // written, which says nothing of any table's bytes.
        Some(Err(source)) => {
            return Err(ErrorKind::Io {
                action: "cannot write".into(),
                source,
            })
        }
        Some(Ok(msg)) => {
            return Err(ErrorKind::Corrupt(format!(
                "cannot write the archive: {msg}"
            )))
        }
        None => {}
    }
    Ok((w.at.unwrap_or(w.pos), w.pos))
}

/// The file length of a dense table of this header with a payload of
/// `len` bytes (nothing is written).
pub(crate) fn dense_file_len(
    meta: &TableMeta,
    encoding: Encoding,
    len: usize,
) -> Result<u64, ErrorKind> {
    let stand_in = vec![0u8; len];
    let tf = table_file(meta, encoding, [0; 16], stand_in);
    let mut cmp = Compare {
        file: &[],
        pos: PREAMBLE_LEN,
        skip: 0..usize::MAX,
        diff: None,
    };
    cmp = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&tf, cmp)
        .map_err(|e| ErrorKind::Corrupt(format!("cannot serialise the archive: {e}")))?;
    Ok(cmp.pos as u64)
}

/// See [`crate::write_dense_from`]: the file staged (not yet in place), its
/// length and its payload checksum.
pub(crate) fn stage_dense_from(
    path: &std::path::Path,
    meta: &TableMeta,
    encoding: Encoding,
    values: &mut dyn std::io::Read,
) -> Result<(crate::StagedFile, u64, u128), FormatError> {
    use std::io::{Seek, SeekFrom, Write};
    if encoding.max_value().is_none() {
        return Err(ErrorKind::Invalid(format!(
            "write_dense_from writes byte values; a table in {encoding} is encoded whole"
        ))
        .into());
    }
    let len = encoding.packed_len(meta.states).unwrap_or(0);
    let too_large = |bytes: u64| ErrorKind::TooLarge {
        id: meta.id.clone(),
        bytes,
        limit: MAX_FILE_BYTES,
    };
    if len.saturating_add(PREAMBLE_LEN as u64) > MAX_FILE_BYTES {
        return Err(too_large(len + PREAMBLE_LEN as u64).into());
    }
    let per_byte = encoding.states_per_byte().unwrap_or(1);
    let (mut total, mut sum) = (0u64, 0u128);
    let staged = crate::StagedFile::create(path, |file| {
        let with_path = |k: ErrorKind| FormatError::new(Some(path), k);
        // The frame first, with a checksum of zeros, to learn where the
        // payload goes; the payload, hashed as it is written; the frame
        // again with the checksum (same layout: the fields are fixed-size).
        let (at, end) =
            write_frame(file, meta, encoding, [0; 16], len as usize).map_err(with_path)?;
        if end as u64 > MAX_FILE_BYTES {
            return Err(with_path(too_large(end as u64)));
        }
        let mut out = std::io::BufWriter::with_capacity(1 << 20, &*file);
        out.seek(SeekFrom::Start(at as u64))
            .map_err(|e| FormatError::io(path, "cannot write", e))?;
        let mut hash = twox_hash::XxHash3_128::new();
        // Whole bytes of every encoding per chunk (a multiple of 2, 4 and 5).
        let chunk_states = 20u64 << 16;
        let mut chunk = vec![0u8; chunk_states as usize];
        let mut done = 0u64;
        while done < meta.states {
            let n = chunk_states.min(meta.states - done) as usize;
            values.read_exact(&mut chunk[..n]).map_err(|e| {
                FormatError::io(
                    path,
                    format!("cannot read the values from state {done} on"),
                    e,
                )
            })?;
            let packed = pack_dense(&chunk[..n], encoding).map_err(|e| e.with_path(path))?;
            hash.write(&packed);
            out.write_all(&packed)
                .map_err(|e| FormatError::io(path, "cannot write", e))?;
            done += n as u64;
            debug_assert!((n as u64).is_multiple_of(per_byte) || done == meta.states);
        }
        out.flush()
            .map_err(|e| FormatError::io(path, "cannot write", e))?;
        drop(out);
        sum = hash.finish_128();
        write_frame(file, meta, encoding, sum.to_le_bytes(), len as usize).map_err(with_path)?;
        total = end as u64;
        Ok(())
    })?;
    Ok((staged, total, sum))
}

/// See [`crate::encode_fst`].
pub(crate) fn encode_fst(meta: &TableMeta, fst_bytes: Vec<u8>) -> Result<Vec<u8>, FormatError> {
    if let Err(e) = fst::Map::new(fst_bytes.as_slice()) {
        return Err(ErrorKind::Invalid(format!(
            "table {:?}: the payload is not a valid FST map: {}",
            meta.id,
            one_line(e)
        ))
        .into());
    }
    encode(meta, Encoding::Fst, fst_bytes)
}

/// The result of checking a file's bytes (header and structure, not the checksum).
pub(crate) struct Parsed {
    pub header: HeaderFields,
    /// Byte range of the payload within the whole file.
    pub payload: Range<usize>,
}

/// Checks preamble, archive structure, header self-hash and payload shape. The
/// payload checksum is *not* checked here (see [`check_checksum`]).
///
/// `bytes` is the whole file; for the archive to be readable, `bytes` must start
/// at a 16-aligned address.
pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed, ErrorKind> {
    if bytes.is_empty() {
        return Err(ErrorKind::Empty);
    }
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if head != &MAGIC[..head.len()] {
        return Err(ErrorKind::BadMagic {
            found: head.to_vec(),
        });
    }
    if bytes.len() < PREAMBLE_LEN {
        return Err(ErrorKind::Truncated {
            len: bytes.len() as u64,
            needed: PREAMBLE_LEN as u64,
        });
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(ErrorKind::UnsupportedVersion {
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let reserved = word(12);
    if reserved != 0 {
        return Err(ErrorKind::Corrupt(format!(
            "reserved preamble field (bytes 12..16) is {reserved:#x}, expected 0"
        )));
    }
    let archive = &bytes[PREAMBLE_LEN..];
    if archive.is_empty() {
        return Err(ErrorKind::Truncated {
            len: bytes.len() as u64,
            needed: PREAMBLE_LEN as u64 + 1,
        });
    }
    // The archive's root sits at its end: a shorter archive cannot hold one.
    let root_len = std::mem::size_of::<ArchivedTableFile>();
    if archive.len() < root_len {
        return Err(ErrorKind::Truncated {
            len: bytes.len() as u64,
            needed: (PREAMBLE_LEN + root_len) as u64,
        });
    }
    // `BoxedError` keeps rkyv's description in every build profile (the plain
    // `rancor::Error` drops it without debug assertions).
    let root =
        rkyv::access::<ArchivedTableFile, rkyv::rancor::BoxedError>(archive).map_err(|e| {
            let len = bytes.len();
            ErrorKind::Corrupt(format!(
                "truncated or damaged: invalid archive structure in bytes {PREAMBLE_LEN}..{len} \
                 of this {len}-byte file (its root is the last {root_len} bytes): {}",
                addresses_to_offsets(&one_line(e), bytes.as_ptr() as usize)
            ))
        })?;
    let h = &root.header;
    let expect_hash = h.header_hash.to_native();
    let found_hash = header_hash(
        h.id.as_str(),
        h.definition_hash.to_native(),
        h.states.to_native(),
        h.histogram.iter().map(|x| x.to_native()),
        h.encoding,
        &h.checksum,
        h.generator.as_str(),
        h.meta.iter().map(|m| (m.key.as_str(), m.value.as_str())),
    );
    if expect_hash != found_hash {
        return Err(ErrorKind::Corrupt(format!(
            "header self-check failed (header hash says {expect_hash:016x}, header fields hash to {found_hash:016x})"
        )));
    }
    let encoding = Encoding::from_tag(h.encoding)
        .ok_or_else(|| ErrorKind::Corrupt(format!("unknown encoding tag {}", h.encoding)))?;
    let states = h.states.to_native();
    let data: &[u8] = match (&root.payload, encoding.is_dense()) {
        (ArchivedPayload::Dense(v), true) => {
            let want = encoding.packed_len(states).unwrap_or(0);
            if v.len() as u64 != want {
                return Err(ErrorKind::Corrupt(format!(
                    "dense payload is {} bytes, but {states} states in {encoding} encoding need {want}",
                    v.len()
                )));
            }
            v.as_slice()
        }
        (ArchivedPayload::Fst(v), false) => {
            if let Err(e) = fst::Map::new(v.as_slice()) {
                let at = v.as_ptr() as usize - bytes.as_ptr() as usize;
                return Err(ErrorKind::Corrupt(format!(
                    "bad FST payload at bytes {at}..{}: {}",
                    at + v.len(),
                    one_line(e)
                )));
            }
            v.as_slice()
        }
        (ArchivedPayload::Dense(_), false) => {
            return Err(ErrorKind::Corrupt(format!(
                "header says {encoding} but the payload is dense"
            )))
        }
        (ArchivedPayload::Fst(_), true) => {
            return Err(ErrorKind::Corrupt(format!(
                "header says {encoding} but the payload is an FST"
            )))
        }
    };
    // The payload is a sub-slice of `bytes`: its offset is a plain address difference.
    let start = data.as_ptr() as usize - bytes.as_ptr() as usize;
    let header = HeaderFields {
        id: h.id.as_str().to_string(),
        definition_hash: h.definition_hash.to_native(),
        states,
        histogram: h.histogram.iter().map(|x| x.to_native()).collect(),
        encoding,
        checksum: u128::from_le_bytes(h.checksum),
        generator: h.generator.as_str().to_string(),
        meta: h
            .meta
            .iter()
            .map(|m| (m.key.as_str().to_string(), m.value.as_str().to_string()))
            .collect(),
    };
    Ok(Parsed {
        header,
        payload: start..start + data.len(),
    })
}

/// Compares the payload's xxh3-128 with the header's.
pub(crate) fn check_checksum(bytes: &[u8], parsed: &Parsed) -> Result<(), ErrorKind> {
    let found = hash128(&bytes[parsed.payload.clone()]);
    if found != parsed.header.checksum {
        return Err(ErrorKind::ChecksumMismatch {
            expected: format!("{:032x}", parsed.header.checksum),
            found: format!("{found:032x}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serialises a file with arbitrary (possibly inconsistent) fields but a
    /// correct header hash, so only the checks after the self-hash can catch it.
    fn raw_file(encoding: u8, states: u64, payload: Payload) -> Vec<u8> {
        let bytes = match &payload {
            Payload::Dense(v) | Payload::Fst(v) => v.clone(),
        };
        let checksum = hash128(&bytes).to_le_bytes();
        let header_hash = header_hash(
            "raw",
            0,
            states,
            [states].into_iter(),
            encoding,
            &checksum,
            "g",
            std::iter::empty(),
        );
        let file = TableFile {
            header: Header {
                id: "raw".into(),
                definition_hash: 0,
                states,
                histogram: vec![states],
                encoding,
                checksum,
                generator: "g".into(),
                meta: Vec::new(),
                header_hash,
            },
            payload,
        };
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&file, out).unwrap()
    }

    fn parse_err(bytes: &[u8]) -> String {
        let mut buf = rkyv::util::AlignedVec::<16>::new();
        buf.extend_from_slice(bytes);
        match parse(&buf) {
            Ok(_) => panic!("parsed"),
            Err(e) => e.to_string(),
        }
    }

    /// A full disk while the frame is written is an I/O failure (exit 1 in
    /// the commands, as a fault of the machine), said as such: not corruption.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_an_io_failure_not_corruption() {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let meta = TableMeta {
            id: "t".into(),
            definition_hash: 1,
            states: 3,
            histogram: vec![1, 2],
            generator: "g".into(),
            meta: Vec::new(),
        };
        let kind = write_frame(&file, &meta, Encoding::Byte, [0; 16], 3).unwrap_err();
        assert!(matches!(kind, ErrorKind::Io { .. }), "{kind:?}");
        let e = FormatError::new(Some(std::path::Path::new("d/t.tbl")), kind);
        assert!(e.is_machine_fault(), "{e}");
        assert_eq!(
            e.to_string(),
            "d/t.tbl: cannot write: No space left on device (os error 28)"
        );
        // A refused file is not the machine's fault.
        let not_file = FormatError::new(
            None,
            ErrorKind::NotAFile {
                found: "a directory",
            },
        );
        assert!(!not_file.is_machine_fault());
        let denied = FormatError::io(
            std::path::Path::new("t.tbl"),
            "cannot open",
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        assert!(!denied.is_machine_fault());
    }

    #[test]
    fn consistent_raw_file_parses() {
        let bytes = raw_file(Encoding::Byte.tag(), 3, Payload::Dense(vec![1, 2, 3]));
        let mut buf = rkyv::util::AlignedVec::<16>::new();
        buf.extend_from_slice(&bytes);
        let p = parse(&buf).unwrap();
        assert_eq!(&buf[p.payload.clone()], &[1, 2, 3]);
        check_checksum(&buf, &p).unwrap();
    }

    #[test]
    fn dense_length_must_match_states() {
        let b = raw_file(Encoding::Nibble.tag(), 5, Payload::Dense(vec![0; 2]));
        let msg = parse_err(&b);
        assert!(msg.contains("dense payload is 2 bytes"), "{msg}");
        assert!(msg.contains("need 3"), "{msg}");
    }

    #[test]
    fn payload_kind_must_match_encoding() {
        let fst = fst::MapBuilder::memory().into_inner().unwrap();
        let b = raw_file(Encoding::Trit.tag(), 0, Payload::Fst(fst));
        assert!(parse_err(&b).contains("header says trit but the payload is an FST"));
        let b = raw_file(Encoding::Fst.tag(), 0, Payload::Dense(vec![]));
        assert!(parse_err(&b).contains("header says fst but the payload is dense"));
    }

    #[test]
    fn unknown_encoding_tag_is_corrupt() {
        let b = raw_file(9, 0, Payload::Dense(vec![]));
        assert!(parse_err(&b).contains("unknown encoding tag 9"));
    }

    #[test]
    fn bad_fst_is_corrupt_with_offset() {
        let b = raw_file(Encoding::Fst.tag(), 0, Payload::Fst(vec![1, 2, 3]));
        let msg = parse_err(&b);
        assert!(msg.contains("bad FST payload at bytes"), "{msg}");
    }

    #[test]
    fn addresses_become_offsets() {
        let base = 0x7f00_0000_1000usize;
        assert_eq!(
            addresses_to_offsets(
                "unaligned pointer: ptr 0x00007f0000001013 unaligned for alignment 8",
                base
            ),
            "unaligned pointer: at byte 19 unaligned for alignment 8"
        );
        assert_eq!(
            addresses_to_offsets(
                "subtree pointer overran range: ptr 0x00007f0000001010 size 96 in range \
                 0x00007f0000001010..0x00007f0000001011",
                base
            ),
            "subtree pointer overran range: at byte 16 size 96 in range byte 16..17"
        );
        assert_eq!(
            addresses_to_offsets("ptr 0x0000000000000010 0x", base),
            "ptr an address outside the file 0x"
        );
    }

    #[test]
    fn truncated_archive_messages_name_lengths_and_offsets() {
        let b = raw_file(Encoding::Byte.tag(), 300, Payload::Dense(vec![1; 300]));
        for cut in [b.len() / 2, b.len() - 1, 40] {
            let msg = parse_err(&b[..cut]);
            assert!(msg.contains("truncated"), "{msg}");
            assert!(!msg.contains("rancor"), "{msg}");
            assert!(!msg.contains("0x"), "{msg}");
            assert!(msg.contains(&format!("{cut}")), "{msg}");
        }
    }

    #[test]
    fn error_and_table_types_are_thread_safe() {
        fn check<T: Send + Sync + 'static>() {}
        check::<FormatError>();
        check::<crate::Table>();
    }
}
