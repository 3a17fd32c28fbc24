// The table of family contracts, the contract as callers use it, and the checks families share.
#include "family.hpp"

#include "splitk_reduce.hpp"

#include <algorithm>
#include <cstdint>

namespace autogemm {

// Each family's contract, defined in its folder.
extern const KernelFamily kSimtGemmFamily;         // simt_gemm/: tiled multistage GEMM
extern const KernelFamily kSimtGemmResidueFamily;  // simt_gemm/: its residue instances (odd lda)
extern const KernelFamily kSimtGemvFamily;         // simt_gemv/: outputs at most 4 columns wide
extern const KernelFamily kSm90TmaFamily;          // sm90_tma/: TMA-fed tiles on sm_90a
extern const KernelFamily kSm90WgmmaFamily;        // sm90_wgmma/: BF16/FP16 tensor cores on sm_90a

const std::vector<const KernelFamily*>& kernel_families() {
  static const std::vector<const KernelFamily*> families{&kSimtGemmFamily, &kSimtGemmResidueFamily, &kSimtGemvFamily,
                                                         &kSm90TmaFamily, &kSm90WgmmaFamily};
  return families;
}

const KernelFamily& family_of(const KernelConfig& c) {
  if (c.is_gemv()) return kSimtGemvFamily;
  if (c.is_tma()) return kSm90TmaFamily;
  if (c.is_wgmma()) return kSm90WgmmaFamily;
  return c.residues > 1 ? kSimtGemmResidueFamily : kSimtGemmFamily;
}

namespace {
// Whether `c` runs an m x n output as its transpose (its family's runs_transposed).
bool runs_transposed(const KernelConfig& c, int m, int n) {
  const KernelFamily& family = family_of(c);
  return family.runs_transposed != nullptr && family.runs_transposed(c, m, n);
}
}  // namespace

std::pair<int, int> extents_as_run(const KernelConfig& c, int m, int n) {
  if (runs_transposed(c, m, n)) return {n, m};
  return {m, n};
}

// A problem already run as its transpose stays as it is: workspace_size hands the run problem on to
// the family, whose workspace query builds its launch parameters from it again.
GemmProblem problem_as_run(const KernelConfig& c, const GemmProblem& problem) {
  if (problem.c_transposed) return problem;
  return runs_transposed(c, problem.m, problem.n) ? transposed_problem(problem) : problem;
}

std::string cannot_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device,
                             RepackPolicy repack) {
  if (const char* why = invalid_reason(kernel.config)) return why;
  if (!serves(kernel.config.types, problem.types))
    return "instance computes " + types_key(kernel.config.types) + ", the problem is " + types_key(problem.types);
  const GemmProblem run = problem_as_run(kernel.config, problem);
  const std::string why = family_of(kernel.config).cannot_implement(kernel.config, run, device, repack);
  if (why.empty() || run.c_transposed == problem.c_transposed) return why;
  return "run as its transpose (" + std::to_string(run.m) + " x " + std::to_string(run.n) + "): " + why;
}

std::vector<SplitChoice> split_candidates(const KernelConfig& c, int m, int n, int k, int sm_count, SplitModes modes) {
  const auto [rm, rn] = extents_as_run(c, m, n);
  return family_of(c).split_candidates(c, rm, rn, k, sm_count, modes);
}

int splits_run(const KernelConfig& c, int k, SplitChoice requested) {
  const KernelFamily& family = family_of(c);
  return family.split_geometry(c, copies_k(c, k), family.effective_split(c, requested)).splits;
}

WorkspaceNeeds workspace_size(const KernelInstance& kernel, const GemmProblem& original, SplitChoice requested) {
  const KernelFamily& family = family_of(kernel.config);
  const GemmProblem problem = problem_as_run(kernel.config, original);
  WorkspaceNeeds needs;
  const RepackPlan plan = repack_plan(kernel.config, problem);
  needs.repack_bytes = repack_layout(problem, plan).bytes;
  // The family's workspace is that of the problem its kernel runs (a 3xTF32 instance's k is 3x).
  family.add_workspace(kernel, repacked_problem(problem, plan, nullptr), family.effective_split(kernel.config, requested),
                       needs);
  return needs;
}

GemmParams launch_params(const KernelInstance& kernel, const GemmProblem& original, SplitChoice requested) {
  const KernelConfig& c = kernel.config;
  const KernelFamily& family = family_of(c);
  const GemmProblem problem = problem_as_run(c, original);
  const SplitChoice split = family.effective_split(c, requested);
  const SplitGeometry g = family.split_geometry(c, problem.k, split);
  GemmParams p;
  p.m = problem.m;
  p.n = problem.n;
  p.k = problem.k;
  p.a = problem.a;
  p.b = problem.b;
  p.c = problem.c;
  p.lda = problem.lda;
  p.ldb = problem.ldb;
  p.ldc = problem.ldc;
  p.alpha = problem.alpha;
  p.beta = problem.beta;
  p.c_transposed = problem.c_transposed;
  p.splits = g.splits;
  p.k_per_split = g.k_per_split;
  p.mode = g.splits > 1 ? split.mode : SplitKMode::kNone;
  // Residues of K: the last column is the reduction's (residue_k); residues of M run all of K.
  if (c.residues > 1 && !c.residues_of_m()) p.k = residue_k(problem.k);
  if (p.mode == SplitKMode::kNone) p.splits = 1, p.k_per_split = std::max(problem.k, 1);
  // One tile column covering n: each element of A is copied by exactly one block (per split), so
  // A is streamed. Its footprint: k columns of lda (op N) or m rows of lda (op T). (GEMV kernels
  // stream A with evict-first loads of their own.)
  if (!family.cost.streams_a && problem.n <= c.bn && problem.m > 0 && problem.k > 0) {
    const int64_t outer = problem.op_a == Op::N ? problem.k : problem.m;
    const int64_t inner = problem.op_a == Op::N ? problem.m : problem.k;
    p.stream_window = problem.a;
    p.stream_window_bytes =
        static_cast<size_t>(data_type_bytes(problem.types.a)) * static_cast<size_t>((outer - 1) * problem.lda + inner);
  }
  return p;
}

