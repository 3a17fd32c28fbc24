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
