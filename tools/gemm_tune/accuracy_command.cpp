// gemm-tune accuracy: the error of the FP32 arithmetics (cuBLAS and autogemm pedantic, 3xTF32, TF32)
// against float64, per kind of data and K, relative to Σ|a·b| (tuner/fp32_accuracy.hpp).
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "autogemm/autogemm.h"
#include "commands.hpp"
#include "tuning_db.hpp"  // now_iso8601
#include "family.hpp"  // kEmulatedSplitSum
#include "fp32_accuracy.hpp"
#include "registry.hpp"

namespace autogemm::cli {

Command add_accuracy_command(CLI::App& app) {
  struct Options {
    std::string ks = "256,1024,4096,16384,65536";
    std::string splits;
    int size = 256;
    uint64_t seed = 48;
    std::string json;
  };
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand(
      "accuracy",
      "Error of FP32 GEMMs against float64 on random, wide-exponent, near-limit and cancelling data: cuBLAS "
      "pedantic and TF32, autogemm pedantic, 3xTF32 and TF32; worst and median of |C - C64| / sum|a*b| per element");
  sub->add_option("--k", o->ks, "Comma-separated K values")->capture_default_str();
  sub->add_option("--splits", o->splits,
                  "Also run 3xTF32 in each of these comma-separated counts of parallel splits of its 3 K, whatever "
                  "the runtime's rules allow (rows autogemm_3xtf32_split, each on the first compiled 3xTF32 instance "
                  "that runs that split)");
  sub->add_option("--size", o->size, "M = N of every problem")->check(CLI::Range(1, 8192))->capture_default_str();
  sub->add_option("--seed", o->seed, "Seed of the data")->capture_default_str();
  sub->add_option("--json", o->json, "Also write the rows to this JSON file");
  return {sub, [o]() -> int {
    // A comma list of integers of at least `least`, named by its option in the error.
    auto parse_list = [](const std::string& text, const char* option, int least) {
      std::vector<int> values;
      std::stringstream list(text);
      for (std::string item; std::getline(list, item, ',');) {
        int v = 0;
        size_t used = 0;
        try {
          v = std::stoi(item, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != item.size() || v < least)
          throw UsageError(std::string(option) + " '" + item + "' is not an integer of at least " +
                           std::to_string(least));
        values.push_back(v);
      }
      return values;
    };
    const std::vector<int> ks = parse_list(o->ks, "--k", 2);
    const std::vector<int> splits = parse_list(o->splits, "--splits", 1);
    if (!require_gpu("accuracy")) return 1;
    try {
      std::printf("%-15s %6s  %-18s %6s %11s %11s  %s\n", "data", "k", "method", "splits", "worst", "median",
                  "kernel");
      const std::vector<AccuracyRow> rows = measure_accuracy(ks, o->size, o->seed, splits);
      nlohmann::json out = nlohmann::json::array();
      for (const AccuracyRow& r : rows) {
        std::printf("%-15s %6d  %-18s %6d %11.3e %11.3e  %s\n", r.data.c_str(), r.k, r.method.c_str(), r.splits,
                    r.result.worst, r.result.median, r.kernel.c_str());
        out.push_back({{"data", r.data},
                       {"k", r.k},
                       {"method", r.method},
                       {"kernel", r.kernel},
                       {"splits", r.splits},
                       {"worst", r.result.worst},
                       {"median", r.result.median}});
      }
      if (!o->json.empty()) {
        cudaDeviceProp p{};
        int device = 0;
        cudaGetDevice(&device);
        cudaGetDeviceProperties(&p, device);
        const std::string date = db::now_iso8601();
        const nlohmann::json doc = {
            {"format", "autogemm-accuracy"},
            {"format_version", 1},
            {"date", date},
            {"autogemm_version", autogemmGetVersion()},
            {"kernel_grid", kernel_grid_id()},
            {"device", p.name},
            {"size", o->size},
            {"method", "C (size x size) = A B in column-major nn; per element |C - C64| / sum_k |a_ik b_kj| with C64 and "
                       "the sum in float64; autogemm's arithmetics each on its first compiled instance of exactly that "
                       "arithmetic, in the fewest splits the runtime allows it (3xTF32 on an output of fewer tiles "
                       "than SMs: at most " + std::to_string(kEmulatedSplitSum) + " of its 3 K per split, or its "
                       "instance's most splits)"},
            {"rows", out}};
        write_json_file(o->json, doc);
      }
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gemm-tune accuracy: %s\n", e.what());
      return 1;
    }
  }};
}

}  // namespace autogemm::cli
