// The SIMT GEMM main loop's building blocks, shared by the multistage and TMA kernels: the
// L2-grouped order of output tiles, where a lane's fragment elements sit, the float4 fragment reads
// of a k-step group from shared memory, and the serpentine FFMA order of one k-step's outer product.
#pragma once

#include <cuda_runtime.h>

#include "kernel_config.hpp"

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

}  // namespace autogemm::detail
