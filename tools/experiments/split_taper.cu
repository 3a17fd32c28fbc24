// Experiment 76 (docs/perf_notes.md): parallel split-k with unequal shares of K. Measurement 68 found
// the 3-blocks-per-SM split grids uneven by launch order: the first block placed on an SM finishes its
// main loop ~12% sooner than the third (the warp scheduler favours older warps), so every SM ends on
// its youngest block running nearly alone. If later splits (placed later) get less K, the blocks of an
// SM could end together. This compiles the kernel template with a per-split table of K boundaries
// (AUTOGEMM_EXP_SPLIT_TABLE; the library has no such field), runs each problem's tuned tile with K
// shares falling linearly from split 0 to the last by a given fraction, and prints the GEMM launch's
// median time per profile (the benchmark's flush before every launch; profiles interleaved run by
// run). Every profile's partial sums are checked: integer-valued operands make every sum exact, so the
// splits' partials must add up to the same values bit for bit under every profile, and to a float64
// reference on sampled outputs. Built with the tools (BUILD/tools/split_taper); no argument.
#define AUTOGEMM_EXP_SPLIT_TABLE
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"
#include "simt_sgemm_multistage.cuh"

using autogemm::GemmParams;
using autogemm::Op;
using autogemm::SplitKMode;
using autogemm::detail::ceil_div;
using autogemm::detail::ConfigTag;

namespace {

// K boundaries of `splits` splits whose shares of the k-tiles fall linearly from split 0 to the last
// by `taper` (0: equal shares, 0.12: the last gets 12% less than the first), rounded to whole k-tiles;
// the last split ends at k. Empty when a split would get no k-tile.
std::vector<int> split_table(int k, int bk, int splits, double taper) {
  const int tiles = ceil_div(k, bk);
  std::vector<double> weight(splits);
  double total = 0;
  for (int z = 0; z < splits; ++z) total += weight[z] = 1.0 - (splits > 1 ? taper * z / (splits - 1) : 0.0);
  std::vector<int> begin(splits + 1);
  double before = 0;
  for (int z = 0; z < splits; ++z) {
    begin[z] = static_cast<int>(std::lround(tiles * before / total)) * bk;
    before += weight[z];
  }
  begin[splits] = k;
  for (int z = 0; z < splits; ++z)
    if (begin[z + 1] <= begin[z]) return {};
  return begin;
}

struct Problem {
  const char* name;  // as the docs write it (row-major M x N x K, layout)
  int m, n, k;       // the column-major call
  Op op_a, op_b;
  int splits;
};

// Integer-valued operand element (exact sums), by index.
float value(int64_t i) { return static_cast<float>((i * 7 + 3) % 5 - 2); }

template <class Tag>
int run(const Problem& pr, const std::vector<double>& tapers, void* flush, size_t flush_bytes, int runs) {
  constexpr auto C = Tag::value;
  const int m = pr.m, n = pr.n, k = pr.k;
  const int64_t lda = pr.op_a == Op::N ? m : k, ldb = pr.op_b == Op::N ? k : n;
  const size_t a_elems = size_t(m) * k, b_elems = size_t(n) * k;
  std::vector<float> ha(a_elems), hb(b_elems);
  for (size_t i = 0; i < a_elems; ++i) ha[i] = value(int64_t(i));
  for (size_t i = 0; i < b_elems; ++i) hb[i] = value(int64_t(i) * 3 + 1);
  const int64_t pld = autogemm::partial_ld(m);
  const size_t partial_elems = size_t(pr.splits) * pld * n;
  float *a = nullptr, *b = nullptr, *c = nullptr, *partials = nullptr;
  int* table = nullptr;
  CHECK(cudaMalloc(&a, a_elems * sizeof(float)));
  CHECK(cudaMalloc(&b, b_elems * sizeof(float)));
  CHECK(cudaMalloc(&c, size_t(m) * n * sizeof(float)));
  CHECK(cudaMalloc(&partials, partial_elems * sizeof(float)));
  CHECK(cudaMalloc(&table, tapers.size() * (pr.splits + 1) * sizeof(int)));
  CHECK(cudaMemcpy(a, ha.data(), a_elems * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), b_elems * sizeof(float), cudaMemcpyHostToDevice));

  // Profile 0 is the library's own geometry (k_per_split, no table); then one table per taper.
  std::vector<GemmParams> params;
  std::vector<std::vector<int>> tables;
  GemmParams base;
  base.m = m, base.n = n, base.k = k, base.a = a, base.b = b, base.c = c, base.lda = lda, base.ldb = ldb, base.ldc = m;
  base.k_per_split = ceil_div(ceil_div(k, pr.splits), C.bk) * C.bk;
  base.splits = pr.splits, base.mode = SplitKMode::kParallel, base.partials = partials;
  if (ceil_div(k, base.k_per_split) != pr.splits) return std::printf("%s: %d splits leave one empty\n", pr.name, pr.splits), 1;
  params.push_back(base);
  tables.push_back({});
  for (size_t t = 0; t < tapers.size(); ++t) {
    std::vector<int> bounds = split_table(k, C.bk, pr.splits, tapers[t]);
    if (bounds.empty()) return std::printf("%s: taper %.2f leaves a split empty\n", pr.name, tapers[t]), 1;
    CHECK(cudaMemcpy(table + t * (pr.splits + 1), bounds.data(), bounds.size() * sizeof(int), cudaMemcpyHostToDevice));
    GemmParams p = base;
    p.k_split_begin = table + t * (pr.splits + 1);
    params.push_back(p);
    tables.push_back(bounds);
  }

