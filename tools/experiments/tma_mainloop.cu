// Measures whether Hopper's tensor memory accelerator (TMA) makes the SIMT main loop faster (the reason of
// docs/decisions.md, TMA family on sm_90a). The library's multistage kernels stage operand tiles with
// per-thread cp.async copies, a cp.async.wait and a block barrier per k-tile. Here one producer warp issues
// each stage's two tile copies (cp.async.bulk.tensor, one instruction per operand tile), completion is
// counted by an mbarrier per stage, and the 256 compute threads never copy or meet at a block barrier: they
// wait for a stage's "full" barrier and arrive on its "empty" one. Their compute is the library's own
// (load_fragments over the same shared layout, the same FFMA order), so each accumulator sums its products in
// the same order and the result must be bit-identical to the library kernel's.
//
// The library's TMA instances (Family::kTma, simt_sgemm_tma.cuh) are timed beside their twins, launched as
// the library launches them (the bare or the general form, bare_epilogue_fits) and with their tensor maps
// encoded once, under two timings (below). In the general form they run 2-3% slower than the twins, in the
// bare form at the twins' speed (the reason of docs/decisions.md, TMA kernel: two forms, 4 stages, a frozen
// copy path).
//
// Runs `nt` (both operands X-major, as TMA's dense boxes lay them out) at 4096 x 4096 x 4096 and at
// 4096 x 4224 x 4096 (33 x 32 tiles of 128 x 128, 8 whole waves of 132), timed the benchmark's way
// (memset flush of 2x L2, CUDA events, median), then again with 200 us of spin between the flush and
// the timed launch, so that the host's work for a launch is hidden. Kernels: the library's
// multistage 4096^3 winner (the reference for the bit-identity checks), TMA twins (tma_sgemm) and the
// library's TMA instances. cuBLAS pedantic SGEMM in the same process is the yardstick. Built with the
// tools for sm_90a (BUILD/tools/tma_mainloop [--hide-host]).
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_fill.cuh"
#include "experiment_timing.hpp"
#include "simt_sgemm_multistage.cuh"
#include "simt_sgemm_tma.cuh"  // the library's mbarrier and TMA helpers

using autogemm::GemmParams;
using autogemm::Op;
using autogemm::detail::ceil_div;
using autogemm::detail::ConfigTag;
using autogemm::detail::kFragSteps;
using autogemm::KernelConfig;
using autogemm::detail::kL2GroupRows;

