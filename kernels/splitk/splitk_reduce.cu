// The split-k reduction of the two-kernel design (background lab: partial sums, then a reduction
// kernel) and the BLAS scale path. Both are bandwidth-bound: one thread per element (or per four
// adjacent rows where C takes float4 stores) along M, coalesced, grid-stride over the rest.
#include "splitk_reduce.hpp"

#include <algorithm>
#include <cstdint>

#include "device_attribute.hpp"
#include "element_dispatch.cuh"
#include "elementwise_grid.hpp"
#include "gemm_params.hpp"
#include "grid_dependency.cuh"
#include "kernel_config.hpp"
#include "launch_config.hpp"

namespace autogemm {
namespace {

// The product a residue reduction adds for K's last column (launch_residue_reduce).
struct LastProduct {
  const float* a = nullptr;  // A's last column (m floats)
  const float* b = nullptr;  // B's last row, element j at b[j * b_stride]
  int64_t b_stride = 0;
};

// One output per thread. Index is the type of the flat output index: 32-bit wherever m * n allows
// (one 32-bit division per output for its row and column, where the 64-bit one is a call of ~70
// instructions); Unroll splits' loads in flight, 8 for up to 15 splits (the compiler's own unroll
// by 16 left 8 splits to a remainder loop of 4s), 16 above, where 8 lost 0.2-0.3 us. 127x3001x1531
// (8 splits) ran 0.1-0.2 us faster end to end in every layout.
// kResidue: the planes of a residue instance of K (KernelConfig::residues), splits / 4 per residue
// of K, residue_partial_ld(m, false) rows deep, residue r's output row i at plane row i + residue_shift(r, lda)
// (residue_problem in simt_sgemm_multistage.cuh); summed residue by residue, split by split.
// The residue form also adds the product of A's last column and B's last row (the planes cover
// the first k - 1 columns: launch_residue_reduce).
template <class Index, int Unroll, bool kResidue = false, class T = float>
__global__ void splitk_reduce_kernel(const float* __restrict__ partials, int splits, int m, int n, float alpha,
                                     float beta, T* __restrict__ c, int64_t ldc, int64_t lda, LastProduct last) {
  // Launched as a programmatic dependent of the GEMM (launch_splitk_reduce): it may start while the
  // GEMM's last blocks run; wait here until the GEMM has finished and its partials are visible.
  wait_for_previous_grid();
  const Index total = static_cast<Index>(m) * static_cast<Index>(n);
  const int64_t ldp = kResidue ? residue_partial_ld(m, false) : partial_ld(m), split_stride = ldp * n;
  for (Index idx = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index j = idx / static_cast<Index>(m), i = idx - j * static_cast<Index>(m);
    const float* column = partials + static_cast<int64_t>(j) * ldp + i;
    float sum = 0.0f;
    if constexpr (kResidue) {
      const int per_residue = splits / kResidues;
      if (per_residue <= kMaxResidueSplits) {
        // Every plane's load issued before the first addition (predicated by the split count), then
        // the same additions in the same order as below. The loop below keeps one residue's loads
        // in flight at a time: 127x3001x1531's 4 planes took 9.0 us under ncu against 5.8 for the
        // aligned twin's reduction, the GEMMs alike.
        float v[kResidues][kMaxResidueSplits];
#pragma unroll
        for (int r = 0; r < kResidues; ++r)
#pragma unroll
          for (int s = 0; s < kMaxResidueSplits; ++s)
            v[r][s] = s < per_residue ? column[(r * per_residue + s) * split_stride + residue_shift(r, lda)] : 0.0f;
#pragma unroll
        for (int r = 0; r < kResidues; ++r)
#pragma unroll
          for (int s = 0; s < kMaxResidueSplits; ++s)
            if (s < per_residue) sum += v[r][s];
      } else {
#pragma unroll
        for (int r = 0; r < kResidues; ++r) {
          const float* plane = column + r * per_residue * split_stride + residue_shift(r, lda);
#pragma unroll Unroll
          for (int s = 0; s < per_residue; ++s) sum += plane[s * split_stride];
        }
      }
      sum = fmaf(last.a[i], last.b[static_cast<int64_t>(j) * last.b_stride], sum);
    } else {
#pragma unroll Unroll
      for (int s = 0; s < splits; ++s) sum += column[s * split_stride];
    }
    store_scaled_as(c + static_cast<int64_t>(j) * ldc + i, sum, alpha, beta);
  }
}

// Small outputs of many splits (128x128 with 64: the one-element kernel's 64 blocks leave half the
// SMs idle and each thread's 64 loads take four rounds of 16): a block of Warps warps covers 32
// consecutive outputs, each warp sums ceil(splits / Warps) consecutive splits with all its loads in
// flight, and warp 0 adds the warps' sums in warp order. Deterministic, in that order (the host's
// expectation: tests/gpu/splitk_reduce_test.cpp). 128x128 with 64 splits 3.58 -> 2.56 us at 4 warps;
// outputs that give every SM a block of the one-element kernel lose with it, so
// launch_splitk_reduce takes it only where splitk_reduce_warps says.
template <int Warps, class T = float>
__global__ void __launch_bounds__(32 * Warps) splitk_reduce_warps_kernel(const float* __restrict__ partials, int splits,
                                                                         int m, int n, float alpha, float beta,
                                                                         T* __restrict__ c, int64_t ldc) {
  wait_for_previous_grid();  // as above
  __shared__ float warp_sums[Warps][32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const uint32_t idx = blockIdx.x * 32u + lane, total = static_cast<uint32_t>(m) * static_cast<uint32_t>(n);
  const uint32_t j = idx / static_cast<uint32_t>(m), i = idx - j * static_cast<uint32_t>(m);
  const int64_t ldp = partial_ld(m), split_stride = ldp * n;
  const int per = (splits + Warps - 1) / Warps, first = static_cast<int>(warp) * per, last = min(splits, first + per);
  float sum = 0.0f;
  if (idx < total) {
    const float* column = partials + static_cast<int64_t>(j) * ldp + i;
#pragma unroll 16
    for (int s = first; s < last; ++s) sum += column[s * split_stride];
  }
  warp_sums[warp][lane] = sum;
  __syncthreads();
  if (warp != 0 || idx >= total) return;
  float out = warp_sums[0][lane];
#pragma unroll
  for (int w = 1; w < Warps; ++w) out += warp_sums[w][lane];
  store_scaled_as(c + static_cast<int64_t>(j) * ldc + i, out, alpha, beta);
}

// The planes of a residue instance of M (KernelConfig::residues_of_m): output row i = 4p + r is row
// p of residue r's planes, splits / 4 of them residue_partial_ld(m, true) rows deep, added in split
// order; up to kMaxResidueSplits splits every load is issued before the first addition (as for the
// residues of K: one L2 round trip per output, not one per split).
// A warp's 32 rows read 8 consecutive rows of each of 4 planes: 4 sectors per load, as contiguous
// rows would.
template <class Index>
__global__ void m_residue_reduce_kernel(const float* __restrict__ partials, int planes, int m, int n, float alpha,
                                        float beta, float* __restrict__ c, int64_t ldc) {
  wait_for_previous_grid();  // as above
  const Index total = static_cast<Index>(m) * static_cast<Index>(n);
  const int per_residue = planes / kResidues;
  const int64_t ldp = residue_partial_ld(m, true), split_stride = ldp * n;
  for (Index idx = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index j = idx / static_cast<Index>(m), i = idx - j * static_cast<Index>(m);
    const int r = static_cast<int>(i % kResidues);
    const float* column =
        partials + r * per_residue * split_stride + static_cast<int64_t>(j) * ldp + static_cast<int64_t>(i / kResidues);
    float sum = 0.0f;
    if (per_residue <= kMaxResidueSplits) {
      float v[kMaxResidueSplits];
#pragma unroll
      for (int s = 0; s < kMaxResidueSplits; ++s) v[s] = s < per_residue ? column[s * split_stride] : 0.0f;
#pragma unroll
      for (int s = 0; s < kMaxResidueSplits; ++s)
        if (s < per_residue) sum += v[s];
    } else {
#pragma unroll 4
      for (int s = 0; s < per_residue; ++s) sum += column[s * split_stride];
    }
    store_scaled(c + static_cast<int64_t>(j) * ldc + i, sum, alpha, beta);
  }
}

// The same reduction four adjacent rows per thread, where C's columns are 16-byte aligned: partial
// columns start 16-byte aligned too (partial_ld), so each split is one float4 load and each run of
// four outputs one float4 store. Every element gets the same additions in the same order as above
// (the same bits), from a quarter of the threads, loads and index arithmetic: 1000^3 with 2-4
// splits ran 1.4-2.7 us faster end to end. Where C's columns are
// not aligned the kernel above stays: scalar stores, or staging them through warp shuffles, cost
// more there than the wide loads saved.
__global__ void splitk_reduce4_kernel(const float4* __restrict__ partials, int splits, int m, int n, float alpha,
                                      float beta, float* __restrict__ c, int64_t ldc) {
  wait_for_previous_grid();  // as above
  const int64_t ldp = partial_ld(m);
  const int64_t total = ldp / 4 * n;  // float4 per split, also one split's stride
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const float4* column = partials + idx;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 4
    for (int s = 0; s < splits; ++s) {
      const float4 v = column[s * total];
      sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
    }
    const int64_t j = idx * 4 / ldp;
    const int i = static_cast<int>(idx * 4 - j * ldp);
    float* out = c + j * ldc + i;
    if (i + 4 <= m) {
      store_scaled4(out, sum, alpha, beta);
    } else {  // the run that m cuts: C's rows past m are the caller's
      const float v[4] = {sum.x, sum.y, sum.z, sum.w};
      for (int r = 0; r < 4 && i + r < m; ++r) store_scaled(out + r, v[r], alpha, beta);
    }
  }
}

// The product in FP32, rounded once to C's type.
template <class T>
__global__ void scale_c_kernel(int m, int n, float beta, T* __restrict__ c, int64_t ldc) {
  const int64_t total = static_cast<int64_t>(m) * n;
  for (int64_t idx = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    T* out = c + (idx / m) * ldc + idx % m;
    *out = static_cast<T>(beta == 0.0f ? 0.0f : beta * static_cast<float>(*out));
  }
}

dim3 elementwise_grid(int m, int n) { return dim3(elementwise_blocks(static_cast<int64_t>(m) * n)); }

// The launch of the reductions: `grid` blocks of `block` threads, as a programmatic dependent of
// the GEMM on sm_90+, so it overlaps the GEMM's tail instead of following its completion;
// griddepcontrol.wait in the kernels keeps the result exact. It takes 1.5-1.7 us off every split
// problem on the H100.
detail::KernelLaunch after_gemm(dim3 grid, cudaStream_t stream, dim3 block = dim3(kElementwiseThreads)) {
  return dependent_launch(grid, block, stream);
}

// Whether the one-element kernel may index in 32 bits: the flat index and its grid stride (< 2^24)
// stay below 2^32 while m * n < 2^31.
bool narrow_index(int m, int n) { return int64_t{m} * n < (int64_t{1} << 31); }

}  // namespace

int splitk_reduce_warps(int m, int n, int splits, int sm_count) {
  const bool sms_idle = elementwise_blocks(int64_t{m} * n) < static_cast<unsigned>(std::max(1, sm_count));
  return sms_idle && splits >= 4 * kReduceSplitWarps ? kReduceSplitWarps : 1;
}

namespace {

// The reduction one output per thread, or with warps sharing each output's splits
// (splitk_reduce_warps), for C of any type.
template <class T>
cudaError_t launch_reduce_elements(const float* partials, int splits, int m, int n, float alpha, float beta, T* c,
                                   int64_t ldc, int sms, cudaStream_t stream) {
  if (splitk_reduce_warps(m, n, splits, sms) == kReduceSplitWarps) {
    const dim3 grid(static_cast<unsigned>((int64_t{m} * n + 31) / 32));  // a block per run of 32 outputs
    return after_gemm(grid, stream, dim3(32 * kReduceSplitWarps))
        .launch(splitk_reduce_warps_kernel<kReduceSplitWarps, T>, partials, splits, m, n, alpha, beta, c, ldc);
  }
  const bool narrow = narrow_index(m, n), deep = splits >= 16;
  auto kernel = narrow ? (deep ? splitk_reduce_kernel<uint32_t, 16, false, T> : splitk_reduce_kernel<uint32_t, 8, false, T>)
                       : (deep ? splitk_reduce_kernel<int64_t, 16, false, T> : splitk_reduce_kernel<int64_t, 8, false, T>);
  return after_gemm(elementwise_grid(m, n), stream)
      .launch(kernel, partials, splits, m, n, alpha, beta, c, ldc, int64_t{0}, LastProduct{});
}

}  // namespace

cudaError_t launch_splitk_reduce(const float* partials, int splits, int m, int n, float alpha, float beta, float* c,
                                 int64_t ldc, cudaStream_t stream) {
  // Four rows per thread where C takes float4 stores, unless that grid would leave SMs without a
  // block (small outputs with many splits, e.g. 128x128x32768: 16 blocks), where the one-element
  // threads are the more parallel form, or, with 16 splits or more, warps sharing each output's
  // splits (splitk_reduce_warps; never where the float4 grid fills the SMs).
  const int64_t runs = partial_ld(m) / 4;  // float4 runs per column of the partials
  const bool c_vec = ldc % 4 == 0 && (reinterpret_cast<uintptr_t>(c) & 15) == 0;
  const int sms = current_device_attribute<cudaDevAttrMultiProcessorCount>();
  if (c_vec && runs * n >= int64_t{kElementwiseThreads} * sms) {
    return after_gemm(elementwise_grid(static_cast<int>(runs), n), stream)
        .launch(splitk_reduce4_kernel, reinterpret_cast<const float4*>(partials), splits, m, n, alpha, beta, c, ldc);
  }
  return launch_reduce_elements(partials, splits, m, n, alpha, beta, c, ldc, sms, stream);
}

cudaError_t launch_splitk_reduce(DataType type, const float* partials, int splits, int m, int n, float alpha,
                                 float beta, void* c, int64_t ldc, cudaStream_t stream) {
  if (type == DataType::kF32)
    return launch_splitk_reduce(partials, splits, m, n, alpha, beta, static_cast<float*>(c), ldc, stream);
  return with_element(type, [&](auto element) {
    return launch_reduce_elements(partials, splits, m, n, alpha, beta, static_cast<decltype(element)*>(c), ldc,
                                  current_device_attribute<cudaDevAttrMultiProcessorCount>(), stream);
  });
}

cudaError_t launch_residue_reduce(const float* partials, int planes, int m, int n, int64_t lda, const float* a_last,
                                  const float* b_last, int64_t b_last_stride, float alpha, float beta, float* c,
                                  int64_t ldc, cudaStream_t stream) {
  auto kernel = narrow_index(m, n) ? splitk_reduce_kernel<uint32_t, 4, true> : splitk_reduce_kernel<int64_t, 4, true>;
  return after_gemm(elementwise_grid(m, n), stream)  // one output per thread
      .launch(kernel, partials, planes, m, n, alpha, beta, c, ldc, lda, LastProduct{a_last, b_last, b_last_stride});
}

cudaError_t launch_m_residue_reduce(const float* partials, int planes, int m, int n, float alpha, float beta, float* c,
                                    int64_t ldc, cudaStream_t stream) {
  auto kernel = narrow_index(m, n) ? m_residue_reduce_kernel<uint32_t> : m_residue_reduce_kernel<int64_t>;
  return after_gemm(elementwise_grid(m, n), stream)  // one output per thread
      .launch(kernel, partials, planes, m, n, alpha, beta, c, ldc);
}

cudaError_t launch_scale_c(int m, int n, float beta, float* c, int64_t ldc, cudaStream_t stream) {
  return launch_scale_c(DataType::kF32, m, n, beta, c, ldc, stream);
}

cudaError_t launch_scale_c(DataType type, int m, int n, float beta, void* c, int64_t ldc, cudaStream_t stream) {
  return with_element(type, [&](auto t) {
    scale_c_kernel<<<elementwise_grid(m, n), kElementwiseThreads, 0, stream>>>(m, n, beta,
                                                                              static_cast<decltype(t)*>(c), ldc);
    return cudaGetLastError();
  });
}

}  // namespace autogemm
