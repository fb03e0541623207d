//! The `artifact` command line: parses arguments and calls the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use artifact::{run, spec};

/// Every figure and every number in the paper, from the logged measurements.
#[derive(Parser)]
#[command(name = "artifact", version, about)]
struct Cli {
    /// Run as if started in DIR (the spec is searched from there upwards).
    #[arg(short = 'C', global = true, value_name = "DIR")]
    dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build every figure and number from the data (or only the named figures).
    Gen {
        /// Figures to build (default: all).
        names: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let start = cli.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let result = (|| -> artifact::Result<ExitCode> {
        let path = spec::locate(&start)?;
        let spec = spec::load(&path)?;
        match cli.command {
            Command::Gen { names } => {
                let build = run::build(&spec, &names)?;
                for n in &build.notes {
                    eprintln!("note: {n}");
                }
                for s in &build.skipped {
                    eprintln!("skip: {s}");
                }
                let report = run::write(&spec, &build)?;
                for w in &report.written {
                    eprintln!("wrote {w}");
                }
                if !report.unchanged.is_empty() {
                    eprintln!("{} file(s) already up to date", report.unchanged.len());
                }
                if build.errors.is_empty() {
                    Ok(ExitCode::SUCCESS)
                } else {
                    for e in &build.errors {
                        eprintln!("error: {e}");
                    }
                    eprintln!(
                        "{} part(s) failed; their previous outputs are left as they were",
                        build.errors.len()
                    );
                    Ok(ExitCode::from(2))
                }
            }
        }
    })();
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
