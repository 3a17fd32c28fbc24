// Measures whether a problem with a narrow output (row-major M = 8-32, i.e. column-major n = 8-32)
// can stream its large operand at the GEMV's rate (the reason of docs/decisions.md, GEMV family for
// n ≤ 4). 16x3072x3072 runs 23.3 us on the 128x16 GEMM tile (1.84x its 12.6 us floor; issue 6 asks
// <= 1.6x, 20.3 us), while the GEMV streams the same 37.7 MB for 1x3072x3072 in ~19.9 us. A GEMV of
// 16 columns read through L1 loses (registers hoisted, one block per SM). Here the block's k-range of
// the narrow operand is staged in shared memory once and read back as broadcast float4s (all lanes of
// a warp on the same k), while each lane streams R rows of A (M-major, column-major), either into
// registers, U loads in flight (`skinny`), or through a per-thread ring of cp.async stages
// (`skinny_ring`); the 8 warps of a block split its k-range and their sums meet in shared memory; K
// is split over blocks too, the last block of a row block adding the splits (as the GEMV does). Times
// each variant after a memset flush of 2x L2 (the benchmark's method), median of 25, CUDA events,
// against cuBLAS SGEMM (pedantic) in the same process, and checks it against a float64 reference
// (error relative to sum |a b|). Built with the tools (BUILD/tools/skinny_stream).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"
#include "skinny_operands.hpp"
#include "stream_load.cuh"

using autogemm::detail::evict_first_policy;
using autogemm::detail::load_stream;

constexpr int kThreads = 256, kWarps = kThreads / 32;

template <int R>
struct Vec;
template <>
struct Vec<4> {
  using T = float4;
};
template <>
struct Vec<2> {
  using T = float2;
};

__device__ __forceinline__ float2 load_stream2(const float2* p, unsigned long long policy) {
  float2 v;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v2.f32 {%0, %1}, [%2], %3;"
      : "=f"(v.x), "=f"(v.y)
      : "l"(p), "l"(policy));
  return v;
}

// A lane's R adjacent rows of one column of A, as one streaming load (8 or 16 bytes).
template <int R>
__device__ __forceinline__ void load_rows(const float* p, unsigned long long policy, float (&v)[R]) {
  if constexpr (R == 4) {
    const float4 x = load_stream(reinterpret_cast<const float4*>(p), policy);
    v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
  } else {
    const float2 x = load_stream2(reinterpret_cast<const float2*>(p), policy);
    v[0] = x.x, v[1] = x.y;
  }
}

// The 8 warps' sums meet in shared memory; K split over blocks: the last block of a row block adds
// the splits' partials in split order.
template <int NC, int R>
__device__ __forceinline__ void reduce_and_store(const float (&acc)[R][NC], float4* shared4, float* c, int ldc, int m,
                                                 int n, float* partials, int* semaphores) {
  constexpr int kBM = 32 * R;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, m0 = blockIdx.x * kBM;
  // The 8 warps' sums of 4 columns at a time: red[warp][row][4].
  float4* red = shared4;
  const int splits = gridDim.y;
#pragma unroll
  for (int j4 = 0; j4 < NC / 4; ++j4) {
#pragma unroll
    for (int r = 0; r < R; ++r)
      red[warp * kBM + lane * R + r] = make_float4(acc[r][4 * j4], acc[r][4 * j4 + 1], acc[r][4 * j4 + 2], acc[r][4 * j4 + 3]);
    __syncthreads();
    for (int e = tid; e < kBM * 4; e += kThreads) {
      const int rr = e / 4, jj = e % 4, i = m0 + rr, j = 4 * j4 + jj;
      float s = 0.0f;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) s += reinterpret_cast<const float*>(red + w * kBM + rr)[jj];
      if (i < m && j < n) {
        if (splits == 1)
          c[static_cast<int64_t>(j) * ldc + i] = s;
        else
          partials[(static_cast<int64_t>(blockIdx.y) * n + j) * m + i] = s;
      }
    }
    __syncthreads();
  }
  if (splits == 1) return;
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (tid == 0) last = atomicAdd(semaphores + blockIdx.x, 1) == splits - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  for (int e = tid; e < kBM * NC; e += kThreads) {
    const int i = m0 + e % kBM, j = e / kBM;
    if (i >= m || j >= n) continue;
    float s = 0.0f;
    for (int sp = 0; sp < splits; ++sp) s += __ldcg(partials + (static_cast<int64_t>(sp) * n + j) * m + i);
    c[static_cast<int64_t>(j) * ldc + i] = s;
  }
  if (tid == 0) semaphores[blockIdx.x] = 0;
}

