// Loads of data read exactly once (a GEMV's A): read-only path, no L1 allocation, and L2 eviction
// priority "evict first", so the stream replaces its own clean lines in L2 instead of evicting (and
// writing back) lines other work left there: on the H100 a 37.7 MB stream after a memset flush of
// L2 reads in 18.4 us with these loads, 20.8 with plain ones.
// A miss fetches 256 bytes into L2 (.L2::256B), so blocks whose threads read short runs of a row
// (64 bytes in a 16-row M-major block) find their neighbours' bytes in L2: 1x3072x3072 `nn` on
// the 16-row block 20.0 us against 20.9 without, other candidates unchanged.
#pragma once

#include <cuda_runtime.h>

namespace autogemm::detail {

/// An L2 policy that marks every line it touches evict-first (createpolicy, sm_80+).
__device__ __forceinline__ unsigned long long evict_first_policy() {
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

__device__ __forceinline__ float4 load_stream(const float4* p, unsigned long long policy) {
  float4 v;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p), "l"(policy));
  return v;
}

__device__ __forceinline__ float load_stream(const float* p, unsigned long long policy) {
  float v;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(policy));
  return v;
}

}  // namespace autogemm::detail
