// Experiment: when does each block of a GEMM launch start and finish, on which SM, and how long do
// its main loop and its epilogue take? Measurement 66 (docs/perf_notes.md) found the blocks of our
// 256x128x8 tile uneven on 127x3001x1531 (SMs active up to 82.5 k cycles against a mean of 73.6 k)
// where cuBLAS's CUTLASS twin runs every SM 57.5-59.4 k. This compiles the library's kernel template
// with its timeline probes on (AUTOGEMM_BLOCK_PROBE: block start, main loop done, block done; the
// library's own instances have none), runs the problem the benchmark's way (memset flush of 2x L2,
// CUDA events), and prints per configuration: the launch's time, the spread of block start times, the
// distribution of block durations (clock64, so per SM), and mean durations by split, by tile and by
// SM. Built with the tools (BUILD/tools/block_timeline); no argument.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"

namespace probe {
constexpr int kMaxBlocks = 4096;
constexpr int kPhases = 3;  // 0: start, 1: main loop done, 2: block done
__device__ unsigned long long ns[kMaxBlocks][kPhases];      // %globaltimer (one clock for all SMs)
__device__ unsigned long long cycles[kMaxBlocks][kPhases];  // clock64 (this SM's clock)
__device__ unsigned sm[kMaxBlocks];

// Phase 0 by the block's first thread; phases 1 and 2 by the last warp to get there.
__device__ __forceinline__ void record(int phase) {
  if (threadIdx.x % 32 != 0) return;
  const int b = blockIdx.x + gridDim.x * blockIdx.z;
  if (b >= kMaxBlocks) return;
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  const unsigned long long c = clock64();
  if (phase == 0) {
    if (threadIdx.x != 0) return;
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    ns[b][0] = t, cycles[b][0] = c, sm[b] = id;
  } else {
    atomicMax(&ns[b][phase], t);
    atomicMax(&cycles[b][phase], c);
  }
}
}  // namespace probe

#define AUTOGEMM_BLOCK_PROBE(phase) ::probe::record(phase)
#include "simt_sgemm_multistage.cuh"

using autogemm::GemmParams;
using autogemm::Op;
using autogemm::SplitKMode;
using autogemm::detail::ConfigTag;

namespace {

struct Block {
  int tile, split;
  unsigned sm;
  double start_ns, loop_cycles, total_cycles;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Runs one configuration `runs` times after the flush and prints its timeline summary.
template <class Tag>
int timeline(const char* name, GemmParams p, void* flush, size_t flush_bytes, int runs) {
  constexpr auto C = Tag::value;
  const int tiles = autogemm::detail::ceil_div(p.m, C.bm) * autogemm::detail::ceil_div(p.n, C.bn);
  const int blocks = tiles * p.splits;
  if (blocks > probe::kMaxBlocks) return std::printf("%s: %d blocks, more than the probe holds\n", name, blocks), 1;
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<double> launch_us;
  std::vector<std::vector<Block>> per_run;
  const std::vector<unsigned long long> zeros(probe::kMaxBlocks * probe::kPhases, 0);
  for (int r = 0; r <= runs; ++r) {  // run 0 pays module loading and is dropped
    CHECK(cudaMemcpyToSymbol(probe::ns, zeros.data(), zeros.size() * sizeof(zeros[0])));
    CHECK(cudaMemcpyToSymbol(probe::cycles, zeros.data(), zeros.size() * sizeof(zeros[0])));
    CHECK(cudaMemsetAsync(flush, r, flush_bytes));
    CHECK(cudaEventRecord(e0));
    CHECK(autogemm::detail::launch_simt_sgemm<Tag>(p, nullptr));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    std::vector<unsigned long long> ns(zeros.size()), cyc(zeros.size());
    std::vector<unsigned> sm(probe::kMaxBlocks);
    CHECK(cudaMemcpyFromSymbol(ns.data(), probe::ns, ns.size() * sizeof(ns[0])));
    CHECK(cudaMemcpyFromSymbol(cyc.data(), probe::cycles, cyc.size() * sizeof(cyc[0])));
    CHECK(cudaMemcpyFromSymbol(sm.data(), probe::sm, sm.size() * sizeof(sm[0])));
    if (r == 0) continue;
    launch_us.push_back(ms * 1000.0);
    unsigned long long first = ~0ull;
    for (int b = 0; b < blocks; ++b) first = std::min(first, ns[b * probe::kPhases]);
    std::vector<Block> run;
    for (int b = 0; b < blocks; ++b) {
      const unsigned long long* t = &ns[b * probe::kPhases];
      const unsigned long long* c = &cyc[b * probe::kPhases];
      run.push_back({b % tiles, b / tiles, sm[b], double(t[0] - first), double(c[1] - c[0]), double(c[2] - c[0])});
    }
    per_run.push_back(run);
  }
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  // Per block: medians over the runs (a block's SM may change from run to run; by-SM means use each run).
  std::vector<Block> med(blocks);
  std::map<unsigned, std::vector<double>> by_sm;
  std::vector<double> start_spread;
  for (int b = 0; b < blocks; ++b) {
    std::vector<double> s, l, t;
    for (const auto& run : per_run) {
      s.push_back(run[b].start_ns), l.push_back(run[b].loop_cycles), t.push_back(run[b].total_cycles);
      by_sm[run[b].sm].push_back(run[b].total_cycles);
    }
    med[b] = {b % tiles, b / tiles, per_run[0][b].sm, median(s), median(l), median(t)};
  }
  for (const auto& run : per_run) {
    double last = 0;
    for (const Block& x : run) last = std::max(last, x.start_ns);
    start_spread.push_back(last);
  }
  std::vector<double> total, loop;
  for (const Block& x : med) total.push_back(x.total_cycles), loop.push_back(x.loop_cycles);
  std::sort(total.begin(), total.end());
  std::sort(loop.begin(), loop.end());
  auto pct = [](const std::vector<double>& v, double q) { return v[std::min(v.size() - 1, size_t(q * v.size()))]; };
  std::printf("\n%s: %d tiles x %d splits = %d blocks, launch median %.1f us over %d runs\n", name, tiles, p.splits,
              blocks, median(launch_us), runs);
  std::printf("  last block start after the first: median %.2f us, max %.2f us\n", median(start_spread) / 1000.0,
              *std::max_element(start_spread.begin(), start_spread.end()) / 1000.0);
  std::printf("  block cycles (start to done, median over runs): min %.0f p10 %.0f median %.0f p90 %.0f max %.0f\n",
              total.front(), pct(total, 0.1), median(total), pct(total, 0.9), total.back());
  std::printf("  of which main loop (start to its end):          min %.0f p10 %.0f median %.0f p90 %.0f max %.0f\n",
              loop.front(), pct(loop, 0.1), median(loop), pct(loop, 0.9), loop.back());
  std::map<int, std::vector<double>> by_split, by_tile;
  for (const Block& x : med) by_split[x.split].push_back(x.total_cycles), by_tile[x.tile].push_back(x.total_cycles);
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / v.size();
  };
  std::printf("  mean block cycles by split:");
  for (const auto& [k, v] : by_split) std::printf(" %d:%.0f", k, mean(v));
  std::printf("\n  mean block cycles by tile:");
  for (const auto& [k, v] : by_tile) std::printf(" %d:%.0f", k, mean(v));
  std::vector<std::pair<double, unsigned>> sms;
  for (const auto& [id, v] : by_sm) sms.push_back({mean(v), id});
  std::sort(sms.begin(), sms.end());
  std::printf("\n  mean block cycles by SM (over all runs), fastest 8:");
  for (size_t i = 0; i < std::min<size_t>(8, sms.size()); ++i) std::printf(" sm%u:%.0f", sms[i].second, sms[i].first);
  std::printf("\n  slowest 8:");
  for (size_t i = sms.size() > 8 ? sms.size() - 8 : 0; i < sms.size(); ++i)
    std::printf(" sm%u:%.0f", sms[i].second, sms[i].first);
  std::printf("\n  every SM, id:mean cycles:");
  std::sort(sms.begin(), sms.end(), [](auto a, auto b) { return a.second < b.second; });
  for (const auto& [m, id] : sms) std::printf(" %u:%.0f", id, m);
  std::printf("\n");
  return 0;
}

}  // namespace

