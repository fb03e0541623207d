"""DuckDB peer of fig5's table on a partitioned Parquet dataset, for
`cargo bench --bench big_input -- parquet`.

    python duckdb_parquet_peer.py 'logs/**/*.parquet' [OUT.csv]

Computes what the bench's `[tables.fig5_points]` computes before its Pareto
step, from the dataset the bench writes (`_kind=.../data_0.parquet`, the
`_kind` key in the folder names; `methods` a MAP of VARCHAR to a STRUCT):
records of the three benchmark kinds, one row per entry of `methods`,
entries with a positive ratio and decompress_MBps, grouped by (corpus,
method): count, byte-weighted mean ratio (weight input_bytes), median
decompress_MBps, kept when n >= 5. Prints the row count; with OUT.csv, also
writes the rows (corpus, method, n, ratio, mbps).
"""

import sys

import duckdb

QUERY = """
WITH entries AS (
    SELECT
        CASE WHEN _kind = 'Q4_K_benchmark' THEN 'Q4_K' ELSE 'bf16' END AS corpus,
        input_bytes,
        unnest(map_keys(methods)) AS method,
        unnest(map_values(methods)) AS m
    FROM read_parquet(?, hive_partitioning = true)
    WHERE _kind IN ('bench_bf16_perfile', 'bench_7B', 'Q4_K_benchmark')
      AND methods IS NOT NULL
),
kept AS (
    SELECT corpus, method, input_bytes,
           m.ratio AS ratio, m.decompress_MBps AS mbps
    FROM entries
    WHERE m IS NOT NULL AND m.ratio IS NOT NULL AND m.decompress_MBps IS NOT NULL
)
SELECT corpus, method, count(*) AS n,
       sum(ratio * input_bytes) / sum(input_bytes) AS ratio,
       median(mbps) AS mbps
FROM kept
WHERE ratio > 0 AND mbps > 0
GROUP BY corpus, method
HAVING count(*) >= 5
ORDER BY corpus, method
"""


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    rows = duckdb.execute(QUERY, [sys.argv[1]]).fetchall()
    print(f"{len(rows)} rows")
    if len(sys.argv) == 3:
        with open(sys.argv[2], "w", encoding="utf-8") as out:
            out.write("corpus,method,n,ratio,mbps\n")
            for corpus, method, n, ratio, mbps in rows:
                out.write(f"{corpus},{method},{n},{ratio!r},{mbps!r}\n")


if __name__ == "__main__":
    main()
