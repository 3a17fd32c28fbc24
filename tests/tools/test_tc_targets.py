#!/usr/bin/env python3
"""CTest check of tools/tc_targets.py: on made-up sets, each tensor-core target is met exactly where
its numbers reach the issue's bound (a geometric mean, every problem's floor, a range's low end) and
says so with the measured values; a target whose files are missing is left out.
Usage: test_tc_targets.py TOOLS_DIR"""
import sys

sys.path.insert(0, sys.argv[1])
import tc_targets  # noqa: E402


def result(m, n, k, ours_us, cublas_us, layout="tn", label=None, fp32_speedup=None, fp32_kernel="k_fp32"):
    r = {"shape": {"m": m, "n": n, "k": k}, "layout": layout, "label": label or f"{m}x{n}x{k}", "kernel": "k_mode",
         "autogemm": {"median_us": ours_us}, "cublas": {"median_us": cublas_us}}
    if fp32_speedup is not None:
        r["autogemm_fp32"] = {"median_us": ours_us * fp32_speedup, "speedup": fp32_speedup, "kernel": fp32_kernel}
    return r


def doc(*results):
    return {"results": list(results)}


def row(rows, prefix):
    hits = [r for r in rows if r[0].startswith(prefix)]
    assert len(hits) == 1, (prefix, rows)
    return hits[0]


# BF16: 4096^3 at 1.0x and 8192^3 at 1.02x meet target 1; the tuned sets' geometric mean 1.17x with
# one problem at 0.96x misses target 2; untuned at exactly 1.0x meets target 3.
sets = {
    "bf16 large": doc(result(4096, 4096, 4096, 100.0, 100.0, label="col 4096x4096x4096"),
                      result(8192, 8192, 8192, 1000.0, 1020.0)),
    "bf16 seed": doc(result(1, 2, 3, 10.0, 11.0)), "bf16 llm": doc(result(4, 5, 6, 10.0, 15.0)),
    "bf16 perf": doc(result(7, 8, 9, 10.0, 9.6)),
    "bf16 seed untuned": doc(result(1, 2, 3, 10.0, 10.0)), "bf16 llm untuned": doc(result(4, 5, 6, 10.0, 10.0)),
    "bf16 perf untuned": doc(result(7, 8, 9, 10.0, 10.0)),
}
rows = tc_targets.target_rows(sets)
name, measured, met = row(rows, "47.1 BF16")
assert met and "4096³ 1.00×" in measured and "8192³ 1.02×" in measured, measured
assert "1374 TFLOP/s" in measured and "139% of 989" in measured, measured  # 2·4096³ / 100 µs
name, measured, met = row(rows, "47.2 BF16")
assert not met and measured.startswith("1.166× over 3 problems; 2 at ≥ 0.97×, lowest 0.96× (7x8x9 `tn`)"), measured
name, measured, met = row(rows, "47.3 BF16 untuned")
assert met and measured.startswith("1.000×"), measured
assert not any(r[0].startswith("47.1 FP16") or r[0].startswith("48.") for r in rows), rows  # no such files

# With every problem at 0.97x or more the mean decides: 1.18x meets target 2, 1.08x does not.
sets["bf16 perf"] = doc(result(7, 8, 9, 10.0, 9.7))
assert row(tc_targets.target_rows(sets), "47.2 BF16")[2]
sets["bf16 llm"] = doc(result(4, 5, 6, 10.0, 12.0))
assert not row(tc_targets.target_rows(sets), "47.2 BF16")[2]

# The problems no database holds: end-to-end qualities judge target 3 (20 or more, mean 0.90, none
# below 0.75); the kernel-only ones are quoted beside them.
quality = [((("nn", 1, 1, 1)), None, None, 0.5, 0.95)] * 19 + [((("nn", 2, 2, 2)), None, None, 0.5, 0.76)]
name, measured, met = row(tc_targets.target_rows({}, quality), "47.3 untuned on")
assert met and "worst 0.76" in measured and "0.500, worst 0.50" in measured, measured
assert not row(tc_targets.target_rows({}, quality[:19]), "47.3 untuned on")[2]  # 19 problems are too few
assert not row(tc_targets.target_rows({}, quality[:19] + [(("nn", 2, 2, 2), None, None, 0.5, 0.74)]),
               "47.3 untuned on")[2]

# 3xTF32 and TF32: 2.0x at 4096^3 meets 48.1's first bound; two problems under 1.0x autogemm FP32 (one
# on the pedantic choice's own kernel) miss the second; TF32 at 1.10x and 1.11x with every problem at 1.0x or more meets 48.2; an error ratio of 2.5 misses 48.3, which the split sweep's rows
# (any ratio) do not change.
fp32 = {
    "3xtf32 seed": doc(result(256, 256, 1024, 10.0, 14.0, "nn", fp32_speedup=0.99),
                       result(16, 3072, 3072, 10.0, 14.0, "nn", fp32_speedup=0.995, fp32_kernel="k_mode"),
                       result(1, 3072, 3072, 10.0, 14.0, "nn", fp32_speedup=1.0, fp32_kernel="k_mode")),
    "3xtf32 perf": doc(result(4096, 4096, 4096, 100.0, 200.0, "nn", fp32_speedup=2.0),
                       result(4096, 11008, 4096, 100.0, 230.0, "nn", fp32_speedup=2.1)),
    "tf32 seed": doc(result(1, 2, 3, 10.0, 11.0), result(4, 5, 6, 10.0, 11.0)),
    "tf32 perf": doc(result(1, 2, 3, 10.0, 10.0), result(4, 5, 6, 10.0, 12.321)),
}
accuracy = {"device": "GPU X", "rows": [
    {"data": "random", "k": 256, "method": "cublas_pedantic", "worst": 1e-8},
    {"data": "random", "k": 256, "method": "autogemm_3xtf32", "worst": 2.5e-8},
    {"data": "random", "k": 256, "method": "autogemm_3xtf32_split", "splits": 3, "worst": 9e-8},
    {"data": "hard", "k": 4096, "method": "cublas_pedantic", "worst": 1e-8},
    {"data": "hard", "k": 4096, "method": "autogemm_3xtf32", "worst": 1e-8}]}
rows = tc_targets.target_rows(fp32, None, accuracy)
name, measured, met = row(rows, "48.1 `fp32_emulated` 4096³")
assert met and measured.startswith("2.00–2.30×"), measured
name, measured, met = row(rows, "48.1 `fp32_emulated` seed and perf")
assert not met and "lowest 0.99× (256x256x1024 `nn`); 3 of 5 at ≥ 1.0×, 1 of the other 2 on" in measured, measured
assert row(rows, "48.1 `fp32_emulated` geometric mean")[2]
name, measured, met = row(rows, "48.2 `tf32`")
assert met and "seed 1.100×" in measured and "perf 1.110×, lowest 1.00×" in measured, measured
name, measured, met = row(rows, "48.3")
assert not met and "up to 2.50× (random, K = 256; 1 of 2 within 2×; on the GPU X)" in measured, measured
assert tc_targets.sweep_splits(accuracy) == [3]
case = tc_targets.accuracy_cases(accuracy)[("random", 256)]
assert abs(tc_targets.error_ratio_3xtf32(case, tc_targets.split_method(3)) - 9.0) < 1e-9
print("tc_targets: each target met exactly at its bound, measured values quoted, missing files left out")
