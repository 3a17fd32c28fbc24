// See context.hpp.
#include "context.hpp"

#include <cstdlib>

#include "fallback.hpp"
#include "logging.hpp"
#include "online_tuner.hpp"
#include "record_untuned.hpp"
#include "status.hpp"
#include "tuned_lookup.hpp"

namespace autogemm {

size_t ProblemKeyHash::operator()(const ProblemKey& key) const noexcept {
  size_t h = static_cast<size_t>(key.m) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<size_t>(key.n) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
  h ^= static_cast<size_t>(key.k) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
  h ^= static_cast<size_t>(static_cast<int>(key.op_a) * 4 + static_cast<int>(key.op_b) * 2 + (key.align == 4));
  return h;
}

DeviceGuard::DeviceGuard(int device) {
  AUTOGEMM_CUDA_CHECK(cudaGetDevice(&previous_));
  if (previous_ != device) {
    AUTOGEMM_CUDA_CHECK(cudaSetDevice(device));
    switched_ = true;
  }
}

DeviceGuard::~DeviceGuard() {
  if (switched_) cudaSetDevice(previous_);
}

}  // namespace autogemm

using namespace autogemm;

autogemmContext::autogemmContext(int dev) : device(dev) {
  DeviceGuard guard(dev);
  limits = query_device_limits(dev);
  model = device_model(limits);
  signature = device_signature(dev);
  occupancy.assign(kernel_registry().size(), -1);
  mode = runtime_mode_from_env();
  db_paths = tuning_db_search_path();
  db_paths_explicit = std::getenv("AUTOGEMM_DB") != nullptr;
  if (const char* record = std::getenv("AUTOGEMM_RECORD_UNTUNED"); record != nullptr) record_untuned_path = record;
  online_budget_ms = online_budget_ms_from_env();
}

autogemmContext::~autogemmContext() {
  magic = 0;
}

KernelChoice autogemmContext::choose(const GemmProblem& problem) {
  const ProblemKey key{problem.op_a, problem.op_b, problem.m, problem.n, problem.k, alignment_class(problem)};
  std::lock_guard lock(mutex);
  if (const auto it = choices.find(key); it != choices.end()) return it->second;
  KernelChoice choice;
  if (mode != RuntimeMode::kHeuristic) choice = tuned_choice(problem, key.align);
  if (choice.kernel == nullptr && mode == RuntimeMode::kOnline) {
    // Tuning synchronises and allocates, which stream capture forbids: a captured first call gets
    // the fallback, uncached, and the first call outside capture tunes.
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
      // The legacy stream cannot be queried while another stream captures: do not tune now.
      cudaGetLastError();
      capture = cudaStreamCaptureStatusActive;
    }
    if (capture != cudaStreamCaptureStatusNone) {
      choice = fallback_choice(problem, key.align);
      if (choice.kernel != nullptr) {
        logger().debug("choice m={} n={} k={} {} align{}: stream is capturing, fallback {} until tuned", problem.m,
                       problem.n, problem.k, layout_code(problem.op_a, problem.op_b), key.align, choice.kernel->name);
        return choice;
      }
    } else {
      choice = online_choice(problem, key.align);
    }
  }
  if (choice.kernel == nullptr) {
    choice = fallback_choice(problem, key.align);
    if (choice.kernel != nullptr && !record_untuned_path.empty())
      record_untuned(record_untuned_path, op_char(problem.op_a), op_char(problem.op_b), problem.m, problem.n,
                     problem.k);
  }
  if (choice.kernel == nullptr)
    throw StatusError(AUTOGEMM_STATUS_NOT_SUPPORTED,
                      "no compiled kernel implements layout " + layout_code(problem.op_a, problem.op_b) + " align" +
                          std::to_string(key.align) + " on this device (build filtered by AUTOGEMM_KERNELS?)");
  logger().debug("choice m={} n={} k={} {} align{}: source={} kernel={} splits={} mode={}", problem.m, problem.n,
                 problem.k, layout_code(problem.op_a, problem.op_b), key.align, choice.source, choice.kernel->name,
                 choice.split.splits, split_mode_name(choice.split.mode));
  choices.emplace(key, choice);
  return choice;
}

KernelChoice autogemmContext::tuned_choice(const GemmProblem& problem, int align) {
  const db::ProblemKey key = tuning_key(problem.op_a, problem.op_b, problem.m, problem.n, problem.k, align);
  // In online mode the first named database may not exist yet: it is created on the first store.
  const auto entry = find_tuned(db_paths, signature, key, nullptr, db_paths_explicit && mode != RuntimeMode::kOnline);
  if (!entry) return {};
  const KernelInstance* kernel = find_kernel(entry->candidate.kernel);  // non-null: find_tuned checked
  const SplitChoice split{entry->candidate.splits, parse_split_mode(entry->candidate.split_mode)};
  // A tuned entry may read repacked operands: the tuner measured it with the copies.
  if (kernel == nullptr || !can_implement(*kernel, problem, limits, RepackPolicy::kAllowed)) return {};
  const WorkspaceNeeds needs = workspace_size(*kernel, problem, split);
  if (!repack_fits(needs)) {
    // The caller's fixed workspace cannot hold the copies: the untuned choice, which leaves such
    // candidates out (fallback_ranking).
    logger().info("tuned {} for m={} n={} k={} needs {} bytes of workspace with its repacked operands, more than "
                  "the {} set by autogemmSetWorkspace; using the untuned choice",
                  kernel->name, problem.m, problem.n, problem.k, user_workspace_need(needs), user_workspace_bytes);
    return {};
  }
  return {kernel, split, 0.0, "tuned"};
}