  // Interleaved timing: run r times every profile once, after the flush; run 0 is dropped.
  std::vector<std::vector<float>> us(params.size());
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  for (int r = 0; r <= runs; ++r)
    for (size_t q = 0; q < params.size(); ++q) {
      CHECK(cudaMemsetAsync(flush, int(r + q), flush_bytes));
      CHECK(cudaEventRecord(e0));
      CHECK(autogemm::detail::launch_simt_sgemm<Tag>(params[q], nullptr));
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      if (r > 0) us[q].push_back(ms * 1000.0f);
    }
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));

  // Check: the splits' partials summed (in split order, as the reduction does) per profile.
  std::vector<float> hp(partial_elems), first(size_t(m) * n);
  int bad = 0;
  for (size_t q = 0; q < params.size(); ++q) {
    CHECK(cudaMemset(partials, 0xff, partial_elems * sizeof(float)));  // NaN: a split that writes nothing shows
    CHECK(autogemm::detail::launch_simt_sgemm<Tag>(params[q], nullptr));
    CHECK(cudaMemcpy(hp.data(), partials, partial_elems * sizeof(float), cudaMemcpyDeviceToHost));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        float s = 0;
        for (int z = 0; z < pr.splits; ++z) s += hp[(size_t(z) * n + j) * pld + i];
        float& f = first[size_t(j) * m + i];
        if (q == 0) f = s;
        else if (!(s == f) && bad++ < 5) std::printf("  MISMATCH profile %zu at (%d, %d): %g vs %g\n", q, i, j, s, f);
      }
  }
  for (int sample = 0; sample < 2048; ++sample) {
    const int i = int((int64_t(sample) * 7919) % m), j = int((int64_t(sample) * 104729) % n);
    double ref = 0;
    for (int kk = 0; kk < k; ++kk) {
      const double av = ha[pr.op_a == Op::N ? size_t(kk) * lda + i : size_t(i) * lda + kk];
      const double bv = hb[pr.op_b == Op::N ? size_t(j) * ldb + kk : size_t(kk) * ldb + j];
      ref += av * bv;
    }
    if (ref != first[size_t(j) * m + i] && bad++ < 5)
      std::printf("  MISMATCH reference at (%d, %d): %g vs %g\n", i, j, first[size_t(j) * m + i], ref);
  }

  const int tiles = ceil_div(m, C.bm) * ceil_div(n, C.bn);
  std::printf("\n%s: %dx%dx%d tile, %d stages, %d tiles x %d splits = %d blocks; partial sums %s\n", pr.name, C.bm,
              C.bn, C.bk, C.stages, tiles, pr.splits, tiles * pr.splits, bad ? "WRONG" : "exact in every profile");
  const float base_median = [&] {
    std::vector<float> v = us[0];
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }();
  for (size_t q = 0; q < params.size(); ++q) {
    std::vector<float> v = us[q];
    std::sort(v.begin(), v.end());
    const float med = v[v.size() / 2];
    if (q == 0) std::printf("  library geometry      ");
    else std::printf("  taper %+5.2f           ", tapers[q - 1]);
    std::printf(" median %7.2f us  p10 %7.2f  p90 %7.2f  ratio %.4f  k-tiles per split:", med, v[v.size() / 10],
                v[v.size() * 9 / 10], med / base_median);
    if (q == 0) {
      for (int z = 0; z < pr.splits; ++z)
        std::printf(" %d", ceil_div(std::min(k, (z + 1) * base.k_per_split) - z * base.k_per_split, C.bk));
    } else {
      for (int z = 0; z < pr.splits; ++z) std::printf(" %d", ceil_div(tables[q][z + 1] - tables[q][z], C.bk));
    }
    std::printf("\n");
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(partials));
  CHECK(cudaFree(table));
  return bad ? 1 : 0;
}

}  // namespace

int main() {
  const size_t flush_bytes = l2_flush_bytes();
  if (flush_bytes == 0) return std::printf("cannot read the L2 size of device 0\n"), 1;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  const std::vector<double> tapers = {0.0, -0.12, 0.06, 0.12, 0.18, 0.24, 0.32};
  constexpr int kRuns = 41;
  int rc = 0;
  // The tuned winners at 8ef5a26 (docs/performance.md), as column-major calls.
  rc |= run<ConfigTag<128, 64, 16, 64, 32, 8, 8, 3, 1, Op::N, Op::T, 1>>(
      {"127x3001x1531 nt", 3001, 127, 1531, Op::N, Op::T, 8}, tapers, flush, flush_bytes, kRuns);
  rc |= run<ConfigTag<128, 64, 16, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 1>>(
      {"127x3001x1531 nn", 3001, 127, 1531, Op::N, Op::N, 8}, tapers, flush, flush_bytes, kRuns);
  rc |= run<ConfigTag<64, 128, 16, 32, 64, 8, 8, 3, 1, Op::T, Op::T, 1>>(
      {"127x3001x1531 tt", 3001, 127, 1531, Op::T, Op::T, 8}, tapers, flush, flush_bytes, kRuns);
  rc |= run<ConfigTag<64, 128, 16, 32, 64, 8, 8, 3, 1, Op::N, Op::T, 4>>(
      {"128x3072x3072 nn (B repacked: the nt kernel)", 3072, 128, 3072, Op::N, Op::T, 8}, tapers, flush, flush_bytes,
      kRuns);
  CHECK(cudaFree(flush));
  return rc;
}
