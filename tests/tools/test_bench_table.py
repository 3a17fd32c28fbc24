#!/usr/bin/env python3
"""CTest check of tools/bench_table.py and the tables of tools/perf_report.py: a TF32/3xTF32 result
that carries autogemm's pedantic FP32 side by side gives its time and speed-up columns and the set's
summary its geometric mean; a result without it (older files, other types) leaves them empty. cuBLASLt's
best gives its interleaved ratio where the file has one, else its time over the main pair's. The
BF16/FP16 plot's panels hold each type's tuned sets only.
Usage: test_bench_table.py TOOLS_DIR"""
import sys

sys.path.insert(0, sys.argv[1])
import bench_table  # noqa: E402
import perf_report  # noqa: E402


def result(ag_us, cb_us, fp32_us=None):
    r = {"shape": {"m": 128, "n": 3072, "k": 3072}, "label": "128x3072x3072", "layout": "nn", "source": "tuned",
         "types": "f32.f32.f32.tf32", "kernel": "sm90_wgmma_tf32_f32_64x128x32_c1x1_ping_nn_align4", "splits": 1,
         "split_mode": "none", "repacked": "none", "autogemm": {"median_us": ag_us, "rel_err": 2.6e-4},
         "cublas": {"median_us": cb_us}, "cublaslt": None, "autogemm_fp32": None}
    if fp32_us is not None:
        r["autogemm_fp32"] = {"median_us": fp32_us, "mode_median_us": ag_us, "speedup": fp32_us / ag_us}
    return r


row = bench_table.problem_row(result(32.0, 30.0, 64.0))
assert row["fp32_us"] == 64.0 and abs(row["fp32_speedup"] - 2.0) < 1e-12, row
old = bench_table.problem_row(result(32.0, 30.0))
assert old["fp32_us"] is None and old["fp32_speedup"] is None, old

doc = {"results": [result(32.0, 30.0, 64.0), result(10.0, 12.0, 5.0)], "kernels_compiled": 1, "date": "2026-11-27"}
summary = perf_report.set_summary("tf32 seed", doc)
assert "against autogemm's pedantic FP32 in the same run 1.000×, lowest 0.50×" in summary, summary
lines = perf_report.tensor_set_lines([("tf32 seed", doc)], ["docs/results/x.json"], "docs")
header = next(line for line in lines if line.startswith("| problem"))
assert "autogemm FP32 µs" in header and "vs autogemm FP32" in header, header
plain = perf_report.tensor_set_lines([("tf32 seed", {"results": [result(32.0, 30.0)]})], ["x.json"], "docs")
assert not any("autogemm FP32" in line for line in plain), plain
# A file's floor uses the copy rate measured on its device: the H200's, else the H100's.
assert bench_table.device_bandwidth_tbs({"device": {"name": "NVIDIA H200"}}) == 4.28
assert bench_table.device_bandwidth_tbs({"device": {"name": "NVIDIA H100 80GB HBM3"}}) == bench_table.BANDWIDTH_TBS
assert bench_table.device_bandwidth_tbs({}) == bench_table.BANDWIDTH_TBS
narrow = dict(result(32.0, 30.0), types="f32.f32.f32.tf32")  # 128x3072x3072: memory-bound on both
h100_floor = bench_table.problem_row(narrow)["floor_us"]
h200_floor = bench_table.problem_row(narrow, bandwidth_tbs=4.28)["floor_us"]
assert abs(h100_floor / h200_floor - 4.28 / 3.0) < 1e-9, (h100_floor, h200_floor)
h200 = perf_report.tensor_set_lines([("tf32 seed", dict(doc, device={"name": "NVIDIA H200"}))], ["x.json"], "docs",
                                    heading="H200 ")
assert "### The H200 tf32 seed set" in h200, h200
# cuBLASLt's best: the ratio of its own interleaved pair with autogemm where the file has one (its
# autogemm side ran 33 us there, so 30 / 33, not 30 / 32), else its time over the main pair's.
paired_lt = dict(result(32.0, 30.0), cublaslt={"median_us": 30.0, "autogemm_median_us": 33.0, "speedup": 30.0 / 33.0})
assert abs(bench_table.problem_row(paired_lt)["lt_speedup"] - 30.0 / 33.0) < 1e-12
alone_lt = dict(result(32.0, 30.0), cublaslt={"median_us": 24.0})
assert abs(bench_table.problem_row(alone_lt)["lt_speedup"] - 0.75) < 1e-12
assert "(interleaved with autogemm) 0.909×" in perf_report.set_summary("bf16 x", {"results": [paired_lt]})
assert "(timed alone) 0.750×" in perf_report.set_summary("bf16 x", {"results": [alone_lt]})
# The report's ranges of cuBLASLt's interleaved time over cuBLAS's and of its time alone over it, over
# the problems of 4096^3 and more that were timed interleaved; None where there are none.
big = dict(result(200.0, 190.0), shape={"m": 4096, "n": 4096, "k": 4096},
           cublaslt={"median_us": 199.5, "alone_median_us": 179.55, "speedup": 199.5 / 200.0})
assert perf_report.interleaved_lt_ranges([("bf16 big", {"results": [big, paired_lt]})]) == ("1.05–1.05", "0.90–0.90")
assert perf_report.interleaved_lt_ranges([("bf16 x", {"results": [alone_lt]})]) == (None, None)
# The BF16/FP16 plot takes each type's tuned sets, in the order named: no untuned or TF32 set.
named = [("bf16 big", "B"), ("bf16 llm untuned", "U"), ("bf16 seed", "S"), ("f16 perf", "F"), ("tf32 seed", "T")]
assert perf_report.tc_plot_panels(named) == [("BF16", ["B", "S"]), ("FP16", ["F"])], perf_report.tc_plot_panels(named)
assert perf_report.tc_plot_panels([("tf32 perf", "T")]) == []
print("bench_table: the pedantic FP32 side by side in rows, summaries and tables; absent where not measured; "
      "floors at the copy rate of the file's device; cuBLASLt's ratio from its own pair")
