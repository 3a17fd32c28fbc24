// Tensor maps for the TMA instances (simt_sgemm_tma.cuh): the driver's description of a global
// matrix and of the box one bulk copy moves. Encoded on the host for each launch.
#pragma once

#include <cuda.h>  // CUtensorMap (a type only: the encoder is reached through the runtime)
#include <cuda_runtime_api.h>

#include <cstdint>

namespace autogemm::detail {

/// Encodes `map` for an X-major operand: x_extent x k floats, x contiguous, columns `ld` floats
/// apart (a multiple of 4 from a 16-byte aligned base, as TMA requires), boxes of box_x x box_k
/// floats landing densely in shared memory (box_k rows of box_x), elements outside the matrix read
/// as zeros. A K-major operand is the same description with the roles swapped: x_extent is its K
/// (the contiguous extent) and k its columns. cudaErrorInvalidValue when the driver rejects it.
cudaError_t encode_x_major_tile_map(CUtensorMap* map, const float* base, int64_t x_extent, int64_t k, int64_t ld,
                                    int box_x, int box_k);

}  // namespace autogemm::detail
