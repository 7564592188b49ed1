//! The dense BFS on timely dataflow: many workers, in one process or in
//! several processes over TCP, each owning a contiguous slice of the rank
//! space.
//!
//! A layer runs as one timestamp of a dataflow. Each worker expands the states
//! of its slice at the current depth; a neighbour it owns is marked at once,
//! any other is sent to its owner by the exchange pact; the layer ends when
//! timely's progress tracking says no rank of that timestamp is in flight
//! anywhere. A layer whose frontier outnumbers the unreached states is
//! pulled instead: every worker gets every slice's frontier bitmap and marks
//! its unreached states that have a neighbour in it, with no rank exchanged.
//! The workers then swap their counts (states found, expansions, time
//! taken), so every worker knows whether the search goes on, and the first
//! worker of each process reports the layer. Each worker can save a
//! checkpoint per layer, from which a build run again resumes. At the end
//! every slice is streamed to worker 0, which hands the whole table to its
//! caller.
//!
//! While it runs, [`timely_bfs`] replaces the process's panic hook: timely
//! reports a lost peer by panicking in its threads, and the build turns the
//! first such panic into its error instead of printing it.
//!
//! The distances are a function of the space alone, so the table equals the
//! in-memory engine's ([`crate::bfs::dense_bfs`]) byte for byte, whatever the
//! number of workers and processes.

mod channels;
mod checkpoint;
mod disk;
mod error;
pub mod meet;
mod recut;
mod worker;
use channels::*;
use checkpoint::*;
pub use error::DistError;
use worker::run_worker;

use crate::bfs::{Space, UNREACHED};
use crate::progress::Progress;
use disk::DiskSlice;
use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{mpsc, Arc};
use std::time::Instant;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;
use timely::{CommunicationConfig, Config, WorkerConfig};

/// Where a distributed build runs: worker threads per process, the number of
/// processes, this process's index and every process's `host:port`.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Worker threads in each process.
    pub workers: usize,
    /// Number of processes.
    pub processes: usize,
    /// This process's index, `0..processes`.
    pub process: usize,
    /// `host:port` of each process, in index order.
    pub hosts: Vec<String>,
    /// Where each worker keeps a checkpoint per layer, and what they are
    /// checkpoints of (the table's definition hash): a build that finds its
    /// own checkpoints there resumes from the last layer every worker
    /// finished. `None`: no checkpoints.
    pub checkpoint: Option<(PathBuf, u64)>,
    /// Stops the build with an error once the layer of this depth is found
    /// (and saved): a build in installments, resumed by the next run.
    pub stop_after: Option<u8>,
    /// Out of core: the bytes each process may use for the build's states.
    /// The slices then live on disk in the checkpoint directory (see
    /// `dist/disk.rs`), and the table is gathered into a file there, one depth
    /// byte per rank, instead of memory. `None`: everything in memory.
    pub memory_limit: Option<u64>,
    /// How long the processes of a build have to meet ([`meet`]) before it
    /// stops, naming the ones that never came.
    pub meet_timeout: std::time::Duration,
}

/// A finished build's distances, in process 0.
#[derive(Debug)]
pub enum Depths {
    /// One byte per rank, in memory.
    Memory(Vec<u8>),
    /// A file of one byte per rank (out-of-core builds), alone in the
    /// build's directory; its reader removes both.
    File(PathBuf),
}

/// What a timely build gives process 0.
#[derive(Debug)]
pub struct Finished {
    /// Distance of each rank, or [`UNREACHED`].
    pub depths: Depths,
    /// Number of states at each depth.
    pub histogram: Vec<u64>,
    /// Neighbour computations done.
    pub expansions: u64,
    /// Layers pulled (each unreached state looking for a neighbour in the
    /// frontier) rather than pushed.
    pub pulled: u32,
}

