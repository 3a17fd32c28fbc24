// Host launchers of the small element-wise kernels around the GEMM: the split-k reduction
// (C = alpha * sum of partials + beta * C) and the BLAS scale path (C = beta * C).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "data_types.hpp"

namespace autogemm {

/// Splits per residue of K whose planes the residue reduction (launch_residue_reduce) loads all at
/// once before adding them; more splits take its slower loop (one L2 round trip per split), so
/// the tuner offers residue instances 1 to this many splits per residue (split_candidates).
inline constexpr int kMaxResidueSplits = 4;

/// Warps of the reduction's split-sharing form (splitk_reduce_warps).
inline constexpr int kReduceSplitWarps = 4;

/// How many warps share each output's splits in launch_splitk_reduce on a device of `sm_count` SMs:
/// kReduceSplitWarps where one thread per output would leave SMs without a block and there are at
/// least 4 splits per warp, else 1. With W warps, warp w adds splits [w * p, min(splits, (w + 1) * p)),
/// p = ceil(splits / W), in order, and the W sums are added in warp order; with 1, all splits in order.
int splitk_reduce_warps(int m, int n, int splits, int sm_count);

/// C = alpha * sum_{s < splits} partials[s] + beta * C; partials are m x n, leading dimension
/// partial_ld(m) (gemm_params.hpp). The sum's order: splitk_reduce_warps.
/// beta == 0 does not read C.
cudaError_t launch_splitk_reduce(const float* partials, int splits, int m, int n, float alpha, float beta, float* c,
                                 int64_t ldc, cudaStream_t stream);

/// The same for C of `type`: the FP32 sum scaled as above, rounded once to C's type (16-bit C: one
/// output per thread, or the split-sharing warps where splitk_reduce_warps says).
cudaError_t launch_splitk_reduce(DataType type, const float* partials, int splits, int m, int n, float alpha,
                                 float beta, void* c, int64_t ldc, cudaStream_t stream);

/// The reduction of the planes of a residue instance of K (KernelConfig::residues, M-major A):
/// `planes` = 4 x splits per residue, residue_partial_ld(m, false) rows deep, residue r's row i at
/// plane row i + (r * lda) mod 4, where lda is the problem's (gemm_params.hpp; residue_problem in
/// simt_sgemm_multistage.cuh).
/// The planes cover K's first k - 1 columns; the last column's product a_last[i] * b_last[j *
/// b_last_stride] is added here (a 16-byte copy of it could end past A's allocation).
cudaError_t launch_residue_reduce(const float* partials, int planes, int m, int n, int64_t lda, const float* a_last,
                                  const float* b_last, int64_t b_last_stride, float alpha, float beta, float* c,
                                  int64_t ldc, cudaStream_t stream);

/// The reduction of the planes of a residue instance of M (KernelConfig::residues_of_m): `planes` =
/// 4 x splits per residue, residue_partial_ld(m, true) rows deep; C's row i = 4p + r is the sum of
/// row p of residue r's planes, scaled as every output is.
cudaError_t launch_m_residue_reduce(const float* partials, int planes, int m, int n, float alpha, float beta, float* c,
                                    int64_t ldc, cudaStream_t stream);

/// C = beta * C (beta == 0 writes zeros without reading C): the k == 0 and alpha == 0 cases of BLAS.
cudaError_t launch_scale_c(int m, int n, float beta, float* c, int64_t ldc, cudaStream_t stream);
/// The same for C of `type` (FP32 arithmetic, rounded once to C's type).
cudaError_t launch_scale_c(DataType type, int m, int n, float beta, void* c, int64_t ldc, cudaStream_t stream);

}  // namespace autogemm
