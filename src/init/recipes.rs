//! Starter specs for the layouts `init` recognises ([`Kind`]): the numbers
//! and figure their users quote, instead of the generic example.
//!
//! - hyperfine: each command's mean ± σ (`Time (mean ± σ)`), how many
//!   times slower than the fastest it is (hyperfine's summary), and a box
//!   plot of every run's time per command (its `plot_whisker.py`);
//! - a Hugging Face Trainer's `trainer_state.json`: the training and
//!   evaluation loss against the step, and each evaluation metric at the
//!   last evaluation;
//! - criterion: each benchmark's mean estimate in seconds with the SI
//!   prefix and 5 significant figures criterion prints (`10.309 µs`), and
//!   the estimates with their 95% confidence intervals on a log axis;
//! - Google Benchmark: each benchmark's median over its repetitions, in
//!   seconds from `real_time` and `time_unit`, and every repetition;
//! - pytest-benchmark: each test's mean ± stddev, and the tests' means
//!   with one standard deviation.
//!
//! Each also has `example-rows` and a figure `example`, which the paper
//! stubs quote and include.

use std::fmt::Write as _;

use super::Surveyed;
use super::probe::{Kind, Probed};

/// The tables, numbers and figure of `kind` for the sample `s` of its
/// source (`probed`: what init found about its file).
pub(super) fn recipe(kind: Kind, s: &Surveyed, probed: &Probed) -> String {
    match kind {
        Kind::Hyperfine => hyperfine(&s.name),
        Kind::Trainer => trainer(s),
        Kind::Criterion => criterion(&s.name, probed),
        Kind::GoogleBenchmark => google_benchmark(&s.name),
        Kind::PytestBenchmark => pytest_benchmark(&s.name),
    }
}

fn google_benchmark(src: &str) -> String {
    format!(
        r#"# Google Benchmark's repetitions (its own aggregates are the rows with run_type = "aggregate").
[tables.runs]
from = "{src}"
steps = [
  {{ filter = "run_type == 'iteration'" }},
  {{ derive = {{ seconds = "quantity(real_time ~ time_unit, 's')" }} }},
]

[tables.benchmarks]
from = "runs"
steps = [{{ group = ["run_name"], aggregate = {{ median = {{ median = "seconds" }}, runs = "count" }} }}]

# Each benchmark's median over its repetitions, e.g. \artnum{{BM_sort_1024}}.
[numbers.time]
table = "benchmarks"
each = "{{{{ run_name | slug }}}}"
value = {{ cell = "median" }}
format = {{ figures = 3, prefix = "si", unit = "s" }}
description = "median real time of {{{{ run_name }}}}"

[numbers.example-rows]
table = "benchmarks"
value = "count"
description = "benchmarks"

[figures.example]
size = [5, 3.2]
title = "Real time per benchmark (each repetition, and the median)"
x = {{ title = "benchmark" }}
y = {{ title = "time", scale = "log", format = {{ prefix = "si", unit = "s" }} }}
layers = [
  {{ mark = "point", data = "runs", x = "run_name", y = "seconds", opacity = 0.4 }},
  {{ mark = "point", data = "benchmarks", x = "run_name", y = "median", shape = "diamond", color = "black" }},
]
"#
    )
}

fn pytest_benchmark(src: &str) -> String {
    format!(
        r#"# pytest-benchmark's statistics are in seconds, under `stats`.
[tables.tests]
from = "{src}"
steps = [{{ derive = {{ lo = "stats.mean - stats.stddev", hi = "stats.mean + stats.stddev" }} }}]

# Each test's mean ± stddev, as pytest-benchmark reports them, e.g. \artnum{{test_parse_large}}.
[numbers.time]
table = "tests"
each = "{{{{ name | slug }}}}"
value = {{ cell = "stats.mean" }}
uncertainty = {{ cell = "stats.stddev" }}
format = {{ figures = 2, prefix = "si", unit = "s" }}
description = "mean ± stddev of {{{{ name }}}}"

[numbers.example-rows]
table = "tests"
value = "count"
description = "benchmarks"

[figures.example]
size = [5, 3.2]
title = "Mean time per test (± one standard deviation)"
x = {{ title = "test" }}
y = {{ title = "time", format = {{ prefix = "si", unit = "s" }} }}
layers = [
  {{ mark = "errorbar", data = "tests", x = "name", y = "lo", y2 = "hi" }},
  {{ mark = "point", data = "tests", x = "name", y = "stats.mean" }},
]
"#
    )
}

