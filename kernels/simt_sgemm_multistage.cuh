// FP32 SIMT GEMM on CUDA cores for sm_80+: block tile staged through shared memory by a cp.async
// multistage pipeline, warp tile, register thread tile, L2-grouped block order, optional split-k.
// One template covers every layout and alignment class; KernelConfig (kernel_config.hpp) is its key.
#pragma once

#include <atomic>
#include <type_traits>
#include <utility>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "config_tag.hpp"
#include "cp_async.cuh"
#include "gemm_params.hpp"
#include "kernel_config.hpp"
#include "launch_config.hpp"

namespace autogemm::detail {

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

/// Output tiles are visited in groups of kL2GroupRows tile-rows so that blocks running together share
/// A rows and B columns in L2 (background: L2-aware block order).
inline constexpr int kL2GroupRows = 8;

/// Output tile `tile` of a tiles_m x tiles_n grid in the L2-grouped order: its (tile row, tile column).
__device__ __forceinline__ int2 grouped_tile(int tile, int tiles_m, int tiles_n) {
  const int per_group = kL2GroupRows * tiles_n;
  const int first_m = (tile / per_group) * kL2GroupRows;
  const int group_rows = min(tiles_m - first_m, kL2GroupRows);
  return make_int2(first_m + (tile % per_group) % group_rows, (tile % per_group) / group_rows);
}

/// Position, along its X dimension (M for A, N for B), of fragment element `i` of a lane.
/// X-major tiles give each lane runs of 4 adjacent elements (one float4 read); K-major tiles give
/// lanes adjacent rows, which the padded row stride maps to distinct banks.
template <bool kKMajor, int kLanes>
__device__ __forceinline__ int frag_x(int i, int lane_x) {
  if constexpr (kKMajor) {
    return i * kLanes + lane_x;
  } else {
    return (i / 4) * (kLanes * 4) + lane_x * 4 + (i % 4);
  }
}

/// Issues the cp.async copies of one BK-deep operand tile into shared memory.
/// Global element (x, kk) lives at g[kKMajor ? kk + x*ld : x + kk*ld]; x in [x0, x_end), k in [k0, k_end).
/// Shared layout: K-major (X, BK + pad), else (BK, X). Out-of-range elements are zero-filled.
/// kInterior: the caller knows the whole tile lies inside [x0, x_end) x [k0, k_end), so no copy is
/// tested (the copies of tiles whose rows are not a whole number of thread passes, e.g. 48 vectors
/// per row over 256 threads, use it instead of OperandLoader's per-thread fast path).
template <int X, int BK, int V, int kThreads, bool kKMajor, bool kInterior = false>
__device__ __forceinline__ void load_operand_tile(float* s, const float* g, int64_t ld, int x0, int x_end,
                                                  int k0, int k_end, int tid) {
  constexpr int kContig = kKMajor ? BK : X;
  constexpr int kVecPerRow = kContig / V;
  constexpr int kIters = (X * BK / V) / kThreads;
  constexpr int kRowStride = kKMajor ? BK + kKMajorPad : X;
#pragma unroll
  for (int it = 0; it < kIters; ++it) {
    const int idx = tid + it * kThreads;
    const int row = idx / kVecPerRow;
    const int col = (idx % kVecPerRow) * V;
    const int gx = x0 + (kKMajor ? row : col);
    const int gk = k0 + (kKMajor ? col : row);
    const float* elem = g + (kKMajor ? static_cast<int64_t>(gx) * ld + gk : static_cast<int64_t>(gk) * ld + gx);
    int valid = V;
    if constexpr (!kInterior) {
      const int contig_left = kKMajor ? k_end - gk : x_end - gx;
      const bool other_in = kKMajor ? gx < x_end : gk < k_end;
      valid = other_in ? max(0, min(V, contig_left)) : 0;
    }
    // The fallback address is never read (src size 0) but must still be a valid global address.
    const float* src = valid > 0 ? elem : g;
    float* dst = s + row * kRowStride + col;
    cp_async_vec<V>(dst, src, valid * 4);
  }
}

/// The copies of one operand tile by one thread, with their addresses and edge tests worked out once
/// per block. Interior tiles (the whole BK slice inside this split's K range and every row or column
/// of the thread inside X) then cost one pointer add per copy and no predicates; edge tiles walk the
/// same pointers and cut each copy with one compare against a per-block or per-tile count. Applies
/// when the thread's copies share a column, i.e. the threads cover whole tile rows each pass
/// (kThreads a multiple of the vectors per row); other shapes take load_operand_tile's unpredicated
/// form on interior tiles (the whole tile inside X and this split's K range) and its general path
/// on edge tiles.
/// kEdgeBytesInFastPath (X-major only; residue instances): interior tiles in K take the fast path
/// even when X cuts the thread's vector, each copy cut to the thread's bytes inside X. Otherwise a
/// tile whose X extent is not a multiple of 4 (n = 127 against a 128-wide tile) sends the lane that
/// holds the cut vector down the edge path on every k-tile, which serialises its warp: 127x3001x1531
/// runs 8.5% more instructions at 29.7 active threads per warp than its aligned twin (ncu).
/// kMaskHead (with kEdgeBytesInFastPath; B of residues of M, KernelConfig::residues_of_m): `g` is
/// `head` rows (at most 3) above the operand's row 0, the rows the first tile (k0 = 0) must hold as
/// zeros: their copies are 0-byte copies, which read nothing.
template <int X, int BK, int V, int kThreads, bool kKMajor, bool kEdgeBytesInFastPath = false,
          bool kMaskHead = false>
class OperandLoader {
  static_assert(!(kEdgeBytesInFastPath && kKMajor), "cut vectors run along X in X-major tiles only");
  static_assert(!kMaskHead || kEdgeBytesInFastPath, "head rows are masked by the residue instances' fast path");
  static constexpr int kVecPerRow = (kKMajor ? BK : X) / V;
  static constexpr int kIters = (X * BK / V) / kThreads;
  static constexpr int kRowStride = kKMajor ? BK + kKMajorPad : X;
  static constexpr bool kFast = copies_whole_rows(X, BK, kKMajor, V, kThreads);
  static constexpr int kRowStep = kFast ? kThreads / kVecPerRow : 1;

