"""autogemm from PyTorch (and CuPy where installed) on a GPU, against float64 references: every
layout NumPy semantics allow, odd sizes, out= with alpha and beta, the custom ops under
torch.compile and CUDA-graph capture, autograd, streams, the routing of enable(), explain, and
the record -> tune -> run workflow. Skipped without PyTorch or a CUDA device."""

import math
import os

import pytest

import autogemm

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

import autogemm.torch as agt  # noqa: E402  (needs torch)

DEV = torch.device("cuda", 0)


def bound(k):
    """The library's FP32 error bound over K, relative to the reference's Frobenius norm."""
    return 1e-6 * math.sqrt(k) + 1e-6


def rel_error(c, ref):
    c = c.double()
    return ((c - ref).norm() / max(ref.norm().item(), 1e-300)).item()


def rand(*shape, device=DEV):
    return torch.rand(*shape, device=device, dtype=torch.float32) * 2 - 1


def views(rows, cols):
    """A (rows, cols) float32 tensor as each layout: contiguous, a transposed view, a padded pitch."""
    yield "contiguous", rand(rows, cols)
    yield "transposed", rand(cols, rows).t()
    yield "pitched", rand(rows, cols + 5)[:, :cols]
    yield "pitched_t", rand(cols, rows + 3)[:, :rows].t()


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (7, 13, 5), (129, 65, 33), (3, 300, 97), (300, 2, 97), (1000, 1000, 1000)])
def test_matmul_every_layout_against_float64(m, n, k):
    for a_name, a in views(m, k):
        for b_name, b in views(k, n):
            c = autogemm.matmul(a, b)
            torch.cuda.synchronize()
            assert c.shape == (m, n) and c.dtype == torch.float32
            err = rel_error(c, a.double() @ b.double())
            assert err <= bound(k), f"{a_name} x {b_name}: {err}"


def test_out_alpha_beta_and_a_column_major_out():
    m, n, k = 77, 45, 301
    a, b = rand(m, k), rand(k, n)
    for out in (rand(m, n), rand(n, m).t(), rand(m, n + 7)[:, :n]):
        c0 = out.clone().double()
        result = autogemm.matmul(a, b, out=out, alpha=1.5, beta=-0.5)
        assert result is out
        torch.cuda.synchronize()
        assert rel_error(out, 1.5 * (a.double() @ b.double()) - 0.5 * c0) <= bound(k)
    poisoned = torch.full((m, n), float("nan"), device=DEV)
    autogemm.matmul(a, b, out=poisoned, beta=0.0)  # beta = 0 never reads out
    assert not torch.isnan(poisoned).any()


def test_refusals_name_the_problem():
    a = rand(8, 8)
    with pytest.raises(ValueError, match="unit stride"):
        autogemm.matmul(rand(16, 16)[::2, ::2], a)
    with pytest.raises(TypeError, match="float32"):
        autogemm.matmul(a.double(), a.double())
    with pytest.raises(TypeError, match="CPU"):
        autogemm.matmul(a.cpu(), a.cpu())
    with pytest.raises(ValueError, match="out is"):
        autogemm.matmul(a, a, out=rand(4, 8))


def test_tensors_that_require_grad_and_zero_sizes():
    a, b = rand(5, 0), rand(0, 6)
    assert torch.equal(autogemm.matmul(a, b, out=torch.ones(5, 6, device=DEV), beta=0.0), torch.zeros(5, 6, device=DEV))
    x = rand(9, 4).requires_grad_()
    c = autogemm.matmul(x, rand(4, 3))
    assert c.shape == (9, 3)


def test_streams_are_the_current_ones():
    a, b = rand(512, 512), rand(512, 512)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        c = autogemm.matmul(a, b)
    side.synchronize()
    assert rel_error(c, a.double() @ b.double()) <= bound(512)
    for d in range(1, torch.cuda.device_count()):  # several devices: each its own handle and stream
        dev = torch.device("cuda", d)
        x, y = rand(100, 200, device=dev), rand(200, 50, device=dev)
        with torch.cuda.device(dev):
            z = autogemm.matmul(x, y)
            torch.cuda.synchronize()
        assert z.device == dev and rel_error(z, x.double() @ y.double()) <= bound(200)


def test_custom_op_under_torch_compile():
    a, b = rand(257, 129), rand(129, 63)
    compiled = torch.compile(lambda x, y: torch.relu(torch.ops.autogemm.mm(x, y)), fullgraph=True)
    c = compiled(a, b)
    torch.cuda.synchronize()
    assert rel_error(c, torch.relu(a.double() @ b.double())) <= bound(129)


