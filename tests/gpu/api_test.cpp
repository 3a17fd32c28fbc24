// autogemmSgemm as applications call it, on a GPU: all four layouts at odd sizes through the
// library's own choice, BLAS edge cases (k = 0, alpha = 0, beta = 0 over NaN, m = 0), misaligned
// pointers, long K (split-k), a user stream, CUDA graphs, and operands written by the kernel right
// before the call.
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <tuple>
#include <vector>

#include "autogemm/autogemm.h"
#include "check.hpp"
#include "gpu_test.hpp"
#include "kernel_config.hpp"
#include "registry.hpp"
#include "validate.hpp"

namespace autogemm::testing {
namespace {

class SgemmApiTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_EQ(autogemmCreate(&handle_), AUTOGEMM_STATUS_SUCCESS) << autogemmGetLastErrorMessage();
  }
  void TearDown() override {
    if (stream_ != nullptr) {
      autogemmSetStream(handle_, nullptr);
      cudaStreamDestroy(stream_);
    }
    autogemmDestroy(handle_);
  }

  // A non-blocking stream of the test's own, set on the handle; TearDown sets the default stream back
  // and destroys it.
  cudaStream_t own_stream() {
    if (stream_ == nullptr) {
      EXPECT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
      EXPECT_EQ(autogemmSetStream(handle_, stream_), AUTOGEMM_STATUS_SUCCESS);
    }
    return stream_;
  }

  // Runs one call through the C API and checks it against the float64 reference.
  void check(autogemmOperation_t ta, autogemmOperation_t tb, int m, int n, int k, float alpha, float beta, int pad,
             int shift, uint64_t seed) {
    SCOPED_TRACE(::testing::Message() << "ta=" << ta << " tb=" << tb << " m=" << m << " n=" << n << " k=" << k
                                      << " alpha=" << alpha << " beta=" << beta << " pad=" << pad << " shift=" << shift);
    const int lda = std::max(1, ta == AUTOGEMM_OP_N ? m : k) + pad;
    const int ldb = std::max(1, tb == AUTOGEMM_OP_N ? k : n) + pad;
    const int ldc = std::max(1, m) + pad;
    const size_t a_elems = size_t(lda) * std::max(1, ta == AUTOGEMM_OP_N ? k : m) + shift;
    const size_t b_elems = size_t(ldb) * std::max(1, tb == AUTOGEMM_OP_N ? n : k) + shift;
    const size_t c_elems = size_t(ldc) * std::max(n, 1);
    DeviceBuffer<float> a(a_elems), b(b_elems), c(c_elems), c0(c_elems);
    DeviceBuffer<double> ref(size_t(std::max(m, 1)) * std::max(n, 1));
    ASSERT_CUDA(fill_uniform(a.get(), a_elems, seed + 1, nullptr));
    ASSERT_CUDA(fill_uniform(b.get(), b_elems, seed + 2, nullptr));
    ASSERT_CUDA(fill_uniform(c0.get(), c_elems, seed + 3, nullptr));
    if (beta == 0.0f) {
      ASSERT_CUDA(fill_nan(c.get(), c_elems, nullptr));
    } else {
      ASSERT_CUDA(cudaMemcpy(c.get(), c0.get(), c_elems * sizeof(float), cudaMemcpyDeviceToDevice));
    }
    const Op oa = ta == AUTOGEMM_OP_N ? Op::N : Op::T, ob = tb == AUTOGEMM_OP_N ? Op::N : Op::T;
    ASSERT_CUDA(reference_gemm_f64(oa, ob, m, n, k, alpha, a.get() + shift, lda, b.get() + shift, ldb, beta, c0.get(),
                                   ldc, ref.get(), nullptr));
    ASSERT_EQ(autogemmSgemm(handle_, ta, tb, m, n, k, &alpha, a.get() + shift, lda, b.get() + shift, ldb, &beta,
                            c.get(), ldc),
              AUTOGEMM_STATUS_SUCCESS)
        << autogemmGetLastErrorMessage();
    cudaStream_t stream;
    autogemmGetStream(handle_, &stream);
    ASSERT_CUDA(cudaStreamSynchronize(stream));
    const double err = relative_error(c.get(), ldc, ref.get(), m, n, nullptr);
    EXPECT_LE(err, error_bound(k)) << "relative error " << err;
  }

