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

std::optional<std::vector<Shape>> named_shape_set(std::string_view name) {
  if (name == "seed") return seed_shapes();
  return std::nullopt;
}

std::vector<std::string> shape_set_names() { return {"seed"}; }

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
