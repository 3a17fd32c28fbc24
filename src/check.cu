// See check.hpp. The reference is deliberately plain (float64 accumulation, each output's k products
// summed in order): it shares no code with the kernels it checks. The tiled form stages operand
// slices in shared memory so that big problems do not spend the online tuner's budget on it; the
// one-thread-per-output form is kept as its check.
#include "check.hpp"

#include "element_dispatch.cuh"
#include "status.hpp"

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

// Elements as the reference reads them (exactly: every FP32, BF16 and FP16 value is a double).
__device__ __forceinline__ double to_double(float x) { return x; }
__device__ __forceinline__ double to_double(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ double to_double(__half x) { return __half2float(x); }

template <class T>
__global__ void fill_uniform_kernel(T* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    const uint64_t r = splitmix64(seed * 0x2545F4914F6CDD1Dull + i);
    p[i] = static_cast<T>(static_cast<float>(static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0));
  }
}

template <class T>
__global__ void fill_nan_kernel(T* p, size_t n) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
    p[i] = static_cast<T>(__int_as_float(0x7fc00000));
}

/// The BLAS combination in float64, one rounding order for both reference forms (left to the
/// compiler, the two kernels contracted alpha * sum + beta * c0 differently in the last bit).
template <class TC>
__device__ __forceinline__ double scaled(double alpha, double sum, double beta, const TC* c0, int64_t at) {
  const double product = __dmul_rn(alpha, sum);
  return beta != 0.0 ? fma(beta, to_double(c0[at]), product) : product;  // beta == 0: C0 may be null
}

template <class T, class TC>
__global__ void reference_kernel(bool ta, bool tb, int m, int n, int k, double alpha, const T* a, int64_t lda,
                                 const T* b, int64_t ldb, double beta, const TC* c0, int64_t ldc, double* ref) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y;
  if (i >= m) return;
  double sum = 0.0;
  for (int p = 0; p < k; ++p) {
    const double av = to_double(ta ? a[i * lda + p] : a[p * lda + i]);
    const double bv = to_double(tb ? b[p * ldb + j] : b[j * ldb + p]);
    sum = fma(av, bv, sum);  // one rounding per product, as the tiled form
  }
  ref[static_cast<int64_t>(j) * m + i] = scaled(alpha, sum, beta, c0, j * ldc + i);
}

// The tiled reference: a block computes kRefTile x kRefTile outputs, a thread kRefPer x kRefPer of
// them (rows tx + 16 r, columns ty + 16 c), over kRefK-deep slices of op(A) and op(B) held as
// doubles in shared memory. Each output adds its products in order of p, one FMA each, as the plain
// kernel does; slices past k are zeros (adding +0 changes no sum).
constexpr int kRefTile = 64, kRefK = 16, kRefThreads = 256, kRefPer = 4, kRefLanes = kRefTile / kRefPer;
static_assert(kRefLanes * kRefLanes == kRefThreads);

/// op(X) at (xi, p): xi a row of op(A) or a column of op(B), p the k-index. A K-major operand stores
/// each xi's k values contiguously (x[xi * ld + p]), the other kind each p's (x[p * ld + xi]).
/// Zero outside extent x k.
template <class T>
__device__ __forceinline__ double operand_at(const T* x, int64_t ld, bool k_major, int xi, int p, int extent, int k) {
  if (xi >= extent || p >= k) return 0.0;
  return to_double(k_major ? x[xi * ld + p] : x[p * ld + xi]);
}

template <class T, class TC>
__global__ void __launch_bounds__(kRefThreads)
    reference_tiled_kernel(bool ta, bool tb, int m, int n, int k, double alpha, const T* a, int64_t lda, const T* b,
                           int64_t ldb, double beta, const TC* c0, int64_t ldc, double* ref) {
  __shared__ double sa[kRefK][kRefTile + 1];  // op(A)[i0 + x][p0 + p] at [p][x]
  __shared__ double sb[kRefK][kRefTile + 1];  // op(B)[p0 + p][j0 + x] at [p][x]
  const int i0 = blockIdx.x * kRefTile, j0 = blockIdx.y * kRefTile;
  const int tx = threadIdx.x % kRefLanes, ty = threadIdx.x / kRefLanes;
  double acc[kRefPer][kRefPer] = {};
  for (int p0 = 0; p0 < k; p0 += kRefK) {
    for (int e = threadIdx.x; e < kRefK * kRefTile; e += kRefThreads) {
      // Consecutive threads walk the operand's contiguous dimension: p for a K-major one, x otherwise.
      // A is K-major when op_a is T (a[i * lda + p]); B when op_b is N (b[j * ldb + p]).
      int p = ta ? e % kRefK : e / kRefTile, x = ta ? e / kRefK : e % kRefTile;
      sa[p][x] = operand_at(a, lda, ta, i0 + x, p0 + p, m, k);
      p = tb ? e / kRefTile : e % kRefK, x = tb ? e % kRefTile : e / kRefK;
      sb[p][x] = operand_at(b, ldb, !tb, j0 + x, p0 + p, n, k);
    }
    __syncthreads();
    for (int p = 0; p < kRefK; ++p) {
      double av[kRefPer], bv[kRefPer];
      for (int r = 0; r < kRefPer; ++r) av[r] = sa[p][tx + kRefLanes * r], bv[r] = sb[p][ty + kRefLanes * r];
      for (int r = 0; r < kRefPer; ++r)
        for (int c = 0; c < kRefPer; ++c) acc[r][c] = fma(av[r], bv[c], acc[r][c]);
    }
    __syncthreads();
  }
  for (int c = 0; c < kRefPer; ++c) {
    const int j = j0 + ty + kRefLanes * c;
    for (int r = 0; r < kRefPer; ++r) {
      const int i = i0 + tx + kRefLanes * r;
      if (i >= m || j >= n) continue;
      ref[static_cast<int64_t>(j) * m + i] = scaled(alpha, acc[r][c], beta, c0, j * ldc + i);
    }
  }
}

