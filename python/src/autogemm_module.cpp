// autogemm._autogemm: the C API of libautogemm for Python, over DLPack arrays (nanobind). A 2-D
// array in any layout NumPy semantics allow (row-major, a transposed view, rows or columns with a
// padded pitch) maps to an op and a leading dimension of the column-major call; C = A·B row-major is
// the column-major Cᵀ = Bᵀ·Aᵀ. One handle per device and stream, created on first use; the settings
// made from Python (mode, database, record file, online budget) apply to every handle, present and
// future.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <utility>
#include <mutex>
#include <optional>
#include <string>

#include <cuda_runtime_api.h>

#include "autogemm/autogemm.h"

namespace nb = nanobind;

namespace {

using Array = nb::ndarray<>;

/// What Python set for every handle; unset fields leave the library's default (the environment).
struct Settings {
  std::optional<autogemmMode_t> mode;
  std::optional<std::optional<std::string>> database;  // set to a path, or to the default (nullopt)
  std::optional<std::optional<std::string>> record_untuned;
  std::optional<double> online_budget_ms;
};

std::mutex g_mutex;
Settings g_settings;
// One handle per (device, stream): a handle's split-k and repack workspace serves one stream at a
// time, so calls on two streams must not share it. Never destroyed (they outlive any array).
std::map<std::pair<int, uintptr_t>, autogemmHandle_t> g_handles;

[[noreturn]] void value_error(const std::string& message) { throw nb::value_error(message.c_str()); }
[[noreturn]] void type_error(const std::string& message) { throw nb::type_error(message.c_str()); }

[[noreturn]] void raise_status(autogemmStatus_t status, const std::string& what) {
  const std::string message = what + ": " + autogemmGetLastErrorMessage();
  if (status == AUTOGEMM_STATUS_INVALID_VALUE) throw nb::value_error(message.c_str());
  throw std::runtime_error(message + " (" + autogemmGetStatusString(status) + ")");
}

void check(autogemmStatus_t status, const std::string& what) {
  if (status != AUTOGEMM_STATUS_SUCCESS) raise_status(status, what);
}

const char* c_str(const std::optional<std::string>& s) { return s ? s->c_str() : nullptr; }

void apply(autogemmHandle_t h, const Settings& s) {
  if (s.mode) check(autogemmSetMode(h, *s.mode), "set_mode");
  if (s.database) check(autogemmSetDatabasePath(h, c_str(*s.database)), "set_database");
  if (s.record_untuned) check(autogemmSetRecordUntuned(h, c_str(*s.record_untuned)), "record_untuned");
  if (s.online_budget_ms) check(autogemmSetOnlineBudget(h, *s.online_budget_ms), "set_online_budget");
}

/// The handle of `device` and `stream` (created with the current settings), under g_mutex.
autogemmHandle_t handle_for(int device, uintptr_t stream) {
  if (const auto it = g_handles.find({device, stream}); it != g_handles.end()) return it->second;
  autogemmHandle_t h = nullptr;
  check(autogemmCreateForDevice(&h, device), "creating a handle for CUDA device " + std::to_string(device));
  try {
    check(autogemmSetStream(h, reinterpret_cast<cudaStream_t>(stream)), "setting the stream");
    apply(h, g_settings);
  } catch (...) {
    autogemmDestroy(h);
    throw;
  }
  return g_handles[{device, stream}] = h;
}

/// Applies a change of settings to the handles that exist and remembers it for later ones.
template <class Change>
void change_settings(Change&& change) {
  std::lock_guard lock(g_mutex);
  Settings delta;
  change(delta);
  for (const auto& [where, h] : g_handles) apply(h, delta);
  change(g_settings);
}

const char* device_name(int type) {
  switch (type) {
    case nb::device::cpu::value: return "the CPU";
    case nb::device::cuda_host::value: return "pinned host memory";
    case nb::device::cuda_managed::value: return "managed memory";
    default: return "a non-CUDA device";
  }
}

std::string strides_text(const Array& x) {
  return "(" + std::to_string(x.stride(0)) + ", " + std::to_string(x.stride(1)) + ")";
}

[[noreturn]] void no_unit_stride(const Array& x, const char* name) {
  value_error(std::string(name) + " has no unit stride (strides " + strides_text(x) + " in elements): make it contiguous");
}

std::string shape_text(const Array& x) {
  return "(" + std::to_string(x.shape(0)) + ", " + std::to_string(x.shape(1)) + ")";
}

/// A DLPack element type as NumPy names it.
std::string dtype_name(nb::dlpack::dtype t) {
  const std::string bits = std::to_string(t.bits);
  switch (static_cast<nb::dlpack::dtype_code>(t.code)) {
    case nb::dlpack::dtype_code::Int: return "int" + bits;
    case nb::dlpack::dtype_code::UInt: return "uint" + bits;
    case nb::dlpack::dtype_code::Float: return "float" + bits;
    case nb::dlpack::dtype_code::Bfloat: return "bfloat" + bits;
    case nb::dlpack::dtype_code::Complex: return "complex" + bits;
    case nb::dlpack::dtype_code::Bool: return "bool";
  }
  return "type code " + std::to_string(t.code) + " of " + bits + " bits";
}

/// The element types matmul takes, as cudaDataType_t (float32 through autogemmSgemm, bfloat16 and
/// float16 through autogemmGemmEx with FP32 arithmetic).
std::optional<cudaDataType_t> cuda_type(nb::dlpack::dtype t) {
  if (t == nb::dtype<float>()) return CUDA_R_32F;
  if (t.lanes == 1 && t.bits == 16 && t.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Bfloat)) return CUDA_R_16BF;
  if (t.lanes == 1 && t.bits == 16 && t.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Float)) return CUDA_R_16F;
  return std::nullopt;
}

