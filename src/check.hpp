// Correctness tools shared by the tuner, gemm-tune and the GPU tests: random fill on the device, a
// float64 reference GEMM, and the relative error ||C - ref||_F / ||ref||_F (NaN anywhere -> NaN).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernel_config.hpp"

namespace autogemm {

/// Fills n elements of `type` with uniform values in [-1, 1) from a counter-based hash of (seed,
/// index), each rounded once to the type.
cudaError_t fill_uniform(void* p, size_t n, uint64_t seed, cudaStream_t stream, DataType type = DataType::kF32);
/// Fills n elements of `type` with a quiet NaN: the poison that catches unwritten outputs.
cudaError_t fill_nan(void* p, size_t n, cudaStream_t stream, DataType type = DataType::kF32);

/// ref (m x n, leading dimension m) = alpha * op(A) op(B) + beta * C0, computed in float64 from A and
/// B of types.a and C0 of types.c (each element exact in float64), each output's products summed in
/// order of k. beta == 0 ignores C0 (may be null), as BLAS requires. Tiled through shared memory
/// (64 x 64 outputs per block).
cudaError_t reference_gemm_f64(Op op_a, Op op_b, int m, int n, int k, double alpha, const void* a, int64_t lda,
                               const void* b, int64_t ldb, double beta, const void* c0, int64_t ldc, double* ref,
                               cudaStream_t stream, const GemmTypes& types = kF32Types);
/// The same, one thread per output reading A and B from global memory: the tiled form's check (the
/// two agree bit for bit) and ~10x slower.
cudaError_t reference_gemm_f64_naive(Op op_a, Op op_b, int m, int n, int k, double alpha, const void* a,
                                     int64_t lda, const void* b, int64_t ldb, double beta, const void* c0,
                                     int64_t ldc, double* ref, cudaStream_t stream,
                                     const GemmTypes& types = kF32Types);

/// ||C - ref||_F / max(||ref||_F, tiny) for C of `c_type`; NaN if any element of C is not finite.
/// Synchronises `stream`.
double relative_error(const void* c, int64_t ldc, const double* ref, int m, int n, cudaStream_t stream,
                      DataType c_type = DataType::kF32);

/// The error bound a result of `types` must meet over K = k: 1e-6 * sqrt(k) + 1e-6 for the FP32 sum
/// (random-sign sums of k FP32 products land near 6e-8 * sqrt(k / 2); indexing or synchronisation
/// bugs give errors of order 1), plus C's unit roundoff for a 16-bit C (2^-8 BF16, 2^-11 FP16).
/// A k-tile of 64 products dropped from K = 4096 moves ||C||_F by about 12%, far above any of them.
/// Other compute types have no bound: throws StatusError(NOT_SUPPORTED) naming them, so nothing of
/// those types is ever taken as checked.
double error_bound(int k, const GemmTypes& types = kF32Types);

}  // namespace autogemm
