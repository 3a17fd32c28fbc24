// gemm-tune kernels: the registry of compiled instances with their static metadata, and registers
// and spills read from the device when one is present. Works on any machine.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>

#include "commands.hpp"
#include "family.hpp"
#include "registry.hpp"

namespace autogemm::cli {

Command add_kernels_command(CLI::App& app) {
  auto* sub = app.add_subcommand("kernels", "List the compiled kernel instances (no GPU needed)");
  struct Opts {
    bool json = false;
    std::string filter, dtype;
  };
  auto opts = std::make_shared<Opts>();
  sub->add_flag("--json", opts->json, "Print JSON instead of a table");
  sub->add_option("--filter", opts->filter, "Only names matching this regex (ECMAScript)");
  sub->add_option("--dtype", opts->dtype, "Only instances whose A and B are of this type: f32, bf16 or f16");
  return {sub, [opts]() -> int {
    std::regex re;
    try {
      re = std::regex(opts->filter);
    } catch (const std::regex_error& e) {
      std::fprintf(stderr, "gemm-tune kernels: --filter '%s' is not a valid regex: %s\n", opts->filter.c_str(), e.what());
      return kUsageExit;
    }
    if (!opts->dtype.empty() && !parse_data_type(opts->dtype)) {
      std::fprintf(stderr, "gemm-tune kernels: --dtype '%s' is not f32, bf16 or f16\n", opts->dtype.c_str());
      return kUsageExit;
    }
    int devices = 0;
    const bool gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
    cudaGetLastError();
    nlohmann::json out = nlohmann::json::array();
    if (!opts->json)
      std::printf("%-58s %7s %7s %6s %6s\n", "name", "threads", "smem", "regs", "spill");
    for (const KernelInstance& k : kernel_registry()) {
      if (!opts->filter.empty() && !std::regex_search(std::string(k.name), re)) continue;
      if (!opts->dtype.empty() && opts->dtype != data_type_name(k.config.types.a)) continue;
      int regs = -1, spill = -1;
      if (gpu) {
        cudaFuncAttributes attr{};
        if (cudaFuncGetAttributes(&attr, k.kernel) == cudaSuccess) {
          regs = attr.numRegs;
          spill = static_cast<int>(attr.localSizeBytes);
        }
        cudaGetLastError();
      }
      const KernelConfig& c = k.config;
      if (opts->json) {
        nlohmann::json j = {{"name", k.name},      {"family", family_of(c).name},
                            {"types", types_key(c.types)},
                            {"layout", layout_code(c.op_a, c.op_b)},
                            {"align", c.align},     {"bm", c.bm},
                            {"bn", c.bn},           {"bk", c.bk},
                            {"wm", c.wm},           {"wn", c.wn},
                            {"tm", c.tm},           {"tn", c.tn},
                            {"stages", c.stages},   {"threads", c.threads()},
                            {"min_blocks", c.min_blocks}, {"shared_bytes", c.shared_bytes()}};
        j["registers"] = regs >= 0 ? nlohmann::json(regs) : nlohmann::json(nullptr);
        j["local_bytes"] = spill >= 0 ? nlohmann::json(spill) : nlohmann::json(nullptr);
        out.push_back(j);
      } else {
        std::printf("%-58s %7d %7d %6s %6s\n", std::string(k.name).c_str(), c.threads(), c.shared_bytes(),
                    regs >= 0 ? std::to_string(regs).c_str() : "-", spill >= 0 ? std::to_string(spill).c_str() : "-");
      }
    }
    if (opts->json) std::cout << out.dump(2) << "\n";
    return 0;
  }};
}

}  // namespace autogemm::cli
