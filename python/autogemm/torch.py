"""autogemm for PyTorch: the GEMM as torch.library custom ops, and a switch that routes PyTorch's
matrix products through them.

    import autogemm.torch
    autogemm.torch.enable()               # torch.mm, torch.matmul (2-D), torch.addmm, F.linear
    with autogemm.torch.enabled(): ...    # the same, for a block

The ops ``autogemm::mm``, ``autogemm::addmm`` and ``autogemm::linear`` have fake implementations
(torch.compile traces them) and autograd formulas, and run on the current stream (CUDA graphs
capture them once a first call on the capture stream, outside capture, has chosen the kernel and
sized that stream's workspace: warm up on a stream s, then ``torch.cuda.graph(g, stream=s)``). A call autogemm does not
serve (another dtype, a dtype the library has no kernel for on that GPU, a CPU tensor, batched
matmul, keyword arguments it does not know) goes to PyTorch unchanged. Whether the library has
kernels for bfloat16 and float16 on a device is asked once, by a GEMM of 8 x 8 x 8 on the first
routed call of that type there (make it outside CUDA-graph capture, as the warm-up above does).
"""

from __future__ import annotations

import contextlib
from typing import Optional

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from . import _autogemm, dtypes

_DTYPES = {getattr(torch, name) for name in dtypes}


def _unit_stride(t: torch.Tensor) -> torch.Tensor:
    """The tensor itself where one of its two strides is 1 (autogemm reads it in place), else a copy."""
    if t.stride(0) == 1 or t.stride(1) == 1:
        return t
    return t.contiguous()


def _run(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, alpha: float, beta: float) -> torch.Tensor:
    stream = torch.cuda.current_stream(a.device).cuda_stream
    _autogemm.matmul_into(_unit_stride(a.detach()), _unit_stride(b.detach()), out, alpha, beta, stream)
    return out


