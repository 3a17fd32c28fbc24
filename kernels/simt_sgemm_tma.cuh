// FP32 SIMT GEMM for sm_90a whose operand stages are copied by the tensor memory accelerator (TMA):
// KernelConfig family kTma, layout `nt` (both operand tiles X-major), align 4. The compute threads
// run the multistage kernel's fragments and FFMAs on the same dense X-major stage layout; what
// differs is who copies and how the stages are handed over (docs/perf_notes.md, experiment 87):
// - a copy warpgroup (kTmaCopyThreads) whose first thread issues one cp.async.bulk.tensor per
//   operand tile, counted in bytes on the stage's "full" mbarrier; it keeps kTmaCopyRegisters and
//   hands the rest to the compute threads (setmaxnreg), so an 8x16 thread tile gets
//   kTmaComputeRegisters where a ninth warp would cap every thread at 168 (three warps on one of
//   the SM's four register-file partitions);
// - the compute threads wait on a stage's "full" barrier and arrive on its "empty" one: no
//   cp.async issue, no cp.async.wait, no block barrier per k-tile, and warps may drift apart by up
//   to the pipeline's depth.
// TMA reads the operands in place and fills everything outside them with zeros, so edge tiles need
// no separate path. Parallel split-k as the multistage kernel (partial planes, partial_ld rows).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include "simt_sgemm_multistage.cuh"
#include "tensor_map.hpp"

namespace autogemm::detail {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define AUTOGEMM_TMA_DEVICE_CODE 1
__device__ __forceinline__ void mbarrier_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}

__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, int parity) {
  asm volatile(
      "{\n .reg .pred done;\n"
      "wait_%=:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      " @!done bra wait_%=;\n}" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}

__device__ __forceinline__ void mbarrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}

__device__ __forceinline__ void mbarrier_expect_bytes(uint64_t* bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}

/// One box of a 2-D tensor map at (x, k) into shared memory, its bytes counted on `bar`.
__device__ __forceinline__ void tma_copy_box(float* dst, const CUtensorMap* map, int x, int k, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
          "r"(smem_addr(dst)),
      "l"(map), "r"(x), "r"(k), "r"(smem_addr(bar))
      : "memory");
}
#endif

/// The T fragment values of one k-step (row k of a dense X-major stage of X columns) for one lane:
/// one float4 per 4 elements, as load_fragments reads X-major tiles.
template <int T, int kLanes, int X>
__device__ __forceinline__ void load_step_fragment(float (&f)[T], const float* s, int warp_x0, int lane_x, int k) {
#pragma unroll
  for (int c = 0; c < T / 4; ++c) {
    const float4 v = *reinterpret_cast<const float4*>(s + k * X + warp_x0 + frag_x<false, kLanes>(c * 4, lane_x));
    f[c * 4 + 0] = v.x;
    f[c * 4 + 1] = v.y;
    f[c * 4 + 2] = v.z;
    f[c * 4 + 3] = v.w;
  }
}

