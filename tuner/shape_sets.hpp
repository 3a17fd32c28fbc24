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

/// Projections of a transformer layer (hidden 4096, MLP 11008) at 128 and 2048 tokens:
/// QKV, attention output, MLP up and down.
const std::vector<Shape>& transformer_shapes();

/// The performance targets' shapes beyond the seed (issue 6): 4096^3, and the odd sizes
/// 1000^3, 127x3001x1531 and 4096x11008x4096 (measured in all four layouts).
const std::vector<Shape>& perf_shapes();

/// The projections of common 7-8B language models (N x K = 4096x4096, 12288x4096, 11008x4096,
/// 4096x11008, 14336x4096, 4096x14336) at M = 1, 16, 64, 128, 512, 2048 and 8192 tokens: 42 shapes.
/// A Linear layer (y = x W^T, both row-major) runs them as the column-major call `tn`.
const std::vector<Shape>& llm_shapes();

/// A named set ("seed", "transformer", "perf", "llm"), or nullopt for an unknown name.
std::optional<std::vector<Shape>> named_shape_set(std::string_view name);
std::vector<std::string> shape_set_names();

/// Parses "M,N,K" (or "MxNxK"); nullopt unless all three are positive integers.
std::optional<Shape> parse_shape(std::string_view text);

std::string to_string(const Shape& s);

/// Parses a sweep "M=1..4096,N=3072,K=3072": each of M, N, K is one value or lo..hi, which takes
/// the powers of two from lo to hi (lo and hi included). On failure returns nullopt and says why.
std::optional<std::vector<Shape>> parse_range(std::string_view text, std::string* why);

}  // namespace autogemm
