// The BF16 `tn` problem the experiments on CUTLASS's kernels run: C (m x n, column-major, ld m) =
// A B with A m x k and B k x n both K-major (leading dimension k), random operands in [-1, 1), the
// check of an output against float64 on sampled elements, and rounds of timed variants. Include it
// after builder_gemm.cuh.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "experiment_timing.hpp"

using Bf16 = cutlass::bfloat16_t;

/// A CuTe stride of one unit mode and one leading dimension `ld` (the non-static mode).
template <class Stride>
Stride with_ld(int64_t ld) {
  Stride s{};
  if constexpr (cute::is_static_v<std::remove_cvref_t<decltype(cute::get<0>(s))>>)
    cute::get<1>(s) = ld;
  else
    cute::get<0>(s) = ld;
  return s;
}

/// The operands on the host and the device, and C on the device.
struct Bf16TnProblem {
  int m, n, k;
  std::vector<Bf16> ha, hb;
  Bf16 *a = nullptr, *b = nullptr, *c = nullptr;

  Bf16TnProblem(int m_, int n_, int k_, std::mt19937& rng) : m(m_), n(n_), k(k_) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    ha.resize(static_cast<size_t>(m) * k);
    hb.resize(static_cast<size_t>(n) * k);
    for (auto& x : ha) x = Bf16(uniform(rng));
    for (auto& x : hb) x = Bf16(uniform(rng));
    cudaMalloc(&a, ha.size() * sizeof(Bf16));
    cudaMalloc(&b, hb.size() * sizeof(Bf16));
    cudaMalloc(&c, outputs() * sizeof(Bf16));
    cudaMemcpy(a, ha.data(), ha.size() * sizeof(Bf16), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb.data(), hb.size() * sizeof(Bf16), cudaMemcpyHostToDevice);
  }
  Bf16TnProblem(const Bf16TnProblem&) = delete;
  Bf16TnProblem& operator=(const Bf16TnProblem&) = delete;
  ~Bf16TnProblem() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }

  size_t outputs() const { return static_cast<size_t>(m) * n; }

  /// CUTLASS's arguments of kernel `K` for this problem: D = C = alpha A B, beta 0.
  template <class K>
  typename K::Arguments arguments() const {
    return {cutlass::gemm::GemmUniversalMode::kGemm,
            {m, n, k, 1},
            {a, with_ld<typename K::StrideA>(k), b, with_ld<typename K::StrideB>(k)},
            {{1.0f, 0.0f}, c, with_ld<typename K::StrideC>(m), c, with_ld<typename K::StrideD>(m)}};
  }

  /// C copied to the host.
  std::vector<Bf16> output() const {
    std::vector<Bf16> out(outputs());
    cudaMemcpy(out.data(), c, out.size() * sizeof(Bf16), cudaMemcpyDeviceToHost);
    return out;
  }

  /// The largest error of 64 sampled outputs of `out` against float64, relative to sum |a b|.
  double sampled_error(const std::vector<Bf16>& out) const {
    double worst = 0;
    for (int s = 0; s < 64; ++s) {
      const int i = (s * 7919) % m, j = (s * 104729) % n;
      double sum = 0, mag = 0;
      for (int p = 0; p < k; ++p) {
        const double x = static_cast<float>(ha[static_cast<size_t>(i) * k + p]) *
                         static_cast<float>(hb[static_cast<size_t>(j) * k + p]);
        sum += x, mag += std::fabs(x);
      }
      worst = std::max(worst, std::fabs(static_cast<float>(out[static_cast<size_t>(j) * m + i]) - sum) / mag);
    }
    return worst;
  }
};

/// A launch of the problem on CUTLASS's kernel G through its adapter; empty where CUTLASS refuses it.
template <class G>
std::function<void()> cutlass_launch(const Bf16TnProblem& p) {
  auto op = std::make_shared<typename G::Op>();
  const auto args = p.arguments<typename G::Kernel>();
  if (op->can_implement(args) != cutlass::Status::kSuccess ||
      op->initialize(args, nullptr) != cutlass::Status::kSuccess)
    return {};
  return [op] { op->run(); };
}

