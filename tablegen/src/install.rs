//! Installing published tables (what `tablegen publish` writes) into a table
//! directory, from a directory or from an http(s) URL: all or none, each
//! file checked against its manifest entry and the catalog before anything
//! is placed. A sharded table's index and shards are checked one against the
//! other too, and its whole payload's checksum against the entry's.
//!
//! From a URL (the `fetch` feature), each compressed file is downloaded
//! beside its target under a temporary name (`.FILE.SHA.part`), resumed with
//! an HTTP range request when an earlier run was cut short, tried again a
//! bounded number of times ([`Options`]), and removed once its table is in
//! place or found bad.

use crate::artifact::{artifact_path, check_against_catalog, shards_path};
use crate::catalog::{self, TableDef};
use crate::cli::{quote, show_path};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod entry;
#[cfg(feature = "fetch")]
mod http;
#[cfg(test)]
use entry::is_plain_file_name;
use entry::{check_header, parse_entry};

/// Where published tables are: the directory `tablegen publish` wrote, or the
/// URL of its manifest (or of the directory holding it) after an upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A directory holding `manifest.json` and the files it lists.
    Dir(PathBuf),
    /// An `http://` or `https://` URL: the manifest's (ending in `.json`),
    /// or its directory's (`manifest.json` there). The files it lists are
    /// beside it.
    Url(String),
}

impl Source {
    /// A URL for text starting with `http://` or `https://`, else a directory.
    pub fn new(text: &str) -> Source {
        let lower = text.get(..8).unwrap_or(text).to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            Source::Url(text.to_string())
        } else {
            Source::Dir(PathBuf::from(text))
        }
    }

    /// Where its manifest is: `DIR/manifest.json`, or its URL.
    pub fn manifest_location(&self) -> String {
        match self {
            Source::Dir(d) => show_path(&d.join("manifest.json")),
            Source::Url(u) => manifest_url(u),
        }
    }

    /// Where a file the manifest lists is, for messages: `DIR/FILE`, or
    /// its URL.
    fn file_location(&self, file: &str) -> String {
        match self {
            Source::Dir(d) => show_path(&d.join(file)),
            Source::Url(u) => file_url(&manifest_url(u), file),
        }
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Dir(d) => f.write_str(&show_path(d)),
            Source::Url(u) => f.write_str(u),
        }
    }
}

/// The manifest's URL for a URL given: itself when its last segment ends in
/// `.json`, else `manifest.json` in it as a directory.
fn manifest_url(url: &str) -> String {
    let last = url.rsplit('/').next().unwrap_or_default();
    if last.ends_with(".json") && !url.ends_with("//") {
        url.to_string()
    } else if url.ends_with('/') {
        format!("{url}manifest.json")
    } else {
        format!("{url}/manifest.json")
    }
}

/// The URL of a file beside the manifest at `manifest`: the file name,
/// percent-encoded but for the unreserved characters, in its directory.
fn file_url(manifest: &str, file: &str) -> String {
    let base = match manifest.rfind('/') {
        Some(i) => &manifest[..=i],
        None => manifest,
    };
    let mut url = base.to_string();
    for b in file.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// The default of [`Options::timeout`], in seconds.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// The default of [`Options::retries`].
pub const DEFAULT_RETRIES: u32 = 3;

/// How downloads behave (a directory source ignores them but `quiet`).
#[derive(Clone, Debug)]
pub struct Options {
    /// The longest wait to connect, to send a request, for the response to
    /// begin and for each read of it: a server that stops answering fails
    /// the attempt after this long (a slow but steady one never does).
    pub timeout: Duration,
    /// How many times a failed request is tried again (after 1, 2, 4, then
    /// 8 seconds each), resuming where the last attempt stopped. A server's
    /// refusal (a status such as 404 but 408 and 429) is not tried again.
    pub retries: u32,
    /// Prints no progress (a bar on a terminal, else a line per file on
    /// standard error).
    pub quiet: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            retries: DEFAULT_RETRIES,
            quiet: false,
        }
    }
}

