// Operand repacking's host side: which operands an instance needs copied, where the copies go in
// the workspace, and the copies' launch (operand_repack.hpp).
#include "operand_repack.hpp"

namespace autogemm {
namespace {
int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }
// The rows of A's K-major copy: m, or m rounded up to 4 (RepackPlan::pad_m).
int copy_rows_a(const GemmProblem& problem, RepackPlan plan) {
  return plan.pad_m ? static_cast<int>(round_up(problem.m, 4)) : problem.m;
}
}  // namespace

RepackPlan repack_plan(const KernelConfig& kernel, const GemmProblem& problem) {
  RepackPlan plan;
  if (is_tf32_wgmma(kernel)) {
    // K-major copies of whatever TMA cannot read K-major as it is; 3xTF32 splits both operands.
    plan.k_major_parts = kernel.types.compute == ComputeType::k3xTF32 ? 3 : 1;
    const bool split = plan.k_major_parts > 1, k_whole = problem.k % 4 == 0;
    // A split-K instance writes C through its partials: an m that is not a multiple of 4 runs as one
    // that is, on a copy of A with zero rows added (the register-A instance, which reads A in place,
    // leaves such problems to the others: its cannot_implement).
    plan.pad_m = splitk_on_copies(kernel) && problem.m % 4 != 0;
    // A register-A instance (op_a N) reads A M-major in place (its cannot_implement rules out the
    // rest: A op T or misaligned, k % 4 != 0).
    plan.a = kernel.op_a == Op::T && (split || !k_whole || plan.pad_m || problem.op_a != Op::T ||
                                      !vector_aligned(problem.a, problem.lda));
    plan.b = split || !k_whole || problem.op_b != Op::N || !vector_aligned(problem.b, problem.ldb);
    plan.k_multiple = copy_k_multiple(kernel, problem.k);
    return plan;
  }
  // GEMV and 16-bit wgmma instances read their operands in place (every layout has its wgmma instances;
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

bool splitk_on_copies(const KernelConfig& c) {
  return is_tf32_wgmma(c) && c.schedule == WgmmaSchedule::kSplitK && c.op_a == Op::T;
}

int copy_k_multiple(const KernelConfig& c, int k) {
  // Such an instance copies both operands (repack_plan), so the padding adds only zero products.
  const bool both_copied = c.types.compute == ComputeType::k3xTF32 || k % 4 != 0;
  return splitk_on_copies(c) && both_copied ? kSplitKCopyKMultiple : 4;
}

int copies_k(const KernelConfig& c, int k) {
  if (!is_tf32_wgmma(c)) return k;
  const int parts = c.types.compute == ComputeType::k3xTF32 ? 3 : 1;
  return parts * static_cast<int>(round_up(k, copy_k_multiple(c, k)));
}

const char* repacked_operands(RepackPlan plan) { return plan.a ? (plan.b ? "A+B" : "A") : plan.b ? "B" : "none"; }

RepackLayout repack_layout(const GemmProblem& problem, RepackPlan plan) {
  RepackLayout layout;
  size_t a_bytes = 0;
  if (plan.k_major_parts > 0) {
    const int64_t k_extent = plan.k_major_parts * round_up(problem.k, plan.k_multiple);
    if (plan.a)
      layout.lda = k_extent, a_bytes = sizeof(float) * static_cast<size_t>(k_extent) * copy_rows_a(problem, plan);
    layout.b_offset_bytes = static_cast<size_t>(round_up(static_cast<int64_t>(a_bytes), 256));
    layout.bytes = a_bytes;
    if (plan.b)
      layout.ldb = k_extent,
      layout.bytes = layout.b_offset_bytes + sizeof(float) * static_cast<size_t>(k_extent) * problem.n;
    return layout;
  }
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

GemmProblem repacked_problem(const GemmProblem& problem, RepackPlan plan, float* repacked) {
  GemmProblem out = problem;
  if (!plan.any()) return out;
  const RepackLayout layout = repack_layout(problem, plan);
  float* b = repacked + layout.b_offset_bytes / sizeof(float);
  if (plan.k_major_parts > 0) {
    // A copy pads k to 4 (a problem with k % 4 != 0 copies both operands: neither is TMA-readable),
    // or to plan.k_multiple, and A's copy m to 4 where plan.pad_m says.
    out.k = plan.k_major_parts * static_cast<int>(round_up(problem.k, plan.k_multiple));
    if (plan.pad_m) out.m = copy_rows_a(problem, plan);
    if (plan.a) out.op_a = Op::T, out.a = repacked, out.lda = layout.lda;
    if (plan.b) out.op_b = Op::N, out.b = b, out.ldb = layout.ldb;
    return out;
  }
  if (plan.a) out.op_a = Op::N, out.a = repacked, out.lda = layout.lda;
  if (plan.b) out.op_b = Op::T, out.b = b, out.ldb = layout.ldb;
  return out;
}

cudaError_t repack_operands(const GemmProblem& problem, RepackPlan plan, const Workspace& ws, cudaStream_t stream,
                            GemmProblem& repacked) {
  repacked = problem;
  if (!plan.any()) return cudaSuccess;
  const RepackLayout layout = repack_layout(problem, plan);
  if (ws.repacked == nullptr || ws.repack_bytes < layout.bytes) return cudaErrorInvalidValue;
  const GemmProblem out = repacked_problem(problem, plan, ws.repacked);
  if (plan.k_major_parts > 0) {
    // op(A) is K-contiguous where op T, op(B) where op N; the copies go where out names them.
    const int k4 = static_cast<int>(round_up(problem.k, plan.k_multiple));
    cudaError_t e = cudaSuccess;
    if (plan.a)
      e = launch_k_major_copy(problem.f32_a(), problem.lda, problem.op_a == Op::T, problem.m,
                              copy_rows_a(problem, plan), problem.k, k4, plan.k_major_parts, false,
                              const_cast<float*>(out.f32_a()), out.lda, stream);
    if (e == cudaSuccess && plan.b)
      e = launch_k_major_copy(problem.f32_b(), problem.ldb, problem.op_b == Op::N, problem.n, problem.n, problem.k, k4,
                              plan.k_major_parts, true, const_cast<float*>(out.f32_b()), out.ldb, stream);
    if (e == cudaSuccess) repacked = out;
    return e;
  }
  if (plan.a) {  // A is k x m column-major (op T): its transpose is op(A), m x k
    if (cudaError_t e = launch_transpose(problem.f32_a(), problem.lda, problem.k, problem.m, ws.repacked, layout.lda, stream);
        e != cudaSuccess)
      return e;
  }
  if (plan.b) {  // B is k x n column-major (op N): its transpose B' (n x k) has op(B) = B'^T
    // (b_repitch: B is already n x k with op T, copied to the aligned leading dimension as it is.)
    float* b = const_cast<float*>(out.f32_b());
    const cudaError_t e =
        plan.b_repitch ? launch_repitch(problem.f32_b(), problem.ldb, problem.n, problem.k, b, layout.ldb, stream)
                       : launch_transpose(problem.f32_b(), problem.ldb, problem.k, problem.n, b, layout.ldb, stream);
    if (e != cudaSuccess) return e;
  }
  repacked = out;
  return cudaSuccess;
}

}  // namespace autogemm
