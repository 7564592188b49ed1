//! Solver tests: scramble -> solve -> solved on thousands of random states, and
//! the `cubesolve` command line, tables fetched on first use.

mod cli;
mod fetch;
#[path = "../../tablegen/tests/http_server.rs"]
mod http_server;
mod random_states;
mod short_solutions;
