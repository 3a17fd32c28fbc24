// A CUTLASS GEMM from its collective builders, as the experiments on CUTLASS build one: one block per
// tile (cluster 1x1), a persistent grid, cooperative or ping-pong warpgroups, a B stored K-major
// (ColumnMajor K x N) and a column-major C, as many pipeline stages as the epilogue's shared memory
// leaves. The library's own instances are built in kernels/sm90_wgmma/wgmma_gemm.cuh. Include it
// after any header that must precede CUTLASS's (wgmma_gemm.cuh, a replacement of CUTLASS's driver
// call).
#pragma once

#include <type_traits>

#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

/// Operands of `Element` (A stored as `LayoutA`) in rows of `kAlign` elements' multiples, C and D of
/// `ElementOut` (`kAlignOut`), FP32 accumulation, tile `TileT`; the epilogue writes C through shared
/// memory with TMA (the library's), or, with `kDirectStores`, from registers
/// (NoSmemWarpSpecialized).
template <class Element, class LayoutA, int kAlign, class ElementOut, int kAlignOut, class TileT, bool kPingpong,
          bool kDirectStores = false>
struct BuilderGemm {
  using Cluster = cute::Shape<cute::_1, cute::_1, cute::_1>;
  using EpilogueSchedule = std::conditional_t<
      kDirectStores, cutlass::epilogue::NoSmemWarpSpecialized,
      std::conditional_t<kPingpong, cutlass::epilogue::TmaWarpSpecialized,
                         cutlass::epilogue::TmaWarpSpecializedCooperative>>;
  using MainloopSchedule = std::conditional_t<kPingpong, cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                                              cutlass::gemm::KernelTmaWarpSpecializedCooperative>;
  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileT, Cluster, cutlass::epilogue::collective::EpilogueTileAuto,
      float, float, ElementOut, cutlass::layout::ColumnMajor, kAlignOut, ElementOut, cutlass::layout::ColumnMajor,
      kAlignOut, EpilogueSchedule>::CollectiveOp;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, LayoutA, kAlign, Element,
      cutlass::layout::ColumnMajor, kAlign, float, TileT, Cluster,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
      MainloopSchedule>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop, Epilogue>;
  using Op = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};