namespace {

#ifdef AUTOGEMM_TMA_DEVICE_CODE  // defined by simt_sgemm_tma.cuh for the sm_90a device pass only
using autogemm::detail::mbarrier_arrive;
using autogemm::detail::mbarrier_expect_bytes;
using autogemm::detail::mbarrier_init;
using autogemm::detail::mbarrier_wait;
using autogemm::detail::tma_copy_box;
#endif

template <class Tag>
constexpr size_t tma_smem_bytes() {
  constexpr KernelConfig C = Tag::value;
  return size_t(C.stages) * (C.bm + C.bn) * C.bk * sizeof(float) + 2 * C.stages * sizeof(uint64_t);
}

/// C (m x n, column-major, ldc) = A (m x k, M-major) * B^T (B stored n x k, N-major), alpha 1, beta 0,
/// m and n multiples of the tile (the experiment's problems). Who copies:
/// - kLag = 0: one more warp (its first lane) copies each stage once every compute thread has
///   arrived on its "empty" barrier (288 threads for a 128 x 128 tile of 8 x 8 thread tiles).
/// - kLag > 0: no copy warp; thread 0, before the FFMAs of tile kt, waits until every thread is done
///   with tile kt - kLag and copies tile kt - kLag + S into its stage (S - kLag tiles ahead).
/// - kLag = -1: a copy warpgroup (128 threads), which hands its registers to the compute threads
///   (setmaxnreg, sm_90a): a copy warp makes a ninth warp, three on one of the SM's four scheduler
///   partitions, whose 16 K registers then cap every thread at 168 (ptxas); with a warpgroup that
///   keeps 40, the compute threads of one block per SM may hold 232 (kTmaComputeRegisters).
/// Tag's min_blocks is the launch bound's.
template <class Tag, int kLag>
constexpr int copy_threads() {
  return kLag == 0 ? 32 : kLag < 0 ? 128 : 0;
}
using autogemm::kTmaComputeRegisters;  // 128 x 40 + 256 x 232 <= 384 x 168
using autogemm::kTmaCopyRegisters;

template <class Tag, int kLag>
__global__ void __launch_bounds__(Tag::value.threads() + copy_threads<Tag, kLag>(), Tag::value.min_blocks)
    tma_sgemm(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, float* c, int m,
              int n, int k, int64_t ldc) {
#ifdef AUTOGEMM_TMA_DEVICE_CODE  // the helpers exist for sm_90a only (this tool builds for nothing else)
  constexpr KernelConfig C = Tag::value;
  constexpr int BM = C.bm, BN = C.bn, BK = C.bk, TM = C.tm, TN = C.tn, S = C.stages;
  constexpr int kCompute = C.threads();
  constexpr int kStageBytes = (BM + BN) * BK * static_cast<int>(sizeof(float));
  static_assert(C.op_a == Op::N && C.op_b == Op::T && C.slices == 1, "nt, one slice");
  static_assert(kLag >= -1 && kLag < S, "a stage is refilled at most S - 1 tiles after it was read");
  extern __shared__ __align__(1024) float4 smem_vec[];  // TMA writes boxes to 128-byte aligned addresses
  float* smem_a = reinterpret_cast<float*>(smem_vec);
  float* smem_b = smem_a + S * BM * BK;
  uint64_t* full = reinterpret_cast<uint64_t*>(smem_b + S * BN * BK);
  uint64_t* empty = full + S;

  // The library's L2-grouped tile order.
  const int tiles_m = ceil_div(m, BM), tiles_n = ceil_div(n, BN);
  const int tile = blockIdx.x;
  const int per_group = kL2GroupRows * tiles_n;
  const int first_m = (tile / per_group) * kL2GroupRows;
  const int group_rows = min(tiles_m - first_m, kL2GroupRows);
  const int m0 = (first_m + (tile % per_group) % group_rows) * BM;
  const int n0 = ((tile % per_group) / group_rows) * BN;
  const int k_tiles = ceil_div(k, BK);
  const int tid = threadIdx.x;
  // Tile kt into its stage kt % S; the stage's previous tile, kt - S, must be done (empty barrier).
  auto copy_tile = [&](int kt) {
    const int s = kt % S;
    if (kt >= S) mbarrier_wait(&empty[s], (kt / S - 1) & 1);
    mbarrier_expect_bytes(&full[s], kStageBytes);
    tma_copy_box(smem_a + s * BM * BK, &map_a, m0, kt * BK, &full[s]);
    tma_copy_box(smem_b + s * BN * BK, &map_b, n0, kt * BK, &full[s]);
  };

  if (tid == 0) {
    for (int s = 0; s < S; ++s) mbarrier_init(&full[s], 1), mbarrier_init(&empty[s], kCompute);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();

  if constexpr (kLag <= 0) {
    if (tid >= kCompute) {  // the copying warp(group): one lane issues everything
      if constexpr (kLag < 0) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kTmaCopyRegisters));
      if (tid == kCompute)
        for (int kt = 0; kt < k_tiles; ++kt) copy_tile(kt);
      return;
    }
    if constexpr (kLag < 0) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kTmaComputeRegisters));
  } else if (tid == 0) {
    for (int kt = 0; kt < min(S, k_tiles); ++kt) copy_tile(kt);
  }

  const int warp = tid / 32, lane = tid % 32;
  const int warp_m0 = (warp % C.warps_m()) * C.wm;
  const int warp_n0 = (warp / C.warps_m()) * C.wn;
  const int lane_m = lane % C.lanes_m();
  const int lane_n = lane / C.lanes_m();
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  for (int kt = 0; kt < k_tiles; ++kt) {
    if constexpr (kLag > 0) {
      if (tid == 0 && kt >= kLag && kt - kLag + S < k_tiles) copy_tile(kt - kLag + S);
    }
    const int s = kt % S;
    mbarrier_wait(&full[s], (kt / S) & 1);
    const float* sa = smem_a + s * BM * BK;
    const float* sb = smem_b + s * BN * BK;
#pragma unroll
    for (int k4 = 0; k4 < BK; k4 += kFragSteps) {
      float fa[kFragSteps][TM], fb[kFragSteps][TN];
      autogemm::detail::load_fragments<TM, C.lanes_m(), BM, BK, false>(fa, sa, warp_m0, lane_m, k4);
      autogemm::detail::load_fragments<TN, C.lanes_n(), BN, BK, false>(fb, sb, warp_n0, lane_n, k4);
#pragma unroll
      for (int q = 0; q < kFragSteps; ++q)
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(fa[q][i], fb[q][j], acc[i][j]);
    }
    mbarrier_arrive(&empty[s]);
  }

  // The library's float4 runs of 4 adjacent rows (X-major A), alpha 1 and beta 0.
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    const int col = n0 + warp_n0 + autogemm::detail::frag_x<false, C.lanes_n()>(j, lane_n);
    float* out = c + static_cast<int64_t>(col) * ldc;
