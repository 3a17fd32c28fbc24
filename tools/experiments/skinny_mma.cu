// Narrow BF16 outputs (the `llm` set's problems of 1-128 tokens in a Linear layer's `tn`, the seed
// set's 1-256-row `nn` outputs): what a plain read of the weights costs, what cuBLAS takes, and an
// `mma.sync` kernel that streams the weights straight into registers (`tn` only), in two forms:
// tokens read through L1 (up to 64) or staged in shared memory (up to 128).
// Such a problem reads its N x K weights once and does at most 2·M FLOPs per weight read, so its
// floor is the weights' read (the tensor cores' peak is far below it up to 128 tokens); the ceiling
// of any kernel's speed-up over cuBLAS is cuBLAS's time over that floor. The reasons of
// docs/decisions.md, "Narrow BF16 outputs: the weights' read bounds them".
//
// The kernel: a warp owns 16·RT weight rows (output columns) and a share of K; mma.m16n8k16 takes the
// weights as its 16-row A operand and 8 tokens as its B operand. The dot product does not care in
// which order k is summed, so each lane loads 8 consecutive k of a weight row (one 16-byte load)
// and the same 8 k of its token, and uses them as the k slots (2q, 2q+1, 2q+8, 2q+9) of two mma
// steps: no shuffles, no shared memory. The warps of a block split K and add up through shared
// memory; `splits` blocks along gridDim.y split K further, adding into C with atomics (C zeroed
// inside the timed launch). Weights load evict-first (stream_load.cuh's policy), U loads in flight
// per lane; tokens through L1. The staged form (skinny_mma_staged) gives each warp of a block its own
// weight rows over the block's whole share of K instead, so the block copies that share's tokens to
// shared memory once and every warp reads them there.
//
// Timing: the benchmark's method (a memset of twice L2 before each repetition; `skinny_mma read`: a
// read of four times L2, as AUTOGEMM_L2_FLUSH=read), CUDA events, median of 30 after 5 dropped.
// cuBLAS: cublasGemmEx, BF16 in, FP32 out, CUBLAS_COMPUTE_32F, default math; the seed's narrow
// outputs also in TF32 (FP32 operands, CUBLAS_COMPUTE_32F_FAST_TF32). Every kernel variant is
// checked against a float64 reference (relative to sum |a·b|) on NaN-poisoned C before it is timed.
// Built with -DAUTOGEMM_BUILD_EXPERIMENTS=ON (BUILD/tools/skinny_mma [read]).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_fill.cuh"
#include "experiment_timing.hpp"
#include "stream_load.cuh"

using autogemm::detail::evict_first_policy;
using autogemm::detail::load_stream;
using bf16 = __nv_bfloat16;

__device__ __forceinline__ uint4 as_u4(float4 v) {
  return make_uint4(__float_as_uint(v.x), __float_as_uint(v.y), __float_as_uint(v.z), __float_as_uint(v.w));
}

