// model_check: how well the cost model ranks what a tuning table measured, on any machine (no GPU).
// For every problem of the table it prices each measured candidate the way the untuned choice does
// (operand copies plus estimate_us, unsplit or parallel split-k only) and reports the candidate the
// model puts first beside the fastest one measured: quality = best time / the model's pick's time.
// Occupancy comes from the registers `gemm-tune kernels --json` lists on the GPU the table was tuned
// on, under sm_80/sm_90 limits. Only measured candidates are ranked, so a table tuned with pruning
// may lack the model's real pick; `gemm-tune tune --exhaustive` tables answer best. Used to fit and
// check changes 140-142 of the model (docs/perf_notes.md).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "exchange.hpp"
#include "problem_data.hpp"
#include "registry.hpp"

namespace {

using autogemm::KernelInstance;

/// Resident blocks per SM of an instance from its resources, under the per-SM limits of sm_80 and
/// sm_90 (64 K registers allocated 256 per warp, 2048 threads, 32 blocks, 228 KB of shared memory
/// with 1 KB reserved per block): what cudaOccupancyMaxActiveBlocksPerMultiprocessor answers there.
int blocks_per_sm(int registers, int threads, int shared_bytes) {
  const int warps = (threads + 31) / 32;
  const int regs_per_warp = (registers * 32 + 255) / 256 * 256;
  const int by_registers = (65536 / regs_per_warp) / warps;
  const int by_shared = (228 * 1024) / (shared_bytes + 1024);
  return std::min({by_registers, by_shared, 2048 / threads, 32});
}

/// Instance name -> blocks per SM, from `gemm-tune kernels --json` run on the table's GPU.
std::map<std::string, int> occupancy_from(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read file");
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::map<std::string, int> out;
  for (const auto& k : doc) {
    const int registers = k.at("registers").get<int>();
    if (registers <= 0)
      throw std::runtime_error(path + ": " + k.at("name").get<std::string>() +
                               " has no register count (list the kernels on the GPU: gemm-tune kernels --json)");
    out[k.at("name").get<std::string>()] =
        blocks_per_sm(registers, k.at("threads").get<int>(), k.at("shared_bytes").get<int>());
  }
  return out;
}

struct Priced {
  const autogemm::db::Entry* entry;
  double estimate_us;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"model_check: rank a tuning table's measured candidates with the cost model (no GPU needed)"};
  std::string table_path, kernels_path, rows_path;
  int bus_bits = 5120;
  app.add_option("table", table_path, "Tuning table (gemm-tune export, JSON or CSV)")->required();
  app.add_option("kernels", kernels_path, "gemm-tune kernels --json, listed on the table's GPU")->required();
  app.add_option("--bus-bits", bus_bits, "Memory bus width of the table's GPU in bits (H100 SXM: 5120)")
      ->check(CLI::PositiveNumber);
  app.add_option("--rows", rows_path, "Also write every candidate's measured and estimated time to this CSV");
  CLI11_PARSE(app, argc, argv);

