// Measures how fast one pass over a 3072 x 3072 FP32 matrix (37.7 MB, the A of the seed's
// 1x3072x3072) goes on this GPU, right after the benchmark's L2 flush: the floor of a GEMV, and why
// the GEMV reads A with evict-first loads (the reason of docs/decisions.md, GEMV family for n ≤ 4).
// Reads the matrix with __ldg, __ldcs (cache-streaming) and an evict-first L2 policy
// (kernels/stream_load.cuh), 1 or 4 float4 loads in flight per thread, 4 or 8 blocks of 256 per SM;
// after a memset flush (the benchmark's method, leaves L2 full of dirty lines) and after a read
// flush; cuBLAS SGEMM (pedantic) and SGEMV on the same matrix as the yardstick. Median of 22 runs.
// Built with the tools (BUILD/tools/stream_read); run by tools/gpu_validation.sh BUILD OUT stream.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"
#include "stream_load.cuh"

using autogemm::detail::evict_first_policy;
using autogemm::detail::load_stream;

enum Load { kLdg, kLdcs, kEvictFirst };

// Grid-stride sum of n4 float4s, U loads in flight; writes only if the sum is a sentinel (never).
template <Load L, int U>
__global__ void stream(const float4* __restrict__ a, size_t n4, float* sink) {
  const unsigned long long policy = evict_first_policy();
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float s = 0.0f;
  for (; i + (U - 1) * stride < n4; i += U * stride) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      v[u] = L == kLdg ? __ldg(a + i + u * stride) : L == kLdcs ? __ldcs(a + i + u * stride)
                                                               : load_stream(a + i + u * stride, policy);
#pragma unroll
    for (int u = 0; u < U; ++u) s += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  for (; i < n4; i += stride) s += __ldg(a + i).x;
  if (s == 123.0f) sink[0] = s;
}

int main() {
  const int m = 3072, k = 3072;
  const size_t n4 = size_t(m) * k / 4, flush_bytes = size_t(100) << 20;  // 2x the H100's 50 MB L2
  float *a, *x, *y, *sink, *flush;
  CHECK(cudaMalloc(&a, sizeof(float) * m * k));
  CHECK(cudaMalloc(&x, sizeof(float) * k));
  CHECK(cudaMalloc(&y, sizeof(float) * m));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMemset(a, 0, sizeof(float) * m * k));
  CHECK(cudaMemset(x, 0, sizeof(float) * k));
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

  for (const bool read_flush : {false, true}) {
    auto time = [&](const char* name, auto launch) {
      const auto flush_l2 = [&](int r) {
        if (read_flush) {
          stream<kLdg, 1><<<sms * 8, 256>>>(reinterpret_cast<const float4*>(flush), flush_bytes / 16, sink);
        } else {
          cudaMemsetAsync(flush, r, flush_bytes);
        }
      };
      const std::vector<float> us = sorted_times_us(flush_l2, launch, 25, 3);
      const double median = us[us.size() / 2];
      std::printf("%-12s %-36s median %7.2f us  min %7.2f  %.2f TB/s\n", read_flush ? "read flush" : "memset flush",
                  name, median, us.front(), 4.0 * m * k / (median * 1e-6) / 1e12);
    };
    for (int per_sm : {4, 8}) {
      const auto a4 = reinterpret_cast<const float4*>(a);
      char name[64];
      std::snprintf(name, sizeof name, "ldg         1 load,  %d blocks/SM", per_sm);
      time(name, [&] { stream<kLdg, 1><<<sms * per_sm, 256>>>(a4, n4, sink); });
      std::snprintf(name, sizeof name, "ldg         4 loads, %d blocks/SM", per_sm);
      time(name, [&] { stream<kLdg, 4><<<sms * per_sm, 256>>>(a4, n4, sink); });
      std::snprintf(name, sizeof name, "ldcs        4 loads, %d blocks/SM", per_sm);
      time(name, [&] { stream<kLdcs, 4><<<sms * per_sm, 256>>>(a4, n4, sink); });
      std::snprintf(name, sizeof name, "evict-first 1 load,  %d blocks/SM", per_sm);
      time(name, [&] { stream<kEvictFirst, 1><<<sms * per_sm, 256>>>(a4, n4, sink); });
      std::snprintf(name, sizeof name, "evict-first 4 loads, %d blocks/SM", per_sm);
      time(name, [&] { stream<kEvictFirst, 4><<<sms * per_sm, 256>>>(a4, n4, sink); });
    }
    const float one = 1.0f, zero = 0.0f;
    time("cublasSgemm m=3072 n=1 k=3072 nn", [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m, x, k, &zero, y, m); });
    time("cublasSgemv m=3072 n=3072", [&] { cublasSgemv(h, CUBLAS_OP_N, m, k, &one, a, m, x, 1, &zero, y, 1); });
  }
  cublasDestroy(h);
  return 0;
}
