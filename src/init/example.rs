//! The starter's example table, number and figure, chosen by the data's
//! fields, and the paper stubs that quote them.

use std::fmt::Write as _;

use super::{Surveyed, expr_of, numeric, quoted, text_field};
use crate::inspect::show::FieldSummary;

/// More rows than this and the example table keeps the first of them: a
/// starter figure of a big log draws in a second, never 10⁶ points.
const EXAMPLE_ROWS: usize = 5_000;

/// A bar chart of more categories than this reads as noise.
const MAX_BARS: usize = 30;

/// The example table, number and figure for the sample `s`.
pub(super) fn example(s: &Surveyed) -> String {
    let src = &s.name;
    let fields = &s.fields;
    // The numeric fields with the most distinct values (file order on ties).
    let mut nums: Vec<&FieldSummary> = fields.iter().filter(|f| numeric(f)).collect();
    nums.sort_by_key(|f| std::cmp::Reverse(f.distinct));
    let text = fields
        .iter()
        .find(|f| text_field(f) && (2..=MAX_BARS).contains(&f.distinct));
    let e = |f: &FieldSummary| expr_of(&f.name).expect("a usable name");
    let q = |t: &str| quoted(t);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# An example table, number and figure: change them to what the paper shows."
    );
    let limit = if s.more || s.rows > EXAMPLE_ROWS {
        let _ = writeln!(
            o,
            "# The example keeps the first {EXAMPLE_ROWS} rows (`limit`): remove it to use them all."
        );
        format!(", {{ limit = {EXAMPLE_ROWS} }}")
    } else {
        String::new()
    };
    match (nums.as_slice(), text) {
        ([a, b, ..], _) => {
            // x: the one with fewer distinct values (a parameter), y: the
            // other (a measurement); file order on a tie.
            let pos = |f: &FieldSummary| fields.iter().position(|g| g.name == f.name);
            let (x, y) = match (a.distinct, b.distinct) {
                (da, db) if da < db => (a, b),
                (da, db) if da > db => (b, a),
                _ if pos(a) < pos(b) => (a, b),
                _ => (b, a),
            };
            let (xe, ye) = (e(x), e(y));
            o.push_str(&measured(
                src,
                &format!("{xe} is number and {ye} is number"),
                &limit,
                y,
            ));
            let _ = writeln!(
                o,
                "[figures.example]\nsize = [5, 3.2]\ntitle = {}\n\
                 x = {{ title = {} }}\ny = {{ title = {} }}\n\
                 layers = [{{ mark = \"point\", data = \"example\", x = {}, y = {} }}]",
                q(&format!(
                    "{} against {} ({{{{ n['example-rows'] }}}} rows)",
                    y.name, x.name
                )),
                q(&x.name),
                q(&y.name),
                q(&xe),
                q(&ye),
            );
        }
        ([x], _) => {
            let xe = e(x);
            o.push_str(&measured(src, &format!("{xe} is number"), &limit, x));
            let _ = writeln!(
                o,
                "[figures.example]\nsize = [5, 3.2]\ntitle = {}\n\
                 x = {{ title = {} }}\ny = {{ title = \"rows\" }}\n\
                 layers = [{{ mark = \"hist\", data = \"example\", x = {}, bins = 20 }}]",
                q(&format!("{} ({{{{ n['example-rows'] }}}} rows)", x.name)),
                q(&x.name),
                q(&xe),
            );
        }
        ([], Some(t)) => {
            // A group streams: every row counts, whatever the log's size.
            let te = e(t);
            let _ = writeln!(
                o,
                "[tables.example]\nfrom = \"{src}\"\n\
                 steps = [{{ filter = {} }}, {{ group = {}, aggregate = {{ n = \"count\" }} }}]\n\n\
                 [numbers.example-rows]\ntable = \"example\"\nvalue = \"count\"\ndescription = {}\n\n\
                 [figures.example]\nsize = [5, 3.2]\ntitle = {}\n\
                 x = {{ title = {} }}\ny = {{ title = \"rows\" }}\n\
                 layers = [{{ mark = \"bar\", data = \"example\", x = {}, y = \"n\" }}]",
                q(&format!("{te} is string")),
                q(&t.name),
                q(&format!("values of {}", t.name)),
                q(&format!(
                    "rows per {} ({{{{ n['example-rows'] }}}} values)",
                    t.name
                )),
                q(&t.name),
                q(&te),
            );
        }
        ([], None) => {
            let _ = writeln!(
                o,
                "[tables.example]\nfrom = \"{src}\"\n\n\
                 [numbers.example-rows]\ntable = \"example\"\nvalue = \"count\"\ndescription = \"rows of {src}\"\n\n\
                 [tables.example_count]\nfrom = \"{src}\"\nsteps = [{{ group = [], aggregate = {{ n = \"count\" }} }}, {{ derive = {{ what = \"'rows'\" }} }}]\n\n\
                 [figures.example]\nsize = [5, 3.2]\ntitle = \"rows of {src}\"\ny = {{ title = \"rows\" }}\n\
                 layers = [{{ mark = \"bar\", data = \"example_count\", x = \"what\", y = \"n\" }}]"
            );
        }
    }
    o
}

/// The example table of `src`'s rows that pass `filter` (and `limit`),
/// the median of measurement `y` and the row count.
fn measured(src: &str, filter: &str, limit: &str, y: &FieldSummary) -> String {
    let ye = expr_of(&y.name).expect("a usable name");
    format!(
        "[tables.example]\nfrom = \"{src}\"\nsteps = [{{ filter = {} }}{limit}]\n\n\
         [numbers.example-median]\ntable = \"example\"\nvalue = {{ median = {} }}\nformat = {{ figures = 3 }}\n\
         description = {}\n\n\
         [numbers.example-rows]\ntable = \"example\"\nvalue = \"count\"\ndescription = \"rows in the example figure\"\n\n",
        quoted(filter),
        quoted(&ye),
        quoted(&format!("median {}", y.name)),
    )
}

pub(super) fn typst_stub(median: bool) -> String {
    let median = if median {
        " (median #example-median)"
    } else {
        ""
    };
    format!(
        "// The paper: every number from generated/macros.typ, every figure from\n\
     // figures/, both made by `artifact gen`. Build: artifact gen && typst compile main.typ\n\
     #import \"generated/macros.typ\": *\n\n\
     = Results\n\n\
     The example figure shows #example-rows rows{median}.\n\n\
     #figure(image(\"figures/example.pdf\", width: 80%), caption: [The example figure.])\n"
    )
}

pub(super) fn latex_stub(median: bool) -> String {
    let median = if median {
        " (median \\artnum{example-median})"
    } else {
        ""
    };
    let body = "% The paper: every number from generated/macros.tex, every figure from\n\
     % figures/, both made by `artifact gen`. Build: artifact gen && pdflatex main.tex\n\
     \\documentclass{article}\n\\usepackage{graphicx}\n\\input{generated/macros.tex}\n\n\
     \\begin{document}\n\\section{Results}\n\n\
     The example figure shows \\artnum{example-rows} rows MEDIAN.\n\n\
     \\begin{figure}[t]\\centering\n\\includegraphics[width=0.8\\linewidth]{figures/example.pdf}\n\
     \\caption{The example figure.}\n\\end{figure}\n\\end{document}\n";
    body.replace(" MEDIAN", median)
}