/// Why an install failed; every message is one line naming the file or URL.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The release is bad (a manifest or file malformed, tampered with, or
    /// not the catalog's table), or the request is (an id not in the
    /// manifest, a table directory that cannot be one).
    #[error("{0}")]
    Bad(String),
    /// A download failed: the network, the server (an error status, a
    /// missing file), or a timeout.
    #[error("{0}")]
    Network(String),
    /// Reading or writing a table file failed.
    #[error(transparent)]
    Format(#[from] tablefmt::FormatError),
}

impl InstallError {
    /// Whether the release or the request is at fault (exit code 2) rather
    /// than the network or the machine (exit code 1).
    pub fn is_input(&self) -> bool {
        match self {
            InstallError::Bad(_) => true,
            InstallError::Network(_) => false,
            InstallError::Format(f) => !f.is_machine_fault(),
        }
    }
}

fn bad(msg: impl Into<String>) -> InstallError {
    InstallError::Bad(msg.into())
}

/// One manifest entry, as `tablegen publish` writes it, checked for form.
struct Entry {
    def: TableDef,
    /// The payload checksum (a sharded table's: its shards' end to end).
    checksum: String,
    bytes: u64,
    states: u64,
    histogram: Vec<u64>,
    definition_hash: String,
    form: Form,
}

/// How a table is published.
enum Form {
    /// One compressed file.
    File(Compressed),
    /// An index file (not compressed) and compressed shards.
    Shards {
        index: String,
        index_sha256: String,
        shards: Vec<Compressed>,
    },
}

/// A compressed table file in the release and what it must hold.
struct Compressed {
    file: String,
    /// The payload checksum of the table file.
    checksum: String,
    /// The SHA-256 of the table file.
    sha256: String,
    compressed_checksum: String,
    compressed_sha256: String,
    compressed_bytes: Option<u64>,
}

/// The largest manifest read.
const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// The largest shard index read.
const MAX_INDEX_BYTES: u64 = 16 << 20;

/// The largest compressed file read (a compressed table is never much larger
/// than the table itself).
const MAX_COMPRESSED_BYTES: u64 = tablefmt::MAX_FILE_BYTES + (1 << 20);

/// A release's manifest, read and every entry checked for form (catalog
/// ids, plain file names, hashes), no file read yet.
pub struct Manifest {
    source: Source,
    entries: Vec<Entry>,
}

impl Manifest {
    /// Reads and checks the manifest of `source` (downloading it from a URL).
    pub fn read(source: &Source, opts: &Options) -> Result<Manifest, InstallError> {
        let shown = source.manifest_location();
        let text = match source {
            Source::Dir(d) => {
                let mpath = d.join("manifest.json");
                std::fs::read(&mpath).map_err(|e| {
                    bad(format!(
                        "cannot read {}: {}",
                        show_path(&mpath),
                        tablefmt::io_reason(&e)
                    ))
                })?
            }
            Source::Url(_) => Client::new(opts)?.get_small(&shown, MAX_MANIFEST_BYTES)?,
        };
        let manifest: serde_json::Value = serde_json::from_slice(&text)
            .map_err(|e| bad(format!("{shown}: not a manifest: {e}")))?;
        let list = manifest["tables"]
            .as_array()
            .ok_or_else(|| bad(format!("{shown}: no \"tables\" list")))?;
        // Every entry is checked for form before any file is read or written.
        let mut entries = Vec::with_capacity(list.len());
        for (i, t) in list.iter().enumerate() {
            let e = parse_entry(t).map_err(|msg| bad(format!("{shown} entry {}: {msg}", i + 1)))?;
            if entries.iter().any(|o: &Entry| o.def.id == e.def.id) {
                return Err(bad(format!(
                    "{shown} entry {}: table {} is listed twice",
                    i + 1,
                    e.def.id
                )));
            }
            entries.push(e);
        }
        Ok(Manifest {
            source: source.clone(),
            entries,
        })
    }

