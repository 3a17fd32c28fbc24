// The untuned choice: rank every instance that can implement the problem with the cost model, using
// the occupancy the device reports for each, and take the cheapest. Never a naive kernel.
#pragma once

#include <functional>
#include <vector>

#include "cost_model.hpp"
#include "operation.hpp"

namespace autogemm {

struct KernelChoice {
  const KernelInstance* kernel = nullptr;
  SplitChoice split;
  double estimate_us = 0.0;        // the cost model's estimate (untuned), or the measured median (tuned, online)
  const char* source = "untuned";  // "tuned" (a database), "untuned" (cost model) or "online"
};

/// Every (instance, split-k) pair that can implement the problem, by the cost model's estimate,
/// cheapest first. `occupancy(index)` returns the blocks per SM of registry entry `index`
/// (0 = cannot run). Empty when no compiled instance can implement the problem. With
/// RepackPolicy::kAllowed (the untuned choice's) also the instances that read repacked operands,
/// their copies in the estimate. The model prices no K-major copy path but the TMA instance's
/// transposition, so an instance of the problem's own layout prices at most its X-major twin, and
/// the copies win only where no twin runs as fast: the TMA instances, which have no `tn`/`tt` form
/// and whose `nn` form pays for its transposition. Neighbours'
/// measurements make other repacks win (rank_with_neighbours).
std::vector<KernelChoice> rank_untuned(const GemmProblem& problem, const DeviceLimits& limits,
                                         const DeviceModel& model, const std::function<int(size_t)>& occupancy,
                                         RepackPolicy repack = RepackPolicy::kAllowed);

/// The front of rank_untuned; kernel == nullptr when nothing implements the problem.
KernelChoice choose_untuned(const GemmProblem& problem, const DeviceLimits& limits, const DeviceModel& model,
                              const std::function<int(size_t)>& occupancy);

/// Sorts choices by estimate, cheapest first; of those priced alike, fewer blocks per cluster first,
/// then registry order.
void sort_by_estimate(std::vector<KernelChoice>& choices);

/// Blocks per SM the device grants `kernel` (raises its dynamic shared-memory limit first); 0 also
/// for an instance of thread-block clusters none of which the device can co-schedule
/// (query_active_clusters). Must be called with the kernel's device current.
int query_occupancy(const KernelInstance& kernel);

/// Clusters of `kernel` the device runs at once (cudaOccupancyMaxActiveClusters, at the instance's
/// cluster shape, threads and shared memory), or -1 for an instance launched without clusters.
/// Must be called with the kernel's device current.
int query_active_clusters(const KernelInstance& kernel);

/// Local memory per thread of `kernel` on the current device (register spills, stack), 0 when it
/// cannot be read.
size_t query_local_bytes(const KernelInstance& kernel);

}  // namespace autogemm
