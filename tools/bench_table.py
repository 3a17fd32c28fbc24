#!/usr/bin/env python3
"""Markdown table of one or more `gemm-tune bench --json` files: layout, time, kernel (with the
operands repacked for it, when any), split-k, cuBLAS time, speed-up and fraction of the floor per
problem, plus the geometric-mean speed-up of each file and of all of them (with how many
repetitions ran under a clock slowdown reason, where the file records clock samples).
Floor = max(2MNK / PEAK, 4(MK + KN + MN) bytes / BW); defaults: the H100's 66.9 TFLOP/s FP32 peak and
the device-to-device copy rate measured on the file's GPU (3.0 TB/s on the project's H100 machine,
4.28 on its H200). BF16/FP16 results
(their "types" key) use the 989 TFLOP/s dense tensor-core peak and their element sizes; TF32 results
the 494.7 TFLOP/s dense TF32 peak, 3xTF32 results a third of it (three TF32 products per FP32 one).
Also imported by tools/perf_report.py: problem_row() and markdown_table() make its tables.
Usage: tools/bench_table.py BENCH.json [MORE.json ...] [--peak-tflops 66.9] [--bandwidth-tbs TB/s]"""
import argparse
import math

from results_io import load_json

PEAK_TFLOPS = 66.9
BANDWIDTH_TBS = 3.0
# BF16/FP16 operands (a result's "types" key other than "f32"): the H100 SXM's dense tensor-core peak,
# 989 TFLOP/s, and 2-byte A and B (C of its own size).
TENSOR_PEAK_TFLOPS = 989.0
TYPE_BYTES = {"f32": 4, "bf16": 2, "f16": 2}
# FP32 operands on tensor cores: the dense TF32 peak, and the FP32 work 3xTF32 does at three TF32
# products per multiply-add.
TF32_PEAK_TFLOPS = 494.7
COMPUTE_PEAK_TFLOPS = {"tf32": TF32_PEAK_TFLOPS, "3xtf32": TF32_PEAK_TFLOPS / 3}


# The device-to-device copy rate measured on the other GPUs results come from (read + written; the
# H100's is BANDWIDTH_TBS): the H200's 4 GiB copy, docs/results/h200_validation.txt. Their SMs and
# clocks are the H100 SXM's, so the compute peaks above hold for them.
DEVICE_BANDWIDTH_TBS = {"NVIDIA H200": 4.28}


def device_bandwidth_tbs(doc):
    """The copy rate of the device a bench file records (the H100's where it is not listed)."""
    return DEVICE_BANDWIDTH_TBS.get(doc.get("device", {}).get("name"), BANDWIDTH_TBS)


def floor_us(m, n, k, peak_tflops=PEAK_TFLOPS, bandwidth_tbs=BANDWIDTH_TBS, ab_bytes=4, c_bytes=4):
    flops = 2.0 * m * n * k
    moved = ab_bytes * (m * k + k * n) + c_bytes * m * n
    return max(flops / (peak_tflops * 1e12), moved / (bandwidth_tbs * 1e12)) * 1e6


def types_of(r):
    """(A's and B's bytes, C's bytes, peak TFLOP/s) of a result: FP32 unless its "types" says otherwise."""
    key = r.get("types", "f32")
    if key == "f32":
        return 4, 4, None
    a, _, c, compute = key.split(".")
    return TYPE_BYTES[a], TYPE_BYTES[c], COMPUTE_PEAK_TFLOPS.get(compute, TENSOR_PEAK_TFLOPS)


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def speedup(r):
    """cuBLAS's median time over autogemm's for one result of a bench file."""
    return r["cublas"]["median_us"] / r["autogemm"]["median_us"]


def fp32_speedup(r):
    """A TF32/3xTF32 result's speed-up over autogemm's pedantic FP32 choice, interleaved with it (files
    since it was added; None in others)."""
    return (r.get("autogemm_fp32") or {}).get("speedup")


def lt_speedup(lt, ag_us):
    """cuBLASLt best's time over autogemm's: the ratio of their own pair (interleaved or in blocks, as the
    file's cuBLAS pair) where the file has one (files before it timed cuBLASLt alone, after the paired
    timing), else over the main pair's time."""
    if lt.get("speedup") is not None:
        return lt["speedup"]
    return lt["median_us"] / ag_us if lt.get("median_us") else None


