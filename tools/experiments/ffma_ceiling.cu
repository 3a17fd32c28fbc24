// Measures the FFMA ceiling of target 3's long-K shapes on this card (the reason of
// docs/decisions.md, Why target 3 of the FP32 performance issue is bounded). 256x256x8192 and
// 128x128x32768 both ask for M*N*K = 2^29 FFMAs; target 3 allows 25.6 us for them, timed as the
// benchmark times (after its memset flush of twice the L2, CUDA events, median of 25). Here kernels
// do exactly those 2^29 FFMAs with no global memory traffic at all, in the instruction mix of a SIMT
// GEMM tile (register accumulators, fragments read from shared memory as float4s, a barrier per
// k-tile of 32 k-steps), so their event time is what any SIMT kernel pays before it reads an operand,
// stores a partial or reduces splits. Per variant: event-timed median, the span from the first
// block's start to the last block's end (%globaltimer), and the SM clock over the span (clock64).
//
// Usage: ffma_ceiling (no arguments). Output: one line per variant.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "experiment_timing.hpp"

namespace {

constexpr int64_t kFfmas = int64_t{1} << 29;  // 256*256*8192 = 128*128*32768
constexpr int kBlocks = 128;                  // the long-K winners' grids: 128 (4 tiles x 32 splits) or more
constexpr int kThreads = 256;
constexpr int kKTile = 32;  // k-steps between barriers, as a BK = 32 tile

struct Probe {
  unsigned long long start_ns, end_ns;
  long long start_clk, end_clk;
};

__device__ __forceinline__ void probe_start(Probe& p) {
  __syncthreads();
  if (threadIdx.x == 0) {
    p.start_ns = global_ns();
    p.start_clk = clock64();
  }
}
__device__ __forceinline__ void probe_end(Probe* probes, Probe& p) {
  __syncthreads();
  if (threadIdx.x == 0) {
    p.end_ns = global_ns();
    p.end_clk = clock64();
    probes[blockIdx.x] = p;
  }
}

__global__ void empty_kernel(Probe* probes) {
  Probe p;
  probe_start(p);
  probe_end(probes, p);
}

// TM x TN accumulators per thread. kLds: the fragments of every k-step read from shared memory as
// float4s (TM / 4 + TN / 4 LDS.128, conflict-free: a quarter warp reads 8 adjacent float4s of A and
// one broadcast float4 of B; warps share rows as a tile's warps do: 2 groups along A, 4 along B), a
// barrier per kKTile k-steps; else the fragments stay in registers.
template <int TM, int TN, bool kLds>
__global__ void __launch_bounds__(kThreads) ffma_kernel(int ksteps, float* out, Probe* probes) {
  constexpr int kRowA = 4 * TM;  // float4s of A per k-step: 2 warp groups x 8 lanes x TM / 4
  constexpr int kRowB = 4 * TN;  // float4s of B per k-step: 4 warp groups x 4 (lane / 8) x TN / 4
  __shared__ float4 sa[kLds ? kKTile * kRowA : 1], sb[kLds ? kKTile * kRowB : 1];  // 48 KB at 8x16
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (kLds) {
    for (int i = threadIdx.x; i < kKTile * kRowA; i += kThreads) sa[i] = make_float4(1e-3f * i, 1.0f, 0.5f, 0.25f);
    for (int i = threadIdx.x; i < kKTile * kRowB; i += kThreads) sb[i] = make_float4(1.0f, 1e-3f * i, 0.5f, 2.0f);
  }
  Probe p;
  probe_start(p);
  float acc[TM][TN] = {};
  float a[TM], b[TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) a[i] = 1e-6f * (threadIdx.x + i);
#pragma unroll
  for (int j = 0; j < TN; ++j) b[j] = 1e-6f * (blockIdx.x + j);
  for (int kt = 0; kt < ksteps; kt += kKTile) {
#pragma unroll 4
    for (int k = 0; k < kKTile; ++k) {
      if (kLds) {
        const float4* ra = sa + k * kRowA + (warp % 2) * 2 * TM + lane % 8;
        const float4* rb = sb + k * kRowB + (warp / 2) * TN + lane / 8;
#pragma unroll
        for (int q = 0; q < TM / 4; ++q) {
          const float4 v = ra[q * 8];
          a[4 * q] = v.x, a[4 * q + 1] = v.y, a[4 * q + 2] = v.z, a[4 * q + 3] = v.w;
        }
#pragma unroll
        for (int q = 0; q < TN / 4; ++q) {
          const float4 v = rb[q * 4];
          b[4 * q] = v.x, b[4 * q + 1] = v.y, b[4 * q + 2] = v.z, b[4 * q + 3] = v.w;
        }
      }
      // Serpentine over the columns, as the library's tiles walk them: each turn reuses a register.
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int jj = 0; jj < TN; ++jj) {
          const int j = i % 2 == 0 ? jj : TN - 1 - jj;
          acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    }
    if (kLds) __syncthreads();
  }
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) sum += acc[i][j];
  out[blockIdx.x * kThreads + threadIdx.x] = sum;
  probe_end(probes, p);
}

