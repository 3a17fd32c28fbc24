// FP32 SIMT GEMM for sm_90a whose operand stages are copied by the tensor memory accelerator (TMA):
// KernelConfig family kTma, layout `nt` (both operand tiles X-major), align 4. The compute threads
// run the multistage kernel's fragments and FFMAs on the same dense X-major stage layout; what
// differs is who copies and how the stages are handed over (docs/decisions.md, TMA family on sm_90a):
// - a copy warpgroup (kTmaCopyThreads) whose first thread issues one cp.async.bulk.tensor per
//   operand tile, counted in bytes on the stage's "full" mbarrier; it keeps kTmaCopyRegisters and
//   hands the rest to the compute threads (setmaxnreg), so an 8x16 thread tile gets
//   kTmaComputeRegisters where a ninth warp would cap every thread at 168 (three warps on one of
//   the SM's four register-file partitions);
// - the compute threads wait on a stage's "full" barrier and arrive on its "empty" one: no
//   cp.async issue, no cp.async.wait, no block barrier per k-tile, and warps may drift apart by up
//   to the pipeline's depth.
// TMA reads the operands in place and fills everything outside them with zeros, so edge tiles need
// no separate path. A K-major B (`nn`) is a TMA box too, but K-major: it lands in a staging ring,
// and the copy warpgroup transposes it into the X-major stage the compute threads read in `nt` (its
// arrivals join the stage's "full" barrier), so `nn` runs without a repack of B and gives the `nt`
// instance's result bit for bit (docs/decisions.md, TMA with a K-major B).
// Parallel split-k as the multistage kernel (partial planes, partial_ld rows).
// Two forms of each instance (kBare): the main loop's speed follows the whole kernel's code, so the
// form whose epilogue is a bare store of C runs where the problem allows it (bare_epilogue_fits).
// Where the bare form leaves a partial last wave, that wave runs as a streamed tail, a second
// launch (simt_sgemm_tma_streamk.cuh). The mbarrier and TMA
// instructions, a stage's FFMAs and the bare store are shared with it (tma_pipeline.cuh).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include "config_tag.hpp"
#include "gemm_params.hpp"
#include "grid_dependency.cuh"
#include "kernel_config.hpp"
#include "simt_sgemm_launch.cuh"
#include "simt_sgemm_mainloop.cuh"
#include "simt_sgemm_tma_streamk.cuh"
#include "tensor_map.hpp"
#include "tma_launch_plan.hpp"
#include "tma_pipeline.cuh"

