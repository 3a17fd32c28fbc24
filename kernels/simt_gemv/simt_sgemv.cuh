// GEMV-shaped kernel for outputs at most kGemvMaxN columns wide (row-major M <= 4): C (m x n) =
// alpha * op(A) op(B) + beta * C with n <= 4, A and B FP32, or BF16/FP16 read into FP32 sums (C of
// their type or FP32; KernelConfig::types). An output at most 4 rows tall runs as its transpose
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
// Two mappings, picked by the layout of A, each reading A in 16-byte vectors of V elements (4 FP32,
// 8 BF16/FP16):
//  - M-major A (op N, element (i, k) at a[i + k * lda]): a block owns BM rows; BM / V lanes each own
//    V adjacent rows (one vector per k, or V scalars BM / V apart in the FP32 scalar class), and the
//    block's 256 / (BM / V) groups of lanes take every group-count-th k of the split. Partial sums
//    are added across the groups of a warp with shuffles, then across warps through shared memory.
//  - K-major A (op T, element (i, k) at a[i * lda + k]): each warp owns BM / 8 rows; its lanes read
//    32·V consecutive k per step (a vector each, or V scalars 32 apart), and a warp shuffle adds up.
// Each instance is compiled for 1, 2 and 4 output columns (NC) so that n = 1 does not pay for the
// registers of 4 columns; the launch picks by n.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <type_traits>

#include "config_tag.hpp"
#include "gemm_params.hpp"
#include "grid_dependency.cuh"
#include "kernel_config.hpp"
#include "launch_config.hpp"
#include "stream_load.cuh"

namespace autogemm::detail {

/// The CUDA type of an element of DataType D.
template <DataType D>
using gemv_element_t = std::conditional_t<D == DataType::kF32, float,
                                          std::conditional_t<D == DataType::kBF16, __nv_bfloat16, __half>>;

/// A 16-byte vector of elements of T (its raw bits in a float4) as 16 / sizeof(T) floats.
template <class T>
__device__ __forceinline__ void unpack(float4 raw, float (&v)[16 / sizeof(T)]) {
  if constexpr (std::is_same_v<T, float>) {
    v[0] = raw.x, v[1] = raw.y, v[2] = raw.z, v[3] = raw.w;
  } else {
    const float words[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      const unsigned u = __float_as_uint(words[w]);
      T pair[2];
      static_assert(sizeof(pair) == sizeof(u));
      memcpy(pair, &u, sizeof u);
      v[2 * w] = static_cast<float>(pair[0]), v[2 * w + 1] = static_cast<float>(pair[1]);
    }
  }
}

/// One element of A, read once: FP32 with the stream's evict-first policy, 16-bit ones through L1.
template <class T>
__device__ __forceinline__ float load_a_scalar(const T* p, unsigned long long policy) {
  if constexpr (std::is_same_v<T, float>)
    return load_stream(p, policy);
  else
    return static_cast<float>(__ldg(p));
}

/// op(B)(k, j) for the GEMV kernels: B is tiny (k x n, n <= 4) and read through L1.
template <Op OpB, class T>
__device__ __forceinline__ float load_b(const GemmParams& p, int k, int j) {
  const T* b = static_cast<const T*>(p.b);
  return static_cast<float>(OpB == Op::N ? __ldg(b + k + static_cast<int64_t>(j) * p.ldb)
                                         : __ldg(b + static_cast<int64_t>(k) * p.ldb + j));
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
template <class Out>
__device__ __forceinline__ Out* c_element(const GemmParams& p, int i, int j) {
  Out* c = static_cast<Out*>(p.c);
  return p.c_transposed ? c + static_cast<int64_t>(i) * p.ldc + j : c + static_cast<int64_t>(j) * p.ldc + i;
}

/// Hands over this block's sum for C(i, j): straight to C when K is not split (alpha, beta; beta == 0
/// never reads C, as in BLAS), else to this split's slice of the FP32 partials (split, j, i).
template <class Out>
__device__ __forceinline__ void emit(const GemmParams& p, int i, int j, float sum) {
  if (p.splits > 1) {
    p.partials[(static_cast<int64_t>(blockIdx.y) * p.n + j) * p.m + i] = sum;
    return;
  }
  store_scaled_as(c_element<Out>(p, i, j), sum, p.alpha, p.beta);
}

/// Split K only: after every thread's emit(), the last block of rows [m0, m0 + BM) to arrive adds the
/// splits' partials in split order and writes C, then re-arms the counter for the next launch.
template <int BM, int NC, class Out>
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
    store_scaled_as(c_element<Out>(p, i, j), sum, p.alpha, p.beta);
  }
  if (threadIdx.x == 0) p.semaphores[blockIdx.x] = 0;
}

