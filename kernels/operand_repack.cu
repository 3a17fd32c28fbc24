// See operand_repack.hpp. The re-pitching copy is a plain element-wise copy. The transpose is a
// shared-memory tile transpose: each tile is kTileRows elements of src's contiguous dimension by
// kTileCols of the other, read as runs of kTileRows consecutive floats (a warp reads 512 contiguous
// bytes of each column) and written along the rows of dst in runs of kTileCols; the tile is padded
// by one element so that the column-wise shared reads hit 32 different banks. On the H100 after the
// benchmark's memset flush, with random data, this shape moves 2.1-2.5 TB/s against 1.7-1.8 for a
// 32 x 32 tile (tools/experiments/transpose_variants.cu, docs/perf_notes.md experiment 111).
#include "operand_repack.hpp"

#include <algorithm>

#include "elementwise_grid.hpp"

namespace autogemm {
namespace {

constexpr int kTileRows = 128, kTileCols = 32, kWarpLanes = 32, kWarpsPerBlock = 8;

__global__ void __launch_bounds__(kWarpLanes* kWarpsPerBlock)
    transpose_kernel(const float* __restrict__ src, int64_t lds, int rows, int cols, float* __restrict__ dst,
                     int64_t ldd) {
  __shared__ float tile[kTileCols][kTileRows + 1];  // tile[column][row] of the src tile
  const int r0 = blockIdx.x * kTileRows;
  // gridDim.y is capped at 65535: walk the columns in steps of the grid.
  for (int c0 = blockIdx.y * kTileCols; c0 < cols; c0 += gridDim.y * kTileCols) {
    for (int dc = threadIdx.y; dc < kTileCols; dc += kWarpsPerBlock)
      for (int dr = threadIdx.x; dr < kTileRows; dr += kWarpLanes) {
        const int r = r0 + dr, c = c0 + dc;
        // src is read exactly once: streaming loads keep it from evicting what the GEMM will read.
        if (r < rows && c < cols) tile[dc][dr] = __ldcs(src + r + static_cast<int64_t>(c) * lds);
      }
    __syncthreads();
    for (int dr = threadIdx.y; dr < kTileRows; dr += kWarpsPerBlock)
      for (int dc = threadIdx.x; dc < kTileCols; dc += kWarpLanes) {
        const int c = c0 + dc, r = r0 + dr;
        if (r < rows && c < cols) dst[c + static_cast<int64_t>(r) * ldd] = tile[dc][dr];
      }
    __syncthreads();  // the tile is reused for the next column block
  }
}

// One element per thread, consecutive threads along a column: coalesced on both sides.
__global__ void repitch_kernel(const float* __restrict__ src, int64_t lds, int rows, int64_t total,
                               float* __restrict__ dst, int64_t ldd) {
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t c = idx / rows, r = idx - c * rows;
    dst[c * ldd + r] = __ldcs(src + c * lds + r);
  }
}

}  // namespace

cudaError_t launch_repitch(const float* src, int64_t lds, int rows, int cols, float* dst, int64_t ldd,
                           cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  const int64_t total = static_cast<int64_t>(rows) * cols;
  repitch_kernel<<<elementwise_blocks(total), kElementwiseThreads, 0, stream>>>(src, lds, rows, total, dst, ldd);
  return cudaGetLastError();
}

cudaError_t launch_transpose(const float* src, int64_t lds, int rows, int cols, float* dst, int64_t ldd,
                             cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>((rows + kTileRows - 1) / kTileRows),
                  static_cast<unsigned>(std::min((cols + kTileCols - 1) / kTileCols, 65535)));
  transpose_kernel<<<grid, dim3(kWarpLanes, kWarpsPerBlock), 0, stream>>>(src, lds, rows, cols, dst, ldd);
  return cudaGetLastError();
}

}  // namespace autogemm
