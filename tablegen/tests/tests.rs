//! Integration tests of tablegen: every catalog table against independent figures,
//! the move model against published 3x3x3 counts and cubing.js, and the CLI
//! (installs over HTTP against a server of the tests' own).

mod catalog_counts;
mod cli;
mod common;
mod cubingjs;
mod domino;
mod http_server;
mod install_http;
mod kociemba_tables;
mod model;
mod optimal_tables;
mod reduction5_tables;
mod reduction_tables;
mod route_cycles;
mod timely;
mod ud_joint;
