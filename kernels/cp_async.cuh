// Thin wrappers over the sm_80+ asynchronous global->shared copy (cp.async) with zero fill: bytes past
// `src_bytes` are written as zeros, so tile edges need no separate path. A copy reads `src_bytes`
// but addresses its whole size (compute-sanitizer counts a 16-byte copy of 4 source bytes as a
// 16-byte read past an allocation that ends after those 4; one of 0 source bytes it does not count),
// so a vector cut by the end of an operand's last column goes through cp_async_16_cut, which
// addresses only the bytes it copies.
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

/// Copies the first `src_bytes` (0, 4, 8, 12 or 16) of a 16-byte vector and zero-fills the rest,
/// addressing no byte past them: the operand may end right after them (a sub-matrix view, or a tight
/// allocation of ld·(cols − 1) + rows elements, is all cuBLAS reads). A whole vector is one 16-byte
/// copy; a cut one is four 4-byte copies, those past the cut taking 0 bytes from the vector's first
/// element (inside the operand); an empty one is a 16-byte store of zeros.
__device__ __forceinline__ void cp_async_16_cut(void* dst, const float* src, int src_bytes) {
  if (src_bytes == 16) {
    cp_async_16(dst, src, 16);
  } else if (src_bytes == 0) {
    *static_cast<float4*>(dst) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  } else {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const bool in = 4 * q < src_bytes;
      cp_async_4(static_cast<float*>(dst) + q, in ? src + q : src, in ? 4 : 0);
    }
  }
}

/// Copies `src_bytes` of one V-float vector (V = 4: one 16-byte copy, V = 1: one float). For
/// vectors inside the operand: a vector that may be cut takes cp_async_vec_cut.
template <int V>
__device__ __forceinline__ void cp_async_vec(void* dst, const void* src, int src_bytes) {
  static_assert(V == 1 || V == 4, "vectors are 1 or 4 floats");
  if constexpr (V == 4) {
    cp_async_16(dst, src, src_bytes);
  } else {
    cp_async_4(dst, src, src_bytes);
  }
}

/// cp_async_vec for a vector the operand's edge may cut: `src_bytes` of it lie inside (0 ..
/// 4·V). `src` must be a valid address when src_bytes > 0; with 0 nothing is read.
template <int V>
__device__ __forceinline__ void cp_async_vec_cut(float* dst, const float* src, const float* inside, int src_bytes) {
  if constexpr (V == 4) {
    cp_async_16_cut(dst, src, src_bytes);
  } else {
    cp_async_4(dst, src_bytes > 0 ? src : inside, src_bytes);  // a 0-byte copy still needs a valid address
  }
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

}  // namespace autogemm::detail
