// See online_tuner.hpp.
#include "online_tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include "check.hpp"
#include "logging.hpp"
#include "provenance.hpp"
#include "status.hpp"
#include "timing.hpp"
#include "tuned_lookup.hpp"
#include "workspace.hpp"

namespace autogemm {
namespace {

struct CudaFree {
  void operator()(void* p) const { cudaFree(p); }
};

template <class T>
std::unique_ptr<T, CudaFree> device_alloc(size_t count) {
  void* p = nullptr;
  AUTOGEMM_CUDA_CHECK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T)));
  return std::unique_ptr<T, CudaFree>(static_cast<T*>(p));
}

}  // namespace

OnlineReport tune_online(const GemmProblem& problem, const std::vector<KernelChoice>& ranked, cudaStream_t stream,
                         int device, const db::DeviceSignature& signature, const OnlineOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); };
  OnlineReport report;
  const size_t count = std::min<size_t>(ranked.size(), std::max(1, options.max_candidates));
  if (count == 0) return report;

  // Scratch output, its float64 reference and one workspace large enough for every candidate.
  GemmProblem p = problem;
  p.alpha = 1.0f, p.beta = 0.0f;
  auto c = device_alloc<char>(static_cast<size_t>(p.ldc) * p.n * data_type_bytes(p.types.c));
  auto ref = device_alloc<double>(static_cast<size_t>(p.m) * p.n);
  p.c = c.get();
  // Every candidate's needs, the repacked operands' copies included: without them a candidate that
  // reads repacked operands (often the first ranked for big problems) would be refused its
  // launch, and the error would end the whole online tuning.
  WorkspaceNeeds needs;
  for (size_t i = 0; i < count; ++i) {
    const WorkspaceNeeds w = workspace_size(*ranked[i].kernel, p, ranked[i].split);
    needs.partial_bytes = std::max(needs.partial_bytes, w.partial_bytes);
    needs.semaphore_count = std::max(needs.semaphore_count, w.semaphore_count);
    needs.repack_bytes = std::max(needs.repack_bytes, w.repack_bytes);
  }
  GrowingWorkspace scratch;
  const Workspace ws = scratch.get(needs, stream);
  L2Flusher flusher(device);

  AUTOGEMM_CUDA_CHECK(reference_gemm_f64(p.op_a, p.op_b, p.m, p.n, p.k, 1.0, p.a, p.lda, p.b, p.ldb, 0.0, nullptr,
                                         p.ldc, ref.get(), stream, p.types));
  const double bound = error_bound(p.k, p.types);
  const TimingOptions timing{1, options.reps, options.reps, 1e9, true, {}};
  const db::Provenance provenance = current_provenance(device, /*read_clocks=*/false);
  const db::ProblemKey key = tuning_key(p, alignment_class(p));

  double best_us = 0;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0 && elapsed_ms() > options.budget_ms) break;
    const KernelChoice& cand = ranked[i];
    auto launch = [&](cudaStream_t s) { AUTOGEMM_CUDA_CHECK(run(*cand.kernel, p, cand.split, ws, s)); };
    AUTOGEMM_CUDA_CHECK(fill_nan(p.c, static_cast<size_t>(p.ldc) * p.n, stream, p.types.c));
    // A launch refused before it starts (an argument run() rejects) costs this candidate only; an
    // error the launch leaves behind is the context's, and the next CUDA call throws it.
    if (const cudaError_t e = run(*cand.kernel, p, cand.split, ws, stream); e != cudaSuccess) {
      cudaGetLastError();
      logger().warn("online tuning: {} splits={} {} could not be launched ({}); skipped", cand.kernel->name,
                    cand.split.splits, split_mode_name(cand.split.mode), cudaGetErrorString(e));
      continue;
    }
    const double err = relative_error(p.c, p.ldc, ref.get(), p.m, p.n, stream, p.types.c);
    const bool passed = err <= bound;  // NaN fails
    if (!passed)
      logger().warn("online tuning: {} splits={} {} failed its result check (relative error {:.3g} > {:.3g})",
                    cand.kernel->name, cand.split.splits, split_mode_name(cand.split.mode), err, bound);
    const TimingResult t = time_on_gpu(launch, stream, flusher, timing);
    ++report.measured;
    report.failed += !passed;

    report.entries.push_back(measurement_entry(signature, key, *cand.kernel, cand.split, t, passed, err, provenance));
    if (passed && (report.best.kernel == nullptr || t.median_us < best_us)) {
      report.best = {cand.kernel, cand.split, t.median_us, "online"};
      best_us = t.median_us;
    }
  }
  report.seconds = elapsed_ms() / 1e3;
  return report;
}

double online_budget_ms_from_env() {
  static const double budget = [] {
    const char* env = std::getenv("AUTOGEMM_ONLINE_BUDGET_MS");
    if (env == nullptr || *env == '\0') return OnlineOptions{}.budget_ms;
    char* end = nullptr;
    const double v = std::strtod(env, &end);
    if (end == env || *end != '\0' || !(v >= 0) || !std::isfinite(v)) {
      logger().warn("AUTOGEMM_ONLINE_BUDGET_MS='{}' is not a number of milliseconds >= 0; using {}", env,
                    OnlineOptions{}.budget_ms);
      return OnlineOptions{}.budget_ms;
    }
    return v;
  }();
  return budget;
}

}  // namespace autogemm
