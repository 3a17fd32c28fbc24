"""The Python package's real client: a small GPT-2 built from a config with transformers (random
weights, nothing downloaded), its forward pass with and without autogemm.torch.enable(), on one GPU.

    python3 tools/python/model_check.py [--dtype bfloat16|float32] [--json FILE] [--record FILE] [--db FILE]

The model runs in bfloat16 where the library computes it on the GPU (else float32; --dtype chooses).
Checks the logits against PyTorch's: in float32, their relative Frobenius error within FP32's bound
over the widest K; in bfloat16, PyTorch's own bfloat16 forward differs from the float32 model's by
the type's rounding, so autogemm's bfloat16 logits must be as close to the float32 model's as
PyTorch's are (at most 1.5 times their error), and within ten layers' worth of bfloat16 rounding of
PyTorch's. Times the forward pass both ways (CUDA events, median of 20 after 5 warm-up passes): run
eagerly, under a TorchFunctionMode that routes nothing (the routing's host cost), and captured in a
CUDA graph (GPU time alone). --record writes the GEMM problems the model runs (for gemm-tune tune
--shapes); --db reads a tuning database.
"""

import argparse
import contextlib
import json
import math
import statistics
import sys

import torch
from transformers import GPT2Config, GPT2LMHeadModel

import autogemm
import autogemm.torch as agt


class _PassThrough(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def forward_times(model, tokens, reps=20, warmup=5):
    for _ in range(warmup):
        model(tokens)
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        model(tokens)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def graph_times(model, tokens, routed, reps=20):
    """The forward pass captured once in a CUDA graph (with autogemm's routing or without), then
    replayed: GPU time without the host's per-op cost."""
    routing = agt.enabled if routed else contextlib.nullcontext
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side), routing():
        for _ in range(3):  # warm-up on the capture stream: kernels chosen, workspaces sized
            model(tokens)
    side.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side), routing():
        model(tokens)
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument("--record", help="record the untuned problems to this CSV")
    parser.add_argument("--db", help="tuning database to read")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=256)
    parser.add_argument("--dtype", choices=["bfloat16", "float32"],
                        help="the model's type (default: bfloat16 where the library computes it on the GPU)")
    args = parser.parse_args()
    if args.db:
        autogemm.set_database(args.db)
    if args.record:
        autogemm.record_untuned(args.record)

    dtype_name = args.dtype or ("bfloat16" if agt._computes_on(torch.bfloat16, torch.device("cuda")) else "float32")
    dtype = getattr(torch, dtype_name)
    torch.manual_seed(0)
    config = GPT2Config(n_layer=args.layers, n_embd=768, n_head=12, n_positions=1024, vocab_size=50257)
    model = GPT2LMHeadModel(config).cuda().eval()  # float32, random weights
    tokens = torch.randint(0, config.vocab_size, (args.batch, args.seq), device="cuda")
    torch.backends.cuda.matmul.allow_tf32 = False  # PyTorch's reference in pedantic FP32, as autogemm's

    def relative(x, ref):
        return ((x.double() - ref).norm() / ref.norm()).item()

    with torch.no_grad():
        reference = model(tokens).logits.double()  # the float32 model
        widest_k = 4 * config.n_embd  # the MLP's second projection
        extra = {}
        if dtype == torch.float32:
            with agt.enabled():
                logits = model(tokens).logits
            err = relative(logits, reference)
            # Each layer's GEMMs feed the next; one GEMM's bound times the layers, with a margin of 10.
            bound = 10 * args.layers * (1e-6 * math.sqrt(widest_k) + 1e-6)
            ok = err <= bound
        else:
            model = model.to(dtype)
            pytorch_logits = model(tokens).logits
            with agt.enabled():
                logits = model(tokens).logits
            err = relative(logits, pytorch_logits.double())
            bound = 10 * args.layers * 2.0**-8
            extra = {"autogemm_vs_float32_model": relative(logits, reference),
                     "pytorch_vs_float32_model": relative(pytorch_logits, reference)}
            ok = err <= bound and extra["autogemm_vs_float32_model"] <= 1.5 * extra["pytorch_vs_float32_model"]
        torch.cuda.synchronize()
        pytorch_ms = forward_times(model, tokens)
        with agt.enabled():
            autogemm_ms = forward_times(model, tokens)
        # The routing's own cost: the same forward under a TorchFunctionMode that routes nothing.
        with _PassThrough():
            passthrough_ms = forward_times(model, tokens)
        graph_pytorch_ms = graph_times(model, tokens, routed=False)
        graph_autogemm_ms = graph_times(model, tokens, routed=True)

    result = {
        "device": torch.cuda.get_device_name(),
        "model": f"GPT-2 config, {args.layers} layers, 768 wide, batch {args.batch} x {args.seq} tokens, {dtype_name}",
        "logits_relative_error": err,
        "bound": bound,
        **extra,
        "forward_ms_pytorch": pytorch_ms,
        "forward_ms_autogemm": autogemm_ms,
        "forward_ms_pytorch_under_a_passthrough_mode": passthrough_ms,
        "speedup": pytorch_ms / autogemm_ms,
        "graph_ms_pytorch": graph_pytorch_ms,
        "graph_ms_autogemm": graph_autogemm_ms,
        "graph_speedup": graph_pytorch_ms / graph_autogemm_ms,
        "database": args.db,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    if not ok:
        print(f"logits differ from PyTorch's by {err:.3g} (bound {bound:.3g}); {extra}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
