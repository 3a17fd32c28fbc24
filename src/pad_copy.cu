// See pad_copy.hpp.
#include "pad_copy.hpp"

#include <algorithm>

namespace autogemm {
namespace {

// One element per thread per step, consecutive threads along the contiguous rows, so the reads of
// a column and the writes of its copy are coalesced.
template <class T>
__global__ void pad_copy_kernel(T* __restrict__ dst, int64_t dst_ld, int64_t dst_rows, int64_t total,
                                const T* __restrict__ src, int64_t src_ld, int64_t rows, int64_t cols) {
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < total;
       idx += int64_t{gridDim.x} * blockDim.x) {
    const int64_t i = idx % dst_rows, j = idx / dst_rows;
    dst[i + j * dst_ld] = i < rows && j < cols ? src[i + j * src_ld] : T{0};
  }
}

template <class T>
cudaError_t launch(void* dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols, const void* src, int64_t src_ld,
                   int64_t rows, int64_t cols, cudaStream_t stream) {
  const int64_t total = dst_rows * dst_cols;
  if (total == 0) return cudaSuccess;
  constexpr int kThreads = 256;
  // Enough blocks for every SM several times over; the loop covers the rest.
  const int64_t blocks = std::min<int64_t>((total + kThreads - 1) / kThreads, 132 * 16);
  pad_copy_kernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<T*>(dst), dst_ld, dst_rows, total, static_cast<const T*>(src), src_ld, rows, cols);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_pad_copy(void* dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols, const void* src,
                            int64_t src_ld, int64_t rows, int64_t cols, int element_bytes, cudaStream_t stream) {
  if (element_bytes == 2) return launch<uint16_t>(dst, dst_ld, dst_rows, dst_cols, src, src_ld, rows, cols, stream);
  if (element_bytes == 4) return launch<uint32_t>(dst, dst_ld, dst_rows, dst_cols, src, src_ld, rows, cols, stream);
  return cudaErrorInvalidValue;
}

}  // namespace autogemm