def problem_row(r, peak_tflops=PEAK_TFLOPS, bandwidth_tbs=BANDWIDTH_TBS):
    """The figures of one result of a bench file, by column name (see COLUMNS)."""
    m, n, k = r["shape"]["m"], r["shape"]["n"], r["shape"]["k"]
    flops = 2.0 * m * n * k
    ab_bytes, c_bytes, tensor_peak = types_of(r)
    fl = floor_us(m, n, k, tensor_peak or peak_tflops, bandwidth_tbs, ab_bytes, c_bytes)
    ag, cb = r["autogemm"]["median_us"], r["cublas"]["median_us"]
    repacked = r.get("repacked", "none")  # older files have no such field
    return {
        "label": r["label"], "layout": r["layout"], "source": r["source"],
        "kernel": f"`{r['kernel']}`" + ("" if repacked == "none" else f" ({repacked} repacked)"),
        "split": str(r["splits"]) + ("" if r["split_mode"] == "none" else " " + r["split_mode"]),
        "ag_us": ag, "ag_tflops": flops / ag / 1e6, "cb_us": cb, "cb_tflops": flops / cb / 1e6,
        "speedup": cb / ag, "floor_us": fl, "floor_frac": fl / ag, "over_floor": ag / fl,
        "rel_err": r["autogemm"]["rel_err"],
        # cuBLASLt's fastest of its top heuristic algorithms (BF16/FP16 files since it was added): its
        # ratio from its own pair with autogemm where the file has one, else over the main pair's time.
        "lt_us": (r.get("cublaslt") or {}).get("median_us"),
        "lt_speedup": lt_speedup(r.get("cublaslt") or {}, ag),
        # autogemm's pedantic FP32 choice, interleaved with a TF32/3xTF32 choice (files since it was added).
        "fp32_us": (r.get("autogemm_fp32") or {}).get("median_us"),
        "fp32_speedup": fp32_speedup(r),
    }


# Column name: (header, format of problem_row's value).
COLUMNS = {
    "label": ("shape M×N×K", "{}"), "layout": ("layout", "{}"), "source": ("source", "{}"),
    "kernel": ("autogemm kernel", "{}"), "split": ("split-k", "{}"),
    "ag_us": ("autogemm µs", "{:.1f}"), "ag_tflops": ("TFLOP/s", "{:.2f}"),
    "cb_us": ("cuBLAS µs", "{:.1f}"), "cb_tflops": ("TFLOP/s", "{:.2f}"),
    "speedup": ("speed-up", "{:.2f}"), "floor_us": ("floor µs", "{:.1f}"),
    "floor_frac": ("floor / autogemm", "{:.2f}"), "over_floor": ("autogemm / floor", "{:.2f}"),
    "rel_err": ("rel. error", "{:.1e}"),
    "lt_us": ("cuBLASLt best µs", "{:.1f}"), "lt_speedup": ("vs cuBLASLt best", "{:.2f}"),
    "fp32_us": ("autogemm FP32 µs", "{:.1f}"), "fp32_speedup": ("vs autogemm FP32", "{:.2f}"),
}
ALL_COLUMNS = ["label", "layout", "source", "kernel", "split", "ag_us", "ag_tflops", "cb_us", "cb_tflops",
               "speedup", "floor_us", "floor_frac", "rel_err"]


def markdown_table(rows, columns=ALL_COLUMNS, headers=None):
    """Lines of a Markdown table of `rows` (problem_row dicts) in `columns`; `headers` renames some."""
    headers = headers or {}
    lines = ["| " + " | ".join(headers.get(c, COLUMNS[c][0]) for c in columns) + " |",
             "|" + " --- |" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join("–" if row[c] is None else COLUMNS[c][1].format(row[c]) for c in columns) + " |")
    return lines


def slowed_counts(doc):
    """(autogemm slowed reps, autogemm reps, cuBLAS slowed reps, cuBLAS reps) over a bench file, or
    None where its results carry no clock samples."""
    results = doc["results"]
    if not results or "slowed_reps" not in results[0]["autogemm"]:
        return None
    return tuple(sum(r[lib][f] for r in results) for lib in ("autogemm", "cublas") for f in ("slowed_reps", "reps"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench", nargs="+")
    ap.add_argument("--peak-tflops", type=float, default=PEAK_TFLOPS)
    ap.add_argument("--bandwidth-tbs", type=float, default=None,
                    help="copy rate of the floor (default: the one measured on the file's device)")
    args = ap.parse_args()
    rows, every, summaries = [], [], []
    for path in args.bench:
        doc = load_json(path)
        speedups = [speedup(r) for r in doc["results"]]
        bandwidth = args.bandwidth_tbs or device_bandwidth_tbs(doc)
        rows += [problem_row(r, args.peak_tflops, bandwidth) for r in doc["results"]]
        every += speedups
        summaries.append((path, len(speedups), geomean(speedups), min(speedups), slowed_counts(doc)))
    print("\n".join(markdown_table(rows)))
    print()
    for path, count, g, worst, slowed in summaries:
        print(f"- `{path}`: geometric mean of the speed-ups **{g:.3f}×** over {count} problems (lowest {worst:.2f}×)"
              + ("." if slowed is None else f"; repetitions under a slowdown reason: autogemm {slowed[0]} of "
                 f"{slowed[1]}, cuBLAS {slowed[2]} of {slowed[3]}."))
    if len(summaries) > 1:
        print(f"- all files: geometric mean **{geomean(every):.3f}×** over {len(every)} problems.")


if __name__ == "__main__":
    main()
