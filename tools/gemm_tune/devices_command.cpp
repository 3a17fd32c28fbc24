// gemm-tune devices: the GPUs of this machine with the figures the tuning database keys on.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "commands.hpp"

namespace autogemm::cli {

Command add_devices_command(CLI::App& app) {
  auto* sub = app.add_subcommand("devices", "List the CUDA devices of this machine");
  return {sub, []() -> int {
    if (!require_gpu("devices")) return 1;
    int count = 0, driver = 0, runtime = 0;
    cudaGetDeviceCount(&count);
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    std::printf("driver API %d, runtime %d\n", driver, runtime);
    for (int d = 0; d < count; ++d) {
      cudaDeviceProp p{};
      if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
      std::printf("%d: %s  sm_%d%d  %d SMs  %.1f GiB  L2 %d MiB\n", d, p.name, p.major, p.minor, p.multiProcessorCount,
                  p.totalGlobalMem / double(1 << 30), p.l2CacheSize >> 20);
    }
    return 0;
  }};
}

}  // namespace autogemm::cli