#pragma unroll
    for (int r = 0; r < TM; r += 4) {
      const int row = m0 + warp_m0 + autogemm::detail::frag_x<false, C.lanes_m()>(r, lane_m);
      *reinterpret_cast<float4*>(out + row) = make_float4(acc[r][j], acc[r + 1][j], acc[r + 2][j], acc[r + 3][j]);
    }
  }
#endif
}

// A 2-D tensor map of a column-major x_extent x k matrix (the library's encoder; CHECK-able).
int make_map(CUtensorMap* map, const float* base, int x_extent, int k, int64_t ld, int box_x, int box_k) {
  CHECK(autogemm::detail::encode_x_major_tile_map(map, base, x_extent, k, ld, box_x, box_k));
  return 0;
}

struct Problem {
  int m, n, k;
  float *a, *b, *c, *ref;
};

struct Timing {
  float median, fastest;
};

/// Holds the GPU for `ns` nanoseconds (one thread): queued after the flush, it keeps the stream busy
/// while the host prepares the next launch, so host work up to that long stays out of the timing.
__global__ void spin_ns(unsigned long long ns) {
  const unsigned long long t0 = global_ns();
  while (global_ns() - t0 < ns) {
  }
}

// The second timing: the benchmark's flush, then 200 us of spin (see spin_ns).
bool g_hide_host = false;

template <class Launch>
Timing time_it(Launch launch, void* flush, size_t flush_bytes) {
  constexpr int kRuns = 25, kWarmup = 5;
  auto before = [&](int r) {
    cudaMemsetAsync(flush, r, flush_bytes);
    if (g_hide_host) spin_ns<<<1, 1>>>(200000);
  };
  const std::vector<float> us = sorted_times_us(before, launch, kRuns, kWarmup);
  return {us[us.size() / 2], us.front()};
}

// One line per kernel: its times and rate, and for ours the registers and resident blocks per SM.
void report(const char* name, const Problem& p, Timing t, const char* check, const void* kernel = nullptr,
            int threads = 0, size_t smem = 0) {
  const double tflops = 2.0 * p.m * p.n * p.k / (t.median * 1e-6) / 1e12;
  char resources[64] = "";
  cudaFuncAttributes attr{};
  int blocks = 0;
  if (kernel != nullptr && cudaFuncGetAttributes(&attr, kernel) == cudaSuccess &&
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem) == cudaSuccess)
    std::snprintf(resources, sizeof resources, "%3d regs %d blocks/SM", attr.numRegs, blocks);
  std::printf("  %-52s median %7.1f us fastest %7.1f us %6.2f TFLOP/s  %-20s %s\n", name, t.median, t.fastest,
              tflops, resources, check);
}

