//! The figures' part of a build: each figure that is not current is
//! compiled (cheap once its tables are built), then all are rendered in
//! parallel. Apart from `build_with` so each step reads on its own.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::figures::{self, Figure, Outcome};
use crate::fingerprint::Fingerprint;
use crate::lock::Lock;
use crate::output::OutputFile;
use crate::plan::Plan;
use crate::run::{Build, FigureBuild, SPEC_DATA_OR_QUOTES, changed_input, figure_current, rel};
use crate::spec::LoadedSpec;
use crate::tables::Catalog;

/// Compiles each figure of `only` (all if empty) that `lock` does not show
/// current, recording in `b` which are current, rebuilt (and why), skipped
/// or failed; gives the drawn ones, in declaration order.
pub(super) fn compile(
    plan: &Plan,
    catalog: &Catalog<'_>,
    globals: &Arc<Globals>,
    fp: &Fingerprint,
    lock: Option<&Lock>,
    only: &[String],
    b: &mut Build,
) -> Vec<(String, Box<Figure>)> {
    let spec = plan.spec;
    let mut plots = Vec::new();
    let palette = figures::palette::Palette::new(plan, catalog, globals);
    let keys = fp.figure_keys(spec, b.earlier());
    for (name, figure) in &plan.figures {
        if !only.is_empty() && !only.contains(name) {
            continue;
        }
        let key = keys.get(name).cloned().unwrap_or_default();
        if let Some(l) = lock {
            match figure_current(spec, l, name, &key) {
                Ok(()) => {
                    b.current.push(name.clone());
                    b.figure_keys.insert(name.clone(), key);
                    continue;
                }
                Err(reason) => b.rebuilt.push((name.clone(), reason)),
            }
        }
        match figures::compile_with(figure, catalog, globals, &palette) {
            Ok(Outcome::Drawn(f)) => {
                for n in &f.notes {
                    b.notes.push(format!("figure `{name}`: {n}"));
                }
                if let Some(l) = lock {
                    refine_reason(spec, l, fp, name, &f, b);
                }
                b.figure_keys.insert(name.clone(), key);
                plots.push((name.clone(), f));
            }
            Ok(Outcome::Skipped(why)) => b.skipped.push((name.clone(), why)),
            Err(e) => {
                let e = quoting_failed(spec, name, e, b);
                b.errors.push(e.context(format!("figure `{name}`")));
            }
        }
    }
    plots
}

/// Now that figure `name` is drawn and its sources known, says which of
/// its spec, data or quoted numbers changed.
fn refine_reason(
    spec: &LoadedSpec,
    l: &Lock,
    fp: &Fingerprint,
    name: &str,
    f: &Figure,
    b: &mut Build,
) {
    if !b
        .rebuilt
        .last()
        .is_some_and(|last| last.0 == *name && last.1 == SPEC_DATA_OR_QUOTES)
    {
        return;
    }
    {
        let quoted = crate::fingerprint::figure_quotes(spec, name);
        let changed = crate::fingerprint::changed_numbers(l, b.earlier(), &quoted);
        // The files it read first, then any its key covers (an optional
        // file gone is no longer read).
        let part = format!("figure.{name}");
        let input = changed_input(fp, l, &part, &f.sources).or_else(|| {
            changed_input(
                fp,
                l,
                &part,
                &crate::fingerprint::figure_sources(spec, name),
            )
        });
        let reason = match input {
            Some(input) => format!("input changed: {input}"),
            None if !changed.is_empty() => {
                format!("quoted number changed: {}", changed.join(", "))
            }
            None => crate::run::unexplained(fp, l).into(),
        };
        if let Some(last) = b.rebuilt.last_mut() {
            last.1 = reason;
        }
    }
}

