// The contract of the sm_90a tensor-core family (wgmma_gemm.cuh): BF16/FP16 operands read in place
// by TMA (no repacking: every layout has its instances), FP32 operands of TF32 and 3xTF32 instances
// from K-major copies where the problem's are not TMA-readable K-major (operand_repack.hpp), except
// the M-major A that a TF32 register-A instance reads in place; K split by the stream-K schedule,
// whose partials and reduction are the kernel's own (CUTLASS's workspace, no finishing launch), and
// by the split-K schedule, whose batches' FP32 partials the family's finish adds into C
// (launch_splitk_reduce).
#include <algorithm>

#include "family.hpp"
#include "splitk_reduce.hpp"

namespace autogemm {

WgmmaExtentRule wgmma_extent_rule(const GemmProblem& p) {
  const int ab = vector_elements(p.types.a), cb = vector_elements(p.types.c);
  WgmmaExtentRule r;
  r.a = {p.op_a == Op::N ? 'm' : 'k', ab};
  r.b = {p.op_b == Op::N ? 'k' : 'n', ab};
  r.c = {p.c_transposed ? 'n' : 'm', cb};  // the caller's C is column-major: along its m
  return r;
}

std::string wgmma_extent_violation(const GemmProblem& p) {
  const WgmmaExtentRule r = wgmma_extent_rule(p);
  const std::pair<const char*, WgmmaExtentRule::Operand> operands[] = {{"A", r.a}, {"B", r.b}, {"C", r.c}};
  for (const auto& [what, o] : operands) {
    const int value = o.extent == 'm' ? p.m : o.extent == 'n' ? p.n : p.k;
    if (value % o.multiple != 0)
      return std::string(what) + " is stored along " + o.extent + " = " + std::to_string(value) +
             ", which CUTLASS's TMA kernels take in multiples of " + std::to_string(o.multiple) + " elements";
  }
  return {};
}

namespace {

std::string wgmma_cannot_implement(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device,
                                   RepackPolicy) {
  if (!(device.cc_major == 9 && device.cc_minor == 0))
    return "wgmma instance runs sm_90a code (wgmma, TMA, setmaxnreg): needs compute capability 9.0, the device has " +
           std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
  if (problem.c_transposed != c.c_row_major)
    return c.c_row_major ? "wgmma instance of a row-major C runs transposed problems only"
                         : "wgmma instance writes C column-major only";
  const int cb = data_type_bytes(c.types.c);
  if (is_tf32_wgmma(c)) {
    // A and B: K-major copies wherever the problem's are not (repack_plan). C is written in place by
    // TMA, except by a split-K instance: its partials are aligned whatever C is, A's copy pads m to
    // 4 (RepackPlan::pad_m), and its finish writes C element by element.
    const bool through_partials = splitk_on_copies(c);
    if (!through_partials && !vector_aligned(problem.c, problem.ldc, cb))
      return "TMA needs C 16-byte aligned with ldc a multiple of 4 (ldc " + std::to_string(problem.ldc) + ")";
    if (!through_partials && problem.m % 4 != 0)
      return "C is stored along m = " + std::to_string(problem.m) +
             ", which CUTLASS's TMA kernels take in multiples of 4 FP32 elements";
    if (c.op_a == Op::N) {
      // The register-A instance reads A as it is: M-major, TMA-readable, and K whole (B's copy, where
      // it has one, keeps k, so the two agree on the K the kernel runs).
      if (problem.op_a != Op::N) return "register-A instance reads A M-major (op N); the problem's A is op T";
      if (!vector_aligned(problem.a, problem.lda))
        return "TMA needs A 16-byte aligned with lda a multiple of 4 (lda " + std::to_string(problem.lda) + ")";
      if (problem.k % 4 != 0)
        return "register-A instance runs k in multiples of 4; the problem has k = " + std::to_string(problem.k);
    }
    return check_resources(c, problem, device);
  }
  if (c.op_a != problem.op_a || c.op_b != problem.op_b)
    return "layout " + layout_code(c.op_a, c.op_b) + " differs from the problem's " +
           layout_code(problem.op_a, problem.op_b);
  const int ab = data_type_bytes(c.types.a);
  // TMA reads and writes rows that start 16 bytes aligned.
  if (!vector_aligned(problem.a, problem.lda, ab))
    return "TMA needs A 16-byte aligned with lda a multiple of " + std::to_string(16 / ab) + " (lda " +
           std::to_string(problem.lda) + ")";
  if (!vector_aligned(problem.b, problem.ldb, ab))
    return "TMA needs B 16-byte aligned with ldb a multiple of " + std::to_string(16 / ab) + " (ldb " +
           std::to_string(problem.ldb) + ")";
  if (!vector_aligned(problem.c, problem.ldc, cb))
    return "TMA needs C 16-byte aligned with ldc a multiple of " + std::to_string(16 / cb) + " (ldc " +
           std::to_string(problem.ldc) + ")";
  if (const std::string why = wgmma_extent_violation(problem); !why.empty()) return why;
  return check_resources(c, problem, device);
}

// The stream-K schedule splits K into partials its own kernel reduces; the split-K schedule always
// runs its batches into partials (one batch where no split is asked), which its finish reduces.
SplitChoice wgmma_effective_split(const KernelConfig& c, SplitChoice split) {
  if (c.schedule == WgmmaSchedule::kSplitK) return {std::max(1, split.splits), SplitKMode::kParallel};
  if (c.schedule != WgmmaSchedule::kStreamK || split.splits <= 1) return {1, SplitKMode::kNone};
  return {split.splits, SplitKMode::kParallel};
}

SplitGeometry wgmma_split_geometry(const KernelConfig& c, int k, SplitChoice split) {
  if (c.schedule != WgmmaSchedule::kSplitK) return split_geometry(c, k, split.splits);
  const int batches = splitk_batches(k, split.splits);
  return {std::max(1, k / batches), batches};
}

// Unsplit, and for the stream-K schedule the tiled families' split counts (a tile grid smaller than
// the SMs): its one unsplit launch already streams K over idle SMs by CUTLASS's heuristic. The
// split-K schedule: of the tiled families' split counts, those that cut K into equal batches
// (splitk_batches); none where the tiles fill the SMs. The family's splits without 3xTF32's
// accuracy rule (emulated_split_violation).
std::vector<SplitChoice> wgmma_offered_splits(const KernelConfig& c, int m, int n, int k, int sm_count) {
  if (c.schedule != WgmmaSchedule::kStreamK && c.schedule != WgmmaSchedule::kSplitK) return {{1, SplitKMode::kNone}};
  std::vector<SplitChoice> out = tiled_split_candidates(c, m, n, k, sm_count, SplitModes::kParallelOnly);
  // The batches cut the K the kernel runs: a TF32 instance's copies' (copies_k).
  const int run_k = copies_k(c, k);
  if (c.schedule == WgmmaSchedule::kSplitK)
    std::erase_if(out, [run_k](SplitChoice s) { return s.splits == 1 || splitk_batches(run_k, s.splits) != s.splits; });
  return out;
}

// The offered splits that keep 3xTF32's accuracy (emulated_split_violation): none for an instance
// that runs a 3xTF32 problem unsplit where it would sum too long a K, which the tuner and the untuned
// choice then pass over; the instance itself can run it (cannot_implement, the instance tests).
std::vector<SplitChoice> wgmma_split_candidates(const KernelConfig& c, int m, int n, int k, int sm_count,
                                                SplitModes) {
  std::vector<SplitChoice> out = wgmma_offered_splits(c, m, n, k, sm_count);
  std::erase_if(out, [&](SplitChoice s) { return !emulated_split_violation(c, m, n, k, sm_count, s).empty(); });
  return out;
}

void wgmma_add_workspace(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split,
                         WorkspaceNeeds& needs) {
  const KernelConfig& c = kernel.config;
  if (c.schedule == WgmmaSchedule::kSplitK) {
    const SplitGeometry g = wgmma_split_geometry(c, problem.k, split);
    needs.partial_bytes = sizeof(float) * static_cast<size_t>(g.splits) * partial_ld(problem.m) * problem.n;
  } else if (kernel.workspace_bytes != nullptr) {
    needs.partial_bytes = kernel.workspace_bytes(launch_params(kernel, problem, split));
  }
}

// An instance of a row-major C runs every problem as its transpose.
bool wgmma_runs_transposed(const KernelConfig& c, int, int) { return c.c_row_major; }

// C = alpha * (the split-K schedule's partials, added) + beta * C, in C's type: the caller's m rows
// of C, which a TF32 kernel on a copy of A padded to 4 rows (RepackPlan::pad_m) exceeds; the
// partials' leading dimension, partial_ld, is the same for both.
cudaError_t wgmma_finish(const KernelInstance& kernel, const GemmParams& p, const GemmProblem& original,
                         cudaStream_t stream) {
  if (kernel.config.schedule != WgmmaSchedule::kSplitK) return cudaSuccess;
  const int m = problem_as_run(kernel.config, original).m;
  return launch_splitk_reduce(kernel.config.types.c, p.partials, p.splits, m, p.n, p.alpha, p.beta, p.c, p.ldc,
                              stream);
}

}  // namespace

std::string emulated_split_violation(const KernelConfig& c, int m, int n, int k, int sm_count, SplitChoice split) {
  if (c.types.compute != ComputeType::k3xTF32) return {};
  const long tiles = grid_tiles(c, m, n);
  if (tiles >= sm_count) return {};
  const int run_k = copies_k(c, k), splits = splits_run(c, k, split);
  const int per_split = (run_k + splits - 1) / splits;
  if (per_split <= kEmulatedSplitSum) return {};
  int most = 1;
  for (const SplitChoice s : wgmma_offered_splits(c, m, n, k, sm_count)) most = std::max(most, splits_run(c, k, s));
  if (most > 1 && splits >= most) return {};
  return "3xTF32 on an output of " + std::to_string(tiles) + " tiles (fewer than the " + std::to_string(sm_count) +
         " SMs) sums at most " + std::to_string(kEmulatedSplitSum) + " of its copies' K per split, or its most " +
         "splits; k = " + std::to_string(k) + " in " + std::to_string(splits) + " split(s) sums " +
         std::to_string(per_split) + (most > 1 ? ", and this instance offers " + std::to_string(most) : "");
}

extern const KernelFamily kSm90WgmmaFamily{
    "sm90_wgmma",           wgmma_cannot_implement, wgmma_effective_split, wgmma_split_geometry,
    wgmma_split_candidates, wgmma_add_workspace,    wgmma_finish,          {.tensor_cores = true},
    wgmma_runs_transposed};

}  // namespace autogemm
