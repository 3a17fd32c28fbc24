// The host contract every kernel instance offers (as CUTLASS's library does): can_implement,
// workspace_size, run. The tuner and the runtime talk to kernels only through this.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "gemm_params.hpp"
#include "registry.hpp"

namespace autogemm {

/// One GEMM call, column-major, cuBLAS semantics.
struct GemmProblem {
  Op op_a = Op::N, op_b = Op::N;
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  const float* b = nullptr;
  int64_t ldb = 0;
  float* c = nullptr;
  int64_t ldc = 0;
  float alpha = 1.0f, beta = 0.0f;
};

/// 4 when A and B allow 16-byte vector loads (16-byte aligned bases, lda and ldb multiples of 4),
/// else 1. The alignment class is part of the tuning key. (GEMV instances need only A aligned, so an
/// align4 GEMV may serve a scalar-class problem: see cannot_implement.)
int alignment_class(const GemmProblem& p);

/// Operand repacking: a K-major operand (op(A) with op_a T, op(B) with op_b N) copied, transposed,
/// into a 16-byte aligned X-major buffer of the workspace before the kernel runs, so that an
/// instance of the X-major layout (op_a N, op_b T) runs the problem. The instances run K-major
/// operands 5-15% slower than X-major ones on the same tile; the copy moves
/// the operand twice at ~2.5 TB/s, about 75 / N of a compute-bound GEMM's time for A (75 / M for
/// B) on the H100, so it is offered only when that other output extent is at least
/// kRepackMinOtherExtent, and only to GEMM instances. The kernel's name says which layout it reads,
/// so a tuned entry needs nothing more to be replayed (docs/decisions.md, operand repacking).
inline constexpr int kRepackMinOtherExtent = 2048;

/// Whether a candidate's kernel may read repacked operands (the tuner and tuned entries) or must
/// match the problem's layout (the untuned choice, whose cost model does not price the copy).
enum class RepackPolicy { kNever, kAllowed };

/// Which operands run() repacks for `kernel`: those the problem holds K-major and the kernel reads
/// X-major.
struct RepackPlan {
  bool a = false, b = false;
  // B is N-major already (op_b T) but not aligned, and a residue instance reads it: b means a plain
  // copy to the aligned leading dimension, not a transpose (KernelConfig::residues).
  bool b_repitch = false;
  bool any() const { return a || b; }
};
RepackPlan repack_plan(const KernelConfig& kernel, const GemmProblem& problem);
/// "none", "A", "B" or "A+B": for logs and the benchmark's JSON.
const char* repacked_operands(RepackPlan plan);

/// Leading dimensions of the repacked copies (the X-major extent rounded up to 4) and their bytes,
/// A's copy first in the workspace, B's after it at a 256-byte boundary.
struct RepackLayout {
  int64_t lda = 0, ldb = 0;
  size_t b_offset_bytes = 0, bytes = 0;
};
RepackLayout repack_layout(const GemmProblem& problem, RepackPlan plan);

/// What the device offers a kernel, read once per handle.
struct DeviceLimits {
  int device = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_shared_per_block_optin = 0;
  int l2_bytes = 0;
};

DeviceLimits query_device_limits(int device);

/// A run-time choice on top of an instance: how K is split.
struct SplitChoice {
  int splits = 1;
  SplitKMode mode = SplitKMode::kNone;
};

/// K elements per split (a multiple of BK) and the number of non-empty splits it gives.
struct SplitGeometry {
  int k_per_split = 0;
  int splits = 1;
};
SplitGeometry split_geometry(const KernelConfig& c, int k, int requested_splits);
/// Columns of K a residue instance's planes cover: all but the last, whose 16-byte copy could end
/// past the caller's allocation of A; the reduction adds that column's product (launch_residue_reduce).
constexpr int residue_k(int k) { return k > 1 ? k - 1 : 0; }
/// Columns of K one residue's splits divide; the launch geometry and the tuner's split candidates
/// both use it. Residues of K: the largest residue of the first k - 1 columns (residue 0 of
/// kResidues). Residues of M (of_m): k + 3, for a residue's columns start up to 3 early
/// (residue_problem in simt_sgemm_multistage.cuh).
constexpr int residue_columns(int k, bool of_m) {
  return of_m ? k + kResidues - 1 : (residue_k(k) + kResidues - 1) / kResidues;
}
/// The same for a residue instance (KernelConfig::residues) on a problem of depth k: the splits of
/// one residue (its residue_columns columns, requested_splits / 4 splits), and 4 times as many
/// planes in all.
SplitGeometry residue_split_geometry(const KernelConfig& c, int k, int requested_splits);
/// Rows of an instance's tile grid, and of each of its split-k planes before rounding
/// (partial_ld), on a problem of m rows: m, or residue_rows for a residue instance. The kernel and
/// its launch (simt_sgemm_multistage.cuh) spell the same out, so that their code stays as it was.
constexpr int grid_rows(const KernelConfig& c, int m) {
  return c.residues > 1 ? residue_rows(m, c.residues_of_m()) : m;
}
/// Output tiles of an instance's grid (per split).
constexpr long grid_tiles(const KernelConfig& c, int m, int n) {
  return long{(grid_rows(c, m) + c.bm - 1) / c.bm} * ((n + c.bn - 1) / c.bn);
}

/// Workspace of a launch: partial sums (kParallel; a TMA launch's streamed tail), per-tile semaphores
/// (kSerial, the streamed tail; zeroed once) and the repacked operands (RepackPlan).
struct Workspace {
  float* partials = nullptr;
  size_t partial_bytes = 0;
  int* semaphores = nullptr;
  size_t semaphore_count = 0;
  float* repacked = nullptr;  // 256-byte aligned
  size_t repack_bytes = 0;
};
struct WorkspaceNeeds {
  size_t partial_bytes = 0;
  size_t semaphore_count = 0;
  size_t repack_bytes = 0;
  // The partials and semaphores are a streamed tail's slots and counters (a TMA launch in kNone
  // mode, StreamKTail): a workspace without them runs the launch without the tail.
  bool streamk_optional = false;
};
/// `needs` less a streamed tail's optional slots and counters: what a launch cannot run without.
inline WorkspaceNeeds required_part(WorkspaceNeeds needs) {
  if (needs.streamk_optional) needs.partial_bytes = 0, needs.semaphore_count = 0, needs.streamk_optional = false;
  return needs;
}

/// Why `kernel` cannot run `problem` on `device` (layout, alignment, shared memory, architecture),
/// or an empty string when it can. The kernel's own validity rule is checked too. With
/// RepackPolicy::kAllowed a kernel that reads a K-major operand of the problem X-major qualifies
/// when the repack is offered for it (kRepackMinOtherExtent); alignment is then judged on the copies.
std::string cannot_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device,
                             RepackPolicy repack = RepackPolicy::kNever);
