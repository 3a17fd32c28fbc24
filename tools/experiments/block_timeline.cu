// Experiment: when does each block of a GEMM launch start and finish, on which SM, and how long do
// its main loop and its epilogue take? Measurement 66 (docs/perf_notes.md) found the blocks of our
// 256x128x8 tile uneven on 127x3001x1531 (SMs active up to 82.5 k cycles against a mean of 73.6 k)
// where cuBLAS's CUTLASS twin runs every SM 57.5-59.4 k. This compiles the library's kernel template
// with its timeline probes on (AUTOGEMM_BLOCK_PROBE: block start, main loop done, block done; the
// library's own instances have none), runs the problem the benchmark's way (memset flush of 2x L2,
// CUDA events), and prints per configuration: the launch's time, the spread of block start times, the
// distribution of block durations (clock64, so per SM), and mean durations by split, by tile and by
// SM. Built with the tools (BUILD/tools/block_timeline). No argument: 127x3001x1531 (measurement 68);
// `target3`: the four shapes of issue 6's target 3 that miss, on their tuned winners, each also
// timed alone and with the library's split-k reduction after it, and controls (an empty kernel, a
// plain read) for what an event-timed launch spends outside its blocks (measurement 122);
// `skinny_stages`: the narrow tiles with deeper pipelines (experiment 123); `l2_prefetch`: the narrow
// winners with their big operand prefetched into L2 by bulk prefetches (experiment 138).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_fill.cuh"
#include "experiment_timing.hpp"
#include "gemm_params.hpp"
#include "kernel_config.hpp"

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
  const unsigned long long t = global_ns();
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

// Experiment 138: a tag Prefetched<Base, Mode> runs Base's kernel with bulk L2 prefetches issued by
// warp 0 at the block's first probe (plain ConfigTags issue none): see l2pf::at_block_start.
namespace l2pf {
// What a block prefetches: nothing, its own tile, or a contiguous slice of the whole operand; with
// kEvictFirst the prefetched lines carry the evict-first L2 policy of the library's streamed loads.
enum Mode { kNone = 0, kOwnTile = 1, kGridSlice = 2, kEvictFirst = 4 };
template <class T, class = void>
struct mode_of : std::integral_constant<int, kNone> {};
template <class T>
struct mode_of<T, std::void_t<decltype(T::prefetch)>> : std::integral_constant<int, T::prefetch> {};
template <class Base, int M>
struct Prefetched {
  static constexpr autogemm::KernelConfig value = Base::value;
  static constexpr int prefetch = M;
};

// `bytes` (a multiple of 16, 16-byte aligned) into L2, no completion to wait for. sm_90+ only: the
// tools' sm_80 code (the CI build) issues nothing.
template <int M>
__device__ __forceinline__ void bulk_prefetch(const void* p, unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  (void)p, (void)bytes;
#else
  if constexpr ((M & kEvictFirst) != 0) {
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], %1, %2;" ::"l"(p), "r"(bytes), "l"(policy)
                 : "memory");
  } else {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
  }
#endif
}

// Lane `lane` of warp 0 of block b of `blocks`: its piece of the b-th contiguous 1/blocks of `total` bytes.
template <int M>
__device__ __forceinline__ void prefetch_slice(const void* base, size_t total, size_t b, size_t blocks, int lane) {
  const size_t piece = (total / blocks / 32 + 15) / 16 * 16;
  const size_t from = (b * 32 + lane) * piece;
  if (from < total) bulk_prefetch<M>(static_cast<const char*>(base) + from, unsigned(min(piece, total - from)));
}

// For M-major A (column-major m x k, lda) whose tile grid is one column wide (the narrow shapes):
// kOwnTile: the block's own rows [m0, m0 + BM) of each column of its k-range, one piece per column;
// kGridSlice: block b of the launch's B blocks the b-th contiguous 1/B of the whole of A, in one
// piece per lane. Warp 0 issues them; the other warps go on at once.
template <class Tag>
__device__ __forceinline__ void at_block_start(const autogemm::GemmParams& p) {
  constexpr int M = mode_of<Tag>::value;
  if constexpr (M != kNone) {
    if (threadIdx.x >= 32) return;
    const int lane = threadIdx.x;
    if constexpr ((M & kOwnTile) != 0) {
      constexpr int BM = Tag::value.bm;
      const int m0 = blockIdx.x * BM;
      const int k0 = blockIdx.z * p.k_per_split, k1 = min(p.k, k0 + p.k_per_split);
      const unsigned bytes = 4u * min(BM, p.m - m0);
      for (int col = k0 + lane; col < k1; col += 32) bulk_prefetch<M>(p.a + m0 + col * p.lda, bytes);
    } else {
      prefetch_slice<M>(p.a, size_t(p.m) * p.k * 4, blockIdx.x + size_t(gridDim.x) * blockIdx.z,
                        size_t(gridDim.x) * gridDim.z, lane);
    }
  }
}
}  // namespace l2pf

