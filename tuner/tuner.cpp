// See tuner.hpp.
#include "tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "check.hpp"
#include "context.hpp"
#include "untuned_choice.hpp"
#include "logging.hpp"
#include "status.hpp"
#include "tuned_lookup.hpp"

namespace autogemm {
namespace {

std::string candidate_label(const KernelInstance& k, SplitChoice s) {
  return std::string(k.name) + " splits=" + std::to_string(s.splits) + " " + split_mode_name(s.mode);
}

db::Candidate db_candidate(const KernelInstance& k, SplitChoice s) {
  return {std::string(k.name), s.splits, split_mode_name(s.mode)};
}

}  // namespace

std::string invalid_tune_options(const TuneOptions& o) {
  const std::string full = std::to_string(db::kFullTimingIterations);
  // Integers print exactly; the real-valued fields to as many digits as they need.
  auto bad = [](const char* field, auto value, const std::string& rule) {
    std::string v;
    if constexpr (std::is_integral_v<decltype(value)>) {
      v = std::to_string(value);
    } else {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", static_cast<double>(value));
      v = text;
    }
    return std::string("TuneOptions::") + field + " = " + v + ": " + rule;
  };
  if (o.quick_reps < 1 || o.quick_reps >= db::kFullTimingIterations)
    return bad("quick_reps", o.quick_reps, "must be 1 to " + std::to_string(db::kFullTimingIterations - 1) +
                                               " (a quick pass of " + full + " or more would rank as a full timing)");
  if (o.timing.min_reps < db::kFullTimingIterations)
    return bad("timing.min_reps", o.timing.min_reps, "must be at least " + full + " (a full timing's repetitions)");
  if (o.timing.max_reps < o.timing.min_reps)
    return bad("timing.max_reps", o.timing.max_reps, "must be at least timing.min_reps");
  if (o.top < 1) return bad("top", o.top, "must be at least 1");
  if (o.quick_pool < 0) return bad("quick_pool", o.quick_pool, "must not be negative");
  if (o.per_instance < 0) return bad("per_instance", o.per_instance, "must not be negative");
  if (o.refine_instances < 0) return bad("refine_instances", o.refine_instances, "must not be negative");
  if (o.max_candidates < 0) return bad("max_candidates", o.max_candidates, "must not be negative (0: no cap)");
  if (!(o.shape_budget_s > 0)) return bad("shape_budget_s", o.shape_budget_s, "must be positive");
  if (!(o.reject_ratio >= 1)) return bad("reject_ratio", o.reject_ratio, "must be at least 1");
  if (!(o.finalist_settle_ms >= 0)) return bad("finalist_settle_ms", o.finalist_settle_ms, "must not be negative");
  return {};
}

Tuner::Tuner(int device, TuneOptions options) : device_(device), options_(std::move(options)) {
  if (const std::string why = invalid_tune_options(options_); !why.empty()) throw std::invalid_argument(why);
  DeviceGuard guard(device_);
  limits_ = query_device_limits(device_);
  model_ = device_model(limits_);
  occupancy_.assign(kernel_registry().size(), -1);
  AUTOGEMM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  cublas_ = std::make_unique<CublasGemm>(stream_);
  flusher_ = std::make_unique<L2Flusher>(device_);
}

Tuner::~Tuner() {
  cudaSetDevice(device_);
  workspace_.reset();
  cublas_.reset();
  if (stream_) cudaStreamDestroy(stream_);
}

int Tuner::occupancy(size_t i) {
  if (occupancy_[i] < 0) occupancy_[i] = query_occupancy(kernel_registry()[i]);
  return occupancy_[i];
}

Workspace Tuner::workspace_for(const KernelInstance& kernel, const GemmProblem& p, SplitChoice split) {
  return workspace_->get(workspace_size(kernel, p, split), stream_);
}

db::ProblemKey Tuner::problem_key(const ColumnMajorProblem& p, int align) {
  return tuning_key(p.op_a, p.op_b, p.m, p.n, p.k, align, p.types);
}

ProblemReport Tuner::tune(const ColumnMajorProblem& cp, const std::atomic<bool>& stop) {
  DeviceGuard guard(device_);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed_s = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  ProblemReport report;
  report.problem = cp;
  ProblemData data(cp, 0x5eed + cp.m * 31 + cp.n * 17 + cp.k);
  GemmProblem p = data.gemm_problem();
  report.align = alignment_class(p);
  data.compute_reference(p.alpha, p.beta, stream_);
  // The yardstick, cuBLAS SGEMM (pedantic FP32, same data and method): timed last (step 6), and run
  // first for kSettleMs, so that no candidate is timed while the GPU recovers from the reference's
  // power draw (timing.hpp).
  auto cublas_run = [&](cudaStream_t) {
    (*cublas_)(cp, p.alpha, data.a(), data.b(), p.beta, data.c());
  };
  run_untimed_for(cublas_run, stream_, *flusher_, kSettleMs);
  const double bound = error_bound(cp.k, cp.types);
  const size_t c_elems = static_cast<size_t>(cp.ldc) * cp.n;

  // 1-2. Candidates and occupancy pruning, each scored by the cost model.
  struct Scored {
    const KernelInstance* kernel;
    SplitChoice split;
    double estimate;
  };
  std::vector<Scored> ranked;
  const auto& registry = kernel_registry();
  for (size_t i = 0; i < registry.size(); ++i) {
    const KernelInstance& k = registry[i];
    // The kernels' own validity and layout rule; X-major instances also run large problems with
    // K-major operands through repacking copies (operation.hpp), timed with the copies.
    if (!can_implement(k, p, limits_, RepackPolicy::kAllowed)) continue;
    const double repack_us = repack_estimate_us(k.config, p, model_);
    const auto splits = split_candidates(k.config, cp.m, cp.n, cp.k, limits_.sm_count);
    report.candidates += static_cast<int>(splits.size());
    const int occ = occupancy(i);
    for (const SplitChoice s : splits) {
      if (occ <= 0) {
        ++report.pruned_occupancy;
        report.pruned.push_back({db_candidate(k, s), query_active_clusters(k) == 0
                                                         ? "clusters 0: the device co-schedules none of its clusters"
                                                         : "occupancy 0: registers or shared memory do not fit"});
        continue;
      }
      ranked.push_back({&k, s, repack_us + estimate_us(k.config, occ, cp.m, cp.n, cp.k, s, model_)});
    }
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Scored& a, const Scored& b) { return a.estimate < b.estimate; });