  autogemmHandle_t handle_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

const autogemmOperation_t kOps[] = {AUTOGEMM_OP_N, AUTOGEMM_OP_T, AUTOGEMM_OP_C};

TEST_F(SgemmApiTest, AllLayoutsOddSizes) {
  uint64_t seed = 1;
  for (auto ta : kOps)
    for (auto tb : kOps)
      for (int pad : {0, 3})
        for (auto [m, n, k] : {std::tuple{1, 1, 1}, {7, 13, 5}, {129, 65, 33}, {1000, 1000, 1000}, {61, 3001, 153}}) {
          check(ta, tb, m, n, k, 1.25f, 0.0f, pad, 0, seed += 10);
          check(ta, tb, m, n, k, -0.5f, 2.0f, pad, 0, seed += 10);
        }
}

TEST_F(SgemmApiTest, ExplainNamesTheChoiceWithoutRunningIt) {
  // A 1 x 3072 x 3072 row vector output (column-major m = 1) runs as a GEMV over B's transpose.
  const int m = 1, n = 3072, k = 3072;
  DeviceBuffer<float> a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n);
  ASSERT_CUDA(fill_nan(c.get(), c.count(), nullptr));
  autogemmChoiceInfo_t info;
  ASSERT_EQ(autogemmExplainSgemm(handle_, AUTOGEMM_OP_N, AUTOGEMM_OP_N, m, n, k, a.get(), m, b.get(), k, c.get(), m,
                                 &info),
            AUTOGEMM_STATUS_SUCCESS)
      << autogemmGetLastErrorMessage();
  EXPECT_EQ(std::string(info.kernel).rfind("simt_sgemv_", 0), 0u) << info.kernel;
  EXPECT_STRNE(info.split, "");
  // The suite runs without a database (AUTOGEMM_DB names no file in the validation script) unless
  // the caller gave one: then the choice may be tuned.
  if (std::string(info.source) == "untuned") {
    EXPECT_EQ(info.measured, 0);
  }
  EXPECT_GT(info.time_us, 0.0);
  ASSERT_CUDA(cudaDeviceSynchronize());
  std::vector<float> host(c.count());
  ASSERT_CUDA(cudaMemcpy(host.data(), c.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (float v : host) ASSERT_TRUE(std::isnan(v)) << "explain wrote C";
  // Nothing runs for k = 0; bad arguments are named as autogemmSgemm names them.
  ASSERT_EQ(autogemmExplainSgemm(handle_, AUTOGEMM_OP_N, AUTOGEMM_OP_N, m, n, 0, a.get(), m, b.get(), 1, c.get(), m,
                                 &info),
            AUTOGEMM_STATUS_SUCCESS);
  EXPECT_STREQ(info.kernel, "");
  EXPECT_EQ(autogemmExplainSgemm(handle_, AUTOGEMM_OP_N, AUTOGEMM_OP_N, 8, 8, 8, a.get(), 7, b.get(), 8, c.get(), 8,
                                 &info),
            AUTOGEMM_STATUS_INVALID_VALUE);
  EXPECT_NE(std::string(autogemmGetLastErrorMessage()).find("lda = 7"), std::string::npos);
}

TEST_F(SgemmApiTest, ProblemsOfOneClassWithOtherAlignmentsGetTheirOwnChoices) {
  // 300 x 3 x 97 `nn` is in the scalar class whether lda is 300 or 305 (ldb = 97): the first call
  // may choose a GEMV align4 instance, which reads A with float4 loads; the second call on the same
  // handle must not reuse it for an A at lda = 305 (it did: misaligned address).
  uint64_t seed = 7000;
  for (int lda_pad : {0, 5, 0, 1}) check(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 300, 3, 97, 1.0f, 0.0f, lda_pad, 0, seed += 10);
}

TEST_F(SgemmApiTest, MisalignedPointersUseTheScalarPath) {
  uint64_t seed = 5000;
  for (auto ta : {AUTOGEMM_OP_N, AUTOGEMM_OP_T})
    for (auto tb : {AUTOGEMM_OP_N, AUTOGEMM_OP_T}) check(ta, tb, 200, 120, 64, 1.0f, 0.5f, 0, 1, seed += 10);
}

TEST_F(SgemmApiTest, LongKSmallOutputs) {
  uint64_t seed = 7000;
  for (auto [m, n, k] : {std::tuple{128, 128, 32768}, {16, 3072, 3072}, {3072, 1, 3072}, {64, 48, 8192}})
    for (auto ta : {AUTOGEMM_OP_N, AUTOGEMM_OP_T}) check(ta, AUTOGEMM_OP_N, m, n, k, 1.0f, 0.0f, 0, 0, seed += 10);
}

TEST_F(SgemmApiTest, BlasEdgeCases) {
  // k = 0 and alpha = 0: C = beta * C. beta = 0: zeros, even over NaN (never read).
  uint64_t seed = 9000;
  check(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 37, 23, 0, 1.0f, 0.5f, 0, 0, seed += 10);
  check(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 37, 23, 0, 1.0f, 0.0f, 0, 0, seed += 10);
  check(AUTOGEMM_OP_T, AUTOGEMM_OP_N, 37, 23, 19, 0.0f, -2.0f, 0, 0, seed += 10);
  check(AUTOGEMM_OP_T, AUTOGEMM_OP_N, 37, 23, 19, 0.0f, 0.0f, 0, 0, seed += 10);
  // m = 0 or n = 0: nothing happens, C untouched even when null.
  const float one = 1.0f;
  EXPECT_EQ(autogemmSgemm(handle_, AUTOGEMM_OP_N, AUTOGEMM_OP_N, 0, 5, 5, &one, nullptr, 1, nullptr, 5, &one, nullptr, 1),
            AUTOGEMM_STATUS_SUCCESS);
}

TEST_F(SgemmApiTest, InvalidArgumentsNameTheValue) {
  const float one = 1.0f;
  DeviceBuffer<float> buf(64);
  EXPECT_EQ(autogemmSgemm(handle_, AUTOGEMM_OP_N, AUTOGEMM_OP_N, 8, 8, 8, &one, buf.get(), 7, buf.get(), 8, &one,
                          buf.get(), 8),
            AUTOGEMM_STATUS_INVALID_VALUE);
  EXPECT_NE(std::string(autogemmGetLastErrorMessage()).find("lda = 7"), std::string::npos);
}

TEST_F(SgemmApiTest, UserStream) {
  ASSERT_NE(own_stream(), nullptr);
  check(AUTOGEMM_OP_N, AUTOGEMM_OP_T, 300, 200, 100, 1.0f, 0.0f, 0, 0, 11000);
  check(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 64, 64, 20000, 1.0f, 1.0f, 0, 0, 11100);  // split-k workspace on a stream
}

}  // namespace
}  // namespace autogemm::testing