// Stages B's k-range [kb, kb + klen) as [k][NC] in shared memory, zeros past n and klen: lanes along
// j first, so a warp's stores spread over the banks.
template <int NC>
__device__ __forceinline__ void stage_b(const float* __restrict__ b, int ldb, int n, int kb, int klen, float* sb) {
  for (int idx = threadIdx.x; idx < (klen + 3) / 4 * NC; idx += kThreads) {
    const int j = idx % NC, kv = idx / NC, k0 = 4 * kv;
    float x[4];
    const float* col = b + static_cast<int64_t>(j) * ldb + kb + k0;
    if (j < n && k0 + 3 < klen && (ldb % 4 == 0) && ((kb + k0) % 4 == 0)) {
      const float4 t = __ldg(reinterpret_cast<const float4*>(col));
      x[0] = t.x, x[1] = t.y, x[2] = t.z, x[3] = t.w;
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) x[q] = j < n && k0 + q < klen ? __ldg(col + q) : 0.0f;
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) sb[(k0 + q) * NC + j] = x[q];
  }
}

// acc[r][j] += v[r] * B(k, j) for one k-step, B's row read from shared memory as float4 broadcasts.
template <int NC, int R>
__device__ __forceinline__ void fma_k(float (&acc)[R][NC], const float* sb, int kl, const float (&v)[R]) {
  const float4* xs = reinterpret_cast<const float4*>(sb + kl * NC);
#pragma unroll
  for (int j4 = 0; j4 < NC / 4; ++j4) {
    const float4 x = xs[j4];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      acc[r][4 * j4 + 0] = fmaf(v[r], x.x, acc[r][4 * j4 + 0]);
      acc[r][4 * j4 + 1] = fmaf(v[r], x.y, acc[r][4 * j4 + 1]);
      acc[r][4 * j4 + 2] = fmaf(v[r], x.z, acc[r][4 * j4 + 2]);
      acc[r][4 * j4 + 3] = fmaf(v[r], x.w, acc[r][4 * j4 + 3]);
    }
  }
}

// C (m x n, column-major) = A (m x k, column-major) * B (k x n, column-major); n <= NC, m % R == 0,
// k_per_split % 4 == 0. Block: 32 * R rows; grid (m / (32 R), splits).
template <int NC, int R, int U, int MINB>
__global__ void __launch_bounds__(kThreads, MINB)
    skinny(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb, float* __restrict__ c, int ldc,
           int m, int n, int k, int k_per_split, float* partials, int* semaphores) {
  extern __shared__ float4 shared4[];
  float* sb = reinterpret_cast<float*>(shared4);  // [k_per_split][NC]
  constexpr int kBM = 32 * R;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.x * kBM, row = m0 + lane * R;
  const int kb = blockIdx.y * k_per_split, ke = min(k, kb + k_per_split), klen = ke - kb;
  const unsigned long long policy = evict_first_policy();
  auto load_a = [&](int kl, float (&v)[R]) { load_rows<R>(a + static_cast<int64_t>(kb + kl) * lda + row, policy, v); };

  stage_b<NC>(b, ldb, n, kb, klen, sb);
  __syncthreads();

  float acc[R][NC] = {};
  const bool rows_in = row + R - 1 < m;
  if (rows_in) {
    int kl = warp;
    for (; kl + (U - 1) * kWarps < klen; kl += U * kWarps) {
      float v[U][R];
#pragma unroll
      for (int u = 0; u < U; ++u) load_a(kl + u * kWarps, v[u]);
#pragma unroll
      for (int u = 0; u < U; ++u) fma_k<NC, R>(acc, sb, kl + u * kWarps, v[u]);
    }
    if (kl < klen) {
      float v[U][R];
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (kl + u * kWarps < klen) load_a(kl + u * kWarps, v[u]);
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (kl + u * kWarps < klen) fma_k<NC, R>(acc, sb, kl + u * kWarps, v[u]);
    }
  }
  __syncthreads();  // sb is reused for the warps' sums

  reduce_and_store<NC, R>(acc, shared4, c, ldc, m, n, partials, semaphores);
}

