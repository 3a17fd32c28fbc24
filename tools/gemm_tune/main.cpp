// gemm-tune: tune, check and benchmark autogemm on this machine's GPUs, list its kernels, and move
// tuning tables between machines. With no subcommand it tunes the seed shapes on the current GPU.
#include <vector>

#include "autogemm/autogemm.h"
#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"gemm-tune: autotuning FP32 GEMM for NVIDIA GPUs (autogemm " + std::string(autogemmGetVersion()) +
               ").\nWith no subcommand it runs 'tune' on the seed shapes."};
  app.require_subcommand(0, 1);
  const std::vector<autogemm::cli::Command> commands = {
      autogemm::cli::add_tune_command(app),  // first: the default
      autogemm::cli::add_bench_command(app),
      autogemm::cli::add_selfcheck_command(app),
      autogemm::cli::add_overhead_command(app),
      autogemm::cli::add_kernels_command(app),
      autogemm::cli::add_devices_command(app),
      autogemm::cli::add_export_command(app),
      autogemm::cli::add_import_command(app),
      autogemm::cli::add_db_command(app),
  };
  CLI11_PARSE(app, argc, argv);
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return commands.front().run();
}
