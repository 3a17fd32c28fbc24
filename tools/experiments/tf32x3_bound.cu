// Measures what error-compensated tensor cores ("3xTF32") would do for target 3's missed shapes (the
// reason of docs/decisions.md, No tensor cores in the FP32 path). cuBLAS's single TF32 product has
// 100-1000x the FP32 error (tensor_core_bound); this gives the decision to keep FP32 GEMM off tensor
// cores numbers of autogemm's own: a plain mma.sync TF32 kernel with split-k, run with one product
// (big_a * big_b, TF32's error) and with three (small_a * big_b + big_a * small_b + big_a * big_b,
// where x = big + small and both halves are rounded to TF32: FP32-level error), its partials summed
// by the library's own reduction (launch_splitk_reduce, a programmatic dependent as in the library),
// timed as the benchmark times (memset flush of 2x L2, CUDA events, median of 25), the GEMM launched
// as a programmatic dependent as the library launches every kernel. Every result is checked on every
// element against a float64 reference: worst |ref - c| / sum |a b| (the tests' measure), printed
// beside cuBLAS's pedantic FP32 and TF32 errors and times from the same process.
//
// The kernel (row-major nn: A m x k, B k x n, C m x n): a BM x BN block of (BM/WM) x (BN/WN) warps,
// K split over gridDim.z, BK-deep stages copied by cp.async into padded shared tiles (A rows of BK + 4
// floats: ldmatrix rows and the A fragment conflict-free; B rows of BN + 8: the B fragment's
// (k = t, n = g) reads conflict-free). A's fragments come through ldmatrix.x4 (a tf32 16x8 tile is
// four 8x4-float matrices), B's through scalar loads (ldmatrix cannot transpose 32-bit elements).
// Shapes must divide the tiles; this is a bound, not a library kernel.
//
// Usage: tf32x3_bound (no arguments). Output: one line per problem and variant.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

#include "cp_async.cuh"
#include "experiment_check.hpp"
#include "experiment_timing.hpp"
#include "host_uniform.hpp"
#include "splitk_reduce.hpp"

namespace {

using autogemm::detail::cp_async_16;
using autogemm::detail::cp_async_commit;
using autogemm::detail::cp_async_wait;
using autogemm::detail::smem_addr;

__device__ __forceinline__ uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}

/// x = big + small, both TF32 (small carries the 13 bits that big drops, rounded to TF32 again).
__device__ __forceinline__ void split_tf32(float x, uint32_t& big, uint32_t& small) {
  big = to_tf32(x);
  small = to_tf32(x - __uint_as_float(big));
}

__device__ __forceinline__ void mma_tf32(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <int BM, int BN, int BK, int kStages, int WM, int WN>
struct Tile {
  static constexpr int kWarpsN = BN / WN;
  static constexpr int kThreads = (BM / WM) * kWarpsN * 32;
  static constexpr int kMi = WM / 16, kNi = WN / 8;
  static constexpr int kAStride = BK + 4, kBStride = BN + 8;
  static constexpr int kSmemFloats = kStages * (BM * kAStride + BK * kBStride);
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 8 == 0 && BK % 8 == 0, "tile shape");
};

