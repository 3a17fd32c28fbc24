// See untuned_choice.hpp.
#include "untuned_choice.hpp"

#include <algorithm>

#include "status.hpp"

namespace autogemm {

int query_occupancy(const KernelInstance& kernel) {
  AUTOGEMM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kernel.shared_bytes()));
  int blocks = 0;
  AUTOGEMM_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.kernel, kernel.threads(), kernel.shared_bytes()));
  if (blocks > 0 && query_active_clusters(kernel) == 0) return 0;
  return blocks;
}

int query_active_clusters(const KernelInstance& kernel) {
  const KernelConfig& c = kernel.config;
  if (c.cluster_m * c.cluster_n <= 1) return -1;
  AUTOGEMM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kernel.shared_bytes()));
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = static_cast<unsigned>(c.cluster_m);
  cluster.val.clusterDim.y = static_cast<unsigned>(c.cluster_n);
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(c.cluster_m), static_cast<unsigned>(c.cluster_n), 1);
  config.blockDim = dim3(static_cast<unsigned>(kernel.threads()), 1, 1);
  config.dynamicSmemBytes = static_cast<size_t>(kernel.shared_bytes());
  config.attrs = &cluster;
  config.numAttrs = 1;
  int clusters = 0;
  AUTOGEMM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel.kernel, &config));
  return clusters;
}

size_t query_local_bytes(const KernelInstance& kernel) {
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, kernel.kernel) != cudaSuccess) {
    cudaGetLastError();  // no device, or not this one's code: no answer, and no sticky error
    return 0;
  }
  return attributes.localSizeBytes;
}

/// The cost model prices a 2-block cluster in a single wave as its 1x1 twin, and such pairs ran at
/// 0.86-1.18x the twin's time in the H200 BF16/FP16 table (128x128 cooperative 2x1, 92 pairs;
/// 4096x512x4096 `tn` 34.0 us against 29.1): a tie goes to the launch that needs no pair of SMs
/// scheduled together.
void sort_by_estimate(std::vector<KernelChoice>& choices) {
  auto cluster_blocks = [](const KernelChoice& c) { return c.kernel->config.cluster_m * c.kernel->config.cluster_n; };
  std::stable_sort(choices.begin(), choices.end(), [&](const KernelChoice& a, const KernelChoice& b) {
    if (a.estimate_us != b.estimate_us) return a.estimate_us < b.estimate_us;
    return cluster_blocks(a) < cluster_blocks(b);
  });
}

std::vector<KernelChoice> rank_untuned(const GemmProblem& problem, const DeviceLimits& limits,
                                         const DeviceModel& model, const std::function<int(size_t)>& occupancy,
                                         RepackPolicy repack) {
  std::vector<KernelChoice> ranked;
  const auto& registry = kernel_registry();
  for (size_t i = 0; i < registry.size(); ++i) {
    const KernelInstance& kernel = registry[i];
    if (!can_implement(kernel, problem, limits, repack)) continue;
    const int occ = occupancy(i);
    if (occ <= 0) continue;  // registers or shared memory do not fit on this device
    const double copies = repack_estimate_us(kernel.config, problem, model);
    for (const SplitChoice split : split_candidates(kernel.config, problem.m, problem.n, problem.k, limits.sm_count,
                                                    SplitModes::kParallelOnly))
      ranked.push_back(
          {&kernel, split, copies + estimate_us(kernel.config, occ, problem.m, problem.n, problem.k, split, model)});
  }
  sort_by_estimate(ranked);
  return ranked;
}

KernelChoice choose_untuned(const GemmProblem& problem, const DeviceLimits& limits, const DeviceModel& model,
                              const std::function<int(size_t)>& occupancy) {
  const auto ranked = rank_untuned(problem, limits, model, occupancy);
  return ranked.empty() ? KernelChoice{} : ranked.front();
}

}  // namespace autogemm
