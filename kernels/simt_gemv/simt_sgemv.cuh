// FP32 GEMV-shaped kernel for outputs at most kGemvMaxN columns wide (row-major M <= 4): C (m x n) =
// alpha * op(A) op(B) + beta * C with n <= 4. An output at most 4 rows tall runs as its transpose
// (transposed_problem; GemmParams::c_transposed stores C row-major). Such a problem reads A (m x k)
// once and does at most 4 FMAs per element read, so it is bound by DRAM bandwidth; a GEMM tile
// would stage A through shared memory and compute mostly zero columns. Here every thread streams
// its part of A straight into registers with several vector loads in flight (evict-first in L2,
// stream_load.cuh), and a block adds up its partial sums in a fixed order. Streaming at the DRAM
// rate takes most of the GPU's threads (192 blocks of 256 threads keep too few bytes in flight for
// 1x3072x3072), so K may also be split over blocks (gridDim.y, mode kParallel): each split writes
// its partial sums and the last block of an output block to finish adds all splits in split order
// and writes C, in the same launch (deterministic: the order does not depend on which block
// finishes last).
//
// Two mappings, picked by the layout of A:
//  - M-major A (op N, element (i, k) at a[i + k * lda]): a block owns BM rows; BM / 4 lanes each own
//    4 adjacent rows (one float4 per k, or 4 scalars BM / 4 apart in the scalar class), and the
//    block's 256 / (BM / 4) groups of lanes take every group-count-th k of the split. Partial sums
//    are added across the groups of a warp with shuffles, then across warps through shared memory.
//  - K-major A (op T, element (i, k) at a[i * lda + k]): each warp owns BM / 8 rows; its lanes read
//    128 consecutive k per step (a float4 each, or 4 scalars 32 apart), and a warp shuffle adds up.
// Each instance is compiled for 1, 2 and 4 output columns (NC) so that n = 1 does not pay for the
// registers of 4 columns; the launch picks by n.
#pragma once

#include <cuda_runtime.h>

#include "config_tag.hpp"
#include "gemm_params.hpp"
#include "grid_dependency.cuh"
#include "kernel_config.hpp"
#include "launch_config.hpp"
#include "stream_load.cuh"

namespace autogemm::detail {

/// op(B)(k, j) for the GEMV kernels: B is tiny (k x n, n <= 4) and read through L1.
template <Op OpB>
__device__ __forceinline__ float load_b(const GemmParams& p, int k, int j) {
  return OpB == Op::N ? __ldg(p.f32_b() + k + static_cast<int64_t>(j) * p.ldb) : __ldg(p.f32_b() + static_cast<int64_t>(k) * p.ldb + j);
}

/// K range [begin, end) of this block's split.
struct KRange {
  int begin, end;
};
__device__ __forceinline__ KRange split_k_range(const GemmParams& p) {
  const int begin = blockIdx.y * p.k_per_split;
  return {begin, min(p.k, begin + p.k_per_split)};
}

/// C(i, j)'s address: column-major, or row-major where the launch runs the transpose of an output
/// at most 4 rows tall (GemmParams::c_transposed).
__device__ __forceinline__ float* c_element(const GemmParams& p, int i, int j) {
  return p.c_transposed ? p.f32_c() + static_cast<int64_t>(i) * p.ldc + j : p.f32_c() + static_cast<int64_t>(j) * p.ldc + i;
}

/// Hands over this block's sum for C(i, j): straight to C when K is not split (alpha, beta; beta == 0
/// never reads C, as in BLAS), else to this split's slice of the partials (split, j, i).
__device__ __forceinline__ void emit(const GemmParams& p, int i, int j, float sum) {
  if (p.splits > 1) {
    p.partials[(static_cast<int64_t>(blockIdx.y) * p.n + j) * p.m + i] = sum;
    return;
  }
  store_scaled(c_element(p, i, j), sum, p.alpha, p.beta);
}

/// Split K only: after every thread's emit(), the last block of rows [m0, m0 + BM) to arrive adds the
/// splits' partials in split order and writes C, then re-arms the counter for the next launch.
template <int BM, int NC>
__device__ __forceinline__ void reduce_splits_if_last(const GemmParams& p, int m0) {
  if (p.splits == 1) return;
  __shared__ bool last;
  __threadfence();  // this block's partials are visible device-wide before it is counted
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(p.semaphores + blockIdx.x, 1) == p.splits - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();  // and the other blocks' partials are visible to this one
  for (int idx = threadIdx.x; idx < BM * NC; idx += kGemvThreads) {
    const int i = m0 + idx % BM, j = idx / BM;
    if (i >= p.m || j >= p.n) continue;
    float sum = 0.0f;
    for (int s = 0; s < p.splits; ++s) sum += __ldcg(p.partials + (static_cast<int64_t>(s) * p.n + j) * p.m + i);
    store_scaled(c_element(p, i, j), sum, p.alpha, p.beta);
  }
  if (threadIdx.x == 0) p.semaphores[blockIdx.x] = 0;
}

/// M-major A: element (i, k) at a[i + k * lda].
template <int BM, int U, int NC, Op OpB, int Align>
__device__ __forceinline__ void sgemv_m_major(const GemmParams& p) {
  constexpr int kLanes = BM / 4;                  // lanes along M, 4 rows each
  constexpr int kGroups = kGemvThreads / kLanes;  // groups of lanes along K
  constexpr int kWarps = kGemvThreads / 32;
  const int tid = threadIdx.x;
  const int lane_m = tid % kLanes, group = tid / kLanes;
  const int m0 = blockIdx.x * BM;
  const KRange kr = split_k_range(p);
  // Row of a thread's element q: adjacent rows for a float4, rows kLanes apart for scalars (so each
  // scalar load instruction of a warp is still one contiguous run per k).
  auto row_of = [&](int q) { return Align == 4 ? m0 + lane_m * 4 + q : m0 + lane_m + q * kLanes; };
  const bool all_rows = row_of(3) < p.m;  // row_of(3) is the thread's last row in both mappings

  const unsigned long long policy = evict_first_policy();  // A is read once
  auto load_a = [&](int k, float (&v)[4]) {
    const float* col = p.f32_a() + static_cast<int64_t>(k) * p.lda;
    if (Align == 4 && all_rows) {
      const float4 x = load_stream(reinterpret_cast<const float4*>(col + row_of(0)), policy);
      v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q) v[q] = all_rows || row_of(q) < p.m ? load_stream(col + row_of(q), policy) : 0.0f;
    }
  };
  auto load_x = [&](int k, float (&x)[NC]) {
#pragma unroll
    for (int j = 0; j < NC; ++j) x[j] = j < p.n ? load_b<OpB>(p, k, j) : 0.0f;
  };

