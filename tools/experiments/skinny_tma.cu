// Measures a narrow output (row-major M = 16 or 32, i.e. column-major n = 16 or 32, m = k = 3072,
// `nn`) whose large operand A is streamed by the tensor memory accelerator (the reason of
// docs/decisions.md, Why target 3 of the FP32 performance issue is bounded). The kernels of
// skinny_stream stream A with their own loads and lose to the library's 128x16 split-k tile (23.3 us,
// 1.84x the floor; issue 6 asks <= 1.6x, 20.3 us), whose GEMM alone reads about as fast as a plain
// read after the benchmark's flush, its reduction kernel being what is left over the target. Here a
// block owns R whole rows of C (a strip of A, R x k) and needs no reduction kernel: one thread of a
// copy warp keeps S stages of A's strip (a TMA box of R rows x BK) and of B's (BK x NC) in flight,
// counted in bytes on mbarriers; CW compute warps split each stage's k-steps (lane = row group x
// k-quarter: TR rows, 4 k-steps per 16-byte load of B) and their sums meet by shuffles and in shared
// memory. SPLITS > 1 splits K too, the splits of a strip forming one thread-block cluster whose rank
// 0 adds the ranks' sums through distributed shared memory in rank order; still one launch. kMath =
// false skips the FFMAs: the copy pipeline's streaming rate alone. Timed as the benchmark times
// (memset flush of 2x L2, CUDA events, median of 25) next to cuBLAS SGEMM (pedantic) in the same
// process; every variant is checked against a float64 reference on sampled rows of C (error relative
// to sum |a b|), after C was poisoned with NaN.
#include <cooperative_groups.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"
#include "skinny_operands.hpp"
#include "tensor_map.hpp"
#include "tma_pipeline.cuh"

namespace cg = cooperative_groups;
using namespace autogemm::detail;

// CW compute warps: WR along the strip's rows (R / WR each), CW / WR along each stage's k-steps.
template <int R, int NC, int TR, int KQ, int BK, int S, int CW, int SPLITS, int WR>
struct Skinny {
  static constexpr int kWK = CW / WR, kWarpRows = R / WR;
  static constexpr int kRowLanes = kWarpRows / TR, kLanes = kRowLanes * KQ, kWarpK = BK / kWK;
  static constexpr int kIters = kWarpK / (4 * KQ);
  static constexpr int kThreads = (CW + 1) * 32;
  static_assert(CW % WR == 0 && R % WR == 0 && kWarpRows % TR == 0 && kLanes <= 32 && kWarpK % (4 * KQ) == 0 &&
                    kIters >= 1 && (NC * R) % (4 * SPLITS) == 0,
                "lane mapping");
  static constexpr int kStageFloats = (R + NC) * BK;
  // Stages, then the k-slices' sums [kWK][NC][R], then the block's sums [NC][R], then 2S mbarriers.
  static constexpr int kSmemBytes = (S * kStageFloats + (kWK + 1) * NC * R) * 4 + 2 * S * 8;
};

// TR adjacent rows of A from p, a lane's first row in one k-step row of a stage ([BK][R] floats).
template <int TR>
__device__ __forceinline__ void load_a_rows(const float* p, float (&v)[TR]) {
  if constexpr (TR % 4 == 0) {
#pragma unroll
    for (int r = 0; r < TR; r += 4) {
      const float4 x = *reinterpret_cast<const float4*>(p + r);
      v[r] = x.x, v[r + 1] = x.y, v[r + 2] = x.z, v[r + 3] = x.w;
    }
  } else if constexpr (TR % 2 == 0) {
#pragma unroll
    for (int r = 0; r < TR; r += 2) {
      const float2 x = *reinterpret_cast<const float2*>(p + r);
      v[r] = x.x, v[r + 1] = x.y;
    }
  } else {
#pragma unroll
    for (int r = 0; r < TR; ++r) v[r] = p[r];
  }
}

