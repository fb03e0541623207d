//! `artifact check --format json`: the report for machines.

use serde_json::{Value, json};

use super::CheckReport;

impl CheckReport {
    /// The report as JSON: `{stale, fast, numbers: [{key, committed, now,
    /// why}], figures and results_tables: [{name, files, why}], edited:
    /// [{file, detail}], stale_files, leftovers, inputs: [{status, file}],
    /// orphaned: [{file, edited}], errors, notes, fix}`. `errors` are the
    /// messages of what could not be computed (exit 2).
    pub fn to_json(&self) -> String {
        let outputs = |list: &[(String, Vec<String>, String)]| -> Vec<Value> {
            list.iter()
                .map(|(name, files, why)| json!({"name": name, "files": files, "why": why}))
                .collect()
        };
        let v = json!({
            "stale": self.stale(),
            "fast": self.fast,
            "numbers": self.numbers.iter().map(|n| json!({
                "key": n.key,
                "committed": n.committed,
                "now": n.now,
                "why": n.why(),
            })).collect::<Vec<_>>(),
            "figures": outputs(&self.figures),
            "results_tables": outputs(&self.results_tables),
            "edited": self.edited.iter().map(|(f, d)| json!({"file": f, "detail": d})).collect::<Vec<_>>(),
            "stale_files": self.stale_files,
            "leftovers": self.leftovers,
            "inputs": self.inputs.iter().map(|(s, f)| json!({"status": s, "file": f})).collect::<Vec<_>>(),
            "orphaned": self.orphaned.iter().map(|(f, e)| json!({"file": f, "edited": e})).collect::<Vec<_>>(),
            "errors": self.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "notes": self.notes,
            "fix": self.fix,
        });
        let mut s = serde_json::to_string_pretty(&v).expect("a report is JSON");
        s.push('\n');
        s
    }
}
