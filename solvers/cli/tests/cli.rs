//! `cubesolve` on the command line: outputs and exit codes.

use assert_cmd::Command;
use predicates::prelude::*;

fn cubesolve() -> Command {
    let mut c = Command::cargo_bin("cubesolve").unwrap();
    c.arg("--tables").arg(solvers::tables::test_tables_dir());
    c
}

/// Stderr of a run, checked to be one line without a panic.
fn one_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
    assert!(!text.contains("panicked"), "{text}");
    text
}

/// The JSON object of a successful `solve` with these arguments.
fn solve_json(args: &[&str]) -> serde_json::Value {
    json_of(cubesolve().arg("solve").args(args).arg("--json"))
}

/// The JSON a successful run prints.
fn json_of(c: &mut Command) -> serde_json::Value {
    serde_json::from_slice(&c.assert().success().get_output().stdout).unwrap()
}

#[test]
fn solves_a_2x2x2_scramble() {
    let v = solve_json(&["--puzzle", "2x2x2", "--scramble", "R U R' U'"]);
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
            "--link",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("U'\n"))
        .stdout(predicate::str::contains("alg.cubing.net/?puzzle=2x2x2"));
    // Without --link, output that is not a terminal is the solution alone.
    cubesolve()
        .args(["solve", "--puzzle", "2x2x2", "--scramble", "U"])
        .assert()
        .success()
        .stdout("U'\n");
}