namespace autogemm::detail {

#ifdef AUTOGEMM_TMA_DEVICE_CODE
/// Waits at the copy warpgroup's own named barrier (the compute threads never meet it).
__device__ __forceinline__ void copy_warpgroup_sync() {
  asm volatile("bar.sync %0, %1;" ::"n"(kTmaCopyBarrier), "n"(kTmaCopyThreads) : "memory");
}

/// The copy warpgroup of a TMA instance whose B is K-major (`nn`). B's k-tile is a TMA box too, but
/// K-major ([bn][bk]), so it lands in a staging ring (kTmaStagingTiles deep) ahead of the stages:
/// thread 0 copies B's box of tile kt + kTmaStagingTiles into the staging tile that tile kt left, and
/// A's box into stage kt % S. Each copy thread `t` reads column t of the staged box (bk floats, 16-byte
/// shared loads; the lanes' starting vectors rotate with t, so 8 lanes of a quarter-warp hit 8
/// different 16-byte bank groups), waits until the stage is free, stores the column transposed into the
/// X-major stage the compute threads read in `nt` (row k, element t: a warp's 32 stores on 32 banks)
/// and arrives on the stage's "full" barrier. TMA zero-fills what lies outside n and K (a split's
/// boxes end at its K, k_per_split being a multiple of bk), so the copies need no guards.
/// A staging tile is refilled only after every copy thread has stored its column into the stage
/// (so its loads of the tile have returned), fenced the async proxy and met the others at the copy
/// warpgroup's named barrier. (Meeting at the barrier right after the loads is not enough: `bar.sync`
/// does not wait for loads still in flight, and TMA's refill would overwrite columns some thread has
/// not yet read, in a few of ~130 000 refills per 4096^3 launch; a "drained" mbarrier that thread 0
/// waits on before the refill is correct too, but 3-4% slower.)
/// (Loading each column from global memory instead, 32 columns and 32 cache lines per warp load,
/// runs 13% slower than the repack of B on the H200.)
template <class Tag>
__device__ __forceinline__ void copy_k_major_b_stages(float* smem_a, float* smem_b, float* staging, uint64_t* full,
                                                      uint64_t* empty, uint64_t* staged, const CUtensorMap* map_a,
                                                      const CUtensorMap* map_b, int t, int m0, int n0, int k_begin,
                                                      int k_tiles) {
  constexpr KernelConfig C = Tag::value;
  constexpr int BM = C.bm, BN = C.bn, BK = C.bk, S = C.stages, P = kTmaStagingTiles;
  constexpr int kVectors = BK / 4;              // 16-byte vectors of a column
  constexpr int kLanesPerRotation = 8 / kVectors;  // lanes whose columns span one 128-byte bank window
  constexpr int kBoxBytes = BN * BK * static_cast<int>(sizeof(float));
  if (t == 0)
    for (int kt = 0; kt < P && kt < k_tiles; ++kt) {
      mbarrier_expect_bytes(&staged[kt], kBoxBytes);
      tma_copy_box(staging + kt * BN * BK, map_b, k_begin + kt * BK, n0, &staged[kt]);
    }
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int s = kt % S, p = kt % P;
    mbarrier_wait(&staged[p], (kt / P) & 1);
    const float* const column = staging + p * BN * BK + t * BK;
    float4 v[kVectors];
#pragma unroll
    for (int q = 0; q < kVectors; ++q)
      v[q] = *reinterpret_cast<const float4*>(column + 4 * ((q + t / kLanesPerRotation) % kVectors));
    if (kt >= S) mbarrier_wait(&empty[s], (kt / S - 1) & 1);
    if (t == 0) {
      mbarrier_expect_bytes(&full[s], BM * BK * static_cast<int>(sizeof(float)));
      tma_copy_box(smem_a + s * BM * BK, map_a, m0, k_begin + kt * BK, &full[s]);
    }
    float* const dst = smem_b + s * BN * BK + t;
#pragma unroll
    for (int q = 0; q < kVectors; ++q) {
      const int k = 4 * ((q + t / kLanesPerRotation) % kVectors);
      dst[(k + 0) * BN] = v[q].x;
      dst[(k + 1) * BN] = v[q].y;
      dst[(k + 2) * BN] = v[q].z;
      dst[(k + 3) * BN] = v[q].w;
    }
    mbarrier_arrive(&full[s]);
    // The stores above used every loaded value, so this thread's reads of the staging tile are
    // done; the fence orders them before the async proxy's refill, issued once all 128 have met.
    fence_proxy_async_shared();
    copy_warpgroup_sync();
    if (t == 0 && kt + P < k_tiles) {
      mbarrier_expect_bytes(&staged[p], kBoxBytes);
      tma_copy_box(staging + p * BN * BK, map_b, k_begin + (kt + P) * BK, n0, &staged[p]);
    }
  }
}
#endif

