// See heuristic.hpp.
#include "heuristic.hpp"

#include "status.hpp"

namespace autogemm {

int query_occupancy(const KernelInstance& kernel) {
  AUTOGEMM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kernel.shared_bytes()));
  int blocks = 0;
  AUTOGEMM_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.kernel, kernel.threads(), kernel.shared_bytes()));
  return blocks;
}

KernelChoice choose_heuristic(const GemmProblem& problem, const DeviceLimits& limits, const DeviceModel& model,
                              const std::function<int(size_t)>& occupancy) {
  KernelChoice best;
  const auto& registry = kernel_registry();
  for (size_t i = 0; i < registry.size(); ++i) {
    const KernelInstance& kernel = registry[i];
    if (!can_implement(kernel, problem, limits)) continue;
    const int occ = occupancy(i);
    if (occ <= 0) continue;  // registers or shared memory do not fit on this device
    for (const SplitChoice split : split_candidates(kernel.config, problem.m, problem.n, problem.k, limits.sm_count)) {
      const double t = estimate_us(kernel.config, occ, problem.m, problem.n, problem.k, split, model);
      if (best.kernel == nullptr || t < best.estimate_us) best = {&kernel, split, t};
    }
  }
  return best;
}

}  // namespace autogemm