// The library's instance, whose output every TMA variant must match bit for bit.
template <class Tag>
int run_library(const char* name, Problem& p, void* flush, size_t flush_bytes) {
  GemmParams g;
  g.m = p.m, g.n = p.n, g.k = p.k, g.a = p.a, g.b = p.b, g.c = p.ref, g.lda = p.m, g.ldb = p.n, g.ldc = p.m;
  g.k_per_split = ceil_div(p.k, Tag::value.bk) * Tag::value.bk;
  CHECK(autogemm::detail::launch_simt_sgemm<Tag>(g, nullptr));
  CHECK(cudaDeviceSynchronize());
  const Timing t = time_it([&] { autogemm::detail::launch_simt_sgemm<Tag>(g, nullptr); }, flush, flush_bytes);
  CHECK(cudaGetLastError());
  constexpr KernelConfig C = Tag::value;
  report(name, p, t, "(reference for the bit-identity checks)",
         reinterpret_cast<const void*>(autogemm::detail::simt_sgemm_kernel<Tag>), C.threads(), C.shared_bytes());
  return 0;
}

// The output a kernel left in p.c and the library's in p.ref, on the host.
int fetch_outputs(const Problem& p, std::vector<float>& got, std::vector<float>& want) {
  const size_t count = size_t(p.m) * p.n;
  got.resize(count), want.resize(count);
  CHECK(cudaMemcpy(got.data(), p.c, sizeof(float) * count, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(want.data(), p.ref, sizeof(float) * count, cudaMemcpyDeviceToHost));
  return 0;
}

// How many of the outputs in p.c differ, bit for bit, from the library's in p.ref (-1 on a CUDA
// error), with the verdict written into `check`.
long compare_outputs(const Problem& p, char (&check)[96]) {
  std::vector<float> got, want;
  if (fetch_outputs(p, got, want)) return -1;
  long differ = 0;
  for (size_t i = 0; i < got.size(); ++i) differ += std::memcmp(&got[i], &want[i], sizeof(float)) != 0;
  std::snprintf(check, sizeof check, differ == 0 ? "bit-identical to the library" : "DIFFERS in %ld outputs", differ);
  return differ;
}

template <class Tag, int kLag>
int run_tma(const char* name, Problem& p, void* flush, size_t flush_bytes) {
  constexpr KernelConfig C = Tag::value;
  if (p.m % C.bm != 0 || p.n % C.bn != 0)
    return std::printf("  %-52s (skipped: the tile does not divide m x n)\n", name), 0;
  CUtensorMap map_a, map_b;
  if (make_map(&map_a, p.a, p.m, p.k, p.m, C.bm, C.bk) || make_map(&map_b, p.b, p.n, p.k, p.n, C.bn, C.bk)) return 1;
  constexpr size_t kSmem = tma_smem_bytes<Tag>();
  auto kernel = tma_sgemm<Tag, kLag>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)));
  const dim3 grid(ceil_div(p.m, C.bm) * ceil_div(p.n, C.bn)), block(C.threads() + copy_threads<Tag, kLag>());
  auto launch = [&] { kernel<<<grid, block, kSmem>>>(map_a, map_b, p.c, p.m, p.n, p.k, p.m); };
  CHECK(cudaMemset(p.c, 0xff, sizeof(float) * size_t(p.m) * p.n));  // NaN: an unwritten output shows
  launch();
  CHECK(cudaDeviceSynchronize());
  char check[96];
  const long differ = compare_outputs(p, check);
  if (differ < 0) return 1;
  const Timing t = time_it(launch, flush, flush_bytes);
  CHECK(cudaGetLastError());
  report(name, p, t, check, reinterpret_cast<const void*>(kernel), block.x, kSmem);
  return differ == 0 ? 0 : 1;
}

// The problem as the library's launches take it: `nt`, unsplit, alpha 1 and beta 0, leading
// dimensions the extents.
GemmParams library_params(const Problem& p) {
  GemmParams g;
  g.m = p.m, g.n = p.n, g.k = p.k, g.a = p.a, g.b = p.b, g.c = p.c, g.lda = p.m, g.ldb = p.n, g.ldc = p.m;
  g.k_per_split = p.k;
  return g;
}

