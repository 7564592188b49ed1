//! The dense BFS on timely dataflow: many workers, in one process or in
//! several processes over TCP, each owning a contiguous slice of the rank
//! space.
//!
//! A layer runs as one timestamp of a dataflow. Each worker expands the states
//! of its slice at the current depth; a neighbour it owns is marked at once,
//! any other is sent to its owner by the exchange pact; the layer ends when
//! timely's progress tracking says no rank of that timestamp is in flight
//! anywhere. The workers then swap their counts (states found, expansions,
//! time taken), so every worker knows whether the search goes on, and the
//! first worker of each process reports the layer. At the end every slice is
//! streamed to worker 0, which hands the whole table to its caller.
//!
//! The distances are a function of the space alone, so the table equals the
//! in-memory engine's ([`crate::bfs::dense_bfs`]) byte for byte, whatever the
//! number of workers and processes.

use crate::bfs::{DenseResult, Space, UNREACHED};
use crate::progress::Progress;
use std::cell::{Cell, RefCell};
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
}

impl Cluster {
    /// One process with `workers` threads.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            workers,
            processes: 1,
            process: 0,
            hosts: Vec::new(),
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

/// Slices of the finished table sent to worker 0 in pieces of this many bytes.
const GATHER: usize = 1 << 20;

/// What the first worker of each process tells its caller after each layer.
struct Layer {
    depth: u8,
    found: u64,
    reached: u64,
    slowest: usize,
    slowest_secs: f64,
}

/// One worker's share of a layer: states found, expansions, seconds, and
/// the worker's index.
type Share = (u64, u64, f64, u64);

/// Runs the dense BFS of `space` on timely. Returns the table in process 0
/// and `None` in the others (their slices went to process 0).
pub fn timely_bfs<S: Space + Send + 'static>(
    space: S,
    cluster: &Cluster,
    progress: &Progress,
) -> Result<Option<DenseResult>, String> {
    if cluster.processes > 1 && cluster.hosts.len() != cluster.processes {
        return Err(format!(
            "{} processes need {} hosts, got {}",
            cluster.processes,
            cluster.processes,
            cluster.hosts.len()
        ));
    }
    usize::try_from(space.size()).map_err(|_| "the space does not fit in memory".to_string())?;
    let space = Arc::new(space);
    let (tx, rx) = mpsc::channel::<Layer>();
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
        let guards = quiet_stdout(|| {
            timely::execute(config, move |worker| {
                let tx = tx.lock().map(|t| t.clone()).ok();
                let report = worker.index() % workers == 0;
                run_worker(worker, &*space, if report { tx } else { None })
            })
        })
        .map_err(|e| format!("timely: {e}"))?;
        // The workers run in their own threads; this one shows their layers.
        for layer in rx.iter() {
            progress.update(
                layer.reached,
                &format!(
                    "depth {}: {} (slowest worker {}, {:.2}s)",
                    layer.depth, layer.found, layer.slowest, layer.slowest_secs
                ),
            );
        }
        progress.finish();
        Ok::<_, String>(guards.join())
    }));
    std::panic::set_hook(previous_hook);
    let lost = |first: &Arc<std::sync::Mutex<Option<String>>>| {
        let what = first.lock().ok().and_then(|p| p.clone());
        format!(
            "the build failed: {}",
            what.unwrap_or_else(|| "a worker stopped".into())
        )
    };
    let joined = match run {
        Ok(r) => r?,
        Err(_) => return Err(lost(&first_panic)),
    };
    let mut result = None;
    for r in joined {
        match r {
            Ok(Some(res)) => result = Some(res),
            Ok(None) => {}
            Err(_) => return Err(lost(&first_panic)),
        }
    }
    if cluster.process == 0 && result.is_none() {
        return Err("worker 0 returned no table".into());
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

/// Runs `f` with this process's standard output sent to standard error:
/// timely prints its wait for peers on standard output, which belongs to
/// the build's results (`--json`).
#[cfg(unix)]
fn quiet_stdout<T>(f: impl FnOnce() -> T) -> T {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: `dup` only copies descriptor 1, which the process owns for its
    // whole life; the copy is restored and closed below, and no Rust object
    // holds it.
    let saved = unsafe { libc::dup(1) };
    if saved < 0 {
        return f();
    }
    // SAFETY: points descriptor 1 at what descriptor 2 is; both are the
    // process's own standard streams.
    if unsafe { libc::dup2(2, 1) } < 0 {
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
fn quiet_stdout<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// The slice `lo..hi` of ranks worker `index` of `peers` owns.
fn slice_of(size: u64, peers: usize, index: usize) -> (u64, u64, u64) {
    let len = size.div_ceil(peers as u64).max(1);
    let lo = (index as u64 * len).min(size);
    let hi = (lo + len).min(size);
    (len, lo, hi)
}

fn run_worker<S: Space>(
    worker: &mut Worker,
    space: &S,
    tx: Option<mpsc::Sender<Layer>>,
) -> Option<DenseResult> {
    let (index, peers) = (worker.index(), worker.peers());
    let size = space.size();
    let (len, lo, hi) = slice_of(size, peers, index);
    let table = Rc::new(RefCell::new(vec![UNREACHED; (hi - lo) as usize]));
    let marked = Rc::new(Cell::new(0u64));

    // Ranks of the next layer, to their owners.
    let mut ranks = InputHandleVec::<u32, u64>::new();
    let rank_probe = ProbeHandle::new();
    {
        let (table, marked) = (table.clone(), marked.clone());
        worker.dataflow::<u32, _, _>(|scope| {
            scope
                .input_from(&mut ranks)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(move |r: &u64| r / len),
                    "mark",
                    move |_, _| {
                        move |input, _output| {
                            // A rank sent at time d (the layer expanded) is
                            // at depth d + 1; a fast worker may already send
                            // the next layer's ranks while this one waits.
                            input.for_each(|cap, data| {
                                let Some(&time) = cap.least() else { return };
                                let next = time as u8 + 1;
                                let mut t = table.borrow_mut();
                                let mut n = 0;
                                for &r in data.iter() {
                                    let cell = &mut t[(r - lo) as usize];
                                    if *cell == UNREACHED {
                                        *cell = next;
                                        n += 1;
                                    }
                                }
                                marked.set(marked.get() + n);
                            });
                        }
                    },
                )
                .probe_with(&rank_probe);
        });
    }

    // Each worker's share of a layer, to every worker.
    let mut shares = InputHandleVec::<u32, (u64, Share)>::new();
    let share_probe = ProbeHandle::new();
    let got: Rc<RefCell<Vec<(u64, Share)>>> = Rc::default();
    {
        let got = got.clone();
        worker.dataflow::<u32, _, _>(|scope| {
            scope
                .input_from(&mut shares)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|x: &(u64, Share)| x.0),
                    "shares",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|_, data| got.borrow_mut().extend(data.drain(..)));
                        }
                    },
                )
                .probe_with(&share_probe);
        });
    }

    // Slices of the finished table, to worker 0.
    let mut pieces = InputHandleVec::<u32, (u64, Vec<u8>)>::new();
    let piece_probe = ProbeHandle::new();
    let whole: Rc<RefCell<Vec<u8>>> = Rc::default();
    {
        let whole = whole.clone();
        if index == 0 {
            whole.borrow_mut().resize(size as usize, UNREACHED);
        }
        worker.dataflow::<u32, _, _>(|scope| {
            scope
                .input_from(&mut pieces)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|_: &(u64, Vec<u8>)| 0),
                    "gather",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|_, data| {
                                let mut w = whole.borrow_mut();
                                for (at, bytes) in data.drain(..) {
                                    let at = at as usize;
                                    w[at..at + bytes.len()].copy_from_slice(&bytes);
                                }
                            });
                        }
                    },
                )
                .probe_with(&piece_probe);
        });
    }

    let mut goals = space.goals();
    goals.sort_unstable();
    goals.dedup();
    {
        let mut t = table.borrow_mut();
        for &g in goals.iter().filter(|&&g| (lo..hi).contains(&g)) {
            t[(g - lo) as usize] = 0;
        }
    }
    let mut histogram = vec![goals.len() as u64];
    let mut reached = goals.len() as u64;
    let mut expansions = 0u64;
    let mut depth: u8 = 0;
    let mut count = goals.len() as u64;
    let mut out: Vec<u64> = Vec::new();
    let mut batch: Vec<u64> = Vec::new();
    while count > 0 {
        assert!(depth < UNREACHED - 1, "depth overflow");
        let start = Instant::now();
        let next = depth + 1;
        let (mut found, mut expanded) = (0u64, 0u64);
        let mut at = lo;
        while at < hi {
            let end = (at + CHUNK).min(hi);
            {
                let mut t = table.borrow_mut();
                for r in at..end {
                    if t[(r - lo) as usize] != depth {
                        continue;
                    }
                    space.for_each_neighbour(r, |x| {
                        expanded += 1;
                        if (lo..hi).contains(&x) {
                            let cell = &mut t[(x - lo) as usize];
                            if *cell == UNREACHED {
                                *cell = next;
                                found += 1;
                            }
                        } else {
                            out.push(x);
                        }
                        true
                    });
                }
            }
            if !out.is_empty() {
                out.sort_unstable();
                out.dedup();
                batch.clone_from(&out);
                ranks.send_batch(&mut batch);
                out.clear();
            }
            worker.step();
            at = end;
        }
        ranks.advance_to(next as u32);
        while rank_probe.less_than(ranks.time()) {
            worker.step();
        }
        found += marked.replace(0);
        let mine = (found, expanded, start.elapsed().as_secs_f64(), index as u64);
        for p in 0..peers as u64 {
            shares.send((p, mine));
        }
        shares.advance_to(next as u32);
        while share_probe.less_than(shares.time()) {
            worker.step();
        }
        let all = std::mem::take(&mut *got.borrow_mut());
        count = all.iter().map(|s| s.1 .0).sum();
        expansions += all.iter().map(|s| s.1 .1).sum::<u64>();
        let (slowest, slowest_secs) = slowest_of(&all);
        reached += count;
        depth = next;
        if count > 0 {
            histogram.push(count);
        }
        if let Some(tx) = &tx {
            let _ = tx.send(Layer {
                depth,
                found: count,
                reached,
                slowest,
                slowest_secs,
            });
        }
    }
    drop(tx);
    // Every slice to worker 0, in pieces.
    {
        let t = table.borrow();
        for (i, piece) in t.chunks(GATHER).enumerate() {
            pieces.send((lo + (i * GATHER) as u64, piece.to_vec()));
            if i % 16 == 15 {
                worker.step();
            }
        }
    }
    pieces.advance_to(1);
    while piece_probe.less_than(pieces.time()) {
        worker.step();
    }
    if index != 0 {
        return None;
    }
    let depth = std::mem::take(&mut *whole.borrow_mut());
    Some(DenseResult {
        depth,
        histogram,
        expansions,
    })
}

/// The worker that took longest over a layer, and its time (ties: the lowest
/// index).
fn slowest_of(all: &[(u64, Share)]) -> (usize, f64) {
    let mut best = (usize::MAX, -1.0f64);
    for &(_, (_, _, secs, from)) in all {
        let from = from as usize;
        if secs > best.1 || (secs == best.1 && from < best.0) {
            best = (from, secs);
        }
    }
    best
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

    #[test]
    fn equals_the_in_memory_engine_for_any_worker_count() {
        for (n, jump, most) in [(1000, 37, 5), (7, 3, 5), (2, 1, 3), (20_011, 141, 3)] {
            let want = dense_bfs(&Ring { n, jump }, &Progress::hidden());
            for workers in 1..=most {
                let got = timely_bfs(
                    Ring { n, jump },
                    &Cluster::local(workers),
                    &Progress::hidden(),
                )
                .unwrap()
                .unwrap();
                assert_eq!(got.depth, want.depth, "n {n} workers {workers}");
                assert_eq!(got.histogram, want.histogram, "n {n} workers {workers}");
            }
        }
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
