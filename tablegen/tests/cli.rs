//! The `tablegen` command line: output, exit codes, atomic writes.

use assert_cmd::Command;
use predicates::prelude::*;

fn tablegen(dir: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("tablegen").unwrap();
    c.arg("--tables").arg(dir);
    c
}

/// `tablegen info ID --json` in `dir`, parsed.
fn info_json(dir: &std::path::Path, id: &str) -> serde_json::Value {
    let out = tablegen(dir)
        .args(["info", id, "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn build_info_verify_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "4x4x4-lr-stage", "--threads", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("12870 states"));
    let v = info_json(dir.path(), "4x4x4-lr-stage");
    assert_eq!(v["id"], "4x4x4-lr-stage");
    assert_eq!(v["states"], 12870);
    let hist: Vec<u64> = serde_json::from_value(v["histogram"].clone()).unwrap();
    assert_eq!(hist.iter().sum::<u64>(), 12870);
    assert_eq!(v["max_depth"].as_u64().unwrap() as usize, hist.len() - 1);
    assert!(v["bytes"].as_u64().unwrap() > 12870 / 2);
    assert!(v["checksum"].as_str().unwrap().len() >= 16);
    tablegen(dir.path())
        .args(["verify", "--all"])
        .assert()
        .success();
    // No temporary file is left behind; the build's record of its check is.
    let names = crate::common::file_names(dir.path());
    assert_eq!(names, crate::common::with_records(&["4x4x4-lr-stage.tbl"]));
}

/// A word table (values that are not distances) builds, verifies and says
/// what its histogram counts: the parts of its layout, no depth.
#[test]
fn word_tables_show_their_parts() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "5x5x5-split-eo-classes"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1524174 states, 3 parts"))
        .stdout(predicate::str::contains("parts 1352078 + 86048 + 86048"));
    tablegen(dir.path())
        .args(["info", "5x5x5-split-eo-classes"])
        .assert()
        .success()
        .stdout(predicate::str::contains("encoding   word"))
        .stdout(predicate::str::contains(
            "parts      1352078 + 86048 + 86048",
        ))
        .stdout(predicate::str::contains("max depth").not());
    let v = info_json(dir.path(), "5x5x5-split-eo-classes");
    assert_eq!(v["encoding"], "word");
    assert!(v["max_depth"].is_null());
    assert!(v["bytes"].as_u64().unwrap() > 4 * 1_524_174);
    tablegen(dir.path())
        .args(["verify", "--all"])
        .assert()
        .success();
}

#[test]
fn unknown_id_suggests_close_ones() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "4x4x4-ud-stag"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("4x4x4-ud-stage"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn unwritable_dir_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    tablegen(&file)
        .args(["build", "4x4x4-lr-stage"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not-a-dir"));
}

#[test]
fn corrupt_artifact_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "4x4x4-lr-stage", "-q"])
        .assert()
        .success();
    let path = dir.path().join("4x4x4-lr-stage.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    tablegen(dir.path())
        .args(["verify", "4x4x4-lr-stage"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("4x4x4-lr-stage.tbl"));
    std::fs::write(&path, b"").unwrap();
    tablegen(dir.path())
        .args(["info", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("4x4x4-lr-stage.tbl"));
}

#[test]
fn list_shows_every_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = tablegen(dir.path())
        .args(["list", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    for id in [
        "2x2x2-htm",
        "2x2x2-qtm",
        "pyraminx",
        "4x4x4-ud-stage",
        "4x4x4-lr-stage",
        "4x4x4-centers-solve",
        "5x5x5-ud-t-stage",
        "5x5x5-ud-x-stage",
    ] {
        assert!(ids.contains(&id), "{id} missing");
    }
    tablegen(dir.path())
        .args(["list"])
        .assert()
        .success()
        .stdout(predicate::str::contains("735471"));
}

/// Every kind of damage gives exit code 2 and one line naming the file; never a
/// panic.
#[test]
fn damaged_artifacts_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "4x4x4-lr-stage", "5x5x5-ud-stage-d5", "-q"])
        .assert()
        .success();
    let good = std::fs::read(dir.path().join("4x4x4-lr-stage.tbl")).unwrap();
    let fst = std::fs::read(dir.path().join("5x5x5-ud-stage-d5.tbl")).unwrap();
    let bad = dir.path().join("bad.tbl");
    let flip = |bytes: &[u8], at: usize| {
        let mut b = bytes.to_vec();
        b[at] ^= 0x40;
        b
    };
    let mut wrong_version = good.clone();
    wrong_version[8] = 9;
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("empty", Vec::new()),
        ("header byte", flip(&good, 20)),
        ("payload byte", flip(&good, good.len() / 2)),
        ("fst byte", flip(&fst, fst.len() / 2)),
        ("magic", flip(&good, 0)),
        ("version", wrong_version),
        (
            "random",
            (0..5000u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect(),
        ),
    ];
    for (what, bytes) in cases {
        std::fs::write(&bad, &bytes).unwrap();
        let out = tablegen(dir.path())
            .args(["verify", bad.to_str().unwrap()])
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("bad.tbl"), "{what}: {text}");
        assert!(!text.contains("panicked"), "{what}: {text}");
    }
    // A directory.
    tablegen(dir.path())
        .args(["info", dir.path().to_str().unwrap()])
        .assert()
        .code(2);
}

