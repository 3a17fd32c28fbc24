// See operation.hpp.
#include "operation.hpp"

#include <algorithm>
#include <cstdint>

#include "device_attribute.hpp"
#include "operand_repack.hpp"
#include "splitk_reduce.hpp"
#include "status.hpp"
#include "tma_launch_plan.hpp"

namespace autogemm {

namespace {
bool vector_aligned(const float* base, int64_t ld) { return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld % 4 == 0; }
int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }
}  // namespace

int alignment_class(const GemmProblem& p) { return vector_aligned(p.a, p.lda) && vector_aligned(p.b, p.ldb) ? 4 : 1; }

RepackPlan repack_plan(const KernelConfig& kernel, const GemmProblem& problem) {
  RepackPlan plan;
  if (kernel.is_gemv()) return plan;
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

DeviceLimits query_device_limits(int device) {
  DeviceLimits d;
  d.device = device;
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, device));
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.cc_minor, cudaDevAttrComputeCapabilityMinor, device));
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, device));
  AUTOGEMM_CUDA_CHECK(
      cudaDeviceGetAttribute(&d.max_shared_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.l2_bytes, cudaDevAttrL2CacheSize, device));
  return d;
}

SplitGeometry residue_split_geometry(const KernelConfig& c, int k, int requested_splits) {
  SplitGeometry g =
      split_geometry(c, residue_columns(k, c.residues_of_m()), std::max(1, requested_splits / kResidues));
  g.splits *= kResidues;
  return g;
}

SplitGeometry split_geometry(const KernelConfig& c, int k, int requested_splits) {
  const int splits = std::max(1, requested_splits);
  const int per = (k + splits - 1) / splits;
  SplitGeometry g;
  g.k_per_split = std::max(c.bk, (per + c.bk - 1) / c.bk * c.bk);
  g.splits = std::max(1, (k + g.k_per_split - 1) / g.k_per_split);  // drop splits that would be empty
  return g;
}

std::string cannot_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device,
                             RepackPolicy repack) {
  const KernelConfig& c = kernel.config;
  if (const char* why = invalid_reason(c)) return why;
  const RepackPlan plan = repack_plan(c, problem);
  const bool a_ok = c.op_a == problem.op_a || plan.a, b_ok = c.op_b == problem.op_b || plan.b;
  const bool same_layout = c.op_a == problem.op_a && c.op_b == problem.op_b;
  if (same_layout && plan.b_repitch && repack == RepackPolicy::kNever)
    return "residue instance reads B at a leading dimension that is a multiple of 4 from a 16-byte aligned base: "
           "ldb = " + std::to_string(problem.ldb) + " needs a re-pitching copy, not allowed here";
  if (!a_ok || !b_ok || (plan.any() && repack == RepackPolicy::kNever))
    return "layout " + layout_code(c.op_a, c.op_b) + " differs from the problem's " + layout_code(problem.op_a, problem.op_b);
  if (plan.a && problem.n < kRepackMinOtherExtent)
    return "repacking A for layout " + layout_code(c.op_a, c.op_b) + " is offered for n >= " +
           std::to_string(kRepackMinOtherExtent) + "; the problem has n = " + std::to_string(problem.n);
  if (plan.b && problem.m < kRepackMinOtherExtent)
    return "repacking B for layout " + layout_code(c.op_a, c.op_b) + " is offered for m >= " +
           std::to_string(kRepackMinOtherExtent) + "; the problem has m = " + std::to_string(problem.m);
  if (c.residues > 1) {
    // Residue instances exist for an A whose leading dimension is not a multiple of 4 (an aligned
    // one runs the plain instances) and whose base is 16-byte aligned (residue_problem): M-major for
    // residues of K, K-major for residues of M (the layout check above rejects the rest).
    if (problem.op_a != Op::N && !c.residues_of_m())
      return "residue instance reads an M-major A (op_a N), the problem's is K-major";
    if (problem.lda % 4 == 0)
      return "residue instance serves an lda that is not a multiple of 4, the problem has lda = " +
             std::to_string(problem.lda);
    if (reinterpret_cast<uintptr_t>(problem.a) % 16 != 0) return "residue instance needs A's base 16-byte aligned";
  }
  // The repacked copies are aligned; an operand read in place keeps its own alignment. GEMV instances
  // read B (at most 4 columns) with scalar loads, so only A's alignment binds them: row-major M = 1
  // in `nt`/`tt` has ldb = 1 and would otherwise run scalar GEMV loads over an aligned A.
  const bool a_aligned = plan.a || c.residues > 1 || vector_aligned(problem.a, problem.lda);
  const bool b_aligned = plan.b || vector_aligned(problem.b, problem.ldb);
  if (c.align == 4 && c.is_gemv() && !a_aligned) return "needs 16-byte aligned A with lda a multiple of 4";
  if (c.align == 4 && !c.is_gemv() && !(a_aligned && b_aligned))
    return "needs 16-byte aligned A and B with lda, ldb multiples of 4";
  if (c.is_gemv() && problem.n > c.bn)
    return "GEMV instance handles n <= " + std::to_string(c.bn) + ", the problem has n = " + std::to_string(problem.n);
  if (device.cc_major < 8) return "needs sm_80 or newer (cp.async)";
  if (c.is_tma() && !(device.cc_major == 9 && device.cc_minor == 0))
    return "TMA instance runs sm_90a code (TMA, setmaxnreg): needs compute capability 9.0, the device has " +
           std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
  if (c.shared_bytes() > device.max_shared_per_block_optin)
    return "needs " + std::to_string(c.shared_bytes()) + " bytes of shared memory, device grants " +
           std::to_string(device.max_shared_per_block_optin);
  const int64_t tiles = int64_t{(problem.m + c.bm - 1) / c.bm} * ((problem.n + c.bn - 1) / c.bn);
  if (tiles > INT32_MAX) return "more output tiles than a grid can hold";
  return {};
}

