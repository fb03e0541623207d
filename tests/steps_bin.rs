//! The `bin` step: edges as `np.histogram_bin_edges`, the last bin closed,
//! bins by width, values outside the extent, errors naming the row.

mod common;
use common::*;

fn show(data: &str, tables: &str, table: &str) -> Result<String, String> {
    show_table(data, None, tables, table)
}

fn rows(xs: &[&str]) -> String {
    xs.iter().map(|x| format!("{{\"x\":{x}}}\n")).collect()
}

#[test]
fn bins_by_count_have_numpys_edges_and_a_closed_last_bin() {
    // np.histogram_bin_edges([0.1, 0.2, 0.3, 0.7, 1.0], bins=3) ==
    // [0.1, 0.4, 0.7, 1.0]; np.histogram puts 0.7 in bin 2 and 1.0 in the
    // closed last bin (checked one value at a time).
    let csv = show(
        &rows(&["0.1", "0.2", "0.3", "0.7", "1.0"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", bins = 3 }]\n",
        "b",
    )
    .unwrap();
    assert_eq!(
        csv,
        "x,bin_x,bin_x_end\n0.1,0.1,0.4\n0.2,0.1,0.4\n0.3,0.1,0.4\n0.7,0.7,1.0\n1.0,0.7,1.0\n"
    );
    // Equal values widen by 0.5 each side: edges [6.5, 7.0, 7.5].
    let csv = show(
        &rows(&["7", "7"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", bins = 2, as = \"b\" }]\n",
        "b",
    )
    .unwrap();
    assert_eq!(csv, "x,b,b_end\n7,7.0,7.5\n7,7.0,7.5\n");
}

#[test]
fn bins_by_width_sit_on_multiples_of_it() {
    let csv = show(
        &rows(&["3", "17", "20", "-4"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", step = 10, as = \"bin\" }]\n",
        "b",
    )
    .unwrap();
    // Edges -10, 0, 10, 20: 20 is the closed end of the last bin.
    assert_eq!(
        csv,
        "x,bin,bin_end\n3,0.0,10.0\n17,10.0,20.0\n20,10.0,20.0\n-4,-10.0,0.0\n"
    );
    // Outside the extent: null bins.
    let csv = show(
        &rows(&["3", "17", "20", "-4"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", step = 5, extent = [0, 20], as = \"bin\" }]\n",
        "b",
    )
    .unwrap();
    assert_eq!(
        csv,
        "x,bin,bin_end\n3,0.0,5.0\n17,15.0,20.0\n20,15.0,20.0\n-4,,\n"
    );
}

#[test]
fn bin_errors_name_the_row_or_the_key() {
    let err = show(
        "{\"x\":1}\n{\"x\":\"fast\"}\n",
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\" }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains("bin: s.jsonl:2: field `x`: expected a number, found string \"fast\""),
        "{err}"
    );
    let err = show(
        &rows(&["1"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", bins = 0 }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:30: `bins` is 1 to 100000"),
        "{err}"
    );
    let err = show(
        &rows(&["1"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", bins = 3, step = 2 }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains("artifact.toml:6:23: `bins` cannot be given with `step` in a `bin` step"),
        "{err}"
    );
    let err = show(
        &rows(&["1", "1e9"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", step = 1 }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains("bin: `step = 1` over [1, 1000000000] makes 999999999 bins, more than 100000"),
        "{err}"
    );
    let err = show(
        &rows(&["1"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", extent = [5, 1] }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains(
            "artifact.toml:6:32: `extent` is [start, end], two finite numbers, start below end"
        ),
        "{err}"
    );
}

#[test]
fn bin_edges_that_overflow_or_do_not_grow_are_an_error_not_null_bins() {
    let err = show(
        &rows(&["1.7e308", "-1.7e308", "0"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", bins = 4 }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains("bin `x`: 4 bins over [-1.7e308, 1.7e308] give edges that are not finite or not strictly increasing; give `extent` or scale the field"),
        "{err}"
    );
    let err = show(
        &rows(&["5e-324", "0"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", bins = 4 }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains("bin `x`: 4 bins over [0e0, 5e-324] give edges that are not finite or not strictly increasing"),
        "{err}"
    );
    let err = show(
        &rows(&["1e20"]),
        "[tables.b]\nfrom = \"s\"\nsteps = [{ bin = \"x\", step = 100, extent = [1e20, 1.0000000000000066e20] }]\n",
        "b",
    )
    .unwrap_err();
    assert!(
        err.contains("not finite or not strictly increasing"),
        "{err}"
    );
}
