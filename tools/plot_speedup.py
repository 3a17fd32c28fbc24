#!/usr/bin/env python3
"""Bar chart (PNG) of autogemm's speed-up over cuBLAS SGEMM per problem, from `gemm-tune bench --json`
files: one bar per problem (label and layout), lines at 1.0x and at the 1.15x geometric-mean target.
Needs matplotlib (pip install matplotlib, or Debian's python3-matplotlib).
Also imported by tools/perf_report.py: plot() draws the report's chart.
Usage: tools/plot_speedup.py OUT.png BENCH.json [MORE.json ...] [--title TEXT]"""
import argparse
import math
import sys

try:
    import matplotlib
except ImportError:
    if __name__ == "__main__":  # run as a command: one line saying what is missing, not a traceback
        sys.exit("plot_speedup: needs matplotlib: apt-get install python3-matplotlib, or pip install matplotlib")
    raise  # imported (tools/perf_report.py): the importer says it

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from results_io import load_json  # noqa: E402

DEFAULT_TITLE = "autogemm (tuned) vs cuBLAS SGEMM, pedantic FP32"


def plot(out, docs, title=DEFAULT_TITLE):
    """Writes the chart of the bench documents `docs` (parsed JSON, in order) to the PNG `out`."""
    labels, speedups = [], []
    device = ""
    for doc in docs:
        device = doc.get("device", {}).get("name", device) if isinstance(doc.get("device"), dict) else device
        for r in doc["results"]:
            labels.append(f"{r['label']} {r['layout']}")
            speedups.append(r["cublas"]["median_us"] / r["autogemm"]["median_us"])
    geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
    fig, ax = plt.subplots(figsize=(max(8, 0.45 * len(labels)), 5))
    colors = ["tab:green" if s >= 1.0 else "tab:red" for s in speedups]
    ax.bar(range(len(labels)), speedups, color=colors)
    ax.axhline(1.0, color="black", linewidth=1)
    ax.axhline(1.15, color="tab:blue", linestyle="--", linewidth=1, label="1.15× target (geometric mean)")
    ax.axhline(geo, color="tab:orange", linestyle=":", linewidth=1.5, label=f"geometric mean {geo:.3f}× over {len(speedups)} problems")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=70, ha="right", fontsize=8)
    ax.set_ylabel("speed-up over cuBLAS (cuBLAS time / autogemm time)")
    ax.set_title(title + (f" — {device}" if device else ""))
    ax.legend(loc="best")
    fig.tight_layout()
    # No creation-time or version metadata: the same results give the same bytes.
    fig.savefig(out, dpi=120, metadata={"Software": None})
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("bench", nargs="+")
    ap.add_argument("--title", default=DEFAULT_TITLE)
    args = ap.parse_args()
    plot(args.out, [load_json(path) for path in args.bench], args.title)


if __name__ == "__main__":
    main()