#[test]
fn publish_and_install_round_trip() {
    let built = tempfile::tempdir().unwrap();
    let release = tempfile::tempdir().unwrap();
    let installed = tempfile::tempdir().unwrap();
    tablegen(built.path())
        .args(["build", "4x4x4-lr-stage", "pyraminx", "-q"])
        .assert()
        .success();
    tablegen(built.path())
        .args(["publish", "--out", release.path().to_str().unwrap()])
        .assert()
        .success();
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(release.path().join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["tables"].as_array().unwrap().len(), 2);
    // Each entry has the SHA-256 of the raw and of the compressed file.
    for e in manifest["tables"].as_array().unwrap() {
        let id = e["id"].as_str().unwrap();
        let raw = std::fs::read(built.path().join(format!("{id}.tbl"))).unwrap();
        let z = std::fs::read(release.path().join(e["file"].as_str().unwrap())).unwrap();
        assert_eq!(e["sha256"], tablefmt::sha256_hex(&raw), "{id}");
        assert_eq!(e["compressed_sha256"], tablefmt::sha256_hex(&z), "{id}");
    }
    tablegen(installed.path())
        .args(["install", "--from", release.path().to_str().unwrap()])
        .assert()
        .success();
    for id in ["4x4x4-lr-stage", "pyraminx"] {
        let a = std::fs::read(built.path().join(format!("{id}.tbl"))).unwrap();
        let b = std::fs::read(installed.path().join(format!("{id}.tbl"))).unwrap();
        assert_eq!(a, b, "{id}");
    }
    // A damaged release file is refused and nothing is placed.
    let z = release.path().join("pyraminx.tbl.zst");
    let mut bytes = std::fs::read(&z).unwrap();
    let n = bytes.len();
    bytes.truncate(n / 2);
    std::fs::write(&z, bytes).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    tablegen(fresh.path())
        .args(["install", "--from", release.path().to_str().unwrap()])
        .assert()
        .code(2);
    assert!(!fresh.path().join("pyraminx.tbl").exists());
}

/// Runs tablegen with a standard output whose reading end is already closed.
fn run_with_closed_stdout(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    std::process::Command::new(env!("CARGO_BIN_EXE_tablegen"))
        .arg("--tables")
        .arg(dir)
        .args(args)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap()
}

/// `tablegen list | head -1`: the reader going away ends the program quietly.
#[test]
fn closed_stdout_is_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "4x4x4-lr-stage", "-q"])
        .assert()
        .success();
    for args in [
        &["list"][..],
        &["list", "--json"],
        &["info", "4x4x4-lr-stage"],
        &["info", "4x4x4-lr-stage", "--json"],
        &["verify", "--all"],
    ] {
        let out = run_with_closed_stdout(dir.path(), args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// Usage errors are one line naming where help is; help and version print as
/// usual.
#[test]
fn usage_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["list", "--foo"][..],
        &[],
        &["lis"],
        &["build", "--threads", "abc"],
        &["verify", "--all", "x"],
        &["info"],
        &["install"],
    ] {
        let out = tablegen(dir.path()).args(args).assert().code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("tablegen: "), "{args:?}: {err}");
        assert!(err.contains("--help`)"), "{args:?}: {err}");
        assert!(out.get_output().stdout.is_empty(), "{args:?}");
    }
    tablegen(dir.path())
        .args(["lis"])
        .assert()
        .stderr(predicate::str::contains("'list'"));
    tablegen(dir.path())
        .args(["build", "--threads", "abc"])
        .assert()
        .stderr(predicate::str::contains("tablegen build --help"));
    for args in [&["--help"][..], &["build", "--help"], &["help", "verify"]] {
        tablegen(dir.path())
            .args(args)
            .assert()
            .success()
            .stdout(predicate::str::contains("Usage: tablegen"));
    }
    tablegen(dir.path())
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("tablegen "));
}

#[test]
fn thread_count_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    for n in ["0", "1025", "100000", "-1", "abc"] {
        let out = tablegen(dir.path())
            .args(["build", "4x4x4-lr-stage", "--threads", n])
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{n}: {err}");
        assert!(err.contains("tablegen build --help"), "{n}: {err}");
        if n != "-1" {
            assert!(err.contains("--threads"), "{n}: {err}");
        }
    }
    assert!(!dir.path().join("4x4x4-lr-stage.tbl").exists());
    tablegen(dir.path())
        .args(["build", "4x4x4-lr-stage", "--threads", "1024", "-q"])
        .assert()
        .success();
}

/// A huge argument is not echoed in full.
#[test]
fn long_arguments_are_cut_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "x".repeat(130_000);
    let huge_tbl = format!("{huge}.tbl");
    let huge_dir = dir.path().join(&huge[..100_000]);
    let cases: Vec<Vec<&std::ffi::OsStr>> = vec![
        vec!["build".as_ref(), huge.as_ref()],
        vec!["info".as_ref(), huge.as_ref()],
        vec!["verify".as_ref(), huge.as_ref()],
        vec!["info".as_ref(), huge_tbl.as_ref()],
        vec!["verify".as_ref(), huge_tbl.as_ref()],
        vec![huge.as_ref()],
        vec!["build".as_ref(), "--threads".as_ref(), huge.as_ref()],
        vec!["list".as_ref(), huge.as_ref()],
        vec![
            "--tables".as_ref(),
            huge_dir.as_os_str(),
            "build".as_ref(),
            "pyraminx".as_ref(),
        ],
    ];
    for args in cases {
        let mut cmd = if args[0] == "--tables" {
            Command::cargo_bin("tablegen").unwrap()
        } else {
            tablegen(dir.path())
        };
        let out = cmd
            .args(&args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{}", &err[..300.min(err.len())]);
        assert!(err.len() < 400, "{}", &err[..400]);
        assert!(err.contains("characters"), "{err}");
    }
}

