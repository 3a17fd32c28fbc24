// The contract of the GEMV-shaped family (simt_sgemv.cuh): outputs at most kGemvMaxN columns wide,
// or at most kGemvMaxN rows tall run as their transpose, A streamed once (FP32, BF16 or FP16), K
// split into FP32 partials that the last block of each row block reduces in the same launch.
#include "family.hpp"

namespace autogemm {
namespace {

std::string gemv_cannot_implement(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device,
                                  RepackPolicy repack) {
  const RepackPlan plan = repack_plan(c, problem);  // never any: GEMV instances read operands in place
  std::string why = check_layout(c, problem, plan, repack);
  // GEMV instances read B (at most 4 columns) with scalar loads, so only A's alignment binds them:
  // row-major M = 1 in `nt`/`tt` has ldb = 1 and would otherwise run scalar GEMV loads over an aligned A.
  if (why.empty()) why = check_alignment(c, problem, plan, false, true);
  if (why.empty() && problem.n > c.bn)
    why = "GEMV instance handles n <= " + std::to_string(c.bn) + " (or m <= " + std::to_string(c.bn) +
          " as the transpose), the problem has m = " + std::to_string(problem.m) + ", n = " + std::to_string(problem.n);
  if (why.empty()) why = check_architecture(device);
  if (why.empty()) why = check_resources(c, problem, device);
  return why;
}

// K splits only one way: partials, reduced in the same launch by the last block of each row block.
SplitChoice serial_as_parallel(const KernelConfig&, SplitChoice split) {
  if (split.mode == SplitKMode::kSerial) split.mode = SplitKMode::kParallel;
  return split;
}

// Splits add blocks until ~8 per SM stream A (enough bytes in flight to reach the DRAM rate); each
// split keeps at least 128 k. A 16-bit K-major instance's splits end on whole warp steps of 256 k:
// a split ending inside one reads that step element by element (1x4096x4096 `tn`, BF16, on 64x4:
// 2 splits 17.2 us, 3 splits 22.4, 4 splits 16.1).
std::vector<SplitChoice> gemv_split_candidates(const KernelConfig& c, int m, int, int k, int sm_count, SplitModes) {
  std::vector<SplitChoice> out{{1, SplitKMode::kNone}};
  const long row_blocks = (m + c.bm - 1) / c.bm;
  for (int s : kSplitCounts) {
    if (row_blocks * s > 8L * sm_count || k < s * 128) break;
    if (gemv_split_ends_inside_a_step(c, k, s)) continue;
    out.push_back({s, SplitKMode::kParallel});
  }
  return out;
}

// Partials plus one counter per row block (the last block of a row block reduces).
void gemv_add_workspace(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split,
                        WorkspaceNeeds& needs) {
  const KernelConfig& c = kernel.config;
  add_split_workspace(c, problem, split, whole_k_geometry(c, problem.k, split), true, needs);
}

// An output at most bn rows tall and wider than bn runs as its transpose, a GEMV over the other
// operand (1x3072x3072 row-major is 3072x1x3072 in column-major terms: B streams, A is the vector).
// Outputs both ways at most bn run as given.
bool gemv_runs_transposed(const KernelConfig& c, int m, int n) { return n > c.bn && m <= c.bn; }

cudaError_t reduced_in_launch(const KernelInstance&, const GemmParams&, const GemmProblem&, cudaStream_t) {
  return cudaSuccess;
}

}  // namespace

bool gemv_split_ends_inside_a_step(const KernelConfig& c, int k, int splits) {
  return c.is_gemv() && c.types != kF32Types && a_is_k_major(c.op_a) && splits > 1 &&
         split_geometry(c, k, splits).k_per_split % (32 * gemv_vector(c)) != 0;
}

extern const KernelFamily kSimtGemvFamily{"simt_gemv",           gemv_cannot_implement, serial_as_parallel,
                                          whole_k_geometry,      gemv_split_candidates, gemv_add_workspace,
                                          reduced_in_launch,     {.streams_a = true},   gemv_runs_transposed};

}  // namespace autogemm
