// The copy kernel of the padded, aligned operands (realigned.hpp): one launch copies a matrix into
// a larger one and writes zeros in the rows and columns it adds, so the buffer needs no memset first
// (one launch and one pass over the copy fewer: 127x3001x1531 BF16 26.8-28.6 us on the H100 against
// 37.5-39.7 with a memset and cudaMemcpy2DAsync).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace autogemm {

/// dst (dst_rows x dst_cols, column-major, leading dimension dst_ld) = src (rows x cols, src_ld) in
/// its top-left corner and zeros elsewhere; elements of `element_bytes` (2 or 4). dst_rows >= rows,
/// dst_cols >= cols. Writes 16 bytes per thread where dst is 16-byte aligned with a leading
/// dimension of a multiple of 16 bytes (the copies the realignment buffer holds), else element-wise.
cudaError_t launch_pad_copy(void* dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols, const void* src,
                            int64_t src_ld, int64_t rows, int64_t cols, int element_bytes, cudaStream_t stream);

}  // namespace autogemm
