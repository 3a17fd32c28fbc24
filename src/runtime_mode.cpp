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

}  // namespace autogemm