// The same block, with A streamed through a per-thread ring of S stages in shared memory by
// cp.async (each lane copies, and later reads back, its own R rows of U k-steps per stage): loads
// stay in flight while the FMAs run, without holding registers for them.
template <int R>
__device__ __forceinline__ void cp_async_rows(void* dst, const void* src, bool in) {
  const uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  if constexpr (R == 4) {
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(in ? 16 : 0));
  } else {
    asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src), "r"(in ? 8 : 0));
  }
}

template <int NC, int R, int U, int S, int MINB>
__global__ void __launch_bounds__(kThreads, MINB)
    skinny_ring(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb, float* __restrict__ c,
                int ldc, int m, int n, int k, int k_per_split, float* partials, int* semaphores) {
  extern __shared__ float4 shared4[];
  float* sb = reinterpret_cast<float*>(shared4);  // [k_per_split][NC]
  using V = typename Vec<R>::T;
  V* ring = reinterpret_cast<V*>(sb + k_per_split * NC);  // [S][U][kThreads]
  constexpr int kBM = 32 * R;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.x * kBM, row = m0 + lane * R;
  const int kb = blockIdx.y * k_per_split, ke = min(k, kb + k_per_split), klen = ke - kb;
  const bool rows_in = row + R - 1 < m;
  const int steps = klen > warp ? (klen - warp + kWarps - 1) / kWarps : 0;  // this warp's k-steps
  const int groups = (steps + U - 1) / U;
  auto issue = [&](int g) {
    if (g < groups) {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int kl = warp + kWarps * (g * U + u);
        const bool in = rows_in && kl < klen;
        cp_async_rows<R>(ring + ((g % S) * U + u) * kThreads + tid, in ? a + static_cast<int64_t>(kb + kl) * lda + row : a, in);
      }
    }
    asm volatile("cp.async.commit_group;\n" ::);
  };
#pragma unroll
  for (int g = 0; g < S - 1; ++g) issue(g);

  stage_b<NC>(b, ldb, n, kb, klen, sb);
  __syncthreads();

  float acc[R][NC] = {};
  for (int g = 0; g < groups; ++g) {
    issue(g + S - 1);
    asm volatile("cp.async.wait_group %0;\n" ::"n"(S - 1));
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int kl = warp + kWarps * (g * U + u);
      if (kl < klen) {
        const V vv = ring[((g % S) * U + u) * kThreads + tid];
        float v[R];
        if constexpr (R == 4) {
          v[0] = vv.x, v[1] = vv.y, v[2] = vv.z, v[3] = vv.w;
        } else {
          v[0] = vv.x, v[1] = vv.y;
        }
        fma_k<NC, R>(acc, sb, kl, v);
      }
    }
  }
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  reduce_and_store<NC, R>(acc, shared4, c, ldc, m, n, partials, semaphores);
}

