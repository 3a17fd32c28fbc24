// Operand repacking's host side: which operands an instance needs copied, where the copies go in
// the workspace, and the copies' launch (operand_repack.hpp).
#include "operand_repack.hpp"

namespace autogemm {
namespace {
int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }
}  // namespace

RepackPlan repack_plan(const KernelConfig& kernel, const GemmProblem& problem) {
  RepackPlan plan;
  // GEMV and wgmma instances read their operands in place (every layout has its wgmma instances;
  // one of a row-major C names the transposed problem's layout, which is not the caller's).
  if (kernel.is_gemv() || kernel.is_wgmma()) return plan;
  plan.a = problem.op_a == Op::T && kernel.op_a == Op::N;
  plan.b = problem.op_b == Op::N && kernel.op_b == Op::T;
  // A residue instance reads B with 16-byte copies at leading dimension 4·ldb: an N-major B whose
  // ldb or base is not aligned is copied to an aligned one first (RepackPlan::b_repitch).
  plan.b_repitch = kernel.residues > 1 && problem.op_b == Op::T && !vector_aligned(problem.b, problem.ldb);
  plan.b = plan.b || plan.b_repitch;
  return plan;
}

const char* repacked_operands(RepackPlan plan) { return plan.a ? (plan.b ? "A+B" : "A") : plan.b ? "B" : "none"; }

RepackLayout repack_layout(const GemmProblem& problem, RepackPlan plan) {
  RepackLayout layout;
  size_t a_bytes = 0;
  if (plan.a) {
    layout.lda = round_up(problem.m, 4);  // op(A) = A' (m x k, column-major)
    a_bytes = sizeof(float) * static_cast<size_t>(layout.lda) * problem.k;
  }
  layout.b_offset_bytes = static_cast<size_t>(round_up(static_cast<int64_t>(a_bytes), 256));
  layout.bytes = a_bytes;
  if (plan.b) {
    layout.ldb = round_up(problem.n, 4);  // op(B) = B'^T with B' (n x k, column-major)
    layout.bytes = layout.b_offset_bytes + sizeof(float) * static_cast<size_t>(layout.ldb) * problem.k;
  }
  return layout;
}

cudaError_t repack_operands(const GemmProblem& problem, RepackPlan plan, const Workspace& ws, cudaStream_t stream,
                            GemmProblem& repacked) {
  repacked = problem;
  if (!plan.any()) return cudaSuccess;
  const RepackLayout layout = repack_layout(problem, plan);
  if (ws.repacked == nullptr || ws.repack_bytes < layout.bytes) return cudaErrorInvalidValue;
  if (plan.a) {  // A is k x m column-major (op T): its transpose is op(A), m x k
    if (cudaError_t e = launch_transpose(problem.f32_a(), problem.lda, problem.k, problem.m, ws.repacked, layout.lda, stream);
        e != cudaSuccess)
      return e;
    repacked.op_a = Op::N, repacked.a = ws.repacked, repacked.lda = layout.lda;
  }
  if (plan.b) {  // B is k x n column-major (op N): its transpose B' (n x k) has op(B) = B'^T
    // (b_repitch: B is already n x k with op T, copied to the aligned leading dimension as it is.)
    float* b = ws.repacked + layout.b_offset_bytes / sizeof(float);
    const cudaError_t e =
        plan.b_repitch ? launch_repitch(problem.f32_b(), problem.ldb, problem.n, problem.k, b, layout.ldb, stream)
                       : launch_transpose(problem.f32_b(), problem.ldb, problem.k, problem.n, b, layout.ldb, stream);
    if (e != cudaSuccess) return e;
    repacked.op_b = Op::T, repacked.b = b, repacked.ldb = layout.ldb;
  }
  return cudaSuccess;
}

}  // namespace autogemm
