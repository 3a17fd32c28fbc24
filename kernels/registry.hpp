// The registry of compiled kernel instances, filled by generated code (see kernels/generator/).
// The tuner and the runtime reach kernels only through this list and the Operation contract.
#pragma once

#include <cuda_runtime_api.h>

#include <string_view>
#include <vector>

#include "gemm_params.hpp"
#include "kernel_config.hpp"

namespace autogemm {

using LaunchFn = cudaError_t (*)(const GemmParams&, cudaStream_t);

struct KernelInstance {
  KernelConfig config;
  std::string_view name;  // kernel_name(config), the database key
  LaunchFn launch;
  const void* kernel;     // the __global__ function: for cudaFuncGetAttributes and occupancy queries
  // Workspace bytes a launch with these parameters needs beyond the family's own accounting (a
  // wgmma instance's stream-K partials and locks, as CUTLASS sizes them), or nullptr: none.
  size_t (*workspace_bytes)(const GemmParams&) = nullptr;
  int threads() const { return config.threads(); }
  int shared_bytes() const { return config.shared_bytes(); }
};

/// Every instance compiled into this build, in the grid's fixed order.
const std::vector<KernelInstance>& kernel_registry();

/// The instance with this name, or nullptr when this build lacks it.
const KernelInstance* find_kernel(std::string_view name);

/// Fingerprint of the compiled grid (hash of all instance names): rows tuned against another build
/// of the grid are told apart by it.
std::string_view kernel_grid_id();

}  // namespace autogemm
