// model_check: how well the cost model ranks what a tuning table measured, on any machine (no GPU).
// For every problem of the table it prices each measured candidate the way the untuned choice does
// (operand copies plus estimate_us, unsplit or parallel split-k only) and reports the candidate the
// model puts first beside the fastest one measured: quality = best time / the model's pick's time.
// Occupancy comes from the registers `gemm-tune kernels --json` lists on the GPU the table was tuned
// on, under sm_80/sm_90 limits. Only measured candidates are ranked, so a table tuned with pruning
// may lack the model's real pick; `gemm-tune tune --exhaustive` tables answer best. The cost model's
// fitted terms (a copy's issue slots, the DRAM rate of the bytes in flight, the shared-memory cap)
// are fitted and checked with it.
//
// With --neighbours TABLE2 it scores the runtime's untuned choice instead: each problem's choice is made
// as an application without a tuned entry gets it from a database holding TABLE2 (its class's
// measurements and the other class's credited to twins, rank_with_neighbours over every candidate
// the build offers), and looked up among the problem's measured candidates; a choice the table did
// not time is marked and the first measured one in the untuned choice's order scored instead.
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
#include "untuned_neighbours.hpp"
#include "untuned_choice.hpp"
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

/// The memory bus width of a table's GPU, which the table does not record (the runtime reads it from
/// the device): the H200's HBM3e is 6144 bits wide, the H100 SXM's HBM3 5120. Priced at 5120, the
/// H200's DRAM rate comes out 0.83 of what it is.
int memory_bus_bits(const std::string& device_name) {
  return device_name.find("H200") != std::string::npos ? 6144 : 5120;
}

/// What `gemm-tune kernels --json` run on the table's GPU says of each instance.
struct ListedKernel {
  int blocks_per_sm = 0;
  size_t local_bytes = 0;  // register spills and stack per thread
};

/// Instance name -> blocks per SM and local memory, from `gemm-tune kernels --json`.
std::map<std::string, ListedKernel> kernels_from(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read file");
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::map<std::string, ListedKernel> out;
  for (const auto& k : doc) {
    const auto& regs = k.at("registers");
    const int registers = regs.is_number() ? regs.get<int>() : -1;
    if (registers <= 0)
      throw std::runtime_error(path + ": " + k.at("name").get<std::string>() +
                               " has no register count (list the kernels on the GPU: gemm-tune kernels --json)");
    const auto& local = k.value("local_bytes", nlohmann::json());
    out[k.at("name").get<std::string>()] = {
        blocks_per_sm(registers, k.at("threads").get<int>(), k.at("shared_bytes").get<int>()),
        local.is_number() ? local.get<size_t>() : 0};
  }
  return out;
}

/// The untuned choice's neighbours for a problem of this device, layout and class, as neighbour_measurements
/// (tuned_lookup.hpp) builds them from a database holding `table`.
std::vector<autogemm::NeighbourMeasurement> untuned_neighbours(const std::vector<autogemm::db::Entry>& table,
                                                                const autogemm::db::Entry& problem,
                                                                const std::map<std::string, ListedKernel>& kernels) {
  std::vector<autogemm::db::Entry> device_rows;
  for (const auto& e : table)
    if (e.device.key() == problem.device.key() && e.problem.dtype == problem.problem.dtype) device_rows.push_back(e);
  const auto& pk = problem.problem;
  auto local_bytes = [&](const KernelInstance& k) {
    const auto it = kernels.find(std::string(k.name));
    return it == kernels.end() ? size_t{0} : it->second.local_bytes;
  };
  return autogemm::class_neighbours(
      [&](int align) { return autogemm::class_measurements(device_rows, pk.transa, pk.transb, align); }, pk.align,
      local_bytes);
}

/// The qualities of a set of problems: their geometric mean and the worst.
struct Summary {
  size_t count = 0;
  double log_sum = 0, worst = 1;
  void add(double quality) { ++count, log_sum += std::log(quality), worst = std::min(worst, quality); }
  std::string text(const char* who) const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%zu problem%s: the %s pick reaches %.3f of the best measured (geometric mean), worst %.3f",
                  count, count == 1 ? "" : "s", who, std::exp(log_sum / std::max<size_t>(count, 1)), worst);
    return buf;
  }
};

