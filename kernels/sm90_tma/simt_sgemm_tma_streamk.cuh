// The streamed tail of a TMA launch (StreamKTail in tma_launch_plan.hpp; docs/decisions.md, "A TMA
// launch's partial last wave"): the last, partial wave's tiles x k_tiles BK-steps divided over up to
// one block per SM (the later blocks, which start later, a little fewer), so that no SM idles while
// others finish the wave. Block b runs steps [first(b), first(b + 1)) as
// segments, one per tile it touches, from its last segment back to its first:
// - a segment that ends a tile and starts it too is a whole tile: its sums are stored into C;
// - a segment that does not end its tile "contributes": its sums go to the block's slot of the
//   workspace (p.partials, bm x bn floats, in the compute threads' own order), then the tile's
//   counter (p.semaphores, one per tail tile) is raised;
// - a segment that ends its tile but does not start it "finishes": it waits until the counter
//   shows every contributor of the tile (blocks with lower indices), adds their slots in block order
//   and stores C, then zeroes the counter for the next launch.
// Only a block's last segment can contribute and only its first can finish, so each block writes at
// most one slot; running the segments backwards puts every contribution at the start of its block
// and every finish at the end of its block, so a finisher rarely waits. Contributors wait for no
// one, and finishers only for lower block indices (launched no later), so the launch cannot
// deadlock. Bare form only (alpha 1, beta 0, whole tiles), B X-major (`nt`): the compute threads run
// the data-parallel kernel's stages and FFMAs, the copy thread issues the same boxes in the
// segments' order, and the stage ring's phases run on across segments.
#pragma once

#include "grid_dependency.cuh"
#include "tma_launch_plan.hpp"
#include "tma_pipeline.cuh"