// The library's TMA instance (Family::kTma Tag) on the same problem, launched (a) as the tuner and
// the library launch it (launch_simt_sgemm_tma: two tensor maps encoded per launch), or (b) its
// kernel with maps encoded once, as run_tma launches the twins. Also prints the host's time per
// launch call of (a) and per encode.
template <class Tag>
int run_library_tma(const char* name, Problem& p, void* flush, size_t flush_bytes) {
  constexpr KernelConfig C = Tag::value;
  static_assert(C.is_tma(), "a library TMA instance");
  GemmParams g = library_params(p);
  CUtensorMap map_a, map_b;
  if (make_map(&map_a, p.a, p.m, p.k, p.m, C.bm, C.bk) || make_map(&map_b, p.b, p.n, p.k, p.n, C.bn, C.bk)) return 1;
  static std::atomic<unsigned long long> configured[2]{};  // per form: bare, general
  const bool bare = autogemm::bare_epilogue_fits(C, g);
  // The form the library's launch picks for this problem (bare or general epilogue).
  auto kernel = bare ? autogemm::detail::simt_sgemm_tma_kernel<Tag, true>
                     : autogemm::detail::simt_sgemm_tma_kernel<Tag, false>;
  const int tiles = ceil_div(p.m, C.bm) * ceil_div(p.n, C.bn);
  auto launch_library = [&] { return autogemm::detail::launch_simt_sgemm_tma<Tag>(g, nullptr); };
  auto launch_encoded = [&] {
    return autogemm::detail::launch_gemm_kernel(kernel, C, tiles, g, configured[bare ? 0 : 1], nullptr, map_a, map_b, g);
  };
  int failures = 0;
  for (int form = 0; form < 2; ++form) {
    CHECK(cudaMemset(p.c, 0xff, sizeof(float) * size_t(p.m) * p.n));
    CHECK(form == 0 ? launch_library() : launch_encoded());
    CHECK(cudaDeviceSynchronize());
    char check[96];
    const long differ = compare_outputs(p, check);
    if (differ < 0) return 1;
    const Timing t = form == 0 ? time_it([&] { launch_library(); }, flush, flush_bytes)
                               : time_it([&] { launch_encoded(); }, flush, flush_bytes);
    CHECK(cudaGetLastError());
    char label[128];
    std::snprintf(label, sizeof label, "%s, %s", name, form == 0 ? "library launch" : "maps encoded once");
    report(label, p, t, check, reinterpret_cast<const void*>(kernel), C.threads(), C.shared_bytes());
    failures += differ != 0;
  }
  // Host time of one library launch call, queued behind a spin so that no call waits for the GPU.
  constexpr int kCalls = 20, kEncodes = 2000;
  spin_ns<<<1, 1>>>(200000000);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) launch_library();
  const auto t1 = std::chrono::steady_clock::now();
  CUtensorMap scratch;
  for (int i = 0; i < kEncodes; ++i) autogemm::detail::encode_x_major_tile_map(&scratch, p.a, p.m, p.k, p.m, C.bm, C.bk);
  const auto t2 = std::chrono::steady_clock::now();
  CHECK(cudaDeviceSynchronize());
  std::printf("  %-52s host: %.2f us per library launch call, %.3f us per encode\n", name,
              std::chrono::duration<double, std::micro>(t1 - t0).count() / kCalls,
              std::chrono::duration<double, std::micro>(t2 - t1).count() / kEncodes);
  return failures;
}

