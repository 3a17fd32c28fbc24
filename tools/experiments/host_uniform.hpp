// The host-side operands of the experiments that check against a float64 reference built on the host
// (skinny_operands.hpp, tensor_core_bound.cu, tf32x3_bound.cu): a linear congruential sequence of
// values in [-0.5, 0.5) with `bits` random mantissa bits, continued across calls through `state`, so
// A and B drawn one after the other are the sequence each tool has always drawn.
#pragma once

#include <vector>

inline void fill_host_uniform(std::vector<float>& v, unsigned& state, int bits) {
  const unsigned mask = (1u << bits) - 1;
  const float scale = 1.0f / static_cast<float>(1u << bits);
  for (float& x : v) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<float>((state >> 8) & mask) * scale - 0.5f;
  }
}
