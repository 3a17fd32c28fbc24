// The host launch every tiled GEMM kernel shares (the multistage and TMA families): the dynamic
// shared-memory limit raised once per device, the L2 streaming window and the programmatic
// dependent launch the parameters ask for.
#pragma once

#include <atomic>
#include <utility>

#include <cuda_runtime.h>

#include "gemm_params.hpp"
#include "kernel_config.hpp"
#include "launch_config.hpp"

namespace autogemm::detail {

/// Launches `kernel`, an instance of configuration `c`, over `tiles` output tiles x p.splits blocks:
/// raises its dynamic shared-memory limit once per device (`configured`: the caller's bit set of
/// devices done for this kernel), and adds the attributes the parameters ask for: an L2 access
/// policy window when they name a streamed operand, a programmatic dependent launch when they say
/// a kernel precedes this one in the stream (p.after_previous_kernel). `args` are the kernel's
/// arguments.
template <class... Params, class... Args>
cudaError_t launch_gemm_kernel(void (*kernel)(Params...), const KernelConfig& c, int tiles, const GemmParams& p,
                               std::atomic<unsigned long long>& configured, cudaStream_t stream, Args&&... args) {
  const int smem = c.shared_bytes();
  if (smem > 48 * 1024) {
    int device = 0;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
    const unsigned long long bit = 1ull << (device & 63);
    if ((configured.load(std::memory_order_acquire) & bit) == 0) {
      if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
          e != cudaSuccess)
        return e;
      configured.fetch_or(bit, std::memory_order_acq_rel);
    }
  }
  return KernelLaunch(dim3(tiles, 1, p.splits), dim3(c.threads()), stream, smem)
      .streaming_window(p.stream_window, p.stream_window_bytes)
      .after_previous_kernel(p.after_previous_kernel)
      .launch(kernel, std::forward<Args>(args)...);
}

}  // namespace autogemm::detail