// Where the streamed tail's time goes (the reason of docs/decisions.md, A TMA launch's partial last
// wave streamed over every SM). The instance's bare form over every tile (no tail), the library's
// plan (whole waves, then the tail) with shares tapered from the first tail block to the last
// (StreamKTail::taper), and every tile streamed (no data-parallel grid); the tail's sums differ
// from the reference in order only, so the check prints the largest difference instead of bit
// identity.
template <class Tag>
int run_streamk_plans(const char* name, Problem& p, void* flush, size_t flush_bytes) {
  constexpr KernelConfig C = Tag::value;
  GemmParams g = library_params(p);
  if (!autogemm::bare_epilogue_fits(C, g)) return 0;
  CUtensorMap map_a, map_b;
  if (make_map(&map_a, p.a, p.m, p.k, p.m, C.bm, C.bk) || make_map(&map_b, p.b, p.n, p.k, p.n, C.bn, C.bk)) return 1;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int tiles = ceil_div(p.m, C.bm) * ceil_div(p.n, C.bn), k_tiles = ceil_div(p.k, C.bk);
  float* slots = nullptr;
  int* counters = nullptr;
  CHECK(cudaMalloc(&slots, sizeof(float) * size_t(sms) * C.bm * C.bn));
  CHECK(cudaMalloc(&counters, sizeof(int) * size_t(tiles)));
  CHECK(cudaMemset(counters, 0, sizeof(int) * size_t(tiles)));
  g.partials = slots, g.semaphores = counters;
  static std::atomic<unsigned long long> configured_dp{0}, configured_tail{0};
  struct Plan {
    const char* label;
    int first_tile;  // tiles before it run data-parallel; -1: none streamed
    int taper;       // StreamKTail::taper, in 256ths of a tile's steps
  };
  const int waves = tiles / sms * sms;
  const Plan plans[] = {{"no tail", -1, 0},           {"whole waves + tail", waves, 0},
                        {"whole waves + tail, taper 1/32", waves, 8}, {"whole waves + tail, taper 1/16", waves, 16},
                        {"whole waves + tail, taper 1/8", waves, 32}, {"whole waves + tail, taper 1/4", waves, 64},
                        {"every tile streamed", 0, 0}};
  for (const Plan& plan : plans) {
    if (plan.first_tile >= tiles) continue;
    autogemm::StreamKTail tail;
    if (plan.first_tile >= 0) {
      tail.first_tile = plan.first_tile, tail.tiles = tiles - plan.first_tile, tail.k_tiles = k_tiles;
      tail.blocks = sms;
      tail.taper = plan.taper * k_tiles / 256;
    }
    GemmParams q = g;
    q.after_previous_kernel = true;
    auto launch = [&] {
      if (tail.first_tile > 0 || plan.first_tile < 0)
        autogemm::detail::launch_gemm_kernel(autogemm::detail::simt_sgemm_tma_kernel<Tag, true>, C,
                                             plan.first_tile < 0 ? tiles : tail.first_tile, g, configured_dp,
                                             nullptr, map_a, map_b, g);
      if (plan.first_tile >= 0)
        autogemm::detail::launch_gemm_kernel(autogemm::detail::simt_sgemm_tma_streamk_kernel<Tag>, C, tail.blocks, q,
                                             configured_tail, nullptr, map_a, map_b, q, tail);
    };
    CHECK(cudaMemset(p.c, 0xff, sizeof(float) * size_t(p.m) * p.n));
    launch();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got, want;
    if (fetch_outputs(p, got, want)) return 1;
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, double(std::abs(got[i] - want[i])));
    char check[96], label[128];
    std::snprintf(check, sizeof check, "max |diff| %.2e", worst);
    std::snprintf(label, sizeof label, "%s, %s", name, plan.label);
    report(label, p, time_it(launch, flush, flush_bytes), check);
  }
  CHECK(cudaFree(slots));
  CHECK(cudaFree(counters));
  return 0;
}

int run_cublas(cublasHandle_t handle, Problem& p, void* flush, size_t flush_bytes) {
  const float alpha = 1.0f, beta = 0.0f;
  auto launch = [&] {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, p.m, p.n, p.k, &alpha, p.a, p.m, p.b, p.n, &beta, p.c, p.m);
  };
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> got, want;
  if (fetch_outputs(p, got, want)) return 1;
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(double(got[i]) - want[i]));
  char check[96];
  std::snprintf(check, sizeof check, "max |cuBLAS - library| %.2e", worst);
  report("cuBLAS SGEMM (pedantic FP32)", p, time_it(launch, flush, flush_bytes), check);
  return 0;
}

// The library's 4096^3 `nt` winner and its TMA twins: ConfigTag<BM, BN, BK, WM, WN, TM, TN, stages,
// min blocks per SM, ...>. (Any tile's outputs match the library's bit for bit: each accumulator
// sums its k-steps in order, whichever thread holds it.)
template <int BM, int BN, int BK, int S, int MinBlocks>
using Nt8x8 = ConfigTag<BM, BN, BK, 64, 32, 8, 8, S, MinBlocks, Op::N, Op::T, 4>;
template <int BM, int BN, int BK, int S, int MinBlocks>
using Nt8x16 = ConfigTag<BM, BN, BK, 64, 64, 8, 16, S, MinBlocks, Op::N, Op::T, 4>;
using Library = Nt8x8<128, 128, 32, 3, 1>;

