// The experiments' timing, as the benchmark times (src/timing.hpp, without its adaptive stop):
// before each of `runs` repetitions `flush(r)` evicts L2, then `launch()` is timed between two CUDA
// events on the default stream; the first `warmup` repetitions are dropped.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#ifdef __CUDACC__
/// %globaltimer: nanoseconds on one clock for all SMs (the experiments' per-block time stamps).
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#endif

/// Bytes of the benchmark's L2 flush on device 0 (a memset of twice the L2; 0 if the query fails).
inline size_t l2_flush_bytes() {
  int l2 = 0;
  if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0) != cudaSuccess) return 0;
  return 2 * static_cast<size_t>(l2);
}

/// The kept repetitions' times in microseconds, sorted (median: v[v.size() / 2], fastest: v[0]).
template <class Flush, class Launch>
std::vector<float> sorted_times_us(Flush flush, Launch launch, int runs, int warmup) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> us;
  for (int r = 0; r < runs; ++r) {
    flush(r);
    cudaEventRecord(e0);
    launch();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, e0, e1);
    if (r >= warmup) us.push_back(ms * 1000.0f);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::sort(us.begin(), us.end());
  return us;
}

/// The benchmark's number for one launch: the median of 25 timed repetitions (28 run, the first 3
/// dropped), each after a memset of `flush_bytes` at `flush` (a different byte value each time).
template <class Launch>
float memset_flushed_median_us(void* flush, size_t flush_bytes, Launch launch) {
  const std::vector<float> us =
      sorted_times_us([&](int r) { cudaMemsetAsync(flush, r, flush_bytes); }, launch, 28, 3);
  return us[us.size() / 2];
}
