// autogemmContext: what a handle holds — its device and limits, stream, per-instance occupancy, the
// cache of choices per problem key, and the launch workspace (grown, never allocated per call).
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
#include "runtime_mode.hpp"
#include "tuning_db.hpp"
#include "workspace.hpp"

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
  /// Bytes at the start of a user workspace reserved for serial split-k counters (serial split-k
  /// is only chosen when the output tiles are fewer than the SMs, so 4096 counters are plenty).
  static constexpr size_t kUserWorkspaceHead = 16 * 1024;

  static constexpr uint64_t kMagic = 0x6175746f67656d6dull;  // "autogemm": tells a live handle from garbage
  uint64_t magic = kMagic;
  int device = 0;
  autogemm::DeviceLimits limits;
  autogemm::DeviceModel model;
  autogemm::db::DeviceSignature signature;  // what tuned entries are keyed on
  cudaStream_t stream = nullptr;

  std::mutex mutex;  // guards everything below
  // Settings, from the environment at creation, changed by the autogemmSet* calls.
  autogemm::RuntimeMode mode = autogemm::RuntimeMode::kTuned;
  std::vector<std::string> db_paths;  // searched in order
  bool db_paths_explicit = false;     // named by the user: a missing file is warned about
  std::string record_untuned_path;    // empty: off
  double online_budget_ms = 500;      // AUTOGEMM_ONLINE_BUDGET_MS / autogemmSetOnlineBudget
  void* user_workspace = nullptr;     // set by autogemmSetWorkspace; used instead of growing our own
  size_t user_workspace_bytes = 0;
  std::vector<int> occupancy;  // per registry index; -1 = not queried yet
  std::unordered_map<autogemm::ProblemKey, autogemm::KernelChoice, autogemm::ProblemKeyHash> choices;
  autogemm::GrowingWorkspace own_workspace;  // used unless the user set one

  explicit autogemmContext(int dev);
  ~autogemmContext();

  /// The choice for `problem`, cached per key: a tuned entry from the databases when one exists for
  /// this device signature (unless AUTOGEMM_MODE=heuristic), else in online mode a choice measured
  /// now (outside stream capture), else the cost model's pick.
  /// Throws StatusError(NOT_SUPPORTED) when no compiled kernel implements the problem.
  autogemm::KernelChoice choose(const autogemm::GemmProblem& problem);
  /// The tuned entry for `problem`, or an empty choice.
  autogemm::KernelChoice tuned_choice(const autogemm::GemmProblem& problem, int align);
  /// The candidates for an untuned problem, best first: the cost model calibrated by tuned
  /// neighbours (heuristic mode: the plain cost model, which never repacks). With a caller's
  /// workspace, candidates whose repacked operands would not fit it are left out.
  std::vector<autogemm::KernelChoice> fallback_ranking(const autogemm::GemmProblem& problem, int align);
  /// The front of fallback_ranking.
  autogemm::KernelChoice fallback_choice(const autogemm::GemmProblem& problem, int align);
  /// Online mode: measures the leading fallback candidates on the caller's data, stores them in the
  /// first database of the search path, and returns the fastest (the fallback's choice when
  /// tuning fails). Synchronises the handle's stream.
  autogemm::KernelChoice online_choice(const autogemm::GemmProblem& problem, int align);
  /// Forgets cached choices (after a settings change).
  void clear_choices();
  /// A workspace of at least `needs`, grown on this handle's stream when too small (a caller's buffer
  /// too small for a streamed tail's optional part gives a workspace without it).
  autogemm::Workspace workspace(autogemm::WorkspaceNeeds needs);
  /// Bytes of the user workspace (autogemmSetWorkspace) that `needs` takes: the counters' head, the
  /// partial sums, then the repacked operands from the next 256-byte boundary of the address (the
  /// layout workspace() hands out). Call with a user workspace set and the mutex held.
  size_t user_workspace_need(const autogemm::WorkspaceNeeds& needs) const;
  /// Where the repacked operands start in the user workspace: see user_workspace_need.
  size_t user_repack_offset(size_t partial_bytes) const;
  /// False when `needs` repacks operands and a user workspace is set that cannot hold them (such a
  /// choice is passed over, tuned or not). Call with the mutex held.
  bool repack_fits(const autogemm::WorkspaceNeeds& needs) const;
};
