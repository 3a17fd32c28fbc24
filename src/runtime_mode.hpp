// How the library picks kernels, from AUTOGEMM_MODE: tuned (default: databases, then the untuned
// choice), heuristic (databases ignored) or online (databases, else tune on the first call and store
// the result). Unknown words warn and fall back to tuned. And the arithmetic of FP32 GEMMs, from
// AUTOGEMM_MATH: pedantic (default), fp32_emulated (3xTF32) or tf32; unknown words warn and mean
// pedantic.
#pragma once

#include <optional>
#include <string_view>

#include "data_types.hpp"

namespace autogemm {

enum class RuntimeMode { kTuned, kHeuristic, kOnline };

/// nullopt for a word that is not a mode.
std::optional<RuntimeMode> parse_runtime_mode(std::string_view text);

/// AUTOGEMM_MODE as read when first asked (warns once about an unknown value).
RuntimeMode runtime_mode_from_env();

/// AUTOGEMM_MATH as read when first asked (warns once about an unknown value).
ComputeType math_mode_from_env();

}  // namespace autogemm
