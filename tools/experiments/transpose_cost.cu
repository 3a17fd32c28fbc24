// Measures what turning a K-major GEMM operand into an X-major one costs on this GPU, right after the
// benchmark's L2 flush (the reason of docs/decisions.md, Operand repacking for K-major operands).
// Where a copy-transpose of B plus the `nt` kernel beats the `nn` kernel (K-major B runs ~5-15%
// slower on the same tile), a repacking pass pays for the large problems. Transposes R x C row-major
// FP32 matrices (the B of 3072^3, 4096^3 and 4096x11008x4096) with a 32 x 32 shared-memory tile,
// after a memset flush of 2x L2 (the benchmark's method); median of 21 runs, CUDA events. Prints the
// time and the bytes moved per second. Built with the tools (BUILD/tools/transpose_cost).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"

constexpr int kTile = 32, kRowsPerPass = 8;

// out (C x R) = in (R x C)^T; block 32 x 8 threads, 32 x 32 tile, padded against bank conflicts.
__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  const int c0 = blockIdx.x * kTile, r0 = blockIdx.y * kTile;
  for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
    const int gr = r0 + r, gc = c0 + threadIdx.x;
    if (gr < rows && gc < cols) tile[r][threadIdx.x] = __ldcs(in + static_cast<size_t>(gr) * cols + gc);
  }
  __syncthreads();
  for (int c = threadIdx.y; c < kTile; c += kRowsPerPass) {
    const int gc = c0 + c, gr = r0 + threadIdx.x;
    if (gc < cols && gr < rows) out[static_cast<size_t>(gc) * rows + gr] = tile[threadIdx.x][c];
  }
}

int main() {
  const size_t flush_bytes = l2_flush_bytes();
  if (flush_bytes == 0) return std::printf("cannot read the L2 size of device 0\n"), 1;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int shapes[][2] = {{3072, 3072}, {4096, 4096}, {4096, 11008}, {1531, 3001}};
  for (const auto& s : shapes) {
    const int rows = s[0], cols = s[1];
    const size_t bytes = static_cast<size_t>(rows) * cols * sizeof(float);
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemset(in, 0, bytes));
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile), block(kTile, kRowsPerPass);
    std::vector<float> ms;
    for (int rep = 0; rep < 22; ++rep) {
      CHECK(cudaMemsetAsync(flush, rep, flush_bytes));
      CHECK(cudaEventRecord(start));
      transpose<<<grid, block>>>(in, out, rows, cols);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (rep > 0) ms.push_back(t);  // the first run pays module loading
    }
    std::sort(ms.begin(), ms.end());
    const double us = ms[ms.size() / 2] * 1e3;
    std::printf("transpose %5d x %5d (%6.1f MB): %8.1f us, %6.2f TB/s read+write\n", rows, cols, bytes / 1e6, us,
                2.0 * bytes / us / 1e6);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  return 0;
}
