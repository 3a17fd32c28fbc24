// gemm-tune tune: tunes a set of problems on this machine's GPUs into the tuning database and prints
// what it found against cuBLAS. Resumable (problems already tuned for this device signature and
// kernel grid are skipped unless --force), Ctrl-C keeps everything finished, several GPUs work from
// one queue, and --shard I/N splits the set so several machines can share it.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "problem_selection.hpp"
#include "provenance.hpp"
#include "shape_sets.hpp"
#include "tuned_lookup.hpp"
#include "tune_run.hpp"
#include "tuner.hpp"
#include "tuning_db.hpp"

namespace autogemm::cli {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_sigint(int) {
  g_stop.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}

struct TuneCliOptions {
  ProblemSelection select;
  std::string devices, shard, db, json;
  TuneOptions tune;
  double time_limit_s = 0;
  bool force = false, quiet = false;
};

using Job = LabelledProblem;

std::string layout_label(const ColumnMajorProblem& p) { return layout_code(p.op_a, p.op_b); }

std::vector<int> parse_devices(const std::string& text) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  std::vector<int> out;
  if (text.empty()) {
    int current = 0;
    cudaGetDevice(&current);
    return {current};
  }
  if (text == "all") {
    for (int d = 0; d < count; ++d) out.push_back(d);
    return out;
  }
  for (size_t pos = 0; pos <= text.size();) {
    const size_t end = std::min(text.find(',', pos), text.size());
    const std::string word = text.substr(pos, end - pos);
    pos = end + 1;
    char* rest = nullptr;
    const long d = std::strtol(word.c_str(), &rest, 10);
    if (word.empty() || *rest != '\0' || d < 0 || d >= count)
      throw UsageError("--devices: '" + word + "' is not a device index in [0, " + std::to_string(count) + ")");
    out.push_back(static_cast<int>(d));
  }
  return out;
}

// One line per event on a pipe; a redrawn bar with ETA on a terminal.
class Progress {
 public:
  Progress(size_t total, bool quiet) : total_(total), quiet_(quiet), tty_(isatty(STDERR_FILENO)) {}
  void done(const std::string& line) {
    std::lock_guard lock(mutex_);
    ++finished_;
    if (quiet_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = finished_ ? elapsed / finished_ * (total_ - finished_) : 0;
    if (tty_) {
      const int width = 30, filled = static_cast<int>(width * finished_ / std::max<size_t>(total_, 1));
      std::fprintf(stderr, "\r\033[K%s\n[%s%s] %zu/%zu problems, %.0f s elapsed, ETA %.0f s", line.c_str(),
                   std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), finished_, total_,
                   elapsed, eta);
    } else {
      std::fprintf(stderr, "[%zu/%zu, %.0f s, ETA %.0f s] %s\n", finished_, total_, elapsed, eta, line.c_str());
    }
  }
  void finish() {
    if (tty_ && !quiet_) std::fprintf(stderr, "\n");
  }

 private:
  size_t total_, finished_ = 0;
  bool quiet_, tty_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

nlohmann::json report_json(const Job& job, const ProblemReport& r, const std::string& status) {
  nlohmann::json j = {{"shape", job.label},
                      {"layout", layout_label(r.problem)},
                      {"m", r.problem.m},
                      {"n", r.problem.n},
                      {"k", r.problem.k},
                      {"align", r.align},
                      {"status", status},
                      {"candidates", r.candidates},
                      {"pruned_occupancy", r.pruned_occupancy},
                      {"pruned_cost_model", r.pruned_cost_model},
                      {"pruned_budget", r.pruned_budget},
                      {"checked", r.results.size()},
                      {"seconds", r.seconds}};
  // A BF16/FP16 problem tuned as the padded problem its calls run (problem_as_called).
  if (r.problem.m != job.problem.m || r.problem.n != job.problem.n || r.problem.k != job.problem.k)
    j["padded_from"] = {{"m", job.problem.m}, {"n", job.problem.n}, {"k", job.problem.k}};
  int fully = 0, failed = 0;
  for (const auto& c : r.results) fully += c.fully_timed, failed += !c.check_passed;
  j["fully_timed"] = fully;
  j["failed_checks"] = failed;
  if (r.best) {
    j["best"] = {{"kernel", r.best->kernel->name},
                 {"splits", r.best->split.splits},
                 {"split_mode", split_mode_name(r.best->split.mode)},
                 {"median_us", r.best->time.median_us},
                 {"reps", r.best->time.reps}};
  }
  if (r.cublas.reps > 0) j["cublas"] = {{"median_us", r.cublas.median_us}, {"rel_error", r.cublas_rel_error}};
  return j;
}

}  // namespace