impl Cluster {
    /// One process with `workers` threads.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            workers,
            processes: 1,
            process: 0,
            hosts: Vec::new(),
            checkpoint: None,
            stop_after: None,
            memory_limit: None,
            meet_timeout: meet::DEFAULT_TIMEOUT,
        }
    }

    /// The default addresses of `n` processes on this machine (timely's own
    /// defaults: ports 2101 and up).
    pub fn default_hosts(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("localhost:{}", 2101 + i)).collect()
    }

    fn config(&self) -> Config {
        let communication = if self.processes > 1 {
            CommunicationConfig::Cluster {
                threads: self.workers,
                process: self.process,
                addresses: self.hosts.clone(),
                report: false,
                zerocopy: false,
            }
        } else if self.workers > 1 {
            CommunicationConfig::Process(self.workers)
        } else {
            CommunicationConfig::Thread
        };
        Config {
            communication,
            worker: WorkerConfig::default(),
        }
    }
}

/// Ranks a worker expands before it hands its sends to timely and lets the
/// dataflow run (bounds the memory of ranks in flight).
const CHUNK: u64 = 1 << 16;

/// The longest a waiting worker sleeps before it looks again (it wakes
/// at once when data arrives).
const PARK: std::time::Duration = std::time::Duration::from_millis(1);

/// Room beyond a buffer's limit for the neighbours of one state (fewer
/// than 64 moves).
const SLACK: usize = 64;

/// Slices of the finished table sent to worker 0 in pieces of this many bytes.
const GATHER: usize = 1 << 20;

/// What the first worker of each process tells its caller.
enum Report {
    /// A layer is done.
    Layer {
        depth: u8,
        found: u64,
        reached: u64,
        slowest: usize,
        slowest_secs: f64,
    },
    /// The build resumes from a checkpoint.
    Resumed { depth: u8, reached: u64 },
}

/// One worker's share of a round: states found, expansions, seconds, the
/// worker's index, and whether it failed (its error stays with it).
type Share = (u64, u64, f64, u64, bool);

/// Shares a worker has received, with the round each was sent in.
type Inbox = Rc<RefCell<Vec<(u32, (u64, Share))>>>;