#define AUTOGEMM_BLOCK_PROBE(phase) \
  ::probe::record(phase);           \
  if ((phase) == 0) ::l2pf::at_block_start<Tag>(params)
#include "simt_sgemm_multistage.cuh"
#include "stream_load.cuh"
#include "splitk_reduce.cu"  // the library's reduction and its launcher, compiled here (no kernel library link)

using autogemm::GemmParams;
using autogemm::Op;
using autogemm::SplitKMode;
using autogemm::detail::ConfigTag;

namespace {

struct Block {
  int tile, split;
  unsigned sm;
  double start_ns, loop_cycles, total_cycles, end_ns = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Runs one configuration `runs` times after the flush and prints its timeline summary.
template <class Tag>
int timeline(const char* name, GemmParams p, void* flush, size_t flush_bytes, int runs,
             const std::function<cudaError_t()>& after = {}) {
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
      run.push_back({b % tiles, b / tiles, sm[b], double(t[0] - first), double(c[1] - c[0]), double(c[2] - c[0]),
                     double(t[2] - first)});
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
  // In microseconds: the SMs' clock (cycles over %globaltimer nanoseconds of the same blocks), the
  // span from the first block's start to the last block's end, and the busiest SM's FFMAs alone
  // (its blocks' bm x bn x k-range products at 128 per cycle): the launch's floor at that clock.
  std::vector<double> span_us, mhz, ffma_us;
  for (const auto& run : per_run) {
    double end = 0, cyc = 0, ns_sum = 0;
    std::map<unsigned, double> fma_by_sm;
    for (const Block& x : run) {
      end = std::max(end, x.end_ns), cyc += x.total_cycles, ns_sum += x.end_ns - x.start_ns;
      const int k_range = std::min(p.k_per_split, p.k - x.split * p.k_per_split);
      fma_by_sm[x.sm] += double(C.bm) * C.bn * k_range;
    }
    double busiest = 0;
    for (const auto& [id, f] : fma_by_sm) busiest = std::max(busiest, f);
    span_us.push_back(end / 1000.0), mhz.push_back(cyc / ns_sum * 1000.0);
    ffma_us.push_back(busiest / 128.0 / mhz.back());
  }
  std::printf("  SM clock %.0f MHz; span (first start to last end) median %.2f us; busiest SM's FFMAs alone %.2f us;"
              " main loop median %.2f us, block median %.2f us\n",
              median(mhz), median(span_us), median(ffma_us), median(loop) / median(mhz), median(total) / median(mhz));
  if (after) {
    // The benchmark's number for the launch alone and with what follows it (the split-k reduction).
    auto gemm = [&] { (void)autogemm::detail::launch_simt_sgemm<Tag>(p, nullptr); };
    const float alone = memset_flushed_median_us(flush, flush_bytes, gemm);
    const float pair = memset_flushed_median_us(flush, flush_bytes, [&] { gemm(), (void)after(); });
    CHECK(cudaGetLastError());
    std::printf("  event-timed medians of 25 after the flush: GEMM alone %.2f us, GEMM + reduction %.2f us\n", alone,
                pair);
  }
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

// 127x3001x1531 row-major, as the column-major `nt` call: m = 3001, n = 127, k = 1531; A is m x k
// (lda = m), B is stored n x k (ldb = n): both X-major, odd leading dimensions (the scalar class).
int odd_problem(void* flush, size_t flush_bytes) {
  const int m = 3001, n = 127, k = 1531;
  float *a = nullptr, *b = nullptr, *c = nullptr, *partials = nullptr;
  CHECK(cudaMalloc(&a, sizeof(float) * size_t(m) * k));
  CHECK(cudaMalloc(&b, sizeof(float) * size_t(n) * k));
  CHECK(cudaMalloc(&c, sizeof(float) * size_t(m) * n));
  CHECK(cudaMalloc(&partials, sizeof(float) * 16 * autogemm::partial_ld(m) * n));
  fill_uniform<<<1024, 256>>>(a, size_t(m) * k, 1u);  // measurement 68 ran on zeros; now random as elsewhere
  fill_uniform<<<1024, 256>>>(b, size_t(n) * k, 2u);
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

// Issue 6's target-3 shapes that miss (measurement 122), `nn` as the benchmark calls them: row-major
// M x N x K is the column-major m = N, n = M; A (m x k) M-major, B (k x n) K-major. Random operands,
// partials for up to kMaxSplits splits, and a float64 reference of C made on the host.
struct TargetProblem {
  static constexpr int kMaxSplits = 128;
  int m, n, k;
  float *a = nullptr, *b = nullptr, *c = nullptr, *partials = nullptr;
  std::vector<double> ref, magnitude;  // C and sum |a b| per element

  int init(int rows, int cols, int depth) {
    m = cols, n = rows, k = depth;
    CHECK(cudaMalloc(&a, sizeof(float) * size_t(m) * k));
    CHECK(cudaMalloc(&b, sizeof(float) * size_t(k) * n));
    CHECK(cudaMalloc(&c, sizeof(float) * size_t(m) * n));
    CHECK(cudaMalloc(&partials, sizeof(float) * kMaxSplits * autogemm::partial_ld(m) * n));
    fill_uniform<<<1024, 256>>>(a, size_t(m) * k, 1u);
    fill_uniform<<<1024, 256>>>(b, size_t(k) * n, 2u);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ha(size_t(m) * k), hb(size_t(k) * n);
    CHECK(cudaMemcpy(ha.data(), a, sizeof(float) * ha.size(), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb.data(), b, sizeof(float) * hb.size(), cudaMemcpyDeviceToHost));
    ref.assign(size_t(m) * n, 0.0), magnitude.assign(size_t(m) * n, 0.0);
    for (int j = 0; j < n; ++j)
      for (int kk = 0; kk < k; ++kk) {
        const double bv = hb[kk + size_t(j) * k];
        const float* col = &ha[size_t(kk) * m];
        double* r = &ref[size_t(j) * m];
        double* g = &magnitude[size_t(j) * m];
        for (int i = 0; i < m; ++i) r[i] += col[i] * bv, g[i] += std::fabs(col[i] * bv);
      }
    return 0;
  }
  /// The launch of instance Tag on this problem with `splits` parallel splits (k rounded to BK per
  /// split, as split_geometry), with the streaming window launch_params gives a one-column grid.
  template <class Tag>
  GemmParams params(int splits) const {
    constexpr auto C = Tag::value;
    GemmParams p;
    p.m = m, p.n = n, p.k = k, p.a = a, p.b = b, p.c = c, p.lda = m, p.ldb = k, p.ldc = m;
    p.k_per_split = ((k + splits - 1) / splits + C.bk - 1) / C.bk * C.bk;
    p.splits = (k + p.k_per_split - 1) / p.k_per_split;
    p.mode = SplitKMode::kParallel, p.partials = partials;
    if (n <= C.bn) p.stream_window = a, p.stream_window_bytes = sizeof(float) * size_t(m) * k;
    return p;
  }
  ~TargetProblem() {
    for (void* x : {(void*)a, (void*)b, (void*)c, (void*)partials}) cudaFree(x);
  }
  /// The worst |C - ref| / sum |a b| over every element (NaN-poisoned C first: infinity if any is unwritten).
  double worst_error() const {
    std::vector<float> hc(size_t(m) * n);
    if (cudaMemcpy(hc.data(), c, sizeof(float) * hc.size(), cudaMemcpyDeviceToHost) != cudaSuccess) return INFINITY;
    double worst = 0;
    for (size_t e = 0; e < hc.size(); ++e) {
      const double r = std::fabs(hc[e] - ref[e]) / (magnitude[e] + 1e-30);
      worst = std::isnan(r) ? INFINITY : std::max(worst, r);
    }
    return worst;
  }
};

// One instance on a target problem with `splits` parallel splits: its timeline, and C checked after
// the GEMM and the library's reduction (float32 sums of k products: far under 1e-5 of sum |a b|).
template <class Tag>
int target_shape(const char* name, TargetProblem& t, int splits, void* flush, size_t flush_bytes) {
  GemmParams p = t.params<Tag>(splits);
  if (p.splits > TargetProblem::kMaxSplits) return std::printf("%s: more splits than the partials hold\n", name), 1;
  auto reduce = [&] { return autogemm::launch_splitk_reduce(t.partials, p.splits, t.m, t.n, 1.0f, 0.0f, t.c, t.m, nullptr); };
  if (timeline<Tag>(name, p, flush, flush_bytes, 15, reduce)) return 1;
  CHECK(cudaMemset(t.c, 0xff, sizeof(float) * size_t(t.m) * t.n));
  CHECK(autogemm::detail::launch_simt_sgemm<Tag>(p, nullptr));
  CHECK(reduce());
  CHECK(cudaDeviceSynchronize());
  const double err = t.worst_error();
  std::printf("  C against float64: worst %.2e of sum |a b| (%s)\n", err, err < 1e-5 ? "ok" : "WRONG");
  return err < 1e-5 ? 0 : 1;
}

// Controls for the target-3 timelines: how much of an event-timed launch lies outside its blocks.
__device__ unsigned long long span_first, span_last;  // %globaltimer of the first start, the last end

// Nothing but the span probes (its dynamic shared memory, if any, only reserved).
__global__ void empty_kernel() {
  if (threadIdx.x == 0) atomicMin(&span_first, global_ns()), atomicMax(&span_last, global_ns());
}

// The plain read of a GEMV's operand (stream_read.cu's best form: evict-first loads, 4 in flight),
// with the span probes: the stream every narrow-output kernel's span is compared with. kPrefetch
// (experiment 138, l2pf::Mode): warp 0 first asks for the block's contiguous 1/gridDim of the operand
// by bulk L2 prefetches, one piece per lane.
template <int kPrefetch = l2pf::kNone>
__global__ void plain_read(const float4* __restrict__ a, size_t n4, float* sink) {
  if (threadIdx.x == 0) atomicMin(&span_first, global_ns());
  if (kPrefetch != l2pf::kNone && threadIdx.x < 32) l2pf::prefetch_slice<kPrefetch>(a, n4 * 16, blockIdx.x, gridDim.x, threadIdx.x);
  const unsigned long long policy = autogemm::detail::evict_first_policy();
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float s = 0.0f;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = autogemm::detail::load_stream(a + i + u * stride, policy);
#pragma unroll
    for (int u = 0; u < 4; ++u) s += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  for (; i < n4; i += stride) s += a[i].x;
  if (s == 123.0f) sink[0] = s;
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&span_last, global_ns());
}

// A flush that leaves L2 clean: a read of the flush buffer with the default L2 policy (experiment 138).
__global__ void read_flush(const float4* __restrict__ a, size_t n4, float* sink) {
  float s = 0.0f;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x)
    s += __ldg(a + i).x;
  if (s == 123.0f) sink[0] = s;
}

// The same bytes in the narrow GEMM's order (experiment 123): block b reads the 128-row tile b % 24
// of the k-range b / 24 of a 3072 x 3072 M-major matrix, one column (512 bytes) per warp
// instruction, 4 columns in flight per warp; with or without the L2::256B prefetch of plain_read.
template <bool kPrefetch>
__global__ void tile_read(const float* __restrict__ a, int k_per_split, float* sink) {
  if (threadIdx.x == 0) atomicMin(&span_first, global_ns());
  const unsigned long long policy = autogemm::detail::evict_first_policy();
  const int tile = blockIdx.x % 24, split = blockIdx.x / 24, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const float4* base = reinterpret_cast<const float4*>(a + size_t(split) * k_per_split * 3072 + tile * 128) +
                       threadIdx.x % 32;
  float s = 0.0f;
  for (int col = warp; col < k_per_split; col += 4 * warps) {
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const float4* p = base + size_t(col + u * warps) * (3072 / 4);
      if (col + u * warps >= k_per_split) {
        v[u] = make_float4(0, 0, 0, 0);
      } else if constexpr (kPrefetch) {
        v[u] = autogemm::detail::load_stream(p, policy);
      } else {
        asm("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;"
            : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
            : "l"(p), "l"(policy));
      }
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) s += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  if (s == 123.0f) sink[0] = s;
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&span_last, global_ns());
}

// The plain reads' 3072 x 3072 operand (random) and their sink, freed with the object.
struct ReadOperand {
  static constexpr size_t kN4 = size_t(3072) * 3072 / 4;  // float4s
  float *a = nullptr, *sink = nullptr;
  int init() {
    CHECK(cudaMalloc(&a, kN4 * sizeof(float4)));
    CHECK(cudaMalloc(&sink, sizeof(float)));
    fill_uniform<<<1024, 256>>>(a, kN4 * 4, 3u);
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  ~ReadOperand() { cudaFree(a), cudaFree(sink); }
};

// Event-timed median of 25 after the flush, and the median span of 15 probed runs.
template <class Launch>
int control(const char* name, void* flush, size_t flush_bytes, Launch launch) {
  const float event_us = memset_flushed_median_us(flush, flush_bytes, launch);
  std::vector<double> span;
  for (int r = 0; r <= 15; ++r) {
    const unsigned long long first = ~0ull, last = 0;
    CHECK(cudaMemcpyToSymbol(span_first, &first, sizeof first));
    CHECK(cudaMemcpyToSymbol(span_last, &last, sizeof last));
    CHECK(cudaMemsetAsync(flush, r, flush_bytes));
    launch();
    CHECK(cudaDeviceSynchronize());
    unsigned long long f = 0, l = 0;
    CHECK(cudaMemcpyFromSymbol(&f, span_first, sizeof f));
    CHECK(cudaMemcpyFromSymbol(&l, span_last, sizeof l));
    if (r > 0) span.push_back(double(l - f) / 1000.0);
  }
  CHECK(cudaGetLastError());
  const double s = median(span);
  std::printf("%-58s event %6.2f us, span %6.2f us, outside the span %5.2f us\n", name, event_us, s, event_us - s);
  return 0;
}

int controls(void* flush, size_t flush_bytes) {
  std::printf("\ncontrols (the benchmark's flush before each launch):\n");
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  constexpr int kBigSmem = 120 * 1024;  // about the long-K winners' stages (3 x 40 KB)
  CHECK(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBigSmem));
  CHECK(cudaFuncSetAttribute(plain_read<>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBigSmem));
  if (control("empty kernel, 132 blocks of 128, no shared memory", flush, flush_bytes,
              [&] { empty_kernel<<<sms, 128>>>(); }) ||
      control("empty kernel, 132 blocks of 128, 120 KB shared memory", flush, flush_bytes,
              [&] { empty_kernel<<<sms, 128, kBigSmem>>>(); }))
    return 1;
  ReadOperand r;
  if (r.init()) return 1;
  float *a = r.a, *sink = r.sink;
  const size_t n4 = ReadOperand::kN4;
  const auto a4 = reinterpret_cast<const float4*>(a);
  if (control("plain read of 3072 x 3072 floats, 8 blocks of 256 per SM", flush, flush_bytes,
              [&] { plain_read<><<<sms * 8, 256>>>(a4, n4, sink); }) ||
      control("the same, 1 block of 256 per SM with 120 KB shared memory", flush, flush_bytes,
              [&] { plain_read<><<<sms, 256, kBigSmem>>>(a4, n4, sink); }) ||
      control("the same, 8 blocks of 256 per SM, 1 block per SM resident", flush, flush_bytes,
              [&] { plain_read<><<<sms * 8, 256, kBigSmem>>>(a4, n4, sink); }) ||
      control("the GEMM's order: 24 tiles x 8 splits of 128 threads, L2::256B", flush, flush_bytes,
              [&] { tile_read<true><<<24 * 8, 128>>>(a, 384, sink); }) ||
      control("the GEMM's order: 24 tiles x 8 splits of 128 threads, no prefetch size", flush, flush_bytes,
              [&] { tile_read<false><<<24 * 8, 128>>>(a, 384, sink); }) ||
      control("the GEMM's order: 24 tiles x 8 splits of 512 threads, L2::256B", flush, flush_bytes,
              [&] { tile_read<true><<<24 * 8, 512>>>(a, 384, sink); }))
    return 1;
  return 0;
}

int target3(void* flush, size_t flush_bytes) {
  if (controls(flush, flush_bytes)) return 1;
  using T256 = ConfigTag<256, 64, 32, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4>;
  using T128 = ConfigTag<64, 64, 32, 64, 32, 8, 8, 3, 3, Op::N, Op::N, 4, autogemm::Family::kGemm, 2>;
  using T16 = ConfigTag<128, 16, 32, 32, 16, 4, 4, 3, 1, Op::N, Op::N, 4>;
  using T32 = ConfigTag<128, 32, 16, 32, 32, 8, 4, 3, 1, Op::N, Op::N, 4>;
  TargetProblem p256, p128, p16, p32;
  if (p256.init(256, 256, 8192) ||
      target_shape<T256>("256x256x8192: simt_sgemm_256x64x32_w64x32_t8x8_s3_b256x1_nn_align4, 32 splits", p256, 32,
                         flush, flush_bytes))
    return 1;
  if (p128.init(128, 128, 32768) ||
      target_shape<T128>("128x128x32768: simt_sgemm_64x64x32_w64x32_t8x8_ks2_s3_b128x3_nn_align4, 64 splits", p128,
                         64, flush, flush_bytes))
    return 1;
  if (p16.init(16, 3072, 3072) ||
      target_shape<T16>("16x3072x3072: simt_sgemm_128x16x32_w32x16_t4x4_s3_b128x1_nn_align4, 8 splits", p16, 8,
                        flush, flush_bytes))
    return 1;
  if (p32.init(32, 3072, 3072) ||
      target_shape<T32>("32x3072x3072: simt_sgemm_128x32x16_w32x32_t8x4_s3_b128x1_nn_align4, 16 splits", p32, 16,
                        flush, flush_bytes))
    return 1;
  return 0;
}

// Experiment 123: the narrow tiles with more of A in flight. Measurement 122 found the 16x3072x3072
// winner's blocks span 18.6 us where a plain read of the same bytes spans 15.6, and the plain read
// itself slows to 21.4 us with 16 KB in flight per SM; the grid's pipelines keep at most ~32 KB of
// A in flight per block. The same tiles with deeper pipelines (BK x stages), at the winners' split
// counts and at 5 / 8 splits (one block per SM).
int skinny_stages(void* flush, size_t flush_bytes) {
  TargetProblem p16, p32;
  if (p16.init(16, 3072, 3072) || p32.init(32, 3072, 3072)) return 1;
  using N16_32s3 = ConfigTag<128, 16, 32, 32, 16, 4, 4, 3, 1, Op::N, Op::N, 4>;
  using N16_32s5 = ConfigTag<128, 16, 32, 32, 16, 4, 4, 5, 1, Op::N, Op::N, 4>;
  using N16_32s7 = ConfigTag<128, 16, 32, 32, 16, 4, 4, 7, 1, Op::N, Op::N, 4>;
  using N16_64s4 = ConfigTag<128, 16, 64, 32, 16, 4, 4, 4, 1, Op::N, Op::N, 4>;
  using N32_16s3 = ConfigTag<128, 32, 16, 32, 32, 8, 4, 3, 1, Op::N, Op::N, 4>;
  using N32_16s8 = ConfigTag<128, 32, 16, 32, 32, 8, 4, 8, 1, Op::N, Op::N, 4>;
  using N32_32s5 = ConfigTag<128, 32, 32, 32, 32, 8, 4, 5, 1, Op::N, Op::N, 4>;
  for (int splits : {8, 5})
    if (target_shape<N16_32s3>("16x3072x3072: 128x16x32 t4x4 s3 (the winner's pipeline)", p16, splits, flush,
                               flush_bytes) ||
        target_shape<N16_32s5>("16x3072x3072: 128x16x32 t4x4 s5", p16, splits, flush, flush_bytes) ||
        target_shape<N16_32s7>("16x3072x3072: 128x16x32 t4x4 s7", p16, splits, flush, flush_bytes) ||
        target_shape<N16_64s4>("16x3072x3072: 128x16x64 t4x4 s4", p16, splits, flush, flush_bytes))
      return 1;
  for (int splits : {16, 8})
    if (target_shape<N32_16s3>("32x3072x3072: 128x32x16 t8x4 s3 (the winner's pipeline)", p32, splits, flush,
                               flush_bytes) ||
        target_shape<N32_16s8>("32x3072x3072: 128x32x16 t8x4 s8", p32, splits, flush, flush_bytes) ||
        target_shape<N32_32s5>("32x3072x3072: 128x32x32 t8x4 s5", p32, splits, flush, flush_bytes))
      return 1;
  return 0;
}

// Experiment 126: the long-K shapes with more splits now that the reduction of small outputs is
// shared among warps (change 124): the 64x64 sliced tile at 3 and 4 blocks per SM with 64-128 splits
// (more warps per SM, shorter k-ranges, more partials), beside the winners.
int longk_splits(void* flush, size_t flush_bytes) {
  constexpr auto G = autogemm::Family::kGemm;
  using T256 = ConfigTag<256, 64, 32, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4>;
  using S64x3 = ConfigTag<64, 64, 32, 64, 32, 8, 8, 3, 3, Op::N, Op::N, 4, G, 2>;
  using S64x4 = ConfigTag<64, 64, 32, 64, 32, 8, 8, 3, 4, Op::N, Op::N, 4, G, 2>;
  TargetProblem p128, p256;
  if (p128.init(128, 128, 32768)) return 1;
  for (int splits : {64, 96, 128})
    if (target_shape<S64x3>("128x128x32768: 64x64x32 ks2 s3 b128x3 (the winner's tile)", p128, splits, flush,
                            flush_bytes) ||
        target_shape<S64x4>("128x128x32768: 64x64x32 ks2 s3 b128x4", p128, splits, flush, flush_bytes))
      return 1;
  if (p256.init(256, 256, 8192)) return 1;
  if (target_shape<T256>("256x256x8192: 256x64x32 s3 b256x1 (the winner)", p256, 32, flush, flush_bytes)) return 1;
  for (int splits : {32, 64})
    if (target_shape<S64x3>("256x256x8192: 64x64x32 ks2 s3 b128x3", p256, splits, flush, flush_bytes) ||
        target_shape<S64x4>("256x256x8192: 64x64x32 ks2 s3 b128x4", p256, splits, flush, flush_bytes))
      return 1;
  return 0;
}

// Experiment 129: the GEMM launched as a programmatic dependent of whatever kernel precedes it in the
// stream (GemmParams::after_previous_kernel, which the library set only after its own repack until
// change 130): its
// blocks may then be scheduled as the predecessor's blocks exit, and they wait for its completion
// at their first instruction (griddepcontrol.wait), so the result cannot change. Each winner
// event-timed after the benchmark's flush, GEMM + reduction, without and with the attribute; then
// the same with an empty kernel launched inside the timed region just before the GEMM.
template <class Tag>
int pdl_shape(const char* name, TargetProblem& t, int splits, void* flush, size_t flush_bytes) {
  GemmParams p = t.params<Tag>(splits);
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  auto run = [&](bool pdl, bool predecessor) {
    p.after_previous_kernel = pdl;
    if (predecessor) empty_kernel<<<sms, 128>>>();
    (void)autogemm::detail::launch_simt_sgemm<Tag>(p, nullptr);
    (void)autogemm::launch_splitk_reduce(t.partials, p.splits, t.m, t.n, 1.0f, 0.0f, t.c, t.m, nullptr);
  };
  float us[2][2];
  for (int round = 0; round < 2; ++round)  // the second round's numbers are printed
    for (int pred = 0; pred < 2; ++pred)
      for (int pdl = 0; pdl < 2; ++pdl)
        us[pred][pdl] = memset_flushed_median_us(flush, flush_bytes, [&] { run(pdl, pred); });
  CHECK(cudaGetLastError());
  CHECK(cudaMemset(t.c, 0xff, sizeof(float) * size_t(t.m) * t.n));
  run(true, true);
  CHECK(cudaDeviceSynchronize());
  const double err = t.worst_error();
  std::printf("%-48s after the flush: %6.2f -> %6.2f us with PDL; after an empty kernel: %6.2f -> %6.2f us; "
              "C %.1e (%s)\n", name, us[0][0], us[0][1], us[1][0], us[1][1], err, err < 1e-5 ? "ok" : "WRONG");
  return err < 1e-5 ? 0 : 1;
}

int pdl(void* flush, size_t flush_bytes) {
  using T256 = ConfigTag<256, 64, 32, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4>;
  using T128 = ConfigTag<64, 64, 32, 64, 32, 8, 8, 3, 3, Op::N, Op::N, 4, autogemm::Family::kGemm, 2>;
  using T16 = ConfigTag<128, 16, 32, 32, 16, 4, 4, 3, 1, Op::N, Op::N, 4>;
  using T32 = ConfigTag<128, 32, 16, 32, 32, 8, 4, 3, 1, Op::N, Op::N, 4>;
  TargetProblem p256, p128, p16, p32;
  if (p16.init(16, 3072, 3072) || pdl_shape<T16>("16x3072x3072 (128x16 t4x4, 8 splits)", p16, 8, flush, flush_bytes))
    return 1;
  if (p32.init(32, 3072, 3072) ||
      pdl_shape<T32>("32x3072x3072 (128x32 t8x4, 16 splits)", p32, 16, flush, flush_bytes))
    return 1;
  if (p256.init(256, 256, 8192) ||
      pdl_shape<T256>("256x256x8192 (256x64 t8x8, 32 splits)", p256, 32, flush, flush_bytes))
    return 1;
  if (p128.init(128, 128, 32768) ||
      pdl_shape<T128>("128x128x32768 (64x64 ks2 t8x8, 64 splits)", p128, 64, flush, flush_bytes))
    return 1;
  return 0;
}

// Experiment 138: the narrow winners with the big operand prefetched into L2 at each block's start
// (l2pf::at_block_start), beside the plain read with and without its prefetch; after the benchmark's
// memset flush (L2 left full of dirty lines) in two rounds, the variants alternating within each,
// then event-timed after a read flush (L2 left clean), where a prefetch evicts nothing dirty
// (`l2_prefetch read`: that part alone).
int l2_prefetch(void* flush, size_t flush_bytes, bool read_flush_only) {
  using namespace l2pf;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  ReadOperand r;
  if (r.init()) return 1;
  float *a = r.a, *sink = r.sink;
  const size_t n4 = ReadOperand::kN4;
  const auto a4 = reinterpret_cast<const float4*>(a);
  using T16 = ConfigTag<128, 16, 32, 32, 16, 4, 4, 3, 1, Op::N, Op::N, 4>;
  using T32 = ConfigTag<128, 32, 16, 32, 32, 8, 4, 3, 1, Op::N, Op::N, 4>;
  constexpr int kSliceEF = kGridSlice | kEvictFirst, kOwnEF = kOwnTile | kEvictFirst;
  TargetProblem p16, p32;
  if (p16.init(16, 3072, 3072) || p32.init(32, 3072, 3072)) return 1;
  for (int round = 1; round <= (read_flush_only ? 0 : 2); ++round) {
    std::printf("\nround %d, after the memset flush\n", round);
    if (control("plain read, 8 blocks of 256 per SM", flush, flush_bytes,
                [&] { plain_read<kNone><<<sms * 8, 256>>>(a4, n4, sink); }) ||
        control("plain read, 8 blocks of 256 per SM, grid slices prefetched", flush, flush_bytes,
                [&] { plain_read<kGridSlice><<<sms * 8, 256>>>(a4, n4, sink); }) ||
        control("the same, prefetched evict-first", flush, flush_bytes,
                [&] { plain_read<kSliceEF><<<sms * 8, 256>>>(a4, n4, sink); }) ||
        control("plain read, 1 block of 256 per SM", flush, flush_bytes,
                [&] { plain_read<kNone><<<sms, 256>>>(a4, n4, sink); }) ||
        control("plain read, 1 block of 256 per SM, grid slices prefetched evict-first", flush, flush_bytes,
                [&] { plain_read<kSliceEF><<<sms, 256>>>(a4, n4, sink); }))
      return 1;
    if (target_shape<T16>("16x3072x3072: 128x16x32 t4x4 s3, 8 splits, no prefetch", p16, 8, flush, flush_bytes) ||
        target_shape<Prefetched<T16, kOwnTile>>("16x3072x3072: the same, own tile prefetched", p16, 8, flush,
                                                 flush_bytes) ||
        target_shape<Prefetched<T16, kOwnEF>>("16x3072x3072: the same, own tile prefetched evict-first", p16, 8,
                                               flush, flush_bytes) ||
        target_shape<Prefetched<T16, kGridSlice>>("16x3072x3072: the same, grid slices prefetched", p16, 8, flush,
                                                   flush_bytes) ||
        target_shape<Prefetched<T16, kSliceEF>>("16x3072x3072: the same, grid slices prefetched evict-first", p16, 8,
                                                 flush, flush_bytes) ||
        target_shape<T32>("32x3072x3072: 128x32x16 t8x4 s3, 16 splits, no prefetch", p32, 16, flush, flush_bytes) ||
        target_shape<Prefetched<T32, kOwnEF>>("32x3072x3072: the same, own tile prefetched evict-first", p32, 16,
                                               flush, flush_bytes) ||
        target_shape<Prefetched<T32, kSliceEF>>("32x3072x3072: the same, grid slices prefetched evict-first", p32,
                                                 16, flush, flush_bytes))
      return 1;
  }
  // After a read flush: L2 holds clean lines of the flush buffer, so nothing is written back. The
  // flush reads with the default L2 policy (read_flush), so that it evicts lines of any priority;
  // call 138c's first version read with plain_read's evict-first loads, which left the prefetched
  // operand (evict-normal) in L2 from one repetition to the next.
  const auto read_flushed_us = [&](auto launch) {
    const auto f4 = static_cast<const float4*>(flush);
    const std::vector<float> us =
        sorted_times_us([&](int) { read_flush<<<sms * 8, 256>>>(f4, flush_bytes / 16, sink); }, launch, 28, 3);
    return us[us.size() / 2];
  };
  auto pair16 = [&](auto tag) {
    using Tag = decltype(tag);
    GemmParams p = p16.params<Tag>(8);
    return [&p16, p] {
      (void)autogemm::detail::launch_simt_sgemm<Tag>(p, nullptr);
      (void)autogemm::launch_splitk_reduce(p16.partials, p.splits, p16.m, p16.n, 1.0f, 0.0f, p16.c, p16.m, nullptr);
    };
  };
  std::printf("\nafter a read flush (event-timed medians of 25):\n");
  for (int round = 1; round <= 2; ++round) {
    std::printf("  round %d: plain read %.2f us, grid slices prefetched %.2f, evict-first %.2f;", round,
                read_flushed_us([&] { plain_read<kNone><<<sms * 8, 256>>>(a4, n4, sink); }),
                read_flushed_us([&] { plain_read<kGridSlice><<<sms * 8, 256>>>(a4, n4, sink); }),
                read_flushed_us([&] { plain_read<kSliceEF><<<sms * 8, 256>>>(a4, n4, sink); }));
    std::printf(" 16x3072x3072 GEMM + reduction %.2f us, grid slices prefetched %.2f, evict-first %.2f\n",
                read_flushed_us(pair16(T16{})), read_flushed_us(pair16(Prefetched<T16, kGridSlice>{})),
                read_flushed_us(pair16(Prefetched<T16, kSliceEF>{})));
  }
  CHECK(cudaGetLastError());
  return 0;
}

// One launch of each of target 3's long-K winners and of the 16-row one, after the flush, for a
// profiler (measurement 127: `ncu --kernel-name regex:simt_sgemm_kernel ... block_timeline profile`).
template <class Tag>
int launch_once(TargetProblem& t, int splits, void* flush, size_t flush_bytes) {
  GemmParams p = t.params<Tag>(splits);
  CHECK(cudaMemsetAsync(flush, 1, flush_bytes));
  CHECK(autogemm::detail::launch_simt_sgemm<Tag>(p, nullptr));
  CHECK(cudaDeviceSynchronize());
  return 0;
}

int profile(void* flush, size_t flush_bytes) {
  using T256 = ConfigTag<256, 64, 32, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4>;
  using T128 = ConfigTag<64, 64, 32, 64, 32, 8, 8, 3, 3, Op::N, Op::N, 4, autogemm::Family::kGemm, 2>;
  using T16 = ConfigTag<128, 16, 32, 32, 16, 4, 4, 3, 1, Op::N, Op::N, 4>;
  TargetProblem p256, p128, p16;
  if (p256.init(256, 256, 8192) || p128.init(128, 128, 32768) || p16.init(16, 3072, 3072)) return 1;
  return launch_once<T256>(p256, 32, flush, flush_bytes) || launch_once<T128>(p128, 64, flush, flush_bytes) ||
         launch_once<T16>(p16, 8, flush, flush_bytes);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t flush_bytes = l2_flush_bytes();
  if (flush_bytes == 0) return std::printf("cannot read the L2 size of device 0\n"), 1;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "target3") return target3(flush, flush_bytes);
  if (mode == "skinny_stages") return skinny_stages(flush, flush_bytes);
  if (mode == "controls") return controls(flush, flush_bytes);
  if (mode == "longk_splits") return longk_splits(flush, flush_bytes);
  if (mode == "profile") return profile(flush, flush_bytes);
  if (mode == "pdl") return pdl(flush, flush_bytes);
  if (mode == "l2_prefetch") return l2_prefetch(flush, flush_bytes, argc > 2 && std::string(argv[2]) == "read");
  if (!mode.empty())
    return std::printf("usage: block_timeline [target3 | skinny_stages | controls | longk_splits | profile | pdl | "
                       "l2_prefetch [read]]\n"),
           2;
  return odd_problem(flush, flush_bytes);
}
