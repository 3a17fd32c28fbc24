// The narrow-output experiments' operands (skinny_stream.cu, skinny_tma.cu): column-major A (m x k,
// M-major: the large operand) and B (k x n, K-major: the narrow one) of up to 3072 x 3072 and
// 3072 x 32, the same pseudo-random values in [-0.5, 0.5) on the host and the device, C on the
// device, and the check of a result against a float64 reference.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "host_uniform.hpp"

struct SkinnyProblem {
  int m, n, k;
  /// The memory floor: A, B and C once at the 3.0 TB/s copy rate (docs/performance.md).
  double floor_us() const { return 4.0 * (double(m) * k + double(k) * n + double(m) * n) / 3.0e12 * 1e6; }
};

struct SkinnyOperands {
  static constexpr int kMaxM = 3072, kMaxK = 3072, kMaxN = 32;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  std::vector<float> ha, hb, hc;

  /// Allocates and fills A and B (C is left to the caller to poison); the first error, if any.
  cudaError_t init() {
    ha.resize(size_t(kMaxM) * kMaxK), hb.resize(size_t(kMaxK) * kMaxN), hc.resize(size_t(kMaxM) * kMaxN);
    unsigned s = 12345;
    fill_host_uniform(ha, s, 16);
    fill_host_uniform(hb, s, 16);
    for (cudaError_t e : {cudaMalloc(&a, sizeof(float) * ha.size()), cudaMalloc(&b, sizeof(float) * hb.size()),
                          cudaMalloc(&c, sizeof(float) * hc.size())})
      if (e != cudaSuccess) return e;
    if (cudaError_t e = cudaMemcpy(a, ha.data(), sizeof(float) * ha.size(), cudaMemcpyHostToDevice); e != cudaSuccess)
      return e;
    return cudaMemcpy(b, hb.data(), sizeof(float) * hb.size(), cudaMemcpyHostToDevice);
  }

  /// The yardstick: cuBLAS SGEMM of the problem into C (the handle's math mode as the caller set it).
  cublasStatus_t cublas_sgemm(cublasHandle_t h, const SkinnyProblem& p) const {
    const float one = 1.0f, zero = 0.0f;
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p.m, p.n, p.k, &one, a, p.m, b, p.k, &zero, c, p.m);
  }

  /// The worst error of C over every `row_step`-th row and all columns, relative to sum |a b|, in
  /// units of 1e-9; -1 where a sampled element is NaN (C poisoned and never written), -2 if C could
  /// not be read.
  int max_error(const SkinnyProblem& p, int row_step) {
    if (cudaMemcpy(hc.data(), c, sizeof(float) * p.m * p.n, cudaMemcpyDeviceToHost) != cudaSuccess) return -2;
    double worst = 0;
    for (int j = 0; j < p.n; ++j)
      for (int i = 0; i < p.m; i += row_step) {
        double ref = 0, mag = 0;
        for (int kk = 0; kk < p.k; ++kk) {
          const double x = double(ha[i + size_t(kk) * p.m]) * hb[kk + size_t(j) * p.k];
          ref += x, mag += std::fabs(x);
        }
        const double got = hc[i + size_t(j) * p.m];
        if (std::isnan(got)) return -1;
        worst = std::max(worst, std::fabs(ref - got) / mag);
      }
    return int(worst * 1e9);
  }
};
