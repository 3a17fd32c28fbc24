"""autogemm: tuned GEMMs for CUDA arrays from PyTorch, CuPy, JAX or another library that speaks DLPack.

    import autogemm
    c = autogemm.matmul(a, b)              # a @ b: float32, bfloat16 or float16 CUDA arrays
    autogemm.matmul(a, b, out=c, beta=1)   # c = a @ b + c

Each call looks up the best kernel for its problem on its GPU in the tuning database (see
``set_database``), else takes the untuned choice, the cost model's pick. Record the problems a
program runs with ``record_untuned``, tune them with ``tune`` (or ``gemm-tune tune --shapes``) and
run again. ``autogemm.torch`` routes ``torch.mm``, ``torch.matmul``, ``torch.addmm`` and
``torch.nn.functional.linear`` through the library. docs/python.md has the whole workflow.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

from . import _autogemm

__version__ = _autogemm.version()

#: The element types matmul takes, as NumPy/PyTorch names: float32 (FP32 on CUDA cores), bfloat16
#: and float16 (tensor cores, FP32 accumulation; ``out`` of the operands' type or float32). The
#: 16-bit types run where the library has code for the GPU (sm_90a builds on an H100 or H200; on
#: other GPUs only outputs at most 4 wide or tall, on CUDA cores); elsewhere a call raises
#: RuntimeError (NOT_SUPPORTED) naming the type.
dtypes = ("float32", "bfloat16", "float16")

# gemm-tune's --dtype for each.
_TUNE_DTYPES = {"float32": "f32", "bfloat16": "bf16", "float16": "f16"}

_MODES = ("tuned", "heuristic", "online")


def _library(x) -> str:
    """The array library an array comes from: 'torch', 'cupy', 'jax', 'numpy' or its module."""
    module = type(x).__module__.split(".")[0]
    return "jax" if module in ("jaxlib", "jax") else module


def _device_stream(x) -> int:
    """The stream work on `x` is ordered on: PyTorch's and CuPy's current stream, else the legacy
    default stream (0)."""
    lib = _library(x)
    if lib == "torch" and x.is_cuda:
        import torch

        return torch.cuda.current_stream(x.device).cuda_stream
    if lib == "cupy":
        import cupy

        with cupy.cuda.Device(x.device.id):
            return cupy.cuda.get_current_stream().ptr
    return 0


def _exportable(x):
    """PyTorch exports no tensor that requires grad through DLPack; the GEMM reads its data only."""
    if _library(x) == "torch" and x.requires_grad:
        return x.detach()
    return x


def _new_output(a, rows: int, cols: int):
    lib = _library(a)
    if lib == "jax":
        return _autogemm.empty_jax(a, rows, cols)
    if lib == "torch":
        import torch

        return torch.empty((rows, cols), dtype=a.dtype, device=a.device)
    if lib == "cupy":
        import cupy

        with cupy.cuda.Device(a.device.id):
            return cupy.empty((rows, cols), dtype=a.dtype)
    if lib == "numpy":
        import numpy

        return numpy.empty((rows, cols), dtype=a.dtype)  # refused by the module with a clear message
    raise TypeError(
        f"autogemm.matmul cannot allocate the result for a {type(a).__module__}.{type(a).__name__}: "
        "pass out= (a CUDA array of that library that can be written, e.g. a CuPy or PyTorch array)"
    )


def _shape2(x, name: str):
    shape = tuple(getattr(x, "shape", ()))
    if len(shape) != 2:
        raise ValueError(f"{name} has {len(shape)} dimensions: autogemm.matmul takes 2-D arrays")
    return shape


def matmul(a, b, *, out=None, alpha: float = 1.0, beta: float = 0.0):
    """``alpha * (a @ b) + beta * out`` with NumPy semantics, on CUDA arrays of any DLPack library.

    a is (M, K), b is (K, N), out (M, N); row-major arrays, transposed views and arrays with a
    padded row pitch are read in place (one of an array's strides must be 1). The result is written
    into ``out`` when given (beta = 0 never reads it), else into a new array of a's library. The
    call is enqueued on PyTorch's or CuPy's current stream of a's device (JAX arrays: the call waits
    for a and b, runs on the default stream and returns when its new result is written). a and b are of one type in
    ``dtypes``; out is of theirs, or float32 for bfloat16/float16 operands (the FP32 sums unrounded).
    Raises TypeError for arrays that are not CUDA arrays of such types, ValueError for shapes,
    strides or arguments the GEMM cannot take, RuntimeError for what fails on the GPU; each message
    names the bad value.
    """
    m, k = _shape2(a, "a")
    k2, n = _shape2(b, "b")
    if k != k2:
        raise ValueError(f"a {tuple(a.shape)} and b {tuple(b.shape)} cannot be multiplied")
    jax = _library(a) == "jax"
    if jax and out is not None:
        raise TypeError("out= cannot be a JAX array (JAX arrays are immutable): leave it unset for a new one")
    if out is None:
        if beta != 0:
            raise ValueError(f"beta = {beta} needs out= (the result is added to it)")
        out = _new_output(a, m, n)
    elif tuple(getattr(out, "shape", ())) != (m, n):
        raise ValueError(f"out is {tuple(getattr(out, 'shape', ()))}, a @ b is {(m, n)}")
    if jax:
        # JAX computes on streams of its own: its operands are ready first, its result when returned.
        for x in (a, b):
            if hasattr(x, "block_until_ready"):
                x.block_until_ready()
    stream = _device_stream(a)
    _autogemm.matmul_into(_exportable(a), _exportable(b), out, float(alpha), float(beta), stream)
    if jax:
        _autogemm.synchronize(stream)
    return out


@dataclass(frozen=True)
class Choice:
    """What autogemm runs for a problem (``explain``)."""

    kernel: str  #: the kernel instance, its name in the tuning database
    split: str  #: the split of K: "1", "8p" (8 splits, parallel reduction), "3s" (serial)
    source: str  #: "tuned" (a database), "online" (measured on a first call) or "untuned" (cost model)
    time_us: float  #: measured median (tuned, online) or the cost model's estimate (untuned)
    measured: bool
    call: str  #: the column-major call a @ b becomes (ops, m, n, k, leading dimensions)

    def __str__(self) -> str:
        how = "measured" if self.measured else "estimated"
        return f"{self.kernel} split {self.split} ({self.source}, {self.time_us:.1f} us {how}; {self.call})"


def explain(a, b, *, out=None) -> Choice:
    """The kernel ``matmul(a, b, out=out)`` runs, where the choice comes from and its time, without
    running it (in online mode an untuned problem is tuned now)."""
    m, k = _shape2(a, "a")
    _, n = _shape2(b, "b")
    if out is None:
        out = _new_output(a, m, n)
    return Choice(**_autogemm.explain(_exportable(a), _exportable(b), out, _device_stream(a)))


def set_mode(mode: str) -> None:
    """How every handle picks kernels: "tuned" (the database, else the untuned choice; the default),
    "heuristic" (the cost model only) or "online" (tune an untuned problem on its first call within
    the online budget, store it in the first database of the search path)."""
    if mode not in _MODES:
        raise ValueError(f"mode {mode!r} is not one of {', '.join(_MODES)}")
    _autogemm.set_mode(mode)


def set_online_budget(milliseconds: float) -> None:
    """Wall time an untuned problem's first call may spend tuning in online mode (default 500 ms)."""
    _autogemm.set_online_budget(float(milliseconds))


