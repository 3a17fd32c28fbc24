// The tuner: for one problem on one GPU, finds the fastest (kernel instance, split-k) candidate.
//   1. candidates: every registered instance that can implement the problem (the kernels' own
//      validity rule, via can_implement; on large problems also the X-major instances that read
//      repacked copies of K-major operands, RepackPolicy::kAllowed, the copies' time in their
//      estimate and in every measurement; for an A with odd lda also the residue instances,
//      KernelConfig::residues, of K or of M) crossed with split-k choices from the cost model;
//   2. occupancy pruning: instances the device cannot fit (0 blocks per SM) are dropped;
//   3. cost-model ranking: each instance's unsplit and `per_instance` best-estimated candidates of
//      each split-k mode plus the `quick_pool` best overall survive (all with --exhaustive);
//   4. quick pass: each survivor's output is checked against the float64 reference, then timed
//      with a few cold-L2 repetitions; then every split-k variant of the leading instances too;
//   5. full timing of the `top` fastest, and of any other whose quick median is at or below the
//      best full one (its own launches untimed for `finalist_settle_ms` first, cold L2, CUDA events,
//      median, early rejection);
//   6. cuBLAS timed the same way as the yardstick.
// Every pruned candidate keeps its reason; every timed one becomes a database entry.
#pragma once


#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "cublas_sgemm.hpp"
#include "operation.hpp"
#include "problem_data.hpp"
#include "timing.hpp"
#include "tuning_db.hpp"
#include "workspace.hpp"

namespace autogemm {

struct TuneOptions {
  int quick_pool = 120;         // overall cost-model leaders kept for the quick pass, and besides:
  int per_instance = 3;         // each instance's best-estimated candidates per split-k mode (unsplit always)
  int refine_instances = 3;     // after the quick pass, every split of this many leading instances too
  int top = 12;                 // quick-pass leaders given full timing at least (and any other whose
                                // quick median is at or below the best full one)
  bool exhaustive = false;      // no cost-model pruning: every candidate checked and fully timed
  double shape_budget_s = 15;   // per problem: stop starting new candidates past this
  int max_candidates = 0;       // per problem: at most this many checked and timed (0 = no cap)
  int quick_reps = 5;
  // Full timing: at least db::kFullTimingIterations repetitions, so that the database ranks its rows
  // above the quick pass's (quick_reps stays below it: invalid_tune_options).
  TimingOptions timing{3, db::kFullTimingIterations, 50, 100.0, true, {}};
  double reject_ratio = 1.25;   // full timing gives up on a candidate this much slower than the best
  // Full timing (and the yardstick's) starts after this long of the candidate's own untimed launches:
  // ranked in the power state each settles to, as the benchmark times it (kOwnSettleMs).
  double finalist_settle_ms = kOwnSettleMs;
};

/// Why `options` cannot tune, naming the field and its value; empty when they can. A quick pass of
/// db::kFullTimingIterations repetitions or more would rank in the database as a full timing, and a
/// full timing of fewer below one; the counts and budgets must be non-negative (top and the
/// per-problem time positive). Tuner's constructor throws std::invalid_argument with it.
std::string invalid_tune_options(const TuneOptions& options);

struct CandidateResult {
  const KernelInstance* kernel = nullptr;
  SplitChoice split;
  double estimate_us = 0;
  bool check_passed = false;
  double rel_error = 0;
  TimingResult time;
  bool fully_timed = false;
};

struct ProblemReport {
  ColumnMajorProblem problem;
  int align = 4;
  int candidates = 0;          // (instance, split-k) pairs that can implement the problem
  int pruned_occupancy = 0;    // removed because the device fits no block
  int pruned_cost_model = 0;   // removed by the cost model's ranking
  int pruned_budget = 0;       // not reached within the shape's time or candidate budget
  std::vector<CandidateResult> results;  // checked (and timed unless the check failed)
  std::vector<db::PrunedCandidate> pruned;
  std::optional<CandidateResult> best;
  TimingResult cublas;
  double cublas_rel_error = 0;
  bool interrupted = false;
  double seconds = 0;
};

class Tuner {
 public:
  explicit Tuner(int device, TuneOptions options = {});
  ~Tuner();
  Tuner(const Tuner&) = delete;
  Tuner& operator=(const Tuner&) = delete;

  /// Tunes one problem. `stop` (Ctrl-C) is polled between candidates: the report then holds what
  /// finished, with interrupted = true.
  ProblemReport tune(const ColumnMajorProblem& problem, const std::atomic<bool>& stop);

  /// The database rows of a report: one per checked candidate, with `provenance`.
  static std::vector<db::Entry> to_entries(const ProblemReport& report, const db::DeviceSignature& device,
                                           const db::Provenance& provenance);
  static db::ProblemKey problem_key(const ColumnMajorProblem& p, int align);

  int device() const { return device_; }

 private:
  int occupancy(size_t registry_index);
  Workspace workspace_for(const KernelInstance& kernel, const GemmProblem& p, SplitChoice split);

  int device_;
  TuneOptions options_;
  DeviceLimits limits_;
  DeviceModel model_;
  std::vector<int> occupancy_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<CublasGemm> cublas_;
  std::unique_ptr<L2Flusher> flusher_;
  std::unique_ptr<GrowingWorkspace> workspace_ = std::make_unique<GrowingWorkspace>();
};

}  // namespace autogemm
