// ConfigTag: a KernelConfig as a type, so kernels can be templated on it (nvcc's launch stubs reject
// class-type template arguments). The generator spells every instance as ConfigTag<...>.
#pragma once

#include "kernel_config.hpp"

namespace autogemm::detail {

/// AB and Out: the operands' and C's types (FP32 sums); 16-bit ones for GEMV instances only.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int S, int MinBlocks, Op OpA, Op OpB, int Align,
          Family F = Family::kGemm, int Slices = 1, int Residues = 1, DataType AB = DataType::kF32,
          DataType Out = DataType::kF32>
struct ConfigTag {
  static constexpr KernelConfig value{BM, BN, BK, WM, WN, TM, TN, S, MinBlocks, OpA, OpB, Align, F, Slices, Residues,
                                      GemmTypes{AB, AB, Out, ComputeType::kF32}};
};

/// A wgmma instance as a type (wgmma_config's arguments).
template <int BM, int BN, int BK, int S, int CM, int CN, WgmmaSchedule Sched, Op OpA, Op OpB, DataType AB, DataType Out,
          int Swizzle, bool CRowMajor = false, ComputeType Compute = ComputeType::kF32>
struct WgmmaTag {
  static constexpr KernelConfig value =
      wgmma_config(BM, BN, BK, S, CM, CN, Sched, OpA, OpB, AB, Out, Swizzle, CRowMajor, Compute);
};

}  // namespace autogemm::detail