template <int R, int NC, int TR, int KQ, int BK, int S, int CW, int SPLITS, int WR, bool kMath>
__global__ void __launch_bounds__(Skinny<R, NC, TR, KQ, BK, S, CW, SPLITS, WR>::kThreads, 1)
    skinny_tma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, float* c,
               int ldc, int k_per_split) {
#ifdef AUTOGEMM_TMA_DEVICE_CODE
  using K = Skinny<R, NC, TR, KQ, BK, S, CW, SPLITS, WR>;
  extern __shared__ __align__(1024) float4 smem_vec[];
  float* const sa = reinterpret_cast<float*>(smem_vec);  // [S][BK][R]
  float* const sb = sa + S * BK * R;                       // [S][NC][BK]
  float* const red = sb + S * NC * BK;                     // [kWK][NC][R]
  float* const fin = red + K::kWK * NC * R;                // [NC][R]
  uint64_t* const full = reinterpret_cast<uint64_t*>(fin + NC * R);
  uint64_t* const empty = full + S;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.x * R, kb = blockIdx.y * k_per_split, k_tiles = k_per_split / BK;
  if (tid == 0) {
    for (int s = 0; s < S; ++s) mbarrier_init(&full[s], 1), mbarrier_init(&empty[s], CW * 32);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (warp == CW) {
    if (lane == 0)
      for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % S;
        if (kt >= S) mbarrier_wait(&empty[s], (kt / S - 1) & 1);
        mbarrier_expect_bytes(&full[s], K::kStageFloats * 4);
        tma_copy_box(sa + s * BK * R, &map_a, m0, kb + kt * BK, &full[s]);
        tma_copy_box(sb + s * NC * BK, &map_b, kb + kt * BK, 0, &full[s]);
      }
  } else {
    const int rl = lane / KQ, kq = lane % KQ, wr = warp % WR, wk = warp / WR;
    const int row0 = wr * K::kWarpRows + rl * TR;  // this lane's first row in the strip
    const bool active = lane < K::kLanes;
    float acc[TR][NC];
#pragma unroll
    for (int r = 0; r < TR; ++r)
#pragma unroll
      for (int j = 0; j < NC; ++j) acc[r][j] = 0.0f;
    for (int kt = 0; kt < k_tiles; ++kt) {
      const int s = kt % S;
      mbarrier_wait(&full[s], (kt / S) & 1);
      if (kMath && active) {
        const float* const as = sa + s * BK * R + row0;
        const float* const bs = sb + s * NC * BK;
#pragma unroll
        for (int it = 0; it < K::kIters; ++it) {
          const int k4 = wk * K::kWarpK + it * 4 * KQ + kq * 4;
          float av[4][TR];
#pragma unroll
          for (int q = 0; q < 4; ++q) load_a_rows<TR>(as + (k4 + q) * R, av[q]);
#pragma unroll
          for (int j = 0; j < NC; ++j) {
            const float4 bv = *reinterpret_cast<const float4*>(bs + j * BK + k4);
#pragma unroll
            for (int r = 0; r < TR; ++r) {
              acc[r][j] = fmaf(av[0][r], bv.x, acc[r][j]);
              acc[r][j] = fmaf(av[1][r], bv.y, acc[r][j]);
              acc[r][j] = fmaf(av[2][r], bv.z, acc[r][j]);
              acc[r][j] = fmaf(av[3][r], bv.w, acc[r][j]);
            }
          }
        }
      }
      mbarrier_arrive(&empty[s]);
    }
    // The k-quarters of a row group meet by shuffles, the warps in shared memory.
#pragma unroll
    for (int r = 0; r < TR; ++r)
#pragma unroll
      for (int j = 0; j < NC; ++j)
#pragma unroll
        for (int off = 1; off < KQ; off *= 2) acc[r][j] += __shfl_xor_sync(0xffffffffu, acc[r][j], off);
    if (active && kq == 0)
#pragma unroll
      for (int j = 0; j < NC; ++j)
#pragma unroll
        for (int r = 0; r < TR; ++r) red[(wk * NC + j) * R + row0 + r] = acc[r][j];
    asm volatile("bar.sync 1, %0;" ::"n"(CW * 32) : "memory");
    for (int e = tid; e < NC * R; e += CW * 32) {
      float sum = 0.0f;
#pragma unroll
      for (int w = 0; w < K::kWK; ++w) sum += red[w * NC * R + e];
      if constexpr (SPLITS == 1)
        c[static_cast<int64_t>(e / R) * ldc + m0 + e % R] = sum;
      else
        fin[e] = sum;
    }
  }
  if constexpr (SPLITS > 1) {
    // Rank q adds the ranks' block sums of its slice of the tile, in rank order, 4 rows at a time;
    // the second sync keeps every rank's shared memory alive until the others have read it.
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    constexpr int kSlice = NC * R / SPLITS;
    for (int e = blockIdx.y * kSlice + 4 * tid; e < (blockIdx.y + 1) * kSlice; e += 4 * K::kThreads) {
      float4 v[SPLITS];
#pragma unroll
      for (int q = 0; q < SPLITS; ++q) v[q] = *reinterpret_cast<const float4*>(cluster.map_shared_rank(fin, q) + e);
      float4 sum = v[0];
#pragma unroll
      for (int q = 1; q < SPLITS; ++q) sum.x += v[q].x, sum.y += v[q].y, sum.z += v[q].z, sum.w += v[q].w;
      *reinterpret_cast<float4*>(c + static_cast<int64_t>(e / R) * ldc + m0 + e % R) = sum;
    }
    cluster.sync();
  }
#endif
}

