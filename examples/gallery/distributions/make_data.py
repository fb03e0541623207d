"""Generates this gallery's data: deterministic (seeded), standard library only.

    python3 make_data.py

writes data/latency.csv (request latency samples per system, ms),
data/loss.csv (training loss per step and seed), data/memory.csv (GPU
memory per component over time, stacked bounds) and data/speedup.csv
(per-benchmark speedups, five runs each) and data/decode.csv (per-token
decode time per batch size, ms: two modes) and data/loss_opt.csv (loss
per optimizer, step and seed).
"""

import csv
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, header, rows):
    os.makedirs(os.path.join(HERE, "data"), exist_ok=True)
    with open(os.path.join(HERE, "data", name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def latency(rng):
    # Log-normal service times with a heavy tail: a few requests hit a
    # slow path (a cache miss, a GC pause) and take several times longer.
    systems = [("baseline", 12.0, 0.45, 0.04), ("cached", 7.5, 0.35, 0.02), ("prefetch", 5.0, 0.30, 0.01)]
    rows = []
    for name, median, sigma, slow in systems:
        for i in range(300):
            v = rng.lognormvariate(math.log(median), sigma)
            if rng.random() < slow:
                v *= rng.uniform(4.0, 10.0)
            rows.append([name, i, round(v, 3)])
    return rows


def loss(rng):
    rows = []
    for seed in range(5):
        lr_jitter = rng.uniform(0.9, 1.1)
        for step in range(0, 2001, 100):
            base = 0.35 + 2.1 * math.exp(-step / (450.0 * lr_jitter))
            rows.append([step, seed, round(base + rng.gauss(0, 0.04), 4)])
    return rows


def memory(rng):
    comps = [("weights", lambda t: 13.5), ("kv_cache", lambda t: 0.12 * t), ("activations", lambda t: 2.0 + 1.5 * math.sin(t / 6.0) ** 2)]
    rows = []
    for t in range(0, 61, 2):
        lower = 0.0
        for name, f in comps:
            v = round(f(t) + rng.uniform(0.0, 0.2), 3)
            rows.append([t, name, v, round(lower, 3), round(lower + v, 3)])
            lower += v
    return rows


def speedup(rng):
    benches = [("bfs", 1.8), ("pagerank", 2.4), ("sssp", 1.3), ("tc", 3.1), ("cc", 2.0)]
    rows = []
    for name, mean in benches:
        for run in range(5):
            rows.append([name, run, round(mean * rng.gauss(1.0, 0.06), 4)])
    return rows


def decode(rng):
    # Per-token decode time: a fast mode, and a slower one when the step
    # also runs a prefill chunk (more often at larger batches).
    rows = []
    for batch, fast, slow, p_slow in [(1, 9.0, 14.0, 0.15), (8, 11.0, 17.0, 0.3), (32, 15.0, 22.0, 0.45)]:
        for i in range(200):
            mu = slow if rng.random() < p_slow else fast
            rows.append([f"batch {batch}", i, round(rng.gauss(mu, 1.2), 3)])
    return rows


def loss_by_optimizer(rng):
    # Two optimizers, five seeds each: AdamW converges faster, SGD is noisier.
    rows = []
    for name, tau, floor, noise in [("adamw", 300.0, 0.30, 0.03), ("sgd", 700.0, 0.45, 0.06)]:
        for seed in range(5):
            for step in range(0, 2001, 100):
                base = floor + 2.1 * math.exp(-step / tau)
                rows.append([name, step, seed, round(base + rng.gauss(0, noise), 4)])
    return rows


def main():
    rng = random.Random(12)
    write("latency.csv", ["system", "request", "latency_ms"], latency(rng))
    write("loss.csv", ["step", "seed", "loss"], loss(rng))
    write("memory.csv", ["time_s", "component", "mem_gb", "lower_gb", "upper_gb"], memory(rng))
    write("speedup.csv", ["benchmark", "run", "speedup"], speedup(rng))
    write("decode.csv", ["batch", "token", "decode_ms"], decode(rng))
    write("loss_opt.csv", ["optimizer", "step", "seed", "loss"], loss_by_optimizer(rng))


if __name__ == "__main__":
    main()
