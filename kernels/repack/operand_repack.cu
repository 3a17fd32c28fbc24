// See operand_repack.hpp. The re-pitching copy is a plain element-wise copy. The transpose is a
// shared-memory tile transpose: each 32 x 32 tile is read along the rows of src (consecutive lanes,
// consecutive addresses) and written along the rows of dst; the tile is padded by one column so that
// the column-wise shared reads hit 32 different banks. On the H100 after the benchmark's L2 flush
// this moves 2.4-2.6 TB/s for 38-180 MB operands.
#include "operand_repack.hpp"

#include <algorithm>

#include "elementwise_grid.hpp"
#include "grid_dependency.cuh"

namespace autogemm {
namespace {

constexpr int kTile = 32, kTileRowsPerPass = 8;

__global__ void __launch_bounds__(kTile* kTileRowsPerPass)
    transpose_kernel(const float* __restrict__ src, int64_t lds, int rows, int cols, float* __restrict__ dst,
                     int64_t ldd) {
  __shared__ float tile[kTile][kTile + 1];  // tile[column][row] of the src tile
  // Each copy is a programmatic dependent of the kernel before it in the stream (the caller's last
  // kernel, or A's copy for B's): its blocks are scheduled while that kernel drains.
  wait_for_previous_grid();
  const int r0 = blockIdx.x * kTile;
  // gridDim.y is capped at 65535: walk the columns in steps of the grid.
  for (int c0 = blockIdx.y * kTile; c0 < cols; c0 += gridDim.y * kTile) {
    for (int dc = threadIdx.y; dc < kTile; dc += kTileRowsPerPass) {
      const int r = r0 + threadIdx.x, c = c0 + dc;
      // src is read exactly once: streaming loads keep it from evicting what the GEMM will read.
      if (r < rows && c < cols) tile[dc][threadIdx.x] = __ldcs(src + r + static_cast<int64_t>(c) * lds);
    }
    __syncthreads();
    for (int dr = threadIdx.y; dr < kTile; dr += kTileRowsPerPass) {
      const int c = c0 + threadIdx.x, r = r0 + dr;
      if (r < rows && c < cols) dst[c + static_cast<int64_t>(r) * ldd] = tile[threadIdx.x][dr];
    }
    __syncthreads();  // the tile is reused for the next column block
  }
}

// x rounded to the nearest TF32 number (10 mantissa bits, ties to even); infinities and NaNs as they are.
__device__ __forceinline__ float tf32_round(float x) {
  const uint32_t u = __float_as_uint(x);
  if ((u & 0x7f800000u) == 0x7f800000u) return x;
  return __uint_as_float((u + 0xfffu + ((u >> 13) & 1u)) & 0xffffe000u);
}

// The 3xTF32 parts of x: hi the nearest TF32 number, lo = x - hi (exact in FP32) rounded to TF32, so
// hi + lo carries 22 of x's 24 significant bits and hi·lo products stay exact in FP32. A finite x
// that rounds to infinity (within half a TF32 ulp of FLT_MAX) keeps hi truncated instead; an
// infinite or NaN x has lo = 0, so the products carry it as one TF32 product would.
__device__ __forceinline__ void tf32_split(float x, float& hi, float& lo) {
  hi = tf32_round(x);
  if (isinf(hi) && !isinf(x)) hi = __uint_as_float(__float_as_uint(x) & 0xffffe000u);
  lo = isfinite(hi) ? tf32_round(x - hi) : 0.0f;
}

// A 64 (k) x 32 (outer) tile of op(X) read along src's contiguous dimension into shared memory,
// eight loads per thread in flight before they land, then written K-contiguous into each of the
// parts' planes of dst, four k per thread as one 16-byte store (dst's rows start 16-byte aligned:
// its leading dimension and k4 are multiples of 4); each warp writes four rows of 128 bytes. The
// tile is padded by one column, so the column-wise shared accesses hit 32 banks. Eight loads in
// flight per thread, not four, keep enough bytes moving per SM: on the H200 (ncu) 127x3001x1531's
// 18 MB A copies in 12.0 us, 3.1 TB/s, against 16.6 in 32 x 32 tiles, and 4096^3's 3xTF32 split
// copies (64 MB read, 192 MB written each) in 70.1 us against 91.1.
constexpr int kCopyTileK = 64;
constexpr int kCopyLoads = kCopyTileK * kTile / (kTile * kTileRowsPerPass);  // per thread

__global__ void __launch_bounds__(kTile* kTileRowsPerPass)
    k_major_copy_kernel(const float* __restrict__ src, int64_t lds, bool k_contiguous, int outer, int dst_outer,
                        int k, int k4, int parts, bool is_b, float* __restrict__ dst, int64_t ldd) {
  __shared__ float tile[kTile][kCopyTileK + 1];  // tile[outer index][k index] of the block's tile
  wait_for_previous_grid();  // as above
  const int k0 = blockIdx.x * kCopyTileK;
  const int tid = threadIdx.y * kTile + threadIdx.x;
  const int row = tid / 8, quad0 = tid % 8;  // the write phase: 32 rows x 16 quads, two quads a thread
  // Load n: a K-contiguous src walks k along the lanes (two 32-wide halves) and rows along
  // threadIdx.y; an outer-contiguous one walks the rows along the lanes and k along threadIdx.y.
  auto tile_k = [&](int n) -> int {
    return k_contiguous ? threadIdx.x + kTile * (n % 2) : threadIdx.y + kTileRowsPerPass * n;
  };
  auto tile_i = [&](int n) -> int { return k_contiguous ? threadIdx.y + kTileRowsPerPass * (n / 2) : threadIdx.x; };
  for (int i0 = blockIdx.y * kTile; i0 < dst_outer; i0 += gridDim.y * kTile) {
    float v[kCopyLoads];
#pragma unroll
    for (int n = 0; n < kCopyLoads; ++n) {
      const int kk = k0 + tile_k(n), i = i0 + tile_i(n);
      const int64_t at = k_contiguous ? kk + static_cast<int64_t>(i) * lds : i + static_cast<int64_t>(kk) * lds;
      // src is read exactly once: streaming loads keep it from evicting what the GEMM will read.
      v[n] = kk < k && i < outer ? __ldcs(src + at) : 0.0f;
    }
#pragma unroll
    for (int n = 0; n < kCopyLoads; ++n) tile[tile_i(n)][tile_k(n)] = v[n];
    __syncthreads();
    const int i = i0 + row;
#pragma unroll
    for (int j = 0; j < kCopyTileK / 32; ++j) {
      const int quad = quad0 + 8 * j, kk = k0 + 4 * quad;
      if (i >= dst_outer || kk >= k4) continue;
      float4 x = make_float4(tile[row][4 * quad], tile[row][4 * quad + 1], tile[row][4 * quad + 2],
                             tile[row][4 * quad + 3]);
      float* out = dst + static_cast<int64_t>(i) * ldd + kk;
      if (parts == 1) {
        *reinterpret_cast<float4*>(out) = x;
      } else {
        float4 hi, lo;
        tf32_split(x.x, hi.x, lo.x);
        tf32_split(x.y, hi.y, lo.y);
        tf32_split(x.z, hi.z, lo.z);
        tf32_split(x.w, hi.w, lo.w);
        // The corrections first (launch_k_major_copy): A's [lo | hi | hi], B's [hi | lo | hi].
        *reinterpret_cast<float4*>(out) = is_b ? hi : lo;
        *reinterpret_cast<float4*>(out + k4) = is_b ? lo : hi;
        *reinterpret_cast<float4*>(out + 2 * k4) = hi;
      }
    }
    __syncthreads();  // the tile is reused for the next outer block
  }
}

// One element per thread, consecutive threads along a column: coalesced on both sides.
__global__ void repitch_kernel(const float* __restrict__ src, int64_t lds, int rows, int64_t total,
                               float* __restrict__ dst, int64_t ldd) {
  wait_for_previous_grid();  // as above
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
  return dependent_launch(dim3(elementwise_blocks(total)), dim3(kElementwiseThreads), stream)
      .launch(repitch_kernel, src, lds, rows, total, dst, ldd);
}

cudaError_t launch_transpose(const float* src, int64_t lds, int rows, int cols, float* dst, int64_t ldd,
                             cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  const dim3 grid(static_cast<unsigned>((rows + kTile - 1) / kTile),
                  static_cast<unsigned>(std::min((cols + kTile - 1) / kTile, 65535)));
  return dependent_launch(grid, dim3(kTile, kTileRowsPerPass), stream)
      .launch(transpose_kernel, src, lds, rows, cols, dst, ldd);
}

cudaError_t launch_k_major_copy(const float* src, int64_t lds, bool k_contiguous, int outer, int dst_outer, int k,
                                int k4, int parts, bool is_b, float* dst, int64_t ldd, cudaStream_t stream) {
  if (dst_outer <= 0 || k4 <= 0) return cudaSuccess;
  if ((parts != 1 && parts != 3) || k4 % 4 != 0 || ldd % 4 != 0 || reinterpret_cast<uintptr_t>(dst) % 16 != 0 ||
      dst_outer < outer)
    return cudaErrorInvalidValue;
  const dim3 grid(static_cast<unsigned>((k4 + kCopyTileK - 1) / kCopyTileK),
                  static_cast<unsigned>(std::min((dst_outer + kTile - 1) / kTile, 65535)));
  return dependent_launch(grid, dim3(kTile, kTileRowsPerPass), stream)
      .launch(k_major_copy_kernel, src, lds, k_contiguous, outer, dst_outer, k, k4, parts, is_b, dst, ldd);
}

}  // namespace autogemm
