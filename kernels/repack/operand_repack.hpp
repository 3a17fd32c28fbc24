// Operand repacking, the helper family that lets an instance of the faster X-major layout run a
// problem whose operand is K-major: the operand is copied, transposed, into a 16-byte aligned buffer
// of the workspace before the kernel runs (docs/decisions.md, operand repacking). Its contract: the
// plan (which operands an instance needs copied), the workspace it takes, and the copies' launch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gemm_problem.hpp"

namespace autogemm {

/// The instances run K-major operands 5-15% slower than X-major ones on the same tile; the copy
/// moves the operand twice at ~2.5 TB/s, about 75 / N of a compute-bound GEMM's time for A (75 / M
/// for B) on the H100, so it is offered only when that other output extent is at least this, and
/// only to GEMM instances. The kernel's name says which layout it reads, so a tuned entry needs
/// nothing more to be replayed.
inline constexpr int kRepackMinOtherExtent = 2048;

/// Whether a candidate's kernel may read repacked operands (the tuner and tuned entries) or must
/// match the problem's layout.
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

/// Copies the operands of `plan` into the workspace (transposed to X-major, or re-pitched) and sets
/// `repacked` to the problem the kernel then runs: the same product, with the copies in place of the
/// K-major operands. cudaErrorInvalidValue when the workspace cannot hold them.
cudaError_t repack_operands(const GemmProblem& problem, RepackPlan plan, const Workspace& ws, cudaStream_t stream,
                            GemmProblem& repacked);

/// dst = src^T: src is rows x cols column-major (leading dimension lds >= rows), dst cols x rows
/// column-major (ldd >= cols). Rows cols..ldd-1 of dst are not written.
cudaError_t launch_transpose(const float* src, int64_t lds, int rows, int cols, float* dst, int64_t ldd,
                             cudaStream_t stream);

/// dst = src with another leading dimension: src is rows x cols column-major (lds >= rows), dst the
/// same matrix at ldd >= rows (an N-major B re-pitched to a multiple of 4, RepackPlan::b_repitch).
cudaError_t launch_repitch(const float* src, int64_t lds, int rows, int cols, float* dst, int64_t ldd,
                           cudaStream_t stream);

}  // namespace autogemm
