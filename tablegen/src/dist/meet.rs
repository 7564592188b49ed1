//! The meeting of a distributed build's processes, before timely's own.
//!
//! Timely connects its processes by retrying for ever: a peer that never
//! comes leaves the others waiting without end, and one that accepts a
//! connection but never speaks hangs them silently. So the processes first
//! meet here, on the same addresses, with a deadline: each process accepts
//! the processes above it and connects to those below it, and each
//! connection carries a greeting both ways (a magic word, the sender's
//! index and the number of processes). Past the deadline the build stops
//! with one line naming the processes that never came.
//!
//! A process that has met all the processes above it closes its listener
//! and only then tells them to go on ([`GO`]). Without that, a peer that had
//! its greeting could start timely's own connection while the meeting's
//! listener was still open: the connection landed there, was reset when the
//! listener closed, and the two processes waited for each other for ever.

use super::DistError;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// The default time the processes have to meet.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The first bytes of every greeting.
const MAGIC: &[u8; 8] = b"cubetbl1";

/// The byte that tells a process above that the meeting's listener is
/// closed: timely's connections may come.
const GO: u8 = b'g';

/// How long a process waits between two tries to reach a peer not yet
/// listening.
const RETRY: Duration = Duration::from_millis(100);

/// A greeting: the magic word, the sender's index, the number of processes.
fn greeting(index: usize, processes: usize) -> [u8; 24] {
    let mut g = [0u8; 24];
    g[..8].copy_from_slice(MAGIC);
    g[8..16].copy_from_slice(&(index as u64).to_le_bytes());
    g[16..].copy_from_slice(&(processes as u64).to_le_bytes());
    g
}

/// Why a peer was not met: its message follows the peer's address.
#[derive(Debug, thiserror::Error)]
enum PeerError {
    /// The connection failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The peer sent no greeting in time.
    #[error("said nothing")]
    Silent,
    /// The peer's greeting is not one of a build process.
    #[error("is not a tablegen build process")]
    NotABuild,
    /// The peer is a process of a build of another size.
    #[error("is a build of {theirs} processes, this one has {ours}")]
    OtherBuild { theirs: usize, ours: usize },
    /// The peer's host name has no address.
    #[error("no address")]
    NoAddress,
    /// The peer answered with another index than the one it was reached as.
    #[error("answered as process {0}")]
    OtherIndex(usize),
}

/// Fills `buf` from `s` by `deadline` (nothing in time: [`PeerError::Silent`]).
fn read_by(s: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<(), PeerError> {
    let left = deadline.saturating_duration_since(Instant::now());
    s.set_read_timeout(Some(left.max(Duration::from_millis(1))))?;
    s.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => PeerError::Silent,
        _ => PeerError::Io(e),
    })
}

/// Reads a greeting from `s` by `deadline`; returns the sender's index.
fn read_greeting(
    s: &mut TcpStream,
    processes: usize,
    deadline: Instant,
) -> Result<usize, PeerError> {
    let mut g = [0u8; 24];
    read_by(s, &mut g, deadline)?;
    if &g[..8] != MAGIC {
        return Err(PeerError::NotABuild);
    }
    let word = |r: std::ops::Range<usize>| {
        u64::from_le_bytes(g[r].try_into().unwrap_or_default()) as usize
    };
    let (index, n) = (word(8..16), word(16..24));
    if n != processes {
        return Err(PeerError::OtherBuild {
            theirs: n,
            ours: processes,
        });
    }
    Ok(index)
}

/// Meets every other process of the build by `timeout`. `hosts` are the
/// processes' `host:port` in index order; `me` is this process's index.
pub fn meet(hosts: &[String], me: usize, timeout: Duration) -> Result<(), DistError> {
    let processes = hosts.len();
    if processes < 2 {
        return Ok(());
    }
    let deadline = Instant::now() + timeout;
    let missing = std::thread::scope(|scope| {
        let above = scope.spawn(|| accept_above(hosts, me, deadline));
        let mut missing = connect_below(hosts, me, deadline);
        let above = above.join().unwrap_or(Err(DistError::ListenerStopped))?;
        missing.extend(above);
        Ok::<_, DistError>(missing)
    })?;
    if missing.is_empty() {
        return Ok(());
    }
    Err(DistError::NotJoined {
        missing,
        processes,
        timeout,
    })
}

/// Connects to every process below `me`, retrying until `deadline`.
/// Returns the processes not met, each with what went wrong last.
fn connect_below(hosts: &[String], me: usize, deadline: Instant) -> Vec<(usize, String)> {
    let mut missing = Vec::new();
    for (i, host) in hosts.iter().enumerate().take(me) {
        let mut last = String::from("no answer");
        let met = loop {
            match try_connect(host, i, me, hosts.len(), deadline) {
                Ok(()) => break true,
                Err(e) => last = format!("{host}: {e}"),
            }
            if Instant::now() + RETRY >= deadline {
                break false;
            }
            std::thread::sleep(RETRY);
        };
        if !met {
            missing.push((i, last));
        }
    }
    missing
}