inline bool can_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device,
                          RepackPolicy repack = RepackPolicy::kNever) {
  return cannot_implement(kernel, problem, device, repack).empty();
}

/// GEMV instances (KernelConfig::is_gemv) split K only in kParallel mode (a kSerial request is taken
/// as kParallel): partials plus one counter per row block, reduced in the same launch. Residue
/// instances (KernelConfig::residues) run kParallel only, with the requested splits rounded up to a
/// multiple of 4 (at least 4): one plane per (residue, split).
WorkspaceNeeds workspace_size(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split);

/// The launch parameters run() passes: the problem, the split geometry (GEMV instances take a serial
/// request as parallel) and, for a GEMM whose one tile column covers n, A's address range as the
/// streamed operand (GemmParams::stream_window; run() drops it when the device's access policy
/// window is smaller).
GemmParams launch_params(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split);

/// Enqueues C = alpha * op(A) op(B) + beta * C with `kernel` (after the repacking copies of
/// repack_plan, plus the reduction for kParallel). Requires k > 0, a kernel that can implement the
/// problem (with RepackPolicy::kAllowed when it repacks) and a workspace at least workspace_size();
/// returns the first CUDA error.
cudaError_t run(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split, const Workspace& ws,
                cudaStream_t stream);

/// Key words for logs and the database.
const char* split_mode_name(SplitKMode mode);
/// "8p": the split count and the mode's letter (p, s; nothing for kNone), as the tools print it.
std::string split_label(SplitChoice split);
/// Inverse of split_mode_name; kNone for any other word (database rows are checked on write).
SplitKMode parse_split_mode(std::string_view name);

}  // namespace autogemm
