// ConfigTag: a KernelConfig as a type, so kernels can be templated on it (nvcc's launch stubs reject
// class-type template arguments). The generator spells every instance as ConfigTag<...>.
#pragma once

#include "kernel_config.hpp"

namespace autogemm::detail {

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int S, int MinBlocks, Op OpA, Op OpB, int Align,
          Family F = Family::kGemm, int Slices = 1, int Residues = 1>
struct ConfigTag {
  static constexpr KernelConfig value{BM, BN, BK, WM, WN, TM, TN, S, MinBlocks, OpA, OpB, Align, F, Slices, Residues};
};

}  // namespace autogemm::detail
