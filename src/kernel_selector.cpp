// See kernel_selector.hpp.
#include "kernel_selector.hpp"

#include <cstdlib>

#include "device_guard.hpp"
#include "untuned_neighbours.hpp"
#include "logging.hpp"
#include "online_tuner.hpp"
#include "record_untuned.hpp"
#include "status.hpp"
#include "tuned_lookup.hpp"

namespace autogemm {

SelectionSettings SelectionSettings::from_environment() {
  SelectionSettings s;
  s.mode = runtime_mode_from_env();
  s.db_paths = tuning_db_search_path();
  s.db_paths_explicit = std::getenv("AUTOGEMM_DB") != nullptr;
  if (const char* record = std::getenv("AUTOGEMM_RECORD_UNTUNED"); record != nullptr) s.record_untuned_path = record;
  s.online_budget_ms = online_budget_ms_from_env();
  return s;
}

KernelSelector::KernelSelector(int device) : settings(SelectionSettings::from_environment()), device_(device) {
  DeviceGuard guard(device);
  limits_ = query_device_limits(device);
  model_ = device_model(limits_);
  signature_ = device_signature(device);
  occupancy_.assign(kernel_registry().size(), -1);
}

size_t ChoiceKeyHash::operator()(const ChoiceKey& key) const noexcept {
  size_t h = static_cast<size_t>(key.m) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<size_t>(key.n) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
  h ^= static_cast<size_t>(key.k) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
  const auto t = key.types;
  const size_t small = static_cast<size_t>(key.op_a == Op::T) | static_cast<size_t>(key.op_b == Op::T) << 1 |
                       static_cast<size_t>(key.alignment) << 2 | static_cast<size_t>(t.a) << 8 |
                       static_cast<size_t>(t.b) << 16 | static_cast<size_t>(t.c) << 24 |
                       static_cast<size_t>(t.compute) << 32;
  return h ^ (small * 0x94D049BB133111EBull);
}

KernelChoice KernelSelector::choose(const GemmProblem& problem, cudaStream_t stream,
                                    const HandleWorkspace& workspace) {
  const ChoiceKey cache_key{problem.types, problem.op_a, problem.op_b, problem.m, problem.n, problem.k,
                            alignment_pattern(problem)};
  if (const auto it = choices_.find(cache_key); it != choices_.end()) return it->second;
  const db::ProblemKey key = tuning_key(problem, alignment_class(problem));
  KernelChoice choice;
  if (settings.mode != RuntimeMode::kHeuristic) choice = tuned_choice(problem, key, workspace);
  if (choice.kernel == nullptr && settings.mode == RuntimeMode::kOnline) {
    // Tuning synchronises and allocates, which stream capture forbids: a captured first call gets
    // the untuned choice, uncached, and the first call outside capture tunes.
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
      // The legacy stream cannot be queried while another stream captures: do not tune now.
      cudaGetLastError();
      capture = cudaStreamCaptureStatusActive;
    }
    if (capture != cudaStreamCaptureStatusNone) {
      const auto ranked = untuned_ranking(problem, key.align, workspace);
      if (!ranked.empty()) {
        logger().debug("choice m={} n={} k={} {} align{}: stream is capturing, untuned {} until tuned", problem.m,
                       problem.n, problem.k, layout_code(problem.op_a, problem.op_b), key.align,
                       ranked.front().kernel->name);
        return ranked.front();
      }
    } else {
      choice = online_choice(problem, key.align, stream, workspace);
    }
  }
  if (choice.kernel == nullptr) {
    const auto ranked = untuned_ranking(problem, key.align, workspace);
    if (!ranked.empty()) {
      choice = ranked.front();
      if (!settings.record_untuned_path.empty())
        record_untuned(settings.record_untuned_path,
                       {op_char(problem.op_a), op_char(problem.op_b), problem.m, problem.n, problem.k, problem.lda,
                        problem.ldb, problem.ldc, key.align, types_key(problem.types)});
    }
  }
  if (choice.kernel == nullptr)
    throw StatusError(AUTOGEMM_STATUS_NOT_SUPPORTED,
                      "no compiled kernel implements types " + types_key(problem.types) + " layout " +
                          layout_code(problem.op_a, problem.op_b) + " align" + std::to_string(key.align) +
                          " on this device" +
                          (problem.types == kF32Types
                               ? std::string(" (build filtered by AUTOGEMM_KERNELS?)")
                               : std::string(" (BF16/FP16 run on sm_90a tensor cores, in builds with CUTLASS, and "
                                             "outputs at most 4 wide or tall on the GEMV kernels of sm_80 and "
                                             "newer, with A, B and C 16-byte aligned and leading dimensions "
                                             "multiples of 8 elements, of 4 for an FP32 C)")));
  logger().debug("choice m={} n={} k={} {} align{}: source={} kernel={} splits={} mode={}", problem.m, problem.n,
                 problem.k, layout_code(problem.op_a, problem.op_b), key.align, choice.source, choice.kernel->name,
                 choice.split.splits, split_mode_name(choice.split.mode));
  choices_.emplace(cache_key, choice);
  return choice;
}

