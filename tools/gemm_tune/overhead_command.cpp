// gemm-tune overhead: host time per call of a tiny GEMM in steady state, autogemm against cuBLAS
// (cublasSgemm; cublasGemmEx for --dtype bf16|f16) on the same stream pattern. Each library enqueues `calls` GEMMs back to back; the
// host time of the enqueue loop over the call count is the per-call overhead (the GPU runs behind).
// Five rounds, alternating libraries; medians reported.
#include <cublas_v2.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "autogemm/autogemm.h"
#include "commands.hpp"
#include "cublas_sgemm.hpp"
#include "problem_data.hpp"
#include "problem_selection.hpp"
#include "timing.hpp"

namespace autogemm::cli {

Command add_overhead_command(CLI::App& app) {
  auto* sub = app.add_subcommand("overhead", "Host time per call of a tiny GEMM: autogemm against cublasSgemm");
  struct Opts {
    std::string shape = "64,64,64", json;
    int calls = 20000;
    ProblemSelection select;  // its types only
  };
  auto o = std::make_shared<Opts>();
  sub->add_option("--shape", o->shape, "Row-major M,N,K")->capture_default_str();
  add_dtype_options(*sub, o->select);
  sub->add_option("--calls", o->calls, "Calls per round")->capture_default_str()->check(positive_number());
  sub->add_option("--json", o->json, "Also write the results to this JSON file");
  return {sub, [o]() -> int {
    const auto shape = parse_shape(o->shape);
    if (!shape) {
      std::fprintf(stderr, "gemm-tune overhead: --shape '%s' is not M,N,K with positive integers\n", o->shape.c_str());
      return kUsageExit;
    }
    GemmTypes types;
    try {
      types = selected_types(o->select);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gemm-tune overhead: %s\n", e.what());
      return kUsageExit;
    }
    if (!require_gpu("overhead")) return 1;
    try {
      ColumnMajorProblem p = to_column_major(*shape, Op::N, Op::N);
      p.types = types;
      ProblemData data(p, 3);
      cudaStream_t stream;
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      autogemmHandle_t handle = nullptr;
      if (autogemmCreate(&handle) != AUTOGEMM_STATUS_SUCCESS) throw std::runtime_error(autogemmGetLastErrorMessage());
      autogemmSetStream(handle, stream);
      const CublasGemm cublas(stream);
      const float alpha = 1.0f, beta = 0.0f;
      auto ag = [&] {
        return autogemmGemmEx(handle, AUTOGEMM_OP_N, AUTOGEMM_OP_N, p.m, p.n, p.k, &alpha, data.a(),
                              cuda_data_type(types.a), p.lda, data.b(), cuda_data_type(types.b), p.ldb, &beta,
                              data.c(), cuda_data_type(types.c), p.ldc, AUTOGEMM_COMPUTE_32F) == AUTOGEMM_STATUS_SUCCESS;
      };
      auto cb = [&] {
        return cublas.run(p, alpha, data.a(), data.b(), beta, data.c()) == CUBLAS_STATUS_SUCCESS;
      };
      // Per call: host enqueue time, and wall time until the stream drained.
      auto round = [&](auto&& call, double& host_us, double& wall_us) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < o->calls; ++i)
          if (!call()) throw std::runtime_error("a call failed during the overhead run");
        const auto t1 = std::chrono::steady_clock::now();
        cudaStreamSynchronize(stream);
        const auto t2 = std::chrono::steady_clock::now();
        host_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / o->calls;
        wall_us = std::chrono::duration<double, std::micro>(t2 - t0).count() / o->calls;
      };
      for (int i = 0; i < 200; ++i) ag(), cb();  // warm-up: choice cached, cuBLAS heuristics loaded
      cudaStreamSynchronize(stream);
      std::vector<double> ag_host, ag_wall, cb_host, cb_wall;
      for (int r = 0; r < 5; ++r) {
        double h, w;
        round(ag, h, w), ag_host.push_back(h), ag_wall.push_back(w);
        round(cb, h, w), cb_host.push_back(h), cb_wall.push_back(w);
      }
      std::printf("shape %s, types %s, %d calls per round, 5 rounds, medians\n", to_string(*shape).c_str(),
                  types_key(types).c_str(), o->calls);
      std::printf("%-10s %14s %14s\n", "library", "host us/call", "wall us/call");
      std::printf("%-10s %14.3f %14.3f\n", "autogemm", median(ag_host), median(ag_wall));
      std::printf("%-10s %14.3f %14.3f\n", "cuBLAS", median(cb_host), median(cb_wall));
      if (!o->json.empty()) {
        write_json_file(
            o->json,
            nlohmann::json{{"shape", to_string(*shape)},
                           {"calls_per_round", o->calls},
                           {"rounds", 5},
                           {"autogemm", {{"host_us_per_call", median(ag_host)}, {"wall_us_per_call", median(ag_wall)}}},
                           {"cublas", {{"host_us_per_call", median(cb_host)}, {"wall_us_per_call", median(cb_wall)}}}});
      }
      autogemmDestroy(handle);
      cudaStreamDestroy(stream);
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gemm-tune overhead: %s\n", e.what());
      return 1;
    }
  }};
}

}  // namespace autogemm::cli
