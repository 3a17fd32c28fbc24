// The contracts of the tiled multistage SIMT GEMM (simt_sgemm_multistage.cuh) and of its residue
// instances, which run an A whose leading dimension is not a multiple of 4 as four aligned planes.
#include "family.hpp"
#include "splitk_reduce.hpp"

namespace autogemm {
namespace {

// --- Tiled GEMM ---

std::string gemm_cannot_implement(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device,
                                  RepackPolicy repack) {
  const RepackPlan plan = repack_plan(c, problem);
  std::string why = check_layout(c, problem, plan, repack);
  if (why.empty()) why = check_alignment(c, problem, plan, false, false);
  if (why.empty()) why = check_architecture(device);
  if (why.empty()) why = check_resources(c, problem, device);
  return why;
}

SplitChoice as_requested(const KernelConfig&, SplitChoice requested) { return requested; }

void gemm_add_workspace(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split,
                        WorkspaceNeeds& needs) {
  const KernelConfig& c = kernel.config;
  add_split_workspace(c, problem, split, whole_k_geometry(c, problem.k, split), split.mode == SplitKMode::kSerial,
                      needs);
}

// --- Residue instances (KernelConfig::residues) ---

std::string residue_cannot_implement(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device,
                                     RepackPolicy repack) {
  const RepackPlan plan = repack_plan(c, problem);
  const bool same_layout = c.op_a == problem.op_a && c.op_b == problem.op_b;
  if (same_layout && plan.b_repitch && repack == RepackPolicy::kNever)
    return "residue instance reads B at a leading dimension that is a multiple of 4 from a 16-byte aligned base: "
           "ldb = " + std::to_string(problem.ldb) + " needs a re-pitching copy, not allowed here";
  if (std::string why = check_layout(c, problem, plan, repack); !why.empty()) return why;
  // Residue instances exist for an A whose leading dimension is not a multiple of 4 (an aligned
  // one runs the plain instances) and whose base is 16-byte aligned (residue_problem): M-major for
  // residues of K, K-major for residues of M (the layout check above rejects the rest).
  if (problem.op_a != Op::N && !c.residues_of_m())
    return "residue instance reads an M-major A (op_a N), the problem's is K-major";
  if (problem.lda % 4 == 0)
    return "residue instance serves an lda that is not a multiple of 4, the problem has lda = " +
           std::to_string(problem.lda);
  if (reinterpret_cast<uintptr_t>(problem.a) % 16 != 0) return "residue instance needs A's base 16-byte aligned";
  std::string why = check_alignment(c, problem, plan, true, false);  // A is read as aligned planes
  if (why.empty()) why = check_architecture(device);
  if (why.empty()) why = check_resources(c, problem, device);
  return why;
}

// Parallel split-k only, with a whole number of splits per residue.
SplitChoice residue_split(const KernelConfig&, SplitChoice split) {
  split.mode = SplitKMode::kParallel;
  split.splits = std::max(kResidues, (split.splits + kResidues - 1) / kResidues * kResidues);
  return split;
}

SplitGeometry residue_geometry(const KernelConfig& c, int k, SplitChoice split) {
  return residue_split_geometry(c, k, split.splits);
}

// 4 planes (one split per residue) at least, more splits per residue while the planes fit a few
// waves and each keeps 4 BK steps (no serial mode, no unsplit run: every launch is reduced).
std::vector<SplitChoice> residue_split_candidates(const KernelConfig& c, int m, int n, int k, int sm_count,
                                                  SplitModes) {
  const long tiles = grid_tiles(c, m, n);
  const int k_residue = residue_columns(k, c.residues_of_m());
  std::vector<SplitChoice> out{{kResidues, SplitKMode::kParallel}};
  for (int per = 2; per <= kMaxResidueSplits; ++per) {
    if (tiles * kResidues * per > 4L * sm_count || k_residue < per * 4 * c.bk) break;
    out.push_back({kResidues * per, SplitKMode::kParallel});
  }
  return out;
}

void residue_add_workspace(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split,
                           WorkspaceNeeds& needs) {
  const KernelConfig& c = kernel.config;
  add_split_workspace(c, problem, split, residue_geometry(c, problem.k, split), false, needs);
}

cudaError_t residue_finish(const KernelInstance& kernel, const GemmParams& p, const GemmProblem& original,
                           cudaStream_t stream) {
  if (kernel.config.residues_of_m())
    return launch_m_residue_reduce(p.partials, p.splits, p.m, p.n, p.alpha, p.beta, p.f32_c(), p.ldc, stream);
  // A's last column and B's last row (read where the caller keeps them) for the last product.
  const int64_t last = original.k - 1;
  const float* b_last = original.f32_b() + (original.op_b == Op::N ? last : last * original.ldb);
  return launch_residue_reduce(p.partials, p.splits, p.m, p.n, p.lda, original.f32_a() + last * original.lda, b_last,
                               original.op_b == Op::N ? original.ldb : 1, p.alpha, p.beta, p.f32_c(), p.ldc, stream);
}

}  // namespace

extern const KernelFamily kSimtGemmFamily{"simt_gemm", gemm_cannot_implement, as_requested, whole_k_geometry,
                                          tiled_split_candidates, gemm_add_workspace, reduce_parallel_split, {}};

extern const KernelFamily kSimtGemmResidueFamily{
    "simt_gemm_residue", residue_cannot_implement, residue_split,  residue_geometry,
    residue_split_candidates, residue_add_workspace, residue_finish, {.always_reduced = true}};

}  // namespace autogemm