// The register form, pipelined: a warp's first batch of U loads is issued before B's staging, and
// batch g + 1's before batch g's FMAs (two batches of registers), so loads stay in flight while
// the block stages B and while it computes (what the profile of `skinny` asked for).
template <int NC, int R, int U, int MINB>
__global__ void __launch_bounds__(kThreads, MINB)
    skinny_pipe(const float* __restrict__ a, int lda, const float* __restrict__ b, int ldb, float* __restrict__ c,
                int ldc, int m, int n, int k, int k_per_split, float* partials, int* semaphores) {
  extern __shared__ float4 shared4[];
  float* sb = reinterpret_cast<float*>(shared4);  // [k_per_split][NC]
  constexpr int kBM = 32 * R;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.x * kBM, row = m0 + lane * R;
  const int kb = blockIdx.y * k_per_split, ke = min(k, kb + k_per_split), klen = ke - kb;
  const bool rows_in = row + R - 1 < m;
  const int steps = rows_in && klen > warp ? (klen - warp + kWarps - 1) / kWarps : 0;
  const int groups = (steps + U - 1) / U;
  const unsigned long long policy = evict_first_policy();
  auto load_batch = [&](int g, float (&v)[U][R]) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int kl = warp + kWarps * (g * U + u);
      if (kl < klen) load_rows<R>(a + static_cast<int64_t>(kb + kl) * lda + row, policy, v[u]);
    }
  };
  float cur[U][R], next[U][R];
  if (groups > 0) load_batch(0, cur);
  stage_b<NC>(b, ldb, n, kb, klen, sb);
  __syncthreads();

  float acc[R][NC] = {};
  for (int g = 0; g < groups; ++g) {
    if (g + 1 < groups) load_batch(g + 1, next);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int kl = warp + kWarps * (g * U + u);
      if (kl < klen) fma_k<NC, R>(acc, sb, kl, cur[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int r = 0; r < R; ++r) cur[u][r] = next[u][r];
  }
  __syncthreads();  // sb is reused for the warps' sums
  reduce_and_store<NC, R>(acc, shared4, c, ldc, m, n, partials, semaphores);
}

int main() {
  const size_t flush_bytes = size_t(100) << 20;
  SkinnyOperands ops;
  CHECK(ops.init());
  float *const a = ops.a, *const b = ops.b, *const c = ops.c, *partials, *flush;
  int* sem;
  CHECK(cudaMalloc(&partials, sizeof(float) * SkinnyOperands::kMaxM * SkinnyOperands::kMaxN * 64));
  CHECK(cudaMalloc(&sem, sizeof(int) * 4096));
  CHECK(cudaMemset(sem, 0, sizeof(int) * 4096));
  CHECK(cudaMalloc(&flush, flush_bytes));
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));

  auto time = [&](auto launch) { return memset_flushed_median_us(flush, flush_bytes, launch); };
  auto max_error = [&](const SkinnyProblem& p) { return ops.max_error(p, 37); };  // every 37th row

  const SkinnyProblem problems[] = {{3072, 16, 3072}, {3072, 32, 3072}, {3072, 8, 3072}};
  for (const SkinnyProblem& p : problems) {
    const double floor_us = p.floor_us();
    cudaMemset(c, 0xff, sizeof(float) * p.m * p.n);
    const float cublas_us = time([&] { ops.cublas_sgemm(h, p); });
    std::printf("m=%d n=%d k=%d  floor %.1f us  cuBLAS %.2f us (err %d e-9)\n", p.m, p.n, p.k, floor_us, cublas_us, max_error(p));
    // SKINNY_ONLY=P runs the variants whose "name@splits" starts with P (e.g. one, for a profiler,
    // or "pipe"); unset, all.
    const char* only = std::getenv("SKINNY_ONLY");
    auto variant = [&](const char* name, auto kernel, int r, int splits, int ring_bytes = 0) {
      if (only && (std::string(name) + "@" + std::to_string(splits)).rfind(only, 0) != 0) return;
      const int bm = 32 * r, kps = ((p.k + splits - 1) / splits + 7) / 8 * 8;
      const int nc = p.n <= 8 ? 8 : p.n <= 16 ? 16 : 32;
      const int smem = std::max(kps * nc * 4 + ring_bytes, kWarps * bm * 16);
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      const dim3 grid(p.m / bm, (p.k + kps - 1) / kps);
      auto launch = [&] { kernel<<<grid, kThreads, smem>>>(a, p.m, b, p.k, c, p.m, p.m, p.n, p.k, kps, partials, sem); };
      cudaMemset(c, 0xff, sizeof(float) * p.m * p.n);
      launch();
      if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        std::printf("  %-22s splits %2d: %s\n", name, splits, cudaGetErrorString(e));
        return;
      }
      const int err = max_error(p);
      const float us = time(launch);
      cudaFuncAttributes fa;
      cudaFuncGetAttributes(&fa, kernel);
      int per_sm = 0;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem);
      std::printf("  %-22s splits %2d (%3d blocks, %d/SM, %3d regs, %5d B smem)  %7.2f us  %.3fx cuBLAS  %.2fx floor  err %d e-9\n",
                  name, int(grid.y), int(grid.x * grid.y), per_sm, fa.numRegs, smem, us, cublas_us / us, us / floor_us, err);
    };
    // Each name is made from the template arguments, so a name cannot disagree with its kernel.