def set_database(path: Union[str, os.PathLike, None]) -> None:
    """The tuning databases to search, ':'-separated, first match first (as AUTOGEMM_DB); None
    restores the default (AUTOGEMM_DB, else the user's then the system database)."""
    _autogemm.set_database(None if path is None else os.fspath(path))


def record_untuned(path: Union[str, os.PathLike, None]) -> None:
    """Appends every problem served by the untuned choice, once per process, to this CSV (as
    AUTOGEMM_RECORD_UNTUNED); ``tune(path)`` or ``gemm-tune tune --shapes path`` tunes them. None
    stops recording."""
    _autogemm.record_untuned(None if path is None else os.fspath(path))


def gemm_tune_path() -> str:
    """The gemm-tune program this package carries (else the one on PATH)."""
    bundled = Path(__file__).with_name("bin") / "gemm-tune"
    if bundled.is_file():
        return str(bundled)
    found = shutil.which("gemm-tune")
    if found is None:
        raise RuntimeError(f"gemm-tune is neither in {bundled.parent} nor on PATH")
    return found


Shape = Sequence[int]


def tune(
    shapes: Union[str, os.PathLike, Iterable[Shape]],
    *,
    dtype: str = "float32",
    layout: str = "nn",
    db: Union[str, os.PathLike, None] = None,
    devices: Optional[str] = None,
    extra_args: Sequence[str] = (),
) -> None:
    """Tunes problems into the tuning database with gemm-tune (its progress goes to the terminal).

    ``shapes``: a file written by ``record_untuned`` (or a JSON list of [M, N, K]), or row-major
    (M, N, K) triples, as ``a @ b`` with a (M, K) and b (K, N) runs them (``layout`` "nn" is the
    column-major call of contiguous arrays; "all" tunes all four). ``devices``: "0,1" or "all"
    (default: the current GPU). ``dtype``: the operands' type of the listed shapes (a recorded file
    carries each problem's own). Afterwards this process reads its databases anew, so the next calls
    use what was tuned. Raises RuntimeError when gemm-tune fails.
    """
    if dtype not in dtypes:
        raise ValueError(f"dtype {dtype!r} is not one of {', '.join(dtypes)}")
    cmd = [gemm_tune_path(), "tune"]
    if isinstance(shapes, (str, os.PathLike)):
        cmd += ["--shapes", os.fspath(shapes)]
    else:
        listed = [tuple(int(v) for v in s) for s in shapes]
        if not listed or any(len(s) != 3 for s in listed):
            raise ValueError("shapes must be a file or a non-empty list of (M, N, K) triples")
        for s in listed:
            cmd += ["--shape", ",".join(map(str, s))]
        cmd += ["--layout", layout, "--dtype", _TUNE_DTYPES[dtype]]
    if db is not None:
        cmd += ["--db", os.fspath(db)]
    if devices is not None:
        cmd += ["--devices", devices]
    cmd += list(extra_args)
    result = subprocess.run(cmd, stdout=sys.stdout if _is_real_file(sys.stdout) else None,
                            stderr=sys.stderr if _is_real_file(sys.stderr) else None)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with status {result.returncode}")
    _autogemm.reread_databases()  # the next calls see what was tuned


def _is_real_file(stream) -> bool:
    try:
        stream.fileno()
        return True
    except (AttributeError, OSError, ValueError):
        return False


__all__ = [
    "Choice",
    "dtypes",
    "explain",
    "gemm_tune_path",
    "matmul",
    "record_untuned",
    "set_database",
    "set_mode",
    "set_online_budget",
    "tune",
]