    /// The ids of the tables it lists, in its order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.def.id).collect()
    }

    /// Whether it lists table `id`.
    pub fn contains(&self, id: &str) -> bool {
        self.entries.iter().any(|e| e.def.id == id)
    }

    /// Where it was read from (for messages).
    pub fn location(&self) -> String {
        self.source.manifest_location()
    }
}

/// A table put in place: its id and its file (or shard index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    /// The table id.
    pub id: &'static str,
    /// The table file, or a sharded table's index.
    pub path: PathBuf,
}

/// Installs the tables `manifest` lists (all, or those of `only`, each of
/// which it must list) into the table directory `tables` (made if missing):
/// every file is read or downloaded, checked and decompressed beside its
/// target, then all are renamed into place, or none.
pub fn install(
    tables: &Path,
    manifest: &Manifest,
    only: Option<&[&str]>,
    opts: &Options,
) -> Result<Vec<Installed>, InstallError> {
    let entries: Vec<&Entry> = match only {
        None => manifest.entries.iter().collect(),
        Some(ids) => {
            let mut chosen = Vec::with_capacity(ids.len());
            for id in ids {
                let e = manifest
                    .entries
                    .iter()
                    .find(|e| e.def.id == *id)
                    .ok_or_else(|| {
                        bad(format!(
                            "{} does not list table {}",
                            manifest.location(),
                            quote(id)
                        ))
                    })?;
                if !chosen.iter().any(|c: &&Entry| c.def.id == e.def.id) {
                    chosen.push(e);
                }
            }
            chosen
        }
    };
    if let Some(msg) = crate::artifact::tables_dir_problem(tables) {
        return Err(bad(msg));
    }
    let created = std::fs::symlink_metadata(tables).is_err();
    std::fs::create_dir_all(tables).map_err(|e| {
        bad(format!(
            "cannot create table directory {}: {}",
            show_path(tables),
            tablefmt::io_reason(&e)
        ))
    })?;
    let mut files = Files {
        source: &manifest.source,
        opts,
        #[cfg(feature = "fetch")]
        client: None,
        done: Vec::new(),
    };
    let result = stage_and_commit(tables, &mut files, &entries);
    if result.is_ok() {
        // The downloads are in place, decompressed: their copies go.
        for part in &files.done {
            let _ = std::fs::remove_file(part);
        }
    }
    if result.is_err() && created {
        // Nothing was installed: leave no new empty directory either (a
        // directory that keeps a partial download for the next run stays).
        let _ = std::fs::remove_dir(tables);
    }
    result
}

/// The files of a release: read from its directory, or downloaded.
struct Files<'a> {
    source: &'a Source,
    opts: &'a Options,
    #[cfg(feature = "fetch")]
    client: Option<http::Client>,
    /// Downloaded files, to remove once their tables are in place.
    done: Vec<PathBuf>,
}

impl Files<'_> {
    /// The whole of a small file of the release (a shard index).
    fn small(&mut self, file: &str, limit: u64) -> Result<Vec<u8>, InstallError> {
        match self.source {
            Source::Dir(d) => read_limited(&d.join(file), limit),
            Source::Url(_) => {
                let url = self.source.file_location(file);
                self.client()?.get_small(&url, limit)
            }
        }
    }

    /// The bytes of a compressed file of the release. A download goes
    /// beside `dst` under a temporary name, and on from what an earlier run
    /// left there.
    fn compressed(&mut self, c: &Compressed, dst: &Path) -> Result<Vec<u8>, InstallError> {
        let shown = self.source.file_location(&c.file);
        let z = match self.source {
            Source::Dir(d) => read_limited(&d.join(&c.file), MAX_COMPRESSED_BYTES)?,
            Source::Url(_) => {
                let part = part_path(dst, c);
                self.client()?.download(
                    &shown,
                    &part,
                    c.compressed_bytes,
                    MAX_COMPRESSED_BYTES,
                    &c.file,
                )?;
                let z = read_limited(&part, MAX_COMPRESSED_BYTES)?;
                self.done.push(part);
                z
            }
        };
        Ok(z)
    }

    /// Removes the download of a file found bad (a later run starts afresh).
    fn discard(&mut self, c: &Compressed, dst: &Path) {
        if matches!(self.source, Source::Url(_)) {
            let part = part_path(dst, c);
            let _ = std::fs::remove_file(&part);
            self.done.retain(|p| *p != part);
        }
    }

    #[cfg(feature = "fetch")]
    fn client(&mut self) -> Result<&http::Client, InstallError> {
        if self.client.is_none() {
            self.client = Some(http::Client::new(self.opts)?);
        }
        self.client
            .as_ref()
            .ok_or_else(|| bad("no http client".to_string()))
    }

    #[cfg(not(feature = "fetch"))]
    fn client(&mut self) -> Result<Client, InstallError> {
        Client::new(self.opts)
    }
}

