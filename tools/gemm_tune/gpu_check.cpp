// require_gpu: the one clear line a GPU subcommand prints on a machine without a usable GPU.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "commands.hpp"

namespace autogemm::cli {

bool require_gpu(const char* command) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::fprintf(stderr, "gemm-tune %s: no usable CUDA device (%s)\n", command,
                 e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
    return false;
  }
  return true;
}

}  // namespace autogemm::cli
