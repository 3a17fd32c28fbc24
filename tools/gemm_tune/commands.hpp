// gemm-tune's subcommands. Each registers its options on the CLI11 app and returns the exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace autogemm::cli {

/// Exit status of every usage error: a bad option, value or input file, named in one line (CLI11's
/// own parse errors included). Failures of the work itself exit 1; Ctrl-C during tune 130.
inline constexpr int kUsageExit = 2;

/// A usage error found after parsing (a value CLI11 cannot check), for kUsageExit.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Checks of a number option whose errors name the value ("--top: 0 is not a positive number"),
/// where CLI11's PositiveNumber and NonNegativeNumber print their range up to the largest double.
inline CLI::Validator number_check(bool zero_allowed) {
  const std::string what = zero_allowed ? " is not a number of 0 or more" : " is not a positive number";
  return CLI::Validator(
      [zero_allowed, what](std::string& s) -> std::string {
        double v = 0;
        return CLI::detail::lexical_cast(s, v) && (v > 0 || (zero_allowed && v == 0)) ? std::string() : s + what;
      },
      zero_allowed ? "NONNEGATIVE" : "POSITIVE", zero_allowed ? "non-negative" : "positive");
}
inline CLI::Validator positive_number() { return number_check(false); }
inline CLI::Validator non_negative_number() { return number_check(true); }

/// A registered subcommand and what runs it (returning the exit code) once CLI11 has parsed the line.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command add_kernels_command(CLI::App& app);
Command add_devices_command(CLI::App& app);
Command add_selfcheck_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_tune_command(CLI::App& app);
Command add_overhead_command(CLI::App& app);
Command add_export_command(CLI::App& app);
Command add_import_command(CLI::App& app);
Command add_db_command(CLI::App& app);
Command add_accuracy_command(CLI::App& app);

/// Writes `doc` to `path` as indented JSON (a --json report); throws "PATH: cannot write file".
void write_json_file(const std::string& path, const nlohmann::json& doc);

/// True when a CUDA device is usable; otherwise prints one line naming the problem to stderr.
bool require_gpu(const char* command);

}  // namespace autogemm::cli
