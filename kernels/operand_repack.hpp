// Host launcher of the operand repacking copy: a K-major GEMM operand transposed into an X-major,
// 16-byte aligned buffer, so that a kernel of the faster X-major layout can run the problem
// (operation.hpp, RepackPlan; docs/decisions.md, operand repacking).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace autogemm {

/// dst = src^T: src is rows x cols column-major (leading dimension lds >= rows), dst cols x rows
/// column-major (ldd >= cols). Rows cols..ldd-1 of dst are not written.
cudaError_t launch_transpose(const float* src, int64_t lds, int rows, int cols, float* dst, int64_t ldd,
                             cudaStream_t stream);

/// dst = src with another leading dimension: src is rows x cols column-major (lds >= rows), dst the
/// same matrix at ldd >= rows (an N-major B re-pitched to a multiple of 4, RepackPlan::b_repitch).
cudaError_t launch_repitch(const float* src, int64_t lds, int rows, int cols, float* dst, int64_t ldd,
                           cudaStream_t stream);

}  // namespace autogemm