namespace {
// GEMV instances split K only one way: partials, reduced in the same launch by the last block of each
// row block (simt_sgemv.cuh); a serial request becomes that. TMA instances split K into partial planes
// only (simt_sgemm_tma.cuh), so a serial request becomes parallel there too.
// Residue instances run parallel split-k only, with a whole number of splits per residue.
SplitChoice effective_split(const KernelInstance& kernel, SplitChoice split) {
  if ((kernel.config.is_gemv() || kernel.config.is_tma()) && split.mode == SplitKMode::kSerial)
    split.mode = SplitKMode::kParallel;
  if (kernel.config.residues > 1) {
    split.mode = SplitKMode::kParallel;
    split.splits = std::max(kResidues, (split.splits + kResidues - 1) / kResidues * kResidues);
  }
  return split;
}

SplitGeometry geometry_of(const KernelInstance& kernel, int k, SplitChoice split) {
  return kernel.config.residues > 1 ? residue_split_geometry(kernel.config, k, split.splits)
                                    : split_geometry(kernel.config, k, split.splits);
}
}  // namespace

WorkspaceNeeds workspace_size(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice requested) {
  const SplitChoice split = effective_split(kernel, requested);
  const SplitGeometry g = geometry_of(kernel, problem.k, split);
  WorkspaceNeeds needs;
  needs.repack_bytes = repack_layout(problem, repack_plan(kernel.config, problem)).bytes;
  const KernelConfig& c = kernel.config;
  if (g.splits > 1 && split.mode == SplitKMode::kParallel)
    needs.partial_bytes =
        sizeof(float) * static_cast<size_t>(g.splits) * partial_ld(grid_rows(c, problem.m)) * problem.n;
  // Serial split-k: one counter per output tile; GEMV split-k: one per row block.
  if (g.splits > 1 && (split.mode == SplitKMode::kSerial || c.is_gemv()))
    needs.semaphore_count =
        static_cast<size_t>((problem.m + c.bm - 1) / c.bm) * ((problem.n + c.bn - 1) / c.bn);
  // A TMA launch whose last wave is partial: a slot per block of its streamed tail, a counter per tile.
  if (c.is_tma() && split.mode == SplitKMode::kNone) {
    const StreamKTail tail = streamk_tail(c, launch_params(kernel, problem, split));
    if (tail.tiles > 0) {
      needs.partial_bytes = sizeof(float) * static_cast<size_t>(tail.blocks) * c.bm * c.bn;
      needs.semaphore_count = static_cast<size_t>(tail.tiles);
      needs.streamk_optional = true;
    }
  }
  return needs;
}