/// Where the download of a release file for `dst` goes: `.FILE.SHA.part`
/// beside it, `SHA` the first 16 digits of the file's SHA-256, so that a
/// partial download is only ever continued with the same file.
fn part_path(dst: &Path, c: &Compressed) -> PathBuf {
    let dir = match dst.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let sha = c
        .compressed_sha256
        .get(..16)
        .unwrap_or(&c.compressed_sha256);
    dir.join(format!(".{}.{sha}.part", c.file))
}

#[cfg(feature = "fetch")]
use http::Client;

/// Stands for the HTTP client in a build without the `fetch` feature: it
/// cannot be made.
#[cfg(not(feature = "fetch"))]
struct Client;

#[cfg(not(feature = "fetch"))]
impl Client {
    fn new(_: &Options) -> Result<Client, InstallError> {
        Err(bad(
            "cannot download: this build has no http client (the `fetch` feature of tablegen)",
        ))
    }

    fn get_small(&self, _: &str, _: u64) -> Result<Vec<u8>, InstallError> {
        Err(bad("no http client"))
    }

    fn download(
        &self,
        _: &str,
        _: &Path,
        _: Option<u64>,
        _: u64,
        _: &str,
    ) -> Result<(), InstallError> {
        Err(bad("no http client"))
    }
}

/// Decompresses and checks every entry into temporary files in the table
/// directory, then renames them all into place (all or none), then removes
/// the other form of each table (one file or shards) and shards no longer
/// used. On any failure the temporary files are removed and the table
/// directory is as it was.
fn stage_and_commit(
    tables: &Path,
    files: &mut Files<'_>,
    entries: &[&Entry],
) -> Result<Vec<Installed>, InstallError> {
    let mut staged = Vec::with_capacity(entries.len());
    let mut done = Vec::with_capacity(entries.len());
    let mut old_shards = Vec::with_capacity(entries.len());
    for e in entries {
        old_shards.push(crate::artifact::shard_files(&shards_path(tables, e.def.id)));
        match &e.form {
            Form::File(c) => {
                let dst = artifact_path(tables, e.def.id);
                let shown = files.source.file_location(&c.file);
                let file = stage(files, &dst, c, |h| {
                    check_header(e, h).map_err(|msg| {
                        format!(
                            "{shown}: holds a table that does not match its manifest entry ({}): {msg}",
                            e.def.id
                        )
                    })
                })?;
                staged.push(file);
                done.push(Installed {
                    id: e.def.id,
                    path: dst,
                });
            }
            Form::Shards { .. } => {
                staged.extend(stage_sharded(tables, files, e)?);
                done.push(Installed {
                    id: e.def.id,
                    path: shards_path(tables, e.def.id),
                });
            }
        }
    }
    tablefmt::commit_all(staged)?;
    for (e, old) in entries.iter().zip(&old_shards) {
        let sharded = matches!(e.form, Form::Shards { .. });
        crate::artifact::remove_other_forms(tables, e.def.id, sharded, old);
    }
    // Each file read back and recorded, as a build's are, so that solvers
    // opening it need not hash it again.
    for d in &done {
        crate::artifact::record_written(&crate::artifact::Located::of_path(&d.path))?;
    }
    Ok(done)
}

