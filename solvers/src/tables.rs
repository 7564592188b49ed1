//! Distance tables for solvers: memory-mapped from the table directory, or built
//! on first use (and saved there when it is writable).

use std::path::Path;
use tablegen::catalog::{self, Built};
use tablegen::progress::Progress;

/// A dense distance table: one small distance per rank.
pub enum DistanceTable {
    /// A verified artifact, memory-mapped.
    Mapped(tablefmt::Table),
    /// Built in this process (one byte per rank).
    Owned(Vec<u8>),
}

impl DistanceTable {
    /// Distance of a rank.
    #[inline]
    pub fn get(&self, rank: u64) -> u8 {
        match self {
            DistanceTable::Mapped(t) => t.dense().map_or(0, |d| d.get(rank)),
            DistanceTable::Owned(v) => v[rank as usize],
        }
    }
}

/// Errors while getting a table.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The artifact exists but is corrupt or for another definition.
    #[error("{0}")]
    Format(#[from] tablefmt::FormatError),
    /// The artifact was built from another definition of the table.
    #[error(
        "{path}: built from another definition of {id}; rebuild it with `tablegen build {id}`"
    )]
    Stale {
        /// The file.
        path: String,
        /// The table id.
        id: String,
    },
    /// Building failed.
    #[error("building {0}: {1}")]
    Build(String, String),
}

/// Opens table `id` from `dir`, or builds it (showing progress unless `quiet`) and
/// tries to save it there.
pub fn load_or_build(id: &str, dir: &Path, quiet: bool) -> Result<DistanceTable, TableError> {
    let def = catalog::find(id)
        .ok_or_else(|| TableError::Build(id.into(), "not in the catalog".into()))?;
    let path = tablegen::artifact::artifact_path(dir, id);
    if path.exists() {
        let opts = tablefmt::OpenOptions {
            verify_checksum: true,
            expect_id: Some(id.to_string()),
        };
        let table = tablefmt::Table::open(&path, &opts)?;
        if table.info().definition_hash != def.definition_hash() {
            return Err(TableError::Stale {
                path: path.display().to_string(),
                id: id.into(),
            });
        }
        return Ok(DistanceTable::Mapped(table));
    }
    let progress = Progress::new(id, def.expected_states, quiet);
    let out = catalog::build(&def, &progress).map_err(|e| TableError::Build(id.into(), e))?;
    if let Ok(bytes) = tablegen::artifact::encode(&def, &out) {
        // Saving is a convenience: a read-only table directory still solves.
        if std::fs::create_dir_all(dir).is_ok() {
            let _ = tablefmt::write_atomic(&path, &bytes);
        }
    }
    match out.data {
        Built::Dense(v) => Ok(DistanceTable::Owned(v)),
        Built::Sparse(_) => Err(TableError::Build(id.into(), "not a dense table".into())),
    }
}

/// A distance table read as its packed payload bytes, without going through the
/// container on every lookup: nibbles (4 bits per rank, the even rank in the low
/// half of each byte) or trits (distance mod 3, 5 per byte, for walking downhill
/// or for an exact bound that follows the search one move at a time).
pub struct Packed {
    mapped: Option<tablefmt::Table>,
    owned: Vec<u8>,
}

/// A table stored as nibbles.
pub type Nibbles = Packed;
/// A table stored as trits (distance mod 3).
pub type Trits = Packed;

impl Packed {
    /// Opens (or builds) table `id`, which must be stored as nibbles.
    pub fn load(id: &str, dir: &Path, quiet: bool) -> Result<Packed, TableError> {
        Packed::load_as(id, dir, quiet, tablefmt::Encoding::Nibble)
    }

    /// Opens (or builds) table `id`, which must be stored as trits.
    pub fn load_trits(id: &str, dir: &Path, quiet: bool) -> Result<Packed, TableError> {
        Packed::load_as(id, dir, quiet, tablefmt::Encoding::Trit)
    }

    fn load_as(
        id: &str,
        dir: &Path,
        quiet: bool,
        encoding: tablefmt::Encoding,
    ) -> Result<Packed, TableError> {
        match load_or_build(id, dir, quiet)? {
            DistanceTable::Mapped(t) => {
                if t.encoding() != encoding {
                    return Err(TableError::Build(
                        id.into(),
                        format!("stored as {}, expected {encoding}", t.encoding()),
                    ));
                }
                Ok(Packed {
                    mapped: Some(t),
                    owned: Vec::new(),
                })
            }
            DistanceTable::Owned(mut v) => {
                if encoding == tablefmt::Encoding::Trit {
                    v.iter_mut().for_each(|d| *d %= 3);
                }
                Ok(Packed {
                    mapped: None,
                    owned: tablefmt::pack_dense(&v, encoding)?,
                })
            }
        }
    }

    /// The packed bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        match &self.mapped {
            Some(t) => t.payload(),
            None => &self.owned,
        }
    }
}

/// The nibble of rank `i` in packed bytes.
#[inline(always)]
pub fn nibble(bytes: &[u8], i: usize) -> usize {
    ((bytes[i >> 1] >> ((i & 1) << 2)) & 15) as usize
}

/// Asks the CPU to fetch `items[i]` into the cache (a hint: nothing happens on
/// other architectures or out of range).
#[inline(always)]
pub fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(p) = items.get(i) {
        // SAFETY: a prefetch is only a hint: it reads nothing the program sees and
        // never faults; the address is within `bytes` anyway.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                (p as *const T).cast::<i8>(),
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
}
