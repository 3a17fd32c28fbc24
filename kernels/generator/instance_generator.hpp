// Turns the kernel grid into source files: N instantiation groups (so the build runs in parallel)
// and one registry file. Pure function of its inputs, so tests can check its output without nvcc.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kernel_config.hpp"

namespace autogemm::generator {

struct GeneratorOptions {
  int groups = 16;            // number of instantiation files; a fixed number keeps CMake's outputs known
  std::string name_filter;    // ECMAScript regex searched in each instance name; empty keeps all
  bool tma_instances = true;  // the kTma instances (sm_90a only: a build without that target drops them)
  // Instantiation files of the kWgmma instances ("wgmma_instances_00.cu" ...), which include
  // CUTLASS; 0 drops them (a build without sm_90a or without CUTLASS's headers).
  int wgmma_groups = 0;
  // Instantiation files of the wgmma instances of FP32 operands ("wgmma_tf32_instances_00.cu" ...):
  // at least 1 where wgmma_groups is not 0.
  int wgmma_tf32_groups = 4;
};

/// File name -> contents: "instances_00.cu" ..., "wgmma_instances_00.cu" ...,
/// "wgmma_tf32_instances_00.cu" ... and "registry.cpp".
/// Throws std::invalid_argument on a bad option (bad regex, groups < 1).
std::map<std::string, std::string> generate_sources(const std::vector<KernelConfig>& grid,
                                                    const GeneratorOptions& options);

/// The instances of `grid` that `name_filter` keeps, in grid order.
std::vector<KernelConfig> filter_grid(const std::vector<KernelConfig>& grid, const std::string& name_filter);

}  // namespace autogemm::generator