/// out[split] (row-major m x n, one plane per split; C itself with one split) = A[:, split's K] B[split's K, :]
/// in `kPasses` TF32 products (1 or 3). kPromote: each k-tile's products are summed by the tensor cores
/// into a zeroed accumulator that FP32 additions (round to nearest) then add to the running sum, so the
/// tensor cores' own accumulation error grows over one k-tile, not over the split's whole K.
template <int BM, int BN, int BK, int kStages, int WM, int WN, int kPasses, bool kPromote>
__global__ void __launch_bounds__(Tile<BM, BN, BK, kStages, WM, WN>::kThreads)
    tf32_gemm(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out, int m, int n, int k,
              int k_per_split) {
  using T = Tile<BM, BN, BK, kStages, WM, WN>;
  extern __shared__ float4 smem4[];
  float* sa = reinterpret_cast<float*>(smem4);
  float* sb = sa + kStages * BM * T::kAStride;
  // A programmatic dependent of the flush, as the library's GEMMs are of their predecessor.
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");

  const int tile_m = blockIdx.y * BM, tile_n = blockIdx.x * BN;
  const int k0 = blockIdx.z * k_per_split, k_tiles = k_per_split / BK;
  const float* a_block = a + static_cast<int64_t>(tile_m) * k + k0;
  const float* b_block = b + static_cast<int64_t>(k0) * n + tile_n;
  auto copy_tile = [&](int kt, int slot) {
    float* da = sa + slot * BM * T::kAStride;
    float* db = sb + slot * BK * T::kBStride;
    for (int v = threadIdx.x; v < BM * BK / 4; v += T::kThreads) {
      const int r = v / (BK / 4), c = v % (BK / 4) * 4;
      cp_async_16(da + r * T::kAStride + c, a_block + static_cast<int64_t>(r) * k + kt * BK + c, 16);
    }
    for (int v = threadIdx.x; v < BK * BN / 4; v += T::kThreads) {
      const int r = v / (BN / 4), c = v % (BN / 4) * 4;
      cp_async_16(db + r * T::kBStride + c, b_block + static_cast<int64_t>(kt * BK + r) * n + c, 16);
    }
  };

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = warp / T::kWarpsN * WM, warp_n = warp % T::kWarpsN * WN;
  const int g = lane / 4, t = lane % 4;
  float acc[T::kMi][T::kNi][4] = {};
  float part[T::kMi][T::kNi][4] = {};
  float(&sum)[T::kMi][T::kNi][4] = kPromote ? part : acc;

  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) copy_tile(s, s);
    cp_async_commit();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<kStages - 2>();
    __syncthreads();
    if (kt + kStages - 1 < k_tiles) copy_tile(kt + kStages - 1, (kt + kStages - 1) % kStages);
    cp_async_commit();
    const float* ta = sa + (kt % kStages) * BM * T::kAStride + warp_m * T::kAStride;
    const float* tb = sb + (kt % kStages) * BK * T::kBStride + warp_n;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 8) {
      uint32_t a_big[T::kMi][4], a_small[T::kMi][4], b_big[T::kNi][2], b_small[T::kNi][2];
#pragma unroll
      for (int mi = 0; mi < T::kMi; ++mi) {
        // ldmatrix.x4: lane i names row i % 16 of the 16x8 tile at column (i / 16) * 4; matrices
        // 0..3 = rows 0-7 / 8-15 at k 0-3, then at k 4-7: the tf32 A fragment's a0..a3.
        const float* row = ta + (mi * 16 + lane % 16) * T::kAStride + kk + lane / 16 * 4;
        uint32_t w[4];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                     : "r"(smem_addr(row)));
#pragma unroll
        for (int j = 0; j < 4; ++j) split_tf32(__uint_as_float(w[j]), a_big[mi][j], a_small[mi][j]);
      }
#pragma unroll
      for (int ni = 0; ni < T::kNi; ++ni) {
        split_tf32(tb[(kk + t) * T::kBStride + ni * 8 + g], b_big[ni][0], b_small[ni][0]);
        split_tf32(tb[(kk + t + 4) * T::kBStride + ni * 8 + g], b_big[ni][1], b_small[ni][1]);
      }
#pragma unroll
      for (int mi = 0; mi < T::kMi; ++mi)
#pragma unroll
        for (int ni = 0; ni < T::kNi; ++ni) {
          if constexpr (kPasses == 3) {  // the small products first, while the accumulator is small
            mma_tf32(sum[mi][ni], a_small[mi], b_big[ni]);
            mma_tf32(sum[mi][ni], a_big[mi], b_small[ni]);
          }
          mma_tf32(sum[mi][ni], a_big[mi], b_big[ni]);
        }
    }
    if constexpr (kPromote) {
#pragma unroll
      for (int mi = 0; mi < T::kMi; ++mi)
#pragma unroll
        for (int ni = 0; ni < T::kNi; ++ni)
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            acc[mi][ni][j] += part[mi][ni][j];
            part[mi][ni][j] = 0.0f;
          }
    }
  }
  cp_async_wait<0>();

  float* plane = out + static_cast<int64_t>(blockIdx.z) * m * n;