/// `/dev/null` and symbolic link loops, as table files and as table directories,
/// get one accurate line each.
#[cfg(unix)]
#[test]
fn odd_files_and_directories_are_named_accurately() {
    let dir = tempfile::tempdir().unwrap();
    let lp = dir.path().join("loop");
    std::os::unix::fs::symlink("loop", &lp).unwrap();
    let lp = lp.to_str().unwrap();
    let loop_tbl = dir.path().join("loop.tbl");
    std::os::unix::fs::symlink("loop.tbl", &loop_tbl).unwrap();
    let loop_tbl = loop_tbl.to_str().unwrap();
    let no_tables = dir.path().join("none");
    let no_tables = no_tables.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["verify", "/dev/null"],
            "/dev/null: not a regular file but a character device",
        ),
        (
            vec!["info", "/dev/null"],
            "/dev/null: not a regular file but a character device",
        ),
        (
            vec!["--tables", "/dev/null", "build", "2x2x2-htm"],
            "table directory /dev/null is not a directory but a character device",
        ),
        (
            vec!["--tables", "/dev/null", "verify", "2x2x2-htm"],
            "table directory /dev/null is not a directory but a character device",
        ),
        (
            vec!["--tables", "/dev/null", "list"],
            "table directory /dev/null is not a directory but a character device",
        ),
        (vec!["verify", lp], "loop: cannot open: symbolic link loop"),
        (
            vec!["info", loop_tbl],
            "loop.tbl: cannot open: symbolic link loop",
        ),
        (
            vec!["--tables", lp, "build", "2x2x2-htm"],
            "loop: symbolic link loop",
        ),
        (
            vec!["--tables", lp, "verify", "2x2x2-htm"],
            "loop: symbolic link loop",
        ),
        (
            vec!["--tables", lp, "verify", "--all"],
            "loop: symbolic link loop",
        ),
        (
            vec!["--tables", lp, "info", "2x2x2-htm"],
            "loop: symbolic link loop",
        ),
        (
            vec!["--tables", no_tables, "verify", "2x2x2-htm"],
            "2x2x2-htm.tbl is not built",
        ),
    ];
    for (args, want) in cases {
        let out = Command::cargo_bin("tablegen")
            .unwrap()
            .current_dir(dir.path())
            .args(&args)
            .assert()
            .code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("directory?"), "{args:?}: {err}");
    }
    // The symlink loop in the working directory, named without a slash.
    Command::cargo_bin("tablegen")
        .unwrap()
        .current_dir(dir.path())
        .args(["verify", "loop"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "loop: cannot open: symbolic link loop",
        ));
}

/// `verify` says each fault once; with several files the last line counts them.
#[test]
fn verify_reports_each_fault_once() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "4x4x4-lr-stage", "-q"])
        .assert()
        .success();
    let good = dir.path().join("4x4x4-lr-stage.tbl");
    let bytes = std::fs::read(&good).unwrap();
    let a = dir.path().join("a.tbl");
    let b = dir.path().join("b.tbl");
    std::fs::write(&a, &bytes[..bytes.len() / 2]).unwrap();
    std::fs::write(&b, b"").unwrap();
    let out = tablegen(dir.path())
        .arg("verify")
        .args([&a, &good, &b])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert_eq!(err.matches("a.tbl").count(), 1, "{err}");
    assert_eq!(err.matches("b.tbl").count(), 1, "{err}");
    assert_eq!(
        lines[2],
        "tablegen: verification failed: 2 of 3 files failed (named above)"
    );
    let out = tablegen(dir.path()).arg("verify").arg(&a).assert().code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("tablegen: ") && err.contains("a.tbl: "),
        "{err}"
    );
}

