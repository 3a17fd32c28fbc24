// Measures what tensor cores would offer the shapes whose targets the FP32 SIMT kernels miss (the
// reason of docs/decisions.md, No tensor cores in the FP32 path). Issue 6's yardstick is cuBLAS SGEMM
// in pedantic FP32; whether autogemm may use tensor cores (TF32 with error compensation, "3xTF32") is
// a decision for the team, not for a kernel. This prints, per problem, cuBLAS SGEMM in pedantic FP32
// and with TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH: one TF32 product, no compensation) — time
// after a memset flush of 2x L2 (the benchmark's method), median of 25, CUDA events — and each
// result's worst error against a float64 reference on sampled entries, relative to sum |a b| (the
// tests' measure). 3xTF32 does three such products to recover FP32 accuracy, so its cost is about 3x
// the TF32 time in the compute-bound problems. Row-major problems, mapped to column-major as the
// benchmark maps them. Built with the tools (BUILD/tools/tensor_core_bound).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"
#include "host_uniform.hpp"

struct Problem {
  int m, n, k;  // row-major C (m x n) = A (m x k) B (k x n)
};

int main() {
  const Problem problems[] = {{4096, 4096, 4096}, {3072, 3072, 3072}, {256, 256, 8192},  {128, 128, 32768},
                              {16, 3072, 3072},   {32, 3072, 3072},   {127, 3001, 1531}, {1000, 1000, 1000}};
  const size_t flush_bytes = size_t(100) << 20;
  size_t max_a = 0, max_b = 0, max_c = 0;
  for (const Problem& p : problems) {
    max_a = std::max(max_a, size_t(p.m) * p.k);
    max_b = std::max(max_b, size_t(p.k) * p.n);
    max_c = std::max(max_c, size_t(p.m) * p.n);
  }
  float *a, *b, *c, *flush;
  CHECK(cudaMalloc(&a, sizeof(float) * max_a));
  CHECK(cudaMalloc(&b, sizeof(float) * max_b));
  CHECK(cudaMalloc(&c, sizeof(float) * max_c));
  CHECK(cudaMalloc(&flush, flush_bytes));
  std::vector<float> ha(max_a), hb(max_b), hc(max_c);
  unsigned s = 2468;
  fill_host_uniform(ha, s, 16);
  fill_host_uniform(hb, s, 16);
  CHECK(cudaMemcpy(a, ha.data(), sizeof(float) * max_a, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), sizeof(float) * max_b, cudaMemcpyHostToDevice));
  cublasHandle_t h;
  CHECK(cublasCreate(&h));

  std::printf("%-18s %12s %12s %8s %14s %14s\n", "row-major m x n x k", "FP32 us", "TF32 us", "ratio", "FP32 error",
              "TF32 error");
  for (const Problem& p : problems) {
    const float one = 1.0f, zero = 0.0f;
    // Column-major: C^T (n x m) = B^T (n x k) A^T (k x m), leading dimensions n, k, n.
    auto launch = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &one, b, p.n, a, p.k, &zero, c, p.n); };
    auto worst_error = [&] {
      cudaMemcpy(hc.data(), c, sizeof(float) * p.m * p.n, cudaMemcpyDeviceToHost);
      double worst = 0;
      for (int i = 0; i < p.m; i += std::max(1, p.m / 61))
        for (int j = 0; j < p.n; j += std::max(1, p.n / 61)) {
          double ref = 0, mag = 0;
          for (int kk = 0; kk < p.k; ++kk) {
            const double t = double(ha[size_t(i) * p.k + kk]) * hb[size_t(kk) * p.n + j];
            ref += t, mag += std::fabs(t);
          }
          worst = std::max(worst, std::fabs(ref - hc[size_t(i) * p.n + j]) / mag);
        }
      return worst;
    };
    double us[2], err[2];
    for (int mode = 0; mode < 2; ++mode) {
      CHECK(cublasSetMathMode(h, mode == 0 ? CUBLAS_PEDANTIC_MATH : CUBLAS_TF32_TENSOR_OP_MATH));
      cudaMemset(c, 0xff, sizeof(float) * p.m * p.n);
      launch();
      CHECK(cudaDeviceSynchronize());
      err[mode] = worst_error();
      us[mode] = memset_flushed_median_us(flush, flush_bytes, launch);
    }
    char shape[32];
    std::snprintf(shape, sizeof shape, "%dx%dx%d", p.m, p.n, p.k);
    std::printf("%-18s %12.1f %12.1f %8.2f %14.2e %14.2e\n", shape, us[0], us[1], us[0] / us[1], err[0], err[1]);
  }
  cublasDestroy(h);
  return 0;
}
