// Operand repacking, the helper family that lets an instance of the faster X-major layout run a
// problem whose operand is K-major: the operand is copied, transposed, into a 16-byte aligned buffer
// of the workspace before the kernel runs (docs/decisions.md, operand repacking). The TF32 and
// 3xTF32 tensor-core instances read K-major copies the same way: op(A) and op(B) copied K-major
// where the problem's are not (or not 16-byte aligned), and for 3xTF32 always, split into TF32
// parts; a TF32 register-A instance reads its M-major A in place and copies only B. Its contract:
// the plan (which operands an instance needs copied), the workspace it takes, and the copies' launch.
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

/// What a TF32 or 3xTF32 split-K instance that copies both operands pads their k to. Its batches
/// are equal multiples of 8 (splitk_batches), so 64 lets 2, 4 and 8 of them cut any k; 127x3001x1531's
/// k padded only to 4 (1532 = 4 x 383) allows no batch at all.
inline constexpr int kSplitKCopyKMultiple = 64;

/// Whether `c` is a TF32 or 3xTF32 split-K instance that reads A from its K-major copy (not
/// register-A): it writes C through its FP32 partials, so it takes any C, its copy of A may carry m
/// padded to 4 (RepackPlan::pad_m) and its copies a k padded to kSplitKCopyKMultiple.
bool splitk_on_copies(const KernelConfig& c);
/// What a TF32 or 3xTF32 instance's copies round k up to: kSplitKCopyKMultiple for a split-K
/// instance that copies both operands whatever the layout (3xTF32, or k not a multiple of 4), else
/// 4 (a k that TMA reads in place is one already).
int copy_k_multiple(const KernelConfig& c, int k);
/// The K a TF32 or 3xTF32 instance runs for a problem of `k`: its copies' parts x k rounded up to
/// copy_k_multiple (k itself where nothing needs copying). What its split counts must cut. Other
/// instances: k.
int copies_k(const KernelConfig& c, int k);

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
  // TF32 wgmma instances (is_tf32_wgmma): a and b copy op(A) and op(B) K-major (A op T, B op N),
  // each at leading dimension parts x k4 (k4: k rounded up to 4, zeros in the rows added), and the
  // problem the kernel runs has k = parts x k4. parts 1: the values as they are (TF32 arithmetic);
  // 3: the 3xTF32 split, x = hi + lo with hi and lo TF32 numbers, A's copy [lo | hi | hi] and B's
  // [hi | lo | hi] along K, so that one TF32 product over 3 x k4 sums a_lo b_hi + a_hi b_lo, then
  // a_hi b_hi (launch_k_major_copy says why in that order).
  // A register-A instance (TF32, op_a N) reads A in place: only b. 0: not such an instance.
  int k_major_parts = 0;
  // What the copies' k is rounded up to (k4 above): copy_k_multiple.
  int k_multiple = 4;
  // A's K-major copy holds m rounded up to 4 rows, zeros past m, and the kernel runs that m: a
  // split-K instance's epilogue writes FP32 partials (partial_ld rows, TMA-aligned) whatever C's m
  // and alignment, and its finish writes only C's m rows.
  bool pad_m = false;
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

/// The problem the kernel runs after repacking: the copies' layout, leading dimensions and k at
/// their place in a workspace starting at `repacked` (nullptr: sizes only, as workspace_size asks).
GemmProblem repacked_problem(const GemmProblem& problem, RepackPlan plan, float* repacked);

/// Copies the operands of `plan` into the workspace (transposed to X-major, re-pitched, or K-major
/// copies and splits) and sets `repacked` to repacked_problem: the same product, with the copies in
/// place of the operands. cudaErrorInvalidValue when the workspace cannot hold them.
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

/// dst = op(X) K-major in `parts` parts (RepackPlan::k_major_parts): X is op(A) (m x k, `outer` = m)
/// or op(B) (k x n, `outer` = n), stored K-contiguous (`k_contiguous`: src[k + i·lds]) or
/// outer-contiguous (src[i + k·lds]). dst[kk + i·ldd] for kk < parts x k4 and i < dst_outer (>= outer)
/// holds part kk / k4 of element (i, kk mod k4), zero past k and past outer. Parts 3: A's
/// [lo, hi, hi] (`is_b` false), B's [hi, lo, hi]: the small products first, so that the kernel's
/// FP32 sum rounds only at their own magnitude until the hi·hi products join it (an unsplit
/// 256 x 256 x 65536 on random data: worst error 4.3e-8 of sum|a·b| against 1.0e-7 with hi·hi
/// first). dst 16-byte aligned, ldd and k4 multiples of 4 (else cudaErrorInvalidValue).
cudaError_t launch_k_major_copy(const float* src, int64_t lds, bool k_contiguous, int outer, int dst_outer, int k,
                                int k4, int parts, bool is_b, float* dst, int64_t ldd, cudaStream_t stream);

}  // namespace autogemm