__device__ __forceinline__ void mma_bf16(float (&d)[4], unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                         unsigned b0, unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// Lane (g, q)'s weight rows n0 + 16r + g and n0 + 16r + 8 + g (clamped to the last row), at its
// 8 k of each 32: the A fragments of mma.m16n8k16 with k permuted as the header says.
template <int RT>
__device__ __forceinline__ void weight_rows(const bf16* b, int ldb, int n, int n0, int kb, int g, int q,
                                            const bf16* (&wrow)[RT][2]) {
#pragma unroll
  for (int r = 0; r < RT; ++r)
#pragma unroll
    for (int h = 0; h < 2; ++h) wrow[r][h] = b + static_cast<size_t>(min(n0 + 16 * r + 8 * h + g, n - 1)) * ldb + kb + q * 8;
}

// C (m x n, column-major, FP32) = A (m x k, K-contiguous, lda) · B (k x n, K-contiguous, ldb).
// NT token tiles of 8 (m <= 8 NT), RT weight tiles of 16 per warp, W warps per block, U loads in
// flight. k and k_per_split are multiples of 32.
template <int NT, int RT, int W, int U>
__global__ void __launch_bounds__(W * 32) skinny_mma(const bf16* __restrict__ a, int lda, const bf16* __restrict__ b,
                                                     int ldb, float* c, int ldc, int m, int n, int k_per_split) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
  const int n0 = blockIdx.x * 16 * RT;
  const int kb = blockIdx.y * k_per_split;
  const unsigned long long policy = evict_first_policy();
  const bf16* wrow[RT][2];
  weight_rows<RT>(b, ldb, n, n0, kb, g, q, wrow);
  const bf16* trow[NT];
#pragma unroll
  for (int t = 0; t < NT; ++t) trow[t] = a + static_cast<size_t>(min(8 * t + g, m - 1)) * lda + kb + q * 8;

  float acc[RT][NT][4] = {};
  constexpr int kStep = W * 32;  // k per warp-round: each warp takes every W-th chunk of 32
  for (int c0 = warp * 32; c0 < k_per_split; c0 += U * kStep) {
    uint4 wv[U][RT][2], tv[U][NT];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int kk = c0 + u * kStep;
      const bool in = kk < k_per_split;
#pragma unroll
      for (int r = 0; r < RT; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          wv[u][r][h] = in ? as_u4(load_stream(reinterpret_cast<const float4*>(wrow[r][h] + kk), policy)) : uint4{};
#pragma unroll
      for (int t = 0; t < NT; ++t) tv[u][t] = in ? __ldg(reinterpret_cast<const uint4*>(trow[t] + kk)) : uint4{};
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int r = 0; r < RT; ++r)
#pragma unroll
        for (int t = 0; t < NT; ++t) {
          mma_bf16(acc[r][t], wv[u][r][0].x, wv[u][r][1].x, wv[u][r][0].y, wv[u][r][1].y, tv[u][t].x, tv[u][t].y);
          mma_bf16(acc[r][t], wv[u][r][0].z, wv[u][r][1].z, wv[u][r][0].w, wv[u][r][1].w, tv[u][t].z, tv[u][t].w);
        }
  }

  // acc[r][t][e]: weight row n0 + 16r + g + 8(e/2), token 8t + 2q + e%2.
  __shared__ float part[W][RT * NT * 4][32];
#pragma unroll
  for (int r = 0; r < RT; ++r)
#pragma unroll
    for (int t = 0; t < NT; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) part[warp][(r * NT + t) * 4 + e][lane] = acc[r][t][e];
  __syncthreads();
  for (int idx = threadIdx.x; idx < RT * NT * 4 * 32; idx += W * 32) {
    const int l = idx % 32, s = idx / 32, e = s % 4, t = (s / 4) % NT, r = s / (4 * NT);
    const int j = n0 + 16 * r + (l >> 2) + 8 * (e / 2), i = 8 * t + 2 * (l & 3) + e % 2;
    if (i >= m || j >= n) continue;
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < W; ++w) sum += part[w][s][l];
    if (gridDim.y == 1)
      c[i + static_cast<size_t>(j) * ldc] = sum;
    else
      atomicAdd(c + i + static_cast<size_t>(j) * ldc, sum);
  }
}

