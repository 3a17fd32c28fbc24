// A BF16/FP16 problem that the tensor-core kernels cannot take as it is runs on padded, aligned
// copies. TMA reads rows that start 16-byte aligned (base and leading dimension), and CUTLASS's TMA
// kernels take each operand's contiguous extent (m of an op-N A and of C, k of a K-major operand, n
// of an op-T B) in multiples of 16 bytes (wgmma_extent_rule). Such a problem's extents are rounded
// up to that multiple, and further to whole 128-byte TMA boxes (by at most an eighth) where a grown
// A or B stores them contiguously and every operand holding them grew; each operand that is
// misaligned or whose extents grew is copied into the handle's realignment buffer, the copies of one
// element size by one launch that also writes zeros in their added rows and columns (pad_copy.hpp),
// so that a padded k adds only zero products; the kernel runs on the copies, and a copied C's m x n
// block is copied back. Never an error, never a wrong answer, at the price of a pass over the copies.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gemm_problem.hpp"

namespace autogemm {

/// Whether a call of `p` runs on padded, aligned copies: a BF16/FP16 problem the tensor-core kernels
/// cannot take as it is. FP32 operands never do (the TF32 and 3xTF32 instances copy A and B
/// themselves, operand_repack.hpp; where only their split-K instances can write C, or none, the
/// tuner and the cost model weigh those against the CUDA-core kernels).
bool runs_on_copies(const GemmProblem& p);

/// The padded extents, and which operands are copied at which leading dimension and offset in a
/// buffer of `bytes`.
struct RealignPlan {
  struct Operand {
    bool copied = false;
    int64_t rows = 0, cols = 0;                // the stored matrix in the caller's problem
    int64_t padded_rows = 0, padded_cols = 0;  // the copy's, in the padded problem
    int64_t ld = 0;                            // the copy's leading dimension
    size_t offset = 0;           // 256-byte aligned
  };
  int m = 0, n = 0, k = 0;  // the padded problem's extents
  Operand a, b, c;
  size_t bytes = 0;
};
RealignPlan realign_plan(const GemmProblem& p);

/// The padded problem on the copies' addresses in `buffer`, without copying anything (what the
/// kernel is chosen for; gemm-tune bench names the choice of a call from it).
GemmProblem realigned_problem(const GemmProblem& p, const RealignPlan& plan, void* buffer);
/// The problem a call's kernel is chosen for: `p` itself when it is FP32 or TMA-readable, else its
/// padded problem on copies at a 256-byte aligned stand-in address (the buffer's alignment, which is
/// all the choice depends on). autogemmExplain* and gemm-tune bench name a call's choice from it.
GemmProblem chosen_problem(const GemmProblem& p);
/// Copies the planned operands into `buffer` on `stream`, zeros in their added rows and columns (C
/// only when beta != 0 reads it), and returns realigned_problem.
GemmProblem realign_operands(const GemmProblem& p, const RealignPlan& plan, void* buffer, cudaStream_t stream);
/// Copies a copied C's m x n block back into the caller's C.
void copy_back_c(const GemmProblem& original, const GemmProblem& copies, const RealignPlan& plan, cudaStream_t stream);

}  // namespace autogemm
