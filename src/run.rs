//! The pipeline: everything `artifact gen` computes, in memory, before
//! anything is written (so `artifact check` can compare the same bytes).
//!
//! Failures are kept apart: a spec, source or table error stops the run
//! before any output; a failing figure is reported and the others are still
//! built; failing numbers keep the macro files as they were.

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::figures::{self, Outcome};
use crate::numbers::{self, Number};
use crate::output::{OutputFile, write_atomic};
use crate::spec::LoadedSpec;
use crate::tables::Catalog;

/// What a figure produced.
#[derive(Debug)]
pub struct FigureBuild {
    /// The figure's name.
    pub name: String,
    /// Its files (svg, pdf, csv), empty when skipped or failed.
    pub outputs: Vec<OutputFile>,
    /// The sources it read.
    pub sources: BTreeSet<String>,
}

/// Everything computed for a spec.
#[derive(Debug, Default)]
pub struct Build {
    /// The files each source read.
    pub files: indexmap::IndexMap<String, Vec<crate::sources::SourceFile>>,
    /// The computed numbers.
    pub numbers: Vec<Number>,
    /// Files of the numbers (macros.tex, macros.typ, numbers.json), if all numbers succeeded.
    pub number_outputs: Vec<OutputFile>,
    /// Figures built.
    pub figures: Vec<FigureBuild>,
    /// Figures skipped, with the reason.
    pub skipped: Vec<String>,
    /// Independent failures (a figure, the numbers).
    pub errors: Vec<Error>,
    /// Reports for the user.
    pub notes: Vec<String>,
}

impl Build {
    /// Every output file computed.
    pub fn outputs(&self) -> impl Iterator<Item = &OutputFile> {
        self.number_outputs
            .iter()
            .chain(self.figures.iter().flat_map(|f| f.outputs.iter()))
    }
}

fn rel(dir: &str, file: &str) -> String {
    let d = dir.trim_end_matches('/');
    if d.is_empty() || d == "." {
        file.to_string()
    } else {
        format!("{d}/{file}")
    }
}

/// Computes every output of `spec` (only the figures in `only`, if given).
pub fn build(spec: &LoadedSpec, only: &[String]) -> Result<Build> {
    for name in only {
        if !spec.spec.figures.contains_key(name) {
            let known: Vec<&str> = spec.spec.figures.keys().map(String::as_str).collect();
            return Err(Error::msg(format!(
                "no figure named `{name}` (figures: {})",
                known.join(", ")
            )));
        }
    }
    let catalog = Catalog::new(spec)?;
    catalog.check_spec()?;
    let mut b = Build::default();
    let (nums, globals) = numbers::compute(spec, &catalog);
    for (key, reason) in &nums.skipped {
        b.notes.push(format!("skip: number `{key}`: {reason}"));
    }
    b.numbers = nums.list.clone();
    if nums.errors.is_empty() {
        match crate::emit::emit(spec, &nums.list) {
            Ok(files) => {
                b.number_outputs = files
                    .into_iter()
                    .map(|(f, bytes)| OutputFile {
                        rel: rel(&spec.spec.output.generated, f),
                        bytes,
                    })
                    .collect();
            }
            Err(e) => b.errors.push(e.context("numbers")),
        }
    } else {
        b.errors.extend(nums.errors);
    }
    // Compile each figure (cheap, reads the tables), then render in parallel.
    let mut plots = Vec::new();
    for (name, fig) in &spec.spec.figures {
        if !only.is_empty() && !only.contains(name) {
            continue;
        }
        match figures::compile(spec, &catalog, &globals, name, fig) {
            Ok(Outcome::Drawn(f)) => {
                for n in &f.notes {
                    b.notes.push(format!("figure `{name}`: {n}"));
                }
                plots.push((name.clone(), f));
            }
            Ok(Outcome::Skipped(why)) => b.skipped.push(why),
            Err(e) => b.errors.push(e.context(format!("figure `{name}`"))),
        }
    }
    let dir = spec.spec.output.figures.clone();
    let rendered: Vec<(String, BTreeSet<String>, Result<Vec<OutputFile>>)> = plots
        .into_par_iter()
        .map(|(name, f)| {
            let r = crate::render::render(&f.plot).map(|r| {
                vec![
                    OutputFile {
                        rel: rel(&dir, &format!("{name}.svg")),
                        bytes: r.svg,
                    },
                    OutputFile {
                        rel: rel(&dir, &format!("{name}.pdf")),
                        bytes: r.pdf,
                    },
                    OutputFile {
                        rel: rel(&dir, &format!("{name}.csv")),
                        bytes: f.csv.clone(),
                    },
                ]
            });
            (name, f.sources.clone(), r)
        })
        .collect();
    for (name, sources, r) in rendered {
        match r {
            Ok(outputs) => b.figures.push(FigureBuild {
                name,
                outputs,
                sources,
            }),
            Err(e) => b.errors.push(e.context(format!("figure `{name}`"))),
        }
    }
    b.notes.splice(0..0, catalog.notes());
    b.files = catalog.files();
    Ok(b)
}

/// What `gen` did.
#[derive(Debug, Default)]
pub struct GenReport {
    /// Files written (content changed).
    pub written: Vec<String>,
    /// Files already up to date.
    pub unchanged: Vec<String>,
}

/// Writes every output of `build` under the spec's folder.
pub fn write(spec: &LoadedSpec, build: &Build) -> Result<GenReport> {
    let mut report = GenReport::default();
    for out in build.outputs() {
        let path = spec.root.join(&out.rel);
        if write_atomic(&path, &out.bytes)? {
            report.written.push(out.rel.clone());
        } else {
            report.unchanged.push(out.rel.clone());
        }
    }
    Ok(report)
}
