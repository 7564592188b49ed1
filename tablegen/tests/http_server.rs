//! A small HTTP/1.1 file server on 127.0.0.1 for the download tests: GET of
//! the files of one directory, with `Range: bytes=N-` (206, 416), 404 for
//! anything else, and two faults on demand: a body cut short, and a server
//! that never answers. Every request is logged. One connection per request
//! (`Connection: close`). Shared by the tests of `tablegen` and `solvers`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How the server behaves.
#[derive(Clone, Debug)]
pub enum Mode {
    /// Serves the files.
    Normal,
    /// Sends the headers of the whole `file`, then only `bytes` bytes of its
    /// body and closes, for its next `times` requests without a range.
    Cut {
        file: String,
        bytes: usize,
        times: usize,
    },
    /// Reads each request and never answers.
    Silent,
}

/// One request received: its path and its `Range` header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub path: String,
    pub range: Option<String>,
}

struct Shared {
    root: PathBuf,
    mode: Mutex<Mode>,
    log: Mutex<Vec<Request>>,
    stop: AtomicBool,
}

/// The running server; stopped when dropped.
pub struct Server {
    shared: Arc<Shared>,
    port: u16,
    accept: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Serves the files of `root` on a free port of 127.0.0.1.
    pub fn start(root: impl Into<PathBuf>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            root: root.into(),
            mode: Mutex::new(Mode::Normal),
            log: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
        });
        let s = shared.clone();
        let accept = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let s = s.clone();
                std::thread::spawn(move || {
                    let _ = serve(&s, conn);
                });
            }
        });
        Server {
            shared,
            port,
            accept: Some(accept),
        }
    }

    /// `http://127.0.0.1:PORT/` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }

    pub fn set_mode(&self, mode: Mode) {
        *self.shared.mode.lock().unwrap() = mode;
    }

    /// The requests so far.
    pub fn requests(&self) -> Vec<Request> {
        self.shared.log.lock().unwrap().clone()
    }

    /// The requests for `path` (as `/FILE`) so far, in order.
    pub fn requests_for(&self, path: &str) -> Vec<Request> {
        let mut all = self.requests();
        all.retain(|r| r.path == path);
        all
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

fn serve(s: &Shared, mut conn: TcpStream) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut range = None;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.trim().eq_ignore_ascii_case("range") {
                range = Some(v.trim().to_string());
            }
        }
    }
    if s.stop.load(Ordering::SeqCst) {
        return Ok(());
    }
    let path = target.to_string();
    s.log.lock().unwrap().push(Request {
        path: path.clone(),
        range: range.clone(),
    });
    let mode = s.mode.lock().unwrap().clone();
    if let Mode::Silent = mode {
        while !s.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
        return Ok(());
    }
    let name = path.trim_start_matches('/');
    let file = (method == "GET" && !name.is_empty() && !name.contains(['/', '\\']))
        .then(|| std::fs::read(s.root.join(name)).ok())
        .flatten();
    let Some(data) = file else {
        let body = b"not found\n";
        write!(
            conn,
            "HTTP/1.1 404 Not Found\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )?;
        conn.write_all(body)?;
        return Ok(());
    };
    let len = data.len();
    let from = range
        .as_deref()
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|n| n.parse::<usize>().ok());
    match from {
        Some(n) if n >= len => {
            write!(
                conn,
                "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )?;
        }
        Some(n) => {
            write!(
                conn,
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {n}-{}/{len}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                len - 1,
                len - n
            )?;
            conn.write_all(&data[n..])?;
        }
        None => {
            write!(
                conn,
                "HTTP/1.1 200 OK\r\nContent-Length: {len}\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n"
            )?;
            let mut cut = None;
            if let Mode::Cut { file, bytes, times } = &mode {
                if file == name && *times > 0 {
                    cut = Some(*bytes);
                    if let Mode::Cut { times, .. } = &mut *s.mode.lock().unwrap() {
                        *times -= 1;
                    }
                }
            }
            match cut {
                Some(b) => {
                    conn.write_all(&data[..b.min(len)])?;
                    conn.flush()?;
                    conn.shutdown(std::net::Shutdown::Both)?;
                }
                None => conn.write_all(&data)?,
            }
        }
    }
    conn.flush()
}