  // 3. Cost-model pruning. The model orders candidates well within an instance and split-k mode
  // (how many splits) but less well across instances, and it prices serial split-k against parallel
  // unreliably (127x3001x1531: an instance's 3 best estimates were all serial, 83-101 us, while its
  // 8 parallel splits ran 42.7, the problem's best). So the pool keeps,
  // for every instance, its unsplit candidate and its `per_instance` best-estimated splits of each
  // mode, then the overall ranking up to quick_pool.
  std::vector<std::pair<Scored, size_t>> held_back;  // pruned by the model, with their rank
  if (!options_.exhaustive) {
    std::map<std::pair<const KernelInstance*, SplitKMode>, int> kept_of_instance;
    std::vector<Scored> kept;
    for (size_t r = 0; r < ranked.size(); ++r) {
      int& n = kept_of_instance[{ranked[r].kernel, ranked[r].split.mode}];
      const bool keep = n < options_.per_instance || ranked[r].split.mode == SplitKMode::kNone ||
                        r < static_cast<size_t>(options_.quick_pool);
      n += keep;
      if (keep)
        kept.push_back(ranked[r]);
      else
        held_back.emplace_back(ranked[r], r + 1);
    }
    ranked = std::move(kept);
  }
  const size_t ranked_total = ranked.size() + held_back.size();