namespace autogemm::testing {
namespace {

TEST_F(SgemmApiTest, UserWorkspace) {
  DeviceBuffer<char> ws(64 << 20);
  EXPECT_EQ(autogemmSetWorkspace(handle_, ws.get(), 100), AUTOGEMM_STATUS_INVALID_VALUE);  // under 16 KiB
  ASSERT_EQ(autogemmSetWorkspace(handle_, ws.get(), ws.count()), AUTOGEMM_STATUS_SUCCESS);
  // Long K, small outputs: split-k through the caller's buffer, repeatedly (counters stay zero).
  for (int rep = 0; rep < 3; ++rep) check(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 128, 128, 32768, 1.0f, 0.5f, 0, 0, 12000 + rep);
  check(AUTOGEMM_OP_T, AUTOGEMM_OP_N, 64, 96, 20000, 1.0f, 0.0f, 0, 0, 12100);
  ASSERT_EQ(autogemmSetWorkspace(handle_, nullptr, 0), AUTOGEMM_STATUS_SUCCESS);
  check(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 128, 128, 32768, 1.0f, 0.0f, 0, 0, 12200);
}

TEST_F(SgemmApiTest, ModesAndRecording) {
  EXPECT_EQ(autogemmSetMode(handle_, static_cast<autogemmMode_t>(9)), AUTOGEMM_STATUS_INVALID_VALUE);
  ASSERT_EQ(autogemmSetMode(handle_, AUTOGEMM_MODE_HEURISTIC), AUTOGEMM_STATUS_SUCCESS);
  check(AUTOGEMM_OP_N, AUTOGEMM_OP_T, 333, 222, 111, 1.0f, 0.0f, 0, 0, 13000);
  ASSERT_EQ(autogemmSetMode(handle_, AUTOGEMM_MODE_TUNED), AUTOGEMM_STATUS_SUCCESS);
  char path[] = "/tmp/autogemm_untuned_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(autogemmSetDatabasePath(handle_, "/nonexistent/db.sqlite3"), AUTOGEMM_STATUS_SUCCESS);  // nothing tuned
  ASSERT_EQ(autogemmSetRecordUntuned(handle_, path), AUTOGEMM_STATUS_SUCCESS);
  check(AUTOGEMM_OP_T, AUTOGEMM_OP_T, 123, 45, 67, 1.0f, 0.0f, 0, 0, 13100);
  check(AUTOGEMM_OP_T, AUTOGEMM_OP_T, 123, 45, 67, 1.0f, 0.0f, 0, 0, 13200);  // recorded once
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The call as it ran: minimal leading dimensions (lda = k, ldb = n, ldc = m), odd, so the scalar class.
  EXPECT_EQ(text, "transa,transb,m,n,k,lda,ldb,ldc,align,dtype\nt,t,123,45,67,67,45,123,1,f32\n");
  unlink(path);
  autogemmSetRecordUntuned(handle_, nullptr);
  autogemmSetDatabasePath(handle_, nullptr);
}

}  // namespace
}  // namespace autogemm::testing