template <int BM, int BN, int BK, int S>
using Tma8x16 = ConfigTag<BM, BN, BK, 64, 64, 8, 16, S, 1, Op::N, Op::T, 4, autogemm::Family::kTma>;

// Every variant on one problem; returns how many differ from the library. The twin is the form the
// library's TMA family takes; 128x128 tiles with a copy warp or thread 0 copying, BK 8 to 32, 4 to
// 12 stages, two blocks per SM and 16 + 1 warps are not run here. The library's TMA instances run
// beside the twin.
int run_variants(Problem& p, void* flush, size_t flush_bytes) {
  int failures = 0;
  failures += run_tma<Nt8x16<256, 128, 16, 4, 1>, -1>("twin 256x128x16 t8x16, 4 stages", p, flush, flush_bytes);
  failures += run_library_tma<Tma8x16<256, 128, 16, 4>>("library tma 256x128x16 s4", p, flush, flush_bytes);
  failures += run_library_tma<Tma8x16<128, 256, 16, 4>>("library tma 128x256x16 s4", p, flush, flush_bytes);
  failures += run_library_tma<Tma8x16<256, 128, 32, 3>>("library tma 256x128x32 s3", p, flush, flush_bytes);
  failures += run_streamk_plans<Tma8x16<128, 256, 16, 4>>("tma 128x256x16", p, flush, flush_bytes);
  failures += run_streamk_plans<Tma8x16<256, 128, 16, 4>>("tma 256x128x16", p, flush, flush_bytes);
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  // --hide-host: also time everything with the spin between flush and launch (the second timing).
  const bool hide_host_too = argc > 1 && std::strcmp(argv[1], "--hide-host") == 0;
  const size_t flush_bytes = l2_flush_bytes();
  if (flush_bytes == 0) return std::printf("cannot read the L2 size of device 0\n"), 1;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle));
  CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  int failures = 0;
  const int shapes[][3] = {{4096, 4096, 4096}, {4096, 4224, 4096}, {3072, 3072, 3072}, {4096, 11008, 4096}};
  for (int timing = 0; timing < (hide_host_too ? 2 : 1); ++timing) {
    g_hide_host = timing == 1;
    std::printf("\n== timing: %s\n", g_hide_host ? "memset flush, then 200 us of spin (host work hidden)"
                                                  : "memset flush (the benchmark's)");
    for (const auto& s : shapes) {
      Problem p{s[0], s[1], s[2]};
      CHECK(cudaMalloc(&p.a, sizeof(float) * size_t(p.m) * p.k));
      CHECK(cudaMalloc(&p.b, sizeof(float) * size_t(p.n) * p.k));
      CHECK(cudaMalloc(&p.c, sizeof(float) * size_t(p.m) * p.n));
      CHECK(cudaMalloc(&p.ref, sizeof(float) * size_t(p.m) * p.n));
      fill_uniform<<<1024, 256>>>(p.a, size_t(p.m) * p.k, 1u);
      fill_uniform<<<1024, 256>>>(p.b, size_t(p.n) * p.k, 2u);
      CHECK(cudaDeviceSynchronize());
      std::printf("\nnt, library m = %d, n = %d, k = %d (%d tiles of 128 x 128 over %d SMs)\n", p.m, p.n, p.k,
                  ceil_div(p.m, 128) * ceil_div(p.n, 128), prop.multiProcessorCount);
      if (run_library<Library>("library simt_sgemm_128x128x32_w64x32_t8x8_s3_b256x1_nt_align4", p, flush, flush_bytes))
        return 1;
      failures += run_variants(p, flush, flush_bytes);
      if (run_cublas(handle, p, flush, flush_bytes)) return 1;
      for (float* x : {p.a, p.b, p.c, p.ref}) CHECK(cudaFree(x));
    }
  }
  std::printf("\n%s\n", failures == 0 ? "all TMA variants bit-identical to the library" : "SOME VARIANT DIFFERS");
  return failures == 0 ? 0 : 1;
}
