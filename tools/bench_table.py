#!/usr/bin/env python3
"""Markdown table of a `gemm-tune bench --json` file: time, kernel, split-k, cuBLAS time, speed-up and
fraction of the floor per shape, plus the geometric-mean speed-up.
Floor = max(2MNK / PEAK, 4(MK + KN + MN) bytes / BW); defaults: the H100's 66.9 TFLOP/s FP32 peak and
the 3.0 TB/s device-to-device copy rate measured on the project's H100 machine.
Usage: tools/bench_table.py BENCH.json [--peak-tflops 66.9] [--bandwidth-tbs 3.0]"""
import argparse
import json
import math


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench")
    ap.add_argument("--peak-tflops", type=float, default=66.9)
    ap.add_argument("--bandwidth-tbs", type=float, default=3.0)
    args = ap.parse_args()
    doc = json.load(open(args.bench))
    print("| shape M×N×K | source | autogemm kernel | split-k | autogemm µs | TFLOP/s | cuBLAS µs | TFLOP/s "
          "| speed-up | floor µs | floor / autogemm | rel. error |")
    print("|" + " --- |" * 12)
    logs = []
    for r in doc["results"]:
        m, n, k = r["shape"]["m"], r["shape"]["n"], r["shape"]["k"]
        flops = 2.0 * m * n * k
        floor_us = max(flops / (args.peak_tflops * 1e12), 4.0 * (m * k + k * n + m * n) / (args.bandwidth_tbs * 1e12)) * 1e6
        ag, cb = r["autogemm"]["median_us"], r["cublas"]["median_us"]
        split = str(r["splits"]) + ("" if r["split_mode"] == "none" else " " + r["split_mode"])
        logs.append(math.log(cb / ag))
        print(f"| {m}×{n}×{k} | {r['source']} | `{r['kernel']}` | {split} | {ag:.1f} | {flops / ag / 1e6:.2f} | {cb:.1f} "
              f"| {flops / cb / 1e6:.2f} | {cb / ag:.2f} | {floor_us:.1f} | {floor_us / ag:.2f} | {r['autogemm']['rel_err']:.1e} |")
    print(f"\nGeometric mean of the speed-ups: **{math.exp(sum(logs) / len(logs)):.3f}×** over {len(logs)} shapes.")


if __name__ == "__main__":
    main()
