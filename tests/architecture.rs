//! The layering of `src/` (ARCHITECTURE.md, "Code map"), pinned.
//!
//! Every top-level module of the crate belongs to one layer; a module may
//! import (`crate::NAME`, anywhere in its non-test code, doc links
//! included) from its own layer or the layers below, never from a layer
//! above, and the top-level modules import each other without a circle.
//! A new top-level module must be given a layer here before it builds.
//! Test code (after a file's first `#[cfg(test)]`, and files declared as
//! `#[cfg(test)] mod NAME;`) may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, top first: (layer, its top-level modules). Keep in step
/// with ARCHITECTURE.md.
const LAYERS: &[(&str, &[&str])] = &[
    ("binary", &["main"]),
    (
        "commands",
        &[
            "lib", "check", "diff", "evaluate", "hook", "init", "inspect", "lint", "watch",
        ],
    ),
    ("run", &["run", "fingerprint", "lock", "output"]),
    ("outputs", &["emit", "results", "render"]),
    ("stages", &["figures", "numbers"]),
    ("tables", &["tables"]),
    ("sources", &["sources"]),
    ("plan", &["plan"]),
    ("languages", &["expr", "format"]),
    ("spec", &["spec"]),
    (
        "foundation",
        &[
            "value", "error", "stats", "console", "progress", "color", "font", "ticks", "files",
        ],
    ),
];

/// One `crate::NAME` found in a module's code.
#[derive(Debug)]
struct Import {
    from: String,
    to: String,
    at: String,
}

/// The top-level module a file under `root` belongs to (`lib` for
/// `lib.rs`, `main` for `main.rs`).
fn module_of(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Files declared `#[cfg(test)] mod NAME;` by another file: test code.
fn test_files(files: &[PathBuf], texts: &BTreeMap<PathBuf, String>) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for f in files {
        let text = &texts[f];
        let dir = match f.file_name().unwrap().to_str().unwrap() {
            "mod.rs" | "lib.rs" | "main.rs" => f.parent().unwrap().to_path_buf(),
            name => f.parent().unwrap().join(name.trim_end_matches(".rs")),
        };
        let mut rest = text.as_str();
        while let Some(i) = rest.find("#[cfg(test)]") {
            rest = &rest[i + "#[cfg(test)]".len()..];
            let next = rest.trim_start();
            let next = next.strip_prefix("pub(crate) ").unwrap_or(next);
            let next = next.strip_prefix("pub ").unwrap_or(next);
            if let Some(decl) = next.strip_prefix("mod ")
                && let Some((name, _)) = decl.split_once(';')
                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            {
                out.insert(dir.join(format!("{name}.rs")));
                out.insert(dir.join(name).join("mod.rs"));
            }
        }
    }
    out
}

/// The leading name of a path: `value` of `value::Row;`.
fn head(path: &str) -> &str {
    let end = path
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(path.len());
    &path[..end]
}

/// The leading names of a `use` group's members, `group` starting after
/// its `{`: `error` and `run` of `error::Result, run::{A, B}};`.
fn group_heads(group: &str) -> Vec<&str> {
    let mut out = vec![head(group.trim_start())];
    let mut depth = 1;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => break,
            '}' => depth -= 1,
            ',' if depth == 1 => out.push(head(group[i + 1..].trim_start())),
            _ => {}
        }
    }
    out
}

