// FP32 SIMT GEMM on CUDA cores for sm_80+: block tile staged through shared memory by a cp.async
// multistage pipeline, warp tile, register thread tile, L2-grouped block order, optional split-k.
// One template covers every layout and alignment class; KernelConfig (kernel_config.hpp) is its key.
// The loop nest lives in four files: the copies (simt_sgemm_loaders.cuh), the main loop's fragment
// reads and FFMAs (simt_sgemm_mainloop.cuh), this kernel with its epilogue, and the launch
// (simt_sgemm_launch.cuh). The epilogue stays in the kernel's body: it reads the accumulators and
// the thread's tile coordinates in place, and moving code that the compiler schedules around them
// changes instances by up to 3-4% (measured on the H100), so any such move needs identical SASS first.
#pragma once

#include <type_traits>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "config_tag.hpp"
#include "gemm_params.hpp"
#include "grid_dependency.cuh"
#include "kernel_config.hpp"
#include "simt_sgemm_launch.cuh"
#include "simt_sgemm_loaders.cuh"
#include "simt_sgemm_mainloop.cuh"

namespace autogemm::detail {

/// The problem one block of a residue instance runs (KernelConfig::residues): residue
/// r = blockIdx.z / (splits / kResidues); splits and k_per_split then describe the splits of one
/// residue. B is N-major with a leading dimension a multiple of 4 from an aligned base (run()
/// repacks it otherwise).
/// Residues of K (M-major A): columns k = 4q + r of A and rows 4q + r of B. A's columns of residue r
/// start shift = (r·lda) mod 4 floats past a 16-byte boundary, so the block starts that many rows
/// early: its rows 0 .. shift - 1 read the tail of the previous column (valid memory) and their
/// products land in plane rows the reduction skips. The leading dimensions become 4·lda and 4·ldb,
/// K the residue's count of columns. (run() passes K - 1: a 16-byte copy of the last column could
/// end past A's allocation, so the reduction adds that column's product.)
/// Residues of M (K-major A): rows i = 4p + r of A, at leading dimension 4·lda, all of B. A's rows of
/// residue r start shift floats past a 16-byte boundary, so the block reads them from that boundary:
/// its column j holds k = j - shift, K becomes k + shift, and B starts shift rows above its row 0.
/// The kernel zeroes the first shift columns in both (the loaders' `head`): in A they hold the
/// previous row's tail, which may be anything, B has no such rows. The rows past the last whole
/// vector of a row take the loaders' edge path (scalar loads, zero-filled vectors), so no copy
/// reaches past a row's k-th element either. `head` receives that shift for residues of M (0 for
/// residues of K, whose loaders zero nothing).
template <bool kOfM>
__device__ __forceinline__ GemmParams residue_problem(const GemmParams& p, int& head) {
  const int per_residue = p.splits / kResidues;
  const int r = static_cast<int>(blockIdx.z) / per_residue;
  const int shift = residue_shift(r, p.lda);
  GemmParams q = p;
  q.a = p.f32_a() + r * p.lda - shift;
  q.lda = kResidues * p.lda;
  head = kOfM ? shift : 0;
  if constexpr (kOfM) {
    q.m = p.m > r ? (p.m - r + kResidues - 1) / kResidues : 0;
    q.b = p.f32_b() - shift * p.ldb;
    q.k = p.k + shift;
  } else {
    q.m = p.m + shift;
    q.b = p.f32_b() + r * p.ldb;
    q.ldb = kResidues * p.ldb;
    q.k = p.k > r ? (p.k - r + kResidues - 1) / kResidues : 0;
  }
  q.splits = per_residue;
  return q;
}

template <class Tag>
__global__ void __launch_bounds__(Tag::value.threads(), Tag::value.min_blocks) simt_sgemm_kernel(GemmParams params) {
  constexpr KernelConfig C = Tag::value;
  // Residue instances run one residue (of K or of M) per group of blockIdx.z (residue_problem); the
  // others the problem as given (the copy is the parameters themselves: their SASS is as before).
  constexpr bool kResidue = C.residues > 1, kOfM = C.residues_of_m();
  int head = 0;  // residues of M: the columns the loaders zero on the first tile (residue_problem)
  const GemmParams p = kResidue ? residue_problem<kOfM>(params, head) : params;
  static_assert(is_valid(C), "KernelConfig violates the validity rule (see invalid_reason)");
  constexpr int BM = C.bm, BN = C.bn, BK = C.bk, TM = C.tm, TN = C.tn, S = C.stages;
  constexpr int kThreads = C.threads();
  // Transposed through registers (K-major in memory, X-major in shared memory) / K-major in shared
  // memory: the layout rules are KernelConfig's.
  constexpr bool kAT = C.transposes_a(), kBT = C.transposes_b();
  constexpr bool kAK = C.a_shared_k_major(), kBK = C.b_shared_k_major();
  constexpr bool kACT = C.copy_transposes_a(), kBCT = C.copy_transposes_b();  // scalar class, see the loader
  constexpr int kAStage = C.a_stage_floats();
  constexpr int kBStage = C.b_stage_floats();
  constexpr bool kWalkBOuter = kBK && !kAK && TM >= 8;  // FFMA loop order, see the inner loop

  // Launched as a programmatic dependent of the kernel before it (an operand repack or the caller's
  // last kernel; GemmParams::after_previous_kernel): wait for its completion and memory before
  // anything is read or written. Without a prerequisite grid this returns at once.
  wait_for_previous_grid();
  extern __shared__ float4 smem_vec[];  // float4 so the base is 16-byte aligned
  float* smem_a = reinterpret_cast<float*>(smem_vec);
  float* smem_b = smem_a + S * kAStage;

  // Block -> output tile, grouped for L2 reuse. (Residue instances: the same tiles for every
  // residue, covering residue_rows; rows past a residue's own m are zero-filled and not written.)
  const int tiles_m = ceil_div(kResidue ? residue_rows(params.m, kOfM) : p.m, BM);
  const int tiles_n = ceil_div(p.n, BN);
  const int tile = blockIdx.x;
  const int2 tile_at = grouped_tile(tile, tiles_m, tiles_n);
  const int m0 = tile_at.x * BM;
  const int n0 = tile_at.y * BN;

  const int split = kResidue ? static_cast<int>(blockIdx.z) % p.splits : static_cast<int>(blockIdx.z);
  const int k_begin = split * p.k_per_split;
  const int k_end = min(p.k, k_begin + p.k_per_split);
  const int k_tiles = k_end > k_begin ? ceil_div(k_end - k_begin, BK) : 0;

  const int tid = threadIdx.x;
  // Sliced K: threads [g * kSliceThreads, (g + 1) * kSliceThreads) form k-slice g, which tiles the
  // whole block and computes k-steps [g * kSliceK, (g + 1) * kSliceK) of every BK step.
  constexpr int kSliceThreads = C.slice_threads();
  constexpr int kSliceK = BK / C.slices;
  // (With one slice both are written as before slices existed, so such instances compile as before.)
  const int slice = C.slices > 1 ? tid / kSliceThreads : 0;
  const int warp = (C.slices > 1 ? tid % kSliceThreads : tid) / 32, lane = tid % 32;
  const int warp_m0 = (warp % C.warps_m()) * C.wm;
  const int warp_n0 = (warp / C.warps_m()) * C.wn;
  const int lane_m = lane % C.lanes_m();
  const int lane_n = lane / C.lanes_m();

  // Operands stored as they are in memory are copied by cp.async (OperandLoader); K-major ones the
  // main loop reads X-major pass through registers (TransposingLoader), one tile ahead: tile kt + 1
  // is fetched before tile kt's FFMAs and stored after them, into a stage no thread reads meanwhile.
  // (Residue instances read B X-major and cut vectors inside the fast path; residues of M transpose
  // A through registers and zero the first `head` columns of both, residue_problem.)
  using LoaderA = std::conditional_t<
      kAT, TransposingLoader<BM, BK, kThreads, kOfM>,
      std::conditional_t<kACT, CopyTransposingLoader<BM, BK, kThreads>,
                         OperandLoader<BM, BK, C.align, kThreads, kAK, kResidue && !kOfM>>>;
  using LoaderB = std::conditional_t<
      kBT, TransposingLoader<BN, BK, kThreads>,
      std::conditional_t<kBCT, CopyTransposingLoader<BN, BK, kThreads>,
                         OperandLoader<BN, BK, C.align, kThreads, kBK, kResidue, kOfM>>>;
  static_assert(!kOfM || kAT, "residues of M transpose A through registers (KernelConfig::residues_of_m)");
  LoaderA loader_a(p.f32_a(), p.lda, m0, p.m, k_end, tid, head);
  LoaderB loader_b(p.f32_b(), p.ldb, n0, p.n, k_end, tid, head);
  auto load_stage = [&](int kt, int stage) {
    const int k0 = k_begin + kt * BK;
    if constexpr (!kAT) loader_a.load(smem_a + stage * kAStage, k0);
    if constexpr (!kBT) loader_b.load(smem_b + stage * kBStage, k0);
  };
  auto fetch_transposed = [&](int kt) {
    const int k0 = k_begin + kt * BK;
    if constexpr (kAT) loader_a.fetch(k0);
    if constexpr (kBT) loader_b.fetch(k0);
  };
  auto store_transposed = [&](int stage) {
    if constexpr (kAT) loader_a.store(smem_a + stage * kAStage);
    if constexpr (kBT) loader_b.store(smem_b + stage * kBStage);
  };
  constexpr bool kAnyT = kAT || kBT;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  // Prologue: S-1 stages in flight. Empty groups are committed too, so wait_group counts stay exact.
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit();
  }
  if constexpr (kAnyT) {
    if (k_tiles > 0) {
      fetch_transposed(0);
      store_transposed(0);
    }
  }

  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<S - 2>();
    // Makes tile kt visible to all threads, and guarantees every thread finished reading the stage
    // that the copy below overwrites (it was computed on in iteration kt - 1).
    __syncthreads();
    const int next = kt + S - 1;
    if (next < k_tiles) load_stage(next, next % S);
    cp_async_commit();
    if constexpr (kAnyT) {
      if (kt + 1 < k_tiles) fetch_transposed(kt + 1);
    }

