// The launch shape of the helper kernels that walk a matrix element by element with a grid-stride
// loop (the split-k reductions, the operand re-pitch): 256-thread blocks, one element per thread up
// to 65535 blocks, beyond which each thread strides over more.
#pragma once

#include <algorithm>
#include <cstdint>

namespace autogemm {

inline constexpr int kElementwiseThreads = 256;

/// Blocks of kElementwiseThreads for `elements` work items.
inline unsigned elementwise_blocks(int64_t elements) {
  return static_cast<unsigned>(std::min<int64_t>((elements + kElementwiseThreads - 1) / kElementwiseThreads, 65535));
}

}  // namespace autogemm
