//! The whole-paper bench's log: the demo's own `results.jsonl.zst` records,
//! repetition after repetition, up to a size of JSON.
//!
//! Repetition 0 is the records as they are. In repetition r > 0 each
//! `tensor_name` gets the suffix `#r{r}` (tensor names vary per repetition,
//! so `unique` key sets grow with the file, as in a real log of many runs),
//! each float `ratio`, `decompress_MBps` and `compress_MBps` of a `methods`
//! entry is jittered by ±1% (seeded SplitMix64, written with the decimals
//! it had), and the one-off records (`_kind` `run_meta`, `summary_bf16`)
//! are left out. Each line keeps its bytes and key order otherwise: lines
//! are edited as text, found by a small JSON scanner, never re-serialized.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use crate::Rng;

/// What one generated file holds (computed while generating it).
pub struct LogStats {
    pub records: u64,
    /// Distinct `tensor_name` values.
    pub tensor_names: u64,
    pub json_bytes: u64,
    pub compressed_bytes: u64,
}

impl LogStats {
    fn to_text(&self) -> String {
        format!(
            "records {}\ntensor_names {}\njson_bytes {}\ncompressed_bytes {}\n",
            self.records, self.tensor_names, self.json_bytes, self.compressed_bytes
        )
    }
    fn from_text(text: &str) -> Option<LogStats> {
        let get = |key: &str| -> Option<u64> {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
        };
        Some(LogStats {
            records: get("records")?,
            tensor_names: get("tensor_names")?,
            json_bytes: get("json_bytes")?,
            compressed_bytes: get("compressed_bytes")?,
        })
    }
}

/// Kinds that appear once, in repetition 0 only.
const ONE_OFF: &[&str] = &["run_meta", "summary_bf16"];
/// A `methods` entry's fields that are jittered.
const JITTERED: &[&str] = &["ratio", "decompress_MBps", "compress_MBps"];
const SEED: u64 = 20261201;

/// An edit of a line, at a byte offset.
enum Edit {
    /// `#r{r}` before the closing quote of `tensor_name`.
    Suffix(usize),
    /// A float token at `start..end`: the value, its decimals, exponent form.
    Float {
        start: usize,
        end: usize,
        value: f64,
        decimals: usize,
        exp: bool,
    },
}

/// One line of the demo log, ready to be written in any repetition.
struct Line {
    text: String,
    edits: Vec<Edit>,
    one_off: bool,
    tensor_name: Option<String>,
}

/// Where a value sits in a record.
#[derive(Clone, Copy, PartialEq)]
enum At {
    /// The line itself.
    Root,
    /// The record.
    Top,
    /// The record's `methods` object.
    Methods,
    /// One entry of `methods`.
    Entry,
    Other,
}

/// A minimal JSON scanner over one line; records the edits it finds.
struct Scan<'a> {
    s: &'a [u8],
    i: usize,
    edits: Vec<Edit>,
    kind: Option<String>,
    tensor_name: Option<String>,
}

impl Scan<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        self.ws();
        assert!(
            self.s.get(self.i) == Some(&c),
            "demo log: expected {:?} at byte {}",
            c as char,
            self.i
        );
        self.i += 1;
    }
    /// A string; returns the range of its raw contents (escapes as written).
    fn string(&mut self) -> (usize, usize) {
        self.eat(b'"');
        let start = self.i;
        loop {
            match self.s.get(self.i) {
                Some(b'"') => break,
                Some(b'\\') => self.i += 2,
                Some(_) => self.i += 1,
                None => panic!("demo log: unterminated string"),
            }
        }
        self.i += 1;
        (start, self.i - 1)
    }
    /// A value: member `key` of an object at `parent` (an array element has
    /// the key "").
    fn value(&mut self, parent: At, key: &str) {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                let here = match parent {
                    At::Root => At::Top,
                    At::Top if key == "methods" => At::Methods,
                    At::Methods => At::Entry,
                    _ => At::Other,
                };
                self.i += 1;
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return;
                }
                loop {
                    let (a, b) = self.string();
                    let k = std::str::from_utf8(&self.s[a..b])
                        .expect("UTF-8 key")
                        .to_owned();
                    self.eat(b':');
                    self.value(here, &k);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return;
                        }
                        _ => panic!("demo log: bad object at byte {}", self.i),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return;
                }
                loop {
                    self.value(At::Other, "");
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return;
                        }
                        _ => panic!("demo log: bad array at byte {}", self.i),
                    }
                }
            }
            Some(b'"') => {
                let (a, b) = self.string();
                if parent == At::Top && (key == "tensor_name" || key == "_kind") {
                    let text = String::from_utf8(self.s[a..b].to_vec()).expect("UTF-8");
                    if key == "tensor_name" {
                        self.edits.push(Edit::Suffix(b));
                        self.tensor_name = Some(text);
                    } else {
                        self.kind = Some(text);
                    }
                }
            }
            Some(_) => {
                let start = self.i;
                while self.i < self.s.len()
                    && !matches!(self.s[self.i], b',' | b'}' | b']')
                    && !self.s[self.i].is_ascii_whitespace()
                {
                    self.i += 1;
                }
                let token = std::str::from_utf8(&self.s[start..self.i]).expect("UTF-8");
                let float = token.contains(['.', 'e', 'E']);
                if parent == At::Entry && JITTERED.contains(&key) && float {
                    let value: f64 = token.parse().expect("a JSON number");
                    let mantissa = token.split(['e', 'E']).next().unwrap_or(token);
                    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len());
                    self.edits.push(Edit::Float {
                        start,
                        end: self.i,
                        value,
                        decimals,
                        exp: mantissa.len() < token.len(),
                    });
                }
            }
            None => panic!("demo log: truncated line"),
        }
    }
}

