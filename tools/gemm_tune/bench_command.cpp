// gemm-tune bench: the library's current choice against cuBLAS, same process, same data, same method
// (cuBLAS SGEMM with pedantic FP32 math, never TF32; for BF16/FP16 cublasGemmEx with FP32 compute in
// default math): cold L2, warm-up, CUDA events, medians, each library's repetitions in blocks of its
// own (or interleaved, --timing) with a clock sample after each (paired_timing.hpp). Both results
// are checked against the float64 reference before their times count. For --math tf32 and
// fp32_emulated also the library's own pedantic FP32 choice (CUDA cores), paired with the
// tensor-core choice the same way: the side-by-side the math modes are judged by.
#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "autogemm/autogemm.h"
#include "check.hpp"
#include "nvml_device.hpp"
#include "commands.hpp"
#include "tuning_db.hpp"  // now_iso8601
#include "cublas_sgemm.hpp"
#include "cublaslt_best.hpp"
#include "context.hpp"
#include "problem_data.hpp"
#include "paired_timing.hpp"
#include "problem_selection.hpp"
#include "provenance.hpp"
#include "realigned.hpp"
#include "registry.hpp"
#include "timing.hpp"
#include "validate.hpp"

namespace autogemm::cli {
namespace {

/// The device, its driver and its clocks as found before the first timing (NVML's fields are null
/// where it cannot be read).
nlohmann::json device_info(int device, const NvmlDevice& monitor) {
  const DeviceState st = monitor.state();
  nlohmann::json nvml = nullptr;
  if (st.valid)
    nvml = {{"driver_version", st.driver_version}, {"sm_mhz", st.sm_mhz}, {"max_sm_mhz", st.max_sm_mhz},
            {"mem_mhz", st.mem_mhz}, {"power_limit_w", st.power_limit_mw / 1000.0}, {"temperature_c", st.temperature_c}};
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, device);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  return {{"name", p.name},
          {"uuid", gpu_uuid_string(p.uuid)},
          {"compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
          {"sm_count", p.multiProcessorCount},
          {"l2_bytes", p.l2CacheSize},
          {"memory_bytes", p.totalGlobalMem},
          {"cuda_driver_api", driver},
          {"cuda_runtime", runtime},
          {"nvml", nvml}};
}

/// A library's side of a paired timing, for the JSON: its statistics, then each repetition's time,
/// SM clock, board power and clock-event reasons (NVML's bits; zeros where unread).
nlohmann::json side_json(const PairedSide& s, double rel_err) {
  nlohmann::json reps_mhz = nlohmann::json::array(), reps_power = nlohmann::json::array(),
                 reps_reasons = nlohmann::json::array();
  std::uint64_t seen = 0;
  for (const ClockSample& c : s.clocks) {
    reps_mhz.push_back(c.sm_mhz);
    reps_power.push_back(c.power_mw / 1000.0);
    reps_reasons.push_back(c.reasons);
    seen |= c.reasons;
  }
  return {{"median_us", s.timing.median_us}, {"min_us", s.timing.min_us},     {"max_us", s.timing.max_us},
          {"reps", s.timing.reps},           {"rel_err", rel_err},            {"slowed_reps", s.slowed_reps},
          {"slowdown_reasons", slowdown_reason_names(seen)},
          {"unslowed_median_us", s.unslowed_median_us}, {"sm_mhz_min", s.sm_mhz_min}, {"sm_mhz_max", s.sm_mhz_max},
          {"reps_us", s.us},                 {"reps_sm_mhz", reps_mhz},       {"reps_power_w", reps_power},
          {"reps_reasons", reps_reasons}};
}

/// --timing blocks: four blocks a side, each settled on its own launches for kOwnSettleMs
/// (time_in_blocks, paired_timing.hpp).
constexpr int kBlocksPerSide = 4;

/// A paired timing, interleaved or in blocks, timed once more where it was disturbed (disturbed(),
/// paired_timing.hpp); `timings` counts the two timings' runs, for the JSON.
PairedTiming time_pair(const std::function<void(cudaStream_t)>& first, const std::function<void(cudaStream_t)>& second,
                       cudaStream_t stream, L2Flusher& flusher, const NvmlDevice& clocks, const TimingOptions& timing,
                       bool blocks, int& timings) {
  auto once = [&] {
    return blocks ? time_in_blocks(first, second, stream, flusher, &clocks, timing, kOwnSettleMs, kBlocksPerSide)
                  : time_interleaved(first, second, stream, flusher, &clocks, timing);
  };
  PairedTiming t = once();
  timings = 1;
  if (disturbed(t)) {
    t = once();
    timings = 2;
  }
  return t;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "bench", "Time autogemm's current choice against cuBLAS (SGEMM in pedantic FP32, also for --math "
      "fp32_emulated; cublasGemmEx with FAST_TF32 for --math tf32, and for bf16/f16)");
  struct Opts {
    ProblemSelection select;
    std::string json;
    int max_reps = 50;
    int cublaslt = 8;
    std::string timing = "blocks";
  };
  auto o = std::make_shared<Opts>();
  sub->add_option("--set", o->select.set, "Named shape set: " + shape_set_list() + " (default: seed)");
  sub->add_option("--shape", o->select.shapes, "Row-major M,N,K (repeatable)");
  sub->add_option("--range", o->select.ranges, "Sweep such as M=1..4096,N=3072,K=3072 (powers of two; repeatable)");
  sub->add_option("--layout", o->select.layouts, "Ops of the column-major call: nn, nt, tn, tt, a comma list, or all")
      ->capture_default_str();
  sub->add_option("--shapes", o->select.shapes_file,
                  "File of shapes (as gemm-tune tune --shapes; a CSV of column-major problems keeps its own layouts)");
  add_dtype_options(*sub, o->select);
  sub->add_option("--json", o->json, "Also write the results and provenance to this JSON file");
  sub->add_option("--max-reps", o->max_reps, "Timed repetitions at most per measurement")->capture_default_str();
  sub->add_option("--cublaslt", o->cublaslt,
                  "BF16/FP16 and --math tf32|fp32_emulated: also time cuBLASLt's top N heuristic algorithms and report "
                  "the fastest (0: off)")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  const std::string blocks_text = std::to_string(kBlocksPerSide) + " blocks of each (" +
                                  std::to_string(static_cast<int>(kOwnSettleMs)) + " ms of its own untimed launches";
  sub->add_option("--timing", o->timing,
                  "How each pair is timed: blocks, " + blocks_text +
                      " first): neither library's power draw sets the other's clock; or interleaved (one "
                      "repetition of each in turn)")
      ->check(CLI::IsMember({"interleaved", "blocks"}))
      ->capture_default_str();
  sub->footer(
      "Method: each result checked against a float64 reference first; then " +
      std::to_string(static_cast<int>(kBenchSettleMs)) + " ms of both libraries, then\n" + blocks_text +
      ", then timed launches, L2 flushed before each;\n"
      "order autogemm, cuBLAS, cuBLAS, autogemm, ...) or, with --timing interleaved, rounds of one untimed and\n"
      "one timed launch of each; medians; NVML's SM clock, power and throttle reasons after each timed launch ('slowed' column:\n"
      "autogemm's / cuBLAS's repetitions under a slowdown reason). BF16/FP16, TF32, 3xTF32: then cuBLASLt's top --cublaslt\n"
      "heuristic algorithms, each checked and timed alone (cold L2, medians); the fastest is then timed\n"
      "paired with autogemm as cuBLAS is, and 'lt_us' is its median there.\n"
      "TF32, 3xTF32: then the library's pedantic FP32 choice paired with the mode's choice, as above;\n"
      "'vs_fp32' is its median over the mode's (above 1: the mode is faster than autogemm's FP32).\n"
      "JSON fields: docs/tuner.md, 'The benchmark'.");
  return {sub, [o]() -> int {
    ProblemSelection& sel = o->select;
    if (sel.set.empty() && sel.shapes.empty() && sel.ranges.empty() && sel.shapes_file.empty()) sel.set = "seed";
    // Each problem with the label the user knows it by.
    std::vector<LabelledProblem> problems;
    try {
      problems = collect_problems(sel);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gemm-tune bench: %s\n", e.what());
      return kUsageExit;
    }
    if (!require_gpu("bench")) return 1;

    try {
      int device = 0;
      cudaGetDevice(&device);
      autogemmHandle_t handle = nullptr;
      if (autogemmCreate(&handle) != AUTOGEMM_STATUS_SUCCESS) throw std::runtime_error(autogemmGetLastErrorMessage());
      cudaStream_t stream = nullptr;
      cudaStreamCreate(&stream);
      autogemmSetStream(handle, stream);
      const CublasGemm cublas(stream);
      L2Flusher flusher(device);
      const NvmlDevice clocks(device);
      const nlohmann::json device_json = device_info(device, clocks);  // clocks as found, before any timing
      if (!clocks.available())
        std::fprintf(stderr, "gemm-tune bench: no clock samples (%s)\n", clocks.unavailable_reason().c_str());
      TimingOptions timing;
      timing.max_reps = o->max_reps;
      // The timing starts after kBenchSettleMs of both libraries' launches, past the power cap's
      // transient that follows the float64 reference and the checks (the clock's dip about a second
      // into sustained launches); in blocks in the order 0 1 1 0 ... (or interleaved), a drift that
      // remains falls on both libraries alike.
      timing.warmup_ms = kBenchSettleMs;
      const bool blocks = o->timing == "blocks";

      nlohmann::json results = nlohmann::json::array();
      std::printf("%-18s %-4s %-56s %-6s %6s %10s %7s %10s %7s %7s %9s %7s %8s %7s\n", "shape(MxNxK)", "lay",
                  "autogemm kernel", "repack", "split", "ag_us", "TFLOP/s", "cublas_us", "TFLOP/s", "speedup", "rel_err",
                  "slowed", "lt_us", "vs_fp32");
      int failures = 0;
      for (size_t i = 0; i < problems.size(); ++i) {
        const ColumnMajorProblem& p = problems[i].problem;
        const Op op_a = p.op_a, op_b = p.op_b;
        const std::string layout = layout_code(op_a, op_b);
        ProblemData data(p, 7 + i);
        const float alpha = 1.0f, beta = 0.0f;
        data.compute_reference(alpha, beta, stream);
        const autogemmOperation_t aa = op_a == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T;
        const autogemmOperation_t ab = op_b == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T;

        // The library's call of this problem in an arithmetic (the problem's own, or pedantic FP32 beside it).
        auto gemm_in = [&](autogemmComputeType_t compute) {
          if (autogemmGemmEx(handle, aa, ab, p.m, p.n, p.k, &alpha, data.a(), cuda_data_type(p.types.a), p.lda,
                             data.b(), cuda_data_type(p.types.b), p.ldb, &beta, data.c(), cuda_data_type(p.types.c),
                             p.ldc, compute) != AUTOGEMM_STATUS_SUCCESS)
            throw std::runtime_error(autogemmGetLastErrorMessage());
        };
        auto run_autogemm = [&](cudaStream_t) { gemm_in(compute_type_of(p.types)); };
        auto run_cublas = [&](cudaStream_t) {
          cublas(p, alpha, data.a(), data.b(), beta, data.c());
        };
        // Correctness before timing: poison C, run once, compare with the float64 reference.
        fill_nan(data.c(), static_cast<size_t>(p.ldc) * p.n, stream, p.types.c);
        run_autogemm(stream);
        const double err_ag = data.error(stream);
        fill_nan(data.c(), static_cast<size_t>(p.ldc) * p.n, stream, p.types.c);
        run_cublas(stream);
        const double err_cb = data.error(stream);
        const bool ok = err_ag <= error_bound(p.k, p.types);
        if (!ok) ++failures;

        // The choice as the call made it: for a BF16/FP16 problem TMA cannot take as it is, the padded
        // problem on aligned copies (realigned.hpp).
        const GemmProblem gp = data.gemm_problem();
        const bool realigned = runs_on_copies(gp);
        const GemmProblem chosen = chosen_problem(gp);
        const KernelChoice choice = handle->choose(chosen);

        int timings = 0;
        const PairedTiming paired =
            time_pair(run_autogemm, run_cublas, stream, flusher, clocks, timing, blocks, timings);
        const TimingResult& t_ag = paired.side[0].timing;
        const TimingResult& t_cb = paired.side[1].timing;
        // Repetitions run under a slowdown reason, autogemm's and cuBLAS's ("-" without samples).
        const std::string slowed = clocks.available() ? std::to_string(paired.side[0].slowed_reps) + "/" +
                                                            std::to_string(paired.side[1].slowed_reps)
                                                      : "-";
        // cuBLASLt's fastest of its top heuristic algorithms that pass the same check: picked by short
        // timings of each alone, then paired with autogemm as cuBLAS is. Timed alone after the pair,
        // 4096^3 BF16 tn ran 180.0 us on the H200 where the pair's 2000 ms warm-up had settled both
        // libraries under the power cap (199.7 in blocks, cublasGemmEx 199.4): a short burst meets
        // the GPU in another power state.
        nlohmann::json lt_json = nullptr;
        std::string lt_text = "-";
        if (o->cublaslt > 0 && p.types != kF32Types) {
          const CublasLtCandidates candidates(p, o->cublaslt);
          // Fewer repetitions than the paired timing: up to 8 algorithms per problem.
          TimingOptions lt_timing;
          lt_timing.min_reps = 10;
          lt_timing.max_reps = std::min(o->max_reps, 30);
          lt_timing.budget_ms = 50;
          const CublasLtBest lt =
              time_cublaslt_best(candidates, alpha, data.a(), data.b(), beta, data.c(), stream, flusher, lt_timing,
                                 [&] { fill_nan(data.c(), static_cast<size_t>(p.ldc) * p.n, stream, p.types.c); },
                                 [&] { return data.error(stream) <= error_bound(p.k, p.types); });
          lt_json = {{"algorithms_tried", lt.candidates}, {"best_algorithm", lt.algorithm}};
          if (lt.algorithm >= 0) {
            lt_json["alone_median_us"] = lt.timing.median_us;
            auto run_lt = [&](cudaStream_t s) {
              check_cublas(candidates.run(lt.algorithm, alpha, data.a(), data.b(), beta, data.c(), s), "cublasLtMatmul");
            };
            int lt_timings = 0;
            const PairedTiming lt_pair =
                time_pair(run_autogemm, run_lt, stream, flusher, clocks, timing, blocks, lt_timings);
            const TimingResult& t_lt = lt_pair.side[1].timing;
            lt_json["median_us"] = t_lt.median_us, lt_json["min_us"] = t_lt.min_us;
            lt_json["max_us"] = t_lt.max_us, lt_json["reps"] = t_lt.reps, lt_json["timings"] = lt_timings;
            lt_json["autogemm_median_us"] = lt_pair.side[0].timing.median_us;
            lt_json["speedup"] = t_lt.median_us / lt_pair.side[0].timing.median_us;
            lt_json["slowed_reps"] = {lt_pair.side[0].slowed_reps, lt_pair.side[1].slowed_reps};
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.1f", t_lt.median_us);
            lt_text = buf;
          }
        }
        const double flops = 2.0 * p.m * p.n * static_cast<double>(p.k);
        // The library's pedantic FP32 choice on the same data, paired with the mode's choice. A
        // build without a CUDA-core kernel for the problem (a filtered grid) leaves it out, saying why.
        nlohmann::json fp32_json = nullptr;
        std::string fp32_text = "-";
        bool fp32_ok = true;
        if (p.types.a == DataType::kF32 && p.types.compute != ComputeType::kF32) {
          auto run_pedantic = [&](cudaStream_t) { gemm_in(AUTOGEMM_COMPUTE_32F_PEDANTIC); };
          try {
            fill_nan(data.c(), static_cast<size_t>(p.ldc) * p.n, stream, p.types.c);
            run_pedantic(stream);
            const double err_fp32 = data.error(stream);
            GemmProblem pedantic = chosen;
            pedantic.types = kF32Types;
            const KernelChoice fp32_choice = handle->choose(pedantic);
            fp32_ok = err_fp32 <= error_bound(p.k, kF32Types);
            if (!fp32_ok) ++failures;
            int side_timings = 0;
            const PairedTiming side =
                time_pair(run_autogemm, run_pedantic, stream, flusher, clocks, timing, blocks, side_timings);
            fp32_json = side_json(side.side[1], err_fp32);
            fp32_json["timings"] = side_timings;
            fp32_json["kernel"] = fp32_choice.kernel->name;
            fp32_json["splits"] = fp32_choice.split.splits;
            fp32_json["source"] = fp32_choice.source;
            fp32_json["check_passed"] = fp32_ok;
            fp32_json["mode_median_us"] = side.side[0].timing.median_us;
            fp32_json["speedup"] = nullptr;  // a time that failed its check does not count
            if (fp32_ok) {
              const double vs = side.side[1].timing.median_us / side.side[0].timing.median_us;
              fp32_json["speedup"] = vs;
              char buf[32];
              std::snprintf(buf, sizeof buf, "%.3f", vs);
              fp32_text = buf;
            }
          } catch (const std::exception& e) {
            fp32_json = {{"error", e.what()}};
          }
        }
        const std::string split = split_label(choice.split);
        const char* repacked = realigned ? "padded" : repacked_operands(repack_plan(choice.kernel->config, gp));
        std::printf("%-18s %-4s %-56s %-6s %6s %10.1f %7.2f %10.1f %7.2f %7.3f %9.2e %7s %8s %7s%s\n",
                    problems[i].label.c_str(), layout.c_str(), std::string(choice.kernel->name).c_str(), repacked,
                    split.c_str(), t_ag.median_us, flops / t_ag.median_us / 1e6, t_cb.median_us,
                    flops / t_cb.median_us / 1e6, t_cb.median_us / t_ag.median_us, err_ag, slowed.c_str(),
                    lt_text.c_str(), fp32_text.c_str(), ok ? (fp32_ok ? "" : "  FAIL(fp32)") : "  FAIL");
        // Row-major M, N, K of the column-major call (M = n, N = m), as the seed shapes are given.
        results.push_back({{"shape", {{"m", p.n}, {"n", p.m}, {"k", p.k}}},
                           {"label", problems[i].label},
                           {"layout", layout},
                           {"types", types_key(p.types)},
                           {"kernel", choice.kernel->name},
                           {"splits", choice.split.splits},
                           {"split_mode", split_mode_name(choice.split.mode)},
                           {"repacked", repacked},
                           {"source", choice.source},
                           {"autogemm", side_json(paired.side[0], err_ag)},
                           {"cublas", side_json(paired.side[1], err_cb)},
                           {"speedup", t_cb.median_us / t_ag.median_us},
                           {"speedup_paired", paired.paired_ratio},
                           {"timings", timings},
                           {"disturbed", disturbed(paired)},
                           {"cublaslt", lt_json},
                           {"autogemm_fp32", fp32_json},
                           {"check_passed", ok}});
      }
      if (!o->json.empty()) {
        const std::string date = db::now_iso8601();
        nlohmann::json doc = {{"format", "autogemm-bench"},
                              {"format_version", 1},
                              {"date", date},
                              {"autogemm_version", autogemmGetVersion()},
                              {"kernel_grid", kernel_grid_id()},
                              {"kernels_compiled", kernel_registry().size()},
                              {"device", device_json},
                              {"method", std::string("cold L2 (") + flusher.method() + " before each rep), warm-up 3 runs each and " +
                                         std::to_string(static_cast<int>(kBenchSettleMs)) + " ms of runs of both, CUDA events, " +
                                         (blocks ? "each library's reps in " + std::to_string(kBlocksPerSide) +
                                                       " blocks of its own (order 0 1 1 0 ...), each after " +
                                                       std::to_string(static_cast<int>(kOwnSettleMs)) +
                                                       " ms of its own untimed runs, median; "
                                                 : std::string("the two libraries' reps interleaved (alternating "
                                                               "which goes first), median; ")) +
                                         "a pair either of whose medians is more than 1.25x its fastest rep timed once more "
                                         "(timings 2; disturbed: the second timing was so too); "
                                         "cuBLAS SGEMM with CUBLAS_PEDANTIC_MATH (FP32, and the yardstick of 3xTF32), "
                                         "cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 (TF32) or CUBLAS_COMPUTE_32F "
                                         "in default math (BF16, FP16), in the same process; "
                                         "for all but pedantic FP32 also cuBLASLt's top heuristic algorithms (32 MiB workspace), "
                                         "each checked and timed alone, the fastest then paired with autogemm's "
                                         "choice as cuBLAS is (its median_us and speedup from that pair); "
                                         "for TF32 and 3xTF32 also autogemm's pedantic FP32 choice, checked, "
                                         "paired with the mode's choice as cuBLAS is"},
                              {"clock_samples", clocks.available() ? "NVML after each rep" : clocks.unavailable_reason()},
                              {"results", results}};
        write_json_file(o->json, doc);
      }
      autogemmDestroy(handle);
      cudaStreamDestroy(stream);
      return failures == 0 ? 0 : 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gemm-tune bench: %s\n", e.what());
      return 1;
    }
  }};
}

}  // namespace autogemm::cli
