// See check.hpp. The reference is deliberately naive (one thread per output, float64 accumulation):
// it shares no code with the kernels it checks.
#include "check.hpp"

#include <cmath>
#include <limits>

namespace autogemm {
namespace {

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__global__ void fill_uniform_kernel(float* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    const uint64_t r = splitmix64(seed * 0x2545F4914F6CDD1Dull + i);
    p[i] = static_cast<float>(static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0);
  }
}

__global__ void fill_nan_kernel(float* p, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
    p[i] = __int_as_float(0x7fc00000);
}

__global__ void reference_kernel(bool ta, bool tb, int m, int n, int k, double alpha, const float* a, int64_t lda,
                                 const float* b, int64_t ldb, double beta, const float* c0, int64_t ldc, double* ref) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y;
  if (i >= m) return;
  double sum = 0.0;
  for (int p = 0; p < k; ++p) {
    const double av = ta ? a[i * lda + p] : a[p * lda + i];
    const double bv = tb ? b[p * ldb + j] : b[j * ldb + p];
    sum += av * bv;
  }
  double out = alpha * sum;
  if (beta != 0.0) out += beta * static_cast<double>(c0[j * ldc + i]);
  ref[static_cast<int64_t>(j) * m + i] = out;
}

__global__ void error_kernel(const float* c, int64_t ldc, const double* ref, int m, int n, double* sums) {
  double diff2 = 0.0, ref2 = 0.0, bad = 0.0;
  const int64_t total = static_cast<int64_t>(m) * n;
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < total; idx += int64_t{gridDim.x} * blockDim.x) {
    const int64_t i = idx % m, j = idx / m;
    const double v = c[j * ldc + i];
    const double r = ref[idx];
    if (!isfinite(v)) bad += 1.0;
    diff2 += (v - r) * (v - r);
    ref2 += r * r;
  }
  atomicAdd(&sums[0], diff2);
  atomicAdd(&sums[1], ref2);
  atomicAdd(&sums[2], bad);
}

unsigned grid_for(size_t n) { return static_cast<unsigned>(std::min<size_t>((n + 255) / 256, 4096)); }

}  // namespace

cudaError_t fill_uniform(float* p, size_t n, uint64_t seed, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  fill_uniform_kernel<<<grid_for(n), 256, 0, stream>>>(p, n, seed);
  return cudaGetLastError();
}

cudaError_t fill_nan(float* p, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  fill_nan_kernel<<<grid_for(n), 256, 0, stream>>>(p, n);
  return cudaGetLastError();
}

cudaError_t reference_gemm_f64(Op op_a, Op op_b, int m, int n, int k, double alpha, const float* a, int64_t lda,
                               const float* b, int64_t ldb, double beta, const float* c0, int64_t ldc, double* ref,
                               cudaStream_t stream) {
  if (m == 0 || n == 0) return cudaSuccess;
  const dim3 grid((m + 127) / 128, n);
  reference_kernel<<<grid, 128, 0, stream>>>(op_a == Op::T, op_b == Op::T, m, n, k, alpha, a, lda, b, ldb, beta, c0,
                                             ldc, ref);
  return cudaGetLastError();
}

double relative_error(const float* c, int64_t ldc, const double* ref, int m, int n, cudaStream_t stream) {
  double* sums = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&sums), 3 * sizeof(double)) != cudaSuccess) return std::nan("");
  double host[3] = {0, 0, 0};
  cudaMemsetAsync(sums, 0, 3 * sizeof(double), stream);
  error_kernel<<<grid_for(static_cast<size_t>(m) * n), 256, 0, stream>>>(c, ldc, ref, m, n, sums);
  const cudaError_t e = cudaMemcpyAsync(host, sums, sizeof host, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaFree(sums);
  if (e != cudaSuccess || cudaGetLastError() != cudaSuccess || host[2] > 0) return std::nan("");
  return std::sqrt(host[0]) / std::max(std::sqrt(host[1]), std::numeric_limits<double>::min());
}

double error_bound(int k) { return 1e-6 * std::sqrt(static_cast<double>(k)) + 1e-6; }

}  // namespace autogemm