 public:
  __device__ __forceinline__ OperandLoader(const float* g, int64_t ld, int x0, int x_end, int k_end, int tid,
                                           int head = 0)
      : g_(g), ld_(ld), x0_(x0), x_end_(x_end), k_end_(k_end), tid_(tid) {
    const int row0 = tid / kVecPerRow;
    const int col0 = (tid % kVecPerRow) * V;
    smem_offset_ = row0 * kRowStride + col0;
    // Tile row r of a thread is global row r (K-major: x0 + r, X-major: the k offset r).
    row_step_ = static_cast<int64_t>(kRowStep) * ld;
    if constexpr (kKMajor) {
      base_ = g + static_cast<int64_t>(x0 + row0) * ld + col0;
      interior_ = x0 + row0 + (kIters - 1) * kRowStep < x_end;
      rows_in_x_ = ceil_div(x_end - x0 - row0, kRowStep);  // its copies it < this are inside X
      k_first_ = col0;
    } else {
      base_ = g + static_cast<int64_t>(row0) * ld + x0 + col0;
      interior_ = x0 + col0 + V <= x_end;
      x_bytes_ = 4 * max(0, min(V, x_end - x0 - col0));  // the part of its vector inside X
      k_first_ = row0;
    }
    if constexpr (kMaskHead) {
      g_ = g + static_cast<int64_t>(head) * ld;  // row 0: the address 0-byte copies give
      head_copies_ = head > k_first_ ? ceil_div(head - k_first_, kRowStep) : 0;
    }
  }