namespace autogemm::detail {

/// Named barrier of the 256 compute threads alone (0 is the whole block's, 1 the `nn` copy warpgroup's).
inline constexpr int kTmaComputeBarrier = 2;

#ifdef AUTOGEMM_TMA_DEVICE_CODE
__device__ __forceinline__ void tma_compute_sync() {
  asm volatile("bar.sync %0, %1;" ::"n"(kTmaComputeBarrier), "n"(kTmaComputeThreads) : "memory");
}

__device__ __forceinline__ int load_acquire_gpu(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/// The block whose steps include `step`: the largest b with streamk_first_step(t, b) <= step.
__device__ __forceinline__ int streamk_block_of(const StreamKTail& t, int64_t step) {
  int lo = 0, hi = t.blocks - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (streamk_first_step(t, mid) <= step) lo = mid; else hi = mid - 1;
  }
  return lo;
}
#endif

template <class Tag>
__global__ void __launch_bounds__(Tag::value.threads(), 1)
    simt_sgemm_tma_streamk_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                                  GemmParams p, StreamKTail tail) {
#ifdef AUTOGEMM_TMA_DEVICE_CODE
  constexpr KernelConfig C = Tag::value;
  static_assert(is_valid(C) && C.is_tma() && !b_is_k_major(C.op_b), "the streamed tail runs TMA instances of `nt`");
  constexpr int BM = C.bm, BN = C.bn, BK = C.bk, TM = C.tm, TN = C.tn, S = C.stages;
  constexpr int kCompute = C.compute_threads();
  constexpr int kStageBytes = (BM + BN) * BK * static_cast<int>(sizeof(float));
  constexpr int kSlotVectors = TM * TN / 4;  // float4s of one compute thread's sums
  // This launch follows the data-parallel grid of the same GEMM, whose tiles it does not read, and
  // starts once all of that grid's blocks have (griddepcontrol.launch_dependents); an operand repack
  // before that grid was complete before its blocks ran. Its compute threads wait for that grid at
  // their end (griddepcontrol.wait), so that this grid's completion, which the stream's next work
  // waits for, implies the whole GEMM's.
  extern __shared__ __align__(1024) float4 smem_vec[];
  float* smem_a = reinterpret_cast<float*>(smem_vec);
  float* smem_b = smem_a + S * BM * BK;
  uint64_t* full = reinterpret_cast<uint64_t*>(smem_b + S * BN * BK);
  uint64_t* empty = full + S;

  const int tiles_m = ceil_div(p.m, BM), tiles_n = ceil_div(p.n, BN);
  const int K = tail.k_tiles;
  const int64_t begin = streamk_first_step(tail, blockIdx.x), end = streamk_first_step(tail, blockIdx.x + 1);
  const int tid = threadIdx.x;
  if (tid == 0) {
    for (int s = 0; s < S; ++s) mbarrier_init(&full[s], 1), mbarrier_init(&empty[s], kCompute);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  if (tid >= kCompute) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kTmaCopyRegisters));
    if (tid == kCompute) {
      int g = 0;  // steps issued so far: stage g % S, phase g / S
      for (int64_t hi = end; hi > begin;) {
        const int t = static_cast<int>((hi - 1) / K);
        const int64_t lo = max(begin, static_cast<int64_t>(t) * K);
        const int2 at = grouped_tile(tail.first_tile + t, tiles_m, tiles_n);
        for (int kt = static_cast<int>(lo - int64_t{t} * K); kt < static_cast<int>(hi - int64_t{t} * K); ++kt, ++g) {
          const int s = g % S;
          if (g >= S) mbarrier_wait(&empty[s], (g / S - 1) & 1);
          mbarrier_expect_bytes(&full[s], kStageBytes);
          tma_copy_box(smem_a + s * BM * BK, &map_a, at.x * BM, kt * BK, &full[s]);
          tma_copy_box(smem_b + s * BN * BK, &map_b, at.y * BN, kt * BK, &full[s]);
        }
        hi = lo;
      }
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kTmaComputeRegisters));

  const TmaLane lane_at = tma_lane<Tag>(tid);
  int g = 0;
  for (int64_t hi = end; hi > begin;) {
    const int t = static_cast<int>((hi - 1) / K);
    const int64_t tile_begin = static_cast<int64_t>(t) * K;
    const int64_t lo = max(begin, tile_begin);
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
    for (int64_t step = lo; step < hi; ++step, ++g) {
      const int s = g % S;
      mbarrier_wait(&full[s], (g / S) & 1);
      tma_stage_ffma<Tag>(acc, smem_a + s * BM * BK, smem_b + s * BN * BK, lane_at);
      mbarrier_arrive(&empty[s]);
    }

    float4* const slots = reinterpret_cast<float4*>(p.partials);
    int* const counter = p.semaphores + t;
    if (hi < tile_begin + K) {  // contributes: park the sums, then count them
      float4* const slot = slots + static_cast<int64_t>(blockIdx.x) * kSlotVectors * kCompute + tid;
#pragma unroll
      for (int v = 0; v < kSlotVectors; ++v)
      {
        const int i = v * 4 / TN, j = v * 4 % TN;
        slot[v * kCompute] = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      }
      __threadfence();
      tma_compute_sync();
      if (tid == 0) atomicAdd(counter, 1);
    } else {
      if (lo > tile_begin) {  // finishes: add the contributors' sums, lowest block first
        const int first = streamk_block_of(tail, tile_begin);
        if (tid == 0) {
          while (load_acquire_gpu(counter) < static_cast<int>(blockIdx.x) - first) __nanosleep(64);
          *counter = 0;  // every contribution of this launch is in: ready for the next launch
        }
        tma_compute_sync();
        for (int b = first; b < static_cast<int>(blockIdx.x); ++b) {
          const float4* const slot = slots + static_cast<int64_t>(b) * kSlotVectors * kCompute + tid;
#pragma unroll
          for (int v = 0; v < kSlotVectors; ++v) {
            const float4 x = __ldcg(slot + v * kCompute);
            const int i = v * 4 / TN, j = v * 4 % TN;
            acc[i][j] += x.x, acc[i][j + 1] += x.y, acc[i][j + 2] += x.z, acc[i][j + 3] += x.w;
          }
        }
      }
      const int2 at = grouped_tile(tail.first_tile + t, tiles_m, tiles_n);
      store_tile_bare<Tag>(acc, p, at.x * BM, at.y * BN, lane_at);
    }
    hi = lo;
  }
  wait_for_previous_grid();
#elif defined(__CUDA_ARCH__)
  __trap();  // another architecture of a multi-architecture build: cannot_implement keeps it off
#endif
}

}  // namespace autogemm::detail
