//! A worker's checkpoint: the bitmap of each layer of its slice and the
//! figures up to the last, checked before a build resumes from them.

use super::*;

/// `bits` compressed as one zstd frame with its content checksum (so that a
/// damaged checkpoint fails to decode).
pub(super) fn zstd_checked(bits: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut enc = zstd::Encoder::new(Vec::new(), 1)?;
    enc.include_checksum(true)?;
    std::io::Write::write_all(&mut enc, bits)?;
    enc.finish()
}

/// The bitmap of the entries of `table` equal to `depth`.
pub(super) fn layer_bits(table: &[u8], depth: u8) -> Vec<u8> {
    let mut bits = vec![0u8; table.len().div_ceil(8)];
    for (i, &v) in table.iter().enumerate() {
        if v == depth {
            bits[i / 8] |= 1 << (i % 8);
        }
    }
    bits
}

/// The error of a checkpoint file or directory: `reason` after its path.
pub(super) fn checkpoint_error(path: &Path, reason: impl std::fmt::Display) -> DistError {
    DistError::Checkpoint {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// [`checkpoint_error`] of an OS error.
pub(super) fn checkpoint_io(path: &Path, e: &std::io::Error) -> DistError {
    checkpoint_error(path, tablefmt::io_reason(e))
}

/// The number of workers a checkpoint file name (`wI-of-P...`) is of.
pub(super) fn peers_of(name: &str) -> Option<usize> {
    let rest = name.strip_prefix('w')?.split_once("-of-")?.1;
    let end = rest.find(['-', '.']).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// A build's figures up to a layer: `histogram[d]` states at depth d (of
/// the whole space), `spent[d]` expansions up to depth d, `own[d]` states
/// at depth d in this worker's slice.
#[derive(Clone, Debug)]
pub(super) struct Figures {
    pub(super) histogram: Vec<u64>,
    pub(super) spent: Vec<u64>,
    pub(super) own: Vec<u64>,
}

impl Figures {
    /// The figures up to depth `d`.
    pub(super) fn upto(&self, d: u8) -> Figures {
        let k = d as usize + 1;
        Figures {
            histogram: self.histogram[..k].to_vec(),
            spent: self.spent[..k].to_vec(),
            own: self.own[..k].to_vec(),
        }
    }
}

/// What a worker's checkpoint says about the build.
pub(super) struct Saved {
    pub(super) depth: u8,
    pub(super) figures: Figures,
}

/// One worker's checkpoint files: per layer, the bitmap of its slice's
/// states at that depth (zstd, with its checksum), and a small JSON file of
/// the last layer saved, written after the layer's bitmap (each file
/// written whole, then renamed into place).
#[derive(Clone)]
pub(super) struct Checkpoint {
    pub(super) dir: PathBuf,
    pub(super) key: u64,
    pub(super) prefix: String,
    pub(super) peers: usize,
    pub(super) lo: u64,
    pub(super) hi: u64,
}

impl Checkpoint {
    pub(super) fn new(dir: &Path, key: u64, index: usize, peers: usize, size: u64) -> Checkpoint {
        let (_, lo, hi) = slice_of(size, peers, index);
        Checkpoint {
            dir: dir.to_path_buf(),
            key,
            prefix: format!("w{index}-of-{peers}"),
            peers,
            lo,
            hi,
        }
    }

    pub(super) fn meta_path(&self) -> PathBuf {
        self.dir.join(format!("{}.json", self.prefix))
    }

    pub(super) fn layer_path(&self, depth: u8) -> PathBuf {
        self.dir
            .join(format!("{}-d{depth:03}.bits.zst", self.prefix))
    }

    /// The error of a damaged file of this checkpoint.
    fn damaged(&self, path: &Path, what: impl std::fmt::Display) -> DistError {
        DistError::Damaged {
            path: path.to_path_buf(),
            dir: self.dir.clone(),
            what: what.to_string(),
        }
    }

    /// The checkpoint of this worker: `None` if there is none of this table,
    /// this number of workers and this slice; an error naming the file if
    /// it is one of this build's but damaged.
    pub(super) fn load(&self) -> Result<Option<Saved>, DistError> {
        let path = self.meta_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(checkpoint_io(&path, &e)),
        };
        let damaged = |what: &str| self.damaged(&path, what);
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|_| damaged("not JSON"))?;
        let num = |k: &str| v.get(k).and_then(|x| x.as_u64());
        let list = |k: &str| -> Option<Vec<u64>> {
            v.get(k)?.as_array()?.iter().map(|x| x.as_u64()).collect()
        };
        // Another table's, or another cut of the ranks: not this build's.
        if v.get("key").and_then(|k| k.as_str()) != Some(&format!("{:016x}", self.key))
            || num("peers") != Some(self.peers as u64)
            || num("lo") != Some(self.lo)
            || num("hi") != Some(self.hi)
        {
            return Ok(None);
        }
        let depth = num("depth")
            .and_then(|d| u8::try_from(d).ok())
            .ok_or_else(|| damaged("no depth"))?;
        let (histogram, spent, own) = match (list("histogram"), list("spent"), list("own")) {
            (Some(h), Some(s), Some(o)) => (h, s, o),
            _ => return Err(damaged("its figures are missing")),
        };
        let k = depth as usize + 1;
        if histogram.len() != k || spent.len() != k || own.len() != k {
            return Err(damaged("its figures do not match its depth"));
        }
        if own.iter().zip(&histogram).any(|(o, h)| o > h)
            || own.iter().sum::<u64>() > self.hi - self.lo
        {
            return Err(damaged("its slice holds more states than it can"));
        }
        Ok(Some(Saved {
            depth,
            figures: Figures {
                histogram,
                spent,
                own,
            },
        }))
    }

    /// Checks the layers `0..=upto` before a resume: each file whole (its
    /// checksum, its length) and holding as many states as the checkpoint
    /// says (`own`).
    pub(super) fn verify(&self, upto: u8, own: &[u64]) -> Result<(), DistError> {
        let bytes = (self.hi - self.lo).div_ceil(8);
        for d in 0..=upto {
            let path = self.layer_path(d);
            let (len, ones) = self
                .count_layer(d)
                .map_err(|e| self.damaged(&path, tablefmt::io_reason(&e)))?;
            if len != bytes {
                return Err(self.damaged(
                    &path,
                    format!("{len} bytes of bitmap, the slice has {bytes}"),
                ));
            }
            if ones != own[d as usize] {
                return Err(self.damaged(
                    &path,
                    format!(
                        "{ones} states, its index {} says {}",
                        self.meta_path().display(),
                        own[d as usize]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The bytes of the layer `depth`'s bitmap and the states it holds.
    pub(super) fn count_layer(&self, depth: u8) -> std::io::Result<(u64, u64)> {
        let f = std::fs::File::open(self.layer_path(depth))?;
        let mut dec = zstd::Decoder::new(f)?;
        let mut buf = vec![0u8; 1 << 20];
        let (mut len, mut ones) = (0u64, 0u64);
        loop {
            let n = std::io::Read::read(&mut dec, &mut buf)?;
            if n == 0 {
                return Ok((len, ones));
            }
            len += n as u64;
            ones += buf[..n]
                .iter()
                .map(|b| u64::from(b.count_ones()))
                .sum::<u64>();
        }
    }

    /// Rebuilds the slice from the layers `0..=upto`.
    pub(super) fn restore(&self, table: &mut [u8], upto: u8) -> Result<(), DistError> {
        table.fill(UNREACHED);
        for d in 0..=upto {
            let path = self.layer_path(d);
            let bytes = std::fs::read(&path).map_err(|e| checkpoint_io(&path, &e))?;
            let bits = zstd::decode_all(&bytes[..]).map_err(|e| checkpoint_error(&path, e))?;
            if bits.len() != table.len().div_ceil(8) {
                return Err(checkpoint_error(&path, "wrong length"));
            }
            for (i, cell) in table.iter_mut().enumerate() {
                if bits[i / 8] >> (i % 8) & 1 == 1 {
                    *cell = d;
                }
            }
        }
        Ok(())
    }

    /// Saves the layer `depth` of the slice and the figures up to it.
    pub(super) fn save(&self, table: &[u8], depth: u8, figures: &Figures) -> Result<(), DistError> {
        std::fs::create_dir_all(&self.dir).map_err(|e| checkpoint_io(&self.dir, &e))?;
        let bits = layer_bits(table, depth);
        let packed = zstd_checked(&bits).map_err(|e| checkpoint_error(&self.dir, e))?;
        let path = self.layer_path(depth);
        tablefmt::write_atomic(&path, &packed).map_err(|e| checkpoint_error(&path, e))?;
        self.save_meta(depth, figures)
    }

    /// Saves the figures up to the layer `depth`, whose bitmap is saved.
    pub(super) fn save_meta(&self, depth: u8, figures: &Figures) -> Result<(), DistError> {
        let meta = serde_json::json!({
            "key": format!("{:016x}", self.key),
            "peers": self.peers,
            "lo": self.lo,
            "hi": self.hi,
            "depth": depth,
            "histogram": figures.histogram,
            "spent": figures.spent,
            "own": figures.own,
        });
        let path = self.meta_path();
        tablefmt::write_atomic(&path, meta.to_string().as_bytes())
            .map_err(|e| checkpoint_error(&path, e))
    }

    /// Removes this worker's files, and those of builds with another number
    /// of workers (the workers of this build each remove their own); at the
    /// end of the build (`last`), the directory too once it is empty.
    pub(super) fn clear(&self, last: bool) -> Result<(), DistError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(checkpoint_io(&self.dir, &e)),
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            // Temporary files (`.NAME.tmp...`) are their writers' business.
            if name.starts_with('.') {
                continue;
            }
            let own = name.starts_with(&format!("{}-", self.prefix))
                || name == format!("{}.json", self.prefix);
            if own || peers_of(&name) != Some(self.peers) {
                let _ = std::fs::remove_file(e.path());
            }
        }
        if last {
            let _ = std::fs::remove_dir(&self.dir);
        }
        Ok(())
    }
}