#define REGS(NC, R, U, MINB) variant("nc" #NC " r" #R " u" #U " minb" #MINB, skinny<NC, R, U, MINB>, R, splits)
    // Ring bytes: S stages x U k-steps x 256 threads x R floats.
#define RING(NC, R, U, S, MINB) \
  variant("ring nc" #NC " r" #R " u" #U " s" #S " minb" #MINB, skinny_ring<NC, R, U, S, MINB>, R, splits, S * U * kThreads * R * 4)
#define PIPE(NC, R, U, MINB) \
  variant("pipe nc" #NC " r" #R " u" #U " minb" #MINB, skinny_pipe<NC, R, U, MINB>, R, splits)
    // Split counts 4 to 22 for every variant; 22 splits lose everywhere.
    for (int splits : {4, 6, 8, 11, 16, 22}) {
      if (p.n <= 8) {
        REGS(8, 4, 4, 2);
        REGS(8, 4, 8, 2);
        REGS(8, 4, 8, 3);
        PIPE(8, 4, 4, 2);
        PIPE(8, 4, 8, 2);
        RING(8, 4, 2, 4, 2);
        RING(8, 4, 4, 4, 2);
        RING(8, 4, 2, 6, 2);
        RING(8, 4, 2, 3, 3);
      } else if (p.n <= 16) {
        REGS(16, 4, 2, 2);
        REGS(16, 4, 4, 2);
        REGS(16, 4, 8, 2);
        REGS(16, 2, 4, 3);
        REGS(16, 2, 8, 3);
        REGS(16, 4, 4, 1);
        PIPE(16, 4, 2, 2);
        PIPE(16, 4, 4, 2);
        PIPE(16, 2, 4, 3);
        PIPE(16, 2, 8, 2);
        RING(16, 4, 2, 4, 2);
        RING(16, 4, 4, 4, 2);
        RING(16, 4, 2, 6, 2);
        RING(16, 2, 4, 4, 3);
        RING(16, 2, 2, 6, 3);
        RING(16, 4, 2, 3, 3);
        RING(16, 4, 2, 8, 2);
        RING(16, 4, 4, 8, 1);
        RING(16, 2, 4, 8, 2);
      } else {
        REGS(32, 2, 4, 2);
        REGS(32, 2, 8, 2);
        REGS(32, 4, 4, 1);
        REGS(32, 2, 4, 1);
        PIPE(32, 2, 2, 2);
        PIPE(32, 2, 4, 2);
        RING(32, 2, 2, 4, 2);
        RING(32, 2, 4, 4, 2);
        RING(32, 2, 2, 6, 2);
        RING(32, 4, 2, 4, 1);
        RING(32, 4, 4, 4, 1);
      }
    }
  }
  cublasDestroy(h);
  return 0;
}