fn parse_line(text: &str) -> Line {
    let mut scan = Scan {
        s: text.as_bytes(),
        i: 0,
        edits: Vec::new(),
        kind: None,
        tensor_name: None,
    };
    scan.value(At::Root, "");
    scan.ws();
    assert!(scan.i == text.len(), "demo log: trailing bytes in a line");
    if let Some(name) = &scan.tensor_name {
        // Then `X#r{r}` can never equal another repetition's name.
        assert!(!name.contains("#r"), "demo log: a tensor name with #r");
    }
    scan.edits.sort_by_key(|e| match e {
        Edit::Suffix(at) => *at,
        Edit::Float { start, .. } => *start,
    });
    Line {
        one_off: scan.kind.as_deref().is_some_and(|k| ONE_OFF.contains(&k)),
        tensor_name: scan.tensor_name,
        edits: scan.edits,
        text: text.to_owned(),
    }
}

/// Appends `line` as in repetition `r` (with its newline).
fn write_line(line: &Line, r: u64, rng: &mut Rng, out: &mut String) {
    use std::fmt::Write;
    if r == 0 {
        out.push_str(&line.text);
        out.push('\n');
        return;
    }
    let mut at = 0;
    for edit in &line.edits {
        match *edit {
            Edit::Suffix(pos) => {
                out.push_str(&line.text[at..pos]);
                let _ = write!(out, "#r{r}");
                at = pos;
            }
            Edit::Float {
                start,
                end,
                value,
                decimals,
                exp,
            } => {
                out.push_str(&line.text[at..start]);
                let v = rng.around(value, 0.01);
                let _ = if exp {
                    write!(out, "{v:.decimals$e}")
                } else {
                    write!(out, "{v:.decimals$}")
                };
                at = end;
            }
        }
    }
    out.push_str(&line.text[at..]);
    out.push('\n');
}

/// The log of `mib` MiB of JSON at `path` (generated once; its stats kept
/// beside it in `path.stats`).
pub fn ensure(demo: &Path, path: &Path, mib: u64) -> LogStats {
    let stats_path = path.with_extension("zst.stats");
    if path.exists()
        && let Some(stats) = std::fs::read_to_string(&stats_path)
            .ok()
            .and_then(|t| LogStats::from_text(&t))
    {
        return stats;
    }
    let raw = zstd::stream::decode_all(
        std::fs::File::open(demo).unwrap_or_else(|e| panic!("{}: {e}", demo.display())),
    )
    .expect("decompress the demo's results.jsonl.zst");
    let text = String::from_utf8(raw).expect("the demo log is UTF-8");
    let lines: Vec<Line> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(parse_line)
        .collect();

    let target = mib << 20;
    // Written aside and renamed: an interrupted run leaves no short file.
    let tmp = path.with_extension("zst.tmp");
    let file = std::fs::File::create(&tmp).expect("create the generated log");
    let mut enc = zstd::stream::write::Encoder::new(file, 3).expect("zstd encoder");
    let mut rng = Rng(artifact::stats::SplitMix64(SEED));
    let mut buf = String::with_capacity(2 << 20);
    let (mut written, mut records, mut tensor_names) = (0u64, 0u64, 0u64);
    let mut names: HashSet<&str> = HashSet::new();
    let mut r = 0u64;
    'reps: loop {
        // Names of different repetitions differ (`#r{r}`): the distinct
        // names are the sum of each repetition's distinct names.
        names.clear();
        for line in &lines {
            if written + buf.len() as u64 >= target {
                break 'reps;
            }
            if r > 0 && line.one_off {
                continue;
            }
            write_line(line, r, &mut rng, &mut buf);
            records += 1;
            if let Some(name) = &line.tensor_name {
                names.insert(name);
            }
            if buf.len() >= 1 << 20 {
                enc.write_all(buf.as_bytes())
                    .expect("write the generated log");
                written += buf.len() as u64;
                buf.clear();
            }
        }
        tensor_names += names.len() as u64;
        r += 1;
    }
    tensor_names += names.len() as u64;
    enc.write_all(buf.as_bytes())
        .expect("write the generated log");
    written += buf.len() as u64;
    enc.finish().expect("finish the generated log");
    std::fs::rename(&tmp, path).expect("rename the generated log");
    let stats = LogStats {
        records,
        tensor_names,
        json_bytes: written,
        compressed_bytes: std::fs::metadata(path).expect("the generated log").len(),
    };
    std::fs::write(&stats_path, stats.to_text()).expect("write the log's stats");
    eprintln!(
        "generated {} ({records} records, {tensor_names} distinct tensor names, {} repetitions)",
        path.display(),
        r + 1
    );
    stats
}
