#!/usr/bin/env python3
"""Writes the performance report from the current results files of docs/results in one go:
docs/performance.md (device and clocks as recorded, method, floor, every problem of each benchmarked
set against cuBLAS, geometric means, the targets, the validation summary when there is one), the
speed-up plot, and the speed table between README.md's perf-table markers. Tables come from
tools/bench_table.py, the targets from tools/perf_targets.py (FP32) and tools/tc_targets.py (tensor
cores), the plot from tools/plot_speedup.py
(skipped, saying so, where matplotlib is missing). Standard library only otherwise.
It also writes the tensor-core section, measured on the H200 that the GPU machine now is: BF16/FP16
and TF32/3xTF32 against cuBLAS (h200_bench_tc_*.json, h200_bench_fp32tc_*.json) with the plot of the
BF16/FP16 tuned sets (h200_speedup_tc.png), and the accuracy table of the FP32 arithmetics
(tc_targets.ACCURACY_FILE, `gemm-tune accuracy`).
Usage: tools/perf_report.py [--seed FILE] [--perf FILE] [--table FILE] [--validation FILE ...]
       [--accuracy FILE] [--out FILE] [--plot FILE] [--tc-plot FILE] [--readme FILE]
       (defaults: the stable names under docs/results)"""
import argparse
import csv
import io
import os
import sys

import bench_table
import perf_targets
import tc_targets
from results_io import load_json, open_result

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "docs", "results")
COMMAND = "python3 tools/perf_report.py"
README_BEGIN, README_END = "<!-- perf-table:begin -->", "<!-- perf-table:end -->"
# README's headline rows: the square shapes, the narrowest output, the longest K and the widest
# problem, so a reader sees each regime once; rows a results file lacks are left out.
HEADLINES = [("3072x3072x3072", "nn"), ("4096x4096x4096", "nn"), ("4096x11008x4096", "nn"),
             ("16x3072x3072", "nn"), ("128x128x32768", "nn"), ("127x3001x1531", "nn")]
TABLE_COLUMNS = ["label", "layout", "ag_us", "cb_us", "speedup", "over_floor", "source", "kernel", "split"]
# The tensor-core tables add cuBLASLt's best of its top heuristic algorithms where the file has it.
TENSOR_COLUMNS = TABLE_COLUMNS[:5] + ["lt_us", "lt_speedup"] + TABLE_COLUMNS[5:]
TABLE_HEADERS = {"label": "problem M×N×K", "over_floor": "× floor", "source": "choice"}


def stored(path):
    """`path` as stored: NAME, or NAME.xz where only the compressed file exists (results_io's rule)."""
    return path if os.path.exists(path) or not os.path.exists(path + ".xz") else path + ".xz"


def link(path, start):
    return os.path.relpath(stored(path), start)


def cuda_version(v):
    return f"{v // 1000}.{v % 1000 // 10}" if isinstance(v, int) and v > 0 else "?"


def device_rows(doc):
    """(what, value) pairs of the device and run as a bench file records them."""
    d = doc.get("device", {})
    # Driver version, SM clock (max), memory clock, power limit, temperature: NVML's fields, or the
    # nvidia-smi line that bench files written before NVML was read record instead.
    nvml = d.get("nvml")
    if nvml:
        smi = [nvml["driver_version"], f"{nvml['sm_mhz']} MHz", f"{nvml['max_sm_mhz']} MHz", f"{nvml['mem_mhz']} MHz",
               f"{nvml['power_limit_w']:.2f} W", str(nvml["temperature_c"])]
    else:
        smi = [f.strip() for f in d.get("nvidia_smi", "").split(",")]
        smi = smi if len(smi) == 6 else None  # the row of clocks is left out where nothing was read
    results = doc["results"]
    mhz = [r[lib][f] for r in results for lib in ("autogemm", "cublas") for f in ("sm_mhz_min", "sm_mhz_max")
           if f in r[lib]]
    reasons = sorted({x for r in results for lib in ("autogemm", "cublas")
                      for x in r[lib].get("slowdown_reasons", "").split(",") if x})
    slowed = bench_table.slowed_counts(doc)
    rows = [
        ("device", f"{d.get('name', '?')}, compute capability {d.get('compute_capability', '?')}, "
                   f"{d.get('sm_count', '?')} SMs, {d.get('l2_bytes', 0) / 2**20:.0f} MiB L2"),
        ("driver, CUDA", (f"{smi[0]}, " if smi else "") + f"CUDA {cuda_version(d.get('cuda_driver_api'))} "
                         f"(runtime {cuda_version(d.get('cuda_runtime'))})"),
    ]
    if smi:
        rows.append(("clocks as found", f"SM {smi[1]} (max {smi[2]}), memory {smi[3]}, power limit {smi[4]}, {smi[5]} °C"))
    return rows + [
        ("SM clock while timed", (("not sampled" if not mhz else f"{min(mhz)} MHz" if min(mhz) == max(mhz)
                                   else f"{min(mhz)}–{max(mhz)} MHz"))
         + ("" if slowed is None else f"; slowed repetitions: autogemm {slowed[0]} of {slowed[1]}, "
                                      f"cuBLAS {slowed[2]} of {slowed[3]}")
         + (f" ({', '.join(reasons)})" if reasons else "")),
        ("build", f"autogemm {doc.get('autogemm_version', '?')}, {doc.get('kernels_compiled', '?')} kernel "
                  f"instances, grid `{doc.get('kernel_grid', '?')}`"),
        ("measured", doc.get("date", "?")[:10]),
    ]