/// A file under a catalog table's name must hold that table: verify (by id, by
/// file name, --all) and list check the header's id and definition hash.
#[test]
fn another_table_under_an_id_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    tablegen(dir.path())
        .args(["build", "4x4x4-lr-stage", "-q"])
        .assert()
        .success();
    let lr = dir.path().join("4x4x4-lr-stage.tbl");
    let ud = dir.path().join("4x4x4-ud-stage.tbl");
    std::fs::copy(&lr, &ud).unwrap();
    // A table of the right id built from another definition.
    let values = [0u8, 1, 1];
    let meta = tablefmt::TableMeta {
        id: "pyraminx".into(),
        definition_hash: 1,
        states: 3,
        histogram: vec![1, 2],
        generator: "test".into(),
        meta: Vec::new(),
    };
    let stale = tablefmt::encode_dense(&meta, &values, tablefmt::Encoding::Nibble).unwrap();
    std::fs::write(dir.path().join("pyraminx.tbl"), stale).unwrap();
    std::fs::write(dir.path().join("2x2x2-htm.tbl"), b"not a table").unwrap();
    let wrong = "holds table \"4x4x4-lr-stage\", not 4x4x4-ud-stage";
    for args in [
        vec!["verify".to_string(), "4x4x4-ud-stage".into()],
        vec!["verify".to_string(), ud.to_str().unwrap().into()],
    ] {
        let out = tablegen(dir.path()).args(&args).assert().code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(wrong), "{err}");
    }
    tablegen(dir.path())
        .args(["verify", "pyraminx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "built from another definition of pyraminx",
        ));
    let out = tablegen(dir.path())
        .args(["verify", "--all"])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains(wrong), "{err}");
    assert!(err.contains("another definition of pyraminx"), "{err}");
    assert!(err.contains("2x2x2-htm.tbl: "), "{err}");
    assert!(err.contains("3 of 4 files failed"), "{err}");
    // publish refuses to ship it under the wrong name.
    let only = tempfile::tempdir().unwrap();
    std::fs::copy(&lr, only.path().join("4x4x4-ud-stage.tbl")).unwrap();
    let out = only.path().join("release");
    tablegen(only.path())
        .args(["publish", "--out", out.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(wrong));
    // Under a name that is no catalog id, the file is what its header says.
    let other = dir.path().join("copy.tbl");
    std::fs::copy(&lr, &other).unwrap();
    tablegen(dir.path())
        .arg("verify")
        .arg(&other)
        .assert()
        .success();
    // list calls none of the three built.
    let out = tablegen(dir.path())
        .args(["list", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let row = |id: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(row("4x4x4-lr-stage")["built"], true);
    assert_eq!(row("4x4x4-lr-stage")["status"], "built");
    assert_eq!(row("4x4x4-ud-stage")["built"], false);
    assert_eq!(row("4x4x4-ud-stage")["status"], "mismatched");
    assert_eq!(row("pyraminx")["status"], "mismatched");
    assert_eq!(row("2x2x2-htm")["status"], "damaged");
    assert_eq!(row("2x2x2-qtm")["status"], "missing");
    let out = tablegen(dir.path()).arg("list").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let line = |id: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap()
            .to_string()
    };
    assert!(line("4x4x4-ud-stage").ends_with("mismatched"), "{text}");
    assert!(line("4x4x4-lr-stage").trim_end().ends_with("yes"), "{text}");
    assert!(line("2x2x2-htm").trim_end().ends_with("damaged"), "{text}");
    assert!(line("2x2x2-qtm").trim_end().ends_with("no"), "{text}");
}

/// A build killed midway leaves its temporary file: the next build of the table
/// removes it (unless a live process holds it), and `verify --all` warns about
/// it without failing.
#[test]
fn stale_temporary_files_are_cleaned_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stale = d.join(".4x4x4-lr-stage.tbl.tmp.999999.0.12345");
    let live = d.join(".4x4x4-lr-stage.tbl.tmp.999998.3.67890");
    let other = d.join(".pyraminx.tbl.tmp.999999.1.12345");
    for p in [&stale, &live, &other] {
        std::fs::write(p, b"half a table").unwrap();
    }
    let held = std::fs::File::open(&live).unwrap();
    held.lock().unwrap();
    tablegen(d)
        .args(["build", "4x4x4-lr-stage"])
        .assert()
        .success()
        .stderr(predicate::str::contains("removed stale temporary file"));
    assert!(!stale.exists());
    assert!(live.exists(), "a file held by a live process was removed");
    assert!(other.exists());
    let out = tablegen(d).args(["verify", "--all"]).assert().success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("warning: stale temporary file"), "{err}");
    assert!(err.contains(".pyraminx.tbl.tmp.999999.1.12345"), "{err}");
    // The holder is gone: the next build removes that one too.
    drop(held);
    tablegen(d)
        .args(["build", "4x4x4-lr-stage", "-q"])
        .assert()
        .success();
    assert!(!live.exists());
    std::fs::remove_file(&other).unwrap();
    tablegen(d)
        .args(["verify", "--all"])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

/// Name -> contents of every file in a directory.
/// Every file of `dir` and its bytes; of a verification record, only the
/// checksum it vouches for (its file's identity differs between
/// directories).
fn snapshot(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            let mut bytes = std::fs::read(e.path()).unwrap();
            if name.ends_with(".verified") {
                let text = String::from_utf8(bytes).unwrap();
                bytes = text.lines().last().unwrap().as_bytes().to_vec();
            }
            (name, bytes)
        })
        .collect()
}

/// Flips the last hex digit of a checksum.
fn flip_hex(s: &str) -> String {
    let mut s = s.to_string();
    let last = s.pop().unwrap();
    s.push(if last == '0' { '1' } else { '0' });
    s
}

