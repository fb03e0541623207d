//! The report as Markdown: a verdict, then a table each of inputs,
//! numbers, figures and results tables. Every text from data or the spec
//! is escaped as `NAME.md` escapes it.

use std::fmt::Write as _;

use super::cells::Cells;
use super::{Evaluation, NumberRow};
use crate::results::markdown::escape;

/// `v` with a sign and four significant digits (`+0.5100`, `-1234`).
fn significant(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{:+}", v as i64);
    }
    let e = v.abs().log10().floor() as i32;
    format!("{:+.*}", (3 - e).max(0) as usize, v)
}

impl Evaluation {
    /// The report as Markdown: a summary, then a table each of inputs,
    /// numbers, figures and results tables.
    pub fn to_markdown(&self) -> String {
        let mut o = String::new();
        let numbers_off: Vec<&NumberRow> = self.numbers.iter().filter(|n| !n.reproduced).collect();
        let figures_off = self
            .figures
            .iter()
            .chain(&self.results_tables)
            .filter(|f| f.status != "identical")
            .count();
        let _ = writeln!(o, "# Reproduction report\n");
        let verdict = if self.reproduced {
            "reproduced"
        } else {
            "NOT reproduced"
        };
        let within = match self.tolerance {
            Some(t) => format!(" within {}", t.describe()),
            None => " (printed text identical)".into(),
        };
        let cells: Vec<(&str, &Cells)> = self
            .results_tables
            .iter()
            .filter_map(|t| Some((t.name.as_str(), t.cells.as_ref()?)))
            .collect();
        let cell_count = match cells.is_empty() {
            true => String::new(),
            false => format!(
                "; {} of {} results-table cells reproduced{}",
                cells.iter().map(|(_, c)| c.reproduced).sum::<usize>(),
                cells.iter().map(|(_, c)| c.total).sum::<usize>(),
                match self.tolerance {
                    Some(t) => format!(" within {}", t.describe()),
                    None => String::new(),
                },
            ),
        };
        let _ = writeln!(
            o,
            "**Result: {verdict}.** {} of {} numbers reproduced{within}{cell_count}; {} of {} figures and results tables identical.\n",
            self.numbers.len() - numbers_off.len(),
            self.numbers.len(),
            self.figures.len() + self.results_tables.len() - figures_off,
            self.figures.len() + self.results_tables.len(),
        );
        let mut off: Vec<String> = numbers_off.iter().map(|n| escape(&n.key)).collect();
        for (name, c) in &cells {
            off.extend(c.differing.iter().map(|d| {
                format!(
                    "results table {} row {}, {}: {} -> {}",
                    escape(name),
                    d.row,
                    escape(&d.column),
                    escape(d.committed.as_deref().unwrap_or("(none)")),
                    escape(d.recomputed.as_deref().unwrap_or("(none)"))
                )
            }));
            if c.total - c.reproduced > c.differing.len() {
                off.push(format!(
                    "results table {} ({} more cells)",
                    escape(name),
                    c.total - c.reproduced - c.differing.len()
                ));
            }
        }
        if !off.is_empty() {
            let _ = writeln!(o, "Not reproduced: {}.\n", off.join("; "));
        }
        let _ = writeln!(o, "- tool: {}", self.tool);
        let _ = writeln!(o, "- platform: {}", self.platform);
        let _ = writeln!(
            o,
            "- spec: artifact.toml, BLAKE3 `{}` ({})",
            self.spec,
            if self.spec_committed {
                "as committed"
            } else {
                "changed since the lock"
            }
        );
        let _ = writeln!(
            o,
            "- tolerance: {}\n",
            self.tolerance
                .map_or("none (numbers must print the same)".into(), |t| t
                    .describe())
        );
        let _ = writeln!(
            o,
            "## Inputs\n\n| file | BLAKE3 | against the lock |\n|---|---|---|"
        );
        for i in &self.inputs {
            let _ = writeln!(
                o,
                "| {} | `{}` | {} |",
                escape(&i.file),
                i.blake3.as_deref().unwrap_or("-"),
                i.status
            );
        }
        let _ = writeln!(
            o,
            "\n## Numbers\n\nCommitted: the text `artifact gen` recorded in artifact.lock; \
             recomputed: from the inputs on disk now.\n\n\
             | key | committed | recomputed | difference | status |\n|---|---|---|---|---|"
        );
        for n in &self.numbers {
            let diff = match (n.difference, n.relative) {
                (Some(0.0), _) => "0".to_string(),
                (Some(d), Some(r)) => format!("{} ({:+.2}%)", significant(d), r * 100.0),
                (Some(d), None) => significant(d),
                _ => "-".into(),
            };
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} |",
                escape(&n.key),
                escape(n.committed.as_deref().unwrap_or("-")),
                escape(n.recomputed.as_deref().unwrap_or("-")),
                diff,
                match (n.reproduced, &n.bound) {
                    (true, _) => n.status.to_string(),
                    (false, Some(b)) => format!("**{}** ({})", n.status, escape(b)),
                    (false, None) => format!("**{}**", n.status),
                }
            );
        }
        for (title, rows) in [
            ("Figures", &self.figures),
            ("Results tables", &self.results_tables),
        ] {
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(
                o,
                "\n## {title}\n\n| name | status | files |\n|---|---|---|"
            );
            for f in rows {
                let _ = writeln!(
                    o,
                    "| {} | {} | {} |",
                    escape(&f.name),
                    f.status,
                    escape(&f.files.join(", "))
                );
            }
        }
        if !self.errors.is_empty() {
            let _ = writeln!(o, "\n## Errors\n");
            for e in &self.errors {
                let _ = writeln!(o, "- {}", escape(e));
            }
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_print_four_significant_digits() {
        assert_eq!(significant(0.5100000000000016), "+0.5100");
        assert_eq!(significant(-1234.5), "-1234");
        assert_eq!(significant(15.0), "+15");
    }
}