KernelChoice autogemmContext::fallback_choice(const GemmProblem& problem, int align) {
  const auto ranked = fallback_ranking(problem, align);
  return ranked.empty() ? KernelChoice{} : ranked.front();
}

KernelChoice autogemmContext::online_choice(const GemmProblem& problem, int align) {
  const auto ranked = fallback_ranking(problem, align);
  if (ranked.empty()) return {};
  OnlineOptions options;
  options.budget_ms = online_budget_ms;
  OnlineReport report;
  try {
    report = tune_online(problem, ranked, stream, device, signature, options);
  } catch (const StatusError& e) {
    cudaGetLastError();  // an allocation failure must not stay the thread's last CUDA error
    logger().warn("online tuning of m={} n={} k={} {} failed ({}); using the untuned choice", problem.m, problem.n,
                  problem.k, layout_code(problem.op_a, problem.op_b), e.what());
    return ranked.front();
  }
  if (!report.entries.empty() && !db_paths.empty()) {
    try {
      // The default user database is created on first write; a path the user named must have its folder.
      db::TuningDb db(db_paths.front(), db::OpenMode::kReadWrite, /*create_parent=*/!db_paths_explicit);
      db.record(report.entries);
      forget_database(db_paths.front());  // it may have been looked up while missing
    } catch (const db::DbError& e) {
      logger().warn("online tuning: could not store {} measurements: {}", report.entries.size(), e.what());
    }
  }
  logger().debug("online tuning m={} n={} k={} {} align{}: {} candidates measured ({} failed) in {:.3f} s", problem.m,
                 problem.n, problem.k, layout_code(problem.op_a, problem.op_b), align, report.measured,
                 report.failed, report.seconds);
  return report.best.kernel != nullptr ? report.best : ranked.front();
}

std::vector<KernelChoice> autogemmContext::fallback_ranking(const GemmProblem& problem, int align) {
  const auto& registry = kernel_registry();
  auto occ = [&](size_t i) {
    if (occupancy[i] < 0) occupancy[i] = query_occupancy(registry[i]);
    return occupancy[i];
  };
  auto ranked = mode == RuntimeMode::kHeuristic
                    ? rank_heuristic(problem, limits, model, occ)
                    : rank_with_neighbours(problem, limits, model, occ,
                                           neighbour_measurements(db_paths, signature, op_char(problem.op_a),
                                                                  op_char(problem.op_b), align));
  if (user_workspace != nullptr) {
    // Candidates whose repacked operands do not fit the caller's fixed workspace cannot run.
    std::erase_if(ranked, [&](const KernelChoice& c) {
      return !repack_fits(required_part(workspace_size(*c.kernel, problem, c.split)));
    });
  }
  return ranked;
}

void autogemmContext::clear_choices() {
  std::lock_guard lock(mutex);
  choices.clear();
}

size_t autogemmContext::user_repack_offset(size_t partial_bytes) const {
  // From the next 256-byte boundary of the address (the caller's pointer need not be aligned; the
  // aligned kernels read the copies with 16-byte loads).
  const auto base = reinterpret_cast<uintptr_t>(user_workspace);
  return (base + kUserWorkspaceHead + partial_bytes + 255) / 256 * 256 - base;
}

size_t autogemmContext::user_workspace_need(const WorkspaceNeeds& needs) const {
  return user_repack_offset(needs.partial_bytes) + needs.repack_bytes;
}

bool autogemmContext::repack_fits(const WorkspaceNeeds& needs) const {
  return needs.repack_bytes == 0 || user_workspace == nullptr || user_workspace_need(needs) <= user_workspace_bytes;
}

Workspace autogemmContext::workspace(WorkspaceNeeds needs) {
  std::lock_guard lock(mutex);
  if (user_workspace != nullptr) {
    // A streamed tail the caller's buffer cannot hold is left out: the launch then runs without it.
    if (needs.semaphore_count * sizeof(int) > kUserWorkspaceHead || user_workspace_need(needs) > user_workspace_bytes)
      needs = required_part(needs);
    // The caller's buffer: split-k counters in a fixed head (zeroed by autogemmSetWorkspace and left
    // zero by every launch), partial sums after it, then the repacked operands at a 256-byte boundary.
    const size_t repack_offset = user_repack_offset(needs.partial_bytes);
    const size_t need = user_workspace_need(needs);
    if (needs.semaphore_count * sizeof(int) > kUserWorkspaceHead || need > user_workspace_bytes)
      throw StatusError(AUTOGEMM_STATUS_INVALID_VALUE,
                        "the workspace set by autogemmSetWorkspace has " + std::to_string(user_workspace_bytes) +
                            " bytes; this call needs " + std::to_string(need));
    char* base = static_cast<char*>(user_workspace);
    return {reinterpret_cast<float*>(base + kUserWorkspaceHead), needs.partial_bytes, reinterpret_cast<int*>(base),
            kUserWorkspaceHead / sizeof(int), reinterpret_cast<float*>(base + repack_offset), needs.repack_bytes};
  }
  // Grown geometrically (1.5x): a handle serving many shapes grows a few times.
  return own_workspace.get(needs, stream, 1.5);
}
