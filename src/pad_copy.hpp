// The copy kernel of the padded, aligned operands (realigned.hpp): one launch copies up to three
// matrices into larger ones and writes zeros in the rows and columns it adds, so the buffer needs no
// memset first (one launch and one pass over the copy fewer: 127x3001x1531 BF16 26.8-28.6 us on the
// H100 against 37.5-39.7 with a memset and cudaMemcpy2DAsync), and a call's A, B and C of one element
// size take one launch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace autogemm {

/// One matrix to copy: dst (dst_rows x dst_cols, column-major, leading dimension dst_ld) = src
/// (rows x cols, src_ld) in its top-left corner and zeros elsewhere. dst_rows >= rows, dst_cols >= cols.
struct PadCopy {
  void* dst = nullptr;
  int64_t dst_ld = 0, dst_rows = 0, dst_cols = 0;
  const void* src = nullptr;
  int64_t src_ld = 0, rows = 0, cols = 0;
};
constexpr int kMaxPadCopies = 3;  // A, B and C of one call

/// Up to kMaxPadCopies copies of elements of `element_bytes` (2 or 4) in one launch. Writes 16 bytes
/// per thread where dst is 16-byte aligned with a leading dimension of a multiple of 16 bytes (the
/// copies the realignment buffer holds), else element-wise.
cudaError_t launch_pad_copies(const PadCopy* copies, int count, int element_bytes, cudaStream_t stream);
/// One copy (launch_pad_copies of one).
cudaError_t launch_pad_copy(void* dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols, const void* src,
                            int64_t src_ld, int64_t rows, int64_t cols, int element_bytes, cudaStream_t stream);

}  // namespace autogemm