  /// Issues the copies of the BK slice starting at k0 into shared tile `s`.
  __device__ __forceinline__ void load(float* s, int k0) const {
    if constexpr (kFast) {
      const float* src = base_ + (kKMajor ? static_cast<int64_t>(k0) : static_cast<int64_t>(k0) * ld_);
      float* dst = s + smem_offset_;
      const int dead = kMaskHead && k0 == 0 ? head_copies_ : 0;  // its copies above row 0 (kMaskHead)
      if constexpr (kEdgeBytesInFastPath) {
        if (k0 + BK <= k_end_) {
          const int x_bytes = x_bytes_;  // 16 inside X, fewer where X cuts the vector, 0 past X
#pragma unroll
          for (int it = 0; it < kIters; ++it) {
            const int n = it < dead ? 0 : x_bytes;
            cp_async_vec<V>(dst + it * kRowStep * kRowStride, n > 0 ? src : g_, n);
            src += row_step_;
          }
          return;
        }
      } else if (interior_ && k0 + BK <= k_end_) {
#pragma unroll
        for (int it = 0; it < kIters; ++it) {
          cp_async_vec<V>(dst + it * kRowStep * kRowStride, src, 4 * V);
          src += row_step_;
        }
        return;
      }
      // Edge tile: the same pointer walk, each copy cut to its bytes inside X and this split's K.
      // Copy `it` lies in range iff it < live (K-major: its rows inside X; X-major: its k rows
      // before k_end), one compare with a constant per copy. A general path that recomputes every
      // copy's indices has the compiler keep that arithmetic live across the main loop: 53 registers
      // more per scalar-class instance on average, 15 per aligned one.
      const int live = kKMajor ? rows_in_x_ : ceil_div(k_end_ - k0 - k_first_, kRowStep);
      const int bytes = kKMajor ? 4 * max(0, min(V, k_end_ - k0 - k_first_)) : x_bytes_;
#pragma unroll
      for (int it = 0; it < kIters; ++it) {
        const int n = it < live && it >= dead ? bytes : 0;
        const float* from = n > 0 ? src : g_;  // a 0-byte copy reads nothing but needs a valid address
        cp_async_vec<V>(dst + it * kRowStep * kRowStride, from, n);
        src += row_step_;
      }
    } else if (x0_ + X <= x_end_ && k0 + BK <= k_end_) {
      load_operand_tile<X, BK, V, kThreads, kKMajor, true>(s, g_, ld_, x0_, x_end_, k0, k_end_, tid_);
    } else {
      load_operand_tile<X, BK, V, kThreads, kKMajor>(s, g_, ld_, x0_, x_end_, k0, k_end_, tid_);
    }
  }

 private:
  const float* g_;
  int64_t ld_;
  int x0_, x_end_, k_end_, tid_;
  const float* base_ = nullptr;  // this thread's first copy at k = 0
  int64_t row_step_ = 0;         // global distance between its consecutive copies
  int smem_offset_ = 0;
  bool interior_ = false;
  int k_first_ = 0;    // k offset of its copies in a tile (K-major: column, X-major: first row)
  int rows_in_x_ = 0;  // K-major: how many of its copies lie inside X
  int x_bytes_ = 0;    // X-major: bytes of its vector inside X
  int head_copies_ = 0;  // kMaskHead: its copies of the first tile that lie above row 0
};

/// The copies of one K-major operand tile by one thread of a scalar-class instance, straight into an
/// X-major shared tile (KernelConfig::copy_transposes_a / copy_transposes_b): one 4-byte cp.async per
/// element, as the scalar class issues anyway, so the main loop reads the tile as it reads `nt` tiles,
/// without the register-bank conflicts of K-major fragments. The lanes of a warp cover 8 consecutive
/// k (one 32-byte sector of a row) of 4 adjacent rows: each copy instruction reads 4 sectors and, at
/// the row stride X + kCopyTransposePad, writes 32 distinct banks. A thread copies rows x_first +
/// p * kRowStep at k offsets k_in + 8 * kb, so interior tiles walk one pointer as OperandLoader's
/// K-major copies do, with no test per copy (a test per copy adds 13% instructions, and the permuted
/// rows of TransposingLoader's layout would put 8 consecutive k on 2 bank groups: 4-way conflicts).
template <int X, int BK, int kThreads>
class CopyTransposingLoader {
  static constexpr int kRowStep = kThreads / 8;  // rows one pass of the block covers
  static constexpr int kRows = X / kRowStep;     // rows per thread
  static constexpr int kSteps = BK / 8;          // copies per row and thread
  static constexpr int kStride = X + kCopyTransposePad;
  static_assert(BK % 8 == 0 && X % kRowStep == 0, "KernelConfig::copy_transposable");

 public:
  // (No head: residue instances are aligned-class instances, KernelConfig::residues.)
  __device__ __forceinline__ CopyTransposingLoader(const float* g, int64_t ld, int x0, int x_end, int k_end,
                                                   int tid, int /*head*/ = 0)
      : g_(g), k_end_(k_end) {
    const int k_in = tid % 8, x_first = tid / 8;
    base_ = g + static_cast<int64_t>(x0 + x_first) * ld + k_in;
    row_step_ = static_cast<int64_t>(kRowStep) * ld;
    rows_in_x_ = ceil_div(x_end - x0 - x_first, kRowStep);  // its rows p < this are inside X
    k_first_ = k_in;
    smem_offset_ = k_in * kStride + x_first;
  }

