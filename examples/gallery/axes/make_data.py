"""Writes the axes gallery's data (deterministic: seeded, stdlib only).

Run from this folder: python3 make_data.py
"""
import csv
import math
import random

rng = random.Random(12)


def write(name, header, rows):
    with open(f"data/{name}.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


# Latency (ms) against offered load (ops/s), two servers: an M/M/1-like
# knee near each one's capacity.
rows = []
for system, capacity in [("epoll", 2.0e6), ("io_uring", 6.0e6)]:
    for i in range(16):
        load = min(10 ** (3 + i * 0.25), 0.995 * capacity)
        if rows and rows[-1][0] == system and float(rows[-1][1]) >= load:
            continue
        service = 1e3 / capacity  # ms per op
        p50 = service / (1 - load / capacity) * 1e3 * (1 + 0.05 * rng.random())
        p99 = p50 * (4.6 + 0.4 * rng.random())
        rows.append([system, f"{load:.0f}", f"{p50:.4g}", f"{p99:.4g}"])
write("latency", ["system", "load", "p50_ms", "p99_ms"], rows)

# Relative change (%) of 40 benchmarks after a compiler change: most near
# 0, a few large regressions and wins (heavy tails on both sides).
rows = []
for i in range(40):
    x = rng.gauss(0, 3)
    if i % 9 == 0:
        x = rng.choice([-1, 1]) * 10 ** rng.uniform(1.5, 3.3)
    rows.append([i + 1, f"bench{i + 1:02d}", f"{x:.2f}"])
write("change", ["index", "benchmark", "change_pct"], rows)

# Cache hit rate by batch size.
rows = []
for b in [1, 2, 4, 8, 16, 32, 64, 128, 256]:
    hit = 0.97 - 0.55 / (1 + math.exp(-(math.log2(b) - 5)))
    rows.append([b, f"{hit + rng.uniform(-0.01, 0.01):.4f}"])
write("hitrate", ["batch", "hit_rate"], rows)

# Throughput (ops/s) of key-value stores, 10k to 10G.
stores = ["sqlite", "rocksdb", "lmdb", "redis", "memcached", "dpdk-kv", "fpga-kv"]
rows = []
for i, s in enumerate(stores):
    t = 10 ** (4 + i + rng.uniform(0, 0.8))
    rows.append([s, f"{t:.0f}"])
write("throughput", ["store", "ops_per_s"], rows)

# Training energy (J) against parameter count (scientific ticks).
rows = []
for i in range(12):
    params = (i + 1) * 8.0e7
    energy = 3.1e3 * params / 1e6 * (1 + 0.08 * rng.gauss(0, 1))
    rows.append([f"{params:.0f}", f"{energy:.5g}"])
write("energy", ["params", "energy_j"], rows)

# Median run time (s) per workload, with long workload names.
names = [
    "ycsb_workload_a_update_heavy",
    "ycsb_workload_b_read_mostly",
    "ycsb_workload_c_read_only",
    "ycsb_workload_d_read_latest",
    "ycsb_workload_e_short_ranges",
    "ycsb_workload_f_read_modify_write",
    "tpcc_new_order",
    "tpcc_payment",
]
rows = [[n, f"{rng.uniform(20, 140):.1f}"] for n in names]
write("workloads", ["workload", "seconds"], rows)

# A 2x2 grid's data: four metrics of one sweep, of very different widths.
rows = []
for step in range(1, 11):
    rows.append([
        step,
        f"{0.5 + 0.04 * step + rng.uniform(-0.02, 0.02):.4f}",
        f"{1.2e6 * step ** 1.3 * (1 + 0.03 * rng.random()):.0f}",
        f"{-3.5 + 0.4 * step + rng.uniform(-0.2, 0.2):.3f}",
        f"{12 + 3 * math.sin(step) :.2f}",
    ])
write("sweep", ["step", "accuracy", "tokens", "log_loss", "watts"], rows)
