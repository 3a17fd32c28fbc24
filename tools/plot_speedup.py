#!/usr/bin/env python3
"""Bar chart (PNG) of autogemm's speed-up over cuBLAS per problem, from `gemm-tune bench --json` files:
one bar per problem (label and layout), lines at 1.0x, at a geometric-mean target (1.15x by default,
the FP32 one) and at the geometric mean. Needs matplotlib (pip install matplotlib, or Debian's
python3-matplotlib). Also imported by tools/perf_report.py: plot_panels() draws the report's charts,
the FP32 sets' in one panel and the BF16/FP16 sets' in a panel per type.
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


def speedups_of(docs):
    """Labels ("MxNxK layout"), speed-ups over cuBLAS and the device name of the bench documents' results."""
    labels, speedups, device = [], [], ""
    for doc in docs:
        device = doc.get("device", {}).get("name", device) if isinstance(doc.get("device"), dict) else device
        for r in doc["results"]:
            labels.append(f"{r['label']} {r['layout']}")
            speedups.append(r["cublas"]["median_us"] / r["autogemm"]["median_us"])
    return labels, speedups, device


def plot(out, docs, title=DEFAULT_TITLE, target=1.15):
    """Writes the chart of the bench documents `docs` (parsed JSON, in order) to the PNG `out`."""
    plot_panels(out, [("", docs)], title, target)


def plot_panels(out, panels, title, target):
    """One chart per (panel title, bench documents) of `panels`, stacked, into the PNG `out`: a bar per
    problem, lines at 1.0x, at the geometric-mean `target` and at the panel's geometric mean."""
    data = [(name,) + speedups_of(docs) for name, docs in panels]
    widest = max(len(labels) for _, labels, _, _ in data)
    per_bar = 0.45 if len(data) == 1 else 0.3
    fig, axes = plt.subplots(len(data), 1, figsize=(max(8, per_bar * widest), 5.5 * len(data)), squeeze=False)
    device = ""
    for ax, (name, labels, speedups, dev) in zip(axes[:, 0], data):
        device = dev or device
        geo = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        colors = ["tab:green" if s >= 1.0 else "tab:red" for s in speedups]
        ax.bar(range(len(labels)), speedups, color=colors)
        ax.axhline(1.0, color="black", linewidth=1)
        ax.axhline(target, color="tab:blue", linestyle="--", linewidth=1,
                   label=f"{target:.2f}× target (geometric mean)")
        ax.axhline(geo, color="tab:orange", linestyle=":", linewidth=1.5,
                   label=f"geometric mean {geo:.3f}× over {len(speedups)} problems")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=70, ha="right", fontsize=8 if len(data) == 1 else 7)
        ax.set_ylabel("cuBLAS time / autogemm time")
        if name:
            ax.set_title(name)
        ax.legend(loc="lower left", framealpha=0.95)
    heading = title + (f" — {device}" if device else "")
    if len(data) > 1:
        fig.suptitle(heading)
    else:
        axes[0, 0].set_title(heading)
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