def table_summary(path, grid):
    """One sentence on the tuning table the benchmark ran with, or None where there is no such file."""
    if not os.path.exists(stored(path)):
        return None
    with open_result(path) as f:
        text = f.read()
    if text.startswith("# autogemm-tuning:"):  # the entry count line of gemm-tune export's CSV
        text = text[text.find("\n") + 1:]
    rows = list(csv.DictReader(io.StringIO(text)))
    problems = {tuple(r[c] for c in ("problem_transa", "problem_transb", "problem_m", "problem_n", "problem_k",
                                     "problem_align")) for r in rows}
    devices = sorted({r["device_name"] for r in rows})
    grids = sorted({r["provenance_kernel_grid"] for r in rows})
    same = "the benchmarked build's kernel grid" if grids == [grid] else f"kernel grid {', '.join(grids)}"
    return f"{len(rows):,} measurements of {len(problems)} problems on {', '.join(devices)}, {same}"


def validation_rows(path):
    """(what, value) pairs of tools/gpu_validation.sh's summary, or None where there is no such file."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return [tuple(s.strip() for s in line.split(":", 1)) for line in f if ":" in line and not line.startswith("#")]


def kv_table(header, rows):
    return [f"| {header[0]} | {header[1]} |", "| --- | --- |"] + [f"| {a} | {b} |" for a, b in rows]


def in_blocks(doc):
    """Whether a bench file timed each library in blocks of its own (--timing blocks), not interleaved."""
    return "blocks of its own" in doc.get("method", "")


def set_summary(name, doc):
    """The geometric-mean sentence of one set, with its layouts apart where it has several."""
    results = doc["results"]
    speedups = [bench_table.speedup(r) for r in results]
    layouts = sorted({r["layout"] for r in results})
    text = (f"**{name}** set: geometric mean **{bench_table.geomean(speedups):.3f}×** over {len(results)} "
            f"problems, lowest {min(speedups):.2f}×, highest {max(speedups):.2f}×")
    if len(layouts) > 1:
        text += "; by layout " + ", ".join(
            f"{lay} {bench_table.geomean([bench_table.speedup(r) for r in results if r['layout'] == lay]):.3f}×"
            for lay in layouts)
    rows = list(map(bench_table.problem_row, results))
    lt = [row["lt_speedup"] for row in rows if row["lt_speedup"] is not None]
    if lt:
        paired = any((r.get("cublaslt") or {}).get("speedup") is not None for r in results)
        text += (f"; against cuBLASLt's best of its top heuristic algorithms "
                 f"({('in blocks, as cuBLAS' if in_blocks(doc) else 'interleaved with autogemm') if paired else 'timed alone'}) "
                 f"{bench_table.geomean(lt):.3f}× "
                 f"over {len(lt)} problems, lowest {min(lt):.2f}×")
    fp32 = [row["fp32_speedup"] for row in rows if row["fp32_speedup"] is not None]
    if fp32:
        text += (f"; against autogemm's pedantic FP32 in the same run {bench_table.geomean(fp32):.3f}×, "
                 f"lowest {min(fp32):.2f}×")
    return text + "."


def draw_plot(path, panels, title=None, target=1.15):
    """Writes the plot of `panels` ((panel title, bench documents) pairs, one chart each); False
    (having said why) where matplotlib is missing."""
    try:
        import plot_speedup
    except ImportError as e:
        if e.name != "matplotlib":
            raise
        print(f"perf_report: matplotlib is missing (pip install matplotlib, or apt-get install "
              f"python3-matplotlib): {os.path.relpath(path, ROOT)} and the tensor-core plot not redrawn",
              file=sys.stderr)
        return False
    plot_speedup.plot_panels(path, panels, title or plot_speedup.DEFAULT_TITLE, target)
    return True


# The BF16/FP16 plot: each type's tuned sets (issue 47's geometric-mean target is 1.10x).
TC_PLOT_TARGET = 1.10
TC_PLOT_TITLE = "autogemm (tuned) vs cublasGemmEx, FP32 accumulation"


def tc_plot_panels(h200_sets):
    """(type, its tuned tensor-core sets' documents) for BF16 and FP16, from the named H200 sets."""
    panels = []
    for dtype, title in (("bf16", "BF16"), ("f16", "FP16")):
        docs = [doc for name, doc in h200_sets if name.split()[0] == dtype and not name.endswith("untuned")]
        if docs:
            panels.append((title, docs))
    return panels


ACCURACY_METHODS = [("cublas_pedantic", "cuBLAS pedantic"), ("autogemm_pedantic", "autogemm pedantic"),
                    ("autogemm_3xtf32", "autogemm 3xTF32"), ("autogemm_tf32", "autogemm TF32"),
                    ("cublas_tf32", "cuBLAS TF32")]


def accuracy_section(path, docs_dir):
    """The accuracy table of `gemm-tune accuracy --json`: per data and K, worst and median error of each
    arithmetic, the splits 3xTF32 ran in, and its worst over cuBLAS pedantic's (the bound is 2); then
    the split sweep's ratios where the file has one."""
    doc = load_json(path)
    rows = tc_targets.accuracy_cases(doc)
    header = "| data | K | " + " | ".join(f"{name} worst / median" for _, name in ACCURACY_METHODS) + \
             " | 3xTF32 splits | 3xTF32 worst ÷ cuBLAS pedantic worst |"
    lines = ["", "## Accuracy of the FP32 arithmetics", "",
             f"`gemm-tune accuracy` on the {doc.get('device', '?')} (`{link(path, docs_dir)}`, {doc.get('date', '?')[:10]}): "
             f"{doc.get('method', '?')}. Each cell: the worst and the median over the {doc.get('size', '?')}² outputs. "
             "What the arithmetics are and how these numbers stand against the targets: [accuracy.md](accuracy.md).", "",
             header, "|" + " --- |" * (4 + len(ACCURACY_METHODS))]
    for (data, k), by_method in rows.items():
        cells = []
        for method, _ in ACCURACY_METHODS:
            r = by_method.get(method)
            cells.append("-" if r is None else f"{r['worst']:.1e} / {r['median']:.1e}")
        ratio = tc_targets.error_ratio_3xtf32(by_method)
        ratio = "-" if ratio is None else f"{ratio:.2f}"
        splits = by_method.get("autogemm_3xtf32", {}).get("splits", "-")
        lines.append(f"| {data} | {k} | " + " | ".join(cells) + f" | {splits} | {ratio} |")
    sweep = tc_targets.sweep_splits(doc)
    if sweep:
        lines += ["", "3xTF32's worst error ÷ cuBLAS pedantic's in each number of splits of its 3·K (`--splits`), "
                  "whatever the runtime allows; unsplit is the order the runtime keeps for outputs that fill the SMs:", "",
                  "| data | K | " + " | ".join(f"{s} split{'s' if s > 1 else ''}" for s in sweep) + " |",
                  "|" + " --- |" * (2 + len(sweep))]
        for (data, k), by_method in rows.items():
            cells = [tc_targets.error_ratio_3xtf32(by_method, tc_targets.split_method(s)) for s in sweep]
            lines.append(f"| {data} | {k} | " + " | ".join("-" if x is None else f"{x:.2f}" for x in cells) + " |")
    return lines


def interleaved_lt_ranges(sets, min_flops=2.0 * 4096 ** 3):
    """Over the problems of at least min_flops whose cuBLASLt best was timed interleaved: the range of
    its interleaved time over cublasGemmEx's, and of its time alone over its interleaved time (None
    where no file has such a problem)."""
    vs_cublas, alone = [], []
    for _, doc in sets:
        if in_blocks(doc):
            continue
        for r in doc["results"]:
            lt = r.get("cublaslt") or {}
            shape = r["shape"]
            if lt.get("speedup") is None or 2.0 * shape["m"] * shape["n"] * shape["k"] < min_flops:
                continue
            vs_cublas.append(lt["median_us"] / r["cublas"]["median_us"])
            if lt.get("alone_median_us"):
                alone.append(lt["alone_median_us"] / lt["median_us"])
    span = lambda xs: f"{min(xs):.2f}–{max(xs):.2f}" if xs else None
    return span(vs_cublas), span(alone)


def tensor_set_lines(sets, paths, docs_dir, heading=""):
    """Each tensor-core set's file with the build it was measured with (its grid's size: files of
    older grids stay until re-measured), then each tuned set's table, with cuBLASLt's best where it
    has it; the untuned sets' problems are those of their tuned twins, so they stay a summary line."""
    lines = [f"- {set_summary(name, doc)} ({doc.get('kernels_compiled', '?')} kernel instances, {doc.get('date', '?')[:10]}, "
             f"timed {'in blocks' if in_blocks(doc) else 'interleaved'}; `{link(path, docs_dir)}`)"
             for (name, doc), path in zip(sets, paths)]
    for name, doc in sets:
        if name.endswith("untuned"):
            continue
        rows = [bench_table.problem_row(r, bandwidth_tbs=bench_table.device_bandwidth_tbs(doc)) for r in doc["results"]]
        columns = TENSOR_COLUMNS if any(row["lt_us"] is not None for row in rows) else TABLE_COLUMNS
        if any(row["fp32_us"] is not None for row in rows):
            columns = columns[:5] + ["fp32_us", "fp32_speedup"] + columns[5:]
        lines += ["", f"### The {heading}{name} set", "", set_summary(name, doc), ""]
        lines += bench_table.markdown_table(rows, columns, TABLE_HEADERS)
    return lines


def tc_target_lines(args):
    """The tensor-core issues' targets on the H200's files (tools/tc_targets.py)."""
    accuracy = load_json(args.accuracy) if os.path.exists(stored(args.accuracy)) else None
    rows = tc_targets.target_rows(dict(args.h200_sets), tc_targets.untuned_quality_of(), accuracy)
    if not rows:
        return []
    return ["### Targets", "",
            "The targets of the tensor-core issues (47: BF16 and FP16; 48: TF32 and 3xTF32), set on the H100 and checked "
            "by `tools/tc_targets.py` on the H200's files below and its accuracy table: the H200 has "
            "the H100's SMs, tensor cores and clocks; no H100 was available to measure them on.", ""] + \
        perf_targets.markdown_table(rows) + [
            "", "Target 47.4, the time the tuner takes over a seed set, is the tuner's own record: "
            "[decisions.md](decisions.md#the-tensor-core-grid-and-where-it-stands).", "",
            "The results files, each set against cuBLAS:", ""]


def report(sets, args):
    lt_vs_cublas, lt_alone = interleaved_lt_ranges(args.h200_sets or [])
    docs_dir = os.path.dirname(os.path.abspath(args.out))
    seed, perf = dict(sets).get("seed"), dict(sets).get("perf")
    first = sets[0][1]
    lines = [f"<!-- Written by `{COMMAND}` from the results files it names: rerun it, do not edit. -->",
             "# Performance", "",
             "Regenerate this page, its plot and the speed table in `README.md` from the files below:", "",
             "```sh", COMMAND, "```", "",
             f"autogemm against cuBLAS SGEMM on the {first['device'].get('name', '?')}, both in the same process "
             "and with FP32 arithmetic throughout (cuBLAS in pedantic mode: no tensor cores):", ""]
    lines += [f"- {set_summary(name, doc)}" for name, doc in sets]
    files = [("file", {name: f"`{link(p, docs_dir)}`" for (name, _), p in zip(sets, args.bench_paths)})]
    per_set = {name: dict(device_rows(doc)) for name, doc in sets}
    whats = list(dict.fromkeys(what for rows in per_set.values() for what in rows))
    facts = files + [(what, {name: rows.get(what, "not recorded") for name, rows in per_set.items()}) for what in whats]
    # A fact the files share is written once; one they differ in, per set.
    lines += ["", "## Device and run", ""] + kv_table(("", "as the results files record it"), [
        (what, next(iter(by_set.values())) if len(set(by_set.values())) == 1
         else "; ".join(f"{name} set: {value}" for name, value in by_set.items())) for what, by_set in facts])
    summary = table_summary(args.table, first.get("kernel_grid"))
    if summary:
        lines += ["", f"The tuning table the benchmark ran with: `{link(args.table, docs_dir)}`, {summary}."]
    worst_err = max(r["autogemm"]["rel_err"] for _, doc in sets for r in doc["results"])
    passed = sum(r.get("check_passed", False) for _, doc in sets for r in doc["results"])
    count = sum(len(doc["results"]) for _, doc in sets)
    lines += ["", "## Method", "",
              f"- `gemm-tune bench` times each problem as its files record: {first.get('method', '?')}. "
              f"Clock samples: {first.get('clock_samples', 'none')}.",
              "- Speed-up = cuBLAS's median time / autogemm's. Both results are checked against a float64 "
              f"reference: {passed} of {count} autogemm results pass, the largest relative error {worst_err:.1e}.",
              f"- Floor = max(2·M·N·K / {bench_table.PEAK_TFLOPS} TFLOP/s, 4·(MK + KN + MN) bytes / "
              f"{bench_table.BANDWIDTH_TBS} TB/s): the H100 SXM's FP32 peak (132 SMs × 128 lanes × 2 FLOP × "
              "1.98 GHz) and the device-to-device copy rate measured on the same machine. "
              "× floor = autogemm's time / the floor.",
              "- Choice: `tuned` is the tuning table's measured best for the problem; any other value is "
              "the library's untuned choice (`docs/runtime.md`). Problems are row-major C[M,N] = A[M,K]·B[K,N]; "
              "the layout gives the ops of the column-major (cuBLAS) call, `nn` meaning both row-major.",
              "", "How the files were made (results over 50 KB are stored as `NAME.xz`; the tools read either):",
              "", "```sh",
              "xz -dc docs/results/h100_tuning_table.csv.xz > table.csv",
              "gemm-tune import --db table.sqlite3 table.csv",
              "AUTOGEMM_DB=table.sqlite3 gemm-tune bench --set seed --json docs/results/h100_bench_seed.json",
              "AUTOGEMM_DB=table.sqlite3 gemm-tune bench --set perf --layout all --json docs/results/h100_bench_perf.json",
              "xz -9f docs/results/h100_bench_seed.json docs/results/h100_bench_perf.json",
              COMMAND, "```", "",
              "A new table comes from `gemm-tune tune --set seed` and `gemm-tune tune --set perf --layout all` "
              "into an empty database, then `gemm-tune export --format csv` (`docs/tuner.md`)."]
    if seed is not None and perf is not None:
        try:
            targets = perf_targets.target_rows(seed["results"], perf["results"])
        except LookupError as e:
            print(f"perf_report: targets left out ({e})", file=sys.stderr)
        else:
            lines += ["", "## Targets", "",
                      "The FP32 targets of issue 6, checked by `tools/perf_targets.py` on the seed and perf files:", ""]
            lines += perf_targets.markdown_table(targets)
            if not all(ok for _, _, ok in targets):
                lines += ["", "What bounds the missed ones on this card, measured: [decisions.md](decisions.md)."]
    if args.plotted or os.path.exists(args.plot):
        lines += ["", f"![speed-up over cuBLAS per problem]({link(args.plot, docs_dir)})"]
    for name, doc in sets:
        rows = [bench_table.problem_row(r) for r in doc["results"]]
        lines += ["", f"## The {name} set", "", set_summary(name, doc), ""]
        lines += bench_table.markdown_table(rows, TABLE_COLUMNS, TABLE_HEADERS)
    if args.h200_sets:
        device = args.h200_sets[0][1]["device"].get("name", "?")
        lines += ["", f"## Tensor cores, on the {device}", "",
                  f"The tensor-core families are measured on the project's GPU machine, an {device} (141 GB of "
                  "HBM3e): the H100 SXM's 132 SMs at 1980 MHz, so the same compute peaks, and a device-to-device "
                  f"copy rate of {bench_table.DEVICE_BANDWIDTH_TBS.get(device, '?')} TB/s measured there "
                  f"(`{link(os.path.join(RESULTS, 'h200_validation.txt'), docs_dir)}`). `gemm-tune bench --dtype "
                  "bf16|f16` against `cublasGemmEx` with `CUBLAS_COMPUTE_32F` in default math (tensor cores); "
                  "`--math tf32` against `cublasGemmEx` with `CUBLAS_COMPUTE_32F_FAST_TF32`; `--math "
                  "fp32_emulated` (3xTF32, FP32-level error: [accuracy.md](accuracy.md)) against cuBLAS SGEMM in "
                  "pedantic FP32; same process, same method as above. Floor = max(2·M·N·K / the dense peak "
                  f"({bench_table.TENSOR_PEAK_TFLOPS:.0f} TFLOP/s BF16/FP16, 494.7 TF32, a third of it for 3xTF32), "
                  "bytes of A, B and C / the copy rate). The math modes may choose any arithmetic at least as "
                  "accurate as their own: a `simt_sgemm` kernel is the CUDA-core FP32 one. `padded`: the call ran on "
                  "padded, aligned copies of its operands (`src/realigned.hpp`).", "",
                  "The sets ran with tables tuned on this machine from an empty database: "
                  f"`{link(os.path.join(RESULTS, 'h200_tuning_table_tc.csv'), docs_dir)}` (BF16/FP16, every problem), "
                  f"`{link(os.path.join(RESULTS, 'h200_tuning_table_tc_large.csv'), docs_dir)}` (the 22 problems of "
                  "these sets of 2·2048·4096² FLOPs and more, `tools/large_problems.csv`, in BF16 and in FP16, tuned "
                  "by the current tuner, whose full timing settles each finalist and covers every candidate "
                  "its quick pass ranks at or below the best: [decisions.md](decisions.md#the-tuners-full-timing-"
                  "settles-and-full-timings-rank-first), "
                  f"`{link(os.path.join(RESULTS, 'h200_large_retune.txt'), docs_dir)}`; searched first, so those "
                  "problems run its choices in every tuned file) and "
                  f"`{link(os.path.join(RESULTS, 'h200_tuning_table_fp32tc.csv'), docs_dir)}` (TF32/3xTF32: the rows "
                  "fully timed, which hold each problem's best; tuned with the K-major copy in 32×32 tiles, benched "
                  "with the current 64×32 tile; the 3xTF32 benches ran the copies in the order [hi | hi | lo], which "
                  "writes the same planes as the current one: [decisions.md](decisions.md#3xtf32-the-corrections-first-and-"
                  "small-outputs-in-splits-of-at-most-2048)). No pedantic FP32 table was tuned here, so the \"autogemm FP32\" column "
                  "(autogemm's own pedantic choice, paired with the mode's) is the untuned one. Sets whose "
                  "name ends in `untuned` ran with no database and have no table below. The full grid's binaries "
                  "are larger than a call to the machine carries, so each BF16/FP16 file ran on a filtered build "
                  "(`AUTOGEMM_KERNELS`; each file's line gives its size): the tuned seed, `llm` and perf sets on "
                  "the instances the two tables choose for their problems, so each problem ran its tuned choice; "
                  "the `untuned` sets on 85 instances that hold the whole grid's untuned pick for every problem "
                  "of the H200 table (ties going by the grid's order) "
                  f"(`{link(os.path.join(RESULTS, 'h200_untuned_picks.txt'), docs_dir)}`), so each problem ran the "
                  "pick of a full build; the "
                  "`large` sets, tuned on "
                  "each type's 116 wgmma instances of 128×256, 256×128, 128×192 and 128×128 tiles (all schedules, "
                  "clusters and swizzles, four layouts), on those 232 (FP16's without cuBLASLt). `cuBLASLt best`: "
                  "the fastest of cuBLASLt's top 8 (4 for TF32) heuristic algorithms for the problem, each checked; "
                  "in the BF16/FP16 files it is timed beside autogemm's choice as cuBLAS is"
                  + (f" (on the interleaved files' problems of 4096³ and more, {lt_vs_cublas}× cublasGemmEx's time)"
                     if lt_vs_cublas else "")
                  + "; the TF32/3xTF32 files timed it alone after the pair, which on the large problems met the "
                  "GPU out of the power cap the pair ran under"
                  + (f" (timed alone, the interleaved BF16/FP16 files' problems of 4096³ and more took {lt_alone} "
                     "of their interleaved time)" if lt_alone else "") + ". The BF16/FP16 files were timed "
                  "in blocks of each library's own (the default; cuBLASLt's best in blocks too, the `untuned` "
                  "files without it), each problem "
                  "after 2000 ms of both libraries, past the power cap's dip about a second into sustained "
                  "launches (`results/h200_power_transient.txt`, [decisions.md](decisions.md#medians-after-a-"
                  "settle-500-ms-in-the-tuner-2000-ms-in-the-benchmark)); the TF32/3xTF32 files "
                  "interleaved (`--timing interleaved`), where the two libraries share one power state and what "
                  "one draws sets the other's clock, so that their compute-bound problems read a few percent "
                  "above what blocks give ([decisions.md](decisions.md#paired-timing-against-cublas-in-blocks-of-"
                  "each-librarys-own)); each file's method line gives its timing and warm-up.", "",
                  "```sh",
                  "for dt in bf16 f16; do",
                  "  gemm-tune tune --dtype $dt --set seed; gemm-tune tune --dtype $dt --set llm --layout tn",
                  "  gemm-tune tune --dtype $dt --set perf --layout all",
                  "  gemm-tune tune --dtype $dt --shape 4096,4096,4096 --shape 8192,8192,8192 --layout tn,nn",
                  "done",
                  "gemm-tune tune --math tf32 --set seed; gemm-tune tune --math tf32 --set perf --layout all"
                  "  # and --math fp32_emulated",
                  "gemm-tune tune --dtype bf16 --shapes tools/large_problems.csv --db large.sqlite3  # an empty one; f16 too",
                  "gemm-tune import --db tc.sqlite3 tc.csv  # the tables decompressed; large.csv into large.sqlite3",
                  "AUTOGEMM_DB=large.sqlite3:tc.sqlite3 gemm-tune bench --dtype bf16 --set llm --layout tn "
                  "--json docs/results/h200_bench_tc_bf16_llm.json  # and so on",
                  "AUTOGEMM_DB=large.sqlite3 gemm-tune bench --dtype bf16 --shapes tools/large_problems.csv "
                  "--json docs/results/h200_bench_tc_bf16_large.json  # f16 the same, with --cublaslt 0",
                  "gemm-tune bench --math tf32 --set seed --cublaslt 4 --timing interleaved "
                  "--json docs/results/h200_bench_fp32tc_tf32_seed.json",
                  "AUTOGEMM_DB=/nonexistent gemm-tune bench --dtype bf16 --set llm --layout tn --cublaslt 0 "
                  "--json docs/results/h200_bench_tc_bf16_llm_untuned.json",
                  "```", ""]
        if args.tc_plotted or os.path.exists(args.tc_plot):
            lines += [f"![BF16/FP16 speed-up over cublasGemmEx per problem, tuned]({link(args.tc_plot, docs_dir)})", ""]
        lines += tc_target_lines(args)
        lines += tensor_set_lines(args.h200_sets, args.h200_paths, docs_dir)
    if os.path.exists(stored(args.accuracy)):
        lines += accuracy_section(args.accuracy, docs_dir)
    else:
        print(f"perf_report: no {os.path.relpath(args.accuracy, ROOT)}: accuracy section left out", file=sys.stderr)
    # The latest validation of each GPU the report measures on: the current machine's first.
    validations = [(path, validation_rows(path)) for path in args.validation]
    for path, rows in validations:
        if rows is None:
            print(f"perf_report: no {os.path.relpath(path, ROOT)}: its validation left out", file=sys.stderr)
    validations = [(path, rows) for path, rows in validations if rows is not None]
    if validations:
        lines += ["", "## Validation", "",
                  "The latest GPU validation on each machine (`tools/gpu_validation.sh`'s summary, or the same "
                  "checks run by hand): the GPU suite checks every compiled instance against float64; "
                  "compute-sanitizer runs over the covering subset; selfcheck is `gemm-tune selfcheck`."]
        for path, rows in validations:
            lines += ["", f"`{link(path, docs_dir)}`:", ""] + kv_table(("check", "result"), rows)
    return "\n".join(lines) + "\n"


def readme_block(sets, args):
    """The lines between README.md's markers: headline problems and each set's geometric mean."""
    readme_dir = os.path.dirname(os.path.abspath(args.readme))
    found = {(r["label"], r["layout"]): r for _, doc in sets for r in doc["results"]}
    tuned = all(r["source"] == "tuned" for _, doc in sets for r in doc["results"])
    lines = [f"<!-- Written by `{COMMAND}`: rerun it, do not edit. -->",
             f"On the {sets[0][1]['device'].get('name', '?')}, {'tuned' if tuned else 'tuned or not'}, against "
             "cuBLAS SGEMM (pedantic FP32) in the same process; median time with a cold L2:", "",
             "| problem (M×N×K, layout) | autogemm µs | cuBLAS µs | speed-up |", "| --- | --- | --- | --- |"]
    for key in HEADLINES:
        if key in found:
            r = found[key]
            lines.append(f"| {key[0].replace('x', '×')} {key[1]} | {r['autogemm']['median_us']:.1f} "
                         f"| {r['cublas']['median_us']:.1f} | {bench_table.speedup(r):.2f}× |")
    for name, doc in sets:
        g = bench_table.geomean([bench_table.speedup(r) for r in doc["results"]])
        layouts = len({r["layout"] for r in doc["results"]})
        lines.append(f"| geometric mean, {name} set ({len(doc['results'])} problems"
                     + (f", {layouts} layouts" if layouts > 1 else "") + f") | | | **{g:.3f}×** |")
    if args.h200_sets:
        lines += ["", f"On tensor cores, on the {args.h200_sets[0][1]['device'].get('name', '?')}, tuned on it or "
                  "untuned (geometric means against cublasGemmEx, and 3xTF32 against cuBLAS pedantic SGEMM): " + ", ".join(
                      f"{name}{' (timed in blocks)' if in_blocks(doc) else ''} "
                      f"{bench_table.geomean([bench_table.speedup(r) for r in doc['results']]):.3f}×"
                      for name, doc in args.h200_sets) + "."]
    lines += ["", f"Every problem, the device and the method: [{os.path.relpath(args.out, readme_dir)}]"
                  f"({os.path.relpath(args.out, readme_dir)})."]
    return lines


def refresh_readme(path, block):
    with open(path) as f:
        text = f.read()
    begin, end = text.find(README_BEGIN), text.find(README_END)
    if begin < 0 or end < begin:
        print(f"perf_report: {path} has no {README_BEGIN} ... {README_END} block: left as it is", file=sys.stderr)
        return
    new = text[:begin + len(README_BEGIN)] + "\n" + "\n".join(block) + "\n" + text[end:]
    if new != text:
        with open(path, "w") as f:
            f.write(new)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", default=os.path.join(RESULTS, "h100_bench_seed.json"),
                    help="gemm-tune bench --set seed --json output")
    ap.add_argument("--perf", default=os.path.join(RESULTS, "h100_bench_perf.json"),
                    help="gemm-tune bench --set perf --layout all --json output")
    ap.add_argument("--table", default=os.path.join(RESULTS, "h100_tuning_table.csv"),
                    help="the tuning table the benchmark ran with (gemm-tune export --format csv)")
    ap.add_argument("--validation", nargs="*",
                    default=[os.path.join(RESULTS, "h200_validation.txt"), os.path.join(RESULTS, "h100_validation.txt")],
                    help="validation summaries (tools/gpu_validation.sh's validation.txt), the current machine's "
                         "first (each left out where missing)")
    ap.add_argument("--accuracy", default=os.path.join(RESULTS, tc_targets.ACCURACY_FILE),
                    help="gemm-tune accuracy --json output (section left out where missing)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    ap.add_argument("--plot", default=os.path.join(RESULTS, "h100_speedup.png"))
    ap.add_argument("--tc-plot", default=os.path.join(RESULTS, "h200_speedup_tc.png"),
                    help="the BF16/FP16 tuned sets' plot")
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"), help="'' leaves README.md alone")
    args = ap.parse_args()
    # The tensor-core sets, measured on the H200, BF16/FP16 first.
    h200 = tc_targets.h200_sets(RESULTS)
    args.h200_paths = [path for _, path, _ in h200]
    args.h200_sets = [(name, doc) for name, _, doc in h200]
    args.bench_paths = [args.seed, args.perf]
    sets = [("seed", load_json(args.seed)), ("perf", load_json(args.perf))]
    args.plotted = draw_plot(args.plot, [("", [doc for _, doc in sets])])
    tc_panels = tc_plot_panels(args.h200_sets)
    # Without matplotlib the first plot has said so; the second is left too.
    args.tc_plotted = args.plotted and bool(tc_panels) and draw_plot(args.tc_plot, tc_panels, TC_PLOT_TITLE,
                                                                      TC_PLOT_TARGET)
    with open(args.out, "w") as f:
        f.write(report(sets, args))
    if args.readme:
        refresh_readme(args.readme, readme_block(sets, args))
    print(f"perf_report: wrote {os.path.relpath(args.out, ROOT)}"
          + (f" and {os.path.relpath(args.plot, ROOT)}" if args.plotted else "")
          + (f", {os.path.relpath(args.tc_plot, ROOT)}" if args.tc_plotted else "")
          + (f"; {os.path.relpath(args.readme, ROOT)}'s speed table" if args.readme else ""))


if __name__ == "__main__":
    main()
