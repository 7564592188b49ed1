//! Downloads over http(s) with ureq (rustls): timeouts on connecting and on
//! every read, a bounded number of attempts, a partial file continued with a
//! range request, and progress (a bar on a terminal, else a line per file).

use super::{bad, InstallError, Options};
use std::io::{IsTerminal, Read, Seek, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// How an attempt failed.
enum Failure {
    /// Worth another attempt: the network, a timeout, a server error.
    Again(String),
    /// Final: the server refused (a 4xx status), or the file is bad.
    Stop(InstallError),
}

type Attempt<T> = Result<T, Failure>;

/// The longest pause between attempts.
const MAX_PAUSE: Duration = Duration::from_secs(8);

/// An http(s) client with the timeouts and attempts of [`Options`].
pub(super) struct Client {
    agent: ureq::Agent,
    retries: u32,
    quiet: bool,
}

impl Client {
    pub(super) fn new(opts: &Options) -> Result<Client, InstallError> {
        let t = Some(opts.timeout);
        let config = ureq::Agent::config_builder()
            .timeout_resolve(t)
            .timeout_connect(t)
            .timeout_send_request(t)
            .timeout_recv_response(t)
            .timeout_per_read(t)
            .timeout_per_write(t)
            .http_status_as_error(false)
            .user_agent(concat!("tablegen/", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(Client {
            agent: config.into(),
            retries: opts.retries,
            quiet: opts.quiet,
        })
    }

    /// Runs `attempt` until it succeeds, fails for good, or has been tried
    /// `1 + retries` times, pausing 1, 2, 4, then 8 s between tries.
    fn with_retries<T>(
        &self,
        url: &str,
        mut attempt: impl FnMut() -> Attempt<T>,
    ) -> Result<T, InstallError> {
        let tries = self.retries.saturating_add(1);
        let mut pause = Duration::from_secs(1);
        for k in 1..=tries {
            match attempt() {
                Ok(v) => return Ok(v),
                Err(Failure::Stop(e)) => return Err(e),
                Err(Failure::Again(msg)) if k == tries => {
                    let times = if tries == 1 {
                        String::new()
                    } else {
                        format!(" (tried {tries} times)")
                    };
                    return Err(InstallError::Network(format!(
                        "cannot download {url}: {msg}{times}"
                    )));
                }
                Err(Failure::Again(msg)) => {
                    if !self.quiet {
                        crate::errln!(
                            "{url}: {msg}; trying again in {} s ({} of {tries})",
                            pause.as_secs(),
                            k + 1
                        );
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(MAX_PAUSE);
                }
            }
        }
        Err(InstallError::Network(format!("cannot download {url}")))
    }

    /// Sends a GET for `url`, from byte `from` on when not 0.
    fn get(&self, url: &str, from: u64) -> Attempt<ureq::http::Response<ureq::Body>> {
        let mut req = self.agent.get(url);
        if from > 0 {
            req = req.header("Range", format!("bytes={from}-"));
        }
        req.call().map_err(|e| {
            let msg = one_line(&e.to_string());
            match e {
                ureq::Error::Io(_)
                | ureq::Error::Timeout(_)
                | ureq::Error::HostNotFound
                | ureq::Error::ConnectionFailed
                | ureq::Error::Protocol(_)
                | ureq::Error::BodyStalled => Failure::Again(msg),
                _ => Failure::Stop(InstallError::Network(format!(
                    "cannot download {url}: {msg}"
                ))),
            }
        })
    }

    /// The whole body of `url` (a manifest, a shard index): at most
    /// `limit` bytes, else the file is refused.
    pub(super) fn get_small(&self, url: &str, limit: u64) -> Result<Vec<u8>, InstallError> {
        self.with_retries(url, || {
            let mut resp = self.get(url, 0)?;
            check_status(url, resp.status(), false)?;
            let mut body = Vec::new();
            let mut reader = resp.body_mut().as_reader().take(limit + 1);
            reader
                .read_to_end(&mut body)
                .map_err(|e| Failure::Again(one_line(&e.to_string())))?;
            if body.len() as u64 > limit {
                return Err(Failure::Stop(bad(format!(
                    "{url}: more than {limit} bytes, more than such a file can be"
                ))));
            }
            Ok(body)
        })
    }

    /// Downloads `url` into `part` until it holds `expected` bytes (when the
    /// manifest gives a size; else the whole body), at most `limit`: what
    /// `part` holds already is kept and the rest asked for with a range
    /// request. A server that sends the whole file instead starts it
    /// afresh. `label` names the file in progress reports.
    pub(super) fn download(
        &self,
        url: &str,
        part: &Path,
        expected: Option<u64>,
        limit: u64,
        label: &str,
    ) -> Result<(), InstallError> {
        let limit = expected.unwrap_or(limit).min(limit);
        let start = Instant::now();
        let mut progress: Option<Bar> = None;
        let mut size = 0;
        self.with_retries(url, || {
            let mut have = match std::fs::metadata(part) {
                Ok(md) => md.len(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
                Err(e) => return Err(Failure::Stop(io_fault(part, "cannot read", e))),
            };
            if have > limit {
                // Not the file the manifest describes: start afresh.
                have = 0;
            }
            if expected == Some(have) {
                return Ok(());
            }
            let mut resp = self.get(url, have)?;
            let status = resp.status();
            check_status(url, status, have > 0)?;
            // The file is made once the server has the download, and held
            // by one process at a time.
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(part)
                .map_err(|e| Failure::Stop(io_fault(part, "cannot open", e)))?;
            if file.try_lock().is_err() {
                return Err(Failure::Stop(InstallError::Network(format!(
                    "{}: another process is downloading {url} into it",
                    crate::cli::show_path(part)
                ))));
            }
            if status.as_u16() == 416 {
                // The server has fewer bytes than the partial file: afresh.
                file.set_len(0)
                    .map_err(|e| Failure::Stop(io_fault(part, "cannot truncate", e)))?;
                return Err(Failure::Again(format!(
                    "the server has no bytes from {have} on (HTTP 416)"
                )));
            }
            if status.as_u16() == 206 {
                let range = resp
                    .headers()
                    .get("content-range")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default();
                if range_start(range) != Some(have) {
                    file.set_len(0)
                        .map_err(|e| Failure::Stop(io_fault(part, "cannot truncate", e)))?;
                    return Err(Failure::Again(format!(
                        "asked for bytes from {have} on, the server sent {}",
                        if range.is_empty() {
                            "no Content-Range"
                        } else {
                            range
                        }
                    )));
                }
            } else {
                // A whole file (200), whatever was asked for.
                have = 0;
            }
            file.set_len(have)
                .and_then(|()| file.seek(std::io::SeekFrom::Start(have)).map(|_| ()))
                .map_err(|e| Failure::Stop(io_fault(part, "cannot write", e)))?;
            let total = expected.or_else(|| {
                resp.headers()
                    .get("content-length")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok())
                    .map(|n| n + have)
            });
            let bar = progress.get_or_insert_with(|| Bar::new(label, url, total, self.quiet));
            bar.begin(have, total);
            let result = copy_body(&mut resp, &mut file, have, limit, url, part, bar);
            // What has come is kept for the next attempt (or run).
            let _ = file.sync_all();
            let got = result?;
            size = got;
            match expected {
                Some(want) if got < want => Err(Failure::Again(format!(
                    "the connection closed after {got} of {want} bytes"
                ))),
                _ => Ok(()),
            }
        })?;
        if let Some(bar) = &progress {
            bar.finish(start.elapsed(), size);
        }
        Ok(())
    }
}

/// Copies the body of `resp` to the end of `file`, which holds `have` bytes,
/// up to `limit` bytes in all; returns the bytes `file` holds.
fn copy_body(
    resp: &mut ureq::http::Response<ureq::Body>,
    file: &mut std::fs::File,
    mut have: u64,
    limit: u64,
    url: &str,
    part: &Path,
    bar: &Bar,
) -> Attempt<u64> {
    let mut reader = resp.body_mut().as_reader();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => return Ok(have),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(Failure::Again(format!(
                    "{} after {have} bytes",
                    one_line(&e.to_string())
                )))
            }
        };
        if have + n as u64 > limit {
            let _ = std::fs::remove_file(part);
            return Err(Failure::Stop(bad(format!(
                "{url}: more than {limit} bytes, more than the manifest says"
            ))));
        }
        file.write_all(&buf[..n])
            .map_err(|e| Failure::Stop(io_fault(part, "cannot write", e)))?;
        have += n as u64;
        bar.set(have);
    }
}

/// Whether a response status lets the download go on: 200, or 206 and 416
/// for a range request. Server errors, 408 and 429 are worth another
/// attempt; any other status is final.
fn check_status(url: &str, status: ureq::http::StatusCode, ranged: bool) -> Attempt<()> {
    let code = status.as_u16();
    if code == 200 || (ranged && (code == 206 || code == 416)) {
        return Ok(());
    }
    let text = format!(
        "HTTP {code}{}",
        status
            .canonical_reason()
            .map(|r| format!(" {r}"))
            .unwrap_or_default()
    );
    if status.is_server_error() || code == 408 || code == 429 {
        Err(Failure::Again(text))
    } else {
        Err(Failure::Stop(InstallError::Network(format!(
            "cannot download {url}: {text}"
        ))))
    }
}

/// The first byte of a `Content-Range: bytes FIRST-LAST/TOTAL` value.
fn range_start(value: &str) -> Option<u64> {
    let rest = value.trim().strip_prefix("bytes")?.trim_start();
    rest.split('-').next()?.trim().parse().ok()
}

/// A fault of the machine writing a download (a full disk), or of the
/// table directory.
fn io_fault(path: &Path, action: &str, e: std::io::Error) -> InstallError {
    InstallError::Format(tablefmt::FormatError::io(path, action, e))
}

/// An error message on one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Progress of one download: a bar on a terminal, else a line when it
/// starts and when it ends; nothing when quiet.
struct Bar {
    bar: Option<indicatif::ProgressBar>,
    label: String,
    url: String,
    quiet: bool,
}

impl Bar {
    fn new(label: &str, url: &str, total: Option<u64>, quiet: bool) -> Bar {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let b = indicatif::ProgressBar::with_draw_target(
                total,
                indicatif::ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{prefix:>22} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {bytes_per_sec}",
            ) {
                b.set_style(style);
            }
            b.set_prefix(label.to_string());
            b
        });
        Bar {
            bar,
            label: label.to_string(),
            url: url.to_string(),
            quiet,
        }
    }

    /// An attempt begins at byte `have` of `total`.
    fn begin(&self, have: u64, total: Option<u64>) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(b) => {
                if let Some(t) = total {
                    b.set_length(t);
                }
                b.set_position(have);
            }
            None => {
                let size = total.map(|t| format!(" ({t} bytes)")).unwrap_or_default();
                if have > 0 {
                    crate::errln!("{}: resuming {} at byte {have}{size}", self.label, self.url);
                } else {
                    crate::errln!("{}: downloading {}{size}", self.label, self.url);
                }
            }
        }
    }

    fn set(&self, have: u64) {
        if let Some(b) = &self.bar {
            b.set_position(have);
        }
    }

    /// The download is whole: `bytes` in all, after `took`.
    fn finish(&self, took: Duration, bytes: u64) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(b) => b.finish_and_clear(),
            None => crate::errln!(
                "{}: {bytes} bytes downloaded in {:.2}s",
                self.label,
                took.as_secs_f64()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_range_start() {
        assert_eq!(range_start("bytes 100-199/200"), Some(100));
        assert_eq!(range_start("bytes 0-0/1"), Some(0));
        assert_eq!(range_start("bytes */200"), None);
        assert_eq!(range_start(""), None);
    }
}
