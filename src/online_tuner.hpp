// Online tuning (AUTOGEMM_MODE=online): the first call of a problem that no database has measures
// the leading candidates of the untuned ranking on the caller's own A and B, checks each against
// the float64 reference, and returns the fastest with the rows to store. The same discipline as
// the offline tuner (tuner/tuner.hpp) at a smaller scale, and no cuBLAS: the library links only the
// CUDA runtime.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "untuned_choice.hpp"
#include "tuning_db.hpp"

namespace autogemm {

struct OnlineOptions {
  double budget_ms = 500;   // wall time for one problem: no new candidate starts past it
  int max_candidates = 48;  // leading candidates measured at most (worst online/tuned 1.03x; 1.14x with 16)
  int reps = 7;             // timed repetitions per candidate (cold L2, median), after one warm-up
};

struct OnlineReport {
  KernelChoice best;               // kernel == nullptr when no candidate passed its check
  std::vector<db::Entry> entries;  // one per measured candidate, for the database
  int measured = 0;                // candidates checked and timed
  int failed = 0;                  // candidates whose result failed the check (recorded, never chosen)
  double seconds = 0;
};

/// Measures `ranked` (best first) for `problem` on `stream`, writing only to scratch buffers: the
/// caller's C is not touched (its alpha and beta do not matter; candidates run with 1 and 0).
/// Synchronises the stream. The first candidate is always measured, whatever the budget. A candidate
/// whose launch run() refuses is skipped with a warning.
/// Throws StatusError on CUDA errors (out of memory for the scratch buffers included).
OnlineReport tune_online(const GemmProblem& problem, const std::vector<KernelChoice>& ranked, cudaStream_t stream,
                         int device, const db::DeviceSignature& signature, const OnlineOptions& options);

/// AUTOGEMM_ONLINE_BUDGET_MS as read when first asked (warns once about a bad value), else 500.
double online_budget_ms_from_env();

}  // namespace autogemm
