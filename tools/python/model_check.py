"""The Python package's real client: a small GPT-2 built from a config with transformers (random
weights, nothing downloaded), its forward pass with and without autogemm.torch.enable(), on one GPU.

    python3 tools/python/model_check.py [--json FILE] [--record FILE] [--db FILE]

Checks the logits against PyTorch's (relative Frobenius error within FP32's bound over the widest K)
and times the forward pass both ways (CUDA events, median of 20 after 5 warm-up passes): run eagerly,
under a TorchFunctionMode that routes nothing (the routing's host cost), and captured in a CUDA graph
(GPU time alone). --record
writes the GEMM problems the model runs (for gemm-tune tune --shapes); --db reads a tuning database.
FP32: the library computes float32 only (bfloat16 comes with the tensor-core kernels).
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
    args = parser.parse_args()
    if args.db:
        autogemm.set_database(args.db)
    if args.record:
        autogemm.record_untuned(args.record)

    torch.manual_seed(0)
    config = GPT2Config(n_layer=args.layers, n_embd=768, n_head=12, n_positions=1024, vocab_size=50257)
    model = GPT2LMHeadModel(config).cuda().eval()  # float32, random weights
    tokens = torch.randint(0, config.vocab_size, (args.batch, args.seq), device="cuda")
    torch.backends.cuda.matmul.allow_tf32 = False  # PyTorch's reference in pedantic FP32, as autogemm's

    with torch.no_grad():
        reference = model(tokens).logits.double()
        with agt.enabled():
            logits = model(tokens).logits
        torch.cuda.synchronize()
        err = ((logits.double() - reference).norm() / reference.norm()).item()
        widest_k = 4 * config.n_embd  # the MLP's second projection
        # Each layer's GEMMs feed the next; the bound of one GEMM times the layers, with a margin of 10.
        bound = 10 * args.layers * (1e-6 * math.sqrt(widest_k) + 1e-6)
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
        "model": f"GPT-2 config, {args.layers} layers, 768 wide, batch {args.batch} x {args.seq} tokens, float32",
        "logits_relative_error": err,
        "bound": bound,
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
    if not err <= bound:
        print(f"logits differ from PyTorch's by {err:.3g}, over the bound {bound:.3g}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