fn hyperfine(src: &str) -> String {
    format!(
        r#"# hyperfine's numbers: each command's mean ± σ, e.g. \artnum{{KEY-mean}}
# (KEY: the command through `slug`; `artifact show commands` lists them).
[tables.commands]
from = "{src}"
steps = [
  {{ joinaggregate = {{ fastest = {{ min = "mean" }} }} }},
  {{ derive = {{ relative = "mean / fastest" }} }},
]

[tables.times]
from = "{src}"
steps = [{{ explode = "times", value = "time" }}]

[numbers.mean]
table = "commands"
each = "{{{{ command | slug }}}}-mean"
value = {{ cell = "mean" }}
uncertainty = {{ cell = "stddev" }}
format = {{ figures = 2, prefix = "si", unit = "s" }}
description = "mean ± σ of `{{{{ command }}}}`"

# How many times the fastest command's mean each one takes (hyperfine's summary).
[numbers.relative]
table = "commands"
each = "{{{{ command | slug }}}}-relative"
value = {{ cell = "relative" }}
format = {{ places = 2, unit = "×" }}
description = "`{{{{ command }}}}` against the fastest"

[numbers.example-rows]
table = "commands"
value = "count"
description = "commands benchmarked"

[figures.example]
size = [5, 3.2]
title = "Run time of {{{{ n['example-rows'] }}}} commands"
x = {{ title = "command" }}
y = {{ title = "time (s)" }}
layers = [{{ mark = "boxplot", data = "times", x = "command", y = "time" }}]
"#
    )
}

/// The evaluation metrics worth quoting: `eval_*` numbers other than the
/// evaluation's own speed.
fn metrics(s: &Surveyed) -> Vec<&str> {
    s.fields
        .iter()
        .filter(|f| f.name.starts_with("eval_") && super::numeric(f))
        .map(|f| f.name.as_str())
        .filter(|n| !n.ends_with("_runtime") && !n.ends_with("_per_second"))
        .collect()
}

fn trainer(s: &Surveyed) -> String {
    let src = &s.name;
    let has = |name: &str| s.fields.iter().any(|f| f.name == name && super::numeric(f));
    let curves: Vec<&str> = ["loss", "eval_loss"]
        .into_iter()
        .filter(|f| has(f))
        .collect();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# The Trainer's log: one row per logging step (`loss`), per evaluation (`eval_*`), and a last summary row.\n"
    );
    for m in metrics(s) {
        let _ = writeln!(
            o,
            "[numbers.{key}]\ntable = \"{src}\"\nwhere = \"{m} is number\"\nvalue = {{ last = \"{m}\" }}\n\
             format = {{ figures = 4 }}\ndescription = \"{m} at the last evaluation\"\n",
            key = m.replace('_', "-")
        );
    }
    if has("train_loss") {
        let _ = writeln!(
            o,
            "[numbers.train-loss]\ntable = \"{src}\"\nwhere = \"train_loss is number\"\nvalue = {{ last = \"train_loss\" }}\n\
             format = {{ figures = 4 }}\ndescription = \"the mean training loss of the run\"\n"
        );
    }
    if curves.is_empty() {
        // A log without losses: the generic example still shows its fields.
        return o + &super::example(s);
    }
    let list: Vec<String> = curves.iter().map(|c| format!("\"{c}\"")).collect();
    let _ = write!(
        o,
        r#"[tables.curves]
from = "{src}"
steps = [
  {{ fold = [{list}], key = "split", value = "loss_value" }},
  {{ filter = "loss_value is number and step is number" }},
  {{ derive = {{ split = "'training' if split == 'loss' else 'evaluation'" }} }},
]

[numbers.example-rows]
table = "{src}"
where = "{first} is number"
value = "count"
description = "logged {first} values"

[figures.example]
size = [5, 3.2]
title = "Loss"
x = {{ title = "step" }}
y = {{ title = "loss" }}
layers = [{{ mark = "line", data = "curves", x = "step", y = "loss_value", series = "split" }}]
"#,
        list = list.join(", "),
        first = curves[0],
    );
    o
}

fn criterion(src: &str, probed: &Probed) -> String {
    let ids = probed
        .path
        .as_deref()
        .map(|p| p.replace("/new/estimates.json", "/new/benchmark.json"))
        .unwrap_or_default();
    let ids = super::quoted(&ids);
    format!(
        r#"# criterion's estimates are in nanoseconds; its benchmark.json beside each names it.
[sources.{src}_ids]
path = {ids}
records = ""

[tables.benchmarks]
from = "{src}"
steps = [
  {{ derive = {{ dir = "_source.path | dirname" }} }},
  {{ lookup = "ids", on = "dir", fields = ["full_id"] }},
]

[tables.ids]
from = "{src}_ids"
steps = [{{ derive = {{ dir = "_source.path | dirname" }} }}]

# Each benchmark's mean as criterion prints it (`10.309 µs`), e.g. \artnum{{fib_20}}.
[numbers.time]
table = "benchmarks"
each = "{{{{ full_id | slug }}}}"
value = {{ cell = "mean.point_estimate * 1e-9" }}
format = {{ figures = 5, prefix = "si", unit = "s" }}
description = "mean time of {{{{ full_id }}}}"

[numbers.example-rows]
table = "benchmarks"
value = "count"
description = "benchmarks"

[figures.example]
size = [5, 3.2]
title = "Mean time per benchmark (95% confidence interval)"
x = {{ title = "benchmark" }}
y = {{ title = "time", scale = "log", format = {{ prefix = "si", unit = "s" }} }}
layers = [
  {{ mark = "errorbar", data = "benchmarks", x = "full_id", y = "mean.confidence_interval.lower_bound * 1e-9", y2 = "mean.confidence_interval.upper_bound * 1e-9" }},
  {{ mark = "point", data = "benchmarks", x = "full_id", y = "mean.point_estimate * 1e-9" }},
]
"#
    )
}
