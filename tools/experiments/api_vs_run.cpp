// Measures what makes `gemm-tune bench` time 4096^3 `nt` 0.7-1.5% slower than the tuner, on the same
// kernel and launch plan (the reason of docs/decisions.md, Medians after a settle). The two
// differ in three things: the benchmark calls autogemmSgemm (the handle's choice, its workspace)
// where the tuner calls run() with its own workspace; the benchmark's stream is a blocking one
// (cudaStreamCreate) where the tuner's is non-blocking; and their random data come from different
// seeds. This tool times each combination in one process, interleaved over rounds, with the
// benchmark's timing (time_on_gpu: memset flush of twice L2, 3 warm-ups, CUDA events, median), cuBLAS
// (pedantic) beside each.
//
//   api_vs_run [M N K [LAYOUT [ROUNDS [reference [SETTLE_MS]]]]]
//     row-major shape as the shape sets give it (default 4096 4096 4096 nt 3); uses the tuning
//     database the library would (AUTOGEMM_DB). With `reference`, each timing follows the float64
//     reference of the problem, as the benchmark's first timing of a problem does; with SETTLE_MS,
//     the timed launches then run untimed (flush and launch, as timed) for that long first.
#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "autogemm/autogemm.h"
#include "context.hpp"
#include "experiment_check.hpp"
#include "operation.hpp"
#include "problem_data.hpp"
#include "timing.hpp"
#include "workspace.hpp"

using namespace autogemm;

