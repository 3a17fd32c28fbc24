// The read flush of L2Flusher (timing.hpp): every thread reads its share of the buffer, so L2 ends up
// holding clean lines of it, nothing of the last run, and no dirty data a later kernel must write back.
#include <cuda_runtime.h>

#include "timing.hpp"

namespace autogemm {
namespace {

__global__ void read_buffer(const float4* p, size_t count, int* sink) {
  float acc = 0.0f;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const float4 v = __ldcg(p + i);
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1.2345e-30f) *sink = 1;  // never true for the buffer's contents; keeps the reads alive
}

}  // namespace

cudaError_t launch_read_flush(const void* buffer, size_t bytes, int* sink, cudaStream_t stream) {
  read_buffer<<<1024, 256, 0, stream>>>(static_cast<const float4*>(buffer), bytes / sizeof(float4), sink);
  return cudaGetLastError();
}

}  // namespace autogemm
