#!/usr/bin/env python3
"""Generates the heatmap gallery's data (deterministic: seeded, stdlib only).

data/cache_sim.jsonl: one line per simulated run of a key-value cache
  (batch size x cache size x 3 seeds): lookups and hits.
data/speedup.csv: per (benchmark, configuration) the median of 5 timed
  runs of the baseline and of the configuration, in seconds.
data/latency.jsonl: one line per request of a 10-minute load test: its
  start time in seconds and its latency in milliseconds (lognormal, with a
  slowdown in minutes 4 to 6, as a compaction would cause).

Run: python3 make_data.py (writes into data/).
"""
import csv
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(12)


def cache_sim():
    rows = []
    for batch in [1, 4, 16, 64, 256]:
        for cache_mb in [32, 64, 128, 256, 512, 1024]:
            for seed in range(3):
                # Working set grows with the batch; the hit rate saturates
                # once the cache holds it.
                working_set = 90.0 * batch ** 0.45
                p = 1.0 - math.exp(-cache_mb / working_set)
                p = min(0.995, max(0.01, p * 0.97 + rng.gauss(0.0, 0.01)))
                lookups = 200_000
                hits = round(lookups * p)
                rows.append({"batch": batch, "cache_mb": cache_mb, "seed": seed,
                             "lookups": lookups, "hits": hits})
    with open(os.path.join(HERE, "data", "cache_sim.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def speedup():
    benchmarks = ["bfs", "pr", "sssp", "cc", "tc", "bc"]
    # "baseline" is the baseline run again: speedup exactly 1.
    configs = ["baseline", "prefetch", "huge-pages", "numa-bind", "all"]
    effect = {"prefetch": 1.12, "huge-pages": 1.05, "numa-bind": 0.93, "all": 1.18}
    with open(os.path.join(HERE, "data", "speedup.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "config", "baseline_s", "time_s"])
        for b in benchmarks:
            base = rng.uniform(2.0, 9.0)
            sens = rng.uniform(0.4, 1.6)
            w.writerow([b, "baseline", f"{base:.4f}", f"{base:.4f}"])
            for c in configs[1:]:
                s = math.exp(math.log(effect[c]) * sens + rng.gauss(0.0, 0.04))
                w.writerow([b, c, f"{base:.4f}", f"{base / s:.4f}"])


def latency():
    with open(os.path.join(HERE, "data", "latency.jsonl"), "w") as f:
        for i in range(3000):
            t = rng.uniform(0.0, 600.0)
            mu = math.log(6.0) + (0.45 if 240.0 <= t < 360.0 else 0.0)
            ms = min(39.9, rng.lognormvariate(mu, 0.35))
            f.write(json.dumps({"t_s": round(t, 3), "latency_ms": round(ms, 3)}) + "\n")


if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "data"), exist_ok=True)
    cache_sim()
    speedup()
    latency()