/// kBare: the problem takes the bare epilogue (bare_epilogue_fits): raw sums stored as float4 runs
/// into C, no guard, no alpha or beta, no split plane. Otherwise the general one.
template <class Tag, bool kBare>
__global__ void __launch_bounds__(Tag::value.threads(), 1)
    simt_sgemm_tma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                          GemmParams p) {
#ifdef AUTOGEMM_TMA_DEVICE_CODE
  constexpr KernelConfig C = Tag::value;
  static_assert(is_valid(C) && C.is_tma(), "KernelConfig violates the validity rule (see invalid_reason)");
  constexpr int BM = C.bm, BN = C.bn, BK = C.bk, TM = C.tm, TN = C.tn, S = C.stages;
  constexpr int kCompute = C.compute_threads();
  constexpr bool kBKMajor = b_is_k_major(C.op_b);  // B's boxes staged, then transposed by the copy threads
  constexpr int kStageBytes = (BM + BN) * BK * static_cast<int>(sizeof(float));  // TMA's bytes (nt)
  // Launched as a programmatic dependent of the kernel before it (a repack or the caller's): wait
  // for its completion and memory before anything is read or written.
  wait_for_previous_grid();
  // A streamed tail launched after this grid may start once every block of it has started (its
  // blocks then take SMs as this grid's blocks exit, not after the slowest one).
  if constexpr (kBare) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  extern __shared__ __align__(1024) float4 smem_vec[];  // TMA writes boxes to 128-byte aligned addresses
  float* smem_a = reinterpret_cast<float*>(smem_vec);
  float* smem_b = smem_a + S * BM * BK;
  float* staging = smem_b + S * BN * BK;  // K-major B boxes (nn only: C.tma_staging_floats())
  uint64_t* full = reinterpret_cast<uint64_t*>(staging + C.tma_staging_floats());
  uint64_t* empty = full + S;
  uint64_t* staged = empty + S;  // per staging tile (nn only): its box has landed

  const int2 tile_at = grouped_tile(blockIdx.x, ceil_div(p.m, BM), ceil_div(p.n, BN));
  const int m0 = tile_at.x * BM, n0 = tile_at.y * BN;
  const int split = blockIdx.z;
  const int k_begin = split * p.k_per_split;
  const int k_end = min(p.k, k_begin + p.k_per_split);
  const int k_tiles = k_end > k_begin ? ceil_div(k_end - k_begin, BK) : 0;
  const int tid = threadIdx.x;

  if (tid == 0) {
    // "full": the bytes-counting arrival of the TMA issuer, plus each copy thread's where it stores B.
    for (int s = 0; s < S; ++s)
      mbarrier_init(&full[s], 1 + (kBKMajor ? kTmaCopyThreads : 0)), mbarrier_init(&empty[s], kCompute);
    if constexpr (kBKMajor)
      for (int i = 0; i < kTmaStagingTiles; ++i) mbarrier_init(&staged[i], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  if (tid >= kCompute) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kTmaCopyRegisters));
    if constexpr (kBKMajor) {
      copy_k_major_b_stages<Tag>(smem_a, smem_b, staging, full, empty, staged, &map_a, &map_b, tid - kCompute, m0,
                                 n0, k_begin, k_tiles);
    } else if (tid == kCompute) {
      // Tile kt into stage kt % S once every compute thread is done with its previous tile, kt - S.
      // (k_per_split is a multiple of BK, so a split's boxes never reach into the next split's K;
      // the last split's last box is cut by K, which TMA fills with zeros.)
      for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % S;
        if (kt >= S) mbarrier_wait(&empty[s], (kt / S - 1) & 1);
        mbarrier_expect_bytes(&full[s], kStageBytes);
        tma_copy_box(smem_a + s * BM * BK, &map_a, m0, k_begin + kt * BK, &full[s]);
        tma_copy_box(smem_b + s * BN * BK, &map_b, n0, k_begin + kt * BK, &full[s]);
      }
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kTmaComputeRegisters));

  const TmaLane at = tma_lane<Tag>(tid);
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  for (int kt = 0; kt < k_tiles; ++kt) {
    const int s = kt % S;
    mbarrier_wait(&full[s], (kt / S) & 1);
    tma_stage_ffma<Tag>(acc, smem_a + s * BM * BK, smem_b + s * BN * BK, at);
    mbarrier_arrive(&empty[s]);
  }

  if constexpr (kBare) {
    store_tile_bare<Tag>(acc, p, m0, n0, at);
    return;
  }
  // Epilogue: C (alpha, beta) or this split's partial plane. A thread's rows come in runs of 4
  // adjacent rows (X-major A): one float4 per run where the run lies inside m and the destination's
  // columns are 16-byte aligned, single elements otherwise.
  const bool partial = p.mode == SplitKMode::kParallel;
  float* const out = partial ? p.partials + split * partial_ld(p.m) * p.n : p.f32_c();
  const int64_t ld = partial ? partial_ld(p.m) : p.ldc;
  const bool vec_ok = ld % 4 == 0 && (reinterpret_cast<uintptr_t>(out) & 15) == 0;
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const int col = n0 + at.warp_n0 + frag_x<false, C.lanes_n()>(j, at.lane_n);
    if (col >= p.n) continue;
    float* const dst = out + static_cast<int64_t>(col) * ld;