  float acc[4][NC] = {};
  auto fma_step = [&](const float (&v)[4], const float (&x)[NC]) {
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < NC; ++j) acc[q][j] = fmaf(v[q], x[j], acc[q][j]);
  };

  int k = kr.begin + group;
  // U steps' loads are issued before any of their FMAs, so U vectors per thread are in flight.
  for (; k + (U - 1) * kGroups < kr.end; k += U * kGroups) {
    float v[U][4], x[U][NC];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      load_a(k + u * kGroups, v[u]);
      load_x(k + u * kGroups, x[u]);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) fma_step(v[u], x[u]);
  }
  // The last < U steps as one predicated batch, their loads in flight together too: one step at a
  // time would wait out the memory latency per step, which costs short splits most (16 splits of
  // 1x3072x3072: 22.9 us one step at a time, 21.7 batched).
  if (k < kr.end) {
    float v[U][4], x[U][NC];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (k + u * kGroups < kr.end) {
        load_a(k + u * kGroups, v[u]);
        load_x(k + u * kGroups, x[u]);
      }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (k + u * kGroups < kr.end) fma_step(v[u], x[u]);
  }

  // Groups of one warp differ in the lane bits above log2(kLanes): butterfly over those bits.
#pragma unroll
  for (int offset = kLanes; offset < 32; offset *= 2)
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < NC; ++j) acc[q][j] += __shfl_xor_sync(0xffffffffu, acc[q][j], offset);

  __shared__ float warp_sums[kWarps][NC][BM];
  const int warp = tid / 32, lane = tid % 32;
  if (lane < kLanes) {
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < NC; ++j) warp_sums[warp][j][row_of(q) - m0] = acc[q][j];
  }
  __syncthreads();
  for (int idx = tid; idx < BM * NC; idx += kGemvThreads) {
    const int r = idx % BM, j = idx / BM;
    if (m0 + r >= p.m || j >= p.n) continue;
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += warp_sums[w][j][r];
    emit(p, m0 + r, j, sum);
  }
  reduce_splits_if_last<BM, NC>(p, m0);
}

