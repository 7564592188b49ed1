//! Command-line plumbing shared by the `tablegen` and `cubesolve` commands:
//!
//! - [`parse_or_exit`]: clap parsing whose usage errors are one line (exit 2);
//! - [`outln!`](crate::outln) and [`out!`](crate::out): writes to standard output
//!   that return an `io::Error` instead of panicking when the reader has gone
//!   (`tablegen list | head -1`);
//! - [`errln!`](crate::errln): `eprintln!` that ignores a closed standard error;
//! - [`exit`]: bad input exits with code 2, anything else with 1, always as one
//!   line; a broken pipe is success;
//! - [`quote`]: echoes user input in messages, cut when it is long.

use std::io::Write;
use std::process::ExitCode;

/// An error caused by the user's input (exit code 2).
#[derive(Debug)]
pub struct BadInput(pub String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// A bad-input error.
pub fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

/// How many characters of user input a message echoes before cutting it.
pub const ECHO_CHARS: usize = 40;

/// User input quoted for a message, as `{:?}` shows it, but cut to its first
/// [`ECHO_CHARS`] characters followed by `…` and the whole length when longer:
/// `"RRRR…" (131072 characters)`.
pub fn quote(s: &str) -> String {
    match cut(s) {
        None => format!("{s:?}"),
        Some((head, n)) => format!("\"{head}…\" ({n} characters)"),
    }
}

/// The first [`ECHO_CHARS`] characters of `s`, escaped, and its length in
/// characters, when `s` is longer than that.
fn cut(s: &str) -> Option<(String, usize)> {
    let n = s.chars().count();
    if n <= ECHO_CHARS {
        return None;
    }
    let head: String = s.chars().take(ECHO_CHARS).collect();
    Some((head.escape_debug().to_string(), n))
}

/// How many characters of a path a message shows before cutting it.
pub const PATH_CHARS: usize = 256;

/// A path for a message, as `display()` shows it, but cut in the middle (first
/// and last [`ECHO_CHARS`] characters, `…` and the whole length) when longer than
/// [`PATH_CHARS`].
pub fn show_path(p: &std::path::Path) -> String {
    let s = p.display().to_string();
    let n = s.chars().count();
    if n <= PATH_CHARS {
        return s;
    }
    let head: String = s.chars().take(ECHO_CHARS).collect();
    let tail: String = s.chars().skip(n - ECHO_CHARS).collect();
    format!("{head}…{tail} ({n} characters)")
}

/// Writes to standard output, returning the error instead of panicking (as
/// `print!` does) when standard output is closed. [`exit`] turns a broken pipe
/// into success. Use it through [`outln!`](crate::outln) and [`out!`](crate::out).
pub fn write_stdout(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)?;
    out.flush()
}

/// `println!` that returns `std::io::Result<()>` instead of panicking when
/// standard output is closed: `tablegen::outln!("{id}: ok")?;`.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::cli::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that returns `std::io::Result<()>` instead of panicking when standard
/// output is closed.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!($($arg)*))
    };
}

/// `eprintln!` that does nothing when standard error is closed, instead of
/// panicking: for notes and warnings, whose loss must not end the program.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes to standard error, ignoring failure (see [`errln!`](crate::errln)).
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

pub use crate::{errln, out, outln};

#[cfg(feature = "cli")]
/// Parses the command line into `C`. `--help` and `--version` print as usual and
/// exit with 0; a usage error prints one line on stderr,
/// `PROGRAM: MESSAGE (see `PROGRAM SUBCOMMAND --help`)`, and exits with 2.
pub fn parse_or_exit<C: clap::Parser>(program: &str) -> C {
    parse_from_or_exit(program, std::env::args_os())
}

#[cfg(feature = "cli")]
/// [`parse_or_exit`] over the given arguments (the first one is the program).
pub fn parse_from_or_exit<C, I, T>(program: &str, args: I) -> C
where
    C: clap::Parser,
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    match C::try_parse_from(args) {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            let line = usage_error_line::<C>(program, &e);
            let _ = writeln!(std::io::stderr(), "{program}: {line}");
            std::process::exit(2)
        }
    }
}