  // 4. Checked quick pass (in exhaustive mode the full timing directly), then a refinement: every
  // split-k variant of the `refine_instances` fastest instances that the model held back.
  auto launch = [&](const Scored& s) {
    const Workspace ws = workspace_for(*s.kernel, p, s.split);
    return [this, &p, s, ws](cudaStream_t st) { AUTOGEMM_CUDA_CHECK(run(*s.kernel, p, s.split, ws, st)); };
  };
  TimingOptions quick{1, options_.quick_reps, options_.quick_reps, 1e9, true, {}};
  const char* budget_reason = nullptr;
  auto measure = [&](const Scored& s) {
    const bool over_time = elapsed_s() > options_.shape_budget_s;
    const bool over_count =
        options_.max_candidates > 0 && static_cast<int>(report.results.size()) >= options_.max_candidates;
    if (stop.load()) report.interrupted = true;
    if (budget_reason == nullptr && (stop.load() || over_time || over_count))
      budget_reason = report.interrupted ? db::kInterruptedReason : over_time ? "shape time budget" : "candidate limit";
    if (budget_reason != nullptr) {
      ++report.pruned_budget;
      report.pruned.push_back({db_candidate(*s.kernel, s.split), budget_reason});
      return;
    }
    CandidateResult c;
    c.kernel = s.kernel, c.split = s.split, c.estimate_us = s.estimate;
    const auto run_it = launch(s);
    AUTOGEMM_CUDA_CHECK(fill_nan(data.c(), c_elems, stream_, cp.types.c));
    run_it(stream_);
    c.rel_error = data.error(stream_);
    c.check_passed = c.rel_error <= bound;  // NaN fails
    if (!c.check_passed)
      logger().warn("{} failed its result check (relative error {:.3g} > {:.3g}); recorded, never chosen",
                    candidate_label(*s.kernel, s.split), c.rel_error, bound);
    c.time = time_on_gpu(run_it, stream_, *flusher_, options_.exhaustive ? options_.timing : quick);
    if (!options_.exhaustive && unsteady(c.time)) {
      // A few quick repetitions rank a candidate for the full timing: one slowed by a transient
      // could miss it. Timed again once (1 quick measurement in 140 to 440 on the H100 units seen).
      logger().debug("{}: quick timing unsteady ({:.1f} to {:.1f} us, median {:.1f}); timing it again",
                     candidate_label(*s.kernel, s.split), c.time.min_us, c.time.max_us, c.time.median_us);
      c.time = time_on_gpu(run_it, stream_, *flusher_, quick);
    }
    c.fully_timed = options_.exhaustive;
    report.results.push_back(c);
  };
  // Indices of the results that passed their check, fastest first.
  auto checked_by_time = [&] {
    std::vector<size_t> order;
    for (size_t i = 0; i < report.results.size(); ++i)
      if (report.results[i].check_passed) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return report.results[a].time.median_us < report.results[b].time.median_us;
    });
    return order;
  };
  for (const Scored& s : ranked) measure(s);
  if (!options_.exhaustive && !held_back.empty()) {
    const std::vector<size_t> order = checked_by_time();
    std::vector<const KernelInstance*> leaders;
    for (size_t i : order)
      if (static_cast<int>(leaders.size()) < options_.refine_instances &&
          std::find(leaders.begin(), leaders.end(), report.results[i].kernel) == leaders.end())
        leaders.push_back(report.results[i].kernel);
    for (const auto& [s, rank] : held_back) {
      if (std::find(leaders.begin(), leaders.end(), s.kernel) != leaders.end()) {
        measure(s);
      } else {
        ++report.pruned_cost_model;
        report.pruned.push_back({db_candidate(*s.kernel, s.split),
                                 "cost model rank " + std::to_string(rank) + " of " + std::to_string(ranked_total)});
      }
    }
  }

  // 5. Full timing of the quick pass's leaders (checked ones only), fastest first, each after its
  // own launches have settled the GPU's power state (finalist_settle_ms): under the power cap a
  // burst after another candidate's check ranks kernels by their clock as much as by their work
  // (8 large BF16 problems on the H200, benched in blocks: the choices of settled full timings ran
  // 0.977x cuBLAS, those of bursts 0.964-0.972x; docs/results/h200_finalist_settle.txt).
  // Past the `top`, every candidate whose quick median does not lose to the best full median is
  // timed too: a few repetitions after a check leave the GPU idle long enough to run a burst above
  // the power cap's clock (8192^3 BF16 on the H200: 128x256 1x2 tiles 1476 us in the quick pass,
  // the best full timing 1639 us), so no candidate is passed over on a burst's evidence, and the
  // problem's fastest row is a full timing (which the database ranks first anyway).
  if (!options_.exhaustive) {
    const std::vector<size_t> order = checked_by_time();
    double best_so_far = 1e300;
    // Whether the r-th fastest of the quick pass is a finalist: within the top, or not slower than
    // the best full timing so far (the quick medians rise with r, so the finalists come first).
    auto finalist = [&](size_t r) {
      return r < static_cast<size_t>(options_.top) || report.results[order[r]].time.median_us <= best_so_far;
    };
    for (size_t r = 0; r < order.size() && finalist(r); ++r) {
      CandidateResult& c = report.results[order[r]];
      if (stop.load()) {
        // The finalists left without a full timing are named, so that a resumed run tunes the
        // problem again (TuningDb::has_tuned).
        report.interrupted = true;
        for (size_t rest = r; rest < order.size() && finalist(rest); ++rest) {
          const CandidateResult& left = report.results[order[rest]];
          ++report.pruned_budget;
          report.pruned.push_back({db_candidate(*left.kernel, left.split), db::kInterruptedReason});
        }
        break;
      }
      TimingOptions full = options_.timing;
      full.warmup_ms = options_.finalist_settle_ms;
      full.give_up = [&](double running) { return running > options_.reject_ratio * best_so_far; };
      c.time = time_on_gpu(launch({c.kernel, c.split, c.estimate_us}), stream_, *flusher_, full);
      c.fully_timed = true;
      if (!c.time.gave_up) best_so_far = std::min(best_so_far, c.time.median_us);
    }
  }
  for (const CandidateResult& c : report.results)
    if (c.check_passed && c.fully_timed && !c.time.gave_up &&
        (!report.best || c.time.median_us < report.best->time.median_us))
      report.best = c;

  // 6. The yardstick: cuBLAS SGEMM, pedantic FP32, same data and method.
  if (!stop.load()) {
    AUTOGEMM_CUDA_CHECK(fill_nan(data.c(), c_elems, stream_, cp.types.c));
    cublas_run(stream_);
    report.cublas_rel_error = data.error(stream_);
    TimingOptions yardstick = options_.timing;
    if (!options_.exhaustive) yardstick.warmup_ms = options_.finalist_settle_ms;
    report.cublas = time_on_gpu(cublas_run, stream_, *flusher_, yardstick);
  }
  report.seconds = elapsed_s();
  return report;
}

std::vector<db::Entry> Tuner::to_entries(const ProblemReport& report, const db::DeviceSignature& device,
                                         const db::Provenance& provenance) {
  std::vector<db::Entry> out;
  const db::ProblemKey key = problem_key(report.problem, report.align);
  for (const CandidateResult& c : report.results)
    if (c.time.reps > 0)
      out.push_back(measurement_entry(device, key, *c.kernel, c.split, c.time, c.check_passed, c.rel_error, provenance));
  return out;
}

}  // namespace autogemm