namespace autogemm::testing {
namespace {

// C = A·B in `nn` with lda = m, ldb = k, ldc = m: random A and B and their float64 product, for the
// tests that call one problem many ways (on a stream, in graphs, after other kernels).
struct NnProblem {
  NnProblem(int m, int n, int k)
      : m(m), n(n), k(k), a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n), ref(size_t(m) * n) {}

  // A and B uniform from seeds `seed` and seed + 1, enqueued on `stream`.
  cudaError_t fill_operands(uint64_t seed, cudaStream_t stream) const {
    const cudaError_t e = fill_uniform(a.get(), a.count(), seed, stream);
    return e == cudaSuccess ? fill_uniform(b.get(), b.count(), seed + 1, stream) : e;
  }
  // The operands from `seed` and their reference, the device synchronised after.
  cudaError_t prepare(uint64_t seed) const {
    cudaError_t e = fill_operands(seed, nullptr);
    if (e == cudaSuccess)
      e = reference_gemm_f64(Op::N, Op::N, m, n, k, 1.0, a.get(), m, b.get(), k, 0.0, nullptr, m, ref.get(), nullptr);
    return e == cudaSuccess ? cudaDeviceSynchronize() : e;
  }
  autogemmStatus_t sgemm(autogemmHandle_t handle) const {
    const float alpha = 1.0f, beta = 0.0f;
    return autogemmSgemm(handle, AUTOGEMM_OP_N, AUTOGEMM_OP_N, m, n, k, &alpha, a.get(), m, b.get(), k, &beta, c.get(),
                         m);
  }
  double error() const { return relative_error(c.get(), m, ref.get(), m, n, nullptr); }

