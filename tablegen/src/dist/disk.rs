//! A worker's slice kept on disk, for builds under a memory limit: delayed
//! duplicate detection in the manner of Korf's disk-based BFS.
//!
//! The slice's states are never held in memory. On disk there are, per
//! layer, the bitmap of the slice's states at that depth (the checkpoint
//! files) and one bitmap of every state reached so far, all zstd-compressed
//! (a sparse bitmap takes little room) and written and read front to back. A layer is expanded by reading its bitmap in
//! order; the neighbours arrive at their owner, which gathers them in a
//! buffer of bounded size and, when it is full, sorts it and writes it out as
//! a run (sorted ranks, delta-coded). Once the layer is complete, the owner
//! reads the reached-states bitmap and all the runs together, front to back,
//! a chunk of the slice at a time: each rank of a run not reached yet is
//! marked reached and goes into the next layer's bitmap. The reached-states
//! bitmap is written anew as it is read, and replaces the old one. No file is read or
//! written anywhere but in order.

use super::{Checkpoint, DistError};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes of slice bitmap handled at a time (8 ranks per byte).
pub(super) const CHUNK_BYTES: usize = 1 << 16;

/// Buffer of each run being read back.
const RUN_BUFFER: usize = 1 << 15;

fn io(path: &Path, reason: impl std::fmt::Display) -> DistError {
    DistError::OutOfCore {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

fn io_err(path: &Path, e: &std::io::Error) -> DistError {
    io(path, tablefmt::io_reason(e))
}

/// One worker's slice on disk.
pub(super) struct DiskSlice {
    ck: Checkpoint,
    /// Bytes of the slice's bitmaps.
    bytes: u64,
    /// Ranks received for the next layer and not yet written as a run.
    inbox: Vec<u64>,
    /// The radix sort's second buffer, as large as `inbox`.
    scratch: Vec<u64>,
    /// How many ranks `inbox` may hold before it is written out.
    cap: usize,
    /// The most ranks one batch received holds.
    batch: usize,
    runs: Vec<PathBuf>,
    /// The first error of the receiving side (it runs inside timely).
    error: Option<DistError>,
}

impl DiskSlice {
    /// A slice that writes a run once it holds `cap` received ranks; the
    /// batches it receives hold at most `batch` ranks.
    pub(super) fn new(ck: Checkpoint, cap: usize, batch: usize) -> DiskSlice {
        let bytes = (ck.hi - ck.lo).div_ceil(8);
        DiskSlice {
            ck,
            bytes,
            inbox: Vec::with_capacity(cap + batch),
            scratch: Vec::new(),
            cap,
            batch,
            runs: Vec::new(),
            error: None,
        }
    }

    /// The bitmap of the states within `depth`.
    fn visited_path(&self, depth: u8) -> PathBuf {
        let name = format!("{}-visited-d{depth:03}.bits.zst", self.ck.prefix);
        self.ck.dir.join(name)
    }

    /// Removes the reached-states bitmaps of other depths than `keep`.
    fn remove_other_visited(&self, keep: u8) {
        let prefix = format!("{}-visited-", self.ck.prefix);
        let keep = self.visited_path(keep);
        for e in std::fs::read_dir(&self.ck.dir)
            .into_iter()
            .flatten()
            .flatten()
        {
            if e.file_name().to_string_lossy().starts_with(&prefix) && e.path() != keep {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }

    fn run_path(&self, k: usize) -> PathBuf {
        self.ck
            .dir
            .join(format!("{}-run{k:05}.ranks", self.ck.prefix))
    }

    /// Where worker 0 gathers the whole table, one depth byte per rank.
    pub(super) fn depths_path(dir: &Path, peers: usize) -> PathBuf {
        dir.join(format!("w0-of-{peers}.depths"))
    }

    /// Removes the runs a stopped build left.
    fn remove_old_runs(&self) {
        let prefix = format!("{}-run", self.ck.prefix);
        for e in std::fs::read_dir(&self.ck.dir)
            .into_iter()
            .flatten()
            .flatten()
        {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }

    /// Starts the build: layer 0 holds `goals` (ranks of this slice).
    pub(super) fn start(&mut self, goals: &[u64]) -> Result<(), DistError> {
        std::fs::create_dir_all(&self.ck.dir).map_err(|e| io_err(&self.ck.dir, &e))?;
        let mut layer = LayerWriter::create(&self.ck.layer_path(0))?;
        let mut visited = LayerWriter::create(&self.visited_path(0))?;
        let mut chunk = vec![0u8; CHUNK_BYTES];
        let mut at = 0;
        while at < self.bytes {
            let n = (CHUNK_BYTES as u64).min(self.bytes - at) as usize;
            let chunk = &mut chunk[..n];
            chunk.fill(0);
            for &g in goals {
                let i = g - self.ck.lo;
                if (at..at + n as u64).contains(&(i / 8)) {
                    chunk[(i / 8 - at) as usize] |= 1 << (i % 8);
                }
            }
            layer.write(chunk)?;
            visited.write(chunk)?;
            at += n as u64;
        }
        visited.finish()?;
        layer.finish()
    }

    /// Resumes from the layers `0..=upto` on disk: the reached-states bitmap
    /// of that depth is kept if it was written whole, else made again from
    /// the layers.
    pub(super) fn restore(&mut self, upto: u8) -> Result<(), DistError> {
        self.remove_old_runs();
        self.remove_other_visited(upto);
        if self.visited_path(upto).exists() {
            return Ok(());
        }
        let mut layers = (0..=upto)
            .map(|d| LayerReader::open(&self.ck.layer_path(d), self.bytes))
            .collect::<Result<Vec<_>, _>>()?;
        let mut visited = LayerWriter::create(&self.visited_path(upto))?;
        let mut acc = Vec::new();
        loop {
            acc.clear();
            for l in layers.iter_mut() {
                let Some((_, bits)) = l.next_chunk()? else {
                    break;
                };
                if acc.is_empty() {
                    acc.extend_from_slice(bits);
                } else {
                    acc.iter_mut().zip(bits).for_each(|(a, b)| *a |= b);
                }
            }
            if acc.is_empty() {
                break;
            }
            visited.write(&acc)?;
        }
        visited.finish()
    }

    /// Reads the layer `depth` of the slice, a chunk at a time.
    pub(super) fn layer(&self, depth: u8) -> Result<LayerReader, DistError> {
        LayerReader::open(&self.ck.layer_path(depth), self.bytes)
    }

    /// Gives back the memory of the received ranks (for a layer that
    /// receives none: a pulled one); the next rank received takes it again.
    pub(super) fn release(&mut self) {
        self.inbox = Vec::new();
        self.scratch = Vec::new();
    }

    /// Takes ranks of this slice sent for the next layer.
    pub(super) fn take(&mut self, ranks: &mut Vec<u64>) {
        if self.inbox.capacity() == 0 {
            self.inbox.reserve_exact(self.cap + self.batch);
        }
        self.inbox.append(ranks);
        if self.inbox.len() >= self.cap {
            if let Err(e) = self.spill() {
                self.error.get_or_insert(e);
            }
        }
    }

    /// Sorts the received ranks and drops repeats.
    fn sort_inbox(&mut self) {
        let bits = 64 - (self.ck.hi - self.ck.lo).leading_zeros();
        radix_sort(&mut self.inbox, &mut self.scratch, self.ck.lo, bits);
        self.inbox.dedup();
    }

    /// Writes the received ranks out as a sorted run.
    fn spill(&mut self) -> Result<(), DistError> {
        self.sort_inbox();
        let path = self.run_path(self.runs.len());
        let mut w = BufWriter::new(File::create(&path).map_err(|e| io_err(&path, &e))?);
        let mut last = self.ck.lo;
        let mut buf = [0u8; 10];
        for &r in &self.inbox {
            let n = put_varint(&mut buf, r - last);
            last = r;
            w.write_all(&buf[..n]).map_err(|e| io_err(&path, &e))?;
        }
        w.flush().map_err(|e| io_err(&path, &e))?;
        self.runs.push(path);
        self.inbox.clear();
        Ok(())
    }

    /// Ends a layer: the ranks received, less those reached before, are the
    /// layer `next`, written to disk. Returns how many there are.
    pub(super) fn merge(&mut self, next: u8) -> Result<u64, DistError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.sort_inbox();
        let mut runs = self
            .runs
            .iter()
            .map(|p| RunReader::open(p, self.ck.lo))
            .collect::<Result<Vec<_>, _>>()?;
        let inbox = std::mem::take(&mut self.inbox);
        let mut held = 0usize;
        let found = self.rewrite(next, |first, reached, fresh| {
            let end = first + reached.len() as u64 * 8;
            let mut found = 0;
            let mut mark = |r: u64| {
                let i = (r - first) as usize;
                let bit = 1u8 << (i % 8);
                if reached[i / 8] & bit == 0 {
                    reached[i / 8] |= bit;
                    fresh[i / 8] |= bit;
                    found += 1;
                }
            };
            while held < inbox.len() && inbox[held] < end {
                mark(inbox[held]);
                held += 1;
            }
            for run in runs.iter_mut() {
                while let Some(r) = run.next_below(end)? {
                    mark(r);
                }
            }
            Ok(found)
        });
        self.inbox = inbox;
        self.inbox.clear();
        drop(runs);
        for p in self.runs.drain(..) {
            let _ = std::fs::remove_file(p);
        }
        found
    }

    /// Pulls the layer `next`: every state of the slice not reached yet for
    /// which `hit` says yes (it has a neighbour in the frontier), written to
    /// disk. Returns how many there are.
    pub(super) fn pull(
        &mut self,
        next: u8,
        mut hit: impl FnMut(u64) -> bool,
    ) -> Result<u64, DistError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let hi = self.ck.hi;
        self.rewrite(next, |first, reached, fresh| {
            let mut found = 0;
            for (i, (byte, new)) in reached.iter_mut().zip(fresh.iter_mut()).enumerate() {
                let mut open = !*byte;
                while open != 0 {
                    let b = open.trailing_zeros();
                    open &= open - 1;
                    let r = first + i as u64 * 8 + u64::from(b);
                    // The last byte's bits past the slice are no states.
                    if r >= hi {
                        break;
                    }
                    if hit(r) {
                        *byte |= 1 << b;
                        *new |= 1 << b;
                        found += 1;
                    }
                }
            }
            Ok(found)
        })
    }

    /// Reads the reached-states bitmap of depth `next - 1` a chunk at a
    /// time; `mark` sets the states of the layer `next` in the chunk (in
    /// both the reached bitmap and the new layer's, given empty) and says how
    /// many it set. Writes the reached-states bitmap of `next` and the layer
    /// `next`, then removes the old bitmap. Returns the states marked.
    fn rewrite(
        &mut self,
        next: u8,
        mut mark: impl FnMut(u64, &mut [u8], &mut [u8]) -> Result<u64, DistError>,
    ) -> Result<u64, DistError> {
        let mut old = LayerReader::open(&self.visited_path(next - 1), self.bytes)?;
        let mut visited = LayerWriter::create(&self.visited_path(next))?;
        let mut layer = LayerWriter::create(&self.ck.layer_path(next))?;
        let mut found = 0u64;
        let mut reached = vec![0u8; CHUNK_BYTES];
        let mut fresh = vec![0u8; CHUNK_BYTES];
        while let Some((at, bits)) = old.next_chunk()? {
            let n = bits.len();
            let (reached, fresh) = (&mut reached[..n], &mut fresh[..n]);
            reached.copy_from_slice(bits);
            fresh.fill(0);
            found += mark(self.ck.lo + at * 8, reached, fresh)?;
            visited.write(reached)?;
            layer.write(fresh)?;
        }
        // Both new bitmaps are in place before the old one goes: a resume
        // from either depth finds its bitmap, or makes it from the layers.
        layer.finish()?;
        visited.finish()?;
        drop(old);
        let _ = std::fs::remove_file(self.visited_path(next - 1));
        Ok(found)
    }

    /// The slice's depths, a chunk of ranks at a time (`UNREACHED` where no
    /// layer up to `last` holds the rank), read from the layers.
    pub(super) fn depths(&self, last: u8) -> Result<DepthReader, DistError> {
        let layers = (0..=last)
            .map(|d| self.layer(d))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(DepthReader {
            layers,
            lo: self.ck.lo,
            hi: self.ck.hi,
        })
    }
}

/// The depths of a slice, from its layers.
pub(super) struct DepthReader {
    layers: Vec<LayerReader>,
    lo: u64,
    hi: u64,
}

impl DepthReader {
    /// The next chunk: its first rank and one depth byte per rank.
    pub(super) fn next_piece(&mut self) -> Result<Option<(u64, Vec<u8>)>, DistError> {
        let mut out: Vec<u8> = Vec::new();
        let mut first = 0;
        for (d, l) in self.layers.iter_mut().enumerate() {
            let Some((at, bits)) = l.next_chunk()? else {
                return Ok(None);
            };
            if out.is_empty() {
                first = self.lo + at * 8;
                let n = (self.hi - first).min(bits.len() as u64 * 8) as usize;
                out = vec![crate::bfs::UNREACHED; n];
            }
            for (i, &byte) in bits.iter().enumerate().filter(|x| *x.1 != 0) {
                let mut b = byte;
                while b != 0 {
                    out[i * 8 + b.trailing_zeros() as usize] = d as u8;
                    b &= b - 1;
                }
            }
        }
        Ok((!out.is_empty()).then_some((first, out)))
    }
}

/// A layer's bitmap being written: zstd, to a temporary name renamed into
/// place when complete.
struct LayerWriter {
    path: PathBuf,
    tmp: PathBuf,
    enc: zstd::Encoder<'static, BufWriter<File>>,
}

impl LayerWriter {
    fn create(path: &Path) -> Result<LayerWriter, DistError> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("layer");
        let tmp = path.with_file_name(format!(".{name}.tmp"));
        let f = File::create(&tmp).map_err(|e| io_err(&tmp, &e))?;
        let mut enc = zstd::Encoder::new(BufWriter::new(f), 1).map_err(|e| io_err(&tmp, &e))?;
        // The checksum makes a damaged checkpoint fail to decode.
        enc.include_checksum(true).map_err(|e| io_err(&tmp, &e))?;
        Ok(LayerWriter {
            path: path.to_path_buf(),
            tmp,
            enc,
        })
    }

    fn write(&mut self, bits: &[u8]) -> Result<(), DistError> {
        self.enc.write_all(bits).map_err(|e| io_err(&self.tmp, &e))
    }

    fn finish(self) -> Result<(), DistError> {
        let w = self.enc.finish().map_err(|e| io_err(&self.tmp, &e))?;
        let f = w.into_inner().map_err(|e| io_err(&self.tmp, e.error()))?;
        f.sync_all().map_err(|e| io_err(&self.tmp, &e))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| io_err(&self.path, &e))
    }
}

/// A layer's bitmap being read, a chunk at a time.
pub(super) struct LayerReader {
    path: PathBuf,
    dec: zstd::Decoder<'static, BufReader<File>>,
    bytes: u64,
    at: u64,
    buf: Vec<u8>,
}

impl LayerReader {
    fn open(path: &Path, bytes: u64) -> Result<LayerReader, DistError> {
        let f = File::open(path).map_err(|e| io_err(path, &e))?;
        let dec = zstd::Decoder::new(f).map_err(|e| io_err(path, &e))?;
        Ok(LayerReader {
            path: path.to_path_buf(),
            dec,
            bytes,
            at: 0,
            buf: vec![0; CHUNK_BYTES],
        })
    }

    /// The next chunk of the bitmap and the offset of its first byte.
    pub(super) fn next_chunk(&mut self) -> Result<Option<(u64, &[u8])>, DistError> {
        if self.at >= self.bytes {
            return Ok(None);
        }
        let n = (CHUNK_BYTES as u64).min(self.bytes - self.at) as usize;
        self.dec
            .read_exact(&mut self.buf[..n])
            .map_err(|e| io(&self.path, format_args!("{e} (checkpoint too short?)")))?;
        let at = self.at;
        self.at += n as u64;
        Ok(Some((at, &self.buf[..n])))
    }
}

/// A run being read back: ranks in increasing order.
struct RunReader {
    path: PathBuf,
    r: BufReader<File>,
    last: u64,
    /// A rank read but not yet handed out.
    peeked: Option<u64>,
}

impl RunReader {
    fn open(path: &Path, lo: u64) -> Result<RunReader, DistError> {
        let f = File::open(path).map_err(|e| io_err(path, &e))?;
        Ok(RunReader {
            path: path.to_path_buf(),
            r: BufReader::with_capacity(RUN_BUFFER, f),
            last: lo,
            peeked: None,
        })
    }

    /// The next rank if it is below `end`.
    fn next_below(&mut self, end: u64) -> Result<Option<u64>, DistError> {
        if self.peeked.is_none() {
            self.peeked = match get_varint(&mut self.r).map_err(|e| io_err(&self.path, &e))? {
                Some(d) => {
                    self.last += d;
                    Some(self.last)
                }
                None => return Ok(None),
            };
        }
        Ok(self
            .peeked
            .filter(|&r| r < end)
            .inspect(|_| self.peeked = None))
    }
}

/// Sorts `v`, whose values lie in `lo..lo + 2^bits`, by their digits of 11
/// bits from the lowest (a stable counting sort each), through `tmp`.
fn radix_sort(v: &mut Vec<u64>, tmp: &mut Vec<u64>, lo: u64, bits: u32) {
    const DIGIT: u32 = 11;
    let mask = (1u64 << DIGIT) - 1;
    if tmp.capacity() < v.capacity() {
        tmp.reserve_exact(v.capacity() - tmp.len());
    }
    tmp.clear();
    tmp.resize(v.len(), 0);
    let mut count = vec![0usize; 1 << DIGIT];
    for pass in 0..bits.div_ceil(DIGIT) {
        let shift = pass * DIGIT;
        let digit = |x: u64| ((x - lo) >> shift & mask) as usize;
        count.fill(0);
        for &x in v.iter() {
            count[digit(x)] += 1;
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        for &x in v.iter() {
            let d = digit(x);
            tmp[count[d]] = x;
            count[d] += 1;
        }
        std::mem::swap(v, tmp);
    }
}

/// LEB128: seven bits per byte, low first; returns the bytes used.
fn put_varint(buf: &mut [u8; 10], mut v: u64) -> usize {
    let mut n = 0;
    while v >= 0x80 {
        buf[n] = (v as u8) | 0x80;
        v >>= 7;
        n += 1;
    }
    buf[n] = v as u8;
    n + 1
}

/// The next LEB128 number, `None` at the end of the input.
fn get_varint(r: &mut impl std::io::BufRead) -> std::io::Result<Option<u64>> {
    let (mut v, mut shift) = (0u64, 0);
    loop {
        let b = match r.fill_buf()? {
            [] if shift == 0 => return Ok(None),
            [] => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            [b, ..] => *b,
        };
        r.consume(1);
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Ok(Some(v));
        }
        shift += 7;
        if shift > 63 {
            return Err(std::io::Error::other("a run holds a malformed number"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_sorts() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for (n, bits) in [(0usize, 1u32), (1, 1), (1000, 12), (5000, 33), (3000, 64)] {
            let lo = 1_000;
            let mut v: Vec<u64> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    lo + (x >> (64 - bits)).min(u64::MAX - lo)
                })
                .collect();
            let mut want = v.clone();
            want.sort_unstable();
            radix_sort(&mut v, &mut Vec::new(), lo, bits);
            assert_eq!(v, want, "{n} values of {bits} bits");
        }
    }

    #[test]
    fn varints_round_trip() {
        let values = [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX];
        let mut bytes = Vec::new();
        let mut buf = [0u8; 10];
        for v in values {
            let n = put_varint(&mut buf, v);
            bytes.extend_from_slice(&buf[..n]);
        }
        let mut r = &bytes[..];
        for v in values {
            assert_eq!(get_varint(&mut r).unwrap(), Some(v));
        }
        assert_eq!(get_varint(&mut r).unwrap(), None);
        assert!(get_varint(&mut &[0x80u8][..]).is_err());
    }
}
