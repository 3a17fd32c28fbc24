"""autogemm from PyTorch (and CuPy where installed) on a GPU, against float64 references: every
layout NumPy semantics allow, odd sizes, out= with alpha and beta, the custom ops under
torch.compile and CUDA-graph capture, autograd, streams, the routing of enable(), explain, and
the record -> tune -> run workflow; then the same for every 16-bit type the library computes on
the device (autogemm.dtypes). Skipped without PyTorch or a CUDA device."""

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


# The 16-bit types autogemm.dtypes lists that the library computes on this GPU (tensor-core code for
# it compiled in); on others a call raises RuntimeError naming NOT_SUPPORTED (test below).
HALF = [getattr(torch, name) for name in autogemm.dtypes if name != "float32"]
COMPUTED = [t for t in HALF if agt._computes_on(t, DEV)]
UNIT_ROUNDOFF = {torch.bfloat16: 2.0**-8, torch.float16: 2.0**-11, torch.float32: 0.0}


def bound16(k, out_dtype):
    """The library's bound for 16-bit operands: the FP32 sum's over K plus the output's rounding."""
    return bound(k) + UNIT_ROUNDOFF[out_dtype]


def rand16(dtype, *shape):
    return rand(*shape).to(dtype)


def views16(dtype, rows, cols):
    """views(), in `dtype`; the pitches (cols + 5, rows + 3 elements) are not multiples of 16 bytes,
    so those calls run on the library's padded, aligned copies."""
    for name, x in views(rows, cols):
        base = x if x.is_contiguous() or x.t().is_contiguous() else None
        if base is not None:
            yield name, x.to(dtype)
        else:  # keep the padded pitch: convert the storage, then take the same view
            parent = x._base if x._base is not None else x
            yield name, parent.to(dtype).as_strided(x.shape, x.stride())


@pytest.mark.parametrize("dtype", COMPUTED, ids=str)
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (7, 13, 5), (129, 65, 33), (16, 1024, 512), (1000, 1000, 1000)])
def test_16bit_matmul_every_layout_against_float64(dtype, m, n, k):
    for a_name, a in views16(dtype, m, k):
        for b_name, b in views16(dtype, k, n):
            ref = a.double() @ b.double()
            c = autogemm.matmul(a, b)
            torch.cuda.synchronize()
            assert c.shape == (m, n) and c.dtype == dtype
            err = rel_error(c, ref)
            assert err <= bound16(k, dtype), f"{dtype} {a_name} x {b_name}: {err}"


@pytest.mark.parametrize("dtype", COMPUTED, ids=str)
def test_16bit_out_in_float32_and_in_their_type_with_alpha_beta(dtype):
    m, n, k = 77, 48, 301
    a, b = rand16(dtype, m, k), rand16(dtype, k, n)
    for out in (rand(m, n), rand(m, n).to(dtype), rand(n, m).t().to(dtype)):
        c0 = out.clone().double()
        autogemm.matmul(a, b, out=out, alpha=1.5, beta=-0.5)
        torch.cuda.synchronize()
        assert rel_error(out, 1.5 * (a.double() @ b.double()) - 0.5 * c0) <= bound16(k, out.dtype), out.dtype
    poisoned = torch.full((m, n), float("nan"), device=DEV, dtype=dtype)
    autogemm.matmul(a, b, out=poisoned, beta=0.0)  # beta = 0 never reads out
    assert not torch.isnan(poisoned).any()
    with pytest.raises(TypeError, match="a is .* and b is float32"):
        autogemm.matmul(a, rand(k, n))


@pytest.mark.parametrize("dtype", COMPUTED, ids=str)
def test_16bit_explain_names_a_tensor_core_kernel(dtype):
    a, b = rand16(dtype, 512, 256), rand16(dtype, 256, 384)
    choice = autogemm.explain(a, b)
    short = "bf16" if dtype == torch.bfloat16 else "f16"
    assert choice.kernel.startswith(f"sm90_wgmma_{short}_"), choice
    assert choice.call.startswith(f"{short} nn m=384 n=512 k=256"), choice