KernelChoice KernelSelector::tuned_choice(const GemmProblem& problem, const db::ProblemKey& key,
                                          const HandleWorkspace& workspace) {
  // In online mode the first named database may not exist yet: it is created on the first store.
  const bool warn_missing = settings.db_paths_explicit && settings.mode != RuntimeMode::kOnline;
  // Rows whose split sums more of K than 3xTF32's accuracy allows on this problem (a row the tuner's
  // candidates would not hold: another SM count, or an older table) are passed over for the next.
  const auto keeps_accuracy = [&](const db::Entry& e) {
    const KernelInstance* k = find_kernel(e.candidate.kernel);
    if (k == nullptr) return false;
    const auto [m, n] = extents_as_run(k->config, problem.m, problem.n);
    const std::string why = emulated_split_violation(k->config, m, n, problem.k, limits_.sm_count,
                                                     {e.candidate.splits, parse_split_mode(e.candidate.split_mode)});
    if (!why.empty())
      logger().info("tuned {} in {} split(s) for m={} n={} k={} passed over: {}", k->name, e.candidate.splits,
                    problem.m, problem.n, problem.k, why);
    return why.empty();
  };
  auto entry = find_tuned(settings.db_paths, signature_, key, nullptr, warn_missing, keeps_accuracy);
  // A problem may run any other arithmetic that serves it (a TF32 or 3xTF32 problem the more accurate
  // ones): the same problem's rows tuned in those (the pedantic FP32 table, 3xTF32's for TF32)
  // compete by their measured time, so a mode never runs slower than the library's own FP32 choice
  // the tables hold.
  for (const ComputeType arithmetic : kComputeTypes) {
    GemmTypes other_types = problem.types;
    other_types.compute = arithmetic;
    if (arithmetic == problem.types.compute || !serves(other_types, problem.types)) continue;
    db::ProblemKey other_key = key;
    other_key.dtype = types_key(other_types);
    const auto other = find_tuned(settings.db_paths, signature_, other_key, nullptr, false, keeps_accuracy);
    if (other && (!entry || other->measurement.median_us < entry->measurement.median_us)) entry = other;
  }
  if (!entry) return {};
  const KernelInstance* kernel = find_kernel(entry->candidate.kernel);  // non-null: find_tuned checked
  const SplitChoice split{entry->candidate.splits, parse_split_mode(entry->candidate.split_mode)};
  // A tuned entry may read repacked operands: the tuner measured it with the copies.
  if (kernel == nullptr || !can_implement(*kernel, problem, limits_, RepackPolicy::kAllowed)) return {};
  const WorkspaceNeeds needs = workspace_size(*kernel, problem, split);
  if (!workspace.repack_fits(needs)) {
    // The caller's fixed workspace cannot hold the copies: the untuned choice, which leaves such
    // candidates out (untuned_ranking).
    logger().info("tuned {} for m={} n={} k={} needs {} bytes of workspace with its repacked operands, more than "
                  "the {} set by autogemmSetWorkspace; using the untuned choice",
                  kernel->name, problem.m, problem.n, problem.k, workspace.user_need(needs), workspace.user_bytes());
    return {};
  }
  return {kernel, split, entry->measurement.median_us, "tuned"};
}

KernelChoice KernelSelector::online_choice(const GemmProblem& problem, int align, cudaStream_t stream,
                                           const HandleWorkspace& workspace) {
  const auto ranked = untuned_ranking(problem, align, workspace);
  if (ranked.empty()) return {};
  OnlineOptions options;
  options.budget_ms = settings.online_budget_ms;
  OnlineReport report;
  try {
    report = tune_online(problem, ranked, stream, device_, signature_, options);
  } catch (const StatusError& e) {
    cudaGetLastError();  // an allocation failure must not stay the thread's last CUDA error
    logger().warn("online tuning of m={} n={} k={} {} failed ({}); using the untuned choice", problem.m, problem.n,
                  problem.k, layout_code(problem.op_a, problem.op_b), e.what());
    return ranked.front();
  }
  if (!report.entries.empty() && !settings.db_paths.empty()) {
    try {
      // The default user database is created on first write; a path the user named must have its folder.
      db::TuningDb db(settings.db_paths.front(), db::OpenMode::kReadWrite, /*create_parent=*/!settings.db_paths_explicit);
      db.record(report.entries);
      forget_database(settings.db_paths.front());  // it may have been looked up while missing
    } catch (const db::DbError& e) {
      logger().warn("online tuning: could not store {} measurements: {}", report.entries.size(), e.what());
    }
  }
  logger().debug("online tuning m={} n={} k={} {} align{}: {} candidates measured ({} failed) in {:.3f} s", problem.m,
                 problem.n, problem.k, layout_code(problem.op_a, problem.op_b), align, report.measured,
                 report.failed, report.seconds);
  return report.best.kernel != nullptr ? report.best : ranked.front();
}

std::vector<KernelChoice> KernelSelector::untuned_ranking(const GemmProblem& problem, int align,
                                                          const HandleWorkspace& workspace) {
  const auto& registry = kernel_registry();
  auto occ = [&](size_t i) {
    if (occupancy_[i] < 0) occupancy_[i] = query_occupancy(registry[i]);
    return occupancy_[i];
  };
  auto ranked = settings.mode == RuntimeMode::kHeuristic
                    ? rank_untuned(problem, limits_, model_, occ)
                    : rank_with_neighbours(problem, limits_, model_, occ,
                                           neighbour_measurements(settings.db_paths, signature_, op_char(problem.op_a),
                                                                  op_char(problem.op_b), align, problem.types));
  if (workspace.has_user()) {
    // Candidates whose repacked operands do not fit the caller's fixed workspace cannot run.
    std::erase_if(ranked, [&](const KernelChoice& c) {
      return !workspace.repack_fits(required_part(workspace_size(*c.kernel, problem, c.split)));
    });
  }
  return ranked;
}

}  // namespace autogemm