template <class TC>
__global__ void error_kernel(const TC* c, int64_t ldc, const double* ref, int m, int n, double* sums) {
  double diff2 = 0.0, ref2 = 0.0, bad = 0.0;
  const int64_t total = static_cast<int64_t>(m) * n;
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < total; idx += int64_t{gridDim.x} * blockDim.x) {
    const int64_t i = idx % m, j = idx / m;
    const double v = to_double(c[j * ldc + i]);
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

cudaError_t fill_uniform(void* p, size_t n, uint64_t seed, cudaStream_t stream, DataType type) {
  if (n == 0) return cudaSuccess;
  return with_element(type, [&](auto t) {
    fill_uniform_kernel<<<grid_for(n), 256, 0, stream>>>(static_cast<decltype(t)*>(p), n, seed);
    return cudaGetLastError();
  });
}

cudaError_t fill_nan(void* p, size_t n, cudaStream_t stream, DataType type) {
  if (n == 0) return cudaSuccess;
  return with_element(type, [&](auto t) {
    fill_nan_kernel<<<grid_for(n), 256, 0, stream>>>(static_cast<decltype(t)*>(p), n);
    return cudaGetLastError();
  });
}

cudaError_t reference_gemm_f64(Op op_a, Op op_b, int m, int n, int k, double alpha, const void* a, int64_t lda,
                               const void* b, int64_t ldb, double beta, const void* c0, int64_t ldc, double* ref,
                               cudaStream_t stream, const GemmTypes& types) {
  if (m == 0 || n == 0) return cudaSuccess;
  const dim3 grid((m + kRefTile - 1) / kRefTile, (n + kRefTile - 1) / kRefTile);
  return with_element(types.a, [&](auto ta) {
    using T = decltype(ta);
    return with_element(types.c, [&](auto tc) {
      using TC = decltype(tc);
      reference_tiled_kernel<<<grid, kRefThreads, 0, stream>>>(op_a == Op::T, op_b == Op::T, m, n, k, alpha,
                                                               static_cast<const T*>(a), lda, static_cast<const T*>(b),
                                                               ldb, beta, static_cast<const TC*>(c0), ldc, ref);
      return cudaGetLastError();
    });
  });
}

cudaError_t reference_gemm_f64_naive(Op op_a, Op op_b, int m, int n, int k, double alpha, const void* a, int64_t lda,
                                     const void* b, int64_t ldb, double beta, const void* c0, int64_t ldc,
                                     double* ref, cudaStream_t stream, const GemmTypes& types) {
  if (m == 0 || n == 0) return cudaSuccess;
  const dim3 grid((m + 127) / 128, n);
  return with_element(types.a, [&](auto ta) {
    using T = decltype(ta);
    return with_element(types.c, [&](auto tc) {
      using TC = decltype(tc);
      reference_kernel<<<grid, 128, 0, stream>>>(op_a == Op::T, op_b == Op::T, m, n, k, alpha, static_cast<const T*>(a),
                                                 lda, static_cast<const T*>(b), ldb, beta, static_cast<const TC*>(c0),
                                                 ldc, ref);
      return cudaGetLastError();
    });
  });
}

double relative_error(const void* c, int64_t ldc, const double* ref, int m, int n, cudaStream_t stream,
                      DataType c_type) {
  double* sums = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&sums), 3 * sizeof(double)) != cudaSuccess) return std::nan("");
  double host[3] = {0, 0, 0};
  cudaMemsetAsync(sums, 0, 3 * sizeof(double), stream);
  with_element(c_type, [&](auto t) {
    error_kernel<<<grid_for(static_cast<size_t>(m) * n), 256, 0, stream>>>(static_cast<const decltype(t)*>(c), ldc,
                                                                            ref, m, n, sums);
    return cudaGetLastError();
  });
  const cudaError_t e = cudaMemcpyAsync(host, sums, sizeof host, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaFree(sums);
  if (e != cudaSuccess || cudaGetLastError() != cudaSuccess || host[2] > 0) return std::nan("");
  return std::sqrt(host[0]) / std::max(std::sqrt(host[1]), std::numeric_limits<double>::min());
}

double error_bound(int k, const GemmTypes& types) {
  if (!is_known_combination(types))
    throw StatusError(AUTOGEMM_STATUS_NOT_SUPPORTED, "the result check has no error bound for types " + types_key(types));
  // Rounding each output once to C's type moves it by at most its unit roundoff, so the Frobenius
  // norm of the rounding errors is at most that times ||ref||: 2^-24 for FP32 (inside the FP32
  // term), 2^-11 for FP16, 2^-8 for BF16. BF16 and FP16 products are exact in FP32, so the sum's
  // error is FP32's; so are 3xTF32's, whose split operands carry 22 of FP32's 24 bits (the dropped
  // a_lo·b_lo and the parts' rounding: about 2^-22 of each product). TF32 reads each operand
  // truncated to 11 significant bits: each product within 2^-9 of its value.
  const double accumulation = 1e-6 * std::sqrt(static_cast<double>(k)) + 1e-6;
  if (types.compute == ComputeType::kTF32) return 0x1.0p-9 + accumulation;
  switch (types.c) {
    case DataType::kF32: return accumulation;
    case DataType::kF16: return 0x1.0p-11 + accumulation;
    case DataType::kBF16: return 0x1.0p-8 + accumulation;
  }
  return accumulation;
}

}  // namespace autogemm
