//! `tablegen install --from URL` against a real HTTP server on 127.0.0.1
//! serving a `tablegen publish` directory: a clean install, a tampered file,
//! a missing one, a download cut half-way and resumed, a server that never
//! answers.

use crate::http_server::{Mode, Server};
use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The small committed tables the release holds.
const IDS: [&str; 2] = ["4x4x4-lr-stage", "pyraminx"];

/// A release of the committed tables [`IDS`], written by `tablegen publish`
/// into `root/release`; returns its path.
fn release(root: &Path) -> PathBuf {
    let built = root.join("built");
    std::fs::create_dir_all(&built).unwrap();
    let shipped = tablegen::artifact::tables_dir(None);
    for id in IDS {
        let name = format!("{id}.tbl");
        std::fs::copy(shipped.join(&name), built.join(&name)).unwrap();
    }
    let out = root.join("release");
    tablegen(&built)
        .args(["publish", "--out", out.to_str().unwrap()])
        .assert()
        .success();
    out
}

fn tablegen(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("tablegen").unwrap();
    c.arg("--tables").arg(dir).env_remove("CUBE_TABLES_FROM");
    c
}

/// Standard error of a run, checked to be one line without a panic.
fn one_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
    assert!(!text.contains("panicked"), "{text}");
    text
}

/// Runs `tablegen install --from FROM -q` and more `args` into `tables`,
/// which must fail with exit code `code` and one line on standard error;
/// returns the line.
fn install_fails(tables: &Path, from: &str, args: &[&str], code: i32) -> String {
    let out = tablegen(tables)
        .args(["install", "--from", from, "-q"])
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    one_line(&out)
}

/// The table files (`.tbl`) in `dir`, sorted; none if it does not exist.
fn tables_in(dir: &Path) -> Vec<String> {
    if !dir.exists() {
        return Vec::new();
    }
    crate::common::file_names(dir)
        .into_iter()
        .filter(|n| n.ends_with(".tbl"))
        .collect()
}

/// Each installed table is the committed one, byte for byte.
fn same_as_shipped(dir: &Path) {
    let shipped = tablegen::artifact::tables_dir(None);
    for id in IDS {
        let name = format!("{id}.tbl");
        let a = std::fs::read(shipped.join(&name)).unwrap();
        let b = std::fs::read(dir.join(&name)).unwrap();
        assert!(a == b, "{id}: installed bytes differ");
    }
}

#[test]
fn install_from_url_places_every_table_and_nothing_else() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::start(release(root.path()));
    // The directory's URL and the manifest's.
    for (k, url) in [server.url(""), server.url("manifest.json")]
        .into_iter()
        .enumerate()
    {
        let tables = root.path().join(format!("tables{k}"));
        let out = tablegen(&tables)
            .args(["install", "--from", &url])
            .assert()
            .success()
            .get_output()
            .clone();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        for id in IDS {
            assert!(stdout.contains(&format!("installed {id} -> ")), "{stdout}");
            // Plain progress lines when standard error is not a terminal.
            assert!(
                stderr.contains(&format!("{id}.tbl.zst: downloading {}", server.url(""))),
                "{stderr}"
            );
        }
        same_as_shipped(&tables);
        // No download is left beside the tables.
        assert_eq!(
            crate::common::file_names(&tables),
            crate::common::with_records(&["4x4x4-lr-stage.tbl", "pyraminx.tbl"])
        );
    }
    // Only the tables asked for.
    let tables = root.path().join("one");
    tablegen(&tables)
        .args(["install", "pyraminx", "--from", &server.url(""), "-q"])
        .assert()
        .success()
        .stderr("");
    assert_eq!(tables_in(&tables), vec!["pyraminx.tbl"]);
    // The source given once, with --tables-from.
    let tables = root.path().join("configured");
    tablegen(&tables)
        .args(["--tables-from", &server.url(""), "install", "-q"])
        .assert()
        .success();
    same_as_shipped(&tables);
}

