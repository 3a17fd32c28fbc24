#!/usr/bin/env python3
"""CTest check of tools/compare_untuned.py: the kernel-only quality (exhaustive best / untuned time)
and, with --tuned-bench, the end-to-end quality (the exhaustive tuning's own run / untuned time), per
problem and as geometric means, on two made-up problems, one of them tuned in its padded form.
Usage: test_compare_untuned.py TOOLS_DIR"""
import json
import os
import subprocess
import sys
import tempfile

tools = sys.argv[1]


def bench_result(m, n, k, us, source, kernel="k_bench"):
    # gemm-tune bench writes the row-major shape: the column-major problem's m is its n.
    return {"layout": "nn", "shape": {"m": n, "n": m, "k": k}, "source": source, "kernel": kernel, "splits": 1,
            "split_mode": "none", "autogemm": {"median_us": us}}


untuned = {"results": [bench_result(1000, 1000, 1000, 20.0, "untuned"), bench_result(3001, 127, 1531, 30.0, "untuned")]}
exhaustive = {"problems": [
    {"layout": "nn", "m": 1000, "n": 1000, "k": 1000,
     "best": {"kernel": "k_best", "median_us": 10.0, "splits": 1, "split_mode": "none"}},
    {"layout": "nn", "m": 3008, "n": 128, "k": 1536, "padded_from": {"m": 3001, "n": 127, "k": 1531},
     "best": {"kernel": "k_best", "median_us": 12.0, "splits": 1, "split_mode": "none"}},
]}
tuned = {"results": [bench_result(1000, 1000, 1000, 10.0, "tuned"), bench_result(3001, 127, 1531, 27.0, "tuned")]}
with tempfile.TemporaryDirectory() as d:
    paths = []
    for name, doc in (("untuned", untuned), ("exhaustive", exhaustive), ("tuned", tuned)):
        paths.append(os.path.join(d, name + ".json"))
        with open(paths[-1], "w") as f:
            json.dump(doc, f)
    run = lambda *extra: subprocess.run([sys.executable, os.path.join(tools, "compare_untuned.py"), paths[0], paths[1],
                                         *extra], capture_output=True, text=True, check=True).stdout
    plain = run()
    assert "| 0.50 |" in plain and "| 0.40 |" in plain, plain  # 10 / 20 and 12 / 30
    assert "geometric mean quality **0.447**, worst **0.400**" in plain, plain
    assert "End to end" not in plain, plain
    both = run("--tuned-bench", paths[2])
    assert "| 10.0 | 0.50 |" in both and "| 27.0 | 0.90 |" in both, both  # 10 / 20 and 27 / 30
    assert "geometric mean **0.671**, worst **0.500**" in both, both
print("compare_untuned: kernel-only and end-to-end qualities, per problem and as geometric means")
