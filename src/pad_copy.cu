// See pad_copy.hpp.
#include "pad_copy.hpp"

#include <algorithm>

#include "grid_dependency.cuh"

namespace autogemm {
namespace {

constexpr int kThreads = 256;

// Each thread writes 16 bytes of one column of dst (kPer elements of T, from row i0), reading them
// from src one by one (src may have any pitch and alignment), zeros past src's rows or columns;
// blockIdx.y walks the columns. dst's leading dimension is a multiple of 16 bytes and its base
// 16-byte aligned (the realignment buffer's copies), so the store is one vector where the column
// holds all kPer rows.
template <class T>
__global__ void pad_copy_kernel(T* __restrict__ dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols,
                                const T* __restrict__ src, int64_t src_ld, int64_t rows, int64_t cols, bool vector) {
  constexpr int kPer = 16 / sizeof(T);
  // Launched as a programmatic dependent of the kernel before it (the caller's, or the GEMM whose C
  // it copies back): nothing is read before that kernel has finished.
  wait_for_previous_grid();
  const int64_t i0 = (blockIdx.x * int64_t{kThreads} + threadIdx.x) * kPer;
  if (i0 >= dst_rows) return;
  for (int64_t j = blockIdx.y; j < dst_cols; j += gridDim.y) {
    alignas(16) T v[kPer];
#pragma unroll
    for (int e = 0; e < kPer; ++e) v[e] = i0 + e < rows && j < cols ? src[i0 + e + j * src_ld] : T{0};
    T* out = dst + i0 + j * dst_ld;
    if (vector && i0 + kPer <= dst_rows) {
      *reinterpret_cast<uint4*>(out) = *reinterpret_cast<const uint4*>(v);
    } else {
      for (int e = 0; e < kPer && i0 + e < dst_rows; ++e) out[e] = v[e];
    }
  }
}

template <class T>
cudaError_t launch(void* dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols, const void* src, int64_t src_ld,
                   int64_t rows, int64_t cols, cudaStream_t stream) {
  if (dst_rows == 0 || dst_cols == 0) return cudaSuccess;
  constexpr int kPer = 16 / sizeof(T);
  const bool vector = reinterpret_cast<uintptr_t>(dst) % 16 == 0 && dst_ld % kPer == 0;
  const dim3 grid(static_cast<unsigned>((dst_rows + int64_t{kThreads} * kPer - 1) / (int64_t{kThreads} * kPer)),
                  static_cast<unsigned>(std::min<int64_t>(dst_cols, 65535)));
  return dependent_launch(grid, dim3(kThreads), stream)
      .launch(pad_copy_kernel<T>, static_cast<T*>(dst), dst_ld, dst_rows, dst_cols, static_cast<const T*>(src), src_ld,
              rows, cols, vector);
}

}  // namespace

cudaError_t launch_pad_copy(void* dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols, const void* src,
                            int64_t src_ld, int64_t rows, int64_t cols, int element_bytes, cudaStream_t stream) {
  if (element_bytes == 2) return launch<uint16_t>(dst, dst_ld, dst_rows, dst_cols, src, src_ld, rows, cols, stream);
  if (element_bytes == 4) return launch<uint32_t>(dst, dst_ld, dst_rows, dst_cols, src, src_ld, rows, cols, stream);
  return cudaErrorInvalidValue;
}

}  // namespace autogemm