template <class Tag>
__global__ void __launch_bounds__(Tag::value.threads(), 1)
    simt_sgemm_tma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                          GemmParams p) {
#ifdef AUTOGEMM_TMA_DEVICE_CODE
  constexpr KernelConfig C = Tag::value;
  static_assert(is_valid(C) && C.is_tma(), "KernelConfig violates the validity rule (see invalid_reason)");
  constexpr int BM = C.bm, BN = C.bn, BK = C.bk, TM = C.tm, TN = C.tn, S = C.stages;
  constexpr int kCompute = C.compute_threads();
  constexpr int kStageBytes = (BM + BN) * BK * static_cast<int>(sizeof(float));
  // Launched as a programmatic dependent of an operand repack: wait for it before anything is read.
  asm volatile("griddepcontrol.wait;" ::: "memory");
  extern __shared__ __align__(1024) float4 smem_vec[];  // TMA writes boxes to 128-byte aligned addresses
  float* smem_a = reinterpret_cast<float*>(smem_vec);
  float* smem_b = smem_a + S * BM * BK;
  uint64_t* full = reinterpret_cast<uint64_t*>(smem_b + S * BN * BK);
  uint64_t* empty = full + S;

  const int2 tile_at = grouped_tile(blockIdx.x, ceil_div(p.m, BM), ceil_div(p.n, BN));
  const int m0 = tile_at.x * BM, n0 = tile_at.y * BN;
  const int split = blockIdx.z;
  const int k_begin = split * p.k_per_split;
  const int k_end = min(p.k, k_begin + p.k_per_split);
  const int k_tiles = k_end > k_begin ? ceil_div(k_end - k_begin, BK) : 0;
  const int tid = threadIdx.x;

  if (tid == 0) {
    for (int s = 0; s < S; ++s) mbarrier_init(&full[s], 1), mbarrier_init(&empty[s], kCompute);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  if (tid >= kCompute) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kTmaCopyRegisters));
    if (tid == kCompute) {
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

  const int warp = tid / 32, lane = tid % 32;
  const int warp_m0 = (warp % C.warps_m()) * C.wm;
  const int warp_n0 = (warp / C.warps_m()) * C.wn;
  const int lane_m = lane % C.lanes_m();
  const int lane_n = lane / C.lanes_m();
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  // Fragments one k-step ahead, in two register buffers: the loads of step k + 1 (across a tile
  // boundary: step 0 of the next stage, after its "full" wait) are issued before the FFMAs of step
  // k, so each has 128 FFMAs of lead whatever order ptxas picks (experiment 89: left to ptxas, the
  // 4-k-step fragment reads came out bunched in some instances and cost them up to 7%). Each
  // accumulator still sums its k-steps in order: the result is the multistage kernel's, bit for bit.
  static_assert(BK % 2 == 0, "step k's buffer is k % 2 in every tile");
  float fa[2][TM], fb[2][TN];
  auto load_step = [&](const float* sa, const float* sb, int k, int buf) {
    load_step_fragment<TM, C.lanes_m(), BM>(fa[buf], sa, warp_m0, lane_m, k);
    load_step_fragment<TN, C.lanes_n(), BN>(fb[buf], sb, warp_n0, lane_n, k);
  };
  if (k_tiles > 0) {
    mbarrier_wait(&full[0], 0);
    load_step(smem_a, smem_b, 0, 0);
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int s = kt % S;
    const float* sa = smem_a + s * BM * BK;
    const float* sb = smem_b + s * BN * BK;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const int cur = k % 2;
      if (k + 1 < BK) {
        load_step(sa, sb, k + 1, 1 - cur);
      } else if (kt + 1 < k_tiles) {
        const int next = (kt + 1) % S;
        mbarrier_wait(&full[next], ((kt + 1) / S) & 1);
        load_step(smem_a + next * BM * BK, smem_b + next * BN * BK, 0, 1 - cur);
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(fa[cur][i], fb[cur][j], acc[i][j]);
    }
    mbarrier_arrive(&empty[s]);  // every read of stage s has landed in registers
  }

  // Epilogue: C (alpha, beta) or this split's partial plane. A thread's rows come in runs of 4
  // adjacent rows (X-major A): one float4 per run where the run lies inside m and the destination's
  // columns are 16-byte aligned, single elements otherwise.
  const bool partial = p.mode == SplitKMode::kParallel;
  float* const out = partial ? p.partials + split * partial_ld(p.m) * p.n : p.c;
  const int64_t ld = partial ? partial_ld(p.m) : p.ldc;
  const bool vec_ok = ld % 4 == 0 && (reinterpret_cast<uintptr_t>(out) & 15) == 0;
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const int col = n0 + warp_n0 + frag_x<false, C.lanes_n()>(j, lane_n);
    if (col >= p.n) continue;
    float* const dst = out + static_cast<int64_t>(col) * ld;
#pragma unroll
    for (int r = 0; r < TM; r += 4) {
      const int row = m0 + warp_m0 + frag_x<false, C.lanes_m()>(r, lane_m);
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

/// Encodes the operands' tensor maps (boxes of one stage's tiles), then launches (launch_gemm_kernel).
template <class Tag>
cudaError_t launch_simt_sgemm_tma(const GemmParams& p, cudaStream_t stream) {
  constexpr KernelConfig C = Tag::value;
  static std::atomic<unsigned long long> configured{0};
  CUtensorMap map_a, map_b;  // A: m x k, M-major; B (op T): n x k, N-major
  if (cudaError_t e = encode_x_major_tile_map(&map_a, p.a, p.m, p.k, p.lda, C.bm, C.bk); e != cudaSuccess) return e;
  if (cudaError_t e = encode_x_major_tile_map(&map_b, p.b, p.n, p.k, p.ldb, C.bn, C.bk); e != cudaSuccess) return e;
  return launch_gemm_kernel(simt_sgemm_tma_kernel<Tag>, C, ceil_div(p.m, C.bm) * ceil_div(p.n, C.bn), p, configured,
                            stream, map_a, map_b, p);
}

}  // namespace autogemm::detail