/// M-major A: element (i, k) at a[i + k * lda].
template <int BM, int U, int NC, Op OpB, int Align, class T, class Out>
__device__ __forceinline__ void sgemv_m_major(const GemmParams& p) {
  constexpr int V = 16 / sizeof(T);               // elements per 16-byte vector
  constexpr int kLanes = BM / V;                  // lanes along M, V rows each
  constexpr int kGroups = kGemvThreads / kLanes;  // groups of lanes along K
  constexpr int kWarps = kGemvThreads / 32;
  const int tid = threadIdx.x;
  const int lane_m = tid % kLanes, group = tid / kLanes;
  const int m0 = blockIdx.x * BM;
  const KRange kr = split_k_range(p);
  // Row of a thread's element q: adjacent rows for a vector, rows kLanes apart for scalars (so each
  // scalar load instruction of a warp is still one contiguous run per k).
  auto row_of = [&](int q) { return Align == V ? m0 + lane_m * V + q : m0 + lane_m + q * kLanes; };
  const bool all_rows = row_of(V - 1) < p.m;  // the thread's last row in both mappings

  const unsigned long long policy = evict_first_policy();  // A is read once
  auto load_a = [&](int k, float (&v)[V]) {
    const T* col = static_cast<const T*>(p.a) + static_cast<int64_t>(k) * p.lda;
    if (Align == V && all_rows) {
      unpack<T>(load_stream(reinterpret_cast<const float4*>(col + row_of(0)), policy), v);
    } else {
#pragma unroll
      for (int q = 0; q < V; ++q) v[q] = all_rows || row_of(q) < p.m ? load_a_scalar(col + row_of(q), policy) : 0.0f;
    }
  };
  auto load_x = [&](int k, float (&x)[NC]) {
#pragma unroll
    for (int j = 0; j < NC; ++j) x[j] = j < p.n ? load_b<OpB, T>(p, k, j) : 0.0f;
  };

  float acc[V][NC] = {};
  auto fma_step = [&](const float (&v)[V], const float (&x)[NC]) {
#pragma unroll
    for (int q = 0; q < V; ++q)
#pragma unroll
      for (int j = 0; j < NC; ++j) acc[q][j] = fmaf(v[q], x[j], acc[q][j]);
  };

  int k = kr.begin + group;
  // U steps' loads are issued before any of their FMAs, so U vectors per thread are in flight.
  for (; k + (U - 1) * kGroups < kr.end; k += U * kGroups) {
    float v[U][V], x[U][NC];
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
    float v[U][V], x[U][NC];
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
    for (int q = 0; q < V; ++q)
#pragma unroll
      for (int j = 0; j < NC; ++j) acc[q][j] += __shfl_xor_sync(0xffffffffu, acc[q][j], offset);

  __shared__ float warp_sums[kWarps][NC][BM];
  const int warp = tid / 32, lane = tid % 32;
  if (lane < kLanes) {
#pragma unroll
    for (int q = 0; q < V; ++q)
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
    emit<Out>(p, m0 + r, j, sum);
  }
  reduce_splits_if_last<BM, NC, Out>(p, m0);
}

/// K-major A: element (i, k) at a[i * lda + k].
template <int BM, int U, int NC, Op OpB, int Align, class T, class Out>
__device__ __forceinline__ void sgemv_k_major(const GemmParams& p) {
  constexpr int V = 16 / sizeof(T);  // elements per 16-byte vector
  constexpr int kRows = BM / 8;      // rows per warp
  constexpr int kChunk = 32 * V;     // k per warp step: 32 lanes x V
  const int lane = threadIdx.x % 32;
  const int m0 = blockIdx.x * BM;
  const int row0 = m0 + (threadIdx.x / 32) * kRows;
  const KRange kr = split_k_range(p);
  // k offset of a lane's element q within a chunk: V adjacent (a vector), or 32 apart (scalars).
  auto k_of = [&](int q) { return Align == V ? lane * V + q : lane + q * 32; };

  const unsigned long long policy = evict_first_policy();  // A is read once
  float acc[kRows][NC] = {};
  auto fma_chunk = [&](const float (&v)[kRows][V], const float (&x)[V][NC]) {
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int q = 0; q < V; ++q)
#pragma unroll
        for (int j = 0; j < NC; ++j) acc[r][j] = fmaf(v[r][q], x[q][j], acc[r][j]);
  };
  // A chunk stays a 16-byte vector per row until its FMAs (V values of a row: a vector's bits, or
  // the FP32 scalar class's 4 values). 16-bit chunks read their V·NC values of B at the FMAs (L1
  // hits): loaded with A, U chunks' worth would take 256 registers.
  static_assert(Align == V || V == 4, "the scalar class reads FP32 only");
  constexpr bool kLateB = V > 4;
  auto load_x = [&](int k0, float (&x)[V][NC]) {
#pragma unroll
    for (int q = 0; q < V; ++q)
#pragma unroll
      for (int j = 0; j < NC; ++j) x[q][j] = j < p.n ? load_b<OpB, T>(p, k0 + k_of(q), j) : 0.0f;
  };
  auto step = [&](int k0, const float4 (&raw)[kRows], float (&x)[V][NC]) {
    if constexpr (kLateB) load_x(k0, x);
    float v[kRows][V];
#pragma unroll
    for (int r = 0; r < kRows; ++r) unpack<T>(raw[r], v[r]);
    fma_chunk(v, x);
  };
  // A whole chunk at k0 (k0 + kChunk <= end): no bounds tests on k. Rows past M read nothing.
  auto load_chunk = [&](int k0, float4 (&raw)[kRows], float (&x)[V][NC]) {
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const T* row = static_cast<const T*>(p.a) + static_cast<int64_t>(row0 + r) * p.lda + k0;
      if (row0 + r >= p.m) {
        raw[r] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // zero bits: zeros of every type
      } else if constexpr (Align == V) {
        raw[r] = load_stream(reinterpret_cast<const float4*>(row + k_of(0)), policy);
      } else {
        raw[r] = make_float4(load_a_scalar(row + k_of(0), policy), load_a_scalar(row + k_of(1), policy),
                             load_a_scalar(row + k_of(2), policy), load_a_scalar(row + k_of(3), policy));
      }
    }
    if constexpr (!kLateB) load_x(k0, x);
  };

  int k0 = kr.begin;
  for (; k0 + U * kChunk <= kr.end; k0 += U * kChunk) {
    float4 raw[U][kRows];
    float x[kLateB ? 1 : U][V][NC];
#pragma unroll
    for (int u = 0; u < U; ++u) load_chunk(k0 + u * kChunk, raw[u], x[kLateB ? 0 : u]);
#pragma unroll
    for (int u = 0; u < U; ++u) step(k0 + u * kChunk, raw[u], x[kLateB ? 0 : u]);
  }
  // The last < U whole chunks as one predicated batch (as in the M-major mapping).
  if (const int whole = (kr.end - k0) / kChunk; whole > 0) {
    float4 raw[U][kRows];
    float x[kLateB ? 1 : U][V][NC];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (u < whole) load_chunk(k0 + u * kChunk, raw[u], x[kLateB ? 0 : u]);
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (u < whole) step(k0 + u * kChunk, raw[u], x[kLateB ? 0 : u]);
    k0 += whole * kChunk;
  }
  if (k0 < kr.end) {  // the last, partial chunk: element by element
    float v[kRows][V], x[V][NC];
#pragma unroll
    for (int q = 0; q < V; ++q) {
      const int k = k0 + k_of(q);
      const bool in = k < kr.end;
      const T* a = static_cast<const T*>(p.a);
#pragma unroll
      for (int r = 0; r < kRows; ++r)
        v[r][q] = in && row0 + r < p.m ? load_a_scalar(a + static_cast<int64_t>(row0 + r) * p.lda + k, policy) : 0.0f;
#pragma unroll
      for (int j = 0; j < NC; ++j) x[q][j] = in && j < p.n ? load_b<OpB, T>(p, k, j) : 0.0f;
    }
    fma_chunk(v, x);
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
        if (row0 + r < p.m && j < p.n) emit<Out>(p, row0 + r, j, acc[r][j]);
  }
  reduce_splits_if_last<BM, NC, Out>(p, m0);
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
  using T = gemv_element_t<C.types.a>;
  using Out = gemv_element_t<C.types.c>;
  if constexpr (a_is_k_major(C.op_a)) {
    sgemv_k_major<C.bm, C.stages, NC, C.op_b, C.align, T, Out>(p);
  } else {
    sgemv_m_major<C.bm, C.stages, NC, C.op_b, C.align, T, Out>(p);
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
