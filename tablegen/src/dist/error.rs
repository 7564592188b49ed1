//! Why a distributed build stopped.

use std::path::PathBuf;
use std::time::Duration;

/// Why a timely build ([`super::timely_bfs`]) or the meeting of its
/// processes ([`super::meet::meet`]) failed. A file's error names the file
/// and carries the reason the system gave, as text (each worker's error
/// crosses threads and is compared with the others').
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DistError {
    /// A memory limit without a checkpoint directory to keep the slices in.
    #[error("an out-of-core build needs a directory for its files")]
    NoDirectory,
    /// Another number of hosts than of processes.
    #[error("{processes} processes need {processes} hosts, got {hosts}")]
    Hosts {
        /// The processes of the build.
        processes: usize,
        /// The hosts given.
        hosts: usize,
    },
    /// A space of more ranks than this machine's addresses reach.
    #[error("the space does not fit in memory")]
    TooLarge,
    /// Processes that did not meet this one in time, each with what went
    /// wrong last.
    #[error(
        "process{} {} of {processes} did not join within {} s ({}); start every process with the same --processes and its own --process, or give them longer with --meet-timeout",
        if .missing.len() > 1 { "es" } else { "" },
        list(.missing.iter().map(|m| m.0.to_string()), ", "),
        .timeout.as_secs_f64(),
        list(.missing.iter().map(|m| m.1.clone()), "; ")
    )]
    NotJoined {
        /// The processes that did not come, with why.
        missing: Vec<(usize, String)>,
        /// The processes of the build.
        processes: usize,
        /// How long they had.
        timeout: Duration,
    },
    /// This process could not listen for the processes above it.
    #[error("cannot listen on {host}: {reason}")]
    Listen {
        /// This process's `host:port`.
        host: String,
        /// The system's reason.
        reason: String,
    },
    /// Accepting a connection failed.
    #[error("cannot accept on {host}: {reason}")]
    Accept {
        /// This process's `host:port`.
        host: String,
        /// The system's reason.
        reason: String,
    },
    /// The thread that accepts the other processes stopped.
    #[error("the meeting's listener stopped")]
    ListenerStopped,
    /// Timely could not start.
    #[error("timely: {0}")]
    Timely(String),
    /// A timely thread stopped (a lost peer, a panic): what stopped first.
    #[error("the build failed: {0}")]
    Lost(String),
    /// Another worker failed (its own error is the build's).
    #[error("another worker failed")]
    OtherWorker,
    /// Worker 0 ended without the table.
    #[error("worker 0 returned no table")]
    NoTable,
    /// The build stopped after this depth, as asked (a build in
    /// installments).
    #[error("stopped after depth {0}, as asked")]
    Stopped(u8),
    /// A checkpoint file that is one of this build's but damaged; it is
    /// kept, and so is its directory.
    #[error(
        "checkpoint {} is damaged ({what}); remove the directory {} to build afresh",
        .path.display(),
        .dir.display()
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The checkpoint directory.
        dir: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// Checkpoints whose workers' layers disagree with the figures.
    #[error(
        "checkpoint {} is damaged: it says {said} states at depth {depth}, the workers' layers hold {held}",
        .path.display()
    )]
    Figures {
        /// The figures file.
        path: PathBuf,
        /// The depth.
        depth: usize,
        /// The states it says.
        said: u64,
        /// The states the layers hold.
        held: u64,
    },
    /// Reading or writing a checkpoint file or directory failed.
    #[error("checkpoint {}: {reason}", .path.display())]
    Checkpoint {
        /// The file or directory.
        path: PathBuf,
        /// The reason.
        reason: String,
    },
    /// Writing a checkpoint's layer cut anew for another number of workers
    /// failed (the message of the file's error).
    #[error("{0}")]
    Recut(String),
    /// Reading or writing a file of an out-of-core build failed.
    #[error("out-of-core file {}: {reason}", .path.display())]
    OutOfCore {
        /// The file.
        path: PathBuf,
        /// The reason.
        reason: String,
    },
    /// Writing the gathered table to its file failed.
    #[error("{}: {reason}", .path.display())]
    Gather {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
}

/// The items joined by `sep`.
fn list(items: impl Iterator<Item = String>, sep: &str) -> String {
    items.collect::<Vec<_>>().join(sep)
}
