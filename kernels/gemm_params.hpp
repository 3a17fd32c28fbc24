// GemmParams: what one launch of any GEMM kernel instance receives. Column-major, cuBLAS semantics:
// C (m x n) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C. Host and device code. The operands'
// element types are the instance's (KernelConfig::types): FP32 kernels read them through f32_a() ...
#pragma once

#include <cstdint>

namespace autogemm {

/// How the K dimension is split over blocks (a run-time choice, independent of the instance).
enum class SplitKMode : int {
  kNone = 0,      // one block per output tile covers all of K
  kParallel = 1,  // each split writes raw partial sums to a workspace; a second kernel reduces them
  kSerial = 2,    // splits of a tile take turns on C, ordered by a per-tile semaphore, in one kernel
};

/// Leading dimension of the parallel split-k partials (splits x n columns of this many floats): m
/// rounded up to 4, so every column starts 16-byte aligned and the GEMM epilogue can store float4s
/// (X-major-A tiles). The GEMM, the reduction kernel and the workspace size use it.
__host__ __device__ constexpr int64_t partial_ld(int m) { return (static_cast<int64_t>(m) + 3) / 4 * 4; }
/// Floats by which residue r of a residue instance (KernelConfig::residues) starts past a 16-byte
/// boundary, (r·lda) mod 4: residues of K (M-major A) start that many rows early, residues of M
/// (K-major A) that many columns early. The kernel (residue_problem) and the residues-of-K
/// reduction (launch_residue_reduce) both use it.
__host__ __device__ constexpr int residue_shift(int r, int64_t lda) { return static_cast<int>((r * lda) & 3); }
/// Rows of a residue instance's tile grid and of each of its planes. Residues of K: m plus the
/// largest shift, 3. Residues of M (of_m): the rows of residue 0, the largest, ⌈m / 4⌉.
__host__ __device__ constexpr int residue_rows(int m, bool of_m) { return of_m ? (m + 3) / 4 : m + 3; }
/// Leading dimension of a residue instance's partial planes: residue_rows rounded up to 4 as every
/// plane is.
__host__ __device__ constexpr int64_t residue_partial_ld(int m, bool of_m) { return partial_ld(residue_rows(m, of_m)); }

struct GemmParams {
  int m = 0, n = 0, k = 0;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  int64_t lda = 0, ldb = 0, ldc = 0;  // 64-bit so every offset is computed without overflow
  float alpha = 1.0f, beta = 0.0f;
  int splits = 1;           // blocks along K per output tile (gridDim.z)
  int k_per_split = 0;      // K elements per split, a multiple of BK
  SplitKMode mode = SplitKMode::kNone;
  float* partials = nullptr;   // kParallel: splits x (m x n, leading dimension partial_ld(m); GEMV
                               // instances, which reduce in their own launch, use leading dimension m)
  int* semaphores = nullptr;   // kSerial: one counter per output tile, zero between launches
  // Read by the launch, not the kernel: an operand every element of which one block reads (A when
  // one tile column covers n), given L2 streaming priority by the launch's access policy window, so
  // it replaces its own lines in L2 instead of others. Empty (0 bytes): no window.
  const void* stream_window = nullptr;
  size_t stream_window_bytes = 0;
  // Read by the launch: launch as a programmatic dependent of the previous kernel in the stream (the
  // operand repack that wrote this launch's A or B, or the caller's last kernel; the kernel waits
  // for its completion at its first instruction, so nothing is read or written before it). run()
  // sets it for every launch: 1.0-1.2 us less per call behind another kernel (256^3 on the H100).
  bool after_previous_kernel = false;
  // Read by the launch: the workspace holds a streamed tail's slots (partials) and zeroed counters
  // (semaphores), so a TMA launch may run its partial last wave as one (StreamKTail; run() sets it).
  bool streamk = false;
  // C's element (i, j) lies at c[j + i·ldc], not c[i + j·ldc]: the launch runs the transpose of the
  // caller's problem (GemmProblem::c_transposed; GEMV instances only).
  bool c_transposed = false;

  __host__ __device__ const float* f32_a() const { return static_cast<const float*>(a); }
  __host__ __device__ const float* f32_b() const { return static_cast<const float*>(b); }
  __host__ __device__ float* f32_c() const { return static_cast<float*>(c); }
};

#if defined(__CUDACC__)
/// The BLAS output rule every kernel ends with: C = alpha * sum + beta * C. beta == 0 never reads C,
/// so NaN or garbage in an output the caller asked to overwrite cannot leak into the result.
__device__ __forceinline__ void store_scaled(float* out, float sum, float alpha, float beta) {
  *out = beta == 0.0f ? alpha * sum : alpha * sum + beta * *out;
}

/// store_scaled for C of any type: the FP32 result rounded once to T (BF16, FP16).
__device__ __forceinline__ void store_scaled_as(float* out, float sum, float alpha, float beta) {
  store_scaled(out, sum, alpha, beta);
}
template <class T>
__device__ __forceinline__ void store_scaled_as(T* out, float sum, float alpha, float beta) {
  *out = static_cast<T>(beta == 0.0f ? alpha * sum : alpha * sum + beta * static_cast<float>(*out));
}

/// store_scaled for 4 adjacent outputs at a 16-byte aligned address: one 16-byte store (and, for
/// beta != 0, one 16-byte load) in place of four, each element by the rule above.
__device__ __forceinline__ void store_scaled4(float* out, float4 sum, float alpha, float beta) {
  float4 v;
  if (beta == 0.0f) {
    v = make_float4(alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w);
  } else {
    const float4 c = *reinterpret_cast<const float4*>(out);
    v = make_float4(alpha * sum.x + beta * c.x, alpha * sum.y + beta * c.y, alpha * sum.z + beta * c.z,
                    alpha * sum.w + beta * c.w);
  }
  *reinterpret_cast<float4*>(out) = v;
}
#endif

}  // namespace autogemm