/// The form every operand has: 2-D, of float32, bfloat16 or float16.
void check_form(const Array& x, const char* name) {
  if (x.ndim() != 2)
    value_error(std::string(name) + " has " + std::to_string(x.ndim()) +
                " dimensions: autogemm.matmul takes 2-D arrays");
  if (!cuda_type(x.dtype()))
    type_error(std::string(name) + " is " + dtype_name(x.dtype()) +
               ": autogemm.matmul computes float32, bfloat16 and float16");
}

/// Where every operand lives: on a CUDA device, the same one for all.
void check_device(const Array& x, const char* name, int device) {
  if (x.device_type() != nb::device::cuda::value)
    type_error(std::string(name) + " is in " + device_name(x.device_type()) +
               ": autogemm runs on CUDA arrays (move it to the GPU first)");
  if (x.device_id() != device)
    value_error(std::string(name) + " is on CUDA device " + std::to_string(x.device_id()) +
                           ", the first operand on device " + std::to_string(device));
}

/// A 2-D array (rows x cols, element (i, j) at i·s_rows + j·s_cols) as a column-major operand: op N
/// with ld = s_cols, or op T (its transpose is column-major) with ld = s_rows.
struct ColumnMajor {
  autogemmOperation_t op = AUTOGEMM_OP_N;
  int64_t ld = 1;
  bool ok = false;
};

ColumnMajor column_major(int64_t rows, int64_t cols, int64_t s_rows, int64_t s_cols) {
  if (rows == 0 || cols == 0) return {AUTOGEMM_OP_N, std::max<int64_t>(1, rows), true};
  if ((s_rows == 1 || rows == 1) && (cols == 1 || s_cols >= rows)) return {AUTOGEMM_OP_N, cols == 1 ? rows : s_cols, true};
  if ((s_cols == 1 || cols == 1) && (rows == 1 || s_rows >= cols)) return {AUTOGEMM_OP_T, rows == 1 ? cols : s_rows, true};
  return {};
}

int to_int(int64_t v, const char* what) {
  if (v > INT_MAX) value_error(std::string(what) + " = " + std::to_string(v) + " exceeds 2^31 - 1");
  return static_cast<int>(v);
}

/// One column-major call: C (m x n) = op(A) op(B), of A's and B's type and C's.
struct Call {
  autogemmOperation_t transa, transb;
  int m, n, k, lda, ldb, ldc;
  const void *a, *b;
  void* c;
  cudaDataType_t ab_type, c_type;
};

/// The element types of a @ b into out: a and b of one type; out of theirs, or float32 for 16-bit
/// operands (FP32 accumulation written out unrounded).
std::pair<cudaDataType_t, cudaDataType_t> call_types(const Array& a, const Array& b, const Array& out) {
  const cudaDataType_t ta = *cuda_type(a.dtype()), tb = *cuda_type(b.dtype()), tc = *cuda_type(out.dtype());
  if (ta != tb)
    type_error("a is " + dtype_name(a.dtype()) + " and b is " + dtype_name(b.dtype()) +
               ": autogemm.matmul takes operands of one type");
  if (tc != ta && !(tc == CUDA_R_32F && ta != CUDA_R_32F))
    type_error("out is " + dtype_name(out.dtype()) + " for " + dtype_name(a.dtype()) + " operands: out must be " +
               dtype_name(a.dtype()) + (ta == CUDA_R_32F ? "" : " or float32"));
  return {ta, tc};
}

