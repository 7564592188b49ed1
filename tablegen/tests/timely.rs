//! The timely engine (`tablegen build --workers/--processes`): the same bytes
//! as the in-memory BFS, in one process and over TCP; bad cluster arguments.

use crate::common::{file_names, with_records};
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

fn tablegen(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("tablegen").unwrap();
    c.arg("--tables").arg(dir);
    c
}

fn artifact(dir: &Path, id: &str) -> Vec<u8> {
    std::fs::read(dir.join(format!("{id}.tbl"))).unwrap()
}

/// Builds `id` in memory, returns its bytes (built once per test run: the
/// slow tests compare the same large tables several times).
fn in_memory(id: &str) -> Vec<u8> {
    static BUILT: std::sync::Mutex<Vec<(String, Vec<u8>)>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, bytes)) = built.iter().find(|(i, _)| i == id) {
        return bytes.clone();
    }
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", id, "-q"])
        .assert()
        .success();
    let bytes = artifact(dir.path(), id);
    built.push((id.to_string(), bytes.clone()));
    bytes
}

/// Builds `id` with one process of `workers` timely workers.
fn one_process(id: &str, workers: usize) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", id, "-q", "--workers", &workers.to_string()])
        .assert()
        .success();
    artifact(dir.path(), id)
}

/// Free localhost ports (the OS picks them; they are released before use).
fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// A hosts file of `n` free localhost ports in `dir`, and a lock held while
/// they are in use: tests run in parallel, and two clusters given the same
/// "free" port would meet each other's processes.
fn hosts_file(dir: &Path, n: usize) -> (std::path::PathBuf, std::sync::MutexGuard<'static, ()>) {
    static PORTS: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let held = PORTS.lock().unwrap_or_else(|e| e.into_inner());
    let hosts = dir.join("hosts");
    let lines: Vec<String> = free_ports(n)
        .iter()
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    std::fs::write(&hosts, lines.join("\n")).unwrap();
    (hosts, held)
}

