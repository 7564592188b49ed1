//! `tablegen`: puzzle models, the restricted-move BFS engine and the table catalog.
//!
//! Tables are *made* here, *stored* by `tablefmt` and *used* by `solvers`. A table is
//! data ([`catalog::TableDef`]): a puzzle, a projection, a move set, a goal, a
//! ranking and an encoding; [`catalog::build`] runs its BFS.
//!
//! ```
//! use tablegen::{catalog, progress::Progress};
//! let def = catalog::find("4x4x4-lr-stage").unwrap();
//! let out = catalog::build(&def, &Progress::hidden()).unwrap();
//! assert_eq!(out.states(), 12_870);
//! ```
pub mod artifact;
pub mod bfs;
pub mod catalog;
pub mod centres5;
pub mod cli;
pub mod corners;
pub mod cube;
pub mod cube2;
pub mod cube3;
pub mod cube4;
pub mod cube5;
pub mod cycles;
#[cfg(feature = "timely")]
pub mod dist;
pub mod domino;
pub mod error;
pub mod install;
pub mod kociemba;
pub mod notation;
pub mod optimal3;
pub mod orbits;
pub mod pair5;
pub mod perm;
pub mod progress;
pub mod projection;
pub mod pyraminx;
pub mod split5;
pub mod validate;

pub use error::{ModelError, StateError};

/// The value of a scoped thread, its panic carried on to the caller (the
/// threads that load or build side by side).
pub fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    match handle.join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Asks the CPU to fetch `items[i]` into the cache (a hint: nothing happens on
/// other architectures or out of range).
#[inline(always)]
pub fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(p) = items.get(i) {
        // SAFETY: a prefetch is only a hint: it reads nothing the program sees and
        // never faults; the address is within `items` anyway.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                (p as *const T).cast::<i8>(),
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
}

/// The values of a table of words ([`tablefmt::Encoding::Word`]): built in
/// this process, or its file memory-mapped.
pub enum Words {
    /// Built here.
    Owned(Vec<u32>),
    /// A checked word table, mapped (boxed: the table's handle is large).
    Mapped(Box<tablefmt::Table>),
}

impl Words {
    /// Value `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        match self {
            Words::Owned(v) => v[i],
            Words::Mapped(t) => tablefmt::word(t.payload(), i),
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Words::Owned(v) => v.len(),
            Words::Mapped(t) => t.payload().len() / 4,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// All values, in order.
    pub fn to_vec(&self) -> Vec<u32> {
        match self {
            Words::Owned(v) => v.clone(),
            Words::Mapped(t) => t.words().map_or_else(Vec::new, |w| w.iter().collect()),
        }
    }
}

/// An empty vector with room for `cap` items whose buffer the kernel is asked
/// to back with 2 MB pages (Linux transparent huge pages, on request): filling
/// tens of megabytes then takes tens of page faults instead of thousands.
pub fn huge_vec<T>(cap: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(cap);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + cap.saturating_mul(std::mem::size_of::<T>());
        let (from, to) = ((start + HUGE - 1) & !(HUGE - 1), end & !(HUGE - 1));
        if to > from {
            // SAFETY: advice only, on whole pages inside the vector's own
            // allocation; it changes no byte and no mapping the program uses,
            // and a refusal (an error return) leaves 4 KB pages.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}
