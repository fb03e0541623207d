//! `fold` (wide to long), `pivot` (long to wide), `lookup` on keys named
//! differently, and `explode` of a map made by a derive: exact values and
//! errors.

mod common;
use common::*;

fn show(data: &str, other: &str, tables: &str, table: &str) -> Result<String, String> {
    show_table(data, Some(other), tables, table)
}

const WIDE: &str = "{\"codec\":\"zstd\",\"compress_s\":1.5,\"decompress_s\":0.25}\n{\"codec\":\"gzip\",\"compress_s\":3}\n";

#[test]
fn fold_makes_one_row_per_field_with_null_for_a_missing_one() {
    let csv = show(
        WIDE,
        "",
        "[tables.f]\nfrom = \"s\"\nsteps = [{ fold = [\"compress_s\", \"decompress_s\"], key = \"phase\", value = \"seconds\" }]\n",
        "f",
    )
    .unwrap();
    assert_eq!(
        csv,
        "codec,phase,seconds\nzstd,compress_s,1.5\nzstd,decompress_s,0.25\ngzip,compress_s,3\ngzip,decompress_s,\n"
    );
}

const LONG: &str = "{\"dataset\":\"a\",\"codec\":\"zstd\",\"ratio\":3}\n{\"dataset\":\"a\",\"codec\":\"gzip\",\"ratio\":2.5}\n{\"dataset\":\"b\",\"codec\":\"gzip\",\"ratio\":2}\n{\"dataset\":\"b\",\"codec\":\"lz4\",\"ratio\":1.5}\n{\"dataset\":\"b\",\"codec\":\"gzip\",\"ratio\":4}\n";

#[test]
fn pivot_makes_one_field_per_value_in_first_seen_order() {
    let t = |op: &str| {
        format!(
            "[tables.p]\nfrom = \"s\"\nsteps = [{{ pivot = \"codec\", value = \"ratio\", per = \"dataset\"{op} }}]\n"
        )
    };
    // b meets gzip twice: 2 + 4, mean 3.0, count 2; a has no lz4 (null).
    assert_eq!(
        show(LONG, "", &t(", op = \"sum\""), "p").unwrap(),
        "dataset,zstd,gzip,lz4\na,3,2.5,\nb,,6,1.5\n"
    );
    assert_eq!(
        show(LONG, "", &t(", op = \"mean\""), "p").unwrap(),
        "dataset,zstd,gzip,lz4\na,3.0,2.5,\nb,,3.0,1.5\n"
    );
    assert_eq!(
        show(LONG, "", &t(", op = \"count\""), "p").unwrap(),
        "dataset,zstd,gzip,lz4\na,1,1,\nb,,2,1\n"
    );
    assert_eq!(
        show(LONG, "", &t(", op = \"max\""), "p").unwrap(),
        "dataset,zstd,gzip,lz4\na,3,2.5,\nb,,4,1.5\n"
    );
    assert_eq!(
        show(LONG, "", &t(", op = \"first\""), "p").unwrap(),
        "dataset,zstd,gzip,lz4\na,3,2.5,\nb,,2,1.5\n"
    );
    // Without op, the repeat is an error naming both rows.
    let err = show(LONG, "", &t(""), "p").unwrap_err();
    assert!(
        err.contains("s.jsonl:5: field `codec`: pivot: `codec` = \"gzip\" repeats in group (b) (first at s.jsonl:3); give `op` (sum, mean, min, max, count, first, last) to combine them"),
        "{err}"
    );
}