// A plain read of the same bytes, the yardstick of the copy pipeline: one of stream_read.cu's fast
// forms after the memset flush (streaming loads, 4 per thread in flight, 8 blocks of 256 per SM:
// 18.3-19.0 us there, h100_stream_read_232fc96.txt).
__global__ void __launch_bounds__(256) plain_read(const float4* __restrict__ a, int64_t n4, float* sink) {
  float acc = 0.0f;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const float4 v0 = __ldcs(a + i), v1 = __ldcs(a + i + stride), v2 = __ldcs(a + i + 2 * stride),
                 v3 = __ldcs(a + i + 3 * stride);
    acc += v0.x + v1.y + v2.z + v3.w;
  }
  for (; i < n4; i += stride) acc += __ldcs(a + i).x;
  if (acc == 123.456f) *sink = acc;  // keeps the loads
}

int main() {
  const size_t flush_bytes = l2_flush_bytes();
  SkinnyOperands ops;
  CHECK(ops.init());
  float *const a = ops.a, *const b = ops.b, *const c = ops.c, *flush;
  CHECK(cudaMalloc(&flush, flush_bytes));
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));

  auto time = [&](auto launch) { return memset_flushed_median_us(flush, flush_bytes, launch); };
  auto max_error = [&](const SkinnyProblem& p) { return ops.max_error(p, 7); };

  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const float plain_read_us = time([&] {
    plain_read<<<8 * sms, 256>>>(reinterpret_cast<const float4*>(a), int64_t(SkinnyOperands::kMaxM) * SkinnyOperands::kMaxK / 4, c);
  });
  std::printf("plain read of A (%.1f MB): %.2f us\n", 4e-6 * SkinnyOperands::kMaxM * SkinnyOperands::kMaxK, plain_read_us);
  const SkinnyProblem problems[] = {{3072, 16, 3072}, {3072, 32, 3072}};
  for (const SkinnyProblem& p : problems) {
    const double floor_us = p.floor_us();
    CHECK(cudaMemset(c, 0xff, sizeof(float) * p.m * p.n));
    const float cublas_us = time([&] { ops.cublas_sgemm(h, p); });
    std::printf("m=%d n=%d k=%d  floor %.1f us  cuBLAS %.2f us (err %d e-9)\n", p.m, p.n, p.k, floor_us, cublas_us,
                max_error(p));
    const char* only = std::getenv("SKINNY_ONLY");
    auto variant = [&](const std::string& name, auto kernel, int r, int nc, int bk, int splits, int threads,
                       int smem, bool math) {
      if (only && name.rfind(only, 0) != 0) return;
      if (nc != p.n || p.m % r != 0 || p.k % (splits * bk) != 0) return;
      CUtensorMap ma, mb;
      if (encode_x_major_tile_map(&ma, a, p.m, p.k, p.m, r, bk) != cudaSuccess ||
          encode_x_major_tile_map(&mb, b, p.k, p.n, p.k, bk, nc) != cudaSuccess) {
        std::printf("  %-40s tensor map refused\n", name.c_str());
        return;
      }
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      if (splits > 1) cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
      cudaLaunchConfig_t cfg{};
      cfg.gridDim = dim3(p.m / r, splits);
      cfg.blockDim = dim3(threads);
      cfg.dynamicSmemBytes = smem;
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = 1, attr[0].val.clusterDim.y = splits, attr[0].val.clusterDim.z = 1;
      cfg.attrs = attr;
      cfg.numAttrs = splits > 1 ? 1 : 0;
      const int kps = p.k / splits;
      auto launch = [&] { return cudaLaunchKernelEx(&cfg, kernel, ma, mb, c, p.m, kps); };
      cudaMemset(c, 0xff, sizeof(float) * p.m * p.n);
      if (cudaError_t e = launch(); e != cudaSuccess) {
        std::printf("  %-40s launch refused: %s\n", name.c_str(), cudaGetErrorString(e));
        return;
      }
      if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
        std::printf("  %-40s %s\n", name.c_str(), cudaGetErrorString(e));
        std::exit(1);
      }
      const int err = math ? max_error(p) : 0;
      const float us = time(launch);
      cudaFuncAttributes fa;
      cudaFuncGetAttributes(&fa, kernel);
      // Blocks resident at once: clusters for a split grid, blocks per SM x SMs otherwise.
      int clusters = 0, per_sm = 0;
      if (splits > 1) {
        cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg);
      } else {
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
        clusters = per_sm * sms;
      }
      std::printf("  %-40s %4d blocks, %3d resident, %3d regs, %6d B smem  %7.2f us  %.3fx cuBLAS  %.2fx floor  %s %d e-9\n",
                  name.c_str(), int(cfg.gridDim.x * cfg.gridDim.y), clusters * splits, fa.numRegs, smem, us,
                  cublas_us / us, us / floor_us, math ? "err" : "(no math)", err);
    };
    // Each name is made from the template arguments, so a name cannot disagree with its kernel.