GemmParams launch_params(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice requested) {
  const SplitChoice split = effective_split(kernel, requested);
  const SplitGeometry g = geometry_of(kernel, problem.k, split);
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
  p.splits = g.splits;
  p.k_per_split = g.k_per_split;
  p.mode = g.splits > 1 ? split.mode : SplitKMode::kNone;
  // Residues of K: the last column is the reduction's (residue_k); residues of M run all of K.
  if (kernel.config.residues > 1 && !kernel.config.residues_of_m()) p.k = residue_k(problem.k);
  if (p.mode == SplitKMode::kNone) p.splits = 1, p.k_per_split = std::max(problem.k, 1);
  // One tile column covering n: each element of A is copied by exactly one block (per split), so
  // A is streamed. Its footprint: k columns of lda (op N) or m rows of lda (op T).
  const KernelConfig& c = kernel.config;
  if (!c.is_gemv() && problem.n <= c.bn && problem.m > 0 && problem.k > 0) {
    const int64_t outer = problem.op_a == Op::N ? problem.k : problem.m;
    const int64_t inner = problem.op_a == Op::N ? problem.m : problem.k;
    p.stream_window = problem.a;
    p.stream_window_bytes = sizeof(float) * static_cast<size_t>((outer - 1) * problem.lda + inner);
  }
  return p;
}

namespace {
// Copies the operands of `plan` into the workspace (transposed to X-major) and returns the problem
// the kernel then runs: the same product, with the copies in place of the K-major operands.
cudaError_t repack_operands(const GemmProblem& problem, RepackPlan plan, const Workspace& ws, cudaStream_t stream,
                            GemmProblem& repacked) {
  repacked = problem;
  if (!plan.any()) return cudaSuccess;
  const RepackLayout layout = repack_layout(problem, plan);
  if (ws.repacked == nullptr || ws.repack_bytes < layout.bytes) return cudaErrorInvalidValue;
  if (plan.a) {  // A is k x m column-major (op T): its transpose is op(A), m x k
    if (cudaError_t e = launch_transpose(problem.a, problem.lda, problem.k, problem.m, ws.repacked, layout.lda, stream);
        e != cudaSuccess)
      return e;
    repacked.op_a = Op::N, repacked.a = ws.repacked, repacked.lda = layout.lda;
  }
  if (plan.b) {  // B is k x n column-major (op N): its transpose B' (n x k) has op(B) = B'^T
    // (b_repitch: B is already n x k with op T, copied to the aligned leading dimension as it is.)
    float* b = ws.repacked + layout.b_offset_bytes / sizeof(float);
    const cudaError_t e =
        plan.b_repitch ? launch_repitch(problem.b, problem.ldb, problem.n, problem.k, b, layout.ldb, stream)
                       : launch_transpose(problem.b, problem.ldb, problem.k, problem.n, b, layout.ldb, stream);
    if (e != cudaSuccess) return e;
    repacked.op_b = Op::T, repacked.b = b, repacked.ldb = layout.ldb;
  }
  return cudaSuccess;
}
}  // namespace