#[test]
fn a_link_past_2000_characters_is_not_printed() {
    let long = "R U R' U' ".repeat(300);
    let out = cubesolve()
        .args(["solve", "--puzzle", "2x2x2", "--scramble", &long, "--link"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert!(one_line(&out).contains("no link"));
}

#[test]
fn order_is_refused_where_it_means_nothing() {
    for puzzle in ["domino", "pyraminx"] {
        let out = cubesolve()
            .args(["solve", "--puzzle", puzzle, "--scramble", "U"])
            .args(["--order", "ulfrbd"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{puzzle}");
        assert!(one_line(&out).contains("--order"));
    }
}

/// A solved 4x4x4 held in another orientation gets the empty solution (it
/// used to get `Rw Lw'` for `x`); one turned and given a turn gets one.
#[test]
fn a_turned_4x4x4_keeps_its_orientation() {
    for (scramble, want) in [("x", "\n"), ("z", "\n"), ("x y2", "\n"), ("z R", "R'\n")] {
        cubesolve()
            .args(["solve", "--puzzle", "4x4x4", "--scramble", scramble])
            .assert()
            .success()
            .stdout(want);
    }
}

/// The OLL parity case (one dedge flipped on a reduced cube) used to run for
/// minutes whatever the time budget.
#[test]
fn a_4x4x4_with_oll_parity_is_solved() {
    // The hard limit counts loading: build any table still missing (a
    // fresh clone's first run) before the clock starts.
    solvers::cube4::Solver::load(&solvers::tables::test_tables_dir(), true).unwrap();
    let oll = "Rw U2 x Rw U2 Rw U2 Rw' U2 Lw U2 Rw' U2 Rw U2 Rw' U2 Rw'";
    // On every core, on one thread, on three.
    for (after, threads) in [("", None), (" R", Some("1")), (" Uw R", Some("3"))] {
        let out = cubesolve()
            .args(["solve", "--puzzle", "4x4x4", "--json"])
            .args(["--scramble", &format!("{oll}{after}")])
            .args(["--hard-limit", "20000"])
            .args(threads.map(|t| ["--threads", t]).into_iter().flatten())
            .output()
            .unwrap();
        assert!(out.status.success(), "{after}: {:?}", out);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["moves"].as_u64().unwrap() <= 45, "{v}");
    }
}

/// Nothing found within the hard limit is the solver's failure: exit 1, one
/// line.
#[test]
fn the_hard_limit_ends_a_solve_with_exit_1() {
    let scramble = "Rw U F' Uw2 L Fw R2 B' Uw D Rw' F2 U' Lw B Dw' R U2 Fw' L2";
    let out = cubesolve()
        .args(["solve", "--puzzle", "4x4x4", "--scramble", scramble])
        .args(["--time-budget", "0", "--hard-limit", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(one_line(&out).contains("hard time limit"));
}

/// The hard limit holds at every size, loading included: the 5x5x5 (whose
/// solver's own default is 180 s) and the big cubes, from a state whose
/// solve takes far longer than the limit (exit 1, one line, well before).
#[test]
fn the_hard_limit_ends_big_cube_solves() {
    // The 5x5x5's tables, built here if missing, so that the limit falls on
    // the solve, not on a first build.
    solvers::cube5::Solver::load(&solvers::tables::test_tables_dir(), true).unwrap();
    for (puzzle, limit) in [("5x5x5", "1"), ("9x9x9", "2000"), ("12x12x12", "2000")] {
        let out = cubesolve()
            .args(["scramble", "--puzzle", puzzle, "--seed", "7"])
            .output()
            .unwrap();
        let scramble = String::from_utf8(out.stdout).unwrap();
        let scramble = scramble.lines().next().unwrap();
        let start = std::time::Instant::now();
        let out = cubesolve()
            .args(["solve", "--puzzle", puzzle, "--scramble", scramble])
            .args(["--hard-limit", limit, "--time-budget", "1"])
            .output()
            .unwrap();
        let took = start.elapsed();
        assert_eq!(out.status.code(), Some(1), "{puzzle}");
        assert!(one_line(&out).contains("hard time limit"), "{puzzle}");
        // A 9x9x9 or 12x12x12 solve takes well over 15 s here.
        assert!(
            took < std::time::Duration::from_secs(15),
            "{puzzle}: {took:?}"
        );
    }
}

#[test]
fn a_damaged_table_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2x2x2-htm.tbl");
    let good = solvers::tables::test_tables_dir().join("2x2x2-htm.tbl");
    let mut bytes = std::fs::read(good).unwrap();
    bytes.truncate(1000);
    std::fs::write(&path, bytes).unwrap();
    let out = Command::cargo_bin("cubesolve")
        .unwrap()
        .args(["--tables", dir.path().to_str().unwrap()])
        .args(["solve", "--puzzle", "2x2x2", "--scramble", "R U"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let line = one_line(&out);
    assert_eq!(line.matches("2x2x2-htm.tbl").count(), 1, "{line}");
}

/// A table the solver built is recorded as checked and trusted by its record
/// while unchanged; a byte changed in place (the same inode and length) no
/// longer matches the record and is caught at the next open, with or
/// without `--hash-tables`.
#[test]
fn a_recorded_table_changed_in_place_is_caught() {
    use std::io::{Seek, SeekFrom, Write};
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        Command::cargo_bin("cubesolve")
            .unwrap()
            .args(["--tables", dir.path().to_str().unwrap()])
            .args(extra)
            .args(["solve", "--puzzle", "2x2x2", "--scramble", "R U"])
            .output()
            .unwrap()
    };
    let path = dir.path().join("2x2x2-htm.tbl");
    assert!(run(&[]).status.success());
    assert!(dir.path().join(".2x2x2-htm.tbl.verified").exists());
    let opts = tablefmt::OpenOptions {
        trust_record: true,
        ..tablefmt::OpenOptions::default()
    };
    let table = tablefmt::Table::open(&path, &opts).unwrap();
    assert_eq!(table.verified(), tablefmt::Verified::ByRecord);
    let at = table.payload_range().start as u64 + 1000;
    let was = table.as_bytes()[at as usize];
    drop(table);
    assert_eq!(run(&[]).stdout, b"U' R'\n");
    let mut f = std::fs::File::options().write(true).open(&path).unwrap();
    f.seek(SeekFrom::Start(at)).unwrap();
    f.write_all(&[was ^ 0x33]).unwrap();
    drop(f);
    for extra in [&[][..], &["--hash-tables"]] {
        let out = run(extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let line = one_line(&out);
        assert!(
            line.contains("2x2x2-htm.tbl") && line.contains("checksum"),
            "{line}"
        );
    }
}

/// A table directory that cannot be written: the solve works (the table is
/// built in memory) and says once that it cannot save it.
#[test]
fn an_unwritable_table_directory_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    let out = Command::cargo_bin("cubesolve")
        .unwrap()
        .args(["--tables", file.to_str().unwrap()])
        .args(["solve", "--puzzle", "2x2x2", "--scramble", "R U", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let line = one_line(&out);
    assert!(line.contains("cannot save"), "{line}");
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
        vec![
            "solve",
            "--puzzle",
            "4x4x4",
            "--scramble",
            "R",
            "--threads",
            "0",
        ],
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

#[test]
fn show_draws_any_cube_pyraminx_and_domino() {
    for (puzzle, scramble, shapes) in [
        ("2x2x2", "R U", 24),
        ("3x3x3", "R U R' U'", 54),
        ("7x7x7", "3Rw U2 2F'", 294),
        ("pyraminx", "U L' r b", 36),
        ("domino", "U R2 D'", 42),
    ] {
        let out = cubesolve()
            .args(["show", "--puzzle", puzzle, "--scramble", scramble])
            .args(["--svg", "-"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let n = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("facelet"))
            .count();
        assert_eq!(n, shapes, "{puzzle}");
    }
    // To a file, and from a state string in either face order.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("u.svg");
    cubesolve()
        .args(["show", "--puzzle", "2x2x2", "--order", "ulfrbd"])
        .args(["--state", "UUUUFFLLRRFFBBRRLLBBDDDD", "--svg"])
        .arg(&file)
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("data-facelet=\"R0\""));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn show_refuses_bad_input_in_one_line() {
    for args in [
        &["--puzzle", "3x3x3", "--scramble", "R Q"][..],
        &["--puzzle", "3x3x3", "--state", "UUU"],
        &["--puzzle", "4x5x4", "--scramble", "R"],
        &["--puzzle", "pyraminx", "--state", "UUU"],
        &["--puzzle", "3x3x3", "--scramble", "3R"],
    ] {
        let out = cubesolve()
            .arg("show")
            .args(args)
            .args(["--svg", "-"])
            .assert()
            .code(2)
            .stdout("")
            .get_output()
            .clone();
        one_line(&out);
    }
}

#[test]
fn solve_draws_each_phase() {
    let dir = tempfile::tempdir().unwrap();
    let out = cubesolve()
        .args(["solve", "--puzzle", "4x4x4", "--scramble"])
        .arg("Rw U2 x Rw U2 Rw U2 Rw' U2 Lw U2 Rw' U2 Rw U2 Rw' U2 Rw'")
        .args(["--json", "--svg"])
        .arg(dir.path().join("pics"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("pics"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let phases = v["phases"].as_object().unwrap();
    assert_eq!(
        names.len(),
        1 + phases.keys().filter(|k| *k != "merged").count()
    );
    assert_eq!(names[0], "00-start.svg");
    assert!(names[1].starts_with("01-"), "{names:?}");
}

#[test]
fn short_scrambles_stay_short_on_the_command_line() {
    for (puzzle, scramble, want) in [
        ("4x4x4", "x y", ""),
        ("3x3x3", "R", "R'"),
        ("4x4x4", "R", "R'"),
        ("2x2x2", "z", ""),
    ] {
        cubesolve()
            .args(["solve", "--puzzle", puzzle, "--scramble", scramble])
            .assert()
            .success()
            .stdout(format!("{want}\n"));
    }
}

#[test]
fn help_shows_an_example_of_every_subcommand() {
    let out = cubesolve()
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for sub in ["solve", "scramble", "show"] {
        assert!(
            text.contains(&format!("  cubesolve {sub} --puzzle")),
            "{sub}: {text}"
        );
        cubesolve()
            .args([sub, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "cubesolve {sub} --puzzle"
            )));
    }
}

/// Impossible 5x5x5 states are refused with exit 2 and one line before any
/// table is read or built: the table directory given is empty and stays so.
#[test]
fn bad_5x5x5_states_exit_2_before_any_table() {
    let solved: String = "URFDLB"
        .chars()
        .flat_map(|c| std::iter::repeat_n(c, 25))
        .collect();
    let at = |f: usize, r: usize, c: usize| f * 25 + r * 5 + c;
    let with = |changes: &[(usize, char)]| -> String {
        let mut s: Vec<char> = solved.chars().collect();
        for &(i, c) in changes {
            s[i] = c;
        }
        s.into_iter().collect()
    };
    let (u, r, f, b) = (0, 1, 2, 5);
    let cases = [
        ("short", solved[..149].to_string()),
        ("long", format!("{solved}U")),
        ("letter", with(&[(at(u, 0, 0), 'X')])),
        ("T-centre count", with(&[(at(u, 1, 2), 'R')])),
        // The wing at U row 0 column 1 turned over: its U facelet shows B.
        ("wing", with(&[(at(u, 0, 1), 'B'), (at(b, 0, 3), 'U')])),
        // The URF corner twisted in place.
        (
            "corner",
            with(&[(at(u, 4, 4), 'R'), (at(r, 0, 0), 'F'), (at(f, 0, 4), 'U')]),
        ),
        // The UF midge flipped.
        ("midge", with(&[(at(u, 4, 2), 'F'), (at(f, 0, 2), 'U')])),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (what, state) in cases {
        let out = Command::cargo_bin("cubesolve")
            .unwrap()
            .arg("--tables")
            .arg(dir.path())
            .args(["solve", "--puzzle", "5x5x5", "--state", &state])
            .assert()
            .code(2)
            .get_output()
            .clone();
        one_line(&out);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{what}");
    }
}

/// Bad input for the big cubes: exit 2 and one line, before any table is
/// read or built. A wrong length names the cube it would fit; a centre
/// orbit with a colour too many is named; a size past the largest gives the
/// limit.
#[test]
fn bad_big_cube_input_exits_2_before_any_table() {
    let solved = |n: usize| -> String {
        "URFDLB"
            .chars()
            .flat_map(|c| std::iter::repeat_n(c, n * n))
            .collect()
    };
    let mut counts: Vec<char> = solved(7).chars().collect();
    // An X-centre of U and an oblique of R trade colours: each colour's
    // count stays right, the X-centre orbit has one R too many.
    counts[7 + 1] = 'R';
    counts[49 + 7 + 2] = 'U';
    let counts: String = counts.into_iter().collect();
    let five = solved(5);
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<&str>, &str); 4] = [
        (
            "length",
            vec!["solve", "--puzzle", "7x7x7", "--state", &five],
            "the length of a 5x5x5",
        ),
        (
            "counts",
            vec!["solve", "--puzzle", "7x7x7", "--state", &counts],
            "centre orbit",
        ),
        (
            "too big",
            vec!["solve", "--puzzle", "65x65x65", "--scramble", "R"],
            "the largest cube is 64x64x64",
        ),
        (
            "notation",
            vec!["solve", "--puzzle", "9x9x9", "--scramble", "10Rw"],
            "",
        ),
    ];
    for (what, args, says) in cases {
        let out = Command::cargo_bin("cubesolve")
            .unwrap()
            .arg("--tables")
            .arg(dir.path())
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        one_line(&out);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{what}: {err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{what}");
    }
}

#[test]
fn a_sharded_table_solves_as_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let def = tablegen::catalog::find("2x2x2-htm").unwrap();
    let out = tablegen::catalog::build(&def, &tablegen::progress::Progress::hidden()).unwrap();
    // 1.8 MB of nibbles in shards of at most 1 MiB: two shards.
    let written = tablegen::artifact::write(&def, &out, dir.path(), 1 << 20).unwrap();
    assert!(matches!(
        written,
        tablegen::artifact::Written::Shards { shards: 2, .. }
    ));
    let solve = || {
        Command::cargo_bin("cubesolve")
            .unwrap()
            .args(["--tables", dir.path().to_str().unwrap()])
            .args(["solve", "--puzzle", "2x2x2", "--scramble", "R U F' R2 U'"])
            .args(["--json"])
            .assert()
    };
    let got = solve().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&got).unwrap();
    let moves = v["moves"].as_u64().unwrap();
    assert!((1..=5).contains(&moves), "{v}");
    assert!(
        !dir.path().join("2x2x2-htm.tbl").exists(),
        "built, not opened"
    );
    // A damaged shard is refused, naming it.
    let shard = dir.path().join("2x2x2-htm.001-of-002.tbl");
    let mut bytes = std::fs::read(&shard).unwrap();
    bytes[100] ^= 4;
    std::fs::write(&shard, &bytes).unwrap();
    solve()
        .code(2)
        .stderr(predicate::str::contains("2x2x2-htm.001-of-002.tbl"));
}

/// `show --svg` writes to a device as to a file (`/dev/null`, `/dev/stdout`),
/// and a write that fails names where it went: standard output, or the file.
/// A full disk is a fault of the machine: exit 1.
#[cfg(target_os = "linux")]
#[test]
fn show_writes_to_devices_and_names_where_a_write_failed() {
    let show = || {
        let mut c = cubesolve();
        c.args(["show", "--puzzle", "3x3x3", "--scramble", "R U"]);
        c
    };
    show()
        .args(["--svg", "/dev/null"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    show()
        .args(["--svg", "/dev/stdout"])
        .assert()
        .success()
        .stdout(predicate::str::contains("<svg"))
        .stderr("");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cubesolve"))
        .args([
            "show",
            "--puzzle",
            "3x3x3",
            "--scramble",
            "R U",
            "--svg",
            "-",
        ])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let line = one_line(&out);
    assert!(line.contains("standard output"), "{line}");
    assert!(line.contains("No space left on device"), "{line}");
    let out = show().args(["--svg", "/dev/full"]).assert().code(1);
    let line = one_line(out.get_output());
    assert!(
        line.contains("/dev/full: cannot write the picture"),
        "{line}"
    );
    // A directory is still refused, as bad input.
    let dir = tempfile::tempdir().unwrap();
    let out = show().arg("--svg").arg(dir.path()).assert().code(2);
    let line = one_line(out.get_output());
    assert!(line.contains("a directory"), "{line}");
}

/// With neither --state nor --scramble the usage error names both.
#[test]
fn a_missing_position_names_both_options() {
    for cmd in [&["solve"][..], &["show", "--svg", "-"]] {
        let out = cubesolve()
            .args(cmd)
            .args(["--puzzle", "3x3x3"])
            .assert()
            .code(2);
        let line = one_line(out.get_output());
        assert!(
            line.contains("--state") && line.contains("--scramble"),
            "{cmd:?}: {line}"
        );
    }
}

/// A space or line break inside a state is named by its position (1-based)
/// and shown, not counted as a facelet.
#[test]
fn a_stray_character_in_a_state_is_named_by_its_position() {
    let solved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    for (puzzle, state, says) in [
        (
            "3x3x3",
            format!("{} {}", &solved[..9], &solved[9..]),
            "' ' at character 10 of the state",
        ),
        (
            "3x3x3",
            format!("{}\n{}", &solved[..20], &solved[20..]),
            "'\\n' at character 21 of the state",
        ),
    ] {
        let out = cubesolve()
            .args(["solve", "--puzzle", puzzle, "--state", &state])
            .assert()
            .code(2);
        let line = one_line(out.get_output());
        assert!(line.contains(says), "{line}");
        assert!(!line.contains("facelets"), "{line}");
    }
}

#[test]
fn optimal_solves_say_so_and_what_they_proved() {
    let v = solve_json(&[
        "--puzzle",
        "3x3x3",
        "--scramble",
        "R U2 F' L D2 B R' U F2",
        "--optimal",
        "--optimal-tables",
        "small",
    ]);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["proven_depth"], v["moves"]);
    assert!(v["moves"].as_u64().unwrap() <= 9);
    // Out of time: exit 1, the depth ruled out and a two-phase solution.
    let out = cubesolve()
        .args([
            "solve",
            "--puzzle",
            "3x3x3",
            "--state",
            "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB",
            "--optimal",
            "--optimal-tables",
            "small",
            "--hard-limit",
            "1500",
        ])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let text = one_line(&out);
    assert!(text.contains("none shorter than"), "{text}");
    assert!(text.contains("best found"), "{text}");
    // Bad sizes and puzzles without an optimal solver are input errors.
    for args in [
        &["--puzzle", "3x3x3", "--optimal-tables", "giant"][..],
        &["--puzzle", "4x4x4"][..],
    ] {
        let out = cubesolve()
            .args(["solve", "--scramble", "R", "--optimal"])
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        one_line(&out);
    }
}

/// A solve bounded by a hard limit does not build the exact phase-1 table
/// (seconds): it solves on the small tables' bounds.
#[test]
fn a_hard_limit_does_not_build_the_exact_phase1_table() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tables");
    for e in std::fs::read_dir(shipped).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("3x3x3-phase") && name.ends_with(".tbl") {
            std::fs::copy(&path, dir.path().join(&name)).unwrap();
        }
    }
    let scramble = "R U2 F' L D2 B R' U F2 L' D B2 R U' F D2 L2 B'";
    let v = json_of(
        Command::cargo_bin("cubesolve")
            .unwrap()
            .args(["--tables", dir.path().to_str().unwrap()])
            .args(["solve", "--puzzle", "3x3x3", "--scramble", scramble])
            .args(["--hard-limit", "20000", "--json"]),
    );
    assert!(v["moves"].as_u64().unwrap() <= 21, "{v}");
    let exact = tablegen::artifact::artifact_path(dir.path(), "3x3x3-optimal-flipslice-twist");
    assert!(!exact.exists(), "built under a hard limit");
}

#[test]
fn phase1_tables_solve_the_3x3x3_and_no_other_puzzle() {
    let scramble = "R U2 F' L D2 B R' U F2 L' D B2 R U' F D2 L2 B'";
    let cube = tablegen::cube::CubeN::new(3);
    let flags: [&[&str]; 4] = [
        &[],
        &["--phase1-tables", "exact"],
        &["--phase1-tables", "small"],
        &["--exact-phase1"],
    ];
    for flag in flags {
        let mut args = vec![
            "--puzzle",
            "3x3x3",
            "--scramble",
            scramble,
            "--max-length",
            "20",
        ];
        args.extend_from_slice(flag);
        let v = solve_json(&args);
        assert!(v["moves"].as_u64().unwrap() <= 20, "{flag:?}: {v}");
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg(scramble).unwrap());
        let solution = v["solution"].as_str().unwrap();
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg(solution).unwrap());
        assert!(cube.is_solved(&s), "{flag:?}: {solution}");
    }
    let refused: [&[&str]; 4] = [
        &["--puzzle", "4x4x4", "--scramble", "R", "--exact-phase1"],
        &[
            "--puzzle",
            "4x4x4",
            "--scramble",
            "R",
            "--phase1-tables",
            "small",
        ],
        &[
            "--puzzle",
            "3x3x3",
            "--scramble",
            "R",
            "--phase1-tables",
            "tiny",
        ],
        &[
            "--puzzle",
            "3x3x3",
            "--scramble",
            "R",
            "--phase1-tables",
            "small",
            "--exact-phase1",
        ],
    ];
    for args in refused {
        let out = cubesolve()
            .arg("solve")
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let line = one_line(&out);
        if args[1] == "4x4x4" {
            assert!(line.contains("phase 1"), "{line}");
        }
    }
}

/// `--states FILE` and `--scrambles -`: the tables loaded once, one answer a
/// line in order, each replayed here; comments and empty lines skipped.
#[test]
fn solves_a_file_of_states_and_scrambles_from_stdin() {
    let cube = tablegen::cube::CubeN::new(3);
    let mut states = Vec::new();
    for seed in 1..=5 {
        let out = cubesolve()
            .args(["scramble", "--puzzle", "3x3x3", "--seed", &seed.to_string()])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        states.push(text.lines().nth(1).unwrap().to_string());
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("states.txt");
    let body = format!(
        "# five states\n{}\n\n{}\n{}\n{}\n{}\n",
        states[0], states[1], states[2], states[3], states[4]
    );
    std::fs::write(&file, body).unwrap();
    let out = cubesolve()
        .args(["solve", "--puzzle", "3x3x3", "--json", "--states"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    for ((v, state), line) in lines.iter().zip(&states).zip([2, 4, 5, 6, 7]) {
        assert_eq!(v["line"], line);
        let moves = tablegen::notation::parse_alg(v["solution"].as_str().unwrap()).unwrap();
        assert_eq!(v["moves"], moves.len());
        let mut s = cube.parse_state(state, Default::default()).unwrap();
        cube.apply_alg(&mut s, &moves);
        assert!(cube.is_solved(&s), "line {line}: {v}");
    }
    // Scrambles from standard input, plain output: one solution a line.
    let scrambles = ["R U R' U'", "F2 D' L B", "U"];
    let out = cubesolve()
        .args(["solve", "--puzzle", "3x3x3", "--scrambles", "-"])
        .write_stdin(scrambles.join("\n"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let sols: Vec<&str> = text.lines().collect();
    assert_eq!(sols.len(), 3, "{text}");
    for (scramble, sol) in scrambles.iter().zip(&sols) {
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg(scramble).unwrap());
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg(sol).unwrap());
        assert!(cube.is_solved(&s), "{scramble}: {sol}");
    }
}

/// A bad line ends a file's run with exit 2, named by its number, after the
/// lines before it were answered; a file that cannot be read, or a file with
/// a single position, is bad input too.
#[test]
fn a_bad_line_of_a_file_is_named_and_exits_2() {
    let out = cubesolve()
        .args(["solve", "--puzzle", "2x2x2", "--scrambles", "-"])
        .write_stdin("R U\n\nR Q\nU\n")
        .assert()
        .code(2);
    let line = one_line(out.get_output());
    assert!(line.contains("line 3") && line.contains("\"Q\""), "{line}");
    let answered = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(answered.lines().count(), 1, "{answered}");
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.txt");
    let out = cubesolve()
        .args(["solve", "--puzzle", "2x2x2", "--states"])
        .arg(&missing)
        .assert()
        .code(2);
    let line = one_line(out.get_output());
    assert!(line.contains("none.txt"), "{line}");
    for both in [
        &["--states", "-", "--state", "UUUURRRRFFFFDDDDLLLLBBBB"][..],
        &["--states", "-", "--scrambles", "-"],
        &["--scrambles", "-", "--svg", "pictures"],
    ] {
        let out = cubesolve()
            .args(["solve", "--puzzle", "2x2x2"])
            .args(both)
            .write_stdin("")
            .assert()
            .code(2);
        one_line(out.get_output());
    }
    let out = cubesolve()
        .args([
            "solve",
            "--puzzle",
            "2x2x2",
            "--scrambles",
            "-",
            "--order",
            "ulfrbd",
        ])
        .write_stdin("R\n")
        .assert()
        .code(2);
    let line = one_line(out.get_output());
    assert!(line.contains("--order"), "{line}");
}

/// `--target-length`: past the time budget, a 4x4x4 whose best is longer goes
/// on until the target's time (25 moves: no reduction reaches it), and one
/// it has at once ends at the budget; both solutions replayed. Other
/// puzzles refuse it, and `--target-time` needs it (exit 2).
#[test]
fn a_4x4x4_goes_on_for_its_target_length() {
    // Any table still missing is built before the clock starts.
    solvers::cube4::Solver::load(&solvers::tables::test_tables_dir(), true).unwrap();
    let out = cubesolve()
        .args(["scramble", "--puzzle", "4x4x4", "--seed", "7"])
        .output()
        .unwrap();
    let state = String::from_utf8(out.stdout).unwrap();
    let state = state.lines().next().unwrap().trim().to_string();
    let cube = tablegen::cube::CubeN::new(4);
    for (target, at_least) in [("25", 590.0), ("60", 0.0)] {
        let v = solve_json(&[
            "--puzzle",
            "4x4x4",
            "--scramble",
            &state,
            "--time-budget",
            "50",
            "--target-length",
            target,
            "--target-time",
            "600",
        ]);
        let mut s = cube.solved();
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg(&state).unwrap());
        let solution = v["solution"].as_str().unwrap();
        cube.apply_alg(&mut s, &tablegen::notation::parse_alg(solution).unwrap());
        assert!(cube.is_solved(&s), "{target}: {solution}");
        let ms = v["ms"].as_f64().unwrap();
        assert!(ms >= at_least, "target {target}: {ms} ms");
    }
    for args in [
        &[
            "--puzzle",
            "3x3x3",
            "--scramble",
            "R",
            "--target-length",
            "20",
        ][..],
        &[
            "--puzzle",
            "4x4x4",
            "--scramble",
            "R",
            "--target-time",
            "500",
        ],
        &[
            "--puzzle",
            "4x4x4",
            "--scramble",
            "R",
            "--target-length",
            "0",
        ],
    ] {
        let out = cubesolve().arg("solve").args(args).assert().code(2);
        one_line(out.get_output());
    }
}