@torch.library.custom_op("autogemm::mm", mutates_args=())
def mm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a @ b for 2-D CUDA tensors of one type in autogemm.dtypes."""
    out = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    return _run(a, b, out, 1.0, 0.0)


@mm.register_fake
def _mm_fake(a, b):
    return a.new_empty((a.shape[0], b.shape[1]))


@torch.library.custom_op("autogemm::addmm", mutates_args=())
def addmm(bias: torch.Tensor, a: torch.Tensor, b: torch.Tensor, beta: float = 1.0, alpha: float = 1.0) -> torch.Tensor:
    """beta * bias + alpha * (a @ b), bias broadcast to the output (copied into it, then beta = 1)."""
    out = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
    out.copy_(bias.expand_as(out))
    return _run(a, b, out, alpha, beta)


@addmm.register_fake
def _addmm_fake(bias, a, b, beta=1.0, alpha=1.0):
    return a.new_empty((a.shape[0], b.shape[1]))


@torch.library.custom_op("autogemm::linear", mutates_args=())
def linear(x: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor] = None) -> torch.Tensor:
    """F.linear: x (..., in) @ weightᵀ (+ bias), the leading dimensions of x flattened into rows."""
    rows = x.reshape(-1, x.shape[-1])
    out = torch.empty((rows.shape[0], weight.shape[0]), dtype=x.dtype, device=x.device)
    if bias is None:
        _run(rows, weight.t(), out, 1.0, 0.0)
    else:
        out.copy_(bias.expand_as(out))
        _run(rows, weight.t(), out, 1.0, 1.0)
    return out.reshape(*x.shape[:-1], weight.shape[0])


@linear.register_fake
def _linear_fake(x, weight, bias=None):
    return x.new_empty((*x.shape[:-1], weight.shape[0]))


# Autograd: the products of the backward pass run through autogemm too.
def _mm_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs[:2])


def _mm_backward(ctx, grad):
    a, b = ctx.saved_tensors
    return (mm(grad, b.t()) if ctx.needs_input_grad[0] else None,
            mm(a.t(), grad) if ctx.needs_input_grad[1] else None)


def _addmm_setup(ctx, inputs, output):
    bias, a, b, beta, alpha = inputs
    ctx.save_for_backward(a, b)
    ctx.bias_shape, ctx.beta, ctx.alpha = bias.shape, beta, alpha


def _addmm_backward(ctx, grad):
    a, b = ctx.saved_tensors
    grad_bias = None
    if ctx.needs_input_grad[0]:
        grad_bias = grad * ctx.beta
        # Sum over the dimensions the bias was broadcast along.
        while grad_bias.dim() > len(ctx.bias_shape):
            grad_bias = grad_bias.sum(0)
        for d, size in enumerate(ctx.bias_shape):
            if size == 1 and grad_bias.shape[d] != 1:
                grad_bias = grad_bias.sum(d, keepdim=True)
    grad_a = mm(grad, b.t()) * ctx.alpha if ctx.needs_input_grad[1] else None
    grad_b = mm(a.t(), grad) * ctx.alpha if ctx.needs_input_grad[2] else None
    return grad_bias, grad_a, grad_b, None, None


def _linear_setup(ctx, inputs, output):
    x, weight, bias = inputs
    ctx.save_for_backward(x, weight)
    ctx.has_bias = bias is not None


def _linear_backward(ctx, grad):
    x, weight = ctx.saved_tensors
    rows = x.reshape(-1, x.shape[-1])
    g = grad.reshape(-1, grad.shape[-1])
    grad_x = mm(g, weight).reshape(x.shape) if ctx.needs_input_grad[0] else None
    grad_w = mm(g.t(), rows) if ctx.needs_input_grad[1] else None
    grad_b = g.sum(0) if ctx.has_bias and ctx.needs_input_grad[2] else None
    return grad_x, grad_w, grad_b


mm.register_autograd(_mm_backward, setup_context=_mm_setup)
addmm.register_autograd(_addmm_backward, setup_context=_addmm_setup)
linear.register_autograd(_linear_backward, setup_context=_linear_setup)


_computes: dict = {}  # (dtype, device index) -> whether the library has kernels for it there


def _computes_on(dtype: torch.dtype, device: torch.device) -> bool:
    """Whether the library computes `dtype` on `device`: float32 always; the 16-bit types where it
    has tensor-core code for the GPU (a GEMM of 8 x 8 x 8 answers, once)."""
    if dtype == torch.float32:
        return True
    key = (dtype, device.index)
    if key not in _computes:
        a = torch.ones((8, 8), dtype=dtype, device=device)
        try:
            _run(a, a, torch.empty_like(a), 1.0, 0.0)
            _computes[key] = True
        except RuntimeError as e:
            if "NOT_SUPPORTED" not in str(e):
                raise
            _computes[key] = False
    return _computes[key]


def _served(*tensors: torch.Tensor) -> bool:
    """Whether autogemm takes these operands: CUDA tensors of one device and one type it computes
    there."""
    first = tensors[0]
    return all(
        isinstance(t, torch.Tensor) and t.is_cuda and t.dtype == first.dtype and t.device == first.device
        for t in tensors
    ) and first.dtype in _DTYPES and _computes_on(first.dtype, first.device)


def _two_d(*tensors) -> bool:
    return all(isinstance(t, torch.Tensor) and t.dim() == 2 for t in tensors)


_MM = frozenset({torch.mm, torch.Tensor.mm, torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__})
_ADDMM = frozenset({torch.addmm, torch.Tensor.addmm})
_ROUTED = _MM | _ADDMM | {F.linear}


class _Routing(TorchFunctionMode):
    """Sends the matrix products autogemm serves to its ops; everything else to PyTorch."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func not in _ROUTED:  # most calls of a model: one set lookup
            return func(*args, **kwargs)
        if func in _MM:
            if len(args) == 2 and not kwargs and _two_d(*args) and _served(*args):
                return torch.ops.autogemm.mm(*args)
        elif func in _ADDMM:
            extra = set(kwargs) - {"beta", "alpha"}
            if len(args) == 3 and not extra and _two_d(*args[1:]) and _served(*args):
                return torch.ops.autogemm.addmm(*args, float(kwargs.get("beta", 1.0)), float(kwargs.get("alpha", 1.0)))
        elif func is F.linear:
            x, weight = args[0], args[1] if len(args) > 1 else kwargs.get("weight")
            bias = args[2] if len(args) > 2 else kwargs.get("bias")
            operands = [t for t in (x, weight, bias) if t is not None]
            if (isinstance(x, torch.Tensor) and x.dim() >= 1 and isinstance(weight, torch.Tensor) and weight.dim() == 2
                    and (bias is None or bias.dim() <= 1) and _served(*operands)):
                return torch.ops.autogemm.linear(x, weight, bias)
        return func(*args, **kwargs)


_enabled: Optional[_Routing] = None


def enable() -> None:
    """Routes torch.mm, torch.matmul (2-D), torch.addmm and F.linear through autogemm in this thread
    until ``disable()``."""
    global _enabled
    if _enabled is None:
        _enabled = _Routing()
        _enabled.__enter__()


def disable() -> None:
    """Undoes ``enable()``."""
    global _enabled
    if _enabled is not None:
        _enabled.__exit__(None, None, None)
        _enabled = None


@contextlib.contextmanager
def enabled():
    """``enable()`` for a block."""
    with _Routing():
        yield


__all__ = ["addmm", "disable", "enable", "enabled", "linear", "mm"]
