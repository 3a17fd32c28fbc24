// require_gpu: the one clear line a GPU subcommand prints on a machine without a usable GPU, saying
// which of the three it is: no driver at all, a driver too old for this build, or no device.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "commands.hpp"

namespace autogemm::cli {
namespace {

std::string cuda_version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace

bool require_gpu(const char* command) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaSuccess && count > 0) return true;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);  // 0 when no driver is installed
  cudaRuntimeGetVersion(&runtime);
  std::string why;
  if (driver == 0)
    why = "no NVIDIA driver is installed (libcuda.so.1 not found): this machine has no usable GPU";
  else if (e == cudaErrorInsufficientDriver)
    why = "the NVIDIA driver supports CUDA " + cuda_version(driver) + ", this build needs CUDA " + cuda_version(runtime);
  else if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
    why = "the NVIDIA driver (CUDA " + cuda_version(driver) + ") sees no CUDA device";
  else
    why = cudaGetErrorString(e);
  cudaGetLastError();
  std::fprintf(stderr, "gemm-tune %s: no usable CUDA device: %s\n", command, why.c_str());
  return false;
}

}  // namespace autogemm::cli