/// A figure quoting a number that failed fails because of it: say so,
/// rather than "undefined value" in its title.
fn quoting_failed(spec: &LoadedSpec, name: &str, e: Error, b: &Build) -> Error {
    let quoted = spec
        .parts()
        .get("figure", name)
        .map(|p| p.quoted.clone())
        .unwrap_or_default();
    let missing: Vec<&String> = quoted
        .keys
        .iter()
        .filter(|k| {
            !crate::plan::order::declarations_of(spec, k).is_empty()
                && !b.numbers.iter().any(|n| &n.key == *k)
        })
        .collect();
    let text = e.to_string();
    let undefined = text.contains("undefined value")
        || missing
            .iter()
            .any(|k| text.contains(&format!("no number `{k}`")));
    match missing.as_slice() {
        [] => e,
        _ if !undefined => e,
        keys => Error::msg(format!(
            "it quotes {}, which could not be computed (see {})",
            keys.iter()
                .map(|k| format!("number `{k}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if keys.len() == 1 {
                "its error"
            } else {
                "their errors"
            }
        )),
    }
}

/// (name, sources, outputs, layout notes)
type Rendered = (
    String,
    BTreeSet<String>,
    Result<Vec<OutputFile>>,
    Vec<String>,
);

/// Renders the drawn figures in parallel into `b.figures`; a figure whose
/// background or rendering fails is reported and the others are kept.
pub(super) fn render(
    spec: &LoadedSpec,
    mut plots: Vec<(String, Box<Figure>)>,
    b: &mut Build,
) -> Result<()> {
    let dir = spec.spec.output.figures.get_ref().clone();
    let formats = crate::plan::formats::Formats::of(spec)?;
    let mut opts = BTreeMap::new();
    for (name, f) in &plots {
        let fig = spec.spec.figures[name.as_str()].get_ref();
        let both = crate::plan::formats::background(spec, fig)
            .and_then(|bg| Ok((bg, crate::plan::formats::png_background(spec, fig)?)));
        match both {
            Ok((background, png_background)) => {
                opts.insert(
                    name.clone(),
                    crate::render::Options {
                        formats,
                        background,
                        png_background,
                        title: f.plot.title.clone().unwrap_or_else(|| name.clone()),
                    },
                );
            }
            Err(e) => b.errors.push(e.context(format!("figure `{name}`"))),
        }
    }
    plots.retain(|(name, _)| opts.contains_key(name));
    let rendered: Vec<Rendered> = plots
        .into_par_iter()
        .map(|(name, f)| {
            let mut notes = Vec::new();
            let r = crate::render::render_with(&f.plot, &opts[&name]).map(|(files, n)| {
                notes = n;
                notes.extend(dense_notes(&f.dense, &files));
                let mut out: Vec<OutputFile> = files
                    .into_iter()
                    .map(|(ext, bytes)| OutputFile {
                        rel: rel(&dir, &format!("{name}.{ext}")),
                        bytes,
                    })
                    .collect();
                out.push(OutputFile {
                    rel: rel(&dir, &format!("{name}.csv")),
                    bytes: f.csv.clone(),
                });
                out
            });
            (name, f.sources.clone(), r, notes)
        })
        .collect();
    for (name, sources, r, notes) in rendered {
        for n in notes {
            b.notes.push(format!("figure `{name}`: {n}"));
        }
        match r {
            Ok(outputs) => b.figures.push(FigureBuild {
                name,
                outputs,
                sources,
            }),
            Err(e) => {
                b.figure_keys.remove(&name);
                b.errors.push(e.context(format!("figure `{name}`")));
            }
        }
    }
    Ok(())
}

/// The notes of a figure's vector layers of many marks, with the size of
/// the PDF (else the SVG) they went into; none when neither is written.
fn dense_notes(dense: &[String], files: &[(&str, Vec<u8>)]) -> Vec<String> {
    let Some((ext, bytes)) = ["pdf", "svg"]
        .iter()
        .find_map(|e| files.iter().find(|(x, _)| x == e))
    else {
        return Vec::new();
    };
    let size = crate::value::held::size_text(bytes.len() as u64);
    dense
        .iter()
        .map(|d| {
            format!(
                "{d} into a {} of {size}, which a viewer draws mark by mark when it opens it: `rasterize = true` draws them as one image at the PNG's dpi",
                ext.to_uppercase()
            )
        })
        .collect()
}
