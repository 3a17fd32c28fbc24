// Measures how long the split-k reduction takes where it runs, and which form of it is fastest (the
// reason of docs/decisions.md, The reduction kernel's forms). The float4 kernel serves C with 16-byte
// aligned columns; C with odd leading dimensions (127x3001x1531, the problem that holds target 4)
// takes the one-element kernel, whose 64-bit-index form (i64_u4) does a 64-bit division per thread and
// two rounds of four L2 loads, against 32-bit indices and 8 split loads in flight (idx32_u8). This
// times, per problem of the tuned tables (m, n, splits, ldc), the library's launch_splitk_reduce and
// variants of it, each after the benchmark's flush and a producer kernel that writes the partials
// (so they sit dirty in L2 as the GEMM's epilogue leaves them, and the reduction is a programmatic
// dependent of it as in the library), and checks every variant's C bit for bit against the first
// variant in the one-element order. Printed: the median of producer + reduction minus the producer's
// own median (the reduction's share of the pair). The warps variants add the splits in another
// (fixed) order, split among a block's warps; those are checked against a float64 sum of the
// partials within the recursive-summation error bound instead of bit for bit.
// Built with the tools (BUILD/tools/reduce_variants); no argument.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"
#include "splitk_reduce.cu"  // the library's reduction, its launcher and its helpers