#pragma unroll
    for (int r = 0; r < TM; r += 4) {
      const int row = m0 + at.warp_m0 + frag_x<false, C.lanes_m()>(r, at.lane_m);
      const float4 sum = make_float4(acc[r][j], acc[r + 1][j], acc[r + 2][j], acc[r + 3][j]);
      if (vec_ok && row + 4 <= p.m) {
        if (partial) {
          *reinterpret_cast<float4*>(dst + row) = sum;
        } else {
          store_scaled4(dst + row, sum, p.alpha, p.beta);
        }
        continue;
      }
      const float v[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        if (row + q >= p.m) break;
        if (partial) {
          dst[row + q] = v[q];
        } else {
          store_scaled(dst + row + q, v[q], p.alpha, p.beta);
        }
      }
    }
  }
#elif defined(__CUDA_ARCH__)
  // Compiled for a target without TMA and setmaxnreg (another architecture of a multi-architecture
  // build): cannot_implement keeps such devices from launching it.
  __trap();
#endif
}

/// Encodes the operands' tensor maps (boxes of one stage's tiles), then launches (launch_gemm_kernel)
/// the bare or the general form of the kernel; where the bare form leaves a partial last wave and
/// the launch may use the workspace for it (GemmParams::streamk), the whole waves run as usual and
/// the rest as a streamed tail, a second launch that overlaps the first's end (streamk_tail).
template <class Tag>
cudaError_t launch_simt_sgemm_tma(const GemmParams& p, cudaStream_t stream) {
  constexpr KernelConfig C = Tag::value;
  static std::atomic<unsigned long long> configured_bare{0}, configured_general{0}, configured_tail{0};
  // A: m x k, M-major; B (op T): n x k, N-major, boxes of bn x bk. A K-major B (op N) is k x n,
  // K-contiguous: its boxes are bk x bn, landing as bn columns of bk floats in the staging ring.
  CUtensorMap map_a, map_b;
  if (cudaError_t e = encode_x_major_tile_map(&map_a, p.f32_a(), p.m, p.k, p.lda, C.bm, C.bk); e != cudaSuccess) return e;
  const cudaError_t eb = b_is_k_major(C.op_b) ? encode_x_major_tile_map(&map_b, p.f32_b(), p.k, p.n, p.ldb, C.bk, C.bn)
                                              : encode_x_major_tile_map(&map_b, p.f32_b(), p.n, p.k, p.ldb, C.bn, C.bk);
  if (eb != cudaSuccess) return eb;
  const int tiles = ceil_div(p.m, C.bm) * ceil_div(p.n, C.bn);
  if (!bare_epilogue_fits(C, p))
    return launch_gemm_kernel(simt_sgemm_tma_kernel<Tag, false>, C, tiles, p, configured_general, stream, map_a,
                              map_b, p);
  const StreamKTail tail = p.streamk ? streamk_tail(C, p) : StreamKTail{};
  if (cudaError_t e = launch_gemm_kernel(simt_sgemm_tma_kernel<Tag, true>, C, tail.tiles > 0 ? tail.first_tile : tiles,
                                         p, configured_bare, stream, map_a, map_b, p);
      e != cudaSuccess || tail.tiles == 0)
    return e;
  if constexpr (!b_is_k_major(C.op_b)) {
    GemmParams q = p;  // the tail's blocks start as the whole waves' blocks exit
    q.after_previous_kernel = programmatic_launch_enabled();
    q.stream_window = nullptr, q.stream_window_bytes = 0;
    return launch_gemm_kernel(simt_sgemm_tma_streamk_kernel<Tag>, C, tail.blocks, q, configured_tail, stream, map_a,
                              map_b, q, tail);
  }
  return cudaErrorInvalidValue;  // streamk_tail gives `nn` instances no tail
}

}  // namespace autogemm::detail