/// `install` refuses, before writing anything, ids and file names that leave
/// their directories, and any entry whose file or table does not match every
/// manifest field and the catalog; it installs all entries or none.
#[test]
fn install_checks_everything_before_writing() {
    let root = tempfile::tempdir().unwrap();
    let built = root.path().join("built");
    let release = root.path().join("release");
    let tables = root.path().join("a/b/tables");
    tablegen(&built)
        .args(["build", "pyraminx", "4x4x4-lr-stage", "-q"])
        .assert()
        .success();
    tablegen(&built)
        .args(["publish", "--out", release.to_str().unwrap()])
        .assert()
        .success();
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::copy(built.join("pyraminx.tbl"), tables.join("pyraminx.tbl")).unwrap();
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(release.join("manifest.json")).unwrap()).unwrap();
    let entry = |id: &str| {
        manifest["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == id)
            .unwrap()
            .clone()
    };
    let pyra = entry("pyraminx");
    let lr = entry("4x4x4-lr-stage");
    let outside = root.path().join("outside.zst");
    std::fs::copy(release.join("pyraminx.tbl.zst"), &outside).unwrap();
    let with = |e: &serde_json::Value, k: &str, v: serde_json::Value| {
        let mut e = e.clone();
        e[k] = v;
        e
    };
    let hist_plus = {
        let mut h: Vec<u64> = serde_json::from_value(pyra["histogram"].clone()).unwrap();
        h[1] += 1;
        serde_json::json!(h)
    };
    let n = |k: &str| pyra[k].as_u64().unwrap();
    let s = |k: &str| pyra[k].as_str().unwrap();
    // pyraminx's entry pointing at another table's file (whose compressed
    // figures are right), and another table's whole entry under pyraminx's id.
    let swapped = {
        let mut e = pyra.clone();
        for k in [
            "file",
            "compressed_checksum",
            "compressed_sha256",
            "compressed_bytes",
        ] {
            e[k] = lr[k].clone();
        }
        e
    };
    let renamed = with(&lr, "id", "pyraminx".into());
    let cases: Vec<(&str, Vec<serde_json::Value>, &str)> = vec![
        (
            "id escapes",
            vec![with(&pyra, "id", "../../escaped".into())],
            "not a table id",
        ),
        (
            "absolute id",
            vec![with(
                &pyra,
                "id",
                root.path().join("abs").to_str().unwrap().into(),
            )],
            "not a table id",
        ),
        (
            "unknown id",
            vec![with(&pyra, "id", "pyraminx-x".into())],
            "not in the catalog",
        ),
        (
            "file escapes",
            vec![with(&pyra, "file", "../outside.zst".into())],
            "not a plain file name",
        ),
        (
            "absolute file",
            vec![with(&pyra, "file", outside.to_str().unwrap().into())],
            "not a plain file name",
        ),
        (
            "another file",
            vec![swapped],
            "holds table \"4x4x4-lr-stage\"",
        ),
        ("another entry", vec![renamed], "not the catalog's"),
        (
            "compressed_checksum",
            vec![with(
                &pyra,
                "compressed_checksum",
                flip_hex(s("compressed_checksum")).into(),
            )],
            "checksum",
        ),
        (
            "compressed_sha256",
            vec![with(
                &pyra,
                "compressed_sha256",
                flip_hex(s("compressed_sha256")).into(),
            )],
            "SHA-256",
        ),
        (
            "sha256",
            vec![with(&pyra, "sha256", flip_hex(s("sha256")).into())],
            "decompresses to a file with SHA-256",
        ),
        (
            "sha256 missing",
            vec![{
                let mut e = pyra.clone();
                e.as_object_mut().unwrap().remove("sha256");
                e
            }],
            "no \"sha256\"",
        ),
        (
            "compressed_bytes",
            vec![with(
                &pyra,
                "compressed_bytes",
                (n("compressed_bytes") + 1).into(),
            )],
            "bytes, the manifest says",
        ),
        (
            "bytes",
            vec![with(&pyra, "bytes", (n("bytes") + 1).into())],
            "bytes is",
        ),
        (
            "states",
            vec![with(&pyra, "states", (n("states") + 1).into())],
            "states is",
        ),
        (
            "histogram",
            vec![with(&pyra, "histogram", hist_plus)],
            "histogram is",
        ),
        (
            "checksum",
            vec![with(&pyra, "checksum", flip_hex(s("checksum")).into())],
            "checksum is",
        ),
        (
            "definition_hash",
            vec![with(
                &pyra,
                "definition_hash",
                flip_hex(s("definition_hash")).into(),
            )],
            "definition_hash",
        ),
        (
            "missing field",
            vec![{
                let mut e = pyra.clone();
                e.as_object_mut().unwrap().remove("states");
                e
            }],
            "no \"states\"",
        ),
        ("twice", vec![pyra.clone(), pyra.clone()], "listed twice"),
        (
            "good then bad",
            vec![lr.clone(), with(&pyra, "states", (n("states") + 1).into())],
            "states is",
        ),
    ];
    let before = snapshot(&tables);
    for (what, entries, want) in cases {
        let dir = root.path().join("case");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        for f in ["pyraminx.tbl.zst", "4x4x4-lr-stage.tbl.zst"] {
            std::fs::copy(release.join(f), dir.join(f)).unwrap();
        }
        let m = serde_json::json!({ "tables": entries });
        std::fs::write(dir.join("manifest.json"), m.to_string()).unwrap();
        let out = tablegen(&tables)
            .args(["install", "--from", dir.to_str().unwrap()])
            .assert()
            .code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.contains(want), "{what}: {err}");
        assert_eq!(
            snapshot(&tables),
            before,
            "{what}: the table directory changed"
        );
        assert!(!root.path().join("escaped.tbl").exists(), "{what}");
        assert!(!root.path().join("abs.tbl").exists(), "{what}");
    }
    // The real release installs both, replacing the old pyraminx.tbl.
    tablegen(&tables)
        .args(["install", "--from", release.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(snapshot(&tables), snapshot(&built));
}

/// A closed standard error loses the notes but never panics.
#[test]
fn closed_stderr_is_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        std::process::Command::new(env!("CARGO_BIN_EXE_tablegen"))
            .arg("--tables")
            .arg(dir.path())
            .args(args)
            .stderr(writer)
            .output()
            .unwrap()
    };
    std::fs::write(dir.path().join(".pyraminx.tbl.tmp.1.2.3"), b"x").unwrap();
    let out = run(&["build", "4x4x4-lr-stage", "pyraminx"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["verify", "--all"]);
    assert_eq!(out.status.code(), Some(0));
    std::fs::write(dir.path().join("bad.tbl"), b"bad").unwrap();
    let bad = dir.path().join("bad.tbl");
    let out = run(&["verify", bad.to_str().unwrap(), "pyraminx"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_shows_an_example_of_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = tablegen(dir.path())
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for sub in [
        "list", "build", "info", "verify", "publish", "install", "manifest",
    ] {
        assert!(text.contains(&format!("  tablegen {sub}")), "{sub}: {text}");
        tablegen(dir.path())
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "Example:\n  tablegen {sub}"
            )));
    }
}

/// The committed `4x4x4-lr-stage` table.
fn committed_lr_stage() -> Vec<u8> {
    let tables = tablegen::artifact::tables_dir(None);
    std::fs::read(tables.join("4x4x4-lr-stage.tbl")).unwrap()
}

