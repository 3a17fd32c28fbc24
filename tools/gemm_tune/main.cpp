// gemm-tune: tune, check and benchmark autogemm on this machine's GPUs, list its kernels, and move
// tuning tables between machines. With no subcommand, or with only tune's options, it tunes (the
// seed shapes by default) on the current GPU. Every usage error exits 2 (commands.hpp).
#include <algorithm>
#include <string>
#include <vector>

#include "autogemm/autogemm.h"
#include "commands.hpp"
#include "registry.hpp"

namespace {

/// The version line and what this build holds: its CUDA architectures, whether the sm_90a TMA
/// instances are in, and the kernel grid's fingerprint (the tuning database's kernel_grid).
std::string version_text() {
  int tma = 0;
  for (const autogemm::KernelInstance& k : autogemm::kernel_registry()) tma += k.config.is_tma();
  return "gemm-tune (autogemm) " + std::string(autogemmGetVersion()) + "\n" +
         "CUDA architectures: " + AUTOGEMM_CUDA_ARCHITECTURES + "\n" +
         "kernel instances: " + std::to_string(autogemm::kernel_registry().size()) + " (TMA instances: " +
         (tma > 0 ? std::to_string(tma) : std::string("none, not built for sm_90a")) + ")\n" +
         "kernel grid: " + std::string(autogemm::kernel_grid_id());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gemm-tune: autotuning FP32 GEMM for NVIDIA GPUs (autogemm " + std::string(autogemmGetVersion()) +
               ").\nWith no subcommand, or with only tune's options, it runs 'tune' (the seed shapes by default)."};
  app.name("gemm-tune");
  app.set_version_flag("--version", version_text());
  app.require_subcommand(0, 1);
  const std::vector<autogemm::cli::Command> commands = {
      autogemm::cli::add_tune_command(app),  // first: the default
      autogemm::cli::add_bench_command(app),
      autogemm::cli::add_selfcheck_command(app),
      autogemm::cli::add_overhead_command(app),
      autogemm::cli::add_accuracy_command(app),
      autogemm::cli::add_kernels_command(app),
      autogemm::cli::add_devices_command(app),
      autogemm::cli::add_export_command(app),
      autogemm::cli::add_import_command(app),
      autogemm::cli::add_db_command(app),
  };
  // `gemm-tune --set seed`: options before any subcommand are tune's.
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool help_or_version = !args.empty() && (args[0] == "-h" || args[0] == "--help" || args[0] == "--version");
  if (!args.empty() && args[0].size() > 1 && args[0][0] == '-' && !help_or_version) args.insert(args.begin(), "tune");
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the help, the version or the error
    return code == 0 ? 0 : autogemm::cli::kUsageExit;
  }
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return commands.front().run();
}