namespace {

using autogemm::partial_ld;
using autogemm::store_scaled;
using autogemm::store_scaled4;

__device__ __forceinline__ void wait_for_producer() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900  // as the library's kernels: sm_90+ only
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// The partials the GEMM's epilogue would write: split planes of partial_ld(m) x n, float4 stores,
// values in [-1, 1) from a hash so that the order of additions shows in the bits.
__global__ void produce(float4* partials, int64_t count4) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < count4;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float v[4];
    for (int q = 0; q < 4; ++q) {
      uint32_t h = static_cast<uint32_t>(i * 4 + q) * 2654435761u;
      h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
      v[q] = static_cast<float>(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
    partials[i] = make_float4(v[0], v[1], v[2], v[3]);
  }
}

// V1: one output per thread: the library's one-element kernel, a template of its index type and the
// splits' loads in flight (`Index`, `Unroll`), so each form runs the library's own code.
template <class Index, int Unroll>
constexpr auto reduce_one = autogemm::splitk_reduce_kernel<Index, Unroll>;

// V2: a two-dimensional grid, no division: blockIdx.y is the column, x the run of rows.
__global__ void reduce_2d(const float* __restrict__ partials, int splits, int m, int n, float alpha, float beta,
                          float* __restrict__ c, int64_t ldc) {
  wait_for_producer();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y;
  if (i >= m) return;
  const int64_t ldp = partial_ld(m), split_stride = ldp * n;
  const float* column = partials + j * ldp + i;
  float sum = 0.0f;
#pragma unroll 8
  for (int s = 0; s < splits; ++s) sum += column[s * split_stride];
  store_scaled(c + j * ldc + i, sum, alpha, beta);
}

// V3: one output per lane over the padded rows; a quad of lanes loads four splits of its four rows as
// four float4s and transposes them with two rounds of shuffles, so lane t holds its row's values of
// the four splits in split order (the same additions in the same order as the library's kernel).
__device__ __forceinline__ float4 quad_transpose(float4 v, unsigned t) {
  // Round 1 (lanes t, t ^ 1): lane t keeps the elements whose index's bit 0 equals t's, takes the
  // others from its partner; round 2 the same on bit 1.
  const bool b0 = t & 1;
  float s0 = b0 ? v.x : v.y, s1 = b0 ? v.z : v.w;
  float r0 = __shfl_xor_sync(0xffffffffu, s0, 1), r1 = __shfl_xor_sync(0xffffffffu, s1, 1);
  float4 w = b0 ? make_float4(r0, v.y, r1, v.w) : make_float4(v.x, r0, v.z, r1);
  const bool b1 = t & 2;
  s0 = b1 ? w.x : w.z, s1 = b1 ? w.y : w.w;
  r0 = __shfl_xor_sync(0xffffffffu, s0, 2), r1 = __shfl_xor_sync(0xffffffffu, s1, 2);
  return b1 ? make_float4(r0, r1, w.z, w.w) : make_float4(w.x, w.y, r0, r1);
}

__global__ void reduce_quad(const float4* __restrict__ partials, int splits, int m, int n, float alpha, float beta,
                            float* __restrict__ c, int64_t ldc) {
  wait_for_producer();
  const unsigned ldp = static_cast<unsigned>(partial_ld(m));
  const unsigned total = ldp * static_cast<unsigned>(n);  // padded outputs, a multiple of 4
  const int64_t split_stride4 = static_cast<int64_t>(ldp / 4) * n;
  const unsigned t = threadIdx.x & 3;
  for (unsigned idx = blockIdx.x * blockDim.x + threadIdx.x; (idx & ~31u) < total; idx += gridDim.x * blockDim.x) {
    const bool live = idx < total;  // the same for the four lanes of a quad
    const unsigned q = idx / 4;
    float sum = 0.0f;
    for (int s0 = 0; s0 < splits; s0 += 4) {
      float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (live && s0 + static_cast<int>(t) < splits) v = partials[(s0 + t) * split_stride4 + q];
      const float4 w = quad_transpose(v, t);
      sum += w.x;
      if (s0 + 1 < splits) sum += w.y;
      if (s0 + 2 < splits) sum += w.z;
      if (s0 + 3 < splits) sum += w.w;
    }
    const unsigned j = idx / ldp, i = idx - j * ldp;
    if (live && i < static_cast<unsigned>(m)) store_scaled(c + static_cast<int64_t>(j) * ldc + i, sum, alpha, beta);
  }
}

// V4: the library's float4 kernel with its index arithmetic in `Index` (32-bit: no 64-bit division
// for the row and column of a run) and `Unroll` splits' loads in flight (the library's: 4).
template <class Index, int Unroll>
__global__ void reduce4(const float4* __restrict__ partials, int splits, int m, int n, float alpha, float beta,
                        float* __restrict__ c, int64_t ldc) {
  wait_for_producer();
  const Index ldp = static_cast<Index>(partial_ld(m));
  const Index total = ldp / 4 * static_cast<Index>(n);
  for (Index idx = blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<Index>(gridDim.x) * blockDim.x) {
    const float4* column = partials + idx;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll Unroll
    for (int s = 0; s < splits; ++s) {
      const float4 v = column[static_cast<int64_t>(s) * total];
      sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
    }
    const Index j = idx / (ldp / 4);
    const int i = static_cast<int>((idx - j * (ldp / 4)) * 4);
    float* out = c + static_cast<int64_t>(j) * ldc + i;
    if (i + 4 <= m) {
      store_scaled4(out, sum, alpha, beta);
    } else {
      const float v[4] = {sum.x, sum.y, sum.z, sum.w};
      for (int r = 0; r < 4 && i + r < m; ++r) store_scaled(out + r, v[r], alpha, beta);
    }
  }
}

// V5: the splits of a run of 32 outputs divided among the W warps of a block, the
// library's splitk_reduce_warps_kernel (which launch_splitk_reduce takes at W = 4 for small outputs of
// 16 splits or more). Deterministic, but not the one-element order: checked against an error bound.
template <int W>
constexpr auto reduce_split_warps = autogemm::splitk_reduce_warps_kernel<W>;

struct Problem {
  int m, n, splits;
  int64_t ldc;
  const char* source;  // which tuned problem of performance.md has this reduction
};

template <class Kernel, class... Args>
cudaError_t launch_dependent(dim3 grid, dim3 block, Kernel kernel, Args... args) {
  return autogemm::detail::KernelLaunch(grid, block, nullptr).after_previous_kernel(true).launch(kernel, args...);
}

// Blocks of 256 threads for `threads` work items, at most 65535: the library's elementwise_grid rule
// for a count rather than m x n.
dim3 blocks_for(int64_t threads) {
  return dim3(static_cast<unsigned>(std::min<int64_t>((threads + 255) / 256, 65535)));
}

}  // namespace