/// The column-major call that computes out = a @ b (row-major semantics) in place.
Call plan(const Array& a, const Array& b, const Array& out) {
  const int device = a.device_type() == nb::device::cuda::value ? a.device_id() : -1;
  check_form(a, "a");
  check_form(b, "b");
  check_form(out, "out");
  const auto [ab_type, c_type] = call_types(a, b, out);
  check_device(a, "a", device);
  check_device(b, "b", device);
  check_device(out, "out", device);
  const int64_t M = a.shape(0), K = a.shape(1), N = b.shape(1);
  if (b.shape(0) != static_cast<size_t>(K))
    value_error("a " + shape_text(a) + " and b " + shape_text(b) + " cannot be multiplied");
  if (out.shape(0) != static_cast<size_t>(M) || out.shape(1) != static_cast<size_t>(N))
    value_error("out is " + shape_text(out) + ", a @ b is (" + std::to_string(M) + ", " + std::to_string(N) + ")");
  for (const auto& [x, name] : {std::pair{&a, "a"}, std::pair{&b, "b"}, std::pair{&out, "out"}})
    if (x->stride(0) < 0 || x->stride(1) < 0)
      value_error(std::string(name) + " has a negative stride");
  // An operand seen as rows x cols, transposed or not: its column-major op and leading dimension.
  struct Operand {
    const Array& x;
    const char* name;
    bool transposed;
    ColumnMajor view(int64_t rows, int64_t cols) const {
      const ColumnMajor v = transposed ? column_major(rows, cols, x.stride(1), x.stride(0))
                                       : column_major(rows, cols, x.stride(0), x.stride(1));
      if (!v.ok) no_unit_stride(x, name);
      return v;
    }
  };
  // C row-major (or a vector): Cᵀ = Bᵀ Aᵀ, each operand through its transpose's column-major view;
  // else C column-major (a transposed view): C = A B as it stands.
  const bool transposed = [&] {
    const ColumnMajor ct = column_major(N, M, out.stride(1), out.stride(0));
    return ct.ok && ct.op == AUTOGEMM_OP_N;
  }();
  const int64_t rows = transposed ? N : M, cols = transposed ? M : N;
  const ColumnMajor c = Operand{out, "out", transposed}.view(rows, cols);
  if (c.op != AUTOGEMM_OP_N)
    value_error("out needs a unit stride in one dimension and a pitch that holds the other (strides " +
                strides_text(out) + " in elements)");
  const Operand left{transposed ? b : a, transposed ? "b" : "a", transposed};
  const Operand right{transposed ? a : b, transposed ? "a" : "b", transposed};
  const ColumnMajor l = left.view(rows, K), r = right.view(K, cols);
  return {l.op,
          r.op,
          to_int(rows, transposed ? "N" : "M"),
          to_int(cols, transposed ? "M" : "N"),
          to_int(K, "K"),
          to_int(l.ld, transposed ? "b's pitch" : "a's pitch"),
          to_int(r.ld, transposed ? "a's pitch" : "b's pitch"),
          to_int(c.ld, "out's pitch"),
          left.x.data(),
          right.x.data(),
          out.data(),
          ab_type,
          c_type};
}

void matmul_into(const Array& a, const Array& b, Array& out, float alpha, float beta, uintptr_t stream) {
  const Call c = plan(a, b, out);
  std::lock_guard lock(g_mutex);
  autogemmHandle_t h = handle_for(a.device_id(), stream);
  const autogemmStatus_t s =
      c.ab_type == CUDA_R_32F
          ? autogemmSgemm(h, c.transa, c.transb, c.m, c.n, c.k, &alpha, static_cast<const float*>(c.a), c.lda,
                          static_cast<const float*>(c.b), c.ldb, &beta, static_cast<float*>(c.c), c.ldc)
          : autogemmGemmEx(h, c.transa, c.transb, c.m, c.n, c.k, &alpha, c.a, c.ab_type, c.lda, c.b, c.ab_type, c.ldb,
                           &beta, c.c, c.c_type, c.ldc, AUTOGEMM_COMPUTE_32F);
  if (s != AUTOGEMM_STATUS_SUCCESS) raise_status(s, "autogemm.matmul");
}

nb::dict explain(const Array& a, const Array& b, const Array& out, uintptr_t stream) {
  const Call c = plan(a, b, out);
  autogemmChoiceInfo_t info;
  {
    std::lock_guard lock(g_mutex);
    autogemmHandle_t h = handle_for(a.device_id(), stream);
    check(c.ab_type == CUDA_R_32F
              ? autogemmExplainSgemm(h, c.transa, c.transb, c.m, c.n, c.k, static_cast<const float*>(c.a), c.lda,
                                     static_cast<const float*>(c.b), c.ldb, static_cast<const float*>(c.c), c.ldc, &info)
              : autogemmExplainGemmEx(h, c.transa, c.transb, c.m, c.n, c.k, c.a, c.ab_type, c.lda, c.b, c.ab_type,
                                      c.ldb, c.c, c.c_type, c.ldc, AUTOGEMM_COMPUTE_32F, &info),
          "autogemm.explain");
  }
  auto op = [](autogemmOperation_t o) { return o == AUTOGEMM_OP_N ? "n" : "t"; };
  nb::dict d;
  d["kernel"] = std::string(info.kernel);
  d["split"] = std::string(info.split);
  d["source"] = std::string(info.source);
  d["time_us"] = info.time_us;
  d["measured"] = info.measured != 0;
  d["call"] = std::string(c.ab_type == CUDA_R_32F ? "" : c.ab_type == CUDA_R_16BF ? "bf16 " : "f16 ") +
              (c.c_type == c.ab_type ? "" : "f32 out ") + op(c.transa) + op(c.transb) + " m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) +
              " k=" + std::to_string(c.k) + " lda=" + std::to_string(c.lda) + " ldb=" + std::to_string(c.ldb) +
              " ldc=" + std::to_string(c.ldc);
  return d;
}