/// K-major A: element (i, k) at a[i * lda + k].
template <int BM, int U, int NC, Op OpB, int Align>
__device__ __forceinline__ void sgemv_k_major(const GemmParams& p) {
  constexpr int kRows = BM / 8;  // rows per warp
  constexpr int kChunk = 128;    // k per warp step: 32 lanes x 4
  const int lane = threadIdx.x % 32;
  const int m0 = blockIdx.x * BM;
  const int row0 = m0 + (threadIdx.x / 32) * kRows;
  const KRange kr = split_k_range(p);
  // k offset of a lane's element q within a chunk: 4 adjacent (float4), or 32 apart (scalars).
  auto k_of = [&](int q) { return Align == 4 ? lane * 4 + q : lane + q * 32; };

  const unsigned long long policy = evict_first_policy();  // A is read once
  float acc[kRows][NC] = {};
  auto step = [&](const float (&v)[kRows][4], const float (&x)[4][NC]) {
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int j = 0; j < NC; ++j) acc[r][j] = fmaf(v[r][q], x[q][j], acc[r][j]);
  };
  // A whole chunk at k0 (k0 + 128 <= end): no bounds tests on k. Rows past M read nothing.
  auto load_chunk = [&](int k0, float (&v)[kRows][4], float (&x)[4][NC]) {
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const float* row = p.f32_a() + static_cast<int64_t>(row0 + r) * p.lda + k0;
      if (row0 + r >= p.m) {
        v[r][0] = v[r][1] = v[r][2] = v[r][3] = 0.0f;
      } else if constexpr (Align == 4) {
        const float4 a4 = load_stream(reinterpret_cast<const float4*>(row + k_of(0)), policy);
        v[r][0] = a4.x, v[r][1] = a4.y, v[r][2] = a4.z, v[r][3] = a4.w;
      } else {
#pragma unroll
        for (int q = 0; q < 4; ++q) v[r][q] = load_stream(row + k_of(q), policy);
      }
    }
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int j = 0; j < NC; ++j) x[q][j] = j < p.n ? load_b<OpB>(p, k0 + k_of(q), j) : 0.0f;
  };

  int k0 = kr.begin;
  for (; k0 + U * kChunk <= kr.end; k0 += U * kChunk) {
    float v[U][kRows][4], x[U][4][NC];
#pragma unroll
    for (int u = 0; u < U; ++u) load_chunk(k0 + u * kChunk, v[u], x[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) step(v[u], x[u]);
  }
  // The last < U whole chunks as one predicated batch (as in the M-major mapping).
  if (const int whole = (kr.end - k0) / kChunk; whole > 0) {
    float v[U][kRows][4], x[U][4][NC];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (u < whole) load_chunk(k0 + u * kChunk, v[u], x[u]);
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (u < whole) step(v[u], x[u]);
    k0 += whole * kChunk;
  }
  if (k0 < kr.end) {  // the last, partial chunk: element by element
    float v[kRows][4], x[4][NC];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int k = k0 + k_of(q);
      const bool in = k < kr.end;
#pragma unroll
      for (int r = 0; r < kRows; ++r)
        v[r][q] = in && row0 + r < p.m ? load_stream(p.f32_a() + static_cast<int64_t>(row0 + r) * p.lda + k, policy) : 0.0f;
#pragma unroll
      for (int j = 0; j < NC; ++j) x[q][j] = in && j < p.n ? load_b<OpB>(p, k, j) : 0.0f;
    }
    step(v, x);
  }

#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int j = 0; j < NC; ++j) acc[r][j] += __shfl_xor_sync(0xffffffffu, acc[r][j], offset);
  if (lane == 0) {
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int j = 0; j < NC; ++j)
        if (row0 + r < p.m && j < p.n) emit(p, row0 + r, j, acc[r][j]);
  }
  reduce_splits_if_last<BM, NC>(p, m0);
}

template <class Tag, int NC>
__global__ void __launch_bounds__(kGemvThreads) simt_sgemv_kernel(GemmParams p) {
  constexpr KernelConfig C = Tag::value;
  static_assert(C.is_gemv() && is_valid(C), "KernelConfig violates the GEMV validity rule (see invalid_reason)");
  static_assert(NC >= 1 && NC <= kGemvMaxN, "output columns per instance");
  // Launched as a programmatic dependent of the kernel before it (GemmParams::after_previous_kernel):
  // wait for its completion and memory before anything is read or written, as the GEMM kernels do.
  // Without a prerequisite grid this returns at once.
  wait_for_previous_grid();
  if constexpr (a_is_k_major(C.op_a)) {
    sgemv_k_major<C.bm, C.stages, NC, C.op_b, C.align>(p);
  } else {
    sgemv_m_major<C.bm, C.stages, NC, C.op_b, C.align>(p);
  }
}

/// The registry records simt_sgemv_kernel<Tag, kGemvMaxN> for occupancy queries: the widest
/// variant needs the most registers, so its answer is a lower bound for narrower outputs.
template <class Tag>
cudaError_t launch_simt_sgemv(const GemmParams& p, cudaStream_t stream) {
  constexpr KernelConfig C = Tag::value;
  const dim3 grid(static_cast<unsigned>((p.m + C.bm - 1) / C.bm), static_cast<unsigned>(p.splits));
  auto kernel = p.n == 1 ? simt_sgemv_kernel<Tag, 1> : p.n == 2 ? simt_sgemv_kernel<Tag, 2> : simt_sgemv_kernel<Tag, kGemvMaxN>;
  return KernelLaunch(grid, dim3(kGemvThreads), stream).after_previous_kernel(p.after_previous_kernel).launch(kernel, p);
}

}  // namespace autogemm::detail