int main() {
  const size_t flush_bytes = l2_flush_bytes();
  if (flush_bytes == 0) return std::printf("cannot read the L2 size of device 0\n"), 1;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  // 127x3001x1531 row-major, as the column-major `nt` call: m = 3001, n = 127, k = 1531; A is m x k
  // (lda = m), B is stored n x k (ldb = n): both X-major, odd leading dimensions (the scalar class).
  const int m = 3001, n = 127, k = 1531;
  float *a = nullptr, *b = nullptr, *c = nullptr, *partials = nullptr;
  CHECK(cudaMalloc(&a, sizeof(float) * size_t(m) * k));
  CHECK(cudaMalloc(&b, sizeof(float) * size_t(n) * k));
  CHECK(cudaMalloc(&c, sizeof(float) * size_t(m) * n));
  CHECK(cudaMalloc(&partials, sizeof(float) * 16 * autogemm::partial_ld(m) * n));
  CHECK(cudaMemset(a, 0, sizeof(float) * size_t(m) * k));
  CHECK(cudaMemset(b, 0, sizeof(float) * size_t(n) * k));
  auto params = [&](int splits, int bk) {
    GemmParams p;
    p.m = m, p.n = n, p.k = k, p.a = a, p.b = b, p.c = c, p.lda = m, p.ldb = n, p.ldc = m;
    const int per = (k + splits - 1) / splits;
    p.k_per_split = (per + bk - 1) / bk * bk;
    p.splits = (k + p.k_per_split - 1) / p.k_per_split;
    p.mode = SplitKMode::kParallel, p.partials = partials;
    return p;
  };
  constexpr int kRuns = 15;
  using Big = ConfigTag<256, 128, 8, 64, 64, 8, 16, 4, 1, Op::N, Op::T, 1>;
  using Winner = ConfigTag<128, 64, 16, 64, 32, 8, 8, 3, 1, Op::N, Op::T, 1>;
  if (timeline<Big>("simt_sgemm_256x128x8_w64x64_t8x16_s4_b256x1_nt_align1, 10 splits", params(10, 8), flush,
                    flush_bytes, kRuns))
    return 1;
  if (timeline<Big>("simt_sgemm_256x128x8_w64x64_t8x16_s4_b256x1_nt_align1, 11 splits (cuBLAS's grid)",
                    params(11, 8), flush, flush_bytes, kRuns))
    return 1;
  if (timeline<Winner>("simt_sgemm_128x64x16_w64x32_t8x8_s3_b128x1_nt_align1, 8 splits", params(8, 16), flush,
                       flush_bytes, kRuns))
    return 1;
  return 0;
}