/// Stages a sharded table: its index, checked against the entry and the
/// catalog; each shard, checked against its entry and the index; the whole
/// payload's checksum against the entry's.
fn stage_sharded(
    tables: &Path,
    files: &mut Files<'_>,
    e: &Entry,
) -> Result<Vec<tablefmt::StagedFile>, InstallError> {
    let Form::Shards {
        index,
        index_sha256,
        shards,
    } = &e.form
    else {
        return Ok(Vec::new());
    };
    let shown = files.source.file_location(index);
    let text = files.small(index, MAX_INDEX_BYTES)?;
    let sha = tablefmt::sha256_hex(&text);
    if sha != *index_sha256 {
        return Err(bad(format!(
            "{shown}: SHA-256 {sha}, the manifest says {index_sha256}"
        )));
    }
    let idx: tablefmt::ShardIndex = serde_json::from_slice(&text)
        .map_err(|err| bad(format!("{shown}: not a shard index: {err}")))?;
    let n = idx.shards.len();
    let fits = idx.id == e.def.id
        && idx.definition_hash == e.definition_hash
        && idx.states == e.states
        && idx.histogram == e.histogram
        && idx.encoding == e.def.encoding
        && n == shards.len()
        && idx.shards.iter().map(|s| s.bytes).sum::<u64>() == e.bytes
        && idx
            .shards
            .iter()
            .enumerate()
            .all(|(k, s)| s.file == tablefmt::shard_file_name(e.def.id, k, n));
    if !fits {
        return Err(bad(format!(
            "{shown}: not the index of the table its manifest entry describes ({})",
            e.def.id
        )));
    }
    let mut staged = Vec::with_capacity(n + 1);
    for (k, (s, c)) in idx.shards.iter().zip(shards).enumerate() {
        let place = format!("{k}/{n}");
        let first = s.first_state.to_string();
        let shown = files.source.file_location(&c.file);
        let file = stage(files, &tables.join(&s.file), c, |h| {
            let fits = check_against_catalog(&e.def, h).is_ok()
                && h.checksum == s.checksum
                && h.checksum == c.checksum
                && h.states == s.states
                && h.bytes == s.bytes
                && h.histogram == e.histogram
                && h.meta_value("shard") == Some(place.as_str())
                && h.meta_value("first-state") == Some(first.as_str());
            if fits {
                Ok(())
            } else {
                Err(format!(
                    "{shown}: not shard {place} of the table its manifest entry describes ({})",
                    e.def.id
                ))
            }
        })?;
        staged.push(file);
    }
    let mut tables_read = Vec::with_capacity(n);
    for f in &staged {
        let opts = tablefmt::OpenOptions {
            verify_checksum: false,
            ..tablefmt::OpenOptions::default()
        };
        tables_read.push(tablefmt::Table::open(f.temp_path(), &opts)?);
    }
    let sum = tablefmt::joined_checksum_hex(tables_read.iter().map(tablefmt::Table::payload));
    drop(tables_read);
    if sum != e.checksum {
        return Err(bad(format!(
            "{shown}: the shards' payloads have checksum {sum}, the manifest says {} ({})",
            e.checksum, e.def.id
        )));
    }
    let target = shards_path(tables, e.def.id);
    staged.push(tablefmt::StagedFile::create(&target, |f| {
        use std::io::Write;
        f.write_all(&text)
            .map_err(|err| tablefmt::FormatError::io(&target, "cannot write", err))
    })?);
    Ok(staged)
}

/// Reads a regular file of at most `limit` bytes.
fn read_limited(src: &Path, limit: u64) -> Result<Vec<u8>, InstallError> {
    let shown = show_path(src);
    let md = std::fs::symlink_metadata(src)
        .map_err(|err| bad(format!("{shown}: {}", tablefmt::io_reason(&err))))?;
    if !md.is_file() {
        return Err(bad(format!(
            "{shown}: not a regular file but {}",
            tablefmt::file_kind(&md.file_type())
        )));
    }
    if md.len() > limit {
        return Err(bad(format!(
            "{shown}: {} bytes, more than such a file can be ({limit})",
            md.len()
        )));
    }
    std::fs::read(src).map_err(|err| bad(format!("{shown}: {}", tablefmt::io_reason(&err))))
}

