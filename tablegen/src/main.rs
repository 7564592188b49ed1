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
    about = "Build, inspect and publish puzzle lookup tables",
    after_help = "Examples:\n  tablegen list\n  tablegen build 4x4x4-ud-stage\n  tablegen info 2x2x2-htm --json\n  tablegen verify --all\n  tablegen publish --out release/\n  tablegen install --from https://example.org/tables/manifest.json\n  tablegen manifest --check 1000000"
)]
struct Cli {
    /// Table directory (default: $CUBE_TABLES, else the workspace's tables/).
    #[arg(long, global = true, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Where `install` gets published tables when given no --from: a URL
    /// (or directory) written by `tablegen publish` (default:
    /// $CUBE_TABLES_FROM).
    #[arg(long, global = true, value_name = "URL")]
    tables_from: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every table in the catalog.
    #[command(after_help = "Example:\n  tablegen list --json")]
    List(cmd::list::Args),
    /// Build tables by BFS and write their artifacts.
    #[command(after_help = "Example:\n  tablegen build 4x4x4-ud-stage pyraminx --threads 2")]
    Build(cmd::build::Args),
    /// Show an artifact's header.
    #[command(after_help = "Example:\n  tablegen info 2x2x2-htm --json")]
    Info(cmd::info::Args),
    /// Check artifacts' structure and checksums.
    #[command(after_help = cmd::verify::AFTER_HELP)]
    Verify(cmd::verify::Args),
    /// Write zstd-compressed artifacts and a manifest for a release.
    #[command(after_help = "Example:\n  tablegen publish --out release/")]
    Publish(cmd::publish::Args),
    /// Install published tables (a directory or a URL) into the table directory.
    #[command(after_help = cmd::install::AFTER_HELP)]
    Install(cmd::install::Args),
    /// Write the table directory's manifest.json, or check rebuilds against it.
    #[command(after_help = "Example:\n  tablegen manifest --check 1000000")]
    Manifest(cmd::manifest::Args),
}

fn main() -> ExitCode {
    let cli: Cli = parse_or_exit("tablegen");
    let config =
        tablegen::artifact::tables_config(cli.tables.as_deref(), cli.tables_from.as_deref());
    let tables = config.dir;
    let source = config.source.as_deref().map(tablegen::install::Source::new);
    let result = match cli.command {
        Command::List(a) => cmd::list::run(&tables, a),
        Command::Build(a) => cmd::build::run(&tables, a),
        Command::Info(a) => cmd::info::run(&tables, a),
        Command::Verify(a) => cmd::verify::run(&tables, a),
        Command::Publish(a) => cmd::publish::run(&tables, a),
        Command::Install(a) => cmd::install::run(&tables, source, a),
        Command::Manifest(a) => cmd::manifest::run(&tables, a),
    };
    cmd::exit(result)
}
