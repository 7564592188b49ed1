//! The timely engine (`tablegen build --workers/--processes`): the same bytes
//! as the in-memory BFS, in one process and over TCP; bad cluster arguments.

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

/// Builds `id` in memory, returns its bytes.
fn in_memory(id: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", id, "-q"])
        .assert()
        .success();
    artifact(dir.path(), id)
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

/// Builds `id` with `processes` processes of `workers` workers each, over
/// localhost TCP; returns process 0's table and the others' output.
fn processes(id: &str, processes: usize, workers: usize) -> (Vec<u8>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let hosts = dir.path().join("hosts");
    let lines: Vec<String> = free_ports(processes)
        .iter()
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    std::fs::write(&hosts, lines.join("\n")).unwrap();
    let tables = dir.path().join("tables");
    let bin = assert_cmd::cargo::cargo_bin("tablegen");
    let args = |p: usize| -> Vec<String> {
        let mut a: Vec<String> = vec!["--tables".into(), tables.display().to_string()];
        for x in ["build", id, "-q", "--workers", &workers.to_string()] {
            a.push(x.into());
        }
        a.extend(["--processes".into(), processes.to_string()]);
        a.extend(["--process".into(), p.to_string()]);
        a.extend(["--hosts".into(), hosts.display().to_string()]);
        a
    };
    let others: Vec<_> = (1..processes)
        .map(|p| {
            std::process::Command::new(&bin)
                .args(args(p))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let zero = std::process::Command::new(&bin)
        .args(args(0))
        .output()
        .unwrap();
    let outs: Vec<String> = others
        .into_iter()
        .map(|c| {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            String::from_utf8_lossy(&o.stdout).into_owned()
        })
        .collect();
    assert!(
        zero.status.success(),
        "{}",
        String::from_utf8_lossy(&zero.stderr)
    );
    (artifact(&tables, id), outs)
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
    let (table, others) = processes("2x2x2-htm", 2, 1);
    assert_eq!(table, in_memory("2x2x2-htm"));
    assert!(
        others[0].contains("process 0 writes the table"),
        "{others:?}"
    );
}

/// The large tables of the engine's checks (`.ci/run` runs them in release).
#[test]
#[ignore = "minutes and about 2 GB: run with --ignored in release"]
fn large_tables_equal_in_memory() {
    for id in ["domino", "4x4x4-wings-pair"] {
        let want = in_memory(id);
        assert_eq!(one_process(id, 2), want, "{id} 1x2");
        assert_eq!(processes(id, 2, 1).0, want, "{id} 2x1");
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
                "--hosts".into(),
                hosts.display().to_string(),
            ],
            "1 hosts for 2 processes",
        ),
        (
            vec![
                "--processes".into(),
                "2".into(),
                "--hosts".into(),
                bad_host.display().to_string(),
            ],
            "not host:port",
        ),
        (
            vec![
                "--processes".into(),
                "2".into(),
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
