//! The `tablegen` command: list, build, inspect, verify and publish tables.

mod cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tablegen::cli::parse_or_exit;

#[derive(Parser)]
#[command(
    name = "tablegen",
    version,
    about = "Build, inspect and publish puzzle lookup tables"
)]
struct Cli {
    /// Table directory (default: $CUBE_TABLES, else the workspace's tables/).
    #[arg(long, global = true, value_name = "DIR")]
    tables: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every table in the catalog.
    List(cmd::list::Args),
    /// Build tables by BFS and write their artifacts.
    Build(cmd::build::Args),
    /// Show an artifact's header.
    Info(cmd::info::Args),
    /// Check artifacts' structure and checksums.
    Verify(cmd::verify::Args),
    /// Write zstd-compressed artifacts and a manifest for a release.
    Publish(cmd::publish::Args),
    /// Install published artifacts into the table directory.
    Install(cmd::install::Args),
    /// Write the table directory's manifest.json, or check rebuilds against it.
    Manifest(cmd::manifest::Args),
}

fn main() -> ExitCode {
    let cli: Cli = parse_or_exit("tablegen");
    let tables = tablegen::artifact::tables_dir(cli.tables.as_deref());
    let result = match cli.command {
        Command::List(a) => cmd::list::run(&tables, a),
        Command::Build(a) => cmd::build::run(&tables, a),
        Command::Info(a) => cmd::info::run(&tables, a),
        Command::Verify(a) => cmd::verify::run(&tables, a),
        Command::Publish(a) => cmd::publish::run(&tables, a),
        Command::Install(a) => cmd::install::run(&tables, a),
        Command::Manifest(a) => cmd::manifest::run(&tables, a),
    };
    cmd::exit(result)
}