Command add_tune_command(CLI::App& app) {
  auto* sub = app.add_subcommand("tune", "Tune problems on this machine's GPUs into the tuning database");
  auto o = std::make_shared<TuneCliOptions>();
  sub->add_option("--shape", o->select.shapes, "Row-major M,N,K: C[M,N] = A[M,K] B[K,N] (repeatable)");
  sub->add_option("--set", o->select.set,
                  "Named shape set: seed (12 shapes: square, narrow and long-K), transformer, perf (4096^3 and odd "
                  "sizes) or llm (7-8B model projections at 1-8192 tokens; layout tn as a Linear layer runs them)");
  sub->add_option("--range", o->select.ranges, "Sweep such as M=1..4096,N=3072,K=3072 (powers of two; repeatable)");
  sub->add_option("--shapes", o->select.shapes_file,
                  "File of shapes: JSON [[M,N,K],...] or the CSV (transa,transb,m,n,k) that AUTOGEMM_RECORD_UNTUNED writes");
  sub->add_option("--layout", o->select.layouts, "Ops of the column-major call: nn, nt, tn, tt, a comma list, or all")
      ->capture_default_str();
  add_dtype_options(*sub, o->select);
  sub->add_option("--top", o->tune.top,
                  "Quick-pass leaders given full timing at least (and any other whose quick time is at or "
                  "below the best full one)")
      ->capture_default_str()
      ->check(positive_number())
      ->group("Expert tuning knobs");
  sub->add_option("--pool", o->tune.quick_pool, "Overall cost-model leaders given a checked quick timing")
      ->capture_default_str()
      ->check(non_negative_number())
      ->group("Expert tuning knobs");
  sub->add_option("--per-instance", o->tune.per_instance,
                  "Best-estimated candidates of every instance and split-k mode also quick-timed "
                  "(its unsplit one always)")
      ->capture_default_str()
      ->check(non_negative_number())
      ->group("Expert tuning knobs");
  sub->add_option("--finalist-settle", o->tune.finalist_settle_ms,
                  "Milliseconds of a finalist's own untimed launches before its full timing (and cuBLAS's)")
      ->capture_default_str()
      ->check(non_negative_number())
      ->group("Expert tuning knobs");
  sub->add_flag("--exhaustive", o->tune.exhaustive, "Check and fully time every candidate (no cost-model pruning)");
  sub->add_option("--shape-time", o->tune.shape_budget_s, "Seconds per problem before remaining candidates are skipped")
      ->capture_default_str()
      ->check(positive_number());
  sub->add_option("--max-candidates", o->tune.max_candidates, "Candidates checked per problem at most (0 = no cap)")
      ->capture_default_str()
      ->check(non_negative_number())
      ->group("Expert tuning knobs");
  sub->add_option("--time-limit", o->time_limit_s, "Seconds for the whole run; problems not started are left (0 = none)")
      ->capture_default_str()
      ->check(non_negative_number());
  sub->add_flag("--force", o->force, "Tune again problems already tuned for this device and kernel grid");
  sub->add_option("--devices", o->devices, "GPU indices (0,1) or all; one worker per GPU (default: current GPU)");
  sub->add_option("--shard", o->shard, "I/N: tune only problems whose index modulo N is I (0-based)");
  sub->add_option("--db", o->db, "Database file (default: $AUTOGEMM_DB or the XDG user database)");
  sub->add_flag("-q,--quiet", o->quiet, "No progress output");
  sub->add_option("--json", o->json, "Also write every problem's report to this JSON file");
  return {sub, [o]() -> int {
    try {
      ProblemSelection& sel = o->select;
      if (sel.set.empty() && sel.shapes.empty() && sel.ranges.empty() && sel.shapes_file.empty()) sel.set = "seed";
      std::vector<Job> jobs;
      try {
        jobs = collect_problems(sel);
      } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
      }
      if (!o->shard.empty()) {
        int index = 0, count = 1;
        if (!parse_shard(o->shard, index, count))
          throw UsageError("--shard '" + o->shard + "' is not I/N with 0 <= I < N");
        jobs = shard_of(jobs, index, count);
      }
      if (!require_gpu("tune")) return 1;
      const std::vector<int> devices = parse_devices(o->devices);
      const std::string db_path = o->db.empty() ? db::default_user_db_path() : o->db;
      { db::TuningDb check(db_path, db::OpenMode::kReadWrite, o->db.empty()); }  // fail early, one clear line

      std::signal(SIGINT, on_sigint);
      Progress progress(jobs.size(), o->quiet);
      TuneRunOptions run;
      run.tune = o->tune;
      run.db_path = db_path;
      run.create_db_parent = o->db.empty();
      run.time_limit_s = o->time_limit_s;
      run.force = o->force;
      const TuneRunResult result = tune_problems(jobs, devices, run, g_stop, [&](size_t i, const TuneOutcome& done) {
        const Job& job = jobs[i];
        if (!done.report) {
          progress.done(job.label + " " + layout_label(job.problem) + ": already tuned, skipped (--force to redo)");
          return;
        }
        const ProblemReport& r = *done.report;
        char line[512];
        std::snprintf(line, sizeof line, "%s %s on GPU %d: %s %.1f us (cuBLAS %.1f us), %d candidates, %zu checked, %.1f s",
                      job.label.c_str(), layout_label(job.problem).c_str(), done.device,
                      r.best ? std::string(r.best->kernel->name).c_str() : "no valid kernel",
                      r.best ? r.best->time.median_us : 0.0, r.cublas.median_us, r.candidates, r.results.size(),
                      r.seconds);
        progress.done(line);
      });
      progress.finish();
      std::signal(SIGINT, SIG_DFL);

      // The table of what was found.
      std::printf("%-20s %-3s %-58s %6s %10s %8s %10s %8s\n", "shape", "op", "best kernel", "split", "time_us",
                  "TFLOP/s", "cublas_us", "speedup");
      nlohmann::json out = nlohmann::json::array();
      for (size_t i = 0; i < jobs.size(); ++i) {
        const Job& job = jobs[i];
        const TuneOutcome& outcome = result.outcomes[i];
        if (!outcome.report) {
          std::printf("%-20s %-3s %s\n", job.label.c_str(), layout_label(job.problem).c_str(), outcome.status.c_str());
          out.push_back({{"shape", job.label}, {"layout", layout_label(job.problem)}, {"status", outcome.status}});
          continue;
        }
        const ProblemReport& r = *outcome.report;
        out.push_back(report_json(job, r, outcome.status));
        if (!r.best) {
          std::printf("%-20s %-3s no kernel passed its check (%s)\n", job.label.c_str(), layout_label(r.problem).c_str(),
                      outcome.status.c_str());
          continue;
        }
        const double flops = 2.0 * r.problem.m * r.problem.n * static_cast<double>(r.problem.k);
        const std::string split = split_label(r.best->split);
        std::printf("%-20s %-3s %-58s %6s %10.1f %8.2f %10.1f %8.3f%s\n", job.label.c_str(),
                    layout_label(r.problem).c_str(), std::string(r.best->kernel->name).c_str(), split.c_str(),
                    r.best->time.median_us, flops / r.best->time.median_us / 1e6, r.cublas.median_us,
                    r.cublas.reps ? r.cublas.median_us / r.best->time.median_us : 0.0,
                    r.interrupted ? "  (interrupted)" : "");
      }
      if (!o->json.empty()) {
        write_json_file(o->json, nlohmann::json{{"format", "autogemm-tune-report"},
                                                {"format_version", 1},
                                                {"database", db_path},
                                                {"kernel_grid", kernel_grid_id()},
                                                {"problems", out}});
      }
      if (!result.error.empty()) {
        std::fprintf(stderr, "gemm-tune tune: %s\n", result.error.c_str());
        return 1;
      }
      if (g_stop.load()) {
        std::fprintf(stderr, "gemm-tune tune: interrupted; everything finished so far is in %s\n", db_path.c_str());
        return 130;
      }
      return 0;
    } catch (const UsageError& e) {
      std::fprintf(stderr, "gemm-tune tune: %s\n", e.what());
      return kUsageExit;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gemm-tune tune: %s\n", e.what());
      return 1;
    }
  }};
}

}  // namespace autogemm::cli
