"""Writes this gallery's data: seeded, deterministic, standard library only.

cloc.csv      lines of code per language of a research prototype (a cloc run)
speedups.csv  per-benchmark speedup of a new runtime over a baseline
phases.csv    time per phase (ms) of three systems, stacked
"""

import csv
import random

rng = random.Random(26)


def write(name, header, rows):
    with open(name, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


LANGS = [("Rust", 21000), ("Python", 7000), ("C++", 4200), ("Shell", 1300), ("TOML", 600)]
write(
    "cloc.csv",
    ["language", "code"],
    [[lang, int(n * rng.uniform(0.9, 1.1))] for lang, n in LANGS],
)
BENCH = ["bfs", "pagerank", "sssp", "tc", "cc", "bc", "kcore", "spmv"]
write(
    "speedups.csv",
    ["benchmark", "speedup"],
    [[b, round(rng.uniform(0.7, 3.4), 3)] for b in BENCH],
)
rows = []
for s, scale in [("baseline", 1.0), ("cached", 0.7), ("ours", 0.45)]:
    for phase, ms in [("load", 40.0), ("compute", 90.0), ("write", 25.0)]:
        rows.append([s, phase, round(ms * scale * rng.uniform(0.85, 1.15), 1)])
write("phases.csv", ["system", "phase", "ms"], rows)