  try {
    const std::vector<autogemm::db::Entry> entries = autogemm::db::read_exchange_file(table_path);
    const std::map<std::string, int> occupancy = occupancy_from(kernels_path);

    // Problems in table order (one device's and another's apart): label -> the passed unsplit and
    // parallel measurements.
    std::vector<std::pair<std::string, std::vector<const autogemm::db::Entry*>>> problems;
    std::map<std::string, size_t> index;
    size_t unknown = 0;
    for (const auto& e : entries) {
      if (!e.measurement.check_passed || e.candidate.split_mode == "serial") continue;
      if (!autogemm::find_kernel(e.candidate.kernel) || !occupancy.count(e.candidate.kernel)) {
        ++unknown;
        continue;
      }
      const auto& p = e.problem;
      char label[64];
      std::snprintf(label, sizeof label, "%c%c %dx%dx%d align%d", p.transa, p.transb, p.m, p.n, p.k, p.align);
      auto [it, fresh] = index.try_emplace(e.device.key() + '\n' + label, problems.size());
      if (fresh) problems.push_back({label, {}});
      problems[it->second].second.push_back(&e);
    }

    std::FILE* rows = rows_path.empty() ? nullptr : std::fopen(rows_path.c_str(), "w");
    if (!rows_path.empty() && !rows) throw std::runtime_error(rows_path + ": cannot write file");
    if (rows) std::fprintf(rows, "layout,m,n,k,align,kernel,splits,split_mode,measured_us,estimated_us,blocks_per_sm\n");
    std::printf("%-30s %10s %10s %7s  %s\n", "problem (column-major)", "best us", "pick us", "quality",
                "the model's pick (splits)");
    double log_sum = 0, worst = 1;
    for (const auto& [label, measured] : problems) {
      const auto& e0 = *measured.front();
      const autogemm::db::ProblemKey& pk = e0.problem;
      const autogemm::DeviceModel model =
          autogemm::device_model(e0.device.cc_major, e0.device.cc_minor, e0.device.sm_count,
                                 e0.provenance.sm_clock_mhz * 1000, e0.provenance.mem_clock_mhz * 1000, bus_bits);
      const auto cm = autogemm::make_problem(pk.transa == 't' ? autogemm::Op::T : autogemm::Op::N,
                                             pk.transb == 't' ? autogemm::Op::T : autogemm::Op::N, pk.m, pk.n, pk.k);
      autogemm::GemmProblem p;  // the tuner's minimal leading dimensions; aligned bases never dereferenced
      p.op_a = cm.op_a, p.op_b = cm.op_b, p.m = cm.m, p.n = cm.n, p.k = cm.k;
      p.lda = cm.lda, p.ldb = cm.ldb, p.ldc = cm.ldc;
      p.a = reinterpret_cast<const float*>(0x10000), p.b = reinterpret_cast<const float*>(0x20000);
      p.c = reinterpret_cast<float*>(0x30000);
      std::vector<Priced> priced;
      for (const auto* e : measured) {
        const KernelInstance& k = *autogemm::find_kernel(e->candidate.kernel);
        const autogemm::SplitChoice split{e->candidate.splits, e->candidate.split_mode == "parallel"
                                                                   ? autogemm::SplitKMode::kParallel
                                                                   : autogemm::SplitKMode::kNone};
        const int occ = occupancy.at(e->candidate.kernel);
        const double est = autogemm::repack_estimate_us(k.config, p, model) +
                           autogemm::estimate_us(k.config, occ, p.m, p.n, p.k, split, model);
        priced.push_back({e, est});
        if (rows)
          std::fprintf(rows, "%c%c,%d,%d,%d,%d,%s,%d,%s,%.3f,%.3f,%d\n", pk.transa, pk.transb, pk.m, pk.n, pk.k,
                       pk.align, e->candidate.kernel.c_str(), split.splits, e->candidate.split_mode.c_str(),
                       e->measurement.median_us, est, occ);
      }
      const auto pick = std::min_element(priced.begin(), priced.end(),
                                         [](const Priced& a, const Priced& b) { return a.estimate_us < b.estimate_us; });
      double best = INFINITY;
      for (const auto* e : measured) best = std::min(best, e->measurement.median_us);
      const double quality = best / pick->entry->measurement.median_us;
      log_sum += std::log(quality), worst = std::min(worst, quality);
      std::printf("%-30s %10.1f %10.1f %7.3f  %s (%d)\n", label.c_str(), best,
                  pick->entry->measurement.median_us, quality, pick->entry->candidate.kernel.c_str(),
                  pick->entry->candidate.splits);
    }
    if (rows) std::fclose(rows);
    if (problems.empty()) throw std::runtime_error(table_path + ": no passed measurement of a kernel this build has");
    std::printf("%zu problem%s: the model's pick reaches %.3f of the best measured (geometric mean), worst %.3f",
                problems.size(), problems.size() == 1 ? "" : "s", std::exp(log_sum / problems.size()), worst);
    if (unknown) std::printf("; %zu rows of kernels this build or the kernels list lacks left out", unknown);
    std::printf("\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "model_check: %s\n", e.what());
    return 1;
  }
  return 0;
}
