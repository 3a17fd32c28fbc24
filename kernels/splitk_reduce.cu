// The split-k reduction of the two-kernel design (background lab: partial sums, then a reduction
// kernel) and the BLAS scale path. Both are bandwidth-bound: one thread per element along M,
// coalesced, grid-stride over the rest.
#include "splitk_reduce.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

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

// Experiment 77 (AUTOGEMM_EXP_REDUCE4=1): four adjacent rows per thread. Partial columns start
// 16-byte aligned (partial_ld(m) % 4 == 0), so each split is one float4 load; each element gets the
// same additions in the same order as above, so the result is the same bit for bit. Where C's
// columns are not 16-byte aligned (odd ldc), a warp's 128 sums are passed between lanes so that
// each store instruction still writes 32 consecutive elements. The loop runs per warp (every lane
// takes part in the shuffles).
__global__ void splitk_reduce4_kernel(const float4* __restrict__ partials, int splits, int m, int n, float alpha,
                                      float beta, float* __restrict__ c, int64_t ldc) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  const int64_t ldp = partial_ld(m);
  const int64_t total = ldp / 4 * n;  // float4 per split, also one split's stride
  const bool c_vec = ldc % 4 == 0 && (reinterpret_cast<uintptr_t>(c) & 15) == 0;
  const int lane = threadIdx.x % 32;
  for (int64_t base = blockIdx.x * static_cast<int64_t>(blockDim.x) + (threadIdx.x - lane); base < total;
       base += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t idx = base + lane;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (idx < total) {
      const float4* column = partials + idx;
#pragma unroll 4
      for (int s = 0; s < splits; ++s) {
        const float4 v = column[s * total];
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
      }
    }
    if (c_vec) {
      if (idx >= total) continue;
      const int64_t j = idx * 4 / ldp;
      const int i = static_cast<int>(idx * 4 - j * ldp);
      float* out = c + j * ldc + i;
      if (i + 4 <= m) {
        store_scaled4(out, sum, alpha, beta);
      } else {
        const float v[4] = {sum.x, sum.y, sum.z, sum.w};
        for (int r = 0; r < 4 && i + r < m; ++r) store_scaled(out + r, v[r], alpha, beta);
      }
      continue;
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      // Element 32 r + lane of the warp's 128 is component lane % 4 of lane 8 r + lane / 4's sum.
      const int from = 8 * r + lane / 4;
      const float x = __shfl_sync(0xffffffffu, sum.x, from), y = __shfl_sync(0xffffffffu, sum.y, from);
      const float z = __shfl_sync(0xffffffffu, sum.z, from), w = __shfl_sync(0xffffffffu, sum.w, from);
      const int q = lane % 4;
      const float v = q == 0 ? x : q == 1 ? y : q == 2 ? z : w;
      const int64_t flat = base * 4 + 32 * r + lane;  // element of the padded partial layout
      const int64_t j = flat / ldp;
      const int i = static_cast<int>(flat - j * ldp);
      if (j < n && i < m) store_scaled(c + j * ldc + i, v, alpha, beta);
    }
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
  static const bool reduce4 = [] {
    const char* v = std::getenv("AUTOGEMM_EXP_REDUCE4");
    return v != nullptr && std::string_view(v) == "1";
  }();
  // Only where the float4 grid still gives every SM a block of 256 threads: fewer, longer threads
  // would leave SMs idle on small outputs with many splits (128x128x32768: 16 blocks).
  const int64_t rows4_total = partial_ld(m) / 4 * n;
  if (reduce4 && rows4_total >= int64_t{256} * current_device_attribute<cudaDevAttrMultiProcessorCount>()) {
    config.gridDim = elementwise_grid(static_cast<int>(partial_ld(m) / 4), n);
    return cudaLaunchKernelEx(&config, splitk_reduce4_kernel, reinterpret_cast<const float4*>(partials), splits, m, n,
                              alpha, beta, c, ldc);
  }
  return cudaLaunchKernelEx(&config, splitk_reduce_kernel, partials, splits, m, n, alpha, beta, c, ldc);
}

cudaError_t launch_scale_c(int m, int n, float beta, float* c, int64_t ldc, cudaStream_t stream) {
  scale_c_kernel<<<elementwise_grid(m, n), 256, 0, stream>>>(m, n, beta, c, ldc);
  return cudaGetLastError();
}

}  // namespace autogemm
