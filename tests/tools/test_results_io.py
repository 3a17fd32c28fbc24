#!/usr/bin/env python3
"""CTest check of tools/results_io.py: a results file stored as NAME.xz is read when the tools are
given NAME or NAME.xz, a plain NAME is read as it is, and a name stored in neither form is an error
that names it. Usage: test_results_io.py TOOLS_DIR"""
import json
import lzma
import os
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
from results_io import load_json  # noqa: E402

doc = {"results": [{"label": "16x3072x3072", "speedup": 2.93}]}
with tempfile.TemporaryDirectory() as d:
    packed, plain = os.path.join(d, "packed.json"), os.path.join(d, "plain.json")
    with lzma.open(packed + ".xz", "wt") as f:
        json.dump(doc, f)
    with open(plain, "w") as f:
        json.dump(doc, f)
    assert load_json(packed) == doc, "NAME of a file stored as NAME.xz"
    assert load_json(packed + ".xz") == doc, "NAME.xz given as it is"
    assert load_json(plain) == doc, "a plain NAME"
    missing = os.path.join(d, "missing.json")
    try:
        load_json(missing)
        raise AssertionError("a missing file was read")
    except FileNotFoundError as e:
        assert "missing.json" in str(e), e
print("results_io: NAME, NAME.xz and a plain file read; a missing one named")