int main(int argc, char** argv) {
  const ShapeArgs args = shape_args(argc, argv, 3);
  const int M = args.m, N = args.n, K = args.k, rounds = args.rounds;
  const std::string& layout = args.layout;
  const bool after_reference = argc > 6 && std::string(argv[6]) == "reference";
  const double settle_ms = argc > 7 ? std::atof(argv[7]) : 0.0;
  require(layout.size() == 2, "LAYOUT (two of n, t)");
  const Op op_a = layout[0] == 't' ? Op::T : Op::N, op_b = layout[1] == 't' ? Op::T : Op::N;
  const ColumnMajorProblem cp = to_column_major(Shape{M, N, K}, op_a, op_b);

  int device = 0;
  require(cudaGetDevice(&device) == cudaSuccess, "cudaGetDevice");
  cudaStream_t blocking = nullptr, non_blocking = nullptr;
  require(cudaStreamCreate(&blocking) == cudaSuccess, "cudaStreamCreate");
  require(cudaStreamCreateWithFlags(&non_blocking, cudaStreamNonBlocking) == cudaSuccess, "cudaStreamCreateWithFlags");
  autogemmHandle_t handle = nullptr;
  require(autogemmCreate(&handle) == AUTOGEMM_STATUS_SUCCESS, "autogemmCreate");
  cublasHandle_t cublas = nullptr;
  require(cublasCreate(&cublas) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  require(cublasSetMathMode(cublas, CUBLAS_PEDANTIC_MATH) == CUBLAS_STATUS_SUCCESS, "cublasSetMathMode");
  L2Flusher flusher(device);
  TimingOptions timing;
  timing.max_reps = 50;  // as gemm-tune bench's default

  // The benchmark's seed for its first problem, and the tuner's for this problem.
  ProblemData bench_data(cp, 7);
  ProblemData tuner_data(cp, 0x5eed + cp.m * 31 + cp.n * 17 + cp.k);
  const float alpha = 1.0f, beta = 0.0f;
  bench_data.compute_reference(alpha, beta, blocking);
  const autogemmOperation_t aa = op_a == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T;
  const autogemmOperation_t ab = op_b == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T;

  const KernelChoice choice = handle->choose(bench_data.gemm_problem());
  std::printf("problem %dx%dx%d %s (column-major m=%d n=%d k=%d): %s, %d split(s), source %s\n", M, N, K,
              layout.c_str(), cp.m, cp.n, cp.k, std::string(choice.kernel->name).c_str(), choice.split.splits,
              choice.source);
  GrowingWorkspace own;  // the tuner's kind of workspace, grown to this launch's needs

  struct Variant {
    const char* name;
    bool api;
    cudaStream_t stream;
    ProblemData* data;
  };
  const Variant variants[] = {
      {"api  blocking     bench-data", true, blocking, &bench_data},
      {"api  non-blocking bench-data", true, non_blocking, &bench_data},
      {"run  non-blocking bench-data", false, non_blocking, &bench_data},
      {"run  blocking     bench-data", false, blocking, &bench_data},
      {"run  non-blocking tuner-data", false, non_blocking, &tuner_data},
      {"api  blocking     tuner-data", true, blocking, &tuner_data},
  };
  std::map<std::string, std::vector<double>> ours, theirs;
  for (int r = 0; r < rounds; ++r)
    for (const Variant& v : variants) {
      const GemmProblem p = v.data->gemm_problem();
      auto run_ours = [&](cudaStream_t s) {
        if (v.api) {
          require(autogemmSetStream(handle, s) == AUTOGEMM_STATUS_SUCCESS, "autogemmSetStream");
          require(autogemmSgemm(handle, aa, ab, p.m, p.n, p.k, &alpha, p.a, p.lda, p.b, p.ldb, &beta, p.c, p.ldc) ==
                    AUTOGEMM_STATUS_SUCCESS,
                "autogemmSgemm");
        } else {
          const Workspace ws = own.get(workspace_size(*choice.kernel, p, choice.split), s);
          require(run(*choice.kernel, p, choice.split, ws, s) == cudaSuccess, "run");
        }
      };
      auto run_cublas = [&](cudaStream_t s) {
        require(cublasSetStream(cublas, s) == CUBLAS_STATUS_SUCCESS, "cublasSetStream");
        require(cublasSgemm(cublas, op_a == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T, op_b == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T,
                          p.m, p.n, p.k, &alpha, p.a, p.lda, p.b, p.ldb, &beta, p.c, p.ldc) == CUBLAS_STATUS_SUCCESS,
              "cublasSgemm");
      };
      if (after_reference) {
        v.data->compute_reference(alpha, beta, v.stream);
        require(cudaStreamSynchronize(v.stream) == cudaSuccess, "the reference");
      }
      run_untimed_for(run_ours, v.stream, flusher, settle_ms);
      ours[v.name].push_back(time_on_gpu(run_ours, v.stream, flusher, timing).median_us);
      theirs[v.name].push_back(time_on_gpu(run_cublas, v.stream, flusher, timing).median_us);
    }
  std::printf("%-30s %-40s %-40s\n", "variant", "autogemm median per round (us)", "cuBLAS median per round (us)");
  for (const Variant& v : variants) {
    std::string a, b;
    char buf[32];
    for (double t : ours[v.name]) std::snprintf(buf, sizeof buf, "%8.1f", t), a += buf;
    for (double t : theirs[v.name]) std::snprintf(buf, sizeof buf, "%8.1f", t), b += buf;
    std::printf("%-30s %-40s %-40s\n", v.name, a.c_str(), b.c_str());
  }
  // The result the timings stand for, checked once more after them.
  const GemmProblem p = bench_data.gemm_problem();
  require(autogemmSetStream(handle, blocking) == AUTOGEMM_STATUS_SUCCESS, "autogemmSetStream");
  require(autogemmSgemm(handle, aa, ab, p.m, p.n, p.k, &alpha, p.a, p.lda, p.b, p.ldb, &beta, p.c, p.ldc) ==
            AUTOGEMM_STATUS_SUCCESS,
        "autogemmSgemm");
  std::printf("autogemm's relative error against float64: %.2e\n", bench_data.error(blocking));
  autogemmDestroy(handle);
  cublasDestroy(cublas);
  return 0;
}