struct Variant {
  const char* name;
  void (*kernel)(int, float*, Probe*);
  int ffmas_per_step;  // TM * TN
};

}  // namespace

int main() {
  float* out = nullptr;
  Probe* probes = nullptr;
  void* flush = nullptr;
  const size_t flush_bytes = l2_flush_bytes();
  if (cudaMalloc(&out, sizeof(float) * kBlocks * kThreads) != cudaSuccess ||
      cudaMalloc(&probes, sizeof(Probe) * kBlocks) != cudaSuccess || flush_bytes == 0 ||
      cudaMalloc(&flush, flush_bytes) != cudaSuccess) {
    std::fprintf(stderr, "ffma_ceiling: no CUDA device or out of memory\n");
    return 2;
  }
  std::printf("2^29 FFMAs (256x256x8192 = 128x128x32768) in %d blocks of %d threads, no global reads; "
              "the benchmark's flush before each launch, median of 25\n",
              kBlocks, kThreads);
  const Variant variants[] = {
      {"registers only, 8x8 per thread", ffma_kernel<8, 8, false>, 64},
      {"8x8 fragments from shared memory, barrier per 32 k", ffma_kernel<8, 8, true>, 64},
      {"8x16 fragments from shared memory, barrier per 32 k", ffma_kernel<8, 16, true>, 128},
  };
  auto report = [&](const char* name, auto launch, int64_t ffmas) {
    const float event_us = memset_flushed_median_us(flush, flush_bytes, launch);
    std::vector<Probe> h(kBlocks);
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(h.data(), probes, sizeof(Probe) * kBlocks, cudaMemcpyDeviceToHost) != cudaSuccess) {
      std::printf("%-55s FAILED: %s\n", name, cudaGetErrorString(cudaGetLastError()));
      return;
    }
    unsigned long long first = ~0ull, last = 0;
    double mhz = 0.0;
    for (const Probe& p : h) {
      first = std::min(first, p.start_ns), last = std::max(last, p.end_ns);
      mhz += double(p.end_clk - p.start_clk) / double(p.end_ns - p.start_ns) * 1e3 / kBlocks;
    }
    const double span_us = (last - first) * 1e-3;
    // The busiest SM's FFMAs at the measured clock, at 128 per cycle (4 schedulers x 32 lanes).
    const double ideal_us = ffmas > 0 ? double(ffmas) / kBlocks / 128.0 / mhz : 0.0;
    std::printf("%-55s event %6.2f us, span %6.2f us, SM clock %4.0f MHz, FFMAs alone %5.2f us (%3.0f%% of the span)\n",
                name, event_us, span_us, mhz, ideal_us, ffmas > 0 ? 100.0 * ideal_us / span_us : 0.0);
  };
  report("empty kernel", [&] { empty_kernel<<<kBlocks, kThreads>>>(probes); }, 0);
  for (const Variant& v : variants) {
    const int ksteps = static_cast<int>(kFfmas / (int64_t{kBlocks} * kThreads * v.ffmas_per_step));
    report(v.name, [&] { v.kernel<<<kBlocks, kThreads>>>(ksteps, out, probes); }, kFfmas);
  }
  cudaFree(out);
  cudaFree(probes);
  cudaFree(flush);
  return 0;
}