  /// Issues the copies of the BK slice starting at k0 into shared tile `s`.
  __device__ __forceinline__ void load(float* s, int k0) const {
    const float* src = base_ + k0;
    float* dst = s + smem_offset_;
    if (rows_in_x_ >= kRows && k0 + BK <= k_end_) {
#pragma unroll
      for (int p = 0; p < kRows; ++p) {
#pragma unroll
        for (int kb = 0; kb < kSteps; ++kb) cp_async_vec<1>(dst + kb * 8 * kStride + p * kRowStep, src + kb * 8, 4);
        src += row_step_;
      }
      return;
    }
    // Edge tile: copy (p, kb) lies inside iff its row is inside X and its k before k_end.
    const int k_left = k_end_ - k0 - k_first_;
#pragma unroll
    for (int p = 0; p < kRows; ++p) {
#pragma unroll
      for (int kb = 0; kb < kSteps; ++kb) {
        const bool in = p < rows_in_x_ && kb * 8 < k_left;
        cp_async_vec<1>(dst + kb * 8 * kStride + p * kRowStep, in ? src + kb * 8 : g_, in ? 4 : 0);
      }
      src += row_step_;
    }
  }

 private:
  const float* g_;
  int k_end_;
  const float* base_;  // this thread's first copy at k = 0
  int64_t row_step_;
  int rows_in_x_, k_first_, smem_offset_;
};

/// The copies of one K-major operand tile by one thread, through registers: `fetch` loads the
/// thread's 16-byte vectors along K (the lanes of a warp cover whole 128-byte rows, as the cp.async
/// copies do), `store` writes each vector's 4 values to 4 rows of an X-major shared tile. The main
/// loop then reads this operand like an X-major one: its fragments come as float4s of 4 adjacent
/// x at one k-step, where a K-major tile gives 4 k-steps of one x, whose values sit 4 registers
/// apart and make the FFMAs' register-bank conflicts of `nn`.
/// K-step k of the tile is stored at row (k % 4)·BK/4 + k/4, rows transposed_row_floats apart:
/// each store of a warp then hits 32 distinct banks. Zero-fills outside X and this split's K as
/// OperandLoader does. Requires kThreads to cover whole tile rows per pass (true for BK <= 32).
/// Aligned class only: as 4 scalar loads per vector the scalar class runs 1.5-1.8% slower.
/// Its constructor repeats OperandLoader's K-major set-up (base, row step, interior test, rows inside
/// X, first k) on purpose: built on an OperandLoader member instead, the 102 transposing instances'
/// main loops come out rescheduled (same instructions, other registers and order in SASS), and such
/// rescheduling moves an instance by +-3-4%: sharing it needs an A/B on the H100 first.
/// kMaskHead (residues of M, KernelConfig::residues_of_m): the first `head` columns of the operand
/// (k < head of the tile at k0 = 0) are not the operand's, they are zeroed after the load.
template <int X, int BK, int kThreads, bool kMaskHead = false>
class TransposingLoader {
  static constexpr int kQ = BK / 4;  // vectors per tile row
  static constexpr int kIters = (X * BK / 4) / kThreads;
  static constexpr int kRowStep = kThreads / kQ;
  static constexpr int kStride = transposed_row_floats(X, BK);
  static_assert(kThreads % kQ == 0 && (X * BK / 4) % kThreads == 0, "whole rows per pass, whole passes");

 public:
  __device__ __forceinline__ TransposingLoader(const float* g, int64_t ld, int x0, int x_end, int k_end, int tid,
                                               int head = 0)
      : k_end_(k_end), head_(head) {
    const int row0 = tid / kQ, kq = tid % kQ;
    base_ = g + static_cast<int64_t>(x0 + row0) * ld + kq * 4;
    row_step_ = static_cast<int64_t>(kRowStep) * ld;
    interior_ = x0 + row0 + (kIters - 1) * kRowStep < x_end;
    rows_in_x_ = ceil_div(x_end - x0 - row0, kRowStep);
    k_first_ = kq * 4;
    smem_offset_ = kq * kStride + row0;
  }

