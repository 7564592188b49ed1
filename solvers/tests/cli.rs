//! `cubesolve` on the command line: outputs and exit codes.

use assert_cmd::Command;
use predicates::prelude::*;

fn cubesolve() -> Command {
    let mut c = Command::cargo_bin("cubesolve").unwrap();
    let dir = std::env::temp_dir().join(format!("cubesolve-cli-{}", std::process::id()));
    c.arg("--tables").arg(dir);
    c
}

#[test]
fn solves_a_2x2x2_scramble() {
    let out = cubesolve()
        .args([
            "solve",
            "--puzzle",
            "2x2x2",
            "--scramble",
            "R U R' U'",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["moves"], 4);
    assert!(v["ms"].as_f64().is_some());
    assert!(v["phases"].is_object());
}

#[test]
fn solves_a_state_and_prints_a_link() {
    cubesolve()
        .args([
            "solve",
            "--puzzle",
            "2x2x2",
            "--order",
            "ulfrbd",
            "--state",
            "UUUUFFLLRRFFBBRRLLBBDDDD",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("U'\n"))
        .stdout(predicate::str::contains("alg.cubing.net/?puzzle=2x2x2"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        vec!["solve", "--puzzle", "2x2x2", "--scramble", "R Q"],
        vec!["solve", "--puzzle", "2x2x2", "--state", "UUUU"],
        vec![
            "solve",
            "--puzzle",
            "2x2x2",
            "--state",
            "UUURRRRUFFFFDDDDLLLLBBBB",
        ],
        vec!["solve", "--puzzle", "2x2x2", "--scramble", "2R"],
        vec!["solve", "--puzzle", "megaminx", "--scramble", "R"],
        // URF corner twisted in place (U9 R1 F3 = R F U).
        vec![
            "solve",
            "--puzzle",
            "3x3x3",
            "--state",
            "UUUUUUUURFRRRRRRRRFFUFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB",
        ],
        vec!["solve", "--puzzle", "3x3x3", "--scramble", "R 3R"],
        vec!["solve", "--puzzle", "pyraminx", "--scramble", "U2"],
        vec!["solve", "--puzzle", "domino", "--scramble", "R"],
    ] {
        let out = cubesolve()
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.trim_end().lines().count(), 1, "{args:?}: {text}");
        assert!(!text.contains("panicked"));
    }
}

#[test]
fn scramble_is_reproducible_and_solvable() {
    let a = cubesolve()
        .args(["scramble", "--puzzle", "2x2x2", "--seed", "7"])
        .output()
        .unwrap();
    let b = cubesolve()
        .args(["scramble", "--puzzle", "2x2x2", "--seed", "7"])
        .output()
        .unwrap();
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    let mut lines = text.lines();
    let scramble = lines.next().unwrap();
    let state = lines.next().unwrap();
    let cube = tablegen::cube::CubeN::new(2);
    let mut s = cube.solved();
    cube.apply_alg(&mut s, &tablegen::notation::parse_alg(scramble).unwrap());
    assert_eq!(cube.format_state(&s, Default::default()), state);
}

#[test]
fn a_table_for_another_id_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Build the pyraminx table, then put it where the 2x2x2 table belongs.
    Command::cargo_bin("cubesolve")
        .unwrap()
        .args(["--tables", dir.path().to_str().unwrap()])
        .args(["solve", "--puzzle", "pyraminx", "--scramble", "U", "--json"])
        .assert()
        .success();
    std::fs::copy(
        dir.path().join("pyraminx.tbl"),
        dir.path().join("2x2x2-htm.tbl"),
    )
    .unwrap();
    Command::cargo_bin("cubesolve")
        .unwrap()
        .args(["--tables", dir.path().to_str().unwrap()])
        .args(["solve", "--puzzle", "2x2x2", "--scramble", "R U"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2x2x2-htm.tbl"));
}