#[test]
fn a_tampered_file_is_refused_and_nothing_placed() {
    let root = tempfile::tempdir().unwrap();
    let rel = release(root.path());
    let z = rel.join("pyraminx.tbl.zst");
    let mut bytes = std::fs::read(&z).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(&z, bytes).unwrap();
    let server = Server::start(&rel);
    let tables = root.path().join("tables");
    let err = install_fails(&tables, &server.url(""), &[], 2);
    assert!(err.contains(&server.url("pyraminx.tbl.zst")), "{err}");
    assert!(err.contains("the manifest says"), "{err}");
    assert_eq!(tables_in(&tables), Vec::<String>::new());
    // The bad download is not kept for a resume.
    if tables.exists() {
        let left: Vec<String> = crate::common::file_names(&tables)
            .into_iter()
            .filter(|n| n.starts_with(".pyraminx"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
    // A tampered manifest entry (another definition) is refused as well.
    let mpath = rel.join("manifest.json");
    let text = std::fs::read_to_string(&mpath).unwrap();
    let mut m: serde_json::Value = serde_json::from_str(&text).unwrap();
    m["tables"][0]["definition_hash"] = "0123456789abcdef".into();
    std::fs::write(&mpath, serde_json::to_string(&m).unwrap()).unwrap();
    let err = install_fails(&tables, &server.url(""), &[], 2);
    assert!(err.contains(&server.url("manifest.json")), "{err}");
    assert_eq!(tables_in(&tables), Vec::<String>::new());
}

#[test]
fn a_missing_file_is_a_network_failure_naming_its_url() {
    let root = tempfile::tempdir().unwrap();
    let rel = release(root.path());
    std::fs::remove_file(rel.join("pyraminx.tbl.zst")).unwrap();
    let server = Server::start(&rel);
    let tables = root.path().join("tables");
    let err = install_fails(&tables, &server.url(""), &[], 1);
    assert!(
        err.contains(&format!("{}: HTTP 404", server.url("pyraminx.tbl.zst"))),
        "{err}"
    );
    assert_eq!(tables_in(&tables), Vec::<String>::new());
    // A 404 is not tried again.
    assert_eq!(server.requests_for("/pyraminx.tbl.zst").len(), 1);
    // No manifest there.
    let err = install_fails(&tables, &server.url("nothing/"), &[], 1);
    assert!(err.contains(&server.url("nothing/manifest.json")), "{err}");
}

#[test]
fn a_download_cut_half_way_is_resumed_with_a_range_request() {
    let root = tempfile::tempdir().unwrap();
    let rel = release(root.path());
    let whole = std::fs::read(rel.join("pyraminx.tbl.zst")).unwrap();
    let half = whole.len() / 2;
    let server = Server::start(&rel);
    server.set_mode(Mode::Cut {
        file: "pyraminx.tbl.zst".into(),
        bytes: half,
        times: usize::MAX,
    });
    let tables = root.path().join("tables");
    let err = install_fails(&tables, &server.url(""), &["--retries", "0"], 1);
    assert!(err.contains(&server.url("pyraminx.tbl.zst")), "{err}");
    assert_eq!(tables_in(&tables), Vec::<String>::new());
    // The half that came is kept beside the target under a temporary name.
    let part: Vec<PathBuf> = crate::common::file_names(&tables)
        .into_iter()
        .filter(|n| n.starts_with(".pyraminx.tbl.zst.") && n.ends_with(".part"))
        .map(|n| tables.join(n))
        .collect();
    assert_eq!(part.len(), 1, "{part:?}");
    assert_eq!(std::fs::read(&part[0]).unwrap(), whole[..half]);
    // Run again: only the rest is asked for, and the bytes are the same.
    server.set_mode(Mode::Normal);
    tablegen(&tables)
        .args(["install", "--from", &server.url(""), "-q"])
        .assert()
        .success();
    let ranges: Vec<Option<String>> = (server.requests_for("/pyraminx.tbl.zst").into_iter())
        .map(|r| r.range)
        .collect();
    assert_eq!(ranges, vec![None, Some(format!("bytes={half}-"))]);
    same_as_shipped(&tables);
    assert!(!part[0].exists());
    // Within one run, a retry resumes as well.
    let tables = root.path().join("again");
    server.set_mode(Mode::Cut {
        file: "pyraminx.tbl.zst".into(),
        bytes: half,
        times: 1,
    });
    let before = server.requests_for("/pyraminx.tbl.zst").len();
    tablegen(&tables)
        .args(["install", "--from", &server.url(""), "--retries", "1", "-q"])
        .assert()
        .success();
    let ranges: Vec<Option<String>> = server.requests_for("/pyraminx.tbl.zst")[before..]
        .iter()
        .map(|r| r.range.clone())
        .collect();
    assert_eq!(ranges, vec![None, Some(format!("bytes={half}-"))]);
    same_as_shipped(&tables);
}

#[test]
fn a_server_that_never_answers_fails_within_the_timeout() {
    let root = tempfile::tempdir().unwrap();
    let server = Server::start(release(root.path()));
    server.set_mode(Mode::Silent);
    let tables = root.path().join("tables");
    let start = std::time::Instant::now();
    let err = install_fails(
        &tables,
        &server.url(""),
        &["--timeout", "1", "--retries", "1"],
        1,
    );
    let took = start.elapsed();
    assert!(err.contains(&server.url("manifest.json")), "{err}");
    assert!(err.contains("timeout"), "{err}");
    assert!(err.contains("tried 2 times"), "{err}");
    // Two attempts of 1 s and a pause of 1 s.
    assert!(took < std::time::Duration::from_secs(15), "{took:?}");
    assert_eq!(server.requests().len(), 2);
    assert!(!tables.exists());
}

/// `publish` writes release assets as they are to be uploaded: one flat
/// directory whose manifest names its files relative to itself, nothing
/// else; it refuses to publish nothing and names files left from before.
#[test]
fn publish_writes_flat_release_assets() {
    let root = tempfile::tempdir().unwrap();
    let rel = release(root.path());
    let names = crate::common::file_names(&rel);
    assert_eq!(
        names,
        vec![
            "4x4x4-lr-stage.tbl.zst",
            "manifest.json",
            "pyraminx.tbl.zst"
        ]
    );
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(rel.join("manifest.json")).unwrap()).unwrap();
    for e in m["tables"].as_array().unwrap() {
        let file = e["file"].as_str().unwrap();
        assert!(!file.contains('/') && rel.join(file).is_file(), "{file}");
    }
    // A file left from an earlier release is named, not listed.
    std::fs::write(rel.join("old.tbl.zst"), b"x").unwrap();
    tablegen(&root.path().join("built"))
        .args(["publish", "--out", rel.to_str().unwrap()])
        .assert()
        .success()
        .stderr(predicates::str::contains("also holds old.tbl.zst"));
    // Nothing built: nothing published.
    let empty = root.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = tablegen(&empty)
        .args(["publish", "--out", root.path().join("r2").to_str().unwrap()])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(one_line(&out).contains("nothing to publish"));
    assert!(!root.path().join("r2").exists());
}
