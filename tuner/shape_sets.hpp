// Named problem sets, defined once: the seed shapes every issue measures, and parsing of M,N,K.
// Shapes are given row-major as users think of them: C[M,N] = A[M,K] . B[K,N].
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autogemm {

struct Shape {
  int m = 0, n = 0, k = 0;
  bool operator==(const Shape&) const = default;
};

/// The 12 seed shapes of the project's issues.
const std::vector<Shape>& seed_shapes();

/// A named set ("seed"), or nullopt for an unknown name.
std::optional<std::vector<Shape>> named_shape_set(std::string_view name);
std::vector<std::string> shape_set_names();

/// Parses "M,N,K" (or "MxNxK"); nullopt unless all three are positive integers.
std::optional<Shape> parse_shape(std::string_view text);

std::string to_string(const Shape& s);

}  // namespace autogemm
