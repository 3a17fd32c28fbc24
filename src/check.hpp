// Correctness tools shared by the tuner, gemm-tune and the GPU tests: random fill on the device, a
// float64 reference GEMM, and the relative error ||C - ref||_F / ||ref||_F (NaN anywhere -> NaN).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernel_config.hpp"

namespace autogemm {

/// Fills n floats with uniform values in [-1, 1) from a counter-based hash of (seed, index).
cudaError_t fill_uniform(float* p, size_t n, uint64_t seed, cudaStream_t stream);
/// Fills n floats with a quiet NaN: the poison that catches unwritten outputs.
cudaError_t fill_nan(float* p, size_t n, cudaStream_t stream);

/// ref (m x n, leading dimension m) = alpha * op(A) op(B) + beta * C0, computed in float64, each
/// output's products summed in order of k. beta == 0 ignores C0 (may be null), as BLAS requires.
/// Tiled through shared memory (64 x 64 outputs per block).
cudaError_t reference_gemm_f64(Op op_a, Op op_b, int m, int n, int k, double alpha, const float* a, int64_t lda,
                               const float* b, int64_t ldb, double beta, const float* c0, int64_t ldc, double* ref,
                               cudaStream_t stream);
/// The same, one thread per output reading A and B from global memory: the tiled form's check (the
/// two agree bit for bit) and ~10x slower.
cudaError_t reference_gemm_f64_naive(Op op_a, Op op_b, int m, int n, int k, double alpha, const float* a,
                                     int64_t lda, const float* b, int64_t ldb, double beta, const float* c0,
                                     int64_t ldc, double* ref, cudaStream_t stream);

/// ||C - ref||_F / max(||ref||_F, tiny); NaN if any element of C is not finite. Synchronises `stream`.
double relative_error(const float* c, int64_t ldc, const double* ref, int m, int n, cudaStream_t stream);

/// The error bound a result of `types` must meet over K = k. FP32: 1e-6 * sqrt(k) + 1e-6 (random-sign
/// sums of k FP32 products land near 6e-8 * sqrt(k / 2); indexing or synchronisation bugs give
/// errors of order 1). Other types have no bound yet: throws StatusError(NOT_SUPPORTED) naming them,
/// so nothing of those types is ever taken as checked.
double error_bound(int k, const GemmTypes& types = kF32Types);

}  // namespace autogemm
