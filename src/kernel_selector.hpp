// Kernel selection for one handle: which instance and split-k run a problem on the handle's device.
// A tuned entry from the databases when one exists for this device signature (unless the mode is
// heuristic), else in online mode a choice measured now (outside stream capture), else the untuned
// choice: the cost model calibrated by tuned neighbours (heuristic mode: the plain cost model).
// Choices are cached per problem key, so a problem is chosen once per handle.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "cost_model.hpp"
#include "untuned_choice.hpp"
#include "runtime_mode.hpp"
#include "tuning_db.hpp"
#include "workspace.hpp"

namespace autogemm {

/// What selection may use, from the environment at creation and the autogemmSet* calls.
struct SelectionSettings {
  RuntimeMode mode = RuntimeMode::kTuned;
  std::vector<std::string> db_paths;  // searched in order
  bool db_paths_explicit = false;     // named by the user: a missing file is warned about
  std::string record_untuned_path;    // empty: off
  double online_budget_ms = 500;      // AUTOGEMM_ONLINE_BUDGET_MS / autogemmSetOnlineBudget
  /// AUTOGEMM_MODE, AUTOGEMM_DB, AUTOGEMM_RECORD_UNTUNED, AUTOGEMM_ONLINE_BUDGET_MS.
  static SelectionSettings from_environment();
};

/// The key a handle caches a choice under: the problem's types, layout and extents, and its
/// alignment pattern (alignment_pattern) in place of the class, which the database keys on. Built
/// on every call, so it holds no strings.
struct ChoiceKey {
  GemmTypes types;
  Op op_a = Op::N, op_b = Op::N;
  int m = 0, n = 0, k = 0;
  int alignment = 0;
  bool operator==(const ChoiceKey&) const = default;
};

struct ChoiceKeyHash {
  size_t operator()(const ChoiceKey& key) const noexcept;
};

class KernelSelector {
 public:
  /// Reads the device's limits, cost-model figures and signature once.
  explicit KernelSelector(int device);

  SelectionSettings settings;

  /// The choice for `problem`, cached per key. `stream` is the handle's (online tuning measures on
  /// it); `workspace` says which repacked operands a caller's fixed buffer can hold. Not thread-safe:
  /// the handle serialises calls. Throws StatusError(NOT_SUPPORTED) when no compiled kernel
  /// implements the problem.
  KernelChoice choose(const GemmProblem& problem, cudaStream_t stream, const HandleWorkspace& workspace);
  /// Forgets cached choices (after a settings or workspace change).
  void clear() { choices_.clear(); }

 private:
  /// The tuned entry for `problem`, or an empty choice.
  KernelChoice tuned_choice(const GemmProblem& problem, const db::ProblemKey& key, const HandleWorkspace& workspace);
  /// The candidates for an untuned problem, best first (with a caller's workspace, those whose
  /// repacked operands would not fit it are left out).
  std::vector<KernelChoice> untuned_ranking(const GemmProblem& problem, int align, const HandleWorkspace& workspace);
  /// Online mode: measures the leading untuned candidates on the caller's data, stores them in the
  /// first database of the search path, and returns the fastest (the untuned choice when tuning
  /// fails). Synchronises `stream`.
  KernelChoice online_choice(const GemmProblem& problem, int align, cudaStream_t stream,
                             const HandleWorkspace& workspace);

  int device_;
  DeviceLimits limits_;
  DeviceModel model_;
  db::DeviceSignature signature_;  // what tuned entries are keyed on
  std::vector<int> occupancy_;     // per registry index; -1 = not queried yet
  std::unordered_map<ChoiceKey, KernelChoice, ChoiceKeyHash> choices_;  // the device is the selector's
};

}  // namespace autogemm
