// The experiments' operands: pseudo-random values in [-1, 1) from a hash of the index and a seed,
// written on the device (never zeros: they hide unwritten outputs and can run faster than real data).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

__global__ void fill_uniform(float* x, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
    x[i] = static_cast<float>(h & 0xffffff) / 8388608.0f - 1.0f;  // [-1, 1)
  }
}