/// `verify` refuses a committed table with any one byte changed: header,
/// pointers, payload, and the padding no field holds (such as the byte 100
/// before the end). Every byte is tried through the library, a sample through
/// the command (one run over a directory of damaged copies).
#[test]
fn verify_refuses_any_changed_byte() {
    let good = committed_lr_stage();
    let opts = tablefmt::OpenOptions::default();
    for at in 0..good.len() {
        for mask in [0x01u8, 0x80] {
            let mut bad = good.clone();
            bad[at] ^= mask;
            assert!(
                tablefmt::Table::from_bytes(&bad, &opts).is_err(),
                "byte {at} ^ {mask:#04x} of {} verifies",
                good.len()
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let n = good.len();
    let mut sample: Vec<usize> = (0..32).chain((32..n).step_by(61)).collect();
    sample.extend(n - 200..n);
    sample.sort_unstable();
    sample.dedup();
    assert!(sample.contains(&(n - 100)));
    let mut files = Vec::new();
    for &at in &sample {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        let path = dir.path().join(format!("flip-{at}.tbl"));
        std::fs::write(&path, bad).unwrap();
        files.push(path);
    }
    let out = tablegen(dir.path())
        .arg("verify")
        .args(&files)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    for f in &files {
        let name = f.file_name().unwrap().to_str().unwrap();
        assert!(err.contains(&format!("{name}:")), "{name} verified: {err}");
    }
    assert!(String::from_utf8(out.stdout).unwrap().is_empty());
    // The byte 100 before the end is padding, and is called so.
    let one = dir.path().join(format!("flip-{}.tbl", n - 100));
    tablegen(dir.path())
        .arg("verify")
        .arg(&one)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("padding"));
}

/// A dense table file written again with another generator string: whole
/// and valid, the same values, other bytes.
fn another_generator(table: &[u8]) -> Vec<u8> {
    let t = tablefmt::Table::from_bytes(table, &Default::default()).unwrap();
    let h = t.info();
    let meta = tablefmt::TableMeta {
        id: h.id.clone(),
        definition_hash: h.definition_hash,
        states: h.states,
        histogram: h.histogram.clone(),
        generator: "another generator".into(),
        meta: h.meta.clone(),
    };
    let values: Vec<u8> = t.dense().unwrap().iter().collect();
    tablefmt::encode_dense(&meta, &values, h.encoding).unwrap()
}

/// With a `manifest.json` beside it, `verify` also compares the whole file's
/// SHA-256 with the manifest's entry: a valid table of the right id and
/// definition that is not the file the manifest lists is refused.
#[test]
fn verify_compares_the_manifest_sha256() {
    let dir = tempfile::tempdir().unwrap();
    let good = committed_lr_stage();
    let tables = tablegen::artifact::tables_dir(None);
    let path = dir.path().join("4x4x4-lr-stage.tbl");
    std::fs::write(&path, &good).unwrap();
    std::fs::copy(
        tables.join("manifest.json"),
        dir.path().join("manifest.json"),
    )
    .unwrap();
    for args in [vec!["verify", "--all"], vec!["verify", "4x4x4-lr-stage"]] {
        tablegen(dir.path()).args(&args).assert().success();
    }
    // The same table written again with another generator string: whole and
    // valid, but not the file of the manifest.
    std::fs::write(&path, another_generator(&good)).unwrap();
    for args in [
        vec!["verify", "--all"],
        vec!["verify", "4x4x4-lr-stage"],
        vec!["verify", path.to_str().unwrap()],
    ] {
        tablegen(dir.path())
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("SHA-256"))
            .stderr(predicate::str::contains("manifest.json"));
    }
    // Without the manifest it is a good table.
    std::fs::remove_file(dir.path().join("manifest.json")).unwrap();
    tablegen(dir.path())
        .args(["verify", "4x4x4-lr-stage"])
        .assert()
        .success();
}

/// The files of a directory and their bytes.
fn contents(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    crate::common::file_names(dir)
        .into_iter()
        .map(|f| {
            let b = std::fs::read(dir.join(&f)).unwrap();
            (f, b)
        })
        .collect()
}

/// A table held as shards is one table to `list`, `info`, `verify`,
/// `manifest`, `publish` and `install`: the manifest lists its index and
/// shards with their SHA-256, its checksum is the one file's, and an install
/// puts all of it in place or none, replacing the other form.
#[test]
fn sharded_tables_are_one_table_to_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let good = committed_lr_stage();
    let one = tablefmt::Table::from_bytes(&good, &Default::default()).unwrap();
    let tables = dir.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    let def = tablegen::catalog::find("4x4x4-lr-stage").unwrap();
    let out = tablegen::catalog::build(&def, &tablegen::progress::Progress::hidden()).unwrap();
    let w = tablegen::artifact::write(&def, &out, &tables, good.len() as u64 * 2 / 3).unwrap();
    assert!(matches!(
        w,
        tablegen::artifact::Written::Shards { shards: 2, .. }
    ));
    let json = |args: &[&str]| -> serde_json::Value {
        let out = tablegen(&tables).args(args).assert().success();
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    };
    let row = list_row(&tables, "4x4x4-lr-stage");
    assert_eq!(row["status"], "built");
    assert_eq!(row["shards"], 2);
    assert_eq!(row["bytes"].as_u64(), Some(w.bytes()));
    let info = json(&["info", "4x4x4-lr-stage", "--json"]);
    assert_eq!(info["states"], 12870);
    assert_eq!(info["shards"].as_array().unwrap().len(), 2);
    for args in [&["verify", "--all"][..], &["verify", "4x4x4-lr-stage"]] {
        tablegen(&tables)
            .args(args)
            .assert()
            .success()
            .stdout(predicate::str::contains("4x4x4-lr-stage.shards.json"));
    }
    // The committed manifest lists the one file: refused until `manifest`
    // writes the sharded entry (the other tables keep their entries).
    std::fs::copy(
        tablegen::artifact::tables_dir(None).join("manifest.json"),
        tables.join("manifest.json"),
    )
    .unwrap();
    tablegen(&tables)
        .args(["verify", "4x4x4-lr-stage"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("lists 4x4x4-lr-stage as one file"));
    for args in [&["manifest"][..], &["verify", "--all"]] {
        tablegen(&tables).args(args).assert().success();
    }
    // The manifest's entry: the one file's checksum, the index's and the
    // shards' SHA-256.
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tables.join("manifest.json")).unwrap()).unwrap();
    let e = m["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "4x4x4-lr-stage")
        .unwrap();
    assert_eq!(e["checksum"].as_str(), Some(one.info().checksum.as_str()));
    assert!(e.get("sha256").is_none());
    let index = tables.join("4x4x4-lr-stage.shards.json");
    assert_eq!(
        e["index_sha256"],
        tablefmt::sha256_hex(&std::fs::read(&index).unwrap())
    );
    for (k, s) in e["shards"].as_array().unwrap().iter().enumerate() {
        let f = tables.join(format!("4x4x4-lr-stage.{k:03}-of-002.tbl"));
        assert_eq!(
            s["sha256"],
            tablefmt::sha256_hex(&std::fs::read(f).unwrap())
        );
    }
    // A shard whole and valid but not the manifest's (another generator
    // string) is refused by its SHA-256.
    let shard = tables.join("4x4x4-lr-stage.001-of-002.tbl");
    let kept = std::fs::read(&shard).unwrap();
    std::fs::write(&shard, another_generator(&kept)).unwrap();
    tablegen(&tables)
        .args(["verify", "4x4x4-lr-stage"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("001-of-002.tbl SHA-256"));
    std::fs::write(&shard, &kept).unwrap();

    // Published: the index copied, the shards compressed.
    let release = dir.path().join("release");
    tablegen(&tables)
        .args(["publish", "--out", release.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::contains("in 2 shards"));
    let names = crate::common::file_names(&release);
    for f in [
        "4x4x4-lr-stage.shards.json",
        "4x4x4-lr-stage.000-of-002.tbl.zst",
        "4x4x4-lr-stage.001-of-002.tbl.zst",
    ] {
        assert!(names.iter().any(|n| n == f), "{f} not in {names:?}");
    }
    // Installed over the one-file form, which it replaces; the same bytes.
    let target = dir.path().join("installed");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("4x4x4-lr-stage.tbl"), &good).unwrap();
    tablegen(&target)
        .args(["install", "--from", release.to_str().unwrap()])
        .assert()
        .success();
    let table_files = |dir: &std::path::Path| -> Vec<_> {
        contents(dir)
            .into_iter()
            .filter(|(f, _)| f.starts_with("4x4x4-lr-stage"))
            .collect()
    };
    assert!(
        table_files(&tables) == table_files(&target),
        "the installed shards differ"
    );
    // Damaged or foreign parts of a release: nothing is installed.
    let fresh = dir.path().join("fresh");
    type Harm = fn(&mut Vec<u8>);
    let damage: [(&str, Harm); 2] = [
        ("4x4x4-lr-stage.shards.json", |b| b.push(b' ')),
        ("4x4x4-lr-stage.001-of-002.tbl.zst", |b| {
            let n = b.len();
            b.truncate(n / 2)
        }),
    ];
    for (file, harm) in damage {
        let p = release.join(file);
        let kept = std::fs::read(&p).unwrap();
        let mut bytes = kept.clone();
        harm(&mut bytes);
        std::fs::write(&p, &bytes).unwrap();
        tablegen(&fresh)
            .args(["install", "--from", release.to_str().unwrap()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(file));
        assert!(!fresh.exists(), "{file}: something was installed");
        std::fs::write(&p, &kept).unwrap();
    }
    // The one-file form installed over the shards removes them.
    let release1 = dir.path().join("release1");
    let built1 = dir.path().join("built1");
    std::fs::create_dir(&built1).unwrap();
    std::fs::write(built1.join("4x4x4-lr-stage.tbl"), &good).unwrap();
    tablegen(&built1)
        .args(["publish", "--out", release1.to_str().unwrap()])
        .assert()
        .success();
    tablegen(&target)
        .args(["install", "--from", release1.to_str().unwrap()])
        .assert()
        .success();
    assert_eq!(
        crate::common::file_names(&target),
        crate::common::with_records(&["4x4x4-lr-stage.tbl"])
    );
}

/// The row of table `id` in `tablegen list --json` of the directory `tables`.
fn list_row(tables: &std::path::Path, id: &str) -> serde_json::Value {
    let out = tablegen(tables).args(["list", "--json"]).assert().success();
    let list: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap()
        .clone()
}

/// `4x4x4-lr-stage` written as two shards and an index in `DIR/tables`;
/// returns that directory and the table's committed one-file form.
fn sharded_lr_stage(dir: &std::path::Path) -> (std::path::PathBuf, Vec<u8>) {
    let tables = dir.join("tables");
    std::fs::create_dir(&tables).unwrap();
    let good = committed_lr_stage();
    let def = tablegen::catalog::find("4x4x4-lr-stage").unwrap();
    let out = tablegen::catalog::build(&def, &tablegen::progress::Progress::hidden()).unwrap();
    let w = tablegen::artifact::write(&def, &out, &tables, good.len() as u64 * 2 / 3).unwrap();
    assert!(matches!(
        w,
        tablegen::artifact::Written::Shards { shards: 2, .. }
    ));
    (tables, good)
}

/// `verify --all` checks a table in both forms when both are there (one
/// file and shards), fails on a damaged form even when commands would read
/// the other, and reports shard files that no index lists: a failure when
/// the table is not whole as one file, else a warning. The same table whole
/// in both forms is a warning; two different tables under one id a failure.
#[test]
fn verify_all_checks_both_forms_and_orphan_shards() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, good) = sharded_lr_stage(dir.path());
    let file = tables.join("4x4x4-lr-stage.tbl");
    let index = tables.join("4x4x4-lr-stage.shards.json");
    let shard = tables.join("4x4x4-lr-stage.001-of-002.tbl");
    std::fs::write(&file, &good).unwrap();
    let verify_all = || tablegen(&tables).args(["verify", "--all"]).assert();
    let stderr = |a: &assert_cmd::assert::Assert| {
        String::from_utf8_lossy(&a.get_output().stderr).into_owned()
    };
    // Both whole: both checked, a warning.
    let a = verify_all()
        .success()
        .stdout(predicate::str::contains("ok "))
        .stdout(predicate::str::contains("4x4x4-lr-stage.tbl"))
        .stdout(predicate::str::contains("4x4x4-lr-stage.shards.json"));
    let err = stderr(&a);
    assert!(
        err.starts_with("warning: 4x4x4-lr-stage is here in both forms"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // A damaged shard beside a whole file: named, exit 2.
    let kept = std::fs::read(&shard).unwrap();
    std::fs::write(&shard, b"garbage, not a shard").unwrap();
    let a = verify_all().code(2);
    let err = stderr(&a);
    assert!(err.contains("4x4x4-lr-stage.001-of-002.tbl: "), "{err}");
    assert!(err.contains("1 of 2 files failed"), "{err}");
    std::fs::write(&shard, &kept).unwrap();
    // Another table under the same id in the one-file form (whole, but its
    // payload is not the shards'): a failure.
    let t = tablefmt::Table::from_bytes(&good, &Default::default()).unwrap();
    let h = t.info();
    let meta = tablefmt::TableMeta {
        id: h.id.clone(),
        definition_hash: h.definition_hash,
        states: h.states,
        histogram: h.histogram.clone(),
        generator: h.generator.clone(),
        meta: h.meta.clone(),
    };
    let mut values: Vec<u8> = t.dense().unwrap().iter().collect();
    values[1] = if values[1] == 0 { 1 } else { 0 };
    let other = tablefmt::encode_dense(&meta, &values, h.encoding).unwrap();
    std::fs::write(&file, &other).unwrap();
    let a = verify_all().code(2);
    let err = stderr(&a);
    assert!(
        err.contains("two different tables for 4x4x4-lr-stage"),
        "{err}"
    );
    std::fs::write(&file, &good).unwrap();
    // Shards without their index beside a whole file: leftovers, a warning.
    let kept_index = std::fs::read(&index).unwrap();
    std::fs::remove_file(&index).unwrap();
    let a = verify_all().success();
    let err = stderr(&a);
    assert!(err.starts_with("warning: orphan shard files"), "{err}");
    assert!(err.contains("000-of-002.tbl"), "{err}");
    // Shards without their index, alone: the table cannot be read, a failure.
    std::fs::remove_file(&file).unwrap();
    let a = verify_all().code(2);
    let err = stderr(&a);
    assert!(err.contains("orphan shard files, no index"), "{err}");
    assert!(err.contains("4x4x4-lr-stage.shards.json"), "{err}");
    // An index that does not list a shard file beside it.
    std::fs::write(&index, &kept_index).unwrap();
    verify_all().success().stderr("");
    std::fs::write(tables.join("4x4x4-lr-stage.000-of-003.tbl"), b"old").unwrap();
    let a = verify_all().code(2);
    let err = stderr(&a);
    assert!(
        err.contains("000-of-003.tbl: orphan shard files, not listed by their index"),
        "{err}"
    );
    // Any other table file in the directory is checked too.
    std::fs::remove_file(tables.join("4x4x4-lr-stage.000-of-003.tbl")).unwrap();
    std::fs::write(tables.join("copy.tbl"), b"not a table").unwrap();
    let a = verify_all().code(2);
    assert!(stderr(&a).contains("copy.tbl: "), "{}", stderr(&a));
}

/// A shard that is a symbolic link out of the table directory is refused
/// before a byte of it is read (as a shard name with `../` is), by `verify`
/// and `list`.
#[cfg(unix)]
#[test]
fn a_shard_linked_out_of_the_table_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (tables, _) = sharded_lr_stage(dir.path());
    let secret = dir.path().join("passwd");
    std::fs::write(&secret, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let shard = tables.join("4x4x4-lr-stage.001-of-002.tbl");
    std::fs::remove_file(&shard).unwrap();
    std::os::unix::fs::symlink(&secret, &shard).unwrap();
    for args in [&["verify", "4x4x4-lr-stage"][..], &["verify", "--all"]] {
        let a = tablegen(&tables).args(args).assert().code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(
            err.contains("symbolic link out of the table's directory"),
            "{err}"
        );
        assert!(!err.contains("root:x"), "{err}");
    }
    assert_eq!(list_row(&tables, "4x4x4-lr-stage")["status"], "damaged");
}
