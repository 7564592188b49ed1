//! A checkpoint of one number of workers, cut anew for another.
//!
//! Worker `I` of `P` owns the ranks [`super::slice_of`]`(size, P, I)`, and
//! its layer file `wI-of-P-dDDD.bits.zst` is the zstd bitmap of that slice.
//! Every slice but the last is a whole multiple of 64 ranks, so the slices'
//! bitmaps end to end are the table's bitmap of the layer, byte for byte,
//! whatever `P`. A checkpoint of `P` workers becomes one of `Q` by reading
//! each layer's `P` bitmaps as one stream and writing it out again in `Q`
//! pieces: a pass over the files, front to back, holding a buffer. The
//! figures file of each new worker is written after all its layers, and the
//! old files are removed last, so a re-cut cut short is done again (or the
//! new checkpoint taken) by the next run.
//!
//! Only a checkpoint whose every worker's files are in the directory is cut
//! anew: a cluster whose processes keep their files on their own disks
//! starts over, as before.

use super::{checkpoint_error, checkpoint_io, peers_of, Checkpoint, DistError, Figures};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

/// A complete checkpoint found in the directory.
struct Found {
    peers: usize,
    depth: u8,
    figures: Figures,
}

/// Makes the checkpoint in `dir` of table `key` (a space of `size` ranks) one
/// of `peers` workers, if it is a complete checkpoint of another number of
/// workers and there is no complete one of `peers` workers. Returns the
/// number of workers it was of and the depth it reached, when it cut one.
/// Processes sharing the directory take turns (a lock on the directory).
pub(super) fn recut(
    dir: &Path,
    key: u64,
    size: u64,
    peers: usize,
) -> Result<Option<(usize, u8)>, DistError> {
    let handle = match std::fs::File::open(dir) {
        Ok(h) => h,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(checkpoint_io(dir, &e)),
    };
    handle.lock().map_err(|e| checkpoint_io(dir, &e))?;
    let result = recut_locked(dir, key, size, peers);
    let _ = handle.unlock();
    result
}

fn recut_locked(
    dir: &Path,
    key: u64,
    size: u64,
    peers: usize,
) -> Result<Option<(usize, u8)>, DistError> {
    if complete(dir, key, size, peers).is_some() {
        return Ok(None);
    }
    // The worker counts of the checkpoints in the directory; the one that
    // reached furthest is taken.
    let mut counts: Vec<usize> = std::fs::read_dir(dir)
        .map_err(|e| checkpoint_io(dir, &e))?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".json").then(|| peers_of(&name)).flatten()
        })
        .filter(|&p| p != peers && p > 0)
        .collect();
    counts.sort_unstable();
    counts.dedup();
    let Some(old) = counts
        .iter()
        .filter_map(|&p| complete(dir, key, size, p))
        .max_by_key(|f| (f.depth, std::cmp::Reverse(f.peers)))
    else {
        return Ok(None);
    };
    for d in 0..=old.depth {
        cut_layer(dir, key, size, old.peers, peers, d)?;
    }
    for j in 0..peers {
        let ck = Checkpoint::new(dir, key, j, peers, size);
        // The new slice's own states, counted from the layers just cut.
        let own = (0..=old.depth)
            .map(|d| ck.count_layer(d).map(|(_, ones)| ones))
            .collect::<std::io::Result<Vec<u64>>>()
            .map_err(|e| checkpoint_io(&ck.layer_path(0), &e))?;
        ck.save_meta(
            old.depth,
            &Figures {
                own,
                ..old.figures.clone()
            },
        )?;
    }
    // The old files: layers, figures, and out of core the reached-states
    // bitmaps and runs (which a resume makes again from the layers).
    for e in std::fs::read_dir(dir)
        .map_err(|e| checkpoint_io(dir, &e))?
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && peers_of(&name) == Some(old.peers) {
            let _ = std::fs::remove_file(e.path());
        }
    }
    Ok(Some((old.peers, old.depth)))
}

/// The checkpoint of `peers` workers in `dir`, if every worker's figures are
/// there, of this table and slice; its depth is the least they reached.
fn complete(dir: &Path, key: u64, size: u64, peers: usize) -> Option<Found> {
    let mut found: Option<Found> = None;
    for i in 0..peers {
        let s = Checkpoint::new(dir, key, i, peers, size).load().ok()??;
        match &mut found {
            None => {
                found = Some(Found {
                    peers,
                    depth: s.depth,
                    figures: s.figures,
                })
            }
            Some(f) if s.depth < f.depth => {
                f.depth = s.depth;
                f.figures = f.figures.upto(s.depth);
            }
            Some(_) => {}
        }
    }
    found
}

/// Writes the layer `depth` of `to` workers from that of `from` workers.
fn cut_layer(
    dir: &Path,
    key: u64,
    size: u64,
    from: usize,
    to: usize,
    depth: u8,
) -> Result<(), DistError> {
    // The old slices' bitmaps, one after the other, as one reader.
    let mut stream: Box<dyn Read> = Box::new(std::io::empty());
    for i in 0..from {
        let path = Checkpoint::new(dir, key, i, from, size).layer_path(depth);
        let file = std::fs::File::open(&path).map_err(|e| checkpoint_io(&path, &e))?;
        let dec = zstd::Decoder::with_buffer(BufReader::with_capacity(1 << 16, file))
            .map_err(|e| checkpoint_error(&path, e))?;
        stream = Box::new(stream.chain(Checked { inner: dec, path }));
    }
    for j in 0..to {
        let ck = Checkpoint::new(dir, key, j, to, size);
        let bytes = (ck.hi - ck.lo).div_ceil(8);
        let path = ck.layer_path(depth);
        let staged = tablefmt::StagedFile::create(&path, |f| {
            let fail = |e: &dyn std::fmt::Display| {
                tablefmt::FormatError::from(tablefmt::ErrorKind::Invalid(
                    checkpoint_error(&path, e).to_string(),
                ))
            };
            let mut enc = zstd::Encoder::new(BufWriter::with_capacity(1 << 16, f), 1)
                .map_err(|e| fail(&e))?;
            enc.include_checksum(true).map_err(|e| fail(&e))?;
            let copied =
                std::io::copy(&mut (&mut stream).take(bytes), &mut enc).map_err(|e| fail(&e))?;
            if copied != bytes {
                return Err(fail(&"the old checkpoint's layer is too short"));
            }
            enc.finish()
                .and_then(|mut w| w.flush())
                .map_err(|e| fail(&e))
        })
        .map_err(|e| DistError::Recut(e.to_string()))?;
        staged
            .commit()
            .map_err(|e| DistError::Recut(e.to_string()))?;
    }
    let mut rest = [0u8; 1];
    match stream.read(&mut rest) {
        Ok(0) => Ok(()),
        Ok(_) => Err(checkpoint_error(
            dir,
            format_args!("the old layer {depth} is longer than the table"),
        )),
        Err(e) => Err(checkpoint_error(dir, e)),
    }
}

/// A reader whose errors name its file.
struct Checked<R> {
    inner: R,
    path: std::path::PathBuf,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", self.path.display())))
    }
}