/// Runs the dense BFS of `space` on timely. Returns the table in process 0
/// and `None` in the others (their slices went to process 0).
pub fn timely_bfs<S: Space + Send + 'static>(
    space: S,
    cluster: &Cluster,
    progress: &Progress,
) -> Result<Option<Finished>, DistError> {
    if cluster.memory_limit.is_some() && cluster.checkpoint.is_none() {
        return Err(DistError::NoDirectory);
    }
    if cluster.processes > 1 && cluster.hosts.len() != cluster.processes {
        return Err(DistError::Hosts {
            processes: cluster.processes,
            hosts: cluster.hosts.len(),
        });
    }
    usize::try_from(space.size()).map_err(|_| DistError::TooLarge)?;
    // A checkpoint of another number of workers is cut anew for this one.
    if let Some((dir, key)) = &cluster.checkpoint {
        let peers = cluster.workers * cluster.processes.max(1);
        if let Some((old, depth)) = recut::recut(dir, *key, space.size(), peers)? {
            progress.update(
                0,
                &format!("the checkpoint of {old} workers (depth {depth}) cut anew for {peers}"),
            );
        }
    }
    if cluster.processes > 1 {
        progress.update(0, "meeting the other processes");
        meet::meet(&cluster.hosts, cluster.process, cluster.meet_timeout)?;
    }
    let space = Arc::new(space);
    let (tx, rx) = mpsc::channel::<Report>();
    let tx = std::sync::Mutex::new(tx);
    let workers = cluster.workers;
    // Timely reports a lost peer by panicking in its network and worker
    // threads; the build turns the first of those into one line.
    let first_panic: Arc<std::sync::Mutex<Option<String>>> = Arc::default();
    let previous_hook = std::panic::take_hook();
    {
        let first_panic = first_panic.clone();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current().name().unwrap_or("").to_string();
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            if let Ok(mut p) = first_panic.lock() {
                p.get_or_insert(format!("{}: {}", who(&thread), msg));
            }
        }));
    }
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let config = cluster.config();
        let (checkpoint, stop_after) = (cluster.checkpoint.clone(), cluster.stop_after);
        // Each worker's share of the memory, for its buffers.
        let budget = cluster.memory_limit.map(|m| m / workers as u64);
        let guards = quiet_stdout(progress.is_quiet(), || {
            timely::execute(config, move |worker| {
                let tx = tx.lock().map(|t| t.clone()).ok();
                let report = worker.index() % workers == 0;
                let tx = if report { tx } else { None };
                let saves = checkpoint.as_ref().map(|(dir, key)| {
                    Checkpoint::new(dir, *key, worker.index(), worker.peers(), space.size())
                });
                run_worker(worker, &*space, tx, saves, stop_after, budget)
            })
        })
        .map_err(DistError::Timely)?;
        // The workers run in their own threads; this one shows their layers.
        for report in rx.iter() {
            match report {
                Report::Layer {
                    depth,
                    found,
                    reached,
                    slowest,
                    slowest_secs,
                } => progress.update(
                    reached,
                    &format!(
                        "depth {depth}: {found} (slowest worker {slowest}, {slowest_secs:.2}s)"
                    ),
                ),
                Report::Resumed { depth, reached } => progress.update(
                    reached,
                    &format!("resumed from the checkpoint of depth {depth}"),
                ),
            }
        }
        progress.finish();
        Ok::<_, DistError>(guards.join())
    }));
    std::panic::set_hook(previous_hook);
    let lost = |first: &Arc<std::sync::Mutex<Option<String>>>| {
        let what = first.lock().ok().and_then(|p| p.clone());
        DistError::Lost(what.unwrap_or_else(|| "a worker stopped".into()))
    };
    let joined = match run {
        Ok(r) => r?,
        Err(_) => return Err(lost(&first_panic)),
    };
    let mut result = None;
    let mut failed: Option<DistError> = None;
    for r in joined {
        match r {
            Ok(Ok(Some(res))) => result = Some(res),
            Ok(Ok(None)) => {}
            // A worker's own error beats the others' "a worker failed".
            Ok(Err(e)) => {
                if failed.is_none() || e != DistError::OtherWorker {
                    failed = Some(e);
                }
            }
            Err(_) => return Err(lost(&first_panic)),
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    if cluster.process == 0 && result.is_none() {
        return Err(DistError::NoTable);
    }
    Ok(result)
}

/// Names the part of the build a timely thread stands for: its network
/// threads (`timely:send-P`, `timely:recv-P`) talk to process P, its worker
/// threads (`timely:work-W`) are this process's worker W.
fn who(thread: &str) -> String {
    let part = |prefix: &str| {
        thread
            .strip_prefix(prefix)
            .and_then(|n| n.parse::<usize>().ok())
    };
    if let Some(p) = part("timely:send-").or_else(|| part("timely:recv-")) {
        format!("lost the connection to process {p}")
    } else if let Some(w) = part("timely:work-") {
        format!("worker {w} of this process stopped")
    } else {
        format!("thread {thread:?} stopped")
    }
}

/// Runs `f` with this process's standard output sent to standard error, or
/// nowhere when `quiet`: timely prints its wait for peers on standard
/// output, which belongs to the build's results (`--json`).
#[cfg(unix)]
fn quiet_stdout<T>(quiet: bool, f: impl FnOnce() -> T) -> T {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let null = if quiet {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .ok()
    } else {
        None
    };
    let to = null.as_ref().map_or(2, std::os::fd::AsRawFd::as_raw_fd);
    // SAFETY: `dup` only copies descriptor 1, which the process owns for its
    // whole life; the copy is restored and closed below, and no Rust object
    // holds it.
    let saved = unsafe { libc::dup(1) };
    if saved < 0 {
        return f();
    }
    // SAFETY: points descriptor 1 at what `to` is: standard error, or
    // `/dev/null`, which `null` holds open until the end of this function.
    if unsafe { libc::dup2(to, 1) } < 0 {
        // SAFETY: `saved` is the descriptor `dup` returned, closed once.
        unsafe { libc::close(saved) };
        return f();
    }
    let r = f();
    let _ = std::io::stdout().flush();
    // SAFETY: as above; `saved` is the descriptor `dup` returned.
    unsafe {
        libc::dup2(saved, 1);
        libc::close(saved);
    }
    r
}

#[cfg(not(unix))]
fn quiet_stdout<T>(_quiet: bool, f: impl FnOnce() -> T) -> T {
    f()
}

/// The slice `lo..hi` of ranks worker `index` of `peers` owns.
/// Slices are whole multiples of 64 ranks, so that a slice's bitmap is
/// whole bytes of the table's.
fn slice_of(size: u64, peers: usize, index: usize) -> (u64, u64, u64) {
    let len = size.div_ceil(peers as u64).max(1).next_multiple_of(64);
    let lo = (index as u64 * len).min(size);
    let hi = (lo + len).min(size);
    (len, lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::dense_bfs;

    /// Ranks `0..n` on a cycle with steps of 1 and `jump`, two goals.
    struct Ring {
        n: u64,
        jump: u64,
    }
    impl Space for Ring {
        fn size(&self) -> u64 {
            self.n
        }
        fn goals(&self) -> Vec<u64> {
            vec![0, self.n / 2, 0]
        }
        fn for_each_neighbour(&self, r: u64, mut f: impl FnMut(u64) -> bool) {
            let n = self.n;
            for x in [
                (r + 1) % n,
                (r + n - 1) % n,
                (r + self.jump) % n,
                (r + n - self.jump) % n,
            ] {
                if !f(x) {
                    return;
                }
            }
        }
    }

    /// Ranks `0..n` (odd) with steps of 1 and the doubling and halving maps
    /// mod n: few layers, which grow fast.
    struct Doubling {
        n: u64,
    }
    impl Space for Doubling {
        fn size(&self) -> u64 {
            self.n
        }
        fn goals(&self) -> Vec<u64> {
            vec![0, self.n / 3]
        }
        fn for_each_neighbour(&self, r: u64, mut f: impl FnMut(u64) -> bool) {
            let n = self.n;
            for x in [
                (r + 1) % n,
                (r + n - 1) % n,
                2 * r % n,
                r * n.div_ceil(2) % n,
            ] {
                if !f(x) {
                    return;
                }
            }
        }
    }

    #[test]
    fn equals_the_in_memory_engine_for_any_worker_count() {
        for (n, jump, most) in [(1000, 37, 5), (7, 3, 5), (2, 1, 3), (20_011, 141, 4)] {
            let want = dense_bfs(&Ring { n, jump }, &Progress::hidden());
            for workers in 1..=most {
                let got = timely_bfs(
                    Ring { n, jump },
                    &Cluster::local(workers),
                    &Progress::hidden(),
                )
                .unwrap()
                .unwrap();
                assert_eq!(got.histogram, want.histogram, "n {n} workers {workers}");
                assert_eq!(depths_of(got), want.depth, "n {n} workers {workers}");
            }
        }
    }

    #[test]
    fn resumes_from_checkpoints_to_the_same_table() {
        let ring = || Ring { n: 5000, jump: 71 };
        let want = dense_bfs(&ring(), &Progress::hidden());
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("resume");
        let cluster = |workers: usize, stop: Option<u8>| Cluster {
            checkpoint: Some((ckpt.clone(), 42)),
            stop_after: stop,
            ..Cluster::local(workers)
        };
        // Installments at depths 0, 3 and 20, the last with more workers,
        // for whom the checkpoint is cut anew.
        let layer = |i: usize, peers: usize, d: u8| {
            let path = Checkpoint::new(&ckpt, 42, i, peers, 5000).layer_path(d);
            zstd::decode_all(&std::fs::read(path).unwrap()[..]).unwrap()
        };
        let whole = |peers: usize, d: u8| {
            (0..peers)
                .flat_map(|i| layer(i, peers, d))
                .collect::<Vec<u8>>()
        };
        for (workers, stop) in [(2, 0), (2, 3), (3, 20), (3, 25)] {
            if workers == 3 && stop == 20 {
                let before: Vec<Vec<u8>> = (0..=3).map(|d| whole(2, d)).collect();
                assert_eq!(recut::recut(&ckpt, 42, 5000, 3), Ok(Some((2, 3))));
                assert_eq!(recut::recut(&ckpt, 42, 5000, 3), Ok(None));
                let after: Vec<Vec<u8>> = (0..=3).map(|d| whole(3, d)).collect();
                assert!(before == after, "the layers changed in the cut");
                assert_eq!(before[3].len(), 5000usize.div_ceil(8));
                assert!(!Checkpoint::new(&ckpt, 42, 0, 2, 5000).meta_path().exists());
                // Another table's checkpoint is not cut.
                assert_eq!(recut::recut(&ckpt, 43, 5000, 2), Ok(None));
            }
            let e = timely_bfs(ring(), &cluster(workers, Some(stop)), &Progress::hidden());
            let e = e.unwrap_err();
            assert_eq!(e, DistError::Stopped(stop));
            assert_eq!(
                e.to_string(),
                format!("stopped after depth {stop}, as asked")
            );
            let files = std::fs::read_dir(&ckpt).unwrap().count();
            assert_eq!(files, workers * (stop as usize + 2), "{workers} {stop}");
        }
        let got = timely_bfs(ring(), &cluster(3, None), &Progress::hidden())
            .unwrap()
            .unwrap();
        assert_eq!(got.histogram, want.histogram);
        assert_eq!(depths_of(got), want.depth);
        assert!(!ckpt.exists(), "checkpoints are removed after the build");
        // Another table's checkpoints (another key) are not taken.
        let _ = timely_bfs(ring(), &cluster(2, Some(4)), &Progress::hidden());
        let other = Cluster {
            checkpoint: Some((ckpt.clone(), 43)),
            ..Cluster::local(2)
        };
        let got = timely_bfs(Ring { n: 5000, jump: 70 }, &other, &Progress::hidden())
            .unwrap()
            .unwrap();
        let want = dense_bfs(&Ring { n: 5000, jump: 70 }, &Progress::hidden());
        assert_eq!(depths_of(got), want.depth);
    }

    /// A damaged checkpoint is refused before the resume, naming its file,
    /// and kept: its figures changed (one layer's count, up or down, in one
    /// worker's file of two), a byte of a layer flipped, a layer cut short.
    #[test]
    fn damaged_checkpoints_are_refused_and_kept() {
        let ring = || Ring { n: 5000, jump: 71 };
        let want = dense_bfs(&ring(), &Progress::hidden());
        for memory_limit in [None, Some(1 << 12)] {
            type Damage = fn(&Path) -> PathBuf;
            let damages: [(&str, Damage); 4] = [
                ("figures +5", |d| bump(d, 5)),
                ("figures -5", |d| bump(d, -5)),
                ("flipped byte", |d| {
                    let p = d.join("w1-of-2-d003.bits.zst");
                    let mut b = std::fs::read(&p).unwrap();
                    let mid = b.len() / 2;
                    b[mid] ^= 0x10;
                    std::fs::write(&p, b).unwrap();
                    p
                }),
                ("cut short", |d| {
                    let p = d.join("w0-of-2-d002.bits.zst");
                    let b = std::fs::read(&p).unwrap();
                    std::fs::write(&p, &b[..b.len() - 3]).unwrap();
                    p
                }),
            ];
            for (what, damage) in damages {
                let dir = tempfile::tempdir().unwrap();
                let ckpt = dir.path().join("resume");
                let cluster = |stop: Option<u8>| Cluster {
                    checkpoint: Some((ckpt.clone(), 42)),
                    stop_after: stop,
                    memory_limit,
                    ..Cluster::local(2)
                };
                let e = timely_bfs(ring(), &cluster(Some(4)), &Progress::hidden()).unwrap_err();
                assert_eq!(e, DistError::Stopped(4));
                let file = damage(&ckpt);
                let before = std::fs::read_dir(&ckpt).unwrap().count();
                let e = timely_bfs(ring(), &cluster(None), &Progress::hidden()).unwrap_err();
                let name = file.file_name().unwrap().to_str().unwrap();
                assert!(
                    matches!(e, DistError::Damaged { .. } | DistError::Figures { .. }),
                    "{what} {memory_limit:?}: {e}"
                );
                let e = e.to_string();
                assert!(
                    e.contains("is damaged") && e.contains(name),
                    "{what} {memory_limit:?}: {e}"
                );
                assert_eq!(
                    std::fs::read_dir(&ckpt).unwrap().count(),
                    before,
                    "{what}: kept"
                );
                // Removed, the build starts afresh and is right.
                std::fs::remove_dir_all(&ckpt).unwrap();
                let got = timely_bfs(ring(), &cluster(None), &Progress::hidden())
                    .unwrap()
                    .unwrap();
                assert_eq!(got.histogram, want.histogram);
            }
        }

        /// Adds `by` to the count of depth 4 in worker 0's figures.
        fn bump(dir: &Path, by: i64) -> PathBuf {
            let p = dir.join("w0-of-2.json");
            let mut v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let h = &mut v["histogram"][4];
            *h = (h.as_i64().unwrap() + by).into();
            std::fs::write(&p, v.to_string()).unwrap();
            p
        }
    }

    /// A worker whose layer fails stops every worker in that layer's round:
    /// no worker saves a checkpoint of the failed layer, and the build
    /// resumed from the checkpoints is right.
    #[test]
    fn a_failed_layer_stops_every_worker_before_its_checkpoint() {
        let ring = || Ring { n: 4999, jump: 71 };
        let want = dense_bfs(&ring(), &Progress::hidden());
        for memory_limit in [None, Some(1 << 12)] {
            let dir = tempfile::tempdir().unwrap();
            let ckpt = dir.path().join("resume");
            let cluster = Cluster {
                checkpoint: Some((ckpt.clone(), 42)),
                memory_limit,
                ..Cluster::local(2)
            };
            *worker::FAIL_LAYER.lock().unwrap() = Some((4999, 1, 3));
            let e = timely_bfs(ring(), &cluster, &Progress::hidden());
            *worker::FAIL_LAYER.lock().unwrap() = None;
            let e = e.unwrap_err().to_string();
            assert!(e.contains("layer 3 failed"), "{memory_limit:?}: {e}");
            for w in 0..2 {
                let p = ckpt.join(format!("w{w}-of-2.json"));
                let meta: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
                assert_eq!(meta["depth"], 3, "{memory_limit:?}: worker {w}");
            }
            let got = timely_bfs(ring(), &cluster, &Progress::hidden())
                .unwrap()
                .unwrap();
            assert_eq!(got.histogram, want.histogram, "{memory_limit:?}");
        }
    }

    /// Reads a finished build's distances, wherever they are.
    fn depths_of(r: Finished) -> Vec<u8> {
        match r.depths {
            Depths::Memory(v) => v,
            Depths::File(p) => {
                let v = std::fs::read(&p).unwrap();
                std::fs::remove_file(&p).unwrap();
                std::fs::remove_dir(p.parent().unwrap()).unwrap();
                v
            }
        }
    }

    #[test]
    fn out_of_core_equals_the_in_memory_engine() {
        // Budgets that make runs of the least size (1024 ranks): many runs
        // per layer.
        // The doubling space's slices span several chunks of bitmap.
        // Its frontier's bitmap (75 kB) does not fit in a worker's share of
        // 16 kB: every layer is pushed, in runs of the least size (1024
        // ranks), many per layer; in 256 kB it fits, and the wide layers are
        // pulled.
        let n = 600_011;
        let want = dense_bfs(&Doubling { n }, &Progress::hidden());
        for (limit, pulls) in [(1 << 14, false), (1 << 18, true)] {
            for workers in [1, 2] {
                let dir = tempfile::tempdir().unwrap();
                let cluster = Cluster {
                    checkpoint: Some((dir.path().join("work"), 7)),
                    memory_limit: Some(limit),
                    ..Cluster::local(workers)
                };
                let got = timely_bfs(Doubling { n }, &cluster, &Progress::hidden())
                    .unwrap()
                    .unwrap();
                let what = format!("limit {limit}, workers {workers}");
                assert_eq!(got.histogram, want.histogram, "{what}");
                assert_eq!(got.pulled > 0, pulls, "{what}: {} pulled", got.pulled);
                assert!(depths_of(got) == want.depth, "{what}");
                assert!(!dir.path().join("work").exists(), "{what}: files left");
            }
        }
        for (n, jump, most) in [(20_011, 141, 4), (2, 1, 3)] {
            let want = dense_bfs(&Ring { n, jump }, &Progress::hidden());
            for workers in 1..=most {
                let dir = tempfile::tempdir().unwrap();
                let cluster = Cluster {
                    checkpoint: Some((dir.path().join("work"), 7)),
                    memory_limit: Some(1 << 12),
                    ..Cluster::local(workers)
                };
                let got = timely_bfs(Ring { n, jump }, &cluster, &Progress::hidden())
                    .unwrap()
                    .unwrap();
                assert_eq!(got.histogram, want.histogram, "n {n} workers {workers}");
                assert!(matches!(got.depths, Depths::File(_)));
                assert!(depths_of(got) == want.depth, "n {n} workers {workers}");
                assert!(!dir.path().join("work").exists(), "files left");
            }
        }
        // In installments: the second resumes from its bitmap of reached
        // states, the third (that bitmap removed) makes it from the layers.
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let cluster = |stop: Option<u8>| Cluster {
            checkpoint: Some((work.clone(), 9)),
            memory_limit: Some(1 << 12),
            stop_after: stop,
            ..Cluster::local(2)
        };
        let ring = || Ring {
            n: 20_011,
            jump: 141,
        };
        for stop in [5, 9] {
            let e = timely_bfs(ring(), &cluster(Some(stop)), &Progress::hidden());
            assert_eq!(e.unwrap_err(), DistError::Stopped(stop));
        }
        // On three workers, then back on two (each time the checkpoint cut
        // anew, the reached-states bitmaps made again from the layers).
        let three = Cluster {
            workers: 3,
            ..cluster(Some(12))
        };
        let e = timely_bfs(ring(), &three, &Progress::hidden());
        assert_eq!(e.unwrap_err(), DistError::Stopped(12));
        for e in std::fs::read_dir(&work).unwrap() {
            let p = e.unwrap().path();
            if p.to_string_lossy().contains("-visited-") {
                std::fs::remove_file(p).unwrap();
            }
        }
        let got = timely_bfs(ring(), &cluster(None), &Progress::hidden())
            .unwrap()
            .unwrap();
        let want = dense_bfs(&ring(), &Progress::hidden());
        assert_eq!(got.histogram, want.histogram);
        assert_eq!(depths_of(got), want.depth);
        // Stopped after its first pulled layer and resumed: the same table.
        let wide = |stop: Option<u8>| Cluster {
            memory_limit: Some(1 << 14),
            ..cluster(stop)
        };
        let (mut reached, mut first_pull) = (0, None);
        for (d, &c) in want.histogram.iter().enumerate() {
            reached += c;
            // The rule of a layer's expansion (see the worker).
            if first_pull.is_none() && d + 1 < want.histogram.len() && c > (20_011 - reached) / 2 {
                first_pull = Some(d as u8);
            }
        }
        let stop = first_pull.expect("a layer wide enough to pull") + 1;
        let e = timely_bfs(ring(), &wide(Some(stop)), &Progress::hidden());
        assert_eq!(e.unwrap_err(), DistError::Stopped(stop));
        let got = timely_bfs(ring(), &wide(None), &Progress::hidden())
            .unwrap()
            .unwrap();
        assert!(got.pulled > 0);
        assert_eq!(got.histogram, want.histogram);
        assert_eq!(depths_of(got), want.depth);
        // Without a directory for its files, refused.
        let cluster = Cluster {
            memory_limit: Some(1 << 20),
            ..Cluster::local(1)
        };
        let e = timely_bfs(Ring { n: 10, jump: 3 }, &cluster, &Progress::hidden());
        let e = e.err().unwrap();
        assert_eq!(e, DistError::NoDirectory);
        assert!(e.to_string().contains("needs a directory"));
    }

    #[test]
    fn checkpoint_names_give_their_worker_count() {
        assert_eq!(peers_of("w3-of-12-d004.bits.zst"), Some(12));
        assert_eq!(peers_of("w0-of-2.json"), Some(2));
        assert_eq!(peers_of("notes.txt"), None);
    }

    #[test]
    fn slices_cover_the_ranks_once() {
        for (size, peers) in [(10u64, 3usize), (2, 5), (12870, 4), (1, 1)] {
            let mut next = 0;
            for i in 0..peers {
                let (len, lo, hi) = slice_of(size, peers, i);
                assert_eq!(lo, next);
                assert!(hi - lo <= len);
                assert!((lo..hi).all(|r| (r / len) as usize == i));
                next = hi;
            }
            assert_eq!(next, size);
        }
    }
}