def test_custom_op_in_a_cuda_graph():
    a, b = rand(384, 256), rand(256, 128)
    capture = torch.cuda.Stream()
    capture.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(capture):  # a first call on the capture stream chooses, sizes the workspace
        torch.ops.autogemm.mm(a, b)
    capture.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=capture):
        c = torch.ops.autogemm.mm(a, b)
    a.copy_(rand(384, 256))
    graph.replay()
    torch.cuda.synchronize()
    assert rel_error(c, a.double() @ b.double()) <= bound(256)


def test_autograd_matches_pytorch():
    x = rand(33, 17).requires_grad_()
    w = rand(29, 17).requires_grad_()
    bias = rand(29).requires_grad_()
    y = torch.ops.autogemm.linear(x, w, bias)
    (y * y).sum().backward()
    gx, gw, gb = x.grad.clone(), w.grad.clone(), bias.grad.clone()
    for t in (x, w, bias):
        t.grad = None
    y_ref = torch.nn.functional.linear(x, w, bias)
    (y_ref * y_ref).sum().backward()
    for mine, ref in ((gx, x.grad), (gw, w.grad), (gb, bias.grad)):
        assert rel_error(mine, ref.double()) <= 1e-5


def test_enable_routes_products_and_leaves_the_rest(tmp_path):
    record = tmp_path / "untuned.csv"
    autogemm.set_database(str(tmp_path / "none.sqlite3"))  # nothing tuned: every problem is recorded
    autogemm.record_untuned(record)
    try:
        x, w, bias = rand(2, 5, 48), rand(24, 48), rand(24)
        a, b = rand(61, 48), rand(48, 37)
        with agt.enabled():
            y = torch.nn.functional.linear(x, w, bias)
            c = torch.mm(a, b)
            d = a @ b
            e = torch.addmm(rand(37), a, b, beta=0.5)
            batched = torch.matmul(rand(3, 4, 5), rand(3, 5, 6))  # batched: PyTorch's
            doubles = torch.mm(a.double(), b.double())  # float64: PyTorch's
        torch.cuda.synchronize()
        assert rel_error(y, torch.nn.functional.linear(x.double(), w.double(), bias.double())) <= bound(48)
        assert rel_error(c, a.double() @ b.double()) <= bound(48)
        assert rel_error(d, a.double() @ b.double()) <= bound(48)
        assert e.shape == (61, 37) and batched.shape == (3, 4, 6) and doubles.dtype == torch.float64
        rows = record.read_text().splitlines()
        # The column-major problems: linear's 10 x 48 x 24 (n = 10 rows of x), mm's 61 x 48 x 37.
        assert any(",24,10,48," in r for r in rows), rows
        assert any(",37,61,48," in r for r in rows), rows
        before = len(rows)
        torch.mm(rand(71, 48), b)  # not enabled: PyTorch's, nothing recorded
        torch.cuda.synchronize()
        assert len(record.read_text().splitlines()) == before
    finally:
        autogemm.record_untuned(None)
        autogemm.set_database(None)


def test_explain_then_tune_then_explain_again(tmp_path):
    db = tmp_path / "tuned.sqlite3"
    autogemm.set_database(str(db))
    try:
        # Row-major 3072 x 3 x 2048: column-major m = 3, an output 3 rows tall, which the GEMV
        # kernels run as its transpose.
        a, b = rand(3072, 2048), rand(2048, 3)
        first = autogemm.explain(a, b)
        assert first.source == "untuned" and not first.measured and first.time_us > 0
        assert first.kernel.startswith("simt_sgemv_"), first
        assert first.call.startswith("nn m=3 n=3072 k=2048"), first
        autogemm.tune([(3072, 3, 2048)], db=db, extra_args=["--quiet"])  # then re-reads the database
        tuned = autogemm.explain(a, b)
        assert tuned.source == "tuned" and tuned.measured and tuned.time_us > 0, tuned
        c = autogemm.matmul(a, b)
        torch.cuda.synchronize()
        assert rel_error(c, a.double() @ b.double()) <= bound(2048)
    finally:
        autogemm.set_database(None)


def test_cupy_arrays_where_installed():
    cupy = pytest.importorskip("cupy")
    a = cupy.random.rand(70, 90, dtype=cupy.float32)
    b = cupy.random.rand(90, 30, dtype=cupy.float32)
    c = autogemm.matmul(a, b.T.copy().T)
    cupy.cuda.get_current_stream().synchronize()
    ref = a.astype(cupy.float64) @ b.astype(cupy.float64)
    assert isinstance(c, cupy.ndarray)
    assert float(cupy.linalg.norm(c - ref) / cupy.linalg.norm(ref)) <= bound(90)
