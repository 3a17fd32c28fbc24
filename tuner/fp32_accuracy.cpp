// See fp32_accuracy.hpp.
#include "fp32_accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "check.hpp"
#include "cublas_sgemm.hpp"
#include "family.hpp"
#include "operation.hpp"
#include "status.hpp"

namespace autogemm {
namespace {

template <class T>
T* device_alloc(size_t count) {
  void* p = nullptr;
  AUTOGEMM_CUDA_CHECK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T)));
  return static_cast<T*>(p);
}

template <class T>
void upload(T* dst, const std::vector<T>& src) {
  AUTOGEMM_CUDA_CHECK(cudaMemcpy(dst, src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// A random sign and mantissa in [1, 2) at 2^e, e uniform in [lo, hi] (products stay finite).
float scaled(std::mt19937_64& rng, int lo, int hi) {
  const float mantissa = std::uniform_real_distribution<float>(1.0f, 2.0f)(rng);
  const int e = std::uniform_int_distribution<int>(lo, hi)(rng);
  return (rng() & 1 ? -1.0f : 1.0f) * std::ldexp(mantissa, e);
}

// A (m x k) and B (k x n), column-major, of one kind of data.
void generate(AccuracyData data, int m, int n, int k, uint64_t seed, std::vector<float>& a, std::vector<float>& b) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  a.resize(size_t(m) * k);
  b.resize(size_t(k) * n);
  switch (data) {
    case AccuracyData::kRandom:
      for (float& x : a) x = unit(rng);
      for (float& x : b) x = unit(rng);
      break;
    case AccuracyData::kWideExponents:
      for (float& x : a) x = scaled(rng, -40, 40);
      for (float& x : b) x = scaled(rng, -40, 40);
      break;
    case AccuracyData::kNearLimits:
      for (float& x : a) x = scaled(rng, -149, -100);
      for (float& x : b) x = scaled(rng, 96, 126);
      break;
    case AccuracyData::kCancellation: {
      for (float& x : a) x = unit(rng);
      for (float& x : b) x = unit(rng);
      const int half = k / 2;
      for (int j = 0; j < m; ++j)
        for (int kk = half; kk < 2 * half; ++kk) a[size_t(kk) * m + j] = a[size_t(kk - half) * m + j];
      for (int j = 0; j < n; ++j)
        for (int kk = half; kk < 2 * half; ++kk)
          b[size_t(j) * k + kk] = -b[size_t(j) * k + kk - half] * (1.0f + std::ldexp(unit(rng), -12));
      break;
    }
  }
}

}  // namespace

const char* accuracy_data_name(AccuracyData data) {
  switch (data) {
    case AccuracyData::kRandom: return "random";
    case AccuracyData::kWideExponents: return "wide_exponents";
    case AccuracyData::kNearLimits: return "near_limits";
    case AccuracyData::kCancellation: return "cancellation";
  }
  return "?";
}

void AccuracyProblem::CudaFree::operator()(void* p) const { cudaFree(p); }

AccuracyProblem::AccuracyProblem(AccuracyData data, int m, int n, int k, uint64_t seed)
    : m_(m),
      n_(n),
      k_(k),
      a_(device_alloc<float>(size_t(m) * k)),
      b_(device_alloc<float>(size_t(k) * n)),
      c_(device_alloc<float>(size_t(m) * n)),
      ref_(device_alloc<double>(size_t(m) * n)),
      abs_sum_(device_alloc<double>(size_t(m) * n)) {
  std::vector<float> a, b;
  // Σ|a·b| first: the same float64 reference on |A| and |B|, through the operands' buffers.
  generate(data, m, n, k, seed, a, b);
  for (float& x : a) x = std::fabs(x);
  for (float& x : b) x = std::fabs(x);
  upload(a_.get(), a);
  upload(b_.get(), b);
  AUTOGEMM_CUDA_CHECK(
      reference_gemm_f64(Op::N, Op::N, m, n, k, 1.0, a_.get(), m, b_.get(), k, 0.0, nullptr, m, abs_sum_.get(), nullptr));
  generate(data, m, n, k, seed, a, b);
  upload(a_.get(), a);
  upload(b_.get(), b);
  AUTOGEMM_CUDA_CHECK(
      reference_gemm_f64(Op::N, Op::N, m, n, k, 1.0, a_.get(), m, b_.get(), k, 0.0, nullptr, m, ref_.get(), nullptr));
}

AccuracyResult AccuracyProblem::error() const {
  const size_t count = size_t(m_) * n_;
  std::vector<float> c(count);
  std::vector<double> ref(count), abs_sum(count);
  AUTOGEMM_CUDA_CHECK(cudaDeviceSynchronize());
  AUTOGEMM_CUDA_CHECK(cudaMemcpy(c.data(), c_.get(), count * sizeof(float), cudaMemcpyDeviceToHost));
  AUTOGEMM_CUDA_CHECK(cudaMemcpy(ref.data(), ref_.get(), count * sizeof(double), cudaMemcpyDeviceToHost));
  AUTOGEMM_CUDA_CHECK(cudaMemcpy(abs_sum.data(), abs_sum_.get(), count * sizeof(double), cudaMemcpyDeviceToHost));
  std::vector<double> errors(count);
  for (size_t i = 0; i < count; ++i) {
    const double diff = std::fabs(static_cast<double>(c[i]) - ref[i]);
    errors[i] = !std::isfinite(c[i]) ? std::numeric_limits<double>::infinity()
                : abs_sum[i] > 0    ? diff / abs_sum[i]
                                    : diff;
  }
  AccuracyResult r;
  r.worst = *std::max_element(errors.begin(), errors.end());
  std::nth_element(errors.begin(), errors.begin() + count / 2, errors.end());
  r.median = errors[count / 2];
  return r;
}

int run_with_arithmetic(const AccuracyProblem& problem, const GemmTypes& types, cudaStream_t stream, int splits,
                        std::string* kernel_name) {
  GemmProblem p;
  p.op_a = p.op_b = Op::N;
  p.m = problem.m(), p.n = problem.n(), p.k = problem.k();
  p.a = problem.a(), p.lda = problem.m();
  p.b = problem.b(), p.ldb = problem.k();
  p.c = problem.c(), p.ldc = problem.m();
  p.alpha = 1.0f, p.beta = 0.0f;
  p.types = types;
  int device = 0;
  AUTOGEMM_CUDA_CHECK(cudaGetDevice(&device));
  const DeviceLimits limits = query_device_limits(device);
  for (const KernelInstance& kernel : kernel_registry()) {
    if (kernel.config.types != types || !can_implement(kernel, p, limits)) continue;
    auto runs = [&](SplitChoice s) { return splits_run(kernel.config, p.k, s); };
    SplitChoice split{splits, SplitKMode::kParallel};
    if (splits == 0) {  // the fewest the runtime's candidates hold
      const std::vector<SplitChoice> offered =
          split_candidates(kernel.config, p.m, p.n, p.k, limits.sm_count, SplitModes::kParallelOnly);
      if (offered.empty()) continue;
      split = *std::min_element(offered.begin(), offered.end(),
                                [&](SplitChoice a, SplitChoice b) { return runs(a) < runs(b); });
    } else if (splits == 1) {
      split = {1, SplitKMode::kNone};
    }
    const int ran = runs(split);
    if (splits > 0 && ran != splits) continue;
    const WorkspaceNeeds needs = workspace_size(kernel, p, split);
    Workspace ws;
    ws.partial_bytes = needs.partial_bytes, ws.repack_bytes = needs.repack_bytes;
    ws.partials = device_alloc<float>(needs.partial_bytes / sizeof(float) + 1);
    ws.repacked = device_alloc<float>(needs.repack_bytes / sizeof(float) + 1);
    const cudaError_t e = run(kernel, p, split, ws, stream);
    const cudaError_t sync = cudaStreamSynchronize(stream);
    cudaFree(ws.partials);
    cudaFree(ws.repacked);
    AUTOGEMM_CUDA_CHECK(e);
    AUTOGEMM_CUDA_CHECK(sync);
    if (kernel_name != nullptr) *kernel_name = kernel.name;
    return ran;
  }
  return 0;
}

std::vector<AccuracyRow> measure_accuracy(const std::vector<int>& ks, int size, uint64_t seed,
                                          const std::vector<int>& emulated_splits) {
  const GemmTypes tf32{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
  const GemmTypes emulated{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::k3xTF32};
  CublasGemm cublas(nullptr);
  std::vector<AccuracyRow> rows;
  for (AccuracyData data : kAccuracyData)
    for (int k : ks) {
      const AccuracyProblem problem(data, size, size, k, seed++);
      ColumnMajorProblem cm;
      cm.m = cm.n = size, cm.k = k, cm.lda = cm.ldc = size, cm.ldb = k;
      auto row = [&](const char* method, const std::string& kernel, int splits = 1) {
        rows.push_back({accuracy_data_name(data), method, kernel, k, splits, problem.error()});
      };
      cm.types = kF32Types;
      cublas(cm, 1.0f, problem.a(), problem.b(), 0.0f, problem.c());
      row("cublas_pedantic", "cublasSgemm");
      cm.types = tf32;
      cublas(cm, 1.0f, problem.a(), problem.b(), 0.0f, problem.c());
      row("cublas_tf32", "cublasGemmEx");
      const struct {
        const char* method;
        GemmTypes types;
      } ours[] = {{"autogemm_pedantic", kF32Types}, {"autogemm_3xtf32", emulated}, {"autogemm_tf32", tf32}};
      for (const auto& o : ours) {
        std::string kernel;
        if (const int ran = run_with_arithmetic(problem, o.types, nullptr, 0, &kernel); ran > 0)
          row(o.method, kernel, ran);
      }
      for (int splits : emulated_splits) {
        std::string kernel;
        if (const int ran = run_with_arithmetic(problem, emulated, nullptr, splits, &kernel); ran > 0)
          row("autogemm_3xtf32_split", kernel, ran);
      }
    }
  return rows;
}

}  // namespace autogemm