cudaError_t run(const KernelInstance& kernel, const GemmProblem& original, SplitChoice requested, const Workspace& ws,
                cudaStream_t stream) {
  GemmProblem problem;
  if (cudaError_t e = repack_operands(original, repack_plan(kernel.config, original), ws, stream, problem);
      e != cudaSuccess)
    return e;
  GemmParams p = launch_params(kernel, problem, requested);
  // The GEMM is a programmatic dependent of the kernel before it in the stream: the repack's
  // transpose or, without one, whatever the caller ran last. Its blocks may then be scheduled while
  // that kernel drains, and their first instruction waits for its completion and memory
  // (griddepcontrol.wait; GEMM, TMA and GEMV kernels alike), so no result changes: 1.1-1.5 us per
  // call behind another kernel, nothing where the stream's previous work is not a kernel
  // (docs/decisions.md, programmatic dependent launches). In a diagnostics build (AUTOGEMM_LAUNCH_DIAGNOSTICS)
  // AUTOGEMM_PDL_AFTER_REPACK=0 and AUTOGEMM_PDL_GEMM=0 turn off the two cases, to measure each one's gain.
  static const bool after_repack = launch_feature_enabled("AUTOGEMM_PDL_AFTER_REPACK");
  static const bool after_caller = launch_feature_enabled("AUTOGEMM_PDL_GEMM");
  const bool repacked = problem.a != original.a || problem.b != original.b;
  p.after_previous_kernel = (repacked ? after_repack : after_caller) && programmatic_launch_enabled();
  if (p.stream_window_bytes > 0) {
    // A window larger than the device allows is dropped; in a diagnostics build AUTOGEMM_STREAM_WINDOW=0
    // launches without it, to measure its gain. Only launches that propose one ask.
    static const bool enabled = launch_feature_enabled("AUTOGEMM_STREAM_WINDOW");
    const auto max_window = static_cast<size_t>(current_device_attribute<cudaDevAttrMaxAccessPolicyWindowSize>());
    if (!enabled || p.stream_window_bytes > max_window) p.stream_window = nullptr, p.stream_window_bytes = 0;
  }
  const WorkspaceNeeds needs = workspace_size(kernel, problem, {p.splits, p.mode});
  const bool holds = ws.partial_bytes >= needs.partial_bytes && ws.semaphore_count >= needs.semaphore_count;
  if (!holds && !needs.streamk_optional) return cudaErrorInvalidValue;
  p.partials = ws.partials;
  p.semaphores = ws.semaphores;
  p.streamk = holds && needs.streamk_optional;
  if (cudaError_t e = kernel.launch(p, stream); e != cudaSuccess) return e;
  if (kernel.config.residues_of_m())
    return launch_m_residue_reduce(p.partials, p.splits, p.m, p.n, p.alpha, p.beta, p.c, p.ldc, stream);
  if (kernel.config.residues > 1) {
    // A's last column and B's last row (read where the caller keeps them) for the last product.
    const int64_t last = original.k - 1;
    const float* b_last = original.b + (original.op_b == Op::N ? last : last * original.ldb);
    return launch_residue_reduce(p.partials, p.splits, p.m, p.n, p.lda, original.a + last * original.lda, b_last,
                                 original.op_b == Op::N ? original.ldb : 1, p.alpha, p.beta, p.c, p.ldc, stream);
  }
  if (p.mode == SplitKMode::kParallel && !kernel.config.is_gemv())  // GEMV reduces in its own launch
    return launch_splitk_reduce(p.partials, p.splits, p.m, p.n, p.alpha, p.beta, p.c, p.ldc, stream);
  return cudaSuccess;
}

const char* split_mode_name(SplitKMode mode) {
  switch (mode) {
    case SplitKMode::kNone: return "none";
    case SplitKMode::kParallel: return "parallel";
    case SplitKMode::kSerial: return "serial";
  }
  return "unknown";
}

std::string split_label(SplitChoice split) {
  const char* letter = split.mode == SplitKMode::kParallel ? "p" : split.mode == SplitKMode::kSerial ? "s" : "";
  return std::to_string(split.splits) + letter;
}

SplitKMode parse_split_mode(std::string_view name) {
  return name == "serial" ? SplitKMode::kSerial : name == "parallel" ? SplitKMode::kParallel : SplitKMode::kNone;
}

}  // namespace autogemm
