//! The `window` and `joinaggregate` steps and `aggregate` without `group`:
//! exact values (ranks as pandas' `rank(method="min")`, running sums as
//! `np.cumsum`), row order kept, errors at their place.

mod common;
use common::*;

fn show(data: &str, tables: &str, table: &str) -> Result<String, String> {
    show_table(data, None, tables, table)
}

const RUNS: &str = r#"{"suite":"x","benchmark":"A","time":3,"bytes":10}
{"suite":"x","benchmark":"A","time":1,"bytes":20}
{"suite":"y","benchmark":"B","time":2,"bytes":5}
{"suite":"x","benchmark":"B","time":3,"bytes":1}
{"suite":"x","benchmark":"A","time":5,"bytes":2}
"#;

#[test]
fn window_ranks_lags_and_running_values_per_group_in_sort_order_keeping_row_order() {
    // Suite x in time order: rows 2 (t=1), 1 (t=3), 4 (t=3), 5 (t=5);
    // pandas: Series([3, 1, 3, 5]).rank(method="min") == [2, 1, 2, 4];
    // np.cumsum([20, 10, 1, 2]) == [20, 30, 31, 33].
    let csv = show(
        RUNS,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { i = \"row_number\", r = \"rank\", d = \"dense_rank\", pr = \"percent_rank\", prev = { lag = \"time\" }, next = { lead = \"time\", default = -1 }, cum = { sum = \"bytes\" }, avg = { mean = \"time\" }, n = { count = \"time\" }, lo = { min = \"bytes\" }, hi = { max = \"bytes\" } }, per = \"suite\", sort = \"time\" }]\n",
        "w",
    )
    .unwrap();
    assert_eq!(
        csv,
        "suite,benchmark,time,bytes,i,r,d,pr,prev,next,cum,avg,n,lo,hi\n\
         x,A,3,10,2,2,2,0.3333333333333333,1,3,30,2.0,2,10,20\n\
         x,A,1,20,1,1,1,0.0,,3,20,1.0,1,20,20\n\
         y,B,2,5,1,1,1,0.0,,-1,5,2.0,1,5,5\n\
         x,B,3,1,3,2,2,0.3333333333333333,3,5,31,2.3333333333333335,3,1,20\n\
         x,A,5,2,4,4,3,1.0,3,-1,33,3.0,4,1,20\n"
    );
}

#[test]
fn window_lag_offset_and_descending_sort() {
    let csv = show(
        RUNS,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { back2 = { lag = \"bytes\", offset = 2 } }, sort = { by = \"time\", descending = true } }]\n",
        "w",
    )
    .unwrap();
    // Order: rows 5 (t=5), 1 (t=3), 4 (t=3, after 1: stable), 3, 2; two
    // back: row 4 gets row 5's bytes, row 3 row 1's, row 2 row 4's.
    assert_eq!(
        csv,
        "suite,benchmark,time,bytes,back2\nx,A,3,10,\nx,A,1,20,1\ny,B,2,5,10\nx,B,3,1,2\nx,A,5,2,\n"
    );
}

/// A benchmark defined twice in one file (rows A A B B A A) is two blocks,
/// not one pooled group: the block id starts a new block whenever the key
/// changes from the previous row.
#[test]
fn block_ids_keep_a_repeated_benchmark_apart() {
    let data = "{\"b\":\"A\",\"t\":1}\n{\"b\":\"A\",\"t\":2}\n{\"b\":\"B\",\"t\":3}\n{\"b\":\"B\",\"t\":4}\n{\"b\":\"A\",\"t\":10}\n{\"b\":\"A\",\"t\":20}\n";
    let csv = show(
        data,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { block = { block = \"b\" } } }, { group = [\"b\", \"block\"], aggregate = { mean = { mean = \"t\" } } }]\n",
        "w",
    )
    .unwrap();
    assert_eq!(csv, "b,block,mean\nA,0,1.5\nB,1,3.5\nA,2,15.0\n");
}

#[test]
fn joinaggregate_adds_the_group_total_to_every_row() {
    let csv = show(
        RUNS,
        "[tables.j]\nfrom = \"s\"\nsteps = [{ joinaggregate = { total = { sum = \"bytes\" }, n = \"count\" }, per = \"suite\" }, { derive = { share = \"bytes / total\" } }]\n",
        "j",
    )
    .unwrap();
    // x: 10 + 20 + 1 + 2 = 33.
    assert_eq!(
        csv,
        "suite,benchmark,time,bytes,total,n,share\n\
         x,A,3,10,33,4,0.30303030303030304\n\
         x,A,1,20,33,4,0.6060606060606061\n\
         y,B,2,5,5,1,1.0\n\
         x,B,3,1,33,4,0.030303030303030304\n\
         x,A,5,2,33,4,0.06060606060606061\n"
    );
}

#[test]
fn aggregate_without_group_is_one_row_over_the_table() {
    let t = "[tables.a]\nfrom = \"s\"\nsteps = [{ aggregate = { n = \"count\", total = { sum = \"bytes\" }, m = { median = \"time\" } } }]\n";
    assert_eq!(show(RUNS, t, "a").unwrap(), "n,total,m\n5,38,3.0\n");
    // An empty table: count 0 and sum 0 (numpy's sum of nothing); a mean
    // of nothing is an error, as for a number.
    let t = "[tables.a]\nfrom = \"s\"\nsteps = [{ filter = \"time > 100\" }, { aggregate = { n = \"count\", total = { sum = \"bytes\" } } }]\n";
    assert_eq!(show(RUNS, t, "a").unwrap(), "n,total\n0,0\n");
    let t = "[tables.a]\nfrom = \"s\"\nsteps = [{ filter = \"time > 100\" }, { aggregate = { m = { mean = \"time\" } } }]\n";
    let err = show(RUNS, t, "a").unwrap_err();
    assert!(err.contains("no rows to aggregate (`time`)"), "{err}");
}

/// `aggregate` is `group`'s option beside it and a verb alone; `sort` is
/// `window`'s option beside it: other pairs are still two verbs.
#[test]
fn aggregate_and_sort_pair_only_with_their_verbs() {
    let err = show(
        RUNS,
        "[tables.a]\nfrom = \"s\"\nsteps = [{ aggregate = { n = \"count\" }, per = \"suite\" }]\n",
        "a",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:41: `per` does not apply to an `aggregate` step (only to `limit`, `pareto`, `row_number`, `window`, `joinaggregate`, `pivot`); an `aggregate` step takes: aggregate"),
        "{err}"
    );
    let err = show(
        RUNS,
        "[tables.a]\nfrom = \"s\"\nsteps = [{ aggregate = { n = \"count\" }, sort = \"time\" }]\n",
        "a",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:41: a step has exactly one of"),
        "{err}"
    );
    assert!(err.contains("found both `aggregate` and `sort`"), "{err}");
}

#[test]
fn window_errors_name_the_place() {
    // A misspelt operation, at its line and column.
    let err = show(
        RUNS,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { r = \"rnak\" }, sort = \"time\" }]\n",
        "w",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:27: unknown window operation `rnak` (row_number, rank, dense_rank, percent_rank; or a table: lag, lead, sum, mean, count, min, max, block)"),
        "{err}"
    );
    let err = show(
        RUNS,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { r = { sun = \"time\" } } }]\n",
        "w",
    )
    .unwrap_err();
    assert!(
        err.contains(
            "artifact.toml:6:29: unknown key `sun` in a window operation; did you mean `sum`?"
        ),
        "{err}"
    );
    // A rank without an order.
    let err = show(
        RUNS,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { r = \"rank\" } }]\n",
        "w",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:27: window `r`: a rank needs `sort` in the step (the order it ranks by)"),
        "{err}"
    );
    // A field missing from a row names the row.
    let err = show(
        RUNS,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { c = { sum = \"bites\" } } }]\n",
        "w",
    )
    .unwrap_err();
    assert!(err.contains("s.jsonl:1"), "{err}");
    assert!(err.contains("window: no field `bites`"), "{err}");
    // An option of another verb.
    let err = show(
        RUNS,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { i = \"row_number\" }, bins = 3 }]\n",
        "w",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:43: `bins` does not apply to a `window` step (only to `bin`); a `window` step takes: window, sort, per"),
        "{err}"
    );
}

#[test]
fn ranks_give_nulls_and_nan_a_null_rank_and_do_not_count_them_as_pandas() {
    // pandas: Series([2, None, 1, 2]).rank(method="min") == [2, NaN, 1, 2];
    // method="dense" == [2, NaN, 1, 2]; pct over the 3 ranked rows:
    // (rank - 1) / (3 - 1) == [0.5, NaN, 0, 0.5]. row_number numbers all (a missing key sorts before null).
    let data = "{\"t\":2}\n{\"t\":null}\n{\"t\":1}\n{\"t\":2}\n{\"u\":0}\n";
    let csv = show(
        data,
        "[tables.w]\nfrom = \"s\"\nsteps = [{ window = { r = \"rank\", d = \"dense_rank\", pr = \"percent_rank\", i = \"row_number\" }, sort = \"t\" }]\n",
        "w",
    )
    .unwrap();
    assert_eq!(
        csv,
        "t,r,d,pr,i,u\n2,2,2,0.5,4,\n,,,,2,\n1,1,1,0.0,3,\n2,2,2,0.5,5,\n,,,,1,0\n"
    );
}

#[test]
fn pivot_count_skips_null_values_as_pandas() {
    // pandas pivot_table(aggfunc="count") counts non-null values: a 1, b 0.
    let data = "{\"k\":\"a\",\"v\":1}\n{\"k\":\"a\",\"v\":null}\n{\"k\":\"b\",\"v\":null}\n";
    let csv = show(
        data,
        "[tables.p]\nfrom = \"s\"\nsteps = [{ pivot = \"k\", value = \"v\", op = \"count\" }]\n",
        "p",
    )
    .unwrap();
    assert_eq!(csv, "a,b\n1,0\n");
}
