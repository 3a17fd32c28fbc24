"""How the tools read a results file of docs/results: results over 50 KB are stored xz-compressed
(NAME.xz, docs/performance.md), so a path is opened as given, or with .xz appended when only the
compressed file exists; NAME.xz is decompressed on the fly."""
import json
import lzma
import os


def open_result(path):
    """The text of `path` (or of `path`.xz when `path` itself is not there), opened for reading."""
    if not os.path.exists(path) and os.path.exists(path + ".xz"):
        path += ".xz"
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def load_json(path):
    """The JSON document stored at `path` (or `path`.xz)."""
    with open_result(path) as f:
        return json.load(f)


def named_results(folder, prefix):
    """The `prefix`*.json results of `folder` (each stored as NAME or NAME.xz), sorted, as (set name,
    path, document); the set's name is the file's less the prefix ("bf16 seed" from
    h200_bench_tc_bf16_seed.json with prefix h200_bench_tc_)."""
    names = sorted({f.removesuffix(".xz") for f in os.listdir(folder)
                    if f.startswith(prefix) and (f.endswith(".json") or f.endswith(".json.xz"))})
    return [(f.removeprefix(prefix).removesuffix(".json").replace("_", " "), os.path.join(folder, f),
             load_json(os.path.join(folder, f))) for f in names]
