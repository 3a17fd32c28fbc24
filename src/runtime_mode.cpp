// See runtime_mode.hpp.
#include "runtime_mode.hpp"

#include <cstdlib>
#include <string>

#include "logging.hpp"

namespace autogemm {

std::optional<RuntimeMode> parse_runtime_mode(std::string_view text) {
  if (text == "tuned" || text.empty()) return RuntimeMode::kTuned;
  if (text == "heuristic") return RuntimeMode::kHeuristic;
  if (text == "online") return RuntimeMode::kOnline;
  return std::nullopt;
}

RuntimeMode runtime_mode_from_env() {
  static const RuntimeMode mode = [] {
    const char* env = std::getenv("AUTOGEMM_MODE");
    const auto parsed = parse_runtime_mode(env ? env : "");
    if (!parsed) logger().warn("AUTOGEMM_MODE='{}' is not tuned, heuristic or online; using tuned", env);
    return parsed.value_or(RuntimeMode::kTuned);
  }();
  return mode;
}

ComputeType math_mode_from_env() {
  static const ComputeType mode = [] {
    const char* env = std::getenv("AUTOGEMM_MATH");
    const std::optional<ComputeType> parsed =
        env == nullptr || *env == '\0' ? std::optional(ComputeType::kF32) : parse_math_mode(env);
    if (!parsed) logger().warn("AUTOGEMM_MATH='{}' is not pedantic, fp32_emulated or tf32; using pedantic", env);
    return parsed.value_or(ComputeType::kF32);
  }();
  return mode;
}

}  // namespace autogemm