@pytest.mark.parametrize("dtype", COMPUTED, ids=str)
def test_16bit_compile_graph_and_linear_routing(dtype):
    # torch.compile over the custom op.
    a, b = rand16(dtype, 257, 128), rand16(dtype, 128, 64)
    compiled = torch.compile(lambda x, y: torch.relu(torch.ops.autogemm.mm(x, y)), fullgraph=True)
    c = compiled(a, b)
    torch.cuda.synchronize()
    assert c.dtype == dtype and rel_error(c, torch.relu(a.double() @ b.double())) <= bound16(128, dtype)
    # CUDA-graph capture, an aligned problem and one on padded copies (k = 100: A's rows are 200 bytes).
    for k in (256, 100):
        x, w = rand16(dtype, 384, k), rand16(dtype, k, 128)
        capture = torch.cuda.Stream()
        capture.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(capture):
            torch.ops.autogemm.mm(x, w)
        capture.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=capture):
            y = torch.ops.autogemm.mm(x, w)
        x.copy_(rand16(dtype, 384, k))
        graph.replay()
        torch.cuda.synchronize()
        assert rel_error(y, x.double() @ w.double()) <= bound16(k, dtype), k
    # enable(): F.linear with a bias, as a model's layers call it.
    x, w, bias = rand16(dtype, 2, 5, 64), rand16(dtype, 24, 64), rand16(dtype, 24)
    with agt.enabled():
        y = torch.nn.functional.linear(x, w, bias)
    torch.cuda.synchronize()
    ref = torch.nn.functional.linear(x.double(), w.double(), bias.double())
    assert y.dtype == dtype and rel_error(y, ref) <= bound16(64, dtype) + UNIT_ROUNDOFF[dtype]


@pytest.mark.skipif(len(COMPUTED) == len(HALF), reason="the library computes every 16-bit type on this GPU")
def test_16bit_types_without_kernels_raise_not_supported_and_route_to_pytorch():
    dtype = next(t for t in HALF if t not in COMPUTED)
    a = rand16(dtype, 8, 8)
    with pytest.raises(RuntimeError, match="NOT_SUPPORTED"):
        autogemm.matmul(a, a)
    with agt.enabled():
        c = torch.mm(a, a)  # PyTorch's
    assert c.dtype == dtype


def test_jax_arrays_where_installed():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # leave the GPU's memory to the others
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    np = pytest.importorskip("numpy")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX has no GPU here")
    key = jax.random.PRNGKey(0)
    ka, kb = jax.random.split(key)
    types = [jnp.float32] + [getattr(jnp, str(t).removeprefix("torch.")) for t in COMPUTED]
    for dtype in types:
        a = jax.random.uniform(ka, (70, 90), minval=-1, maxval=1).astype(dtype)
        b = jax.random.uniform(kb, (40, 90), minval=-1, maxval=1).astype(dtype).T  # a transpose, materialized by JAX
        c = autogemm.matmul(a, b)
        assert isinstance(c, jax.Array) and c.shape == (70, 40) and c.dtype == dtype
        ref = np.asarray(a, dtype=np.float64) @ np.asarray(b, dtype=np.float64)
        got = np.asarray(c, dtype=np.float64)
        err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
        out_type = torch.float32 if dtype == jnp.float32 else getattr(torch, jnp.dtype(dtype).name)
        assert err <= bound16(90, out_type), f"{dtype}: {err}"
        # JAX computes on the result it took over.
        assert abs(float(jnp.sum(c.astype(jnp.float32))) - got.sum()) <= 1e-3 * np.abs(got).sum()
        with pytest.raises(TypeError, match="JAX arrays are immutable"):
            autogemm.matmul(a, b, out=c)
