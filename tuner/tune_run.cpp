// See tune_run.hpp.
#include "tune_run.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "provenance.hpp"
#include "registry.hpp"
#include "tuned_lookup.hpp"
#include "tuning_db.hpp"

namespace autogemm {

bool parse_shard(const std::string& text, int& index, int& count) {
  int used = 0;
  return std::sscanf(text.c_str(), "%d/%d%n", &index, &count, &used) == 2 && used == static_cast<int>(text.size()) &&
         count >= 1 && index >= 0 && index < count;
}

std::vector<LabelledProblem> shard_of(const std::vector<LabelledProblem>& problems, int index, int count) {
  std::vector<LabelledProblem> mine;
  for (size_t i = 0; i < problems.size(); ++i)
    if (static_cast<int>(i % count) == index) mine.push_back(problems[i]);
  return mine;
}

TuneRunResult tune_problems(const std::vector<LabelledProblem>& problems, const std::vector<int>& devices,
                            const TuneRunOptions& options, std::atomic<bool>& stop,
                            const std::function<void(size_t index, const TuneOutcome&)>& on_done) {
  TuneRunResult result;
  result.outcomes.resize(problems.size());
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  const auto run_start = std::chrono::steady_clock::now();
  const std::string grid(kernel_grid_id());

  auto worker = [&](int device) {
    try {
      cudaSetDevice(device);
      Tuner tuner(device, options.tune);
      const db::DeviceSignature signature = device_signature(device);
      db::TuningDb database(options.db_path, db::OpenMode::kReadWrite, options.create_db_parent);
      for (size_t i; !stop.load() && (i = next.fetch_add(1)) < problems.size();) {
        TuneOutcome& outcome = result.outcomes[i];
        outcome.device = device;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
        if (options.time_limit_s > 0 && elapsed > options.time_limit_s) {
          outcome.status = "time limit";
          continue;
        }
        // A BF16/FP16 problem on padded copies is looked up by its padded form: tune that.
        const ColumnMajorProblem problem = problem_as_called(problems[i].problem);
        // The class the problem is tuned and stored in (ProblemData), so problems of the scalar class
        // are found as tuned too.
        const int align = tuned_alignment_class(problem);
        if (!options.force && database.has_tuned(signature.key(), Tuner::problem_key(problem, align), grid)) {
          outcome.status = "already tuned";
          on_done(i, outcome);
          continue;
        }
        ProblemReport r = tuner.tune(problem, stop);
        // Everything measured is kept, also when a stop cut the problem short.
        database.record(Tuner::to_entries(r, signature, current_provenance(device)));
        database.record_pruned(signature, Tuner::problem_key(problem, r.align), grid, r.pruned);
        outcome.status = r.interrupted ? "interrupted" : "tuned";
        outcome.report = std::move(r);
        on_done(i, outcome);
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(error_mutex);
      if (result.error.empty()) result.error = "GPU " + std::to_string(device) + ": " + e.what();
      stop.store(true);
    }
  };
  std::vector<std::thread> threads;
  for (int d : devices) threads.emplace_back(worker, d);
  for (auto& t : threads) t.join();
  return result;
}

}  // namespace autogemm