/// One try to greet process `i` at `host`.
fn try_connect(
    host: &str,
    i: usize,
    me: usize,
    processes: usize,
    deadline: Instant,
) -> Result<(), PeerError> {
    let left = deadline.saturating_duration_since(Instant::now());
    let addr = host.to_socket_addrs()?.next().ok_or(PeerError::NoAddress)?;
    let mut s =
        TcpStream::connect_timeout(&addr, left.clamp(Duration::from_millis(1), RETRY * 10))?;
    s.set_write_timeout(Some(left.max(Duration::from_millis(1))))?;
    s.write_all(&greeting(me, processes))?;
    match read_greeting(&mut s, processes, deadline)? {
        j if j == i => {}
        j => return Err(PeerError::OtherIndex(j)),
    }
    // Then the word to go on: process `i` has met every process above it
    // and closed its listener.
    let mut go = [0u8; 1];
    read_by(&mut s, &mut go, deadline)?;
    if go[0] != GO {
        return Err(PeerError::NotABuild);
    }
    Ok(())
}

/// Accepts every process above `me` until `deadline`. Returns the
/// processes not met, each with why.
fn accept_above(
    hosts: &[String],
    me: usize,
    deadline: Instant,
) -> Result<Vec<(usize, String)>, DistError> {
    let processes = hosts.len();
    let mut waiting: BTreeSet<usize> = (me + 1..processes).collect();
    if waiting.is_empty() {
        return Ok(Vec::new());
    }
    let cannot_listen = |e: std::io::Error| DistError::Listen {
        host: hosts[me].clone(),
        reason: e.to_string(),
    };
    let listener = TcpListener::bind(hosts[me].as_str()).map_err(cannot_listen)?;
    listener.set_nonblocking(true).map_err(cannot_listen)?;
    let mut why = String::from("never connected");
    let mut met: Vec<TcpStream> = Vec::new();
    while !waiting.is_empty() && Instant::now() < deadline {
        match listener.accept() {
            Ok((mut s, from)) => {
                // The accepted stream must block (with timeouts) whatever
                // the listener is.
                let greeted = s
                    .set_nonblocking(false)
                    .map_err(PeerError::Io)
                    .and_then(|()| read_greeting(&mut s, processes, deadline));
                match greeted {
                    Ok(j) if waiting.contains(&j) => {
                        // The answer is best effort: a peer that leaves now
                        // finds out in timely's meeting.
                        let _ = s.write_all(&greeting(me, processes));
                        waiting.remove(&j);
                        met.push(s);
                    }
                    Ok(j) => why = format!("{from} claimed to be process {j}"),
                    Err(e) => why = format!("{from} {e}"),
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => {
                return Err(DistError::Accept {
                    host: hosts[me].clone(),
                    reason: e.to_string(),
                })
            }
        }
    }
    // The listener closed first, then the word to go on (best effort too).
    drop(listener);
    if waiting.is_empty() {
        for mut s in met {
            let _ = s.write_all(&[GO]);
        }
    }
    Ok(waiting.into_iter().map(|j| (j, why.clone())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free_ports(n: usize) -> Vec<String> {
        let ls: Vec<TcpListener> = (0..n)
            .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
            .collect();
        ls.iter()
            .map(|l| format!("127.0.0.1:{}", l.local_addr().unwrap().port()))
            .collect()
    }

    #[test]
    fn three_processes_meet() {
        let hosts = free_ports(3);
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..3)
                .map(|i| {
                    let hosts = &hosts;
                    s.spawn(move || meet(hosts, i, Duration::from_secs(20)))
                })
                .collect();
            for h in hs {
                assert_eq!(h.join().unwrap(), Ok(()));
            }
        });
    }

    #[test]
    fn a_missing_process_is_named() {
        let hosts = free_ports(3);
        let t = Instant::now();
        let e = meet(&hosts, 0, Duration::from_millis(500)).unwrap_err();
        assert!(matches!(e, DistError::NotJoined { .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with("processes 1, 2 of 3 did not join"),
            "{e}"
        );
        assert!(t.elapsed() < Duration::from_secs(10));
        let e = meet(&hosts, 2, Duration::from_millis(500)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("processes 0, 1 of 3 did not join"),
            "{e}"
        );
    }

    #[test]
    fn a_silent_peer_is_not_a_process() {
        let hosts = free_ports(2);
        // Something listens where process 0 should, accepts, says nothing.
        let silent = TcpListener::bind(hosts[0].as_str()).unwrap();
        let keep = std::thread::spawn(move || {
            let held: Vec<_> = silent.incoming().take(1).collect();
            std::thread::sleep(Duration::from_secs(2));
            drop(held);
        });
        let e = meet(&hosts, 1, Duration::from_millis(800))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("process 0 of 2 did not join"), "{e}");
        keep.join().unwrap();
    }
}
