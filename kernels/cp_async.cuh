// Thin wrappers over the sm_80+ asynchronous global->shared copy (cp.async) with zero fill: bytes past
// `src_bytes` are written as zeros, so tile edges need no separate path and never read out of bounds.
#pragma once

#include <cstdint>

namespace autogemm::detail {

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/// Copies `src_bytes` (0..16) of a 16-byte vector and zero-fills the rest. Bypasses L1 (.cg).
__device__ __forceinline__ void cp_async_16(void* dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)),
               "l"(src), "r"(src_bytes));
}

/// Copies `src_bytes` (0 or 4) of one float and zero-fills the rest.
__device__ __forceinline__ void cp_async_4(void* dst, const void* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_addr(dst)), "l"(src),
               "r"(src_bytes));
}

/// Copies `src_bytes` of one V-float vector (V = 4: one 16-byte copy, V = 1: one float).
template <int V>
__device__ __forceinline__ void cp_async_vec(void* dst, const void* src, int src_bytes) {
  static_assert(V == 1 || V == 4, "vectors are 1 or 4 floats");
  if constexpr (V == 4) {
    cp_async_16(dst, src, src_bytes);
  } else {
    cp_async_4(dst, src, src_bytes);
  }
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

}  // namespace autogemm::detail