/// A new rows x cols row-major CUDA array of `like`'s element type on `like`'s device, in device
/// memory of the module's own (freed when the last reference goes), as a JAX array: JAX arrays are
/// immutable, so a JAX result is written into memory JAX takes over through DLPack.
nb::ndarray<nb::jax> empty_jax(const Array& like, int64_t rows, int64_t cols) {
  if (like.device_type() != nb::device::cuda::value) type_error("a is not a CUDA array");
  int previous = 0;
  cudaGetDevice(&previous);
  const int device = like.device_id();
  const size_t bytes = static_cast<size_t>(std::max<int64_t>(rows * cols, 1)) * (like.dtype().bits / 8);
  void* data = nullptr;
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaMalloc(&data, bytes);
  cudaSetDevice(previous);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error("autogemm.matmul: allocating the " + std::to_string(bytes) + "-byte result on CUDA device " +
                             std::to_string(device) + " failed: " + cudaGetErrorString(e));
  }
  nb::capsule owner(data, [](void* p) noexcept { cudaFree(p); });
  const size_t shape[2] = {static_cast<size_t>(rows), static_cast<size_t>(cols)};
  return nb::ndarray<nb::jax>(data, 2, shape, owner, nullptr, like.dtype(), nb::device::cuda::value, device);
}

autogemmMode_t parse_mode(const std::string& mode) {
  if (mode == "tuned") return AUTOGEMM_MODE_TUNED;
  if (mode == "heuristic") return AUTOGEMM_MODE_HEURISTIC;
  if (mode == "online") return AUTOGEMM_MODE_ONLINE;
  value_error("mode '" + mode + "' is not one of tuned, heuristic, online");
}

}  // namespace

NB_MODULE(_autogemm, m) {
  m.doc() = "libautogemm's C API over DLPack arrays (use the autogemm package, not this module)";
  m.def("version", [] { return std::string(autogemmGetVersion()); });
  m.def("matmul_into", &matmul_into, nb::arg("a"), nb::arg("b"), nb::arg("out").noconvert(), nb::arg("alpha"),
        nb::arg("beta"), nb::arg("stream"), "out = alpha * (a @ b) + beta * out on `stream` (a cudaStream_t as int)");
  m.def("explain", &explain, nb::arg("a"), nb::arg("b"), nb::arg("out"), nb::arg("stream"));
  m.def("empty_jax", &empty_jax, nb::arg("like"), nb::arg("rows"), nb::arg("cols"),
        "A new (rows, cols) JAX array of like's type on its device, uninitialized");
  m.def("synchronize", [](uintptr_t stream) {
    nb::gil_scoped_release release;
    const cudaError_t e = cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream));
    if (e != cudaSuccess) throw std::runtime_error(std::string("autogemm: ") + cudaGetErrorString(e));
  }, nb::arg("stream"), "Waits for the work on `stream` (a cudaStream_t as int)");
  m.def("set_mode", [](const std::string& mode) {
    const autogemmMode_t parsed = parse_mode(mode);
    change_settings([&](Settings& s) { s.mode = parsed; });
  });
  m.def("set_database", [](std::optional<std::string> path) {
    change_settings([&](Settings& s) { s.database = path; });
  }, nb::arg("path").none());
  m.def("reread_databases", [] {
    std::lock_guard lock(g_mutex);
    const std::optional<std::string> path = g_settings.database ? *g_settings.database : std::nullopt;
    for (const auto& [where, h] : g_handles) check(autogemmSetDatabasePath(h, c_str(path)), "reread_databases");
  });
  m.def("record_untuned", [](std::optional<std::string> path) {
    change_settings([&](Settings& s) { s.record_untuned = path; });
  }, nb::arg("path").none());
  m.def("set_online_budget", [](double ms) {
    if (!(ms >= 0)) value_error("online budget " + std::to_string(ms) + " ms is negative");
    change_settings([&](Settings& s) { s.online_budget_ms = ms; });
  });
}