int main() {
  const Problem problems[] = {
      {127, 3001, 8, 127, "127x3001x1531 (every layout)"},
      {1000, 1000, 2, 1000, "1000^3 nn/tn/tt"},
      {1000, 1000, 4, 1000, "1000^3 nt"},
      {1001, 1001, 2, 1001, "odd ldc, 2 splits"},
      {128, 3072, 8, 128, "128x3072x3072"},
      {256, 3072, 4, 256, "256x3072x3072"},
      {64, 3072, 8, 64, "64x3072x3072"},
      {32, 3072, 16, 32, "32x3072x3072"},
      {256, 256, 8, 256, "256x256x1024"},
      {256, 256, 32, 256, "256x256x8192"},
      {128, 128, 64, 128, "128x128x32768"},
      {16, 3072, 8, 16, "16x3072x3072"},
  };
  constexpr int kRuns = 40, kWarmup = 5, kRounds = 5;
  const size_t flush_bytes = l2_flush_bytes();
  if (flush_bytes == 0) return std::printf("cannot read the L2 size of device 0\n"), 1;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs; microseconds, the median over %d alternating rounds of each round's median of %d "
              "runs (after %d warm-up)\n",
              prop.name, prop.multiProcessorCount, kRounds, kRuns - kWarmup, kWarmup);
  std::printf("%-16s %-6s %-30s %-16s %9s %9s %8s %-13s %s\n", "m x n", "splits", "problem", "variant", "pair_us",
              "reduce_us", "vs_lib", "pair_rounds", "bits");
  int failures = 0;
  for (const Problem& pr : problems) {
    const int64_t ldp = partial_ld(pr.m);
    const int64_t count4 = pr.splits * ldp * pr.n / 4;
    float4* partials = nullptr;
    float* c = nullptr;
    const size_t c_elems = static_cast<size_t>(pr.ldc) * pr.n;
    CHECK(cudaMalloc(&partials, count4 * sizeof(float4)));
    CHECK(cudaMalloc(&c, c_elems * sizeof(float)));
    const float* pf = reinterpret_cast<const float*>(partials);
    const float alpha = 1.0f, beta = 0.0f;
    const dim3 producer_grid = blocks_for(count4);
    auto producer = [&] { produce<<<producer_grid, 256>>>(partials, count4); };
    const unsigned total = static_cast<unsigned>(pr.m) * pr.n;
    const unsigned padded = static_cast<unsigned>(ldp) * pr.n;

    struct Variant {
      const char* name;
      std::function<cudaError_t()> launch;
      bool same_order = true;  // the library's additions in its order: checked bit for bit
    };
    auto one = [&](auto kernel) {
      return [&, kernel] {
        // (The last argument is the residue planes' lda, which the one-element kernel reads only in
        // its residue form, which also adds the product of A's last column and B's last row.)
        return launch_dependent(blocks_for(total), 256, kernel, pf, pr.splits, pr.m, pr.n, alpha, beta, c, pr.ldc,
                                int64_t{0}, autogemm::LastProduct{});
      };
    };
    std::vector<Variant> variants = {
        {"library", [&] { return autogemm::launch_splitk_reduce(pf, pr.splits, pr.m, pr.n, alpha, beta, c, pr.ldc, 0); },
         autogemm::splitk_reduce_warps(pr.m, pr.n, pr.splits, prop.multiProcessorCount) == 1},
        {"i64_u4", one(reduce_one<int64_t, 4>)},
        {"i64_u8", one(reduce_one<int64_t, 8>)},
        {"idx32_u4", one(reduce_one<unsigned, 4>)},
        {"idx32_u8", one(reduce_one<unsigned, 8>)},
        {"2d",
         [&] {
           const unsigned bx = std::min(256u, (static_cast<unsigned>(pr.m) + 31) / 32 * 32);
           return launch_dependent(dim3((pr.m + bx - 1) / bx, pr.n), bx, reduce_2d, pf, pr.splits, pr.m, pr.n, alpha,
                                   beta, c, pr.ldc);
         }},
        {"quad",
         [&] {
           return launch_dependent(blocks_for(padded), 256, reduce_quad, static_cast<const float4*>(partials), pr.splits,
                                   pr.m, pr.n, alpha, beta, c, pr.ldc);
         }},
    };
    auto four = [&](auto kernel) {
      return [&, kernel] {
        return launch_dependent(blocks_for(padded / 4), 256, kernel, static_cast<const float4*>(partials), pr.splits,
                                pr.m, pr.n, alpha, beta, c, pr.ldc);
      };
    };
    auto warps = [&](auto kernel, unsigned w) {
      return [&, kernel, w] {
        return launch_dependent(dim3((total + 31) / 32), 32 * w, kernel, pf, pr.splits, pr.m, pr.n, alpha, beta, c,
                                pr.ldc);
      };
    };
    variants.push_back({"warps2", warps(reduce_split_warps<2>, 2), false});
    variants.push_back({"warps4", warps(reduce_split_warps<4>, 4), false});
    variants.push_back({"warps8", warps(reduce_split_warps<8>, 8), false});
    variants.push_back({"warps16", warps(reduce_split_warps<16>, 16), false});
    if (pr.ldc % 4 == 0) {
      variants.push_back({"float4_i64_u4", four(reduce4<int64_t, 4>)});
      variants.push_back({"float4_idx32_u4", four(reduce4<unsigned, 4>)});
      variants.push_back({"float4_idx32_u8", four(reduce4<unsigned, 8>)});
    }

    auto flush_fn = [&](int r) { cudaMemsetAsync(flush, r, flush_bytes); };
    auto median = [](std::vector<float> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    // Rounds alternate the variants (and the producer alone), so that a slow spell of the machine
    // lands on all of them; each round's median, then the median over rounds.
    std::vector<std::vector<float>> pair_us(variants.size());
    std::vector<float> producer_us;
    std::vector<float> reference(c_elems), got(c_elems);
    std::vector<const char*> bits(variants.size(), "same");
    std::vector<double> worst_bound(variants.size(), 0.0);  // other-order variants: worst error / bound
    int reference_variant = -1;
    producer();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> host_partials(count4 * 4);
    CHECK(cudaMemcpy(host_partials.data(), partials, count4 * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int round = 0; round < kRounds; ++round) {
      const auto p = sorted_times_us(flush_fn, producer, kRuns, kWarmup);
      producer_us.push_back(p[p.size() / 2]);
      for (size_t v = 0; v < variants.size(); ++v) {
        CHECK(cudaMemset(c, 0xff, c_elems * sizeof(float)));  // NaN poison: every output must be written
        const auto t = sorted_times_us(flush_fn, [&] { producer(), variants[v].launch(); }, kRuns, kWarmup);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        pair_us[v].push_back(t[t.size() / 2]);
        CHECK(cudaMemcpy(got.data(), c, c_elems * sizeof(float), cudaMemcpyDeviceToHost));
        if (round == 0 && bits[v][0] == 's' && variants[v].same_order && reference_variant < 0) {
          reference = got;  // the first variant in the one-element order: every same-order one's bits
          reference_variant = static_cast<int>(v);
          bits[v] = "reference";
          continue;
        }
        if (static_cast<int>(v) == reference_variant) continue;
        if (!variants[v].same_order) {
          // Another order of the same additions: within the recursive-summation bound
          // (splits - 1) * 2^-24 * sum |x| of the float64 sum, never NaN (the poison).
          double worst = 0.0;
          for (int j = 0; j < pr.n; ++j)
            for (int i = 0; i < pr.m; ++i) {
              double exact = 0.0, magnitude = 0.0;
              for (int sp = 0; sp < pr.splits; ++sp) {
                const double x = host_partials[sp * ldp * pr.n + static_cast<int64_t>(j) * ldp + i];
                exact += x, magnitude += std::fabs(x);
              }
              const double err = std::fabs(got[static_cast<size_t>(j) * pr.ldc + i] - exact);
              const double ratio = err / ((pr.splits - 1) * std::ldexp(1.0, -24) * magnitude + 1e-30);
              worst = std::isnan(ratio) ? INFINITY : std::max(worst, ratio);
            }
          worst_bound[v] = std::max(worst_bound[v], worst);
          if (worst > 1.0) failures += bits[v][0] != 'O', bits[v] = "OVER BOUND";
          else if (bits[v][0] != 'O') bits[v] = "in bound";
          continue;
        }
        for (int j = 0; j < pr.n; ++j)
          if (std::memcmp(&got[static_cast<size_t>(j) * pr.ldc], &reference[static_cast<size_t>(j) * pr.ldc],
                          pr.m * sizeof(float)) != 0) {
            failures += bits[v][0] != 'D';
            bits[v] = "DIFFERENT";
            break;
          }
      }
    }
    const float producer_median = median(producer_us);
    const float library_us = median(pair_us[0]) - producer_median;
    for (size_t v = 0; v < variants.size(); ++v) {
      const float pair = median(pair_us[v]);
      const auto [lo, hi] = std::minmax_element(pair_us[v].begin(), pair_us[v].end());
      char m_by_n[32];
      std::snprintf(m_by_n, sizeof m_by_n, "%dx%d", pr.m, pr.n);
      std::printf("%-16s %-6d %-30s %-16s %9.2f %9.2f %8.3f %6.2f-%-6.2f %s", m_by_n, pr.splits, pr.source,
                  variants[v].name, pair, pair - producer_median, (pair - producer_median) / library_us, *lo, *hi,
                  bits[v]);
      if (!variants[v].same_order) std::printf(" (worst %.3f of the bound)", worst_bound[v]);
      std::printf("\n");
    }
    std::printf("%-16s %-6d %-30s %-16s %9.2f\n", "", pr.splits, "", "producer alone", producer_median);
    CHECK(cudaFree(partials));
    CHECK(cudaFree(c));
  }
  std::printf("%s\n", failures == 0 ? "every same-order variant bit for bit as the library, every other within its bound"
                                     : "SOME VARIANT DIFFERS");
  return failures == 0 ? 0 : 1;
}