#define SKINNY(R, NC, TR, KQ, BK, S, CW, SPLITS, WR, MATH)                                                        \
  variant(std::string(MATH ? "" : "read ") + "r" #R " nc" #NC " tr" #TR " kq" #KQ " bk" #BK " s" #S " cw" #CW \
              " wr" #WR " splits" #SPLITS,                                                                        \
          skinny_tma<R, NC, TR, KQ, BK, S, CW, SPLITS, WR, MATH>, R, NC, BK, SPLITS,                              \
          Skinny<R, NC, TR, KQ, BK, S, CW, SPLITS, WR>::kThreads,                                                 \
          Skinny<R, NC, TR, KQ, BK, S, CW, SPLITS, WR>::kSmemBytes, MATH)
    // The copy pipeline alone, strips of 32 to 256 rows (a plain read of A: plain_read_us above).
    SKINNY(32, 16, 4, 4, 64, 8, 4, 1, 1, false);
    SKINNY(64, 16, 4, 2, 64, 8, 4, 2, 1, false);
    SKINNY(96, 16, 4, 1, 32, 8, 4, 4, 1, false);
    SKINNY(128, 16, 4, 1, 32, 8, 4, 4, 1, false);
    SKINNY(128, 16, 4, 1, 32, 4, 4, 8, 1, false);
    SKINNY(192, 16, 4, 1, 32, 6, 4, 8, 2, false);
    SKINNY(256, 16, 4, 1, 32, 4, 4, 8, 2, false);
    // With the FFMAs: n = 16 ...
    SKINNY(96, 16, 4, 1, 32, 8, 4, 4, 1, true);
    SKINNY(128, 16, 4, 1, 32, 8, 4, 4, 1, true);
    SKINNY(128, 16, 4, 1, 32, 4, 4, 8, 1, true);
    SKINNY(192, 16, 4, 1, 32, 6, 4, 8, 2, true);
    SKINNY(192, 16, 6, 1, 32, 6, 4, 8, 1, true);
    SKINNY(256, 16, 4, 1, 32, 4, 4, 8, 2, true);
    // ... and n = 32.
    SKINNY(96, 32, 4, 1, 32, 8, 4, 4, 1, true);
    SKINNY(128, 32, 4, 1, 32, 6, 4, 4, 1, true);
    SKINNY(128, 32, 4, 1, 32, 4, 4, 8, 1, true);
    SKINNY(192, 32, 4, 1, 32, 4, 4, 8, 2, true);
  }
  cublasDestroy(h);
  return 0;
}
