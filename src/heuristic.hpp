// The untuned choice: rank every instance that can implement the problem with the cost model, using
// the occupancy the device reports for each, and take the cheapest. Never a naive kernel.
#pragma once

#include <functional>

#include "cost_model.hpp"
#include "operation.hpp"

namespace autogemm {

struct KernelChoice {
  const KernelInstance* kernel = nullptr;
  SplitChoice split;
  double estimate_us = 0.0;        // the cost model's estimate (0 for tuned choices)
  const char* source = "fallback";  // "tuned" (from a database) or "fallback" (cost model)
};

/// `occupancy(index)` returns the blocks per SM of registry entry `index` (0 = cannot run).
/// Returns a choice with kernel == nullptr when no compiled instance can implement the problem.
KernelChoice choose_heuristic(const GemmProblem& problem, const DeviceLimits& limits, const DeviceModel& model,
                              const std::function<int(size_t)>& occupancy);

/// Blocks per SM the device grants `kernel` (raises its dynamic shared-memory limit first).
/// Must be called with the kernel's device current.
int query_occupancy(const KernelInstance& kernel);

}  // namespace autogemm