struct Priced {
  const autogemm::db::Entry* entry;
  double estimate_us;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"model_check: rank a tuning table's measured candidates with the cost model (no GPU needed)"};
  std::string table_path, kernels_path, rows_path;
  int bus_bits = 0;  // 0: each table row's GPU's (memory_bus_bits)
  app.add_option("table", table_path, "Tuning table (gemm-tune export, JSON or CSV)")->required();
  app.add_option("kernels", kernels_path, "gemm-tune kernels --json, listed on the table's GPU")->required();
  app.add_option("--bus-bits", bus_bits,
                 "Memory bus width of the table's GPU in bits (default: by its name, H200 6144, else H100 SXM's 5120)")
      ->check(CLI::PositiveNumber);
  app.add_option("--rows", rows_path, "Also write every candidate's measured and estimated time to this CSV");
  std::string neighbours_path;
  app.add_option("--neighbours", neighbours_path,
                 "Score the runtime's untuned choice instead: its choice with this tuning table as the database");
  CLI11_PARSE(app, argc, argv);

  try {
    const std::vector<autogemm::db::Entry> entries = autogemm::db::read_exchange_file(table_path);
    const std::map<std::string, ListedKernel> kernels = kernels_from(kernels_path);
    const std::vector<autogemm::db::Entry> neighbour_table =
        neighbours_path.empty() ? std::vector<autogemm::db::Entry>{} : autogemm::db::read_exchange_file(neighbours_path);
    if (!neighbours_path.empty() && rows_path.size())
      throw std::runtime_error("--rows and --neighbours are separate questions: ask one at a time");
    const auto& registry = autogemm::kernel_registry();

    // Problems in table order (one device's and another's apart): label -> the passed unsplit and
    // parallel measurements.
    std::vector<std::pair<std::string, std::vector<const autogemm::db::Entry*>>> problems;
    std::map<std::string, size_t> index;
    size_t unknown = 0;
    for (const auto& e : entries) {
      if (!e.measurement.check_passed || e.candidate.split_mode == "serial") continue;
      if (!autogemm::find_kernel(e.candidate.kernel) || !kernels.count(e.candidate.kernel)) {
        ++unknown;
        continue;
      }
      const auto& p = e.problem;
      // One problem per arithmetic: a table may hold the same shape's FP32, TF32 and 3xTF32 rows.
      char label[96];
      std::snprintf(label, sizeof label, "%c%c %dx%dx%d align%d %s", p.transa, p.transb, p.m, p.n, p.k, p.align,
                    p.dtype.c_str());
      auto [it, fresh] = index.try_emplace(e.device.key() + '\n' + label, problems.size());
      if (fresh) problems.push_back({label, {}});
      problems[it->second].second.push_back(&e);
    }

    std::FILE* rows = rows_path.empty() ? nullptr : std::fopen(rows_path.c_str(), "w");
    if (!rows_path.empty() && !rows) throw std::runtime_error(rows_path + ": cannot write file");
    if (rows)
      std::fprintf(rows, "layout,m,n,k,align,types,kernel,splits,split_mode,measured_us,estimated_us,blocks_per_sm\n");
    std::printf("%-48s %10s %10s %7s  %s\n", "problem (column-major, types)", "best us", "pick us", "quality",
                "the model's pick (splits)");
    Summary all;
    std::map<std::string, Summary> by_types;  // types key -> its problems' qualities
    for (const auto& [label, measured] : problems) {
      const auto& e0 = *measured.front();
      const autogemm::db::ProblemKey& pk = e0.problem;
      const autogemm::DeviceModel model =
          autogemm::device_model(e0.device.cc_major, e0.device.cc_minor, e0.device.sm_count,
                                 e0.provenance.sm_clock_mhz * 1000, e0.provenance.mem_clock_mhz * 1000,
                                 bus_bits > 0 ? bus_bits : memory_bus_bits(e0.device.name));
      const auto cm = autogemm::make_problem(pk.transa == 't' ? autogemm::Op::T : autogemm::Op::N,
                                             pk.transb == 't' ? autogemm::Op::T : autogemm::Op::N, pk.m, pk.n, pk.k);
      autogemm::GemmProblem p;  // the tuner's minimal leading dimensions; aligned bases never dereferenced
      p.op_a = cm.op_a, p.op_b = cm.op_b, p.m = cm.m, p.n = cm.n, p.k = cm.k;
      const auto types = autogemm::parse_types_key(pk.dtype);
      if (!types) throw std::runtime_error(label + ": unknown types key");
      p.types = *types;
      p.lda = cm.lda, p.ldb = cm.ldb, p.ldc = cm.ldc;
      p.a = reinterpret_cast<const float*>(0x10000), p.b = reinterpret_cast<const float*>(0x20000);
      p.c = reinterpret_cast<float*>(0x30000);
      std::vector<Priced> priced;
      for (const auto* e : measured) {
        const KernelInstance& k = *autogemm::find_kernel(e->candidate.kernel);
        const autogemm::SplitChoice split{e->candidate.splits, e->candidate.split_mode == "parallel"
                                                                   ? autogemm::SplitKMode::kParallel
                                                                   : autogemm::SplitKMode::kNone};
        const int occ = kernels.at(e->candidate.kernel).blocks_per_sm;
        const double est = autogemm::repack_estimate_us(k.config, p, model) +
                           autogemm::estimate_us(k.config, occ, p.m, p.n, p.k, split, model);
        priced.push_back({e, est});
        if (rows)
          std::fprintf(rows, "%c%c,%d,%d,%d,%d,%s,%s,%d,%s,%.3f,%.3f,%d\n", pk.transa, pk.transb, pk.m, pk.n, pk.k,
                       pk.align, pk.dtype.c_str(), e->candidate.kernel.c_str(), split.splits,
                       e->candidate.split_mode.c_str(), e->measurement.median_us, est, occ);
      }
      const autogemm::db::Entry* pick =
          std::min_element(priced.begin(), priced.end(),
                           [](const Priced& a, const Priced& b) { return a.estimate_us < b.estimate_us; })
              ->entry;
      const char* mark = "";
      if (!neighbours_path.empty()) {
        // The untuned choice's order over every candidate the build offers; the first the table timed.
        auto occ = [&](size_t i) {
          const auto it = kernels.find(std::string(registry[i].name));
          return it == kernels.end() ? 0 : it->second.blocks_per_sm;
        };
        autogemm::DeviceLimits limits;
        limits.cc_major = e0.device.cc_major, limits.cc_minor = e0.device.cc_minor;
        limits.sm_count = e0.device.sm_count, limits.l2_bytes = static_cast<int>(e0.device.l2_bytes);
        limits.max_shared_per_block_optin = e0.device.cc_major >= 9 ? 227 * 1024 : 163 * 1024;
        const auto ranked = autogemm::rank_with_neighbours(p, limits, model, occ,
                                                           untuned_neighbours(neighbour_table, e0, kernels));
        pick = nullptr;
        for (const auto& c : ranked) {
          for (const auto* e : measured)
            if (e->candidate.kernel == c.kernel->name && e->candidate.splits == c.split.splits &&
                (e->candidate.split_mode == "parallel") == (c.split.mode == autogemm::SplitKMode::kParallel))
              pick = e;
          if (pick) break;
          mark = " *";  // the untuned choice's first choice was not timed in the table
        }
        if (!pick) throw std::runtime_error(label + ": none of the untuned choice's choices was timed in the table");
      }
      double best = INFINITY;
      for (const auto* e : measured) best = std::min(best, e->measurement.median_us);
      const double quality = best / pick->measurement.median_us;
      Summary& of_types = by_types[pk.dtype];
      for (Summary* sum : {&all, &of_types}) sum->add(quality);
      std::printf("%-48s %10.1f %10.1f %7.3f  %s (%d)%s\n", label.c_str(), best, pick->measurement.median_us, quality,
                  pick->candidate.kernel.c_str(), pick->candidate.splits, mark);
    }
    if (rows) std::fclose(rows);
    if (problems.empty()) throw std::runtime_error(table_path + ": no passed measurement of a kernel this build has");
    const char* who = neighbours_path.empty() ? "model's" : "untuned choice's";
    if (by_types.size() > 1)
      for (const auto& [key, sum] : by_types) std::printf("%s: %s\n", key.c_str(), sum.text(who).c_str());
    std::printf("%s", all.text(who).c_str());
    if (unknown) std::printf("; %zu rows of kernels this build or the kernels list lacks left out", unknown);
    std::printf("\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "model_check: %s\n", e.what());
    return 1;
  }
  return 0;
}