/// Starts process `p` of a build of `id` with `n` processes of `workers`
/// workers each (progress lines on stderr).
fn spawn(
    tables: &Path,
    hosts: &Path,
    id: &str,
    n: usize,
    workers: usize,
    p: usize,
    extra: &[&str],
) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("tablegen"))
        .arg("--tables")
        .arg(tables)
        .args(["build", id, "--workers", &workers.to_string()])
        .args(["--processes", &n.to_string(), "--process", &p.to_string()])
        .arg("--hosts")
        .arg(hosts)
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs every process of a build to its end: (stdout, stderr) of each,
/// after checking that all succeeded. A process that fails ends the others
/// (a peer left waiting for it would wait for ever).
fn run_cluster(
    tables: &Path,
    hosts: &Path,
    id: &str,
    n: usize,
    workers: usize,
    extra: &[&str],
) -> Vec<(String, String)> {
    let mut children: Vec<_> = (0..n)
        .map(|p| spawn(tables, hosts, id, n, workers, p, extra))
        .collect();
    // Each one's output read on a thread of its own, so that none blocks
    // on a full pipe while the others are watched.
    let read = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut out = String::new();
            if let Some(mut r) = r {
                let _ = r.read_to_string(&mut out);
            }
            out
        })
    };
    let outputs: Vec<_> = (children.iter_mut())
        .map(|c| {
            let out = c
                .stdout
                .take()
                .map(|x| Box::new(x) as Box<dyn std::io::Read + Send>);
            let err = c
                .stderr
                .take()
                .map(|x| Box::new(x) as Box<dyn std::io::Read + Send>);
            (read(out), read(err))
        })
        .collect();
    let start = std::time::Instant::now();
    let mut status = vec![None; n];
    let mut first_failed = None;
    while status.iter().any(Option::is_none) {
        for (c, s) in children.iter_mut().zip(status.iter_mut()) {
            if s.is_none() {
                *s = c.try_wait().unwrap();
            }
        }
        if first_failed.is_none() {
            first_failed = status.iter().position(|s| s.is_some_and(|s| !s.success()));
        }
        if first_failed.is_some() || start.elapsed() > std::time::Duration::from_secs(600) {
            children.iter_mut().for_each(|c| {
                let _ = c.kill();
            });
            for (c, s) in children.iter_mut().zip(status.iter_mut()) {
                s.get_or_insert_with(|| c.wait().unwrap());
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let outs: Vec<(String, String)> = (outputs.into_iter())
        .map(|(out, err)| (out.join().unwrap(), err.join().unwrap()))
        .collect();
    // The process that failed first says why (the others were ended).
    if let Some(p) = first_failed {
        panic!("process {p} of {n} failed: {}", outs[p].1);
    }
    for (s, (_, err)) in status.iter().zip(&outs) {
        assert!(s.is_some_and(|s| s.success()), "{err}");
    }
    outs
}

/// Builds `id` with `processes` processes of `workers` workers each, over
/// localhost TCP, with the `extra` arguments; returns process 0's table and
/// every process's output.
fn processes(
    id: &str,
    processes: usize,
    workers: usize,
    extra: &[&str],
) -> (Vec<u8>, Vec<(String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let (hosts, _held) = hosts_file(dir.path(), processes);
    let tables = dir.path().join("tables");
    let outs = run_cluster(&tables, &hosts, id, processes, workers, extra);
    assert!(!tables.join(format!(".{id}.resume")).exists());
    (artifact(&tables, id), outs)
}

/// Builds `id` out of core under `limit` with one process of `workers`
/// workers; checks that no working file is left.
fn out_of_core(id: &str, workers: usize, limit: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", id, "-q", "--workers", &workers.to_string()])
        .args(["--memory-limit", limit])
        .assert()
        .success();
    let left = file_names(dir.path());
    let table = format!("{id}.tbl");
    assert_eq!(left, with_records(&[&table]), "only the table is left");
    artifact(dir.path(), id)
}

#[test]
fn one_process_two_workers_equals_in_memory() {
    for id in ["2x2x2-htm", "pyraminx", "4x4x4-lr-stage"] {
        assert_eq!(one_process(id, 2), in_memory(id), "{id}");
    }
    // More workers than some slices have ranks for.
    assert_eq!(
        one_process("4x4x4-lr-stage", 3),
        in_memory("4x4x4-lr-stage")
    );
}

#[test]
fn two_processes_over_tcp_equal_in_memory() {
    let (table, outs) = processes("2x2x2-htm", 2, 1, &[]);
    assert_eq!(table, in_memory("2x2x2-htm"));
    assert!(outs[0].0.contains("3674160 states"), "{outs:?}");
    assert!(outs[1].0.contains("process 0 writes the table"), "{outs:?}");
}

/// The large tables of the engine's checks (`.ci/run` runs them in release).
#[test]
#[ignore = "minutes and about 2 GB: the soak, ci/soak.sh"]
fn soak_large_tables_equal_in_memory() {
    for id in ["domino", "4x4x4-wings-pair"] {
        let want = in_memory(id);
        assert_eq!(one_process(id, 2), want, "{id} 1x2");
        assert_eq!(processes(id, 2, 1, &[]).0, want, "{id} 2x1");
    }
}

#[test]
fn out_of_core_builds_equal_in_memory() {
    let want = in_memory("2x2x2-htm");
    // 1 MiB: runs of about 32,000 ranks, many per layer.
    assert_eq!(out_of_core("2x2x2-htm", 1, "1MiB"), want, "1 worker");
    assert_eq!(out_of_core("2x2x2-htm", 2, "2MiB"), want, "2 workers");
    assert_eq!(out_of_core("pyraminx", 1, "2M"), in_memory("pyraminx"));
    let (table, _) = processes("2x2x2-htm", 2, 1, &["--memory-limit", "1MiB"]);
    assert_eq!(table, want, "2 processes");
}

/// A build stopped in memory resumes out of core (the checkpoints are the
/// out-of-core engine's layers), and the other way round.
#[test]
fn checkpoints_pass_between_the_engines_and_worker_counts() {
    let want = in_memory("2x2x2-htm");
    // The second run on another number of workers: the checkpoint is cut
    // anew for them.
    for (first, then) in [
        (
            [].as_slice(),
            ["--memory-limit", "1MiB", "--workers", "3"].as_slice(),
        ),
        (&["--memory-limit", "1MiB"], &["--workers", "1"]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        tablegen(dir.path())
            .args([
                "build",
                "2x2x2-htm",
                "-q",
                "--workers",
                "2",
                "--stop-after",
                "7",
            ])
            .args(first)
            .assert()
            .code(1);
        tablegen(dir.path())
            .args(["build", "2x2x2-htm"])
            .args(then)
            .assert()
            .success()
            .stderr(predicate::str::contains("workers (depth 7) cut anew for"))
            .stderr(predicate::str::contains(
                "resumed from the checkpoint of depth 7",
            ));
        assert_eq!(
            artifact(dir.path(), "2x2x2-htm"),
            want,
            "{first:?} then {then:?}"
        );
    }
}

/// Out of core (two workers) with a memory limit of an eighth of what the
/// in-memory engine holds for the states (a byte each).
#[test]
#[ignore = "minutes: the soak, ci/soak.sh"]
fn soak_large_tables_out_of_core_at_an_eighth_of_the_memory() {
    for (id, states) in [
        ("domino", 406_425_600u64),
        ("4x4x4-wings-pair", 239_500_800),
    ] {
        let limit = (states / 8).to_string();
        assert_eq!(out_of_core(id, 1, &limit), in_memory(id), "{id}");
    }
}

#[test]
fn bad_cluster_arguments_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "127.0.0.1:1\n").unwrap();
    let bad_host = dir.path().join("bad-host");
    std::fs::write(&bad_host, "127.0.0.1:1\nno-port\n").unwrap();
    let sparse = tablegen::catalog::catalog()
        .into_iter()
        .find(|d| d.storage() == "fst")
        .unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "--processes".into(),
                "2".into(),
                "--process".into(),
                "2".into(),
            ],
            "out of range",
        ),
        (
            vec![
                "--processes".into(),
                "2".into(),
                "--process".into(),
                "0".into(),
                "--hosts".into(),
                hosts.display().to_string(),
            ],
            "1 hosts for 2 processes",
        ),
        (
            vec![
                "--processes".into(),
                "2".into(),
                "--process".into(),
                "0".into(),
                "--hosts".into(),
                bad_host.display().to_string(),
            ],
            "not host:port",
        ),
        (
            vec![
                "--processes".into(),
                "2".into(),
                "--process".into(),
                "0".into(),
                "--hosts".into(),
                "/nonexistent/hosts".into(),
            ],
            "cannot read hosts file",
        ),
        (
            vec![
                "--workers".into(),
                "2".into(),
                "--threads".into(),
                "2".into(),
            ],
            "--threads",
        ),
        (vec!["--workers".into(), "0".into()], "--workers"),
        (vec!["--process".into(), "1".into()], "--processes"),
        (vec!["--processes".into(), "2".into()], "--process"),
        (
            vec![
                "--processes".into(),
                "2".into(),
                "--process".into(),
                "0".into(),
                "--meet-timeout".into(),
                "0".into(),
            ],
            "--meet-timeout",
        ),
        (
            vec!["--stop-after".into(), "3".into()],
            "--stop-after needs",
        ),
        (vec!["--memory-limit".into(), "12X".into()], "unknown unit"),
        (
            vec!["--memory-limit".into(), "1000".into()],
            "below the least memory limit",
        ),
        (
            vec!["--shard-bytes".into(), "1M".into()],
            "below the least shard size",
        ),
        (
            vec!["--memory-limit".into(), "99999999999999999999".into()],
            "not a byte count",
        ),
        (
            vec![
                "--memory-limit".into(),
                "1G".into(),
                "--threads".into(),
                "2".into(),
            ],
            "--threads",
        ),
    ];
    for (extra, msg) in cases {
        let out = tablegen(dir.path())
            .args(["build", "2x2x2-htm"])
            .args(&extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(msg))
            .stderr(predicate::str::contains("panicked").not())
            .get_output()
            .clone();
        assert!(out.stdout.is_empty(), "{extra:?}");
    }
    tablegen(dir.path())
        .args(["build", sparse.id, "--workers", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("sparse table"));
    assert!(!dir.path().join("2x2x2-htm.tbl").exists());
}