/// The `crate::NAME` paths of every file's non-test code, as imports
/// between top-level modules (`use crate::{a, b::c}` counts `a` and `b`).
fn imports(root: &Path) -> (BTreeSet<String>, Vec<Import>) {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let texts: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|f| (f.clone(), std::fs::read_to_string(f).unwrap()))
        .collect();
    let tests = test_files(&files, &texts);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(root, f)).collect();
    let mut out = Vec::new();
    for f in files.iter().filter(|f| !tests.contains(*f)) {
        let from = module_of(root, f);
        let text = &texts[f];
        let code = text
            .find("#[cfg(test)]")
            .map_or(text.as_str(), |i| &text[..i]);
        for (n, line) in code.lines().enumerate() {
            let at = format!("{}:{}", f.strip_prefix(root).unwrap().display(), n + 1);
            let mut rest = line;
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + "crate::".len()..];
                let names = match rest.strip_prefix('{') {
                    Some(group) => group_heads(group),
                    None => vec![head(rest)],
                };
                for to in names {
                    if modules.contains(to) && to != from {
                        out.push(Import {
                            from: from.clone(),
                            to: to.to_string(),
                            at: at.clone(),
                        });
                    }
                }
            }
        }
    }
    (modules, out)
}

/// The problems of the tree at `root` against [`LAYERS`]: modules with no
/// layer, imports that go up a layer, circles between top-level modules.
fn problems(root: &Path) -> Vec<String> {
    let rank: BTreeMap<&str, (usize, &str)> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (layer, mods))| mods.iter().map(move |m| (*m, (i, *layer))))
        .collect();
    let (modules, imports) = imports(root);
    let mut out = Vec::new();
    for m in &modules {
        if !rank.contains_key(m.as_str()) {
            out.push(format!(
                "module `{m}` has no layer in tests/architecture.rs"
            ));
        }
    }
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for i in &imports {
        edges.entry(&i.from).or_default().insert(&i.to);
        if let (Some((a, la)), Some((b, lb))) = (rank.get(i.from.as_str()), rank.get(i.to.as_str()))
            && b < a
        {
            out.push(format!(
                "{}: `{}` ({la}) imports `{}` ({lb}), a layer above it",
                i.at, i.from, i.to
            ));
        }
    }
    out.extend(
        circles(&edges)
            .into_iter()
            .map(|c| format!("circle between {}", c.join(", "))),
    );
    out
}

/// The groups of modules that import each other in a circle (strongly
/// connected components of more than one module), each sorted.
fn circles<'a>(edges: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&'a str> = edges
        .iter()
        .flat_map(|(a, bs)| std::iter::once(*a).chain(bs.iter().copied()))
        .collect();
    let reach = |from: &'a str| -> BTreeSet<&'a str> {
        let mut seen = BTreeSet::from([from]);
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            for &m in edges.get(n).into_iter().flatten() {
                if seen.insert(m) {
                    stack.push(m);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&str, BTreeSet<&str>> = nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out: BTreeSet<Vec<String>> = BTreeSet::new();
    for n in &nodes {
        let group: Vec<String> = nodes
            .iter()
            .filter(|m| reached[n].contains(*m) && reached[*m].contains(n))
            .map(|m| m.to_string())
            .collect();
        if group.len() > 1 {
            out.insert(group);
        }
    }
    out.into_iter().collect()
}

#[test]
fn every_import_goes_down_a_layer_and_no_modules_form_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = problems(&root);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_layers_name_every_module_once() {
    let mut seen = BTreeSet::new();
    for (_, mods) in LAYERS {
        for m in *mods {
            assert!(seen.insert(*m), "`{m}` is in two layers");
        }
    }
}

/// A tree with an upward import and a circle: the check must see both,
/// and a test module's import must not count.
#[test]
fn an_upward_import_and_a_circle_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |rel: &str, text: &str| {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("lib.rs", "pub mod value;\npub mod run;\n");
    write(
        "value.rs",
        "use crate::{error::Result, run::Build};\n#[cfg(test)]\nmod tests;\n",
    );
    write("value/tests.rs", "use crate::lint::x;\n");
    write("run.rs", "use crate::value::Value;\n");
    write("error.rs", "//! Errors.\n");
    write("lint.rs", "use crate::run;\n");
    let found = problems(src);
    assert_eq!(
        found,
        [
            "value.rs:1: `value` (foundation) imports `run` (run), a layer above it",
            "circle between run, value",
        ],
        "{found:#?}"
    );
}