// Tokens staged in shared memory: the block's W warps each own 16·RT weight rows and all walk the
// block's whole K share, so the share's tokens (8·NT rows) are copied to shared memory once per
// block and every warp reads its B fragments there, where the kernel above reads them through L1
// once per warp. Weight loads run one batch of U ahead of the mma (the first batch is issued before
// the tokens' copy, so its latency overlaps it). A token row is k_per_split + 32 elements apart in
// shared memory: where k_per_split is a multiple of 64 (K = 4096 and 14336 in 1-16 shares), 64 bytes
// off a multiple of 128, so the 8 lanes of a 16-byte load phase (2 tokens x 4 k-octets) hit distinct
// banks; 11008's shares of 1376 and 688 are 32 elements off that, and two tokens' lanes share banks.
template <int NT, int RT, int W, int U>
__global__ void __launch_bounds__(W * 32) skinny_mma_staged(const bf16* __restrict__ a, int lda,
                                                            const bf16* __restrict__ b, int ldb, float* c, int ldc,
                                                            int m, int n, int k_per_split) {
  extern __shared__ uint4 staged[];
  bf16* tokens = reinterpret_cast<bf16*>(staged);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
  const int n0 = (blockIdx.x * W + warp) * 16 * RT;
  const int kb = blockIdx.y * k_per_split, ld_s = k_per_split + 32;
  const unsigned long long policy = evict_first_policy();
  const bf16* wrow[RT][2];
  weight_rows<RT>(b, ldb, n, n0, kb, g, q, wrow);
  uint4 wv[U][RT][2];
  auto load_weights = [&](int c0) {
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int r = 0; r < RT; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int kk = c0 + u * 32;
          wv[u][r][h] = kk < k_per_split ? as_u4(load_stream(reinterpret_cast<const float4*>(wrow[r][h] + kk), policy))
                                         : uint4{};
        }
  };
  load_weights(0);
  const int octets = k_per_split / 8;
  for (int idx = threadIdx.x; idx < 8 * NT * octets; idx += W * 32) {
    const int t = idx / octets, o = idx - t * octets;
    const uint4 v = t < m ? __ldg(reinterpret_cast<const uint4*>(a + static_cast<size_t>(t) * lda + kb + o * 8)) : uint4{};
    *reinterpret_cast<uint4*>(tokens + t * ld_s + o * 8) = v;
  }
  __syncthreads();
  float acc[RT][NT][4] = {};
  for (int c0 = 0; c0 < k_per_split; c0 += U * 32) {
    uint4 cur[U][RT][2];
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int r = 0; r < RT; ++r) cur[u][r][0] = wv[u][r][0], cur[u][r][1] = wv[u][r][1];
    if (c0 + U * 32 < k_per_split) load_weights(c0 + U * 32);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (c0 + u * 32 >= k_per_split) break;
#pragma unroll
      for (int t = 0; t < NT; ++t) {
        const uint4 tv = *reinterpret_cast<const uint4*>(tokens + (8 * t + g) * ld_s + c0 + u * 32 + q * 8);
#pragma unroll
        for (int r = 0; r < RT; ++r) {
          mma_bf16(acc[r][t], cur[u][r][0].x, cur[u][r][1].x, cur[u][r][0].y, cur[u][r][1].y, tv.x, tv.y);
          mma_bf16(acc[r][t], cur[u][r][0].z, cur[u][r][1].z, cur[u][r][0].w, cur[u][r][1].w, tv.z, tv.w);
        }
      }
    }
  }
  // acc[r][t][e]: weight row n0 + 16r + g + 8(e/2), token 8t + 2q + e%2; each warp's rows are its own.
#pragma unroll
  for (int r = 0; r < RT; ++r)
#pragma unroll
    for (int t = 0; t < NT; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int j = n0 + 16 * r + g + 8 * (e / 2), i = 8 * t + 2 * q + e % 2;
        if (i >= m || j >= n) continue;
        if (gridDim.y == 1)
          c[i + static_cast<size_t>(j) * ldc] = acc[r][t][e];
        else
          atomicAdd(c + i + static_cast<size_t>(j) * ldc, acc[r][t][e]);
      }
}

__global__ void fill_bf16(bf16* x, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
    x[i] = __float2bfloat16(static_cast<float>(h & 0xffffff) / 8388608.0f - 1.0f);
  }
}

// The float64 reference of C(i, j) and sum |a·b| over k.
__global__ void reference(const bf16* a, int lda, const bf16* b, int ldb, int m, int n, int k, double* ref, double* mag) {
  const int i = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  double s = 0, s_abs = 0;
  for (int kk = 0; kk < k; ++kk) {
    const double p = double(__bfloat162float(a[i * size_t(lda) + kk])) * __bfloat162float(b[j * size_t(ldb) + kk]);
    s += p, s_abs += std::fabs(p);
  }
  ref[i + size_t(j) * m] = s, mag[i + size_t(j) * m] = s_abs;
}

__global__ void read_flush(const float4* p, size_t n4, int* sink) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
    const float4 v = __ldcg(p + i);
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 1.2345e-30f) *sink = 1;
}

