// The split-k reduction of the two-kernel design (background lab: partial sums, then a reduction
// kernel) and the BLAS scale path. Both are bandwidth-bound: one thread per element along M,
// coalesced, grid-stride over the rest.
#include "splitk_reduce.hpp"

#include <algorithm>

#include "device_attribute.hpp"
#include "gemm_params.hpp"

namespace autogemm {
namespace {

__global__ void splitk_reduce_kernel(const float* __restrict__ partials, int splits, int m, int n, float alpha,
                                     float beta, float* __restrict__ c, int64_t ldc) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // Launched as a programmatic dependent of the GEMM (launch_splitk_reduce): it may start while the
  // GEMM's last blocks run; wait here until the GEMM has finished and its partials are visible.
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  const int64_t total = static_cast<int64_t>(m) * n;
  const int64_t ldp = partial_ld(m), split_stride = ldp * n;
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t i = idx % m, j = idx / m;
    const float* column = partials + j * ldp + i;
    float sum = 0.0f;
    for (int s = 0; s < splits; ++s) sum += column[s * split_stride];
    store_scaled(c + j * ldc + i, sum, alpha, beta);
  }
}

__global__ void scale_c_kernel(int m, int n, float beta, float* __restrict__ c, int64_t ldc) {
  const int64_t total = static_cast<int64_t>(m) * n;
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float* out = c + (idx / m) * ldc + idx % m;
    *out = beta == 0.0f ? 0.0f : beta * *out;
  }
}

dim3 elementwise_grid(int m, int n) {
  const int64_t total = static_cast<int64_t>(m) * n;
  return dim3(static_cast<unsigned>(std::min<int64_t>((total + 255) / 256, 65535)));
}

}  // namespace

cudaError_t launch_splitk_reduce(const float* partials, int splits, int m, int n, float alpha, float beta, float* c,
                                 int64_t ldc, cudaStream_t stream) {
  // Programmatic dependent launch (sm_90+ only): the reduction's launch overlaps the
  // GEMM's tail instead of following its completion; griddepcontrol.wait in the kernel keeps the
  // result exact. docs/perf_notes.md, change 11.
  cudaLaunchConfig_t config{};
  config.gridDim = elementwise_grid(m, n);
  config.blockDim = dim3(256);
  config.stream = stream;
  cudaLaunchAttribute attribute = programmatic_dependent_attribute();
  config.attrs = &attribute;
  config.numAttrs = programmatic_launch_enabled() ? 1 : 0;
  return cudaLaunchKernelEx(&config, splitk_reduce_kernel, partials, splits, m, n, alpha, beta, c, ldc);
}

cudaError_t launch_scale_c(int m, int n, float beta, float* c, int64_t ldc, cudaStream_t stream) {
  scale_c_kernel<<<elementwise_grid(m, n), 256, 0, stream>>>(m, n, beta, c, ldc);
  return cudaGetLastError();
}

}  // namespace autogemm
