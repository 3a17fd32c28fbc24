// Which problems a gemm-tune command works on: --set, --shape, --range, --shapes FILE and --layout,
// parsed once for tune and bench.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

#include "problem_data.hpp"
#include "tune_run.hpp"

namespace autogemm::cli {

struct ProblemSelection {
  std::vector<std::string> shapes, ranges;  // row-major M,N,K and sweeps
  std::string set;                          // a named shape set
  std::string shapes_file;                  // JSON shapes or the runtime's CSV
  std::string layouts = "nn";               // nn, nt, tn, tt, a comma list, or all
  std::string dtype = "f32";                // A's and B's type: f32, bf16, f16
  std::string out_dtype;                    // C's type: empty for A's, or f32
  std::string math = "pedantic";            // FP32's arithmetic: pedantic, fp32_emulated, tf32
};

/// Adds --dtype, --out-dtype and --math to a command, into `selection`.
void add_dtype_options(CLI::App& command, ProblemSelection& selection);

/// The types a selection asks for; throws std::runtime_error naming a bad word or combination.
GemmTypes selected_types(const ProblemSelection& selection);

using autogemm::LabelledProblem;

/// "nn,tt" or "all" -> the layouts; throws std::runtime_error naming a bad word.
std::vector<std::pair<Op, Op>> parse_layout_list(const std::string& text);

/// The selection's problems in a deterministic order: each layout crossed with --shape, --range and
/// --set, then the file (a CSV keeps its own layouts), all of the selected types. Throws
/// std::runtime_error naming bad input.
std::vector<LabelledProblem> collect_problems(const ProblemSelection& selection);

/// "seed, transformer, perf": for help texts and errors.
std::string shape_set_list();

}  // namespace autogemm::cli
