// See shape_sets.hpp.
#include "shape_sets.hpp"

#include <charconv>

namespace autogemm {

const std::vector<Shape>& seed_shapes() {
  static const std::vector<Shape> shapes = {
      {3072, 3072, 3072}, {512, 3072, 3072}, {256, 3072, 3072}, {128, 3072, 3072},
      {64, 3072, 3072},   {32, 3072, 3072},  {16, 3072, 3072},  {1, 3072, 3072},
      {256, 256, 256},    {256, 256, 1024},  {256, 256, 8192},  {128, 128, 32768},
  };
  return shapes;
}

const std::vector<Shape>& transformer_shapes() {
  static const std::vector<Shape> shapes = [] {
    std::vector<Shape> v;
    for (int tokens : {128, 2048})
      for (Shape s : {Shape{0, 12288, 4096}, Shape{0, 4096, 4096}, Shape{0, 11008, 4096}, Shape{0, 4096, 11008}}) {
        s.m = tokens;
        v.push_back(s);
      }
    return v;
  }();
  return shapes;
}

const std::vector<Shape>& perf_shapes() {
  static const std::vector<Shape> shapes = {
      {4096, 4096, 4096}, {1000, 1000, 1000}, {127, 3001, 1531}, {4096, 11008, 4096}};
  return shapes;
}

const std::vector<Shape>& llm_shapes() {
  static const std::vector<Shape> shapes = [] {
    std::vector<Shape> v;
    for (int tokens : {1, 16, 64, 128, 512, 2048, 8192})
      for (Shape s : {Shape{0, 4096, 4096}, Shape{0, 12288, 4096}, Shape{0, 11008, 4096}, Shape{0, 4096, 11008},
                      Shape{0, 14336, 4096}, Shape{0, 4096, 14336}}) {
        s.m = tokens;
        v.push_back(s);
      }
    return v;
  }();
  return shapes;
}

std::optional<std::vector<Shape>> named_shape_set(std::string_view name) {
  if (name == "seed") return seed_shapes();
  if (name == "transformer") return transformer_shapes();
  if (name == "perf") return perf_shapes();
  if (name == "llm") return llm_shapes();
  return std::nullopt;
}

std::vector<std::string> shape_set_names() { return {"seed", "transformer", "perf", "llm"}; }

std::optional<Shape> parse_shape(std::string_view text) {
  int v[3] = {0, 0, 0};
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    const auto [next, ec] = std::from_chars(p, end, v[i]);
    if (ec != std::errc() || v[i] <= 0) return std::nullopt;
    p = next;
    if (i < 2) {
      if (p == end || (*p != ',' && *p != 'x')) return std::nullopt;
      ++p;
    }
  }
  if (p != end) return std::nullopt;
  return Shape{v[0], v[1], v[2]};
}

std::string to_string(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

}  // namespace autogemm

namespace autogemm {

std::optional<std::vector<Shape>> parse_range(std::string_view text, std::string* why) {
  std::vector<int> values[3];
  const char names[3] = {'M', 'N', 'K'};
  auto fail = [&](const std::string& message) -> std::optional<std::vector<Shape>> {
    if (why) *why = message;
    return std::nullopt;
  };
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find(',', pos), text.size());
    const std::string_view part = text.substr(pos, end - pos);
    pos = end + 1;
    if (part.size() < 3 || part[1] != '=') return fail("'" + std::string(part) + "' is not DIM=VALUE or DIM=LO..HI");
    const char dim = static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
    const int d = dim == 'M' ? 0 : dim == 'N' ? 1 : dim == 'K' ? 2 : -1;
    if (d < 0) return fail(std::string("unknown dimension '") + part[0] + "' (M, N or K)");
    const std::string_view spec = part.substr(2);
    const size_t dots = spec.find("..");
    int lo = 0, hi = 0;
    auto num = [](std::string_view t, int& out) {
      const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
      return ec == std::errc() && p == t.data() + t.size() && out > 0;
    };
    if (dots == std::string_view::npos) {
      if (!num(spec, lo)) return fail(std::string(1, dim) + ": '" + std::string(spec) + "' is not a positive integer");
      values[d] = {lo};
      continue;
    }
    if (!num(spec.substr(0, dots), lo) || !num(spec.substr(dots + 2), hi) || lo > hi)
      return fail(std::string(1, dim) + ": '" + std::string(spec) + "' is not LO..HI with 0 < LO <= HI");
    values[d].clear();
    for (long v = 1; v <= hi; v *= 2)
      if (v >= lo) values[d].push_back(static_cast<int>(v));
    if (values[d].empty()) return fail(std::string(1, dim) + ": no power of two in " + std::string(spec));
  }
  for (int d = 0; d < 3; ++d)
    if (values[d].empty()) return fail(std::string("dimension ") + names[d] + " is missing");
  std::vector<Shape> shapes;
  for (int m : values[0])
    for (int n : values[1])
      for (int k : values[2]) shapes.push_back({m, n, k});
  return shapes;
}

}  // namespace autogemm