  int m, n, k;
  DeviceBuffer<float> a, b, c;
  DeviceBuffer<double> ref;
};

// A GEMM is launched as a programmatic dependent of the kernel before it in the stream:
// its blocks may start while that kernel drains and must wait for its writes. Here the kernels right
// before each call rewrite A and B (NaN first, then the values the reference was made from), on a
// stream and inside a captured graph; a GEMM that read them early would see NaN or stale values.
// Then a memset as the call's predecessor (no kernel to overlap), on a stream and in a graph.
// (A check of the launch path's results, not a forced race: whether the window is ever hit depends
// on timing.)
TEST_F(SgemmApiTest, ReadsOperandsThatTheKernelBeforeItWrote) {
  const cudaStream_t stream = own_stream();
  for (auto [m, n, k] : {std::tuple{300, 200, 100}, std::tuple{128, 128, 32768}, std::tuple{2048, 2048, 64}}) {
    SCOPED_TRACE(::testing::Message() << m << "x" << n << "x" << k);
    const NnProblem p(m, n, k);
    ASSERT_CUDA(p.prepare(3));
    auto call = [&] { EXPECT_EQ(p.sgemm(handle_), AUTOGEMM_STATUS_SUCCESS) << autogemmGetLastErrorMessage(); };
    // `enqueue` on the stream, then captured into a graph, each time over a NaN-poisoned C.
    auto on_stream_and_in_graph = [&](auto&& enqueue, const char* what) {
      ASSERT_CUDA(fill_nan(p.c.get(), p.c.count(), stream));
      enqueue();
      ASSERT_CUDA(cudaStreamSynchronize(stream));
      EXPECT_LE(p.error(), error_bound(k)) << what << ", on the stream";
      ASSERT_CUDA(fill_nan(p.c.get(), p.c.count(), stream));
      ASSERT_CUDA(cudaStreamSynchronize(stream));
      ASSERT_CUDA(run_captured(stream, enqueue));
      EXPECT_LE(p.error(), error_bound(k)) << what << ", in a graph";
    };
    on_stream_and_in_graph(
        [&] {
          EXPECT_EQ(fill_nan(p.a.get(), p.a.count(), stream), cudaSuccess);
          EXPECT_EQ(fill_nan(p.b.get(), p.b.count(), stream), cudaSuccess);
          EXPECT_EQ(p.fill_operands(3, stream), cudaSuccess);
          call();
        },
        "A and B rewritten by kernels");
    // A memset, not a kernel, right before the call: no kernel to overlap, the launch as a plain one.
    on_stream_and_in_graph(
        [&] {
          EXPECT_EQ(cudaMemsetAsync(p.c.get(), 0, p.c.count() * sizeof(float), stream), cudaSuccess);
          call();
        },
        "after a memset");
  }
}

// Steady state (choice cached, workspace grown) must capture into a CUDA Graph: no allocation, no
// synchronisation, no forbidden call per call. The replayed graph must give the right result.
TEST_F(SgemmApiTest, SteadyStateCapturesIntoACudaGraph) {
  const cudaStream_t stream = own_stream();
  for (auto [m, n, k] : {std::tuple{64, 64, 64}, std::tuple{128, 128, 32768}}) {
    SCOPED_TRACE(::testing::Message() << m << "x" << n << "x" << k);
    const NnProblem p(m, n, k);
    ASSERT_CUDA(p.prepare(1));
    ASSERT_EQ(p.sgemm(handle_), AUTOGEMM_STATUS_SUCCESS);  // first call: lookup, workspace
    ASSERT_CUDA(cudaStreamSynchronize(stream));
    ASSERT_CUDA(fill_nan(p.c.get(), p.c.count(), stream));
    ASSERT_CUDA(run_captured(stream, [&] {
      for (int i = 0; i < 3; ++i) EXPECT_EQ(p.sgemm(handle_), AUTOGEMM_STATUS_SUCCESS) << autogemmGetLastErrorMessage();
    }));
    EXPECT_LE(p.error(), error_bound(k));
  }
}

// autogemmGemmEx with BF16/FP16 operands where the tensor-core family runs: every layout at odd
// sizes through the library's choice, C of the operands' type and FP32, beta over C and beta = 0
// over NaN, k = 0 (C scaled in its own type), operands TMA cannot read on aligned copies; where it
// does not, NOT_SUPPORTED naming the call.
class GemmExApiTest : public SgemmApiTest {
 protected:
  // The tensor-core family computes `types` here: an sm_90a device and a build holding wgmma
  // instances of those types (a build for sm_80 and sm_90 only, as CI's, holds none; a filtered one
  // may hold some types and not others).
  bool tensor_cores(const GemmTypes& types) {
    DeviceLimits limits;
    if (current_device_limits(limits) != cudaSuccess || limits.cc_major != 9 || limits.cc_minor != 0) return false;
    for (const KernelInstance& k : kernel_registry())
      if (k.config.is_wgmma() && k.config.types == types) return true;
    return false;
  }
  bool bf16_tensor_cores() {
    return tensor_cores({DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32});
  }

