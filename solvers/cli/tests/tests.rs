//! The `cubesolve` command line: outputs and exit codes, and tables fetched
//! on first use from a table source.

mod cli;
mod fetch;
#[path = "../../../tablegen/tests/http_server.rs"]
mod http_server;