/// cuBLAS's cublasGemmEx on the problem (BF16 in and out, FP32 compute, default math).
inline std::function<void()> cublas_launch(cublasHandle_t handle, const Bf16TnProblem& p) {
  return [handle, &p] {
    const float alpha = 1.0f, beta = 0.0f;
    cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, p.m, p.n, p.k, &alpha, p.a, CUDA_R_16BF, p.k, p.b, CUDA_R_16BF, p.k,
                 &beta, p.c, CUDA_R_16BF, p.m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
}

/// One way of computing the problem's C, timed and checked by run_rounds.
struct Variant {
  std::string tile, form;  // the kernel's tile and how it runs (cuBLAS: its name, no form)
  std::function<void()> launch;
  std::vector<float> medians;  // one per round, us
  std::vector<Bf16> out;       // C of the last round
};

/// Times every variant in four rounds, each round in an order rotated by 3 (the benchmark's cold
/// L2: the median of 25 runs, each after a memset of `flush_bytes`; C poisoned with NaN before each
/// variant's runs, so that an output left unwritten shows), then prints per variant the mean of its
/// medians, their spread, the sampled error and, for a form other than `reference_form`, whether
/// its C equals, bit for bit, the C of its tile's `reference_form`.
inline void run_rounds(const Bf16TnProblem& p, std::vector<Variant>& variants, void* flush, size_t flush_bytes,
                       const std::string& reference_form) {
  for (int round = 0; round < 4; ++round)
    for (size_t v = 0; v < variants.size(); ++v) {
      Variant& x = variants[(v + round * 3) % variants.size()];
      cudaMemset(p.c, 0xff, p.outputs() * sizeof(Bf16));
      x.medians.push_back(memset_flushed_median_us(flush, flush_bytes, x.launch));
      x.out = p.output();
    }
  char label[32];
  std::snprintf(label, sizeof label, "%dx%dx%d", p.m, p.n, p.k);
  for (const Variant& x : variants) {
    const auto [lo, hi] = std::minmax_element(x.medians.begin(), x.medians.end());
    float mean = 0;
    for (float t : x.medians) mean += t / x.medians.size();
    char check[64];
    std::snprintf(check, sizeof check, "error %.1e", p.sampled_error(x.out));
    std::string line = check;
    for (const Variant& y : variants)
      if (y.tile == x.tile && y.form == reference_form && x.form != reference_form)
        line += std::memcmp(x.out.data(), y.out.data(), x.out.size() * sizeof(Bf16)) == 0
                    ? ", C as " + reference_form + "'s"
                    : ", C DIFFERS from " + reference_form + "'s";
    std::printf("%-16s %-14s %-18s %6.2f (%4.2f)   %s\n", label, x.tile.c_str(), x.form.c_str(), mean, *hi - *lo,
                line.c_str());
  }
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}

/// The small problems of the seed and perf sets, column-major m x n x k: 256^3, 256x256x1024 and
/// 3072x128x3072 (128 tokens of a 3072-wide layer), and 1000^3. For each, `variants` names the ways
/// of computing it, cuBLAS's cublasGemmEx is added beside them, and run_rounds times and prints
/// them; `form_heading` heads the column of the variants' forms.
inline void run_small_problems(const char* form_heading, const std::string& reference_form,
                               const std::function<void(const Bf16TnProblem&, std::vector<Variant>&)>& variants) {
  const size_t flush_bytes = l2_flush_bytes();
  void* flush = nullptr;
  cudaMalloc(&flush, flush_bytes);
  cublasHandle_t handle;
  cublasCreate(&handle);
  const int problems[][3] = {{256, 256, 256}, {256, 256, 1024}, {3072, 128, 3072}, {1000, 1000, 1000}};
  std::printf("%-16s %-14s %-18s %14s   %s\n", "problem (tn)", "tile", form_heading, "us (spread)", "check");
  std::mt19937 rng(7);
  for (const auto& shape : problems) {
    const Bf16TnProblem p(shape[0], shape[1], shape[2], rng);
    std::vector<Variant> list;
    variants(p, list);
    list.push_back({"cublasGemmEx", "", cublas_launch(handle, p), {}, {}});
    run_rounds(p, list, flush, flush_bytes, reference_form);
  }
  cublasDestroy(handle);
  cudaFree(flush);
}
