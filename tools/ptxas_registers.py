#!/usr/bin/env python3
"""Registers and spill stores per kernel instance from the ptxas `-v` output of a build log (the
`h100` preset sets AUTOGEMM_PTXAS_VERBOSE: `cmake --build --preset h100 > build.log 2>&1`), as CSV
keyed by instance name. With two logs: one row per instance in both, the second's change, and a
summary per alignment class on standard error.
Usage: tools/ptxas_registers.py BUILD.log [NEW_BUILD.log] [-o OUT.csv]"""
import argparse
import csv
import re
import statistics
import sys

ENTRY = re.compile(r"Compiling entry function '(\S+)'")
SPILL = re.compile(r"(\d+) bytes spill stores")
USED = re.compile(r"Used (\d+) registers")
# The ConfigTag arguments in a mangled name: ints (Li64E), the two ops (OpE0, S3_1), the family (FamilyE0).
TAG_ARG = re.compile(r"(?:Li|OpE|S3_|FamilyE)(-?\d+)")


def instance_name(mangled):
    """The instance's procedural name (kernels/kernel_config.cpp), or None for other kernels. GEMV
    instances are compiled once per output width; those entries are skipped (same name)."""
    if "simt_sgemm_kernel" not in mangled or "ConfigTag" not in mangled:
        return None
    v = [int(x) for x in TAG_ARG.findall(mangled.split("ConfigTag", 1)[1])]
    bm, bn, bk, wm, wn, tm, tn, stages, min_blocks, op_a, op_b, align = v[:12]
    slices = v[13] if len(v) > 13 else 1
    threads = (bm // wm) * (bn // wn) * 32 * slices
    ks = f"_ks{slices}" if slices != 1 else ""
    layout = "nt"[op_a] + "nt"[op_b]
    return f"simt_sgemm_{bm}x{bn}x{bk}_w{wm}x{wn}_t{tm}x{tn}{ks}_s{stages}_b{threads}x{min_blocks}_{layout}_align{align}"


def parse(path):
    """{instance name: (registers, spill store bytes)} of one build log."""
    out, name, spill = {}, None, 0
    for line in open(path, errors="replace"):
        if m := ENTRY.search(line):
            name, spill = instance_name(m.group(1)), 0
        elif name and (m := SPILL.search(line)):
            spill = int(m.group(1))
        elif name and (m := USED.search(line)):
            out[name] = (int(m.group(1)), spill)
            name = None
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("new_log", nargs="?")
    ap.add_argument("-o", "--output", help="CSV file (default: standard output)")
    args = ap.parse_args()
    old = parse(args.log)
    out = open(args.output, "w", newline="") if args.output else sys.stdout
    w = csv.writer(out)
    if not args.new_log:
        w.writerow(["kernel", "registers", "spill_bytes"])
        for name in sorted(old):
            w.writerow([name, *old[name]])
        return
    new = parse(args.new_log)
    both = sorted(set(old) & set(new))
    w.writerow(["kernel", "registers_old", "registers_new", "spill_bytes_old", "spill_bytes_new"])
    for name in both:
        w.writerow([name, old[name][0], new[name][0], old[name][1], new[name][1]])
    for align in ("align4", "align1"):
        names = [n for n in both if n.endswith(align)]
        if not names:
            continue
        d = [new[n][0] - old[n][0] for n in names]
        print(f"{align}: {len(names)} instances, registers mean {statistics.mean(old[n][0] for n in names):.1f} -> "
              f"{statistics.mean(new[n][0] for n in names):.1f} ({sum(x < 0 for x in d)} fewer, {sum(x > 0 for x in d)} more), "
              f"spilling {sum(old[n][1] > 0 for n in names)} -> {sum(new[n][1] > 0 for n in names)} instances, "
              f"{sum(old[n][1] for n in names)} -> {sum(new[n][1] for n in names)} spill bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
