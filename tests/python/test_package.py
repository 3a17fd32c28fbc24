"""The autogemm package without a GPU: it imports, names what it computes, and refuses with the
documented exceptions what it cannot take (CPU arrays, shapes, modes, tuning arguments)."""

import pytest

import autogemm

np = pytest.importorskip("numpy")


def test_imports_with_its_version_and_types():
    assert autogemm.__version__.count(".") == 2
    assert autogemm.dtypes == ("float32", "bfloat16", "float16")


def test_cpu_arrays_are_refused_naming_the_operand():
    a = np.ones((4, 3), dtype=np.float32)
    b = np.ones((3, 5), dtype=np.float32)
    with pytest.raises(TypeError, match="a is in the CPU"):
        autogemm.matmul(a, b)


def test_other_dtypes_are_refused():
    a = np.ones((4, 3), dtype=np.float64)
    b = np.ones((3, 5), dtype=np.float64)
    with pytest.raises(TypeError, match="a is float64: autogemm.matmul computes float32, bfloat16 and float16"):
        autogemm.matmul(a, b)


def test_mixed_types_are_refused_naming_both():
    a = np.ones((4, 3), dtype=np.float16)
    with pytest.raises(TypeError, match="a is float16 and b is float32"):
        autogemm.matmul(a, np.ones((3, 5), dtype=np.float32))
    b = np.ones((3, 5), dtype=np.float16)
    # A 16-bit product may be written out in float32; a float32 product only in float32.
    with pytest.raises(TypeError, match="out is float16 for float32 operands: out must be float32$"):
        autogemm.matmul(a.astype(np.float32), b.astype(np.float32), out=np.empty((4, 5), dtype=np.float16))
    with pytest.raises(TypeError, match="a is in the CPU"):
        autogemm.matmul(a, b, out=np.empty((4, 5), dtype=np.float32))


def test_shapes_that_do_not_multiply():
    a = np.ones((4, 3), dtype=np.float32)
    with pytest.raises(ValueError, match=r"cannot be multiplied"):
        autogemm.matmul(a, np.ones((4, 5), dtype=np.float32))
    with pytest.raises(ValueError, match="3 dimensions"):
        autogemm.matmul(np.ones((2, 4, 3), dtype=np.float32), np.ones((3, 5), dtype=np.float32))
    with pytest.raises(ValueError, match="needs out="):
        autogemm.matmul(a, np.ones((3, 5), dtype=np.float32), beta=1.0)


def test_out_of_the_wrong_shape_is_named():
    a = np.ones((4, 3), dtype=np.float32)
    b = np.ones((3, 5), dtype=np.float32)
    with pytest.raises(ValueError, match=r"out is \(5, 4\), a @ b is \(4, 5\)"):
        autogemm.matmul(a, b, out=np.empty((5, 4), dtype=np.float32))


def test_settings_validate_their_values():
    with pytest.raises(ValueError, match="bogus"):
        autogemm.set_mode("bogus")
    with pytest.raises(ValueError, match="negative"):
        autogemm.set_online_budget(-1)
    autogemm.set_mode("tuned")  # valid settings apply without a GPU
    autogemm.set_database(None)
    autogemm.record_untuned(None)


def test_tune_validates_before_running_anything():
    with pytest.raises(ValueError, match="float64"):
        autogemm.tune([(64, 64, 64)], dtype="float64")
    with pytest.raises(ValueError, match="triples"):
        autogemm.tune([])
    with pytest.raises(ValueError, match="triples"):
        autogemm.tune([(1, 2)])