  /// Loads the thread's vectors of the BK slice starting at k0 into registers.
  __device__ __forceinline__ void fetch(int k0) {
    const float* src = base_ + k0;
    if (interior_ && k0 + BK <= k_end_) {
#pragma unroll
      for (int it = 0; it < kIters; ++it) {
        v_[it] = __ldcg(reinterpret_cast<const float4*>(src));
        src += row_step_;
      }
      mask_head(k0);
      return;
    }
    // Elements of its vectors inside K, if under 4. (Not a clamp to [0, 4] tested for == 4: built
    // for the H100, that form drops the 4th value of edge vectors.)
    const int left = k_end_ - k0 - k_first_;
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (it < rows_in_x_) {
        if (left >= 4) {
          v = __ldcg(reinterpret_cast<const float4*>(src));
        } else {
          if (left > 0) v.x = __ldcg(src);
          if (left > 1) v.y = __ldcg(src + 1);
          if (left > 2) v.z = __ldcg(src + 2);
        }
      }
      v_[it] = v;
      src += row_step_;
    }
    mask_head(k0);
  }

  /// Stores the fetched vectors, transposed, into shared tile `s`.
  __device__ __forceinline__ void store(float* s) const {
    float* dst = s + smem_offset_;
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      float* d = dst + it * kRowStep;
      d[0] = v_[it].x;
      d[kQ * kStride] = v_[it].y;
      d[2 * kQ * kStride] = v_[it].z;
      d[3 * kQ * kStride] = v_[it].w;
    }
  }

 private:
  // kMaskHead: zeroes the columns k < head_ (at most 3) of the thread's vectors of the first tile.
  __device__ __forceinline__ void mask_head(int k0) {
    if constexpr (kMaskHead) {
      if (k0 == 0 && k_first_ == 0) {
#pragma unroll
        for (int it = 0; it < kIters; ++it) {
          if (head_ > 0) v_[it].x = 0.0f;
          if (head_ > 1) v_[it].y = 0.0f;
          if (head_ > 2) v_[it].z = 0.0f;
        }
      }
    }
  }

  float4 v_[kIters];
  const float* base_;
  int64_t row_step_;
  int k_end_;
  int head_;
  bool interior_;
  int rows_in_x_, k_first_, smem_offset_;
};

/// Number of k-steps whose fragments are read together: a K-major tile row holds them in one float4.
inline constexpr int kFragSteps = 4;