/// Reads (or downloads), checks, decompresses and verifies one compressed
/// file into a staged (temporary, not yet in place) file for `dst`, whose
/// header must pass `check` (which gives the whole error line). A download
/// found bad is removed.
fn stage(
    files: &mut Files<'_>,
    dst: &Path,
    c: &Compressed,
    check: impl FnOnce(&tablefmt::HeaderInfo) -> Result<(), String>,
) -> Result<tablefmt::StagedFile, InstallError> {
    let z = files.compressed(c, dst)?;
    let shown = files.source.file_location(&c.file);
    let result = check_compressed(&z, &shown, dst, c, check);
    if result.as_ref().is_err_and(InstallError::is_input) {
        files.discard(c, dst);
    }
    result
}

/// Checks the compressed bytes `z` of `c` (named `shown`) against the
/// manifest, then decompresses them beside `dst` and checks the table.
fn check_compressed(
    z: &[u8],
    shown: &str,
    dst: &Path,
    c: &Compressed,
    check: impl FnOnce(&tablefmt::HeaderInfo) -> Result<(), String>,
) -> Result<tablefmt::StagedFile, InstallError> {
    if let Some(want) = c.compressed_bytes {
        if z.len() as u64 != want {
            return Err(bad(format!(
                "{shown}: {} bytes, the manifest says {want}",
                z.len()
            )));
        }
    }
    let sum = tablefmt::checksum_hex(z);
    if sum != c.compressed_checksum {
        return Err(bad(format!(
            "{shown}: checksum {sum}, the manifest says {}",
            c.compressed_checksum
        )));
    }
    let sha = tablefmt::sha256_hex(z);
    if sha != c.compressed_sha256 {
        return Err(bad(format!(
            "{shown}: SHA-256 {sha}, the manifest says {}",
            c.compressed_sha256
        )));
    }
    let (staged, h) = tablefmt::stage_decompressed(z, Path::new(shown), dst)?;
    check(&h).map_err(bad)?;
    let sha = tablefmt::file_sha256(staged.temp_path())?;
    if sha != c.sha256 {
        return Err(bad(format!(
            "{shown}: decompresses to a file with SHA-256 {sha}, the manifest says {}",
            c.sha256
        )));
    }
    Ok(staged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_of_the_manifest_and_its_files() {
        let m = "https://h/o/r/releases/download/v1/manifest.json";
        assert_eq!(manifest_url(m), m);
        assert_eq!(manifest_url("http://h:8/t/"), "http://h:8/t/manifest.json");
        assert_eq!(manifest_url("http://h:8/t"), "http://h:8/t/manifest.json");
        assert_eq!(
            manifest_url("http://h/t/tables-v2.json"),
            "http://h/t/tables-v2.json"
        );
        assert_eq!(
            file_url(m, "pyraminx.tbl.zst"),
            "https://h/o/r/releases/download/v1/pyraminx.tbl.zst"
        );
        assert_eq!(
            file_url("http://h/a b/m.json", "x y%.zst"),
            "http://h/a b/x%20y%25.zst"
        );
        assert_eq!(Source::new("HTTPS://h/"), Source::Url("HTTPS://h/".into()));
        assert_eq!(Source::new("release"), Source::Dir("release".into()));
        assert_eq!(Source::new("http:x"), Source::Dir("http:x".into()));
    }

    #[test]
    fn plain_file_names() {
        for ok in ["pyraminx.tbl.zst", "a", ".hidden.zst", "a..b"] {
            assert!(is_plain_file_name(ok), "{ok}");
        }
        for no in [
            "",
            ".",
            "..",
            "../outside.zst",
            "/etc/passwd",
            "a/b.zst",
            "a\\b",
            "./a",
            "a\0b",
        ] {
            assert!(!is_plain_file_name(no), "{no:?}");
        }
    }
}