#pragma unroll
  for (int mi = 0; mi < T::kMi; ++mi)
#pragma unroll
    for (int ni = 0; ni < T::kNi; ++ni) {
      const int row = tile_m + warp_m + mi * 16 + g, col = tile_n + warp_n + ni * 8 + 2 * t;
      *reinterpret_cast<float2*>(plane + static_cast<int64_t>(row) * n + col) =
          make_float2(acc[mi][ni][0], acc[mi][ni][1]);
      *reinterpret_cast<float2*>(plane + static_cast<int64_t>(row + 8) * n + col) =
          make_float2(acc[mi][ni][2], acc[mi][ni][3]);
    }
}

struct Problem {
  int m, n, k;  // row-major C (m x n) = A (m x k) B (k x n)
};

struct Variant {
  const char* name;
  int bm, bn, bk, threads, smem_bytes;
  int passes;
  bool promote;
  const void* kernel;
};

template <int BM, int BN, int BK, int kStages, int WM, int WN, int kPasses, bool kPromote>
Variant variant(const char* name) {
  using T = Tile<BM, BN, BK, kStages, WM, WN>;
  const void* kernel = reinterpret_cast<const void*>(tf32_gemm<BM, BN, BK, kStages, WM, WN, kPasses, kPromote>);
  const int smem = T::kSmemFloats * static_cast<int>(sizeof(float));
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  return {name, BM, BN, BK, T::kThreads, smem, kPasses, kPromote, kernel};
}

/// Three products with and without per-k-tile promotion, and one product, of one tile.
template <int BM, int BN, int BK, int kStages, int WM, int WN>
void add_tile(std::vector<Variant>& v, const char* name) {
  v.push_back(variant<BM, BN, BK, kStages, WM, WN, 3, true>(name));
  v.push_back(variant<BM, BN, BK, kStages, WM, WN, 3, false>(name));
  v.push_back(variant<BM, BN, BK, kStages, WM, WN, 1, false>(name));
}

/// The float64 product on every element (rows spread over the host's threads) and sum |a b| per element.
void reference(const Problem& p, const std::vector<float>& a, const std::vector<float>& b, std::vector<double>& ref,
               std::vector<double>& mag) {
  ref.assign(size_t(p.m) * p.n, 0.0);
  mag.assign(size_t(p.m) * p.n, 0.0);
  const int workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (int w = 0; w < workers; ++w)
    pool.emplace_back([&, w] {
      std::vector<double> r(p.n), s(p.n);
      for (int i = w; i < p.m; i += workers) {
        std::fill(r.begin(), r.end(), 0.0);
        std::fill(s.begin(), s.end(), 0.0);
        for (int kk = 0; kk < p.k; ++kk) {
          const double x = a[size_t(i) * p.k + kk];
          const float* brow = &b[size_t(kk) * p.n];
          for (int j = 0; j < p.n; ++j) {
            const double prod = x * brow[j];
            r[j] += prod;
            s[j] += std::fabs(prod);
          }
        }
        std::copy(r.begin(), r.end(), ref.begin() + size_t(i) * p.n);
        std::copy(s.begin(), s.end(), mag.begin() + size_t(i) * p.n);
      }
    });
  for (auto& t : pool) t.join();
}

}  // namespace

