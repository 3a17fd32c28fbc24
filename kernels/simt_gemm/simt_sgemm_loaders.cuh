// The multistage SIMT GEMM's global->shared copies of one operand tile per pipeline stage: plain
// cp.async copies (X-major or K-major, zero-filled at the edges), copies that transpose a K-major tile
// element by element (scalar class), and copies that transpose it through registers (aligned class).
#pragma once

#include <cstdint>

#include "cp_async.cuh"
#include "kernel_config.hpp"
#include "simt_sgemm_mainloop.cuh"

namespace autogemm::detail {

/// Whether the copies of the BK slice at k0 must be cut to the bytes they copy (cp_async_vec_cut):
/// only the slice that holds k_end - 1. A copy cut by the end of X or K addresses up to 16 bytes
/// from its first element; everywhere else those bytes lie inside the operand (the rest of its
/// column, up to ld with ld a multiple of 4 and a 16-byte aligned base, and the columns after it),
/// and only the operand's last column may end where its allocation does. Its copies are in this
/// split's last slice (X-major: its last k; K-major: the last k of every row, partial only there),
/// so the other slices keep one copy per vector: cutting every slice's vectors made 127x3001x1531's
/// residue instances 7-10% slower on the H100 (41.1 -> 45.2 us).
template <int BK>
__device__ __forceinline__ bool cuts_last_column(int k0, int k_end) {
  return k0 + BK >= k_end;
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
    float* dst = s + row * kRowStride + col;
    if (!kInterior && cuts_last_column<BK>(k0, k_end)) {
      cp_async_vec_cut<V>(dst, elem, g, valid * 4);
    } else {
      // The substitute address is never read (src size 0) but must still be a valid global address.
      cp_async_vec<V>(dst, valid > 0 ? elem : g, valid * 4);
    }
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
        if (!cuts_last_column<BK>(k0, k_end_)) {  // (the slice of the last column takes the edge path)
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
      if (cuts_last_column<BK>(k0, k_end_)) {
#pragma unroll
        for (int it = 0; it < kIters; ++it) {
          const int n = it < live && it >= dead ? bytes : 0;
          cp_async_vec_cut<V>(dst + it * kRowStep * kRowStride, src, g_, n);
          src += row_step_;
        }
        return;
      }
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

}  // namespace autogemm::detail