    const float* sa = smem_a + (kt % S) * kAStage;
    const float* sb = smem_b + (kt % S) * kBStage;
#pragma unroll
    for (int kk = 0; kk < kSliceK; kk += kFragSteps) {
      const int k4 = slice * kSliceK + kk;
      float fa[kFragSteps][TM], fb[kFragSteps][TN];
      load_fragments<TM, C.lanes_m(), BM, BK, kAK, kAT, kACT>(fa, sa, warp_m0, lane_m, k4);
      load_fragments<TN, C.lanes_n(), BN, BK, kBK, kBT, kBCT>(fb, sb, warp_n0, lane_n, k4);
#pragma unroll
      for (int q = 0; q < kFragSteps; ++q) {
        // A K-major fragment arrives as one float4 per element over 4 k-steps, so step q's values of
        // it sit 4 registers apart. With B K-major and A X-major, ncu showed the FFMAs stalling on
        // dispatch 2.4x as often as in `nt` (register-bank conflicts among the three sources).
        // Walking B in the outer loop lets consecutive FFMAs reuse its register (operand reuse
        // cache), leaving A's fragment and the accumulator to the allocator. Measured on the H100:
        // most 8x8 and 8x16 tiles 5-14% faster, 4x8 tiles 1-2% slower; so TM >= 8 only.
        // The order of the k-steps into each accumulator, and so the result, is the same.
        if constexpr (kWalkBOuter) {
          ffma_serpentine<TM, TN, true>(acc, fa[q], fb[q]);
        } else {
          ffma_serpentine<TM, TN>(acc, fa[q], fb[q]);
        }
      }
    }
    if constexpr (kAnyT) {
      if (kt + 1 < k_tiles) store_transposed((kt + 1) % S);
    }
  }
  cp_async_wait<0>();

  if constexpr (C.slices > 1) {
    // Slices 1.. hand their accumulators to slice 0 through the pipeline's shared memory, laid out
    // (slice, element, thread) so that consecutive threads touch consecutive words; slice 0 adds them
    // in slice order, so the result does not depend on timing.
    __syncthreads();  // every slice is done reading the pipeline's tiles
    static_assert(TM * TN * kSliceThreads == BM * BN, "a slice's accumulators are one block tile");
    // Slice g's slot: one block tile per slice after the first, at this thread's word.
    auto slot = [&, t = tid % kSliceThreads](int g) { return smem_a + (g - 1) * (BM * BN) + t; };
    if (slice > 0) {
      float* mine = slot(slice);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) mine[(i * TN + j) * kSliceThreads] = acc[i][j];
    }
    __syncthreads();
    if (slice == 0) {
#pragma unroll
      for (int g = 1; g < C.slices; ++g) {
        const float* theirs = slot(g);
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] += theirs[(i * TN + j) * kSliceThreads];
      }
    }
  }
  // Only slice 0 writes C (or the partials); every thread still takes part in the barriers below.
  const bool writer = slice == 0;
  // C coordinates of this thread's accumulator acc[i][j].
  auto row_of = [&](int i) { return m0 + warp_m0 + frag_x<kAK, C.lanes_m()>(i, lane_m); };
  auto col_of = [&](int j) { return n0 + warp_n0 + frag_x<kBK, C.lanes_n()>(j, lane_n); };

  // Epilogue. Serial split-k: wait until the previous split of this tile has written C.
  int* semaphore = p.semaphores + tile;
  if (p.mode == SplitKMode::kSerial) {
    if (tid == 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> turn(*semaphore);
      while (turn.load(cuda::memory_order_acquire) != split) __nanosleep(64);
    }
    __syncthreads();
  }
  const bool accumulate_into_c = p.mode == SplitKMode::kSerial && split > 0;
  // Partial plane of this block: its split, or for a residue instance its (residue, split) pair,
  // every plane residue_partial_ld rows deep. (Written out in both places so that the other
  // instances compile to the PTX they had before residues.)
  float* partial = p.mode == SplitKMode::kParallel
                       ? p.partials + (kResidue ? static_cast<int>(blockIdx.z) : split) *
                                          (kResidue ? residue_partial_ld(params.m, kOfM) : partial_ld(p.m)) * p.n
                       : nullptr;
  constexpr bool kRowRuns = !kAK;  // rows of acc in runs of 4 adjacent rows of C (TM % 4 == 0 always)
  float* const out = partial != nullptr ? partial : p.f32_c();
  const int64_t ld =
      partial != nullptr ? (kResidue ? residue_partial_ld(params.m, kOfM) : partial_ld(p.m)) : p.ldc;
  const bool vec_ok = ld % 4 == 0 && (reinterpret_cast<uintptr_t>(out) & 15) == 0;
  if (writer && accumulate_into_c) {
    // Serial split-k after the first split: a column's previous values are loaded (through L2 with
    // .cg: that split wrote them) and folded into acc before any of them is stored, so a column costs
    // one L2 round trip rather than one per element (in one loop a store could alias a later load,
    // which keeps the loop in order). One column at a time, in place: loading the whole tile first
    // would hold TM x TN loads in flight and raise the kernel's registers.
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int n_idx = col_of(j);
      if (n_idx >= p.n) continue;
      float* c_col = p.f32_c() + static_cast<int64_t>(n_idx) * p.ldc;
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        const int m_idx = row_of(i);
        if (m_idx < p.m) acc[i][j] = fmaf(p.alpha, acc[i][j], __ldcg(c_col + m_idx));
      }
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        const int m_idx = row_of(i);
        if (m_idx < p.m) c_col[m_idx] = acc[i][j];
      }
    }
  } else if (writer && kRowRuns && vec_ok && m0 + BM <= p.m) {
    // An X-major A gives each thread runs of 4 adjacent rows (frag_x), while the lanes of a warp sit
    // 4 rows apart: four scalar stores would each write a quarter of the words of every 32-byte
    // sector the warp touches. Where the destination's columns are 16-byte aligned and the tile's
    // rows lie inside m (the common case), each run is one float4 store, straight-line code.
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int n_idx = col_of(j);
      if (n_idx >= p.n) continue;  // tile quantization: the last tile column may overhang N
      float* const col = out + static_cast<int64_t>(n_idx) * ld;
#pragma unroll
      for (int r = 0; r < TM; r += 4) {
        const float4 sum = make_float4(acc[r][j], acc[r + 1][j], acc[r + 2][j], acc[r + 3][j]);
        if (partial != nullptr) {
          *reinterpret_cast<float4*>(col + row_of(r)) = sum;
        } else {
          store_scaled4(col + row_of(r), sum, p.alpha, p.beta);
        }
      }
    }
  } else if (writer && kRowRuns && vec_ok && partial != nullptr) {
    // The same float4 runs on a tile that overhangs m, for split-k partials only: their columns hold
    // partial_ld(m) rows (m rounded up to 4), so a run that starts inside m fits in its column, and
    // the reduction never reads the rows past m. The scalar path below writes a quarter of each
    // sector per store, and its blocks are the last of the launch to finish (a timeline of every block).
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int n_idx = col_of(j);
      if (n_idx >= p.n) continue;
      float* const col = out + static_cast<int64_t>(n_idx) * ld;
#pragma unroll
      for (int r = 0; r < TM; r += 4) {
        if (row_of(r) < p.m)
          *reinterpret_cast<float4*>(col + row_of(r)) =
              make_float4(acc[r][j], acc[r + 1][j], acc[r + 2][j], acc[r + 3][j]);
      }
    }
  } else if (writer && kRowRuns && vec_ok) {
    // C on a tile that overhangs m: float4 runs where a run lies inside m, single elements in the
    // run m cuts (C's rows past m are the caller's).
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int n_idx = col_of(j);
      if (n_idx >= p.n) continue;
      float* const col = p.f32_c() + static_cast<int64_t>(n_idx) * p.ldc;
#pragma unroll
      for (int r = 0; r < TM; r += 4) {
        const int row = row_of(r);
        if (row + 4 <= p.m) {
          store_scaled4(col + row, make_float4(acc[r][j], acc[r + 1][j], acc[r + 2][j], acc[r + 3][j]), p.alpha,
                        p.beta);
        } else {
#pragma unroll
          for (int q = 0; q < 4; ++q)
            if (row + q < p.m) store_scaled(col + row + q, acc[r + q][j], p.alpha, p.beta);
        }
      }
    }
  } else if (writer) {
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int n_idx = col_of(j);
      if (n_idx >= p.n) continue;  // tile quantization: the last tile column may overhang N
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        const int m_idx = row_of(i);
        if (m_idx >= p.m) continue;
        if (partial != nullptr) {
          partial[n_idx * ld + m_idx] = acc[i][j];
          continue;
        }
        store_scaled(p.f32_c() + static_cast<int64_t>(n_idx) * p.ldc + m_idx, acc[i][j], p.alpha, p.beta);
      }
    }
  }

  if (p.mode == SplitKMode::kSerial) {
    __threadfence();
    __syncthreads();
    if (tid == 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> turn(*semaphore);
      // The last split resets the counter, so the workspace is ready for the next launch.
      turn.store(split == p.splits - 1 ? 0 : split + 1, cuda::memory_order_release);
    }
  }
}

template <class Tag>
cudaError_t launch_simt_sgemm(const GemmParams& p, cudaStream_t stream) {
  constexpr KernelConfig C = Tag::value;
  static std::atomic<unsigned long long> configured{0};
  const int rows = C.residues > 1 ? residue_rows(p.m, C.residues_of_m()) : p.m;  // residue instances: see the kernel
  return launch_gemm_kernel(simt_sgemm_kernel<Tag>, C, ceil_div(rows, C.bm) * ceil_div(p.n, C.bn), p, configured,
                            stream, p);
}

}  // namespace autogemm::detail