int main() {
  std::vector<Variant> tiles;
  add_tile<64, 64, 32, 4, 32, 32>(tiles, "64x64x32_s4_w32x32");
  add_tile<128, 64, 32, 4, 64, 32>(tiles, "128x64x32_s4_w64x32");
  add_tile<128, 128, 32, 3, 64, 32>(tiles, "128x128x32_s3_w64x32");
  add_tile<16, 128, 32, 4, 16, 32>(tiles, "16x128x32_s4_w16x32");
  add_tile<16, 64, 32, 4, 16, 16>(tiles, "16x64x32_s4_w16x16");
  add_tile<32, 128, 32, 4, 32, 32>(tiles, "32x128x32_s4_w32x32");
  add_tile<32, 64, 32, 4, 16, 32>(tiles, "32x64x32_s4_w16x32");

  struct Run {
    Problem p;
    const char* tile;
    int splits;
  };
  const Run runs[] = {
      {{256, 256, 8192}, "64x64x32_s4_w32x32", 8},     {{256, 256, 8192}, "64x64x32_s4_w32x32", 16},
      {{256, 256, 8192}, "64x64x32_s4_w32x32", 32},    {{256, 256, 8192}, "128x64x32_s4_w64x32", 16},
      {{256, 256, 8192}, "128x64x32_s4_w64x32", 32},   {{256, 256, 8192}, "128x128x32_s3_w64x32", 32},
      {{128, 128, 32768}, "64x64x32_s4_w32x32", 32},   {{128, 128, 32768}, "64x64x32_s4_w32x32", 64},
      {{128, 128, 32768}, "128x64x32_s4_w64x32", 64},  {{128, 128, 32768}, "128x128x32_s3_w64x32", 128},
      {{16, 3072, 3072}, "16x128x32_s4_w16x32", 4},    {{16, 3072, 3072}, "16x128x32_s4_w16x32", 6},
      {{16, 3072, 3072}, "16x128x32_s4_w16x32", 8},    {{16, 3072, 3072}, "16x64x32_s4_w16x16", 4},
      {{32, 3072, 3072}, "32x128x32_s4_w32x32", 4},    {{32, 3072, 3072}, "32x128x32_s4_w32x32", 8},
      {{32, 3072, 3072}, "32x64x32_s4_w16x32", 4},     {{32, 3072, 3072}, "32x64x32_s4_w16x32", 6},
  };
  const Problem problems[] = {{256, 256, 8192}, {128, 128, 32768}, {16, 3072, 3072}, {32, 3072, 3072}};

  size_t max_a = 0, max_b = 0, max_c = 0, max_ws = 0;
  for (const Run& r : runs) {
    max_a = std::max(max_a, size_t(r.p.m) * r.p.k);
    max_b = std::max(max_b, size_t(r.p.k) * r.p.n);
    max_c = std::max(max_c, size_t(r.p.m) * r.p.n);
    max_ws = std::max(max_ws, size_t(r.splits) * r.p.m * r.p.n);
  }
  const size_t flush_bytes = l2_flush_bytes();
  float *a, *b, *c, *ws, *flush;
  CHECK(cudaMalloc(&a, sizeof(float) * max_a));
  CHECK(cudaMalloc(&b, sizeof(float) * max_b));
  CHECK(cudaMalloc(&c, sizeof(float) * max_c));
  CHECK(cudaMalloc(&ws, sizeof(float) * max_ws));
  CHECK(cudaMalloc(&flush, flush_bytes));
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, %d SMs; times: memset flush of %zu MB, CUDA events, median of 25 (us)\n", prop.name,
              prop.multiProcessorCount, flush_bytes >> 20);
  std::printf("%-16s %-22s %6s %7s %6s %8s %8s %8s %10s\n", "problem", "variant", "passes", "promote", "splits", "gemm_us",
              "total_us", "regs", "error");

  for (const Problem& p : problems) {
    // Uniform in [-0.5, 0.5) with 24 random bits, as the tests' operands.
    std::vector<float> ha(size_t(p.m) * p.k), hb(size_t(p.k) * p.n), hc(size_t(p.m) * p.n);
    unsigned s = 2468;
    fill_host_uniform(ha, s, 24);
    fill_host_uniform(hb, s, 24);
    CHECK(cudaMemcpy(a, ha.data(), sizeof(float) * ha.size(), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), sizeof(float) * hb.size(), cudaMemcpyHostToDevice));
    std::vector<double> ref, mag;
    reference(p, ha, hb, ref, mag);
    auto worst_error = [&]() -> double {
      // NaN-poisoned before each checked launch, so an element never written fails.
      cudaMemcpy(hc.data(), c, sizeof(float) * hc.size(), cudaMemcpyDeviceToHost);
      double worst = 0;
      for (size_t i = 0; i < hc.size(); ++i) {
        const double e = std::fabs(ref[i] - hc[i]) / mag[i];
        if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : e;
      }
      return worst;
    };
    char shape[32];
    std::snprintf(shape, sizeof shape, "%dx%dx%d", p.m, p.n, p.k);

    const float one = 1.0f, zero = 0.0f;
    for (int mode = 0; mode < 2; ++mode) {  // cuBLAS, the yardstick: pedantic FP32, then one TF32 product
      CHECK(cublasSetMathMode(handle, mode == 0 ? CUBLAS_PEDANTIC_MATH : CUBLAS_TF32_TENSOR_OP_MATH));
      // Column-major: C^T (n x m) = B^T (n x k) A^T (k x m).
      auto launch = [&] {
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.m, p.k, &one, b, p.n, a, p.k, &zero, c, p.n);
      };
      CHECK(cudaMemset(c, 0xff, sizeof(float) * hc.size()));
      launch();
      CHECK(cudaDeviceSynchronize());
      const double err = worst_error();
      const float us = memset_flushed_median_us(flush, flush_bytes, launch);
      std::printf("%-16s %-22s %6s %7s %6d %8s %8.2f %8s %10.2e\n", shape, mode == 0 ? "cublas_pedantic" : "cublas_tf32",
                  "-", "-", 1, "-", us, "-", err);
    }

    for (const Run& r : runs) {
      if (r.p.m != p.m || r.p.n != p.n || r.p.k != p.k) continue;
      for (const Variant& v : tiles) {
        if (std::string(v.name) != r.tile) continue;
        const int k_per_split = p.k / r.splits;
        require(p.m % v.bm == 0 && p.n % v.bn == 0 && p.k % r.splits == 0 && k_per_split % v.bk == 0,
                "the problem divides the tile and splits");
        cudaFuncAttributes attr{};
        CHECK(cudaFuncGetAttributes(&attr, v.kernel));
        float* gemm_out = r.splits == 1 ? c : ws;
        auto gemm = [&] {
          cudaLaunchConfig_t cfg{};
          cfg.gridDim = dim3(p.n / v.bn, p.m / v.bm, r.splits);
          cfg.blockDim = dim3(v.threads);
          cfg.dynamicSmemBytes = v.smem_bytes;
          cudaLaunchAttribute attr_pdl{};
          attr_pdl.id = cudaLaunchAttributeProgrammaticStreamSerialization;
          attr_pdl.val.programmaticStreamSerializationAllowed = 1;
          cfg.attrs = &attr_pdl;
          cfg.numAttrs = 1;
          const float* pa = a;
          const float* pb = b;
          int m = p.m, n = p.n, k = p.k, kps = k_per_split;
          void* args[] = {&pa, &pb, &gemm_out, &m, &n, &k, &kps};
          require(cudaLaunchKernelExC(&cfg, v.kernel, args) == cudaSuccess, "GEMM launch");
        };
        auto pair = [&] {
          gemm();
          // The library's reduction of the planes (column-major view: n x m with leading dimension n).
          if (r.splits > 1)
            require(autogemm::launch_splitk_reduce(ws, r.splits, p.n, p.m, 1.0f, 0.0f, c, p.n, nullptr) ==
                        cudaSuccess,
                    "reduction launch");
        };
        CHECK(cudaMemset(c, 0xff, sizeof(float) * hc.size()));
        pair();
        CHECK(cudaDeviceSynchronize());
        const double err = worst_error();
        const float gemm_us = memset_flushed_median_us(flush, flush_bytes, gemm);
        const float total_us = memset_flushed_median_us(flush, flush_bytes, pair);
        CHECK(cudaGetLastError());
        std::printf("%-16s %-22s %6d %7s %6d %8.2f %8.2f %8d %10.2e\n", shape, v.name, v.passes, v.promote ? "yes" : "no",
                    r.splits, gemm_us,
                    total_us, attr.numRegs, err);
      }
    }
    std::fflush(stdout);
  }
  cublasDestroy(handle);
  return 0;
}
