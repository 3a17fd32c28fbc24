// See problem_selection.hpp.
#include "problem_selection.hpp"

#include <stdexcept>

#include "shape_sets.hpp"

namespace autogemm::cli {

std::vector<std::pair<Op, Op>> parse_layout_list(const std::string& text) {
  std::vector<std::pair<Op, Op>> layouts;
  for (size_t pos = 0; pos <= text.size();) {
    const size_t end = std::min(text.find(',', pos), text.size());
    const std::string word = text.substr(pos, end - pos);
    pos = end + 1;
    if (word == "all") return {{Op::N, Op::N}, {Op::N, Op::T}, {Op::T, Op::N}, {Op::T, Op::T}};
    Op a, b;
    if (!parse_layout(word, a, b)) throw std::runtime_error("--layout '" + word + "' is not nn, nt, tn, tt or all");
    layouts.emplace_back(a, b);
  }
  return layouts;
}

std::string shape_set_list() {
  std::string out;
  for (const std::string& name : shape_set_names()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

void add_dtype_options(CLI::App& command, ProblemSelection& selection) {
  command.add_option("--dtype", selection.dtype, "Element type of A and B: f32, bf16 or f16 (FP32 arithmetic)")
      ->capture_default_str();
  command.add_option("--out-dtype", selection.out_dtype, "Element type of C: f32, or the type of A and B (default)");
  command
      .add_option("--math", selection.math,
                  "Arithmetic of f32 GEMMs, as the library's math mode (AUTOGEMM_MATH): pedantic (CUDA cores), "
                  "fp32_emulated (may use 3xTF32 tensor cores) or tf32 (may use TF32 tensor cores); each has its own "
                  "database rows")
      ->capture_default_str();
}

GemmTypes selected_types(const ProblemSelection& o) {
  auto parse = [](const std::string& word, const char* option) {
    if (const auto t = parse_data_type(word)) return *t;
    throw std::runtime_error(std::string(option) + " '" + word + "' is not f32, bf16 or f16");
  };
  const DataType ab = parse(o.dtype, "--dtype");
  const DataType c = o.out_dtype.empty() ? ab : parse(o.out_dtype, "--out-dtype");
  if (c != ab && c != DataType::kF32)
    throw std::runtime_error("--out-dtype '" + o.out_dtype + "' with --dtype '" + o.dtype +
                             "': C is of A's type or f32");
  const auto math = parse_math_mode(o.math);
  if (!math) throw std::runtime_error("--math '" + o.math + "' is not pedantic, fp32_emulated or tf32");
  if (*math != ComputeType::kF32 && ab != DataType::kF32)
    throw std::runtime_error("--math '" + o.math + "' with --dtype '" + o.dtype + "': the math modes are f32's");
  return GemmTypes{ab, ab, c, *math};
}

std::vector<LabelledProblem> collect_problems(const ProblemSelection& o) {
  const GemmTypes types = selected_types(o);
  const auto layouts = parse_layout_list(o.layouts);
  std::vector<Shape> shapes;
  for (const auto& text : o.shapes) {
    const auto s = parse_shape(text);
    if (!s) throw std::runtime_error("--shape '" + text + "' is not M,N,K with positive integers");
    shapes.push_back(*s);
  }
  for (const auto& text : o.ranges) {
    std::string why;
    const auto r = parse_range(text, &why);
    if (!r) throw std::runtime_error("--range '" + text + "': " + why);
    shapes.insert(shapes.end(), r->begin(), r->end());
  }
  if (!o.set.empty()) {
    const auto set = named_shape_set(o.set);
    if (!set) throw std::runtime_error("--set '" + o.set + "' is not a known set (" + shape_set_list() + ")");
    shapes.insert(shapes.end(), set->begin(), set->end());
  }
  std::vector<LabelledProblem> out;
  for (const auto& [a, b] : layouts)
    for (const Shape& s : shapes) {
      out.push_back({to_column_major(s, a, b), to_string(s)});
      out.back().problem.types = types;
    }
  if (!o.shapes_file.empty()) {
    const bool csv = o.shapes_file.size() > 4 && o.shapes_file.substr(o.shapes_file.size() - 4) == ".csv";
    for (const auto& [a, b] : layouts) {
      for (const ColumnMajorProblem& p : load_problems_file(o.shapes_file, a, b, types))
        out.push_back({p, "col " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k)});
      if (csv) break;  // a CSV names its own layouts
    }
  }
  return out;
}

}  // namespace autogemm::cli