  // One call of `types`; the status it returned (the result checked when it succeeded).
  autogemmStatus_t check_ex(GemmTypes types, autogemmOperation_t ta, autogemmOperation_t tb, int m, int n, int k,
                            float alpha, float beta, int pad, uint64_t seed) {
    SCOPED_TRACE(::testing::Message() << types_key(types) << " ta=" << ta << " tb=" << tb << " m=" << m << " n=" << n
                                      << " k=" << k << " beta=" << beta << " pad=" << pad);
    const int ab = data_type_bytes(types.a), cb = data_type_bytes(types.c);
    const int lda = (ta == AUTOGEMM_OP_N ? m : k) + pad, ldb = (tb == AUTOGEMM_OP_N ? k : n) + pad, ldc = m + pad;
    const size_t a_elems = size_t(lda) * (ta == AUTOGEMM_OP_N ? k : m), b_elems = size_t(ldb) * (tb == AUTOGEMM_OP_N ? n : k);
    const size_t c_elems = size_t(ldc) * n;
    DeviceBuffer<char> a(a_elems * ab), b(b_elems * ab), c(c_elems * cb), c0(c_elems * cb);
    DeviceBuffer<double> ref(size_t(m) * n);
    EXPECT_EQ(fill_uniform(a.get(), a_elems, seed + 1, nullptr, types.a), cudaSuccess);
    EXPECT_EQ(fill_uniform(b.get(), b_elems, seed + 2, nullptr, types.b), cudaSuccess);
    EXPECT_EQ(fill_uniform(c0.get(), c_elems, seed + 3, nullptr, types.c), cudaSuccess);
    if (beta == 0.0f)
      EXPECT_EQ(fill_nan(c.get(), c_elems, nullptr, types.c), cudaSuccess);
    else
      EXPECT_EQ(cudaMemcpy(c.get(), c0.get(), c_elems * cb, cudaMemcpyDeviceToDevice), cudaSuccess);
    const Op op_a = ta == AUTOGEMM_OP_N ? Op::N : Op::T, op_b = tb == AUTOGEMM_OP_N ? Op::N : Op::T;
    EXPECT_EQ(reference_gemm_f64(op_a, op_b, m, n, k, alpha, a.get(), lda, b.get(), ldb, beta, c0.get(), ldc,
                                 ref.get(), nullptr, types),
              cudaSuccess);
    auto cuda_type = [](DataType t) {
      return t == DataType::kBF16 ? CUDA_R_16BF : t == DataType::kF16 ? CUDA_R_16F : CUDA_R_32F;
    };
    const autogemmStatus_t s =
        autogemmGemmEx(handle_, ta, tb, m, n, k, &alpha, a.get(), cuda_type(types.a), lda, b.get(), cuda_type(types.b),
                       ldb, &beta, c.get(), cuda_type(types.c), ldc, compute_type_of(types));
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    if (s == AUTOGEMM_STATUS_SUCCESS) {
      const double err = relative_error(c.get(), ldc, ref.get(), m, n, nullptr, types.c);
      EXPECT_LE(err, error_bound(std::max(k, 1), types)) << "relative error " << err;
    }
    return s;
  }
};

TEST_F(GemmExApiTest, NotSupportedWithoutTheFamilysDevice) {
  if (bf16_tensor_cores())
    GTEST_SKIP() << "the tensor-core family runs them here (AlignedOperandsRunAndMatchTheReference)";
  const GemmTypes types{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  EXPECT_EQ(check_ex(types, AUTOGEMM_OP_T, AUTOGEMM_OP_N, 64, 64, 64, 1.0f, 0.0f, 0, 3), AUTOGEMM_STATUS_NOT_SUPPORTED);
}

TEST_F(GemmExApiTest, AlignedOperandsRunAndMatchTheReference) {
  if (!bf16_tensor_cores()) GTEST_SKIP() << "the tensor-core family needs sm_90a and a build with its instances";
  const autogemmOperation_t ops[] = {AUTOGEMM_OP_N, AUTOGEMM_OP_T};
  uint64_t seed = 1900;
  for (DataType t : {DataType::kBF16, DataType::kF16})
    for (DataType out : {t, DataType::kF32})
      for (auto ta : ops)
        for (auto tb : ops) {
          const GemmTypes types{t, t, out, ComputeType::kF32};
          if (!tensor_cores(types)) continue;  // the BF16-to-BF16 instances are there, checked above
          // Extents that are multiples of 8 with ld 8 past them: every operand 16-byte aligned.
          EXPECT_EQ(check_ex(types, ta, tb, 304, 200, 520, 1.5f, 0.5f, 8, seed += 7), AUTOGEMM_STATUS_SUCCESS)
              << autogemmGetLastErrorMessage();
          EXPECT_EQ(check_ex(types, ta, tb, 1024, 64, 4096, 1.0f, 0.0f, 0, seed += 7), AUTOGEMM_STATUS_SUCCESS)
              << autogemmGetLastErrorMessage();
        }
}

TEST_F(GemmExApiTest, KZeroScalesCInItsType) {
  const GemmTypes types{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  // k = 0: C = beta * C whatever the device, no kernel of the family needed.
  EXPECT_EQ(check_ex(types, AUTOGEMM_OP_N, AUTOGEMM_OP_N, 37, 29, 0, 1.0f, 0.5f, 3, 77), AUTOGEMM_STATUS_SUCCESS)
      << autogemmGetLastErrorMessage();
}

// Leading dimensions that are not multiples of 8 elements (pads 1 and 3 on odd extents): the
// operands TMA cannot read run on aligned copies, C copied back, and nothing else of C changes.
TEST_F(GemmExApiTest, OperandsTmaCannotReadRunOnAlignedCopies) {
  if (!bf16_tensor_cores()) GTEST_SKIP() << "the tensor-core family needs sm_90a and a build with its instances";
  const autogemmOperation_t ops[] = {AUTOGEMM_OP_N, AUTOGEMM_OP_T};
  uint64_t seed = 2900;
  for (DataType out : {DataType::kBF16, DataType::kF32})
    for (auto ta : ops)
      for (auto tb : ops)
        for (int pad : {1, 3}) {
          const GemmTypes types{DataType::kBF16, DataType::kBF16, out, ComputeType::kF32};
          if (!tensor_cores(types)) continue;  // the BF16-to-BF16 instances are there, checked above
          EXPECT_EQ(check_ex(types, ta, tb, 301, 203, 517, 1.5f, pad == 1 ? 0.0f : 0.5f, pad, seed += 7),
                    AUTOGEMM_STATUS_SUCCESS)
              << autogemmGetLastErrorMessage();
        }
  // An N-major B whose n pads to whole TMA boxes (500 to 504, then 512), C's n with it.
  const GemmTypes bf16{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  for (auto ta : ops)
    EXPECT_EQ(check_ex(bf16, ta, AUTOGEMM_OP_T, 301, 500, 517, 1.0f, 0.5f, 1, seed += 7), AUTOGEMM_STATUS_SUCCESS)
        << autogemmGetLastErrorMessage();
}

// Decode shapes (a few tokens as m of a `tn` call) run and match the reference, also m = 1 whose C
// the call pads; autogemmExplainGemmEx names a tensor-core kernel and validates the types as the
// call does.
TEST_F(GemmExApiTest, DecodeShapesRunAndExplainNamesTheirKernel) {
  if (!bf16_tensor_cores()) GTEST_SKIP() << "the tensor-core family needs sm_90a and a build with its instances";
  const GemmTypes types{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  EXPECT_EQ(check_ex(types, AUTOGEMM_OP_T, AUTOGEMM_OP_N, 16, 1024, 4096, 1.0f, 0.0f, 0, 3100), AUTOGEMM_STATUS_SUCCESS)
      << autogemmGetLastErrorMessage();
  EXPECT_EQ(check_ex(types, AUTOGEMM_OP_T, AUTOGEMM_OP_N, 1, 512, 2048, 1.0f, 0.5f, 0, 3200), AUTOGEMM_STATUS_SUCCESS)
      << autogemmGetLastErrorMessage();
  DeviceBuffer<char> a(size_t(4096) * 16 * 2), b(size_t(4096) * 1024 * 2), c(size_t(16) * 1024 * 2);
  autogemmChoiceInfo_t info;
  ASSERT_EQ(autogemmExplainGemmEx(handle_, AUTOGEMM_OP_T, AUTOGEMM_OP_N, 16, 1024, 4096, a.get(), CUDA_R_16BF, 4096,
                                  b.get(), CUDA_R_16BF, 4096, c.get(), CUDA_R_16BF, 16, AUTOGEMM_COMPUTE_32F, &info),
            AUTOGEMM_STATUS_SUCCESS)
      << autogemmGetLastErrorMessage();
  EXPECT_EQ(std::string(info.kernel).rfind("sm90_wgmma_bf16_bf16_", 0), 0u) << info.kernel;
  EXPECT_STREQ(info.source, "untuned");
  EXPECT_EQ(autogemmExplainGemmEx(handle_, AUTOGEMM_OP_T, AUTOGEMM_OP_N, 16, 1024, 4096, a.get(), CUDA_R_32F, 4096,
                                  b.get(), CUDA_R_16BF, 4096, c.get(), CUDA_R_16BF, 16, AUTOGEMM_COMPUTE_32F, &info),
            AUTOGEMM_STATUS_NOT_SUPPORTED);
  EXPECT_NE(std::string(autogemmGetLastErrorMessage()).find("autogemmExplainGemmEx: Atype"), std::string::npos)
      << autogemmGetLastErrorMessage();
}

// The TF32 and 3xTF32 arithmetics on every layout, with leading dimensions TMA reads (pad 0, 4) and
// ones it cannot (1, 3; an odd m, whose C only the CUDA-core kernels write): each within its
// arithmetic's bound, on any device (without the tensor-core family the CUDA-core FP32 kernels, more
// accurate, serve them).
TEST_F(GemmExApiTest, Tf32ArithmeticsRunEveryLayoutWithinTheirBounds) {
  const autogemmOperation_t ops[] = {AUTOGEMM_OP_N, AUTOGEMM_OP_T};
  uint64_t seed = 4100;
  for (ComputeType arithmetic : {ComputeType::kTF32, ComputeType::k3xTF32})
    for (auto ta : ops)
      for (auto tb : ops)
        for (int pad : {0, 1, 3, 4}) {
          const GemmTypes types{DataType::kF32, DataType::kF32, DataType::kF32, arithmetic};
          const int m = pad == 3 ? 301 : 300;
          EXPECT_EQ(check_ex(types, ta, tb, m, 203, 517, 1.5f, pad == 1 ? 0.0f : 0.5f, pad, seed += 7),
                    AUTOGEMM_STATUS_SUCCESS)
              << autogemmGetLastErrorMessage();
        }
  const GemmTypes emulated{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::k3xTF32};
  EXPECT_EQ(check_ex(emulated, AUTOGEMM_OP_N, AUTOGEMM_OP_N, 1024, 512, 2048, 1.0f, 0.0f, 0, 4900),
            AUTOGEMM_STATUS_SUCCESS)
      << autogemmGetLastErrorMessage();
}

// The handle's math mode: AUTOGEMM_MATH's words as autogemmMath_t, the mode read back, a bad value
// named; autogemmSgemm and autogemmGemmEx with AUTOGEMM_COMPUTE_32F follow it, and the untuned
// choice of a large problem is a kernel of the mode's arithmetic wherever one runs (pedantic: a
// CUDA-core kernel; TF32 and 3xTF32: a tensor-core one, on sm_90a in a build holding them).
TEST_F(GemmExApiTest, MathModeChoosesTheArithmeticOfFp32Calls) {
  autogemmMath_t mode;
  ASSERT_EQ(autogemmGetMathMode(handle_, &mode), AUTOGEMM_STATUS_SUCCESS);
  EXPECT_EQ(autogemmSetMathMode(handle_, static_cast<autogemmMath_t>(7)), AUTOGEMM_STATUS_INVALID_VALUE);
  EXPECT_NE(std::string(autogemmGetLastErrorMessage()).find("mode = 7"), std::string::npos)
      << autogemmGetLastErrorMessage();
  const int n = 2048;
  DeviceBuffer<float> a(size_t(n) * n), b(size_t(n) * n), c(size_t(n) * n);
  ASSERT_EQ(fill_uniform(a.get(), size_t(n) * n, 5001, nullptr), cudaSuccess);
  ASSERT_EQ(fill_uniform(b.get(), size_t(n) * n, 5002, nullptr), cudaSuccess);
  DeviceBuffer<double> ref(size_t(n) * n);
  ASSERT_EQ(reference_gemm_f64(Op::T, Op::N, n, n, n, 1.0, a.get(), n, b.get(), n, 0.0, c.get(), n, ref.get(), nullptr),
            cudaSuccess);
  const struct {
    autogemmMath_t mode;
    ComputeType arithmetic;
    const char* kernel_prefix;
  } modes[] = {{AUTOGEMM_MATH_TF32, ComputeType::kTF32, "sm90_wgmma_tf32_"},
               {AUTOGEMM_MATH_FP32_EMULATED, ComputeType::k3xTF32, "sm90_wgmma_3xtf32_"},
               {AUTOGEMM_MATH_PEDANTIC, ComputeType::kF32, "simt_sgemm_"}};
  for (const auto& m : modes) {
    SCOPED_TRACE(math_mode_name(m.arithmetic));
    ASSERT_EQ(autogemmSetMathMode(handle_, m.mode), AUTOGEMM_STATUS_SUCCESS);
    ASSERT_EQ(autogemmGetMathMode(handle_, &mode), AUTOGEMM_STATUS_SUCCESS);
    EXPECT_EQ(mode, m.mode);
    const float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(fill_nan(c.get(), size_t(n) * n, nullptr), cudaSuccess);
    ASSERT_EQ(autogemmSgemm(handle_, AUTOGEMM_OP_T, AUTOGEMM_OP_N, n, n, n, &one, a.get(), n, b.get(), n, &zero, c.get(), n),
              AUTOGEMM_STATUS_SUCCESS)
        << autogemmGetLastErrorMessage();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const double err = relative_error(c.get(), n, ref.get(), n, n, nullptr);
    const GemmTypes types{DataType::kF32, DataType::kF32, DataType::kF32, m.arithmetic};
    EXPECT_LE(err, error_bound(n, types)) << "relative error " << err;
    autogemmChoiceInfo_t info;
    ASSERT_EQ(autogemmExplainGemmEx(handle_, AUTOGEMM_OP_T, AUTOGEMM_OP_N, n, n, n, a.get(), CUDA_R_32F, n, b.get(),
                                    CUDA_R_32F, n, c.get(), CUDA_R_32F, n, AUTOGEMM_COMPUTE_32F, &info),
              AUTOGEMM_STATUS_SUCCESS)
        << autogemmGetLastErrorMessage();
    if (m.arithmetic == ComputeType::kF32 || tensor_cores(types)) {
      EXPECT_EQ(std::string(info.kernel).rfind(m.kernel_prefix, 0), 0u) << info.kernel;
    }
  }
}

}  // namespace
}  // namespace autogemm::testing