#[test]
fn fold_then_pivot_round_trips() {
    let csv = show(
        WIDE,
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ fold = [\"compress_s\", \"decompress_s\"] }, { pivot = \"key\", per = \"codec\" }]\n",
        "p",
    )
    .unwrap();
    assert_eq!(
        csv,
        "codec,compress_s,decompress_s\nzstd,1.5,0.25\ngzip,3,\n"
    );
}

#[test]
fn pivot_errors() {
    let err = show(
        "{\"k\":null,\"v\":1}\n",
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ pivot = \"k\", value = \"v\" }]\n",
        "p",
    )
    .unwrap_err();
    assert!(
        err.contains("s.jsonl:1: field `k`: pivot: a new field's name must be a string or a number, found null"),
        "{err}"
    );
    let err = show(
        "{\"k\":1,\"v\":1}\n",
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ pivot = \"k\", value = \"v\", op = \"median\" }]\n",
        "p",
    )
    .unwrap_err();
    assert!(err.contains("artifact.toml:8:43: unknown pivot op `median` (sum, mean, min, max, count, first, last)"), "{err}");
    // One field per value, at most 1000.
    let data: String = (0..1001)
        .map(|i| format!("{{\"k\":{i},\"v\":1}}\n"))
        .collect();
    let err = show(
        &data,
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ pivot = \"k\", value = \"v\" }]\n",
        "p",
    )
    .unwrap_err();
    assert!(
        err.contains("s.jsonl:1001: field `k`: pivot: `k` has more than 1000 distinct values (a pivot makes one field per value)"),
        "{err}"
    );
    // `op` is the pivot's alone.
    let err = show(
        WIDE,
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ fold = [\"compress_s\"], op = \"sum\" }]\n",
        "p",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:8:35: `op` does not apply to a `fold` step (only to `pivot`); a `fold` step takes: fold, key, value"),
        "{err}"
    );
}

const QUESTIONS: &str = "{\"question_name\":\"q1\",\"lang\":\"en\",\"score\":3}\n{\"question_name\":\"q2\",\"lang\":\"de\",\"score\":5}\n{\"question_name\":\"q9\",\"lang\":\"en\",\"score\":1}\n";
const META: &str = "{\"name\":\"q1\",\"language\":\"en\",\"topic\":\"math\"}\n{\"name\":\"q2\",\"language\":\"de\",\"topic\":\"art\"}\n{\"name\":\"q2\",\"language\":\"en\",\"topic\":\"law\"}\n";

#[test]
fn lookup_joins_keys_of_different_names() {
    let csv = show(
        QUESTIONS,
        META,
        "[tables.m]\nfrom = \"q\"\nsteps = [{ filter = \"language == 'en' or name == 'q2' and language == 'de'\" }, { unique = \"name\", keep = \"first\" }]\n[tables.j]\nfrom = \"s\"\nsteps = [{ lookup = \"m\", on = { left = \"question_name\", right = \"name\" }, fields = [\"topic\"], unmatched = \"keep\" }]\n",
        "j",
    )
    .unwrap();
    assert_eq!(
        csv,
        "question_name,lang,score,topic\nq1,en,3,math\nq2,de,5,art\nq9,en,1,\n"
    );
    // Several fields, paired in order.
    let csv = show(
        QUESTIONS,
        META,
        "[tables.j]\nfrom = \"s\"\nsteps = [{ lookup = \"q\", on = { left = [\"question_name\", \"lang\"], right = [\"name\", \"language\"] }, fields = [\"topic\"] }]\n",
        "j",
    )
    .unwrap();
    assert_eq!(
        csv,
        "question_name,lang,score,topic\nq1,en,3,math\nq2,de,5,art\n"
    );
    let err = show(
        QUESTIONS,
        META,
        "[tables.j]\nfrom = \"s\"\nsteps = [{ lookup = \"q\", on = { left = [\"question_name\", \"lang\"], right = \"name\" } }]\n",
        "j",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:8:31: `on.left` names 2 field(s) and `on.right` 1: they pair up one to one"),
        "{err}"
    );
    let err = show(
        QUESTIONS,
        META,
        "[tables.j]\nfrom = \"s\"\nsteps = [{ lookup = \"q\", on = { left = \"question_name\", rihgt = \"name\" } }]\n",
        "j",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:8:31: unknown key `rihgt` in `on` (left, right)"),
        "{err}"
    );
}

/// `{ derive = { m = "{'a': x, 'b': y}" } }` then `explode = "m"` was
/// refused with "explode needs a mapping or a list, found a mapping".
#[test]
fn explode_of_a_map_built_by_a_derive() {
    let data = "{\"x\":1,\"y\":2}\n{\"x\":3,\"y\":4}\n";
    let csv = show(
        data,
        "",
        "[tables.e]\nfrom = \"s\"\nsteps = [{ derive = { m = \"{'b': y, 'a': x}\" } }, { explode = \"m\", key = \"k\", value = \"v\" }]\n",
        "e",
    )
    .unwrap();
    assert_eq!(csv, "x,y,k,v\n1,2,b,2\n1,2,a,1\n3,4,b,4\n3,4,a,3\n");
    // On the streamed path to a group, too.
    let csv = show(
        data,
        "",
        "[tables.e]\nfrom = \"s\"\nsteps = [{ derive = { m = \"{'b': y, 'a': x}\" } }, { explode = \"m\", key = \"k\", value = \"v\" }, { group = \"k\", aggregate = { s = { sum = \"v\" } } }]\n",
        "e",
    )
    .unwrap();
    assert_eq!(csv, "k,s\nb,6\na,4\n");
}

#[test]
fn pivot_values_1_and_1_0_are_one_column_as_the_group_steps_key() {
    let data = "{\"g\":\"a\",\"k\":1,\"v\":2}\n{\"g\":\"a\",\"k\":1.0,\"v\":3}\n{\"g\":\"b\",\"k\":2,\"v\":4}\n";
    let csv = show(
        data,
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ pivot = \"k\", value = \"v\", per = \"g\", op = \"sum\" }]\n",
        "p",
    )
    .unwrap();
    assert_eq!(csv, "g,1,2\na,5,\nb,,4\n");
    // A string "1" and a number 1 would both name field `1`.
    let data = "{\"k\":1,\"v\":2}\n{\"k\":\"1\",\"v\":3}\n";
    let err = show(
        data,
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ pivot = \"k\", value = \"v\" }]\n",
        "p",
    )
    .unwrap_err();
    assert!(
        err.contains("s.jsonl:2: field `k`: pivot: `k` = \"1\" and another value of another type both name the field `1`"),
        "{err}"
    );
}

#[test]
fn pivot_streams_holding_one_accumulator_row_per_group() {
    // Streamed (after row-wise steps) and not (after a sort, which holds
    // the rows) give the same rows; the streamed pivot never holds the
    // input rows.
    let data: String = (0..3000)
        .map(|i| format!("{{\"g\":{},\"k\":\"c{}\",\"v\":{i}}}\n", i % 3, i % 2))
        .collect();
    let streamed = show(
        &data,
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ filter = \"v >= 0\" }, { pivot = \"k\", value = \"v\", per = \"g\", op = \"sum\" }]\n",
        "p",
    )
    .unwrap();
    let whole = show(
        &data,
        "",
        "[tables.p]\nfrom = \"s\"\nsteps = [{ sort = \"v\" }, { pivot = \"k\", value = \"v\", per = \"g\", op = \"sum\" }]\n",
        "p",
    )
    .unwrap();
    // sum of i < 3000 with i % 3 == g and i % 2 == k.
    let cell = |g: usize, k: usize| {
        (0..3000)
            .filter(|i| i % 3 == g && i % 2 == k)
            .sum::<usize>()
    };
    let want = format!(
        "g,c0,c1\n0,{},{}\n1,{},{}\n2,{},{}\n",
        cell(0, 0),
        cell(0, 1),
        cell(1, 0),
        cell(1, 1),
        cell(2, 0),
        cell(2, 1)
    );
    assert_eq!(streamed, want);
    assert_eq!(whole, want);
}

/// A lookup on a stream whose table has a key twice named the first
/// streamed step, not the lookup, when the serial stage began with another
/// step.
#[test]
fn a_lookup_table_with_a_key_twice_names_the_lookup_step_on_a_stream() {
    let err = show(
        "{\"k\":1,\"x\":2}\n{\"k\":2,\"x\":3}\n",
        "{\"k\":1,\"t\":\"a\"}\n{\"k\":1,\"t\":\"b\"}\n",
        "[tables.j]\nfrom = \"s\"\nsteps = [{ filter = \"x > 0\" }, { unique = \"k\" }, { lookup = \"q\", on = \"k\" }]\n",
        "j",
    )
    .unwrap_err();
    assert!(
        err.contains("table `j`, step 3 (lookup, artifact.toml line 8): lookup: `q` has key (1) twice: q.jsonl:1 and q.jsonl:2"),
        "{err}"
    );
}
