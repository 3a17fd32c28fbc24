"""The gemm-tune console script of the Python package: runs the gemm-tune program it carries."""

import os
import sys

from . import gemm_tune_path


def main() -> None:
    path = gemm_tune_path()
    os.execv(path, [path, *sys.argv[1:]])
