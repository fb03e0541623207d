//! The `artifact` command line: parses arguments and calls the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use artifact::console::{self, print_data, print_result};
use artifact::error::shown;
use artifact::{check, hook, inspect, lock::Lock, output, run, spec};
use artifact::{detail, error, info, note, say, warn, warn_raw};

/// `--version`: the version and, when built from a git checkout, the commit
/// (`build.rs`; no date, so the same commit builds the same text).
const VERSION: &str = env!("ARTIFACT_VERSION");

/// Every figure and every number in the paper, from the logged measurements.
#[derive(Parser)]
#[command(name = "artifact", version = VERSION, about)]
#[command(after_help = EXAMPLES)]
struct Cli {
    /// Run as if started in DIR (the spec is searched from there upwards).
    #[arg(short = 'C', global = true, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print errors only (no progress, no notes).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print more: the spec used and how long the command took.
    #[arg(short, long, global = true)]
    verbose: bool,
    /// Colour the labels of errors and notes on stderr.
    #[arg(long, global = true, value_enum, default_value_t = console::ColorChoice::Auto, value_name = "WHEN")]
    color: console::ColorChoice,
    /// The most bytes of rows a run may hold in memory (`4GiB`, `512MiB`;
    /// default 2GiB, or ARTIFACT_MAX_MEMORY): past it, a run stops with an
    /// error naming the table, before the machine's memory runs out.
    #[arg(long, global = true, value_name = "SIZE", env = "ARTIFACT_MAX_MEMORY", value_parser = artifact::value::held::parse_size)]
    max_memory: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

/// Shown after `artifact --help`: one example per command.
const EXAMPLES: &str = "Examples:
  artifact gen                         build every figure and number (only what changed)
  artifact gen --force fig3            rebuild one figure
  artifact check                       exit 1 if committed outputs are stale
  artifact check --report report.md --tolerance 2%
                                       a report for artifact evaluators
  artifact show fig5_points --rows 5   a table's fields and first rows
  artifact explain fig3-median         where a number comes from
  artifact lint                        hand-typed numbers, unknown keys, unused outputs
  artifact diff v1-submitted --format md
                                       numbers changed since a revision
  artifact watch                       rebuild on every change (beside typst watch)
  artifact init data/*.jsonl           a starter spec and paper for new data
  artifact hook install                refuse commits with stale numbers
  artifact schema > artifact.schema.json
  artifact completions bash > ~/.local/share/bash-completion/completions/artifact
";

#[derive(Subcommand)]
enum Command {
    /// Build every figure and number from the data (or only the named figures);
    /// what artifact.lock shows current is not rebuilt.
    Gen {
        /// Figures to build (default: all).
        names: Vec<String>,
        /// Rebuild everything, ignoring artifact.lock.
        #[arg(long)]
        force: bool,
    },
    /// Recompute without writing; exit 1 if committed figures or numbers are stale.
    ///
    /// Example: artifact check --report report.md --tolerance 2%
    Check {
        /// Trust artifact.lock when no hash changed (milliseconds on an unchanged tree).
        #[arg(long, conflicts_with = "report")]
        fast: bool,
        /// Write a report for artifact evaluators to FILE (Markdown; JSON when
        /// FILE ends in .json; `-` for standard output): tool, platform, every
        /// input's hash, every number committed vs recomputed, every figure.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// With --report: a number recomputed from re-measured data is
        /// reproduced when within this of the committed value (`2%`, or an
        /// absolute `0.05`); then only such numbers decide the exit code.
        #[arg(
            long,
            value_name = "TOL",
            requires = "report",
            allow_hyphen_values = true
        )]
        tolerance: Option<String>,
        /// Output format of the check (json: the report on stdout, for machines).
        #[arg(long, value_enum, default_value_t = ExplainFormat::Text, conflicts_with = "report")]
        format: ExplainFormat,
    },
    /// Print a source's or table's fields (with their types) and first rows,
    /// after all of the table's steps.
    Show {
        /// The source or table.
        name: String,
        /// How many rows to print.
        #[arg(long, default_value_t = 10, value_name = "N")]
        rows: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutFormat::Text)]
        format: OutFormat,
    },
    /// Print where a number comes from: value, text, spec, table, steps,
    /// rows and input files (with their hashes).
    Explain {
        /// The number's key.
        key: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
        format: ExplainFormat,
    },
    /// Print the JSON Schema of artifact.toml (for taplo / Even Better TOML),
    /// or with --markdown the key reference of docs/spec.md.
    Schema {
        /// Print the reference's key tables instead.
        #[arg(long)]
        markdown: bool,
    },
    /// Check the paper's prose against the numbers and figures: hand-typed
    /// numbers that should be macros, unknown keys, unused numbers and figures.
    ///
    /// Reads main.tex and main.typ in the spec's folder (and what they input
    /// or include) unless files are named. Exit 1 on errors.
    ///
    /// Example: artifact lint --format json paper/main.tex
    Lint {
        /// LaTeX (.tex) or typst (.typ) files (default: main.tex, main.typ).
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
        format: ExplainFormat,
    },
    /// Numbers whose printed text changed between a git revision's committed
    /// outputs and now (or two revisions), with the inputs that changed, and
    /// the figures that differ.
    ///
    /// Example: artifact diff v1-submitted --format md
    Diff {
        /// The revision to compare from (default HEAD).
        rev: Option<String>,
        /// The revision to compare to (default: the working tree).
        rev2: Option<String>,
        /// Output format (md: a table for a rebuttal or camera-ready letter).
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
    },
    /// Start a paper: write artifact.toml with one source per data file (its
    /// fields listed), an example table, number and figure that run, and
    /// main.typ / main.tex stubs. Never overwrites a file.
    ///
    /// Example: artifact init data/results.jsonl data/sweep.csv
    Init {
        /// Data files (inside the folder; default: a few inline rows).
        data: Vec<PathBuf>,
        /// The files' format where the extension does not say it (by
        /// default the extension's, else the file's first bytes').
        #[arg(long, value_name = "FORMAT", value_parser = ["jsonl", "ndjson", "json", "csv", "tsv", "parquet"])]
        format: Option<String>,
        /// JSON documents: the JSON pointer to the records array
        /// (`/benchmarks`; `""`: the whole document as one record). By
        /// default the longest array of objects in the document.
        #[arg(long, value_name = "POINTER")]
        records: Option<String>,
    },
    /// Rebuild what changed whenever an input, the spec or a template changes;
    /// errors are printed and the watch goes on (Ctrl-C stops it).
    ///
    /// Example: artifact watch & typst watch main.typ
    Watch {
        /// Quiet time after a change before rebuilding, in milliseconds.
        #[arg(long, default_value_t = 200, value_name = "MS")]
        debounce: u64,
    },
    /// Print a shell completion script.
    ///
    /// Example: artifact completions zsh > ~/.zfunc/_artifact
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Manage the git pre-commit hook.
    Hook {
        #[command(subcommand)]
        action: HookAction,
    },
}

/// `show --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum OutFormat {
    Text,
    Csv,
    Json,
}

/// `diff --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum DiffFormat {
    Text,
    Md,
    Json,
}

/// `explain --format`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum ExplainFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum HookAction {
    /// Write .git/hooks/pre-commit, which runs `artifact check --fast` on what is staged.
    Install {
        /// Replace a pre-commit hook that artifact did not write.
        #[arg(long)]
        force: bool,
    },
    /// Remove the pre-commit hook `install` wrote (a hook artifact did not
    /// write is left as it is, with an error).
    Uninstall,
    /// Run by the hook: check the staged spec in DIR (from the repository's
    /// top) against the staged data.
    #[command(hide = true)]
    Run {
        /// The spec's folder, relative to the repository's top.
        spec_dir: String,
    },
}

fn run_gen(spec: &spec::LoadedSpec, names: &[String], force: bool) -> artifact::Result<ExitCode> {
    // Held until the lock is written: a concurrent gen reads it afterwards.
    let _folder = output::FolderLock::exclusive(&spec.root)?;
    let old = Lock::read(&spec.root)?;
    let build = run::build(spec, names, if force { None } else { old.as_ref() })?;
    for n in &build.notes {
        note!("{n}");
    }
    for (_, why) in build.skipped.iter().chain(&build.held) {
        info!("skip: {why}");
    }
    // Names drawn, looked up for each rebuilt one (not a scan of all).
    let drawn: std::collections::HashSet<String> = build
        .figures
        .iter()
        .map(|f| f.name.clone())
        .chain(
            build
                .results
                .iter()
                .map(|r| artifact::run::results::label(&r.name)),
        )
        .collect();
    for (name, why) in &build.rebuilt {
        if drawn.contains(name) {
            info!("rebuilt {} ({why})", shown(name));
        }
    }
    if !build.current.is_empty() {
        let names: Vec<String> = build.current.iter().map(|c| shown(c)).collect();
        info!("current (not rebuilt): {}", names.join(", "));
    }
    // Numbers whose printed text changed since the last run, and why.
    if old.is_some() {
        for n in artifact::check::number_changes(spec, &build, old.as_ref()) {
            if let Some(was) = &n.committed {
                info!("number {}: {was} -> {} ({})", n.key, n.now, n.why());
            }
        }
    }
    let report = run::write(spec, &build, old.as_ref())?;
    for r in &report.deleted {
        info!("removed {r} (its figure has nothing to draw)");
    }
    for r in &report.orphans_removed {
        info!("removed {r} (orphaned: the spec no longer writes it)");
    }
    for r in &report.orphans_kept {
        warn!("kept {r} (orphaned, but edited since artifact wrote it: delete it by hand)");
    }
    for r in &report.removed {
        info!("removed {r} (a temporary file left by a run that was killed)");
    }
    for w in &report.written {
        info!("wrote {w}");
    }
    if !report.unchanged.is_empty() && build.errors.is_empty() {
        info!("{} file(s) already up to date", report.unchanged.len());
    }
    if build.errors.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    for line in group_errors(&build.errors) {
        error!("{line}");
    }
    warn!(
        "{} part(s) failed; their previous outputs are left as they were",
        build.errors.len()
    );
    Ok(ExitCode::from(2))
}

/// One line per distinct cause: a broken source that fails five numbers and
/// two figures is reported once, with what it failed.
fn group_errors(errors: &[artifact::Error]) -> Vec<String> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for e in errors {
        let (what, cause) = match e {
            // (The part's name as `Error::Context` prints it: one line.)
            artifact::Error::Context { what, inner } => (shown(what), inner.to_string()),
            other => (String::new(), other.to_string()),
        };
        match groups.iter_mut().find(|(c, _)| *c == cause) {
            Some((_, whats)) => whats.push(what),
            None => groups.push((cause, vec![what])),
        }
    }
    groups
        .into_iter()
        .map(|(cause, whats)| match whats.as_slice() {
            [w] if w.is_empty() => cause,
            [w] => format!("{w}: {cause}"),
            _ => format!("{cause}\n  (this fails {})", whats.join(", ")),
        })
        .collect()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    console::init(cli.quiet, cli.verbose, cli.color);
    if let Some(cap) = cli.max_memory {
        artifact::value::held::set_cap(cap);
    }
    let started = std::time::Instant::now();
    output::ignore_file_size_signal();
    output::return_freed_memory();
    let start = cli.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let result = run_command(cli.command, &start);
    detail!("done in {:.3} s", started.elapsed().as_secs_f64());
    match result {
        Ok(code) => code,
        Err(artifact::Error::Many(errors)) => {
            // Every spec error of a compile, each on its own `error:` line.
            for e in errors {
                error!("{e}");
            }
            ExitCode::from(2)
        }
        Err(e) => {
            error!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Runs `command` from folder `start`: the commands that need no spec,
/// then `watch` (which outlives a spec that does not load), then those
/// that read the loaded spec.
fn run_command(command: Command, start: &Path) -> artifact::Result<ExitCode> {
    if let Some(code) = without_spec(&command, start)? {
        return Ok(code);
    }
    let path = spec::locate(start)?;
    detail!("spec: {}", shown(&path.display().to_string()));
    // watch outlives a spec that does not load: it reports and waits.
    if let Command::Watch { debounce } = &command {
        return watch(&path, *debounce);
    }
    let spec = spec::load(&path)?;
    match command {
        Command::Gen { names, force } => run_gen(&spec, &names, force),
        Command::Check {
            report: Some(file),
            tolerance,
            ..
        } => check_report(&spec, &file, tolerance.as_deref()),
        Command::Check {
            fast,
            format: ExplainFormat::Json,
            ..
        } => {
            let _folder = output::FolderLock::shared(&spec.root)?;
            let report = check::check(&spec, fast)?;
            print_data(&report.to_json())?;
            Ok(if !report.errors.is_empty() {
                ExitCode::from(2)
            } else if report.stale() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Check { fast, .. } => check_text(&spec, fast),
        Command::Show { name, rows, format } => {
            let _folder = output::FolderLock::shared(&spec.root)?;
            let format = match format {
                OutFormat::Text => inspect::Format::Text,
                OutFormat::Csv => inspect::Format::Csv,
                OutFormat::Json => inspect::Format::Json,
            };
            let shown = inspect::show::show(&spec, &name, rows, format)?;
            for n in &shown.notes {
                note!("{n}");
            }
            match format {
                inspect::Format::Text => print_result(&shown.output)?,
                inspect::Format::Csv | inspect::Format::Json => print_data(&shown.output)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain { key, format } => {
            let _folder = output::FolderLock::shared(&spec.root)?;
            let format = match format {
                ExplainFormat::Text => inspect::Format::Text,
                ExplainFormat::Json => inspect::Format::Json,
            };
            let e = inspect::explain::explain(&spec, &key, format)?;
            for n in &e.notes {
                note!("{n}");
            }
            match format {
                inspect::Format::Json => print_data(&e.output)?,
                _ => print_result(&e.output)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Diff { rev, rev2, format } => {
            let d = artifact::diff::diff(&spec, rev.as_deref(), rev2.as_deref())?;
            match format {
                DiffFormat::Text => print_result(&d.to_text())?,
                DiffFormat::Md => print_result(&d.to_markdown())?,
                DiffFormat::Json => print_data(&d.to_json())?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Lint { files, format } => lint(&spec, &files, format),
        Command::Hook {
            action: HookAction::Run { .. },
        }
        | Command::Schema { .. }
        | Command::Init { .. }
        | Command::Completions { .. }
        | Command::Watch { .. } => unreachable!("dispatched before the spec is located"),
        Command::Hook {
            action: HookAction::Install { force },
        } => {
            let path = hook::install(&spec.root, force)?;
            say!("installed {}", shown(&path.display().to_string()));
            Ok(ExitCode::SUCCESS)
        }
        Command::Hook {
            action: HookAction::Uninstall,
        } => {
            match hook::uninstall(&spec.root)? {
                Some(path) => say!("removed {}", shown(&path.display().to_string())),
                None => say!("no pre-commit hook: nothing to remove"),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The commands that need no spec (`hook run`, `init`, `completions`,
/// `schema`): their exit code, or `None` for the others.
fn without_spec(command: &Command, start: &Path) -> artifact::Result<Option<ExitCode>> {
    match command {
        // The hook runs at the repository's top, where no spec may be.
        Command::Hook {
            action: HookAction::Run { spec_dir },
        } => hook::run(start, spec_dir).map(|c| Some(ExitCode::from(c))),
        // init makes the spec.
        Command::Init {
            data,
            format,
            records,
        } => {
            let opts = artifact::init::Options {
                format: format.clone(),
                records: records.clone(),
            };
            let done = artifact::init::init(start, data, &opts)?;
            for w in &done.written {
                info!("wrote {w}");
            }
            for k in &done.kept {
                info!("kept {k} (it exists)");
            }
            info!("next: artifact gen, then open main.typ or main.tex");
            Ok(Some(ExitCode::SUCCESS))
        }
        Command::Completions { shell } => {
            use clap::CommandFactory as _;
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "artifact", &mut out);
            print_data(&String::from_utf8_lossy(&out))?;
            Ok(Some(ExitCode::SUCCESS))
        }
        // The schema is the tool's, not a spec's: no spec is needed.
        Command::Schema { markdown } => {
            if *markdown {
                print_data(&spec::schema_out::markdown())?;
            } else {
                let schema = spec::schema_out::json_schema();
                let text = serde_json::to_string_pretty(&schema).expect("JSON");
                print_data(&format!("{text}\n"))?;
            }
            Ok(Some(ExitCode::SUCCESS))
        }
        _ => Ok(None),
    }
}

/// `artifact watch`: rebuilds on every change; a build's error is printed
/// and the watch goes on.
fn watch(path: &Path, debounce: u64) -> artifact::Result<ExitCode> {
    let mut rebuild = |changed: &[String]| {
        if !changed.is_empty() {
            let names: Vec<String> = changed.iter().map(|c| shown(c)).collect();
            info!("changed: {}", names.join(", "));
        }
        match spec::load(path).and_then(|s| run_gen(&s, &[], false)) {
            Ok(_) => {}
            Err(e) => error!("{e}"),
        }
        info!(
            "watching {} (Ctrl-C to stop)",
            shown(&path.parent().unwrap_or(path).display().to_string())
        );
    };
    artifact::watch::run(
        path,
        std::time::Duration::from_millis(debounce),
        &mut rebuild,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `artifact check --report FILE`: the evaluators' report, to `FILE` or
/// (`-`) standard output.
fn check_report(
    spec: &spec::LoadedSpec,
    file: &Path,
    tolerance: Option<&str>,
) -> artifact::Result<ExitCode> {
    let _folder = output::FolderLock::shared(&spec.root)?;
    let tolerance = tolerance
        .map(artifact::evaluate::Tolerance::parse)
        .transpose()?;
    let target = (file.as_os_str() != "-").then_some(file);
    let (eval, check) = artifact::evaluate::evaluate(spec, tolerance, target)?;
    let json = file.extension().is_some_and(|e| e == "json");
    let text = if json {
        eval.to_json()
    } else {
        eval.to_markdown()
    };
    if file.as_os_str() == "-" && json {
        print_data(&text)?;
    } else if file.as_os_str() == "-" {
        print_result(&text)?;
    } else {
        // A bare name is in the current folder (its parent is "").
        let path = if file.parent() == Some(Path::new("")) {
            Path::new(".").join(file)
        } else {
            file.to_path_buf()
        };
        output::write_atomic(&path, text.as_bytes())?;
        let off = eval.numbers.iter().filter(|n| !n.reproduced).count();
        let cells = eval.results_tables.iter().filter_map(|t| t.cells.as_ref());
        let (cells_off, cells_all) = cells.fold((0, 0), |(o, a), c| {
            (o + c.total - c.reproduced, a + c.total)
        });
        let cells_text = match cells_all {
            0 => String::new(),
            _ => format!(", {cells_off} of {cells_all} results-table cells"),
        };
        info!(
            "wrote {}: {} ({} of {} numbers{cells_text} not reproduced)",
            shown(&file.display().to_string()),
            if eval.reproduced {
                "reproduced"
            } else {
                "NOT reproduced"
            },
            off,
            eval.numbers.len()
        );
    }
    Ok(if !eval.errors.is_empty() {
        ExitCode::from(2)
    } else if eval.reproduced || (tolerance.is_none() && !check.stale()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `artifact check`: the stale table on stderr (exit 1), errors after it
/// (exit 2), or that all is current.
fn check_text(spec: &spec::LoadedSpec, fast: bool) -> artifact::Result<ExitCode> {
    let _folder = output::FolderLock::shared(&spec.root)?;
    let report = check::check(spec, fast)?;
    let text = report.render();
    // Errors dominate: the stale table first, then each error.
    if !report.errors.is_empty() {
        if report.stale() {
            warn_raw!("{text}");
        }
        for line in group_errors(&report.errors) {
            error!("{line}");
        }
        return Ok(ExitCode::from(2));
    }
    if report.stale() {
        warn_raw!("{text}");
        Ok(ExitCode::from(1))
    } else {
        if console::normal() {
            print_result(&text)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// `artifact lint`: the report (errors only with `--quiet`); exit 1 on
/// errors.
fn lint(
    spec: &spec::LoadedSpec,
    files: &[PathBuf],
    format: ExplainFormat,
) -> artifact::Result<ExitCode> {
    let report = artifact::lint::lint(spec, files)?;
    match format {
        // --quiet: the errors only.
        ExplainFormat::Text if !console::normal() => print_result(
            &report
                .render_text()
                .lines()
                .filter(|l| l.contains(": error["))
                .map(|l| format!("{l}\n"))
                .collect::<String>(),
        )?,
        ExplainFormat::Text => print_result(&report.render_text())?,
        ExplainFormat::Json => print_data(&report.render_json())?,
    }
    Ok(if report.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