#[cfg(feature = "cli")]
/// The one-line form of a clap error: the message and its tips, with long
/// echoed values cut, and where to find help.
pub fn usage_error_line<C: clap::CommandFactory>(program: &str, e: &clap::Error) -> String {
    use clap::error::{ContextValue, ErrorKind};
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let cmd = C::command();
        let subs: Vec<&str> = cmd
            .get_subcommands()
            .map(|s| s.get_name())
            .filter(|n| *n != "help")
            .collect();
        return if subs.is_empty() {
            format!("arguments are missing (see `{program} --help`)")
        } else {
            format!(
                "no command given; expected one of {} (see `{program} --help`)",
                subs.join(", ")
            )
        };
    }
    let mut text = e.render().to_string();
    // Cut long values (a stray 100 KB argument) before anything else.
    for (_, v) in e.context() {
        let values: Vec<&String> = match v {
            ContextValue::String(s) => vec![s],
            ContextValue::Strings(v) => v.iter().collect(),
            _ => Vec::new(),
        };
        for s in values {
            if let Some((head, n)) = cut(s) {
                text = text.replace(s.as_str(), &format!("{head}… ({n} characters)"));
            } else if s.contains('\n') {
                text = text.replace(s.as_str(), &s.escape_debug().to_string());
            }
        }
    }
    let mut message = Vec::new();
    let mut tips = Vec::new();
    let mut usage_path = None;
    for (i, block) in text.split("\n\n").enumerate() {
        let block = block.trim();
        if i == 0 {
            let first = block.strip_prefix("error: ").unwrap_or(block);
            message.push(first.split_whitespace().collect::<Vec<_>>().join(" "));
        } else if let Some(usage) = block.strip_prefix("Usage: ") {
            let first = usage.lines().next().unwrap_or_default();
            let path: Vec<&str> = first
                .split_whitespace()
                .take_while(|w| {
                    w.chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                })
                .collect();
            if !path.is_empty() {
                usage_path = Some(path.join(" "));
            }
        } else if block.starts_with("tip:") {
            for line in block.lines() {
                tips.push(line.trim().to_string());
            }
        }
    }
    let mut line = message.join(" ");
    for t in tips {
        line.push_str("; ");
        line.push_str(&t);
    }
    let usage_path = usage_path
        .or_else(|| command_with_arg(&C::command(), e))
        .unwrap_or_else(|| program.to_string());
    format!("{line} (see `{usage_path} --help`)")
}

#[cfg(feature = "cli")]
/// The path (`tablegen build`) of the one subcommand that has the long option an
/// error is about, for errors whose text has no usage line.
fn command_with_arg(cmd: &clap::Command, e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let long = arg.strip_prefix("--")?.split([' ', '=']).next()?;
    let has = |c: &clap::Command| c.get_arguments().any(|a| a.get_long() == Some(long));
    if has(cmd) {
        return None;
    }
    let mut found = cmd.get_subcommands().filter(|s| has(s));
    match (found.next(), found.next()) {
        (Some(s), None) => Some(format!("{} {}", cmd.get_name(), s.get_name())),
        _ => None,
    }
}

/// Prints an error as one line prefixed by the program name and maps it to an exit
/// code: 2 when the chain holds a [`BadInput`], a table file fault (but for a
/// fault of the machine, such as a full disk: see
/// [`tablefmt::FormatError::is_machine_fault`]) or any error type `is_input`
/// accepts, else 1. A broken pipe on standard output (an
/// `io::Error` of kind `BrokenPipe` in the chain, as [`outln!`](crate::outln)
/// returns) is success: the reader has all it wanted.
pub fn exit(
    program: &str,
    result: anyhow::Result<()>,
    is_input: impl Fn(&(dyn std::error::Error + 'static)) -> bool,
) -> ExitCode {
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    let broken_pipe = e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    let line = format!("{e:#}").replace('\n', " ");
    let _ = writeln!(std::io::stderr(), "{program}: {line}");
    ExitCode::from(exit_code(&e, is_input))
}

/// The exit code of an error (see [`exit`]): 2 for bad input, else 1.
fn exit_code(
    e: &anyhow::Error,
    is_input: impl Fn(&(dyn std::error::Error + 'static)) -> bool,
) -> u8 {
    let input = e.chain().any(|c| {
        c.downcast_ref::<BadInput>().is_some()
            || c.downcast_ref::<tablefmt::FormatError>()
                .is_some_and(|f| !f.is_machine_fault())
            || is_input(c)
    });
    if input {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_cuts_long_input() {
        assert_eq!(quote("R U"), "\"R U\"");
        let long = "x".repeat(130_000);
        let q = quote(&long);
        assert_eq!(q, format!("\"{}…\" (130000 characters)", "x".repeat(40)));
        let q = quote(&"é\n".repeat(50));
        assert!(q.starts_with("\"é\\né\\n"), "{q}");
        assert!(q.ends_with("…\" (100 characters)"), "{q}");
    }

    #[test]
    fn show_path_cuts_long_paths() {
        let p = std::path::Path::new("/tmp/a.tbl");
        assert_eq!(show_path(p), "/tmp/a.tbl");
        let long = format!("/{}/t.tbl", "d".repeat(1000));
        let s = show_path(std::path::Path::new(&long));
        assert!(s.starts_with("/ddd"), "{s}");
        assert!(s.ends_with("ddd/t.tbl (1007 characters)"), "{s}");
        assert!(s.chars().count() < 120, "{s}");
    }

    /// A full disk while writing a table is the machine's fault (exit 1), a
    /// damaged or refused table file bad input (exit 2).
    #[test]
    fn a_full_disk_exits_1_a_bad_table_2() {
        let path = std::path::Path::new("t/2x2x2-htm.tbl");
        let full =
            tablefmt::FormatError::io(path, "cannot write", std::io::Error::from_raw_os_error(28));
        assert_eq!(exit_code(&full.into(), |_| false), 1);
        let corrupt =
            tablefmt::FormatError::new(Some(path), tablefmt::ErrorKind::Corrupt("x".into()));
        assert_eq!(exit_code(&corrupt.into(), |_| false), 2);
        assert_eq!(exit_code(&bad("no such id"), |_| false), 2);
        assert_eq!(exit_code(&anyhow::anyhow!("internal"), |_| false), 1);
    }

    #[test]
    fn outln_formats_like_println() {
        let id = "a";
        outln!("{id} {}", 1).unwrap();
        outln!().unwrap();
        out!("").unwrap();
        errln!("{id}");
    }
}