/// A process whose peers never come stops at the meeting's deadline, with
/// one line naming them, quietly under `-q`; so does one whose "peer"
/// accepts the connection and says nothing.
#[test]
fn missing_peers_end_the_build_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let (hosts, _held) = hosts_file(dir.path(), 3);
    // Process `me` of 3, given a second to meet the others; exit 1.
    let alone = |me: &str| {
        tablegen(dir.path())
            .args([
                "build",
                "pyraminx",
                "-q",
                "--processes",
                "3",
                "--process",
                me,
            ])
            .arg("--hosts")
            .arg(&hosts)
            .args(["--meet-timeout", "1"])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(1)
    };
    for me in ["0", "2"] {
        let start = std::time::Instant::now();
        let out = alone(me).get_output().clone();
        let err = String::from_utf8_lossy(&out.stderr);
        let missing = if me == "0" {
            "processes 1, 2 of 3"
        } else {
            "processes 0, 1 of 3"
        };
        assert!(
            err.contains(missing) && err.contains("did not join"),
            "{err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(
            out.stdout.is_empty(),
            "quiet: {:?}",
            String::from_utf8_lossy(&out.stdout)
        );
        // Generous: the deadline is 1 s.
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
    }
    // Process 0's address held by something that accepts and is silent.
    let silent = std::net::TcpListener::bind(
        std::fs::read_to_string(&hosts)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    silent.set_nonblocking(true).unwrap();
    let held = std::thread::spawn(move || {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(3);
        let mut kept = Vec::new();
        while std::time::Instant::now() < until {
            if let Ok(s) = silent.accept() {
                kept.push(s);
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    });
    alone("1").stderr(predicate::str::contains("processes 0, 2 of 3 did not join"));
    held.join().unwrap();
    assert!(!dir.path().join("pyraminx.tbl").exists());
}

/// A memory limit far above what the table needs is a ceiling, not an
/// allocation: the build runs (it aborted once, allocating the limit).
#[test]
fn huge_memory_limits_build() {
    let want = in_memory("pyraminx");
    for limit in ["1T", "100T", "18446744073709551615"] {
        assert!(out_of_core("pyraminx", 1, limit) == want, "{limit}");
    }
}

#[test]
fn stopped_build_resumes_to_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let resume = dir.path().join(".2x2x2-htm.resume");
    tablegen(dir.path())
        .args(["build", "2x2x2-htm", "--workers", "2", "--stop-after", "6"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("stopped after depth 6"));
    assert!(!dir.path().join("2x2x2-htm.tbl").exists());
    assert!(resume.is_dir());
    tablegen(dir.path())
        .args(["build", "2x2x2-htm", "--workers", "2"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "resumed from the checkpoint of depth 6",
        ));
    assert_eq!(artifact(dir.path(), "2x2x2-htm"), in_memory("2x2x2-htm"));
    assert!(!resume.exists(), "the checkpoints are removed");
}

/// A process killed mid-build: the other fails with one line and writes
/// nothing; the build run again resumes and gives the same table.
#[test]
#[ignore = "a minute and about 1 GB: the soak, ci/soak.sh"]
fn soak_killed_process_then_resumed_build_gives_the_same_table() {
    let id = "domino";
    let dir = tempfile::tempdir().unwrap();
    let (hosts, _held) = hosts_file(dir.path(), 2);
    let tables = dir.path().join("tables");
    let zero = spawn(&tables, &hosts, id, 2, 1, 0, &[]);
    let mut one = spawn(&tables, &hosts, id, 2, 1, 1, &[]);
    let saved = tables.join(".domino.resume").join("w1-of-2-d012.bits.zst");
    let start = std::time::Instant::now();
    while !saved.exists() {
        assert!(start.elapsed().as_secs() < 600, "layer 12 never saved");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    one.kill().unwrap();
    let _ = one.wait();
    let o = zero.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(last.contains("lost the connection to process 1"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!tables.join("domino.tbl").exists());
    let outs = run_cluster(&tables, &hosts, id, 2, 1, &[]);
    assert!(
        outs[0].1.contains("resumed from the checkpoint of depth"),
        "{outs:?}"
    );
    assert_eq!(artifact(&tables, id), in_memory(id));
}

/// A table larger than `--shard-bytes` is written as shards and an index,
/// the same from the in-memory and the out-of-core engines; a build that
/// fits replaces them with one file.
#[test]
fn tables_over_the_file_limit_are_sharded() {
    let dir = tempfile::tempdir().unwrap();
    let files = file_names;
    // An earlier build in three shards, whose third the next build removes.
    let def = tablegen::catalog::find("2x2x2-htm").unwrap();
    let out = tablegen::catalog::build(&def, &tablegen::progress::Progress::hidden()).unwrap();
    let t0 = dir.path().join("t0");
    std::fs::create_dir_all(&t0).unwrap();
    let w = tablegen::artifact::write(&def, &out, &t0, 700_000).unwrap();
    assert!(matches!(
        w,
        tablegen::artifact::Written::Shards { shards: 3, .. }
    ));
    let mut got = Vec::new();
    for extra in [&[][..], &["--memory-limit", "1MiB"]] {
        let d = dir.path().join(format!("t{}", extra.len()));
        tablegen(&d)
            .args(["build", "2x2x2-htm", "-q", "--shard-bytes", "1MiB"])
            .args(extra)
            .assert()
            .success()
            .stdout(predicate::str::contains("in 2 shards"));
        // The earlier build's third shard and its record are gone.
        assert_eq!(
            files(&d),
            with_records(&[
                "2x2x2-htm.000-of-002.tbl",
                "2x2x2-htm.001-of-002.tbl",
                "2x2x2-htm.shards.json"
            ])
        );
        got.push(
            files(&d)
                .iter()
                .filter(|f| !f.ends_with(".verified"))
                .map(|f| std::fs::read(d.join(f)).unwrap())
                .collect::<Vec<_>>(),
        );
    }
    assert!(got[0] == got[1], "the engines' shards differ");
    let d = dir.path().join("t0");
    tablegen(&d)
        .args(["build", "2x2x2-htm", "-q"])
        .assert()
        .success();
    assert_eq!(files(&d), with_records(&["2x2x2-htm.tbl"]));
    assert_eq!(artifact(&d, "2x2x2-htm"), in_memory("2x2x2-htm"));
    tablegen(&d)
        .args(["build", "2x2x2-htm", "--shard-bytes", "200M"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("above the largest table file"));
}
