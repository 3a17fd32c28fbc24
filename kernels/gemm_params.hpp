// GemmParams: what one launch of any FP32 GEMM kernel instance receives. Column-major, cuBLAS
// semantics: C (m x n) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C. Host and device code.
#pragma once

#include <cstdint>

namespace autogemm {

/// How the K dimension is split over blocks (a run-time choice, independent of the instance).
enum class SplitKMode : int {
  kNone = 0,      // one block per output tile covers all of K
  kParallel = 1,  // each split writes raw partial sums to a workspace; a second kernel reduces them
  kSerial = 2,    // splits of a tile take turns on C, ordered by a per-tile semaphore, in one kernel
};

struct GemmParams {
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;
  const float* b = nullptr;
  float* c = nullptr;
  int64_t lda = 0, ldb = 0, ldc = 0;  // 64-bit so every offset is computed without overflow
  float alpha = 1.0f, beta = 0.0f;
  int splits = 1;           // blocks along K per output tile (gridDim.z)
  int k_per_split = 0;      // K elements per split, a multiple of BK
  SplitKMode mode = SplitKMode::kNone;
  float* partials = nullptr;   // kParallel: splits x (m x n, leading dimension m)
  int* semaphores = nullptr;   // kSerial: one counter per output tile, zero between launches
  // Read by the launch, not the kernel: an operand every element of which one block reads (A when
  // one tile column covers n), given L2 streaming priority by the launch's access policy window, so
  // it replaces its own lines in L2 instead of others. Empty (0 bytes): no window.
  const void* stream_window = nullptr;
  size_t stream_window_bytes = 0;
};

#if defined(__CUDACC__)
/// The BLAS output rule every kernel ends with: C = alpha * sum + beta * C. beta == 0 never reads C,
/// so NaN or garbage in an output the caller asked to overwrite cannot leak into the result.
__device__ __forceinline__ void store_scaled(float* out, float sum, float alpha, float beta) {
  *out = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
}
#endif

}  // namespace autogemm