std::string check_layout(const KernelConfig& c, const GemmProblem& problem, RepackPlan plan, RepackPolicy repack) {
  const bool a_ok = c.op_a == problem.op_a || plan.a, b_ok = c.op_b == problem.op_b || plan.b;
  if (!a_ok || !b_ok || (plan.any() && repack == RepackPolicy::kNever))
    return "layout " + layout_code(c.op_a, c.op_b) + " differs from the problem's " + layout_code(problem.op_a, problem.op_b);
  if (plan.a && problem.n < kRepackMinOtherExtent)
    return "repacking A for layout " + layout_code(c.op_a, c.op_b) + " is offered for n >= " +
           std::to_string(kRepackMinOtherExtent) + "; the problem has n = " + std::to_string(problem.n);
  if (plan.b && problem.m < kRepackMinOtherExtent)
    return "repacking B for layout " + layout_code(c.op_a, c.op_b) + " is offered for m >= " +
           std::to_string(kRepackMinOtherExtent) + "; the problem has m = " + std::to_string(problem.m);
  return {};
}

std::string check_alignment(const KernelConfig& c, const GemmProblem& problem, RepackPlan plan, bool a_aligned,
                            bool a_only) {
  // The repacked copies are aligned; an operand read in place keeps its own alignment, in elements
  // of the instance's type (16 bytes: 4 FP32, 8 BF16/FP16).
  const int bytes = data_type_bytes(c.types.a);
  a_aligned = a_aligned || plan.a || vector_aligned(problem.a, problem.lda, bytes);
  const bool b_aligned = plan.b || vector_aligned(problem.b, problem.ldb, bytes);
  const std::string multiple = std::to_string(c.align);
  if (c.align > 1 && a_only && !a_aligned) return "needs 16-byte aligned A with lda a multiple of " + multiple;
  if (c.align > 1 && !a_only && !(a_aligned && b_aligned))
    return "needs 16-byte aligned A and B with lda, ldb multiples of " + multiple;
  return {};
}

std::string check_architecture(const DeviceLimits& device) {
  if (device.cc_major < 8) return "needs sm_80 or newer (cp.async)";
  return {};
}

std::string check_resources(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device) {
  if (c.shared_bytes() > device.max_shared_per_block_optin)
    return "needs " + std::to_string(c.shared_bytes()) + " bytes of shared memory, device grants " +
           std::to_string(device.max_shared_per_block_optin);
  const int64_t tiles = int64_t{(problem.m + c.bm - 1) / c.bm} * ((problem.n + c.bn - 1) / c.bn);
  if (tiles > INT32_MAX) return "more output tiles than a grid can hold";
  return {};
}

std::vector<SplitChoice> tiled_split_candidates(const KernelConfig& c, int m, int n, int k, int sm_count,
                                                SplitModes modes) {
  std::vector<SplitChoice> out{{1, SplitKMode::kNone}};
  const long tiles = grid_tiles(c, m, n);
  if (tiles >= sm_count) return out;
  for (int s : kSplitCounts) {
    if (tiles * s > 4L * sm_count) break;  // past a few waves more splits only add reduction work
    if (k < s * 4 * c.bk) break;           // every split keeps at least 4 BK steps
    if (modes == SplitModes::kAll) out.push_back({s, SplitKMode::kSerial});
    out.push_back({s, SplitKMode::kParallel});
  }
  return out;
}

cudaError_t reduce_parallel_split(const KernelInstance&, const GemmParams& p, const GemmProblem&,
                                  cudaStream_t stream) {
  if (p.mode != SplitKMode::kParallel) return cudaSuccess;
  return launch_splitk_reduce(p.partials, p.splits, p.m, p.n, p.alpha, p.beta, p.f32_c(), p.ldc, stream);
}

SplitGeometry whole_k_geometry(const KernelConfig& c, int k, SplitChoice split) {
  return split_geometry(c, k, split.splits);
}

void add_split_workspace(const KernelConfig& c, const GemmProblem& problem, SplitChoice split, SplitGeometry g,
                         bool counters, WorkspaceNeeds& needs) {
  if (g.splits > 1 && split.mode == SplitKMode::kParallel)
    needs.partial_bytes =
        sizeof(float) * static_cast<size_t>(g.splits) * partial_ld(grid_rows(c, problem.m)) * problem.n;
  if (g.splits > 1 && counters)
    needs.semaphore_count = static_cast<size_t>((problem.m + c.bm - 1) / c.bm) * ((problem.n + c.bn - 1) / c.bn);
}

SplitGeometry split_geometry(const KernelConfig& c, int k, int requested_splits) {
  const int splits = std::max(1, requested_splits);
  const int per = (k + splits - 1) / splits;
  SplitGeometry g;
  g.k_per_split = std::max(c.bk, (per + c.bk - 1) / c.bk * c.bk);
  g.splits = std::max(1, (k + g.k_per_split - 1) / g.k_per_split);  // drop splits that would be empty
  return g;
}

SplitGeometry residue_split_geometry(const KernelConfig& c, int k, int requested_splits) {
  SplitGeometry g =
      split_geometry(c, residue_columns(k, c.residues_of_m()), std::max(1, requested_splits / kResidues));
  g.splits *= kResidues;
  return g;
}

}  // namespace autogemm
