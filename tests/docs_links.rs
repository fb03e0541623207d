//! The documentation's links hold: every relative link in README.md,
//! ARCHITECTURE.md and docs/**/*.md names a file that exists, and an
//! `#anchor` into a markdown file names one of its headings (GitHub's
//! slugs); docs/SUMMARY.md lists every page of the book, and every page it
//! lists exists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.md` file under `dir`, sorted.
fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            // mdbook's output, when built in place, is not a source page.
            if path.file_name().is_some_and(|n| n == "book") {
                continue;
            }
            markdown_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

fn pages() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    markdown_under(&root().join("docs"), &mut files);
    files
}

/// The fence a line opens (CommonMark: three or more backticks or tildes,
/// indented at most three spaces; a backtick fence's info string holds no
/// backtick, so "``` `x` ```" is inline code, not a fence).
fn fence_open(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next()?;
    if ch != '`' && ch != '~' {
        return None;
    }
    let n = rest.chars().take_while(|&c| c == ch).count();
    if n < 3 || (ch == '`' && rest[n..].contains('`')) {
        return None;
    }
    Some((ch, n))
}

/// Whether a line closes a fence opened with `n` of `ch`.
fn fence_close(line: &str, (ch, n): (char, usize)) -> bool {
    let t = line.trim();
    t.len() >= n && t.chars().all(|c| c == ch)
}

/// The text outside fenced code blocks and inline code spans, line by line
/// (a link in an example is not a link of the page).
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(f) = fence {
            if fence_close(line, f) {
                fence = None;
            }
            continue;
        }
        if let Some(f) = fence_open(line) {
            fence = Some(f);
            continue;
        }
        // Drop inline code spans.
        let mut kept = String::new();
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                kept.push(c);
            }
        }
        out.push((i + 1, kept));
    }
    out
}

/// The targets of `[text](target)` links and `![alt](target)` images on a line.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(pos) = line[i..].find("](") {
        let start = i + pos + 2;
        let mut depth = 0;
        let mut end = start;
        while end < bytes.len() {
            match bytes[end] {
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                _ => {}
            }
            end += 1;
        }
        let target = line[start..end].trim();
        // `[text](url "title")`
        let target = target.split_whitespace().next().unwrap_or("");
        out.push(target.trim_matches(['<', '>']).to_string());
        i = end.min(bytes.len());
        if i >= bytes.len() {
            break;
        }
    }
    out
}

/// GitHub's heading anchor: lowercase; spaces to `-`; every character
/// other than a letter, a digit, `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown file's headings (a repeated heading gets
/// `-1`, `-2`, ... as on GitHub).
fn anchors(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut seen = BTreeSet::new();
    let mut fence: Option<(char, usize)> = None;
    for line in text.lines() {
        if let Some(f) = fence {
            if fence_close(line, f) {
                fence = None;
            }
            continue;
        }
        if let Some(f) = fence_open(line) {
            fence = Some(f);
            continue;
        }
        if !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        // Headings are read as text: code spans and links keep their words.
        let plain: String = title.replace('`', "");
        let base = slug(&plain);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("Numbers: printed text and formats"),
        "numbers-printed-text-and-formats"
    );
    assert_eq!(slug("check --fast"), "check---fast");
    assert_eq!(
        slug("Logs that outgrew one machine: Parquet"),
        "logs-that-outgrew-one-machine-parquet"
    );
    assert_eq!(slug("row_number & more"), "row_number--more");
}

#[test]
fn every_relative_link_points_to_a_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let shown = page.strip_prefix(root()).unwrap().display().to_string();
        for (line_no, line) in prose_lines(&text) {
            for target in link_targets(&line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, anchor) = match target.split_once('#') {
                    Some((f, a)) => (f, Some(a)),
                    None => (target.as_str(), None),
                };
                let resolved = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                if !resolved.exists() {
                    broken.push(format!("{shown}:{line_no}: `{target}`: no such file"));
                    continue;
                }
                if let Some(anchor) = anchor
                    && resolved.extension().is_some_and(|e| e == "md")
                    && !anchors(&resolved).contains(anchor)
                {
                    broken.push(format!(
                        "{shown}:{line_no}: `{target}`: no heading with the anchor `#{anchor}`"
                    ));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the scan broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn summary_lists_every_page_and_only_pages_that_exist() {
    let docs = root().join("docs");
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).unwrap();
    let mut listed = BTreeSet::new();
    let mut missing = Vec::new();
    for (line_no, line) in prose_lines(&summary) {
        for target in link_targets(&line) {
            let file = target.split('#').next().unwrap().to_string();
            if !docs.join(&file).is_file() {
                missing.push(format!("SUMMARY.md:{line_no}: `{file}` does not exist"));
            }
            listed.insert(file);
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    let mut files = Vec::new();
    markdown_under(&docs, &mut files);
    let unlisted: Vec<String> = files
        .iter()
        .map(|f| {
            f.strip_prefix(&docs)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .filter(|f| f != "SUMMARY.md" && !listed.contains(f))
        .collect();
    assert!(
        unlisted.is_empty(),
        "pages of docs/ that docs/SUMMARY.md does not list: {unlisted:?}"
    );
}
