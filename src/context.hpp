// autogemmContext: what a handle holds — its device and limits, stream, per-instance occupancy, the
// cache of choices per problem key, and the split-k workspace (grown, never allocated per call).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "autogemm/autogemm.h"
#include "cost_model.hpp"
#include "heuristic.hpp"
#include "operation.hpp"
#include "tuning_db.hpp"

namespace autogemm {

/// The key a choice is cached and tuned under (the device is the handle's).
struct ProblemKey {
  Op op_a, op_b;
  int m, n, k, align;
  bool operator==(const ProblemKey&) const = default;
};

struct ProblemKeyHash {
  size_t operator()(const ProblemKey& key) const noexcept;
};

/// Makes `device` current for the scope and restores the caller's device after.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
  bool switched_ = false;
};

}  // namespace autogemm

struct autogemmContext {
  static constexpr uint64_t kMagic = 0x6175746f67656d6dull;  // "autogemm": tells a live handle from garbage
  uint64_t magic = kMagic;
  int device = 0;
  autogemm::DeviceLimits limits;
  autogemm::DeviceModel model;
  autogemm::db::DeviceSignature signature;  // what tuned entries are keyed on
  cudaStream_t stream = nullptr;

  std::mutex mutex;  // guards everything below
  std::vector<int> occupancy;  // per registry index; -1 = not queried yet
  std::unordered_map<autogemm::ProblemKey, autogemm::KernelChoice, autogemm::ProblemKeyHash> choices;
  float* partials = nullptr;
  size_t partial_bytes = 0;
  int* semaphores = nullptr;
  size_t semaphore_count = 0;

  explicit autogemmContext(int dev);
  ~autogemmContext();

  /// The choice for `problem`, cached per key: a tuned entry from the databases when one exists for
  /// this device signature (unless AUTOGEMM_MODE=heuristic), else the cost model's pick.
  /// Throws StatusError(NOT_SUPPORTED) when no compiled kernel implements the problem.
  autogemm::KernelChoice choose(const autogemm::GemmProblem& problem);
  /// The tuned entry for `problem`, or an empty choice.
  autogemm::KernelChoice tuned_choice(const autogemm::GemmProblem& problem, int align);
  /// A workspace of at least `needs`, grown on this handle's stream when too small.
  autogemm::Workspace workspace(const autogemm::WorkspaceNeeds& needs);
};