// A plain evict-first read of the weights (n4 16-byte vectors), 4 in flight per thread.
__global__ void plain_read(const float4* p, size_t n4, float* sink) {
  const unsigned long long policy = evict_first_policy();
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float s = 0;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = load_stream(p + i + u * stride, policy);
#pragma unroll
    for (int u = 0; u < 4; ++u) s += v[u].x + v[u].w;
  }
  for (; i < n4; i += stride) s += p[i].x;
  if (s == 1.2345e-30f) sink[0] = s;
}

struct Variant {
  int rt, w, u;
  void (*fn)(const bf16*, int, const bf16*, int, float*, int, int, int, int);
  bool staged = false;
};

template <int NT>
std::vector<Variant> variants() {
  return {{1, 4, 4, skinny_mma<NT, 1, 4, 4>}, {1, 8, 4, skinny_mma<NT, 1, 8, 4>}, {1, 8, 2, skinny_mma<NT, 1, 8, 2>},
          {2, 4, 2, skinny_mma<NT, 2, 4, 2>}, {2, 8, 2, skinny_mma<NT, 2, 8, 2>}, {1, 16, 2, skinny_mma<NT, 1, 16, 2>}};
}

template <int NT>
std::vector<Variant> staged_variants() {
  return {{1, 4, 4, skinny_mma_staged<NT, 1, 4, 4>, true}, {1, 8, 4, skinny_mma_staged<NT, 1, 8, 4>, true},
          {1, 8, 8, skinny_mma_staged<NT, 1, 8, 8>, true}, {2, 4, 2, skinny_mma_staged<NT, 2, 4, 2>, true},
          {2, 8, 2, skinny_mma_staged<NT, 2, 8, 2>, true}, {2, 4, 4, skinny_mma_staged<NT, 2, 4, 4>, true}};
}

// One problem: C (m x n) = op(A) B with B the k x n weights (op N, K-contiguous), A the m x k tokens
// K-contiguous (`tn`, a Linear layer's layout) or M-contiguous (`nn`, the seed set's; cuBLAS and the
// read only: the kernel above takes K-contiguous tokens).
struct Case {
  int m, n, k;
  bool tn;
};

