"""DuckDB peer of fig5's table, for `cargo bench --bench big_input`.

    python duckdb_peer.py RESULTS.jsonl.zst [OUT.csv]

Computes, from the compression paper's log, what the demo paper's
`[tables.fig5_points]` computes before its Pareto step: records of the three
benchmark kinds, one row per entry of their `methods` object (whose keys vary
from record to record, so it is read as JSON and cast to a MAP, not inferred
as a STRUCT of every key seen), entries with a positive numeric ratio and
decompress_MBps, grouped by (corpus, method): count, byte-weighted mean ratio
(weight input_bytes), median decompress_MBps, kept when n >= 5. Prints the
row count; with OUT.csv, also writes the rows (corpus, method, n, ratio,
mbps) for the bench to compare with artifact's.
"""

import sys

import duckdb

QUERY = """
WITH records AS (
    SELECT _kind, input_bytes, CAST(methods AS MAP(VARCHAR, JSON)) AS methods
    FROM read_json(
        ?,
        format = 'newline_delimited',
        compression = 'zstd',
        columns = {'_kind': 'VARCHAR', 'input_bytes': 'DOUBLE', 'methods': 'JSON'}
    )
    WHERE _kind IN ('bench_bf16_perfile', 'bench_7B', 'Q4_K_benchmark')
      AND json_type(methods) = 'OBJECT'
),
entries AS (
    SELECT
        CASE WHEN _kind = 'Q4_K_benchmark' THEN 'Q4_K' ELSE 'bf16' END AS corpus,
        input_bytes,
        unnest(map_keys(methods)) AS method,
        unnest(map_values(methods)) AS m
    FROM records
),
kept AS (
    SELECT corpus, method, input_bytes,
           CAST(m -> '$.ratio' AS DOUBLE) AS ratio,
           CAST(m -> '$.decompress_MBps' AS DOUBLE) AS mbps
    FROM entries
    WHERE json_type(m) = 'OBJECT'
      AND json_type(m, '$.ratio') IN ('DOUBLE', 'BIGINT', 'UBIGINT')
      AND json_type(m, '$.decompress_MBps') IN ('DOUBLE', 'BIGINT', 'UBIGINT')
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
