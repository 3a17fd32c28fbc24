// A whole tuning run: a list of problems tuned into one database by one worker per GPU from a shared
// queue. Resumable (a problem already tuned for this device signature and kernel grid is skipped
// unless forced), stoppable (everything measured before a stop is kept), and shardable (machines
// that each take every N-th problem share one list).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "problem_data.hpp"
#include "tuner.hpp"

namespace autogemm {

struct LabelledProblem {
  ColumnMajorProblem problem;
  std::string label;  // as the user gave it
};

/// "I/N" into shard index and count (0 <= I < N); false on anything else.
bool parse_shard(const std::string& text, int& index, int& count);

/// Problems i of `problems` with i mod count == index, in order.
std::vector<LabelledProblem> shard_of(const std::vector<LabelledProblem>& problems, int index, int count);

struct TuneRunOptions {
  TuneOptions tune;
  std::string db_path;
  bool create_db_parent = false;  // the default user database's folder is created on first write
  double time_limit_s = 0;        // problems not started by then are left (0: no limit)
  bool force = false;             // tune again what is already tuned
};

/// What became of one problem: "tuned", "interrupted", "already tuned", "time limit" or "not started".
struct TuneOutcome {
  std::string status = "not started";
  std::optional<ProblemReport> report;  // for tuned and interrupted problems
  int device = -1;
};

struct TuneRunResult {
  std::vector<TuneOutcome> outcomes;  // one per problem, in order
  std::string error;                  // the first worker's failure, "" when none failed
};

/// Tunes `problems` on `devices` into options.db_path. `stop` ends the run after the candidates in
/// flight (a worker's failure sets it too); `on_done(index)` is called, from the worker's thread,
/// as each problem's outcome is final.
TuneRunResult tune_problems(const std::vector<LabelledProblem>& problems, const std::vector<int>& devices,
                            const TuneRunOptions& options, std::atomic<bool>& stop,
                            const std::function<void(size_t index, const TuneOutcome&)>& on_done);

}  // namespace autogemm
