// Device pieces shared by the TMA kernels (simt_sgemm_tma.cuh, simt_sgemm_tma_streamk.cuh): the
// mbarrier and TMA instructions that hand stages between the copy warpgroup and the compute threads,
// and the compute threads' work on one stage and their bare store of a tile. sm_90a device code
// only: AUTOGEMM_TMA_DEVICE_CODE is defined where it is compiled.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include "cp_async.cuh"
#include "gemm_params.hpp"
#include "kernel_config.hpp"
#include "simt_sgemm_mainloop.cuh"

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

/// Orders this thread's generic-proxy accesses of shared memory before its later async-proxy ones
/// (a TMA copy into memory the thread's loads just read).
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/// Where compute thread `tid` works in the block's tile: its warp's corner and its lane's place.
struct TmaLane {
  int warp_m0, warp_n0, lane_m, lane_n;
};
template <class Tag>
__device__ __forceinline__ TmaLane tma_lane(int tid) {
  constexpr KernelConfig C = Tag::value;
  const int warp = tid / 32, lane = tid % 32;
  return {(warp % C.warps_m()) * C.wm, (warp / C.warps_m()) * C.wn, lane % C.lanes_m(), lane / C.lanes_m()};
}

/// One stage (BK k-steps of dense X-major tiles of A and B) into a compute thread's sums, each k-step
/// in the serpentine order of ffma_serpentine (4096^3 0.9% faster than row-major order).
template <class Tag>
__device__ __forceinline__ void tma_stage_ffma(float (&acc)[Tag::value.tm][Tag::value.tn], const float* sa,
                                               const float* sb, const TmaLane& at) {
  constexpr KernelConfig C = Tag::value;
  constexpr int BM = C.bm, BN = C.bn, BK = C.bk, TM = C.tm, TN = C.tn;
#pragma unroll
  for (int k4 = 0; k4 < BK; k4 += kFragSteps) {
    float fa[kFragSteps][TM], fb[kFragSteps][TN];
    load_fragments<TM, C.lanes_m(), BM, BK, false>(fa, sa, at.warp_m0, at.lane_m, k4);
    load_fragments<TN, C.lanes_n(), BN, BK, false>(fb, sb, at.warp_n0, at.lane_n, k4);
#pragma unroll
    for (int q = 0; q < kFragSteps; ++q)
      ffma_serpentine<TM, TN>(acc, fa[q], fb[q]);
  }
}

/// The bare epilogue: a compute thread's sums are C at the tile (m0, n0), stored as runs of 4 adjacent
/// rows (X-major A), one float4 each, without guards (whole tiles, 16-byte aligned columns).
template <class Tag>
__device__ __forceinline__ void store_tile_bare(const float (&acc)[Tag::value.tm][Tag::value.tn], const GemmParams& p,
                                                int m0, int n0, const TmaLane& at) {
  constexpr KernelConfig C = Tag::value;
#pragma unroll
  for (int j = 0; j < C.tn; ++j) {
    float* const dst = p.f32_c() + static_cast<int64_t>(n0 + at.warp_n0 + frag_x<false, C.lanes_n()>(j, at.lane_n)) * p.ldc;
#pragma unroll
    for (int r = 0; r < C.tm; r += 4)
      *reinterpret_cast<float4*>(dst + m0 + at.warp_m0 + frag_x<false, C.lanes_m()>(r, at.lane_m)) =
          make_float4(acc[r][j], acc[r + 1][j], acc[r + 2][j], acc[r + 3][j]);
  }
}
#endif

}  // namespace autogemm::detail
