"""Writes the paper-size gallery's data: per-benchmark speedups of a new
allocator over glibc malloc (5 runs each), and request latencies in ms.
Deterministic: a seeded stdlib RNG, rounded values. Run: python3 make_data.py
"""
import csv
import random

rng = random.Random(12)
BENCH = [("xalan", 1.34), ("omnet", 1.21), ("gcc", 1.08), ("perl", 1.15),
         ("redis", 1.42), ("sqlite", 1.11)]


def speedups(path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["benchmark", "run", "speedup"])
        for name, mean in BENCH:
            for run in range(5):
                w.writerow([name, run, f"{rng.gauss(mean, 0.03):.3f}"])


def latency(path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["load", "p50_ms", "p99_ms"])
        for load in range(10, 100, 10):
            p50 = 0.8 + 0.02 * load + rng.uniform(0, 0.05)
            p99 = p50 * (2.0 + 6.0 * (load / 100.0) ** 3) + rng.uniform(0, 0.2)
            w.writerow([load, f"{p50:.3f}", f"{p99:.3f}"])


speedups("speedup.csv")
latency("latency.csv")
# The IEEEtran spec (its own [style]) draws the same speedups.
rng = random.Random(12)
speedups("ieeetran/speedup.csv")