int main(int argc, char** argv) {
  // The benchmark's flush (a memset of twice L2, which leaves dirty lines) unless `read` is given.
  const bool read_flush_method = argc > 1 && std::string(argv[1]) == "read";
  std::vector<Case> cases;
  for (const int m : {1, 16, 64, 128})  // the `llm` set's tokens up to 128 (those above are compute-bound)
    for (const auto& p : {std::pair{4096, 4096}, {12288, 4096}, {11008, 4096}, {4096, 11008}, {14336, 4096}, {4096, 14336}})
      cases.push_back({m, p.first, p.second, true});
  for (const int m : {1, 16, 32, 64, 128, 256})  // the seed set's narrow outputs
    cases.push_back({m, 3072, 3072, false});
  const size_t max_w = size_t(14336) * 4096, max_t = size_t(128) * 14336;
  bf16 *w, *t;
  float *c, *c_ref32, *sink;
  double *ref, *mag;
  int l2 = 0, sms = 0, *isink;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t flush_bytes = size_t(read_flush_method ? 4 : 2) * l2;
  void* flush;
  CHECK(cudaMalloc(&w, max_w * sizeof(bf16)));
  CHECK(cudaMalloc(&t, max_t * sizeof(bf16)));
  CHECK(cudaMalloc(&c, max_t * sizeof(float)));
  CHECK(cudaMalloc(&c_ref32, max_t * sizeof(float)));
  CHECK(cudaMalloc(&ref, max_t * sizeof(double)));
  CHECK(cudaMalloc(&mag, max_t * sizeof(double)));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMalloc(&isink, sizeof(int)));
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMemset(flush, 0, flush_bytes));
  fill_bf16<<<1024, 256>>>(w, max_w, 1u);
  fill_bf16<<<1024, 256>>>(t, max_t, 2u);
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  auto flush_fn = [&](int r) {
    if (read_flush_method)
      read_flush<<<1024, 256>>>(static_cast<const float4*>(flush), flush_bytes / 16, isink);
    else
      cudaMemsetAsync(flush, r, flush_bytes);
  };
  std::vector<float> host_c(max_t);
  std::vector<double> host_ref(max_t), host_mag(max_t);
  const float empty_us = sorted_times_us(flush_fn, [&] { read_flush<<<1, 32>>>(nullptr, 0, isink); }, 35, 5)[15];
  std::printf("flush: %s; empty kernel after it: %.1f us; peak for the compute floor: 989 TFLOP/s (dense BF16)\n",
              read_flush_method ? "read of 4 x L2" : "memset of 2 x L2", empty_us);
  std::printf("%-20s %8s %8s %9s %8s %9s %8s  %-40s %9s %8s  %s\n", "problem MxNxK", "read us", "floor us",
              "cuBLAS us", "ceiling", "mma us", "vs cuBLAS", "mma, tokens through L1: best (rt w u splits), error",
              "staged us", "vs cuBLAS", "mma, tokens staged in shared memory: best (rt w u splits), error");
  double log_ceiling[2] = {0, 0};
  int counted[2] = {0, 0};
  for (const Case& cs : cases) {
    const int m = cs.m, n = cs.n, k = cs.k;
    const float one = 1.0f, zero = 0.0f;
    // `tn`: A is m x k with lda = k; `nn`: A is m x k with lda = m (the same buffer, read another way).
    auto cublas = [&] {
      cublasGemmEx(h, cs.tn ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, t, CUDA_R_16BF, cs.tn ? k : m, w,
                   CUDA_R_16BF, k, &zero, c_ref32, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    const float read_us = sorted_times_us(flush_fn, [&] {
      plain_read<<<sms * 8, 256>>>(reinterpret_cast<const float4*>(w), size_t(n) * k / 8, sink);
    }, 35, 5)[15];
    const float cublas_us = sorted_times_us(flush_fn, cublas, 35, 5)[15];
    // The floor: the weights' plain read, or the tensor cores' peak; the ceiling: cuBLAS over it.
    const double floor_us = std::max<double>(read_us, 2.0 * m * n * k / 989e6);
    const double ceiling = cublas_us / floor_us;
    log_ceiling[cs.tn] += std::log(ceiling), ++counted[cs.tn];
    std::printf("%5dx%5dx%5d %s %8.1f %8.1f %9.1f %8.2f", m, n, k, cs.tn ? "tn" : "nn", read_us, floor_us, cublas_us,
                ceiling);
    if (!cs.tn || m > 128) {
      std::printf("\n");
      continue;
    }
    reference<<<dim3((n + 127) / 128, m), 128>>>(t, k, w, k, m, n, k, ref, mag);
    CHECK(cudaMemcpy(host_ref.data(), ref, sizeof(double) * m * n, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(host_mag.data(), mag, sizeof(double) * m * n, cudaMemcpyDeviceToHost));
    auto worst_error = [&](const float* dev) {
      if (cudaMemcpy(host_c.data(), dev, sizeof(float) * m * n, cudaMemcpyDeviceToHost) != cudaSuccess) return 1e30;
      double worst = 0;
      for (size_t i = 0; i < size_t(m) * n; ++i) worst = std::max(worst, std::fabs(host_c[i] - host_ref[i]) / host_mag[i]);
      return worst;
    };
    cublas();
    const double cublas_err = worst_error(c_ref32);
    // Tokens through L1 (up to 64) and staged in shared memory (up to 128), each form's best.
    std::vector<Variant> forms[2];
    if (m <= 64) forms[0] = m <= 8 ? variants<1>() : m <= 16 ? variants<2>() : m <= 32 ? variants<4>() : variants<8>();
    forms[1] = m <= 16 ? staged_variants<2>() : m <= 32 ? staged_variants<4>() : m <= 64 ? staged_variants<8>()
                                                                                : staged_variants<16>();
    for (int f = 0; f < 2; ++f) {
      const std::vector<Variant>& vs = forms[f];
      if (vs.empty()) {
        std::printf(" %9s %8s  %-40s", "-", "-", "-");
        continue;
      }
      const int token_rows = m <= 16 ? 16 : m <= 32 ? 32 : m <= 64 ? 64 : 128;
      float best_us = 1e30f;
      double best_err = 0;
      int best_v = 0, best_s = 0;
      for (size_t v = 0; v < vs.size(); ++v)
        for (const int splits : {1, 2, 4, 8, 16}) {
          const int rows = 16 * vs[v].rt * (vs[v].staged ? vs[v].w : 1);
          if (n % rows != 0 || k % (32 * splits) != 0) continue;
          const size_t smem = vs[v].staged ? size_t(token_rows) * (k / splits + 32) * sizeof(bf16) : 0;
          if (smem > 227 * 1024) continue;
          if (smem > 48 * 1024)
            CHECK(cudaFuncSetAttribute(vs[v].fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
          const dim3 grid(n / rows, splits);
          auto launch = [&] {
            if (splits > 1) cudaMemsetAsync(c, 0, sizeof(float) * m * n);
            vs[v].fn<<<grid, vs[v].w * 32, smem>>>(t, k, w, k, c, m, m, n, k / splits);
          };
          CHECK(cudaMemset(c, 0xff, sizeof(float) * m * n));  // NaN-poisoned
          launch();
          CHECK(cudaDeviceSynchronize());
          const double err = worst_error(c);
          if (!(err < 1e-5)) {
            std::printf("  %s rt%d w%d u%d s%d: wrong, worst rel. error %.3g\n", vs[v].staged ? "staged" : "L1", vs[v].rt,
                        vs[v].w, vs[v].u, splits, err);
            continue;
          }
          const float us = sorted_times_us(flush_fn, launch, 35, 5)[15];
          if (us < best_us) best_us = us, best_err = err, best_v = static_cast<int>(v), best_s = splits;
        }
      CHECK(cudaGetLastError());
      if (best_us == 1e30f) {  // no variant fits: K's share too deep for shared memory, or not a multiple of 32
        std::printf(" %9s %8s  %-40s", "-", "-", "none fits");
        continue;
      }
      char what[96];
      std::snprintf(what, sizeof what, "rt%d w%d u%d s%d, %.2g (cuBLAS %.2g)", vs[best_v].rt, vs[best_v].w,
                    vs[best_v].u, best_s, best_err, cublas_err);
      std::printf(" %9.1f %8.2f  %-40s", best_us, cublas_us / best_us, what);
    }
    std::printf("\n");
  }
  // The seed set's narrow outputs in TF32 (FP32 operands, CUBLAS_COMPUTE_32F_FAST_TF32): the weights
  // are twice the bytes.
  float *w32, *t32;
  CHECK(cudaMalloc(&w32, sizeof(float) * 3072 * 3072));
  CHECK(cudaMalloc(&t32, sizeof(float) * 256 * 3072));
  fill_uniform<<<1024, 256>>>(w32, size_t(3072) * 3072, 3u);
  fill_uniform<<<1024, 256>>>(t32, size_t(256) * 3072, 4u);
  double log_tf32 = 0;
  for (const int m : {1, 16, 32, 64, 128, 256}) {
    const int n = 3072, k = 3072;
    const float one = 1.0f, zero = 0.0f;
    const float read_us = sorted_times_us(flush_fn, [&] {
      plain_read<<<sms * 8, 256>>>(reinterpret_cast<const float4*>(w32), size_t(n) * k / 4, sink);
    }, 35, 5)[15];
    const float cublas_us = sorted_times_us(flush_fn, [&] {
      cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, t32, CUDA_R_32F, m, w32, CUDA_R_32F, k, &zero, c,
                   CUDA_R_32F, m, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    }, 35, 5)[15];
    const double floor_us = std::max<double>(read_us, 2.0 * m * n * k / 494.7e6);
    log_tf32 += std::log(cublas_us / floor_us);
    std::printf("%5dx%5dx%5d nn TF32 %8.1f %8.1f %9.1f %8.2f\n", m, n, k, read_us, floor_us, cublas_us, cublas_us / floor_us);
  }
  CHECK(cudaGetLastError());
  std::printf("geometric mean of the TF32 seed narrow ceilings: %.3f over 6 (peak 494.7 TFLOP/s dense TF32)\n",
              std::exp(log_tf32 / 6));
  std::printf("geometric mean of the ceilings: llm tn problems %.3f over %d, seed nn problems %.3f over %d\n",
              std::exp(log_ceiling[1] / counted[1]), counted[1], std::exp(log_ceiling[0] / counted[0]), counted[0]);
  return 0;
}
