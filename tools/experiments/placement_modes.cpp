// Measurement 106 (docs/perf_notes.md): in call 106b, eight `gemm-tune bench` processes on one H100
// timed 4096^3 in one of two modes, ~18 us (0.7%) apart, for autogemm and cuBLAS alike and for every
// layout of the process: nn 2551-2552 or 2569-2570 us, nt 2500-2502 or 2519-2520. No repetition ran
// under a slowdown reason. What fixes the mode? A process holds two kinds of device buffers whose
// placement could: the problem's operands (ProblemData) and the cold-L2 flush buffer (L2Flusher).
// This tool allocates fresh ones in rounds, keeping the earlier ones allocated so that the new ones
// land elsewhere, and times the paired benchmark (time_interleaved, as gemm-tune bench) on
//   fresh data, fresh flusher | fresh data, first flusher | first data, fresh flusher
// so a mode that follows one kind of buffer shows in the column that changes it.
//
//   placement_modes [M N K [LAYOUT [ROUNDS]]]   (default 4096 4096 4096 nt 6; AUTOGEMM_DB as the library)
#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "autogemm/autogemm.h"
#include "check.hpp"
#include "experiment_check.hpp"
#include "paired_timing.hpp"
#include "problem_data.hpp"

using namespace autogemm;

int main(int argc, char** argv) {
  const ShapeArgs args = shape_args(argc, argv, 6);
  const int M = args.m, N = args.n, K = args.k, rounds = args.rounds;
  const std::string& layout = args.layout;
  Op op_a = Op::N, op_b = Op::N;
  require(parse_layout(layout, op_a, op_b), "LAYOUT (nn, nt, tn or tt)");
  const ColumnMajorProblem cp = to_column_major(Shape{M, N, K}, op_a, op_b);

  int device = 0;
  require(cudaGetDevice(&device) == cudaSuccess, "cudaGetDevice");
  cudaStream_t stream = nullptr;
  require(cudaStreamCreate(&stream) == cudaSuccess, "cudaStreamCreate");
  autogemmHandle_t handle = nullptr;
  require(autogemmCreate(&handle) == AUTOGEMM_STATUS_SUCCESS, "autogemmCreate");
  require(autogemmSetStream(handle, stream) == AUTOGEMM_STATUS_SUCCESS, "autogemmSetStream");
  cublasHandle_t cublas = nullptr;
  require(cublasCreate(&cublas) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  require(cublasSetMathMode(cublas, CUBLAS_PEDANTIC_MATH) == CUBLAS_STATUS_SUCCESS, "cublasSetMathMode");
  require(cublasSetStream(cublas, stream) == CUBLAS_STATUS_SUCCESS, "cublasSetStream");
  const ClockMonitor clocks(device);
  TimingOptions timing;
  timing.max_reps = 50;          // as gemm-tune bench
  timing.warmup_ms = kSettleMs;  // as gemm-tune bench
  const float alpha = 1.0f, beta = 0.0f;
  const autogemmOperation_t aa = op_a == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T;
  const autogemmOperation_t ab = op_b == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T;
  const cublasOperation_t ca = op_a == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t cb = op_b == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T;

  std::vector<std::unique_ptr<ProblemData>> data;
  std::vector<std::unique_ptr<L2Flusher>> flushers;
  // One paired timing of both libraries on `d`, flushed by `f`: autogemm's and cuBLAS's medians.
  auto time_pair = [&](const ProblemData& d, L2Flusher& f) {
    const GemmProblem p = d.gemm_problem();
    auto ours = [&](cudaStream_t) {
      require(autogemmSgemm(handle, aa, ab, p.m, p.n, p.k, &alpha, p.a, p.lda, p.b, p.ldb, &beta, p.c, p.ldc) ==
                AUTOGEMM_STATUS_SUCCESS,
            "autogemmSgemm");
    };
    auto theirs = [&](cudaStream_t) {
      require(cublasSgemm(cublas, ca, cb, p.m, p.n, p.k, &alpha, p.a, p.lda, p.b, p.ldb, &beta, p.c, p.ldc) ==
                CUBLAS_STATUS_SUCCESS,
            "cublasSgemm");
    };
    const PairedTiming t = time_interleaved(ours, theirs, stream, f, &clocks, timing);
    char text[96];
    std::snprintf(text, sizeof text, "%8.1f %8.1f (%d/%d slowed)", t.side[0].timing.median_us,
                  t.side[1].timing.median_us, t.side[0].slowed_reps, t.side[1].slowed_reps);
    return std::string(text);
  };

  std::printf("problem %dx%dx%d %s; medians autogemm, cuBLAS (us)\n", M, N, K, layout.c_str());
  std::printf("%-5s %-14s %-14s %-34s %-34s %-34s\n", "round", "A at", "flush at", "fresh data, fresh flusher",
              "fresh data, first flusher", "first data, fresh flusher");
  for (int r = 0; r < rounds; ++r) {
    data.push_back(std::make_unique<ProblemData>(cp, 7 + r));
    flushers.push_back(std::make_unique<L2Flusher>(device));
    ProblemData& fresh = *data.back();
    // Correct before timed: poisoned C, one call, the float64 reference.
    fresh.compute_reference(alpha, beta, stream);
    fill_nan(fresh.c(), static_cast<size_t>(cp.ldc) * cp.n, stream);
    const GemmProblem p = fresh.gemm_problem();
    require(autogemmSgemm(handle, aa, ab, p.m, p.n, p.k, &alpha, p.a, p.lda, p.b, p.ldb, &beta, p.c, p.ldc) ==
              AUTOGEMM_STATUS_SUCCESS,
          "autogemmSgemm");
    const double err = fresh.error(stream);
    require(err <= error_bound(cp.k), "the check against the float64 reference");
    const std::string both_fresh = time_pair(fresh, *flushers.back());
    const std::string data_fresh = time_pair(fresh, *flushers.front());
    const std::string flush_fresh = time_pair(*data.front(), *flushers.back());
    std::printf("%-5d %-14p %-14p %-34s %-34s %-34s\n", r, static_cast<void*>(fresh.a()), flushers.back()->buffer(),
                both_fresh.c_str(), data_fresh.c_str(), flush_fresh.c_str());
    std::fflush(stdout);
  }
  autogemmDestroy(handle);
  cublasDestroy(cublas);
  cudaStreamDestroy(stream);
  return 0;
}
