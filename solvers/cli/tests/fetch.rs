//! Fetch on first use: `cubesolve` given a table source (`--tables-from`,
//! `$CUBE_TABLES_FROM`) downloads a missing table from it instead of building
//! it, against a real HTTP server on 127.0.0.1.

use crate::http_server::Server;
use assert_cmd::Command;
use std::path::{Path, PathBuf};

const SCRAMBLE: &str = "U L' r b";

/// A release as `tablegen publish` writes it, of the committed Pyraminx
/// table: `pyraminx.tbl.zst` and `manifest.json` in `root/release`.
fn release(root: &Path) -> PathBuf {
    let table = tablegen::artifact::tables_dir(None).join("pyraminx.tbl");
    let out = root.join("release");
    std::fs::create_dir_all(&out).unwrap();
    let zpath = out.join("pyraminx.tbl.zst");
    tablefmt::compress_file(&table, &zpath, 3).unwrap();
    let z = std::fs::read(&zpath).unwrap();
    let t = tablefmt::Table::open(&table, &tablefmt::OpenOptions::default()).unwrap();
    let h = t.info();
    let manifest = serde_json::json!({ "tables": [{
        "id": "pyraminx",
        "definition_hash": format!("{:016x}", h.definition_hash),
        "states": h.states,
        "histogram": h.histogram,
        "bytes": h.bytes,
        "checksum": h.checksum,
        "file": "pyraminx.tbl.zst",
        "sha256": tablefmt::file_sha256(&table).unwrap(),
        "compressed_bytes": z.len(),
        "compressed_checksum": tablefmt::checksum_hex(&z),
        "compressed_sha256": tablefmt::sha256_hex(&z),
    }]});
    std::fs::write(out.join("manifest.json"), manifest.to_string()).unwrap();
    out
}

fn cubesolve(tables: &Path) -> Command {
    let mut c = Command::cargo_bin("cubesolve").unwrap();
    c.arg("--tables").arg(tables).env_remove("CUBE_TABLES_FROM");
    c
}

fn solve_pyraminx(c: &mut Command) -> std::process::Output {
    c.args(["solve", "--puzzle", "pyraminx", "--scramble", SCRAMBLE])
        .output()
        .unwrap()
}

#[test]
fn a_missing_table_is_downloaded_from_the_table_source_not_built() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::start(release(root.path()));
    let shipped = std::fs::read(tablegen::artifact::tables_dir(None).join("pyraminx.tbl")).unwrap();
    // --tables-from, and $CUBE_TABLES_FROM.
    for k in 0..2 {
        let tables = root.path().join(format!("tables{k}"));
        let mut c = cubesolve(&tables);
        if k == 0 {
            c.args(["--tables-from", &server.url("")]);
        } else {
            c.env("CUBE_TABLES_FROM", server.url("manifest.json"));
        }
        let out = solve_pyraminx(&mut c);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "pyraminx.tbl.zst: downloading {}",
                server.url("pyraminx.tbl.zst")
            )),
            "{stderr}"
        );
        // Not built: no BFS progress.
        assert!(!stderr.contains("depth"), "{stderr}");
        assert!(std::fs::read(tables.join("pyraminx.tbl")).unwrap() == shipped);
        let mut left: Vec<String> = std::fs::read_dir(&tables)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [".pyraminx.tbl.verified", "pyraminx.tbl"],
            "only the table and the record of its check are left"
        );
        let moves = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let p = solvers::registry::find("pyraminx").unwrap();
        let position = p
            .parse(&solvers::puzzle::Input::Scramble(SCRAMBLE))
            .unwrap();
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        assert!(
            position.state.after(&tokens).unwrap().is_solved(),
            "{moves}"
        );
    }
    assert_eq!(server.requests_for("/pyraminx.tbl.zst").len(), 2);
    // The table there now: nothing is downloaded again.
    let before = server.requests().len();
    let out = solve_pyraminx(
        cubesolve(&root.path().join("tables0")).args(["--tables-from", &server.url("")]),
    );
    assert!(out.status.success());
    assert_eq!(server.requests().len(), before);
}

#[test]
fn a_table_source_that_fails_is_one_line_and_its_exit_code() {
    let root = tempfile::tempdir().unwrap();
    let rel = release(root.path());
    let server = Server::start(&rel);
    let one_line = |out: &std::process::Output| {
        let text = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(text.trim_end().lines().count(), 1, "{text}");
        assert!(!text.contains("panicked"), "{text}");
        text
    };
    // No manifest there: a network failure (exit 1).
    let tables = root.path().join("tables");
    let out = solve_pyraminx(cubesolve(&tables).args(["--tables-from", &server.url("nothing/")]));
    assert_eq!(out.status.code(), Some(1));
    assert!(one_line(&out).contains(&server.url("nothing/manifest.json")));
    assert!(!tables.join("pyraminx.tbl").exists());
    // A tampered file: refused (exit 2), nothing placed.
    let z = rel.join("pyraminx.tbl.zst");
    let mut bytes = std::fs::read(&z).unwrap();
    let at = bytes.len() / 3;
    bytes[at] ^= 1;
    std::fs::write(&z, bytes).unwrap();
    let out = cubesolve(&tables)
        .args(["--tables-from", &server.url("")])
        .args([
            "solve",
            "--puzzle",
            "pyraminx",
            "--scramble",
            SCRAMBLE,
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line(&out).contains(&server.url("pyraminx.tbl.zst")));
    assert!(!tables.join("pyraminx.tbl").exists());
}

#[test]
fn a_table_the_source_does_not_list_is_built() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::start(release(root.path()));
    let tables = root.path().join("tables");
    let out = cubesolve(&tables)
        .args(["--tables-from", &server.url("")])
        .args(["solve", "--puzzle", "2x2x2", "--scramble", "R U"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "note: {} does not list 2x2x2-htm; building it",
            server.url("manifest.json")
        )),
        "{stderr}"
    );
    assert!(tables.join("2x2x2-htm.tbl").exists());
}