/// One k-step's outer product a x b into a thread's sums in serpentine order: the lines (rows, or
/// columns where kColumnsOuter) in order, each line's elements in alternating direction (even lines
/// descending, odd ascending), so the operand that ends one line starts the next and ptxas keeps
/// more FFMA operands in its reuse cache. Each sum gets its products in k order whatever the order
/// within a k-step, so C does not depend on it. Measured against plain order: rows outer, the TMA
/// 8x16 tiles 0.5-0.9% faster and the best multistage tile of 64-512 x 3072 x 3072 0.6-1.7%;
/// columns outer (the `nn` tiles that walk B outer), the sliced 64x64 8x8 tile 2.5-3.7%.
template <int TM, int TN, bool kColumnsOuter = false>
__device__ __forceinline__ void ffma_serpentine(float (&acc)[TM][TN], const float (&a)[TM], const float (&b)[TN]) {
  constexpr int kLines = kColumnsOuter ? TN : TM, kLength = kColumnsOuter ? TM : TN;
#pragma unroll
  for (int line = 0; line < kLines; ++line)
#pragma unroll
    for (int step = 0; step < kLength; ++step) {
      const int at = line % 2 == 1 ? step : kLength - 1 - step;
      const int i = kColumnsOuter ? at : line, j = kColumnsOuter ? line : at;
      acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

/// Reads the T fragment values of columns k4 .. k4+3 of a shared tile for one lane: f[q][i] is element
/// i of k-step k4 + q. X-major tiles: one float4 per 4 fragment elements and k-step. K-major tiles:
/// one float4 per fragment element, covering the 4 k-steps (rows are 16-byte aligned and the padded
/// stride keeps 8 adjacent rows on distinct 4-bank groups), so neither layout issues scalar LDS.
/// kTransposed: an X-major tile written by TransposingLoader (rows permuted, padded stride);
/// kPadded: one written by CopyTransposingLoader (rows in k order, X + kCopyTransposePad apart).
template <int T, int kLanes, int X, int BK, bool kKMajor, bool kTransposed = false, bool kPadded = false>
__device__ __forceinline__ void load_fragments(float (&f)[kFragSteps][T], const float* s, int warp_x0, int lane_x,
                                               int k4) {
  if constexpr (kKMajor) {
#pragma unroll
    for (int i = 0; i < T; ++i) {
      const float4 v =
          *reinterpret_cast<const float4*>(s + (warp_x0 + frag_x<true, kLanes>(i, lane_x)) * (BK + kKMajorPad) + k4);
      f[0][i] = v.x;
      f[1][i] = v.y;
      f[2][i] = v.z;
      f[3][i] = v.w;
    }
  } else {
    // Row of k-step k4 + q (k4 a multiple of 4) and the row stride.
    constexpr int kStride = kTransposed ? transposed_row_floats(X, BK) : X + (kPadded ? kCopyTransposePad : 0);
    auto row = [&](int q) { return kTransposed ? q * (BK / 4) + k4 / 4 : k4 + q; };
#pragma unroll
    for (int q = 0; q < kFragSteps; ++q)
#pragma unroll
      for (int c = 0; c < T / 4; ++c) {
        const float4 v =
            *reinterpret_cast<const float4*>(s + row(q) * kStride + warp_x0 + frag_x<false, kLanes>(c * 4, lane_x));
        f[q][c * 4 + 0] = v.x;
        f[q][c * 4 + 1] = v.y;
        f[q][c * 4 + 2] = v.z;
        f[q][c * 4 + 3] = v.w;
      }
  }
}

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
  q.a = p.a + r * p.lda - shift;
  q.lda = kResidues * p.lda;
  head = kOfM ? shift : 0;
  if constexpr (kOfM) {
    q.m = p.m > r ? (p.m - r + kResidues - 1) / kResidues : 0;
    q.b = p.b - shift * p.ldb;
    q.k = p.k + shift;
  } else {
    q.m = p.m + shift;
    q.b = p.b + r * p.ldb;
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

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // Launched as a programmatic dependent of the kernel before it (an operand repack or the caller's
  // last kernel; GemmParams::after_previous_kernel): wait for its completion and memory before
  // anything is read or written. Without a prerequisite grid this returns at once.
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
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
  LoaderA loader_a(p.a, p.lda, m0, p.m, k_end, tid, head);
  LoaderB loader_b(p.b, p.ldb, n0, p.n, k_end, tid, head);
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
  float* const out = partial != nullptr ? partial : p.c;
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
      float* c_col = p.c + static_cast<int64_t>(n_idx) * p.ldc;
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
      float* const col = p.c + static_cast<int64_t>(n_idx) * p.ldc;
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
        store_scaled(p.c + static_cast<int64_t>(n_idx) * p.ldc + m_idx, acc[i][j], p.alpha, p.beta);
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

/// Launches `kernel`, an instance of configuration `c`, over `tiles` output tiles x p.splits blocks:
/// raises its dynamic shared-memory limit once per device (`configured`: the caller's bit set of
/// devices done for this kernel), and adds the attributes the parameters ask for: an L2 access
/// policy window when they name a streamed operand, a programmatic dependent launch when they say
/// a kernel precedes this one in the stream (p.after_previous_kernel). `args` are the kernel's
/// arguments.
template <class... Params, class... Args>
cudaError_t launch_gemm_kernel(void (*kernel)(Params...), const KernelConfig& c, int tiles, const GemmParams& p,
                               std::atomic<unsigned long long>& configured, cudaStream_t stream, Args&&... args) {
  const int smem = c.shared_bytes();
  if (smem > 48 * 1024) {
    int device = 0;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
    const unsigned long long bit = 1ull << (device & 63);
    if ((configured.load(std::memory_order_acquire) & bit) == 0) {
      if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
          e != cudaSuccess)
        return e;
      configured.fetch_or(bit, std::memory_order_acq_rel);
    }
  }
  return KernelLaunch(dim3(tiles, 1, p.splits), dim3(c.threads()), stream, smem)
      .streaming_window(p.stream_window, p.stream_window_bytes)
      .after_previous_kernel(p.after_previous_kernel)
      .launch(kernel, std::forward<Args>(args)...);
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
