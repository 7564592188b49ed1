//! Error plumbing shared by the `tablegen` and `cubesolve` commands: bad input
//! exits with code 2, anything else with 1, always as one line.

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

/// Prints an error as one line prefixed by the program name and maps it to an exit
/// code: 2 when the chain holds a [`BadInput`], a table file fault or any error
/// type `is_input` accepts, else 1. A broken pipe is success.
pub fn exit(
    program: &str,
    result: anyhow::Result<()>,
    is_input: impl Fn(&(dyn std::error::Error + 'static)) -> bool,
) -> ExitCode {
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        if io.kind() == std::io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
    }
    let line = format!("{e:#}").replace('\n', " ");
    eprintln!("{program}: {line}");
    let input = e.chain().any(|c| {
        c.downcast_ref::<BadInput>().is_some()
            || c.downcast_ref::<tablefmt::FormatError>().is_some()
            || is_input(c)
    });
    ExitCode::from(if input { 2 } else { 1 })
}
