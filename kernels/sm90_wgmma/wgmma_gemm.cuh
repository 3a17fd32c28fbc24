// The tensor-core family on sm_90a (Family::kWgmma): BF16 or FP16 operands, FP32 accumulation, an
// output of the operands' type or FP32; or FP32 operands read as TF32 (K-major, `tn`, or A M-major
// through registers, `nn`), in 3xTF32 instances the split operands' copies with each k-tile's sums
// promoted into FP32. Each instance is a CUTLASS 4.2 warp-specialized kernel (CollectiveBuilder): TMA copies into an mbarrier pipeline of shared stages, one producer warpgroup
// and two consumer warpgroups issuing wgmma (cooperative: both on one tile; ping-pong: each on its
// own tile, their epilogues overlapping the other's main loop), registers rebalanced with
// setmaxnreg, a persistent grid walking the tiles in a swizzled raster order, optional 2-block
// clusters whose TMA loads multicast, and, in the stream-K schedule, K split over the blocks that
// a tile grid smaller than the SMs leaves idle; in the split-K schedule, K cut into batches whose
// FP32 partials a second kernel adds (the family's finish). docs/decisions.md, "Tensor-core kernels on CUTLASS",
// says why the kernels are CUTLASS's and not our own.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <type_traits>

// Every instance may be launched as a programmatic dependent of the kernel before it in its stream
// (GemmParams::after_previous_kernel). CUTLASS's kernels then wait (griddepcontrol.wait) in each warp
// that loads A, B or C before its first global access, so nothing is read or written before that
// kernel has finished. CUTLASS_GDC_ENABLED turns on the waits alone: CUTLASS_ENABLE_GDC_FOR_SM90
// would also signal dependents at the last tile, through a stream-K scheduler call that CUTLASS 4.2
// does not compile, and the kernel after ours (a split-K reduction) gains nothing from an earlier
// start. It must precede every CUTLASS header of the translation unit (checked after the includes).
#if !defined(CUTLASS_GDC_ENABLED) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CUTLASS_GDC_ENABLED
#endif

// CUTLASS's builder offers wgmma N widths other than 8, 16, 32, 64, 96, 128, 192 and 256 (the 112 of
// kWgmmaTileWidths) only with this defined; without it a 112-wide tile runs seven 64x16x16 wgmmas
// per k-step, each reading A's tile again (512x11008x4096 BF16 `tn` in an experiment build, tuned
// --exhaustive: 68.1 us with it, 138.1 without). The other widths of kWgmmaTileWidths select the
// same wgmma either way: the selector tries N from 256 down and takes the first that divides the
// tile, each of them is a standard N, and every extended N tried before it is larger. It must
// precede every CUTLASS header of the translation unit (checked after the includes).
#if !defined(CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED)
#define CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED
#endif

#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/gemm/kernel/tile_scheduler.hpp"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
static_assert(cutlass::arch::IsGdcGloballyEnabled,
              "a CUTLASS header came before wgmma_gemm.cuh: its kernels would not wait for the previous grid");
#endif
// Without the extended shapes the 112-wide wgmma type does not exist and this fails to compile.
static_assert(std::is_same_v<decltype(cute::SM90::GMMA::ss_op_selector<cutlass::bfloat16_t, cutlass::bfloat16_t, float,
                                                                       cute::Shape<cute::_64, cute::Int<112>, cute::_64>>()),
                             cute::SM90::GMMA::MMA_64x112x16_F32BF16BF16_SS<cute::GMMA::Major::K, cute::GMMA::Major::K>>,
              "a CUTLASS header came before wgmma_gemm.cuh: a 112-wide tile would run 64x16 wgmmas");

#include "gemm_params.hpp"
#include "kernel_config.hpp"

namespace autogemm::detail {

template <DataType T>
struct CutlassElement;
template <>
struct CutlassElement<DataType::kBF16> {
  using type = cutlass::bfloat16_t;
};
template <>
struct CutlassElement<DataType::kF16> {
  using type = cutlass::half_t;
};
template <>
struct CutlassElement<DataType::kF32> {
  using type = float;
};

// cuBLAS's column-major ops in CUTLASS's terms. A is M x K: op N stores it M-contiguous (CUTLASS
// ColumnMajor), op T K-contiguous (RowMajor). B is K x N: op N stores it K-contiguous (ColumnMajor),
// op T N-contiguous (RowMajor). C is M x N column-major, or row-major for an instance that runs
// the transposed problem (KernelConfig::c_row_major: the caller's C seen as Cᵀ, same memory).
template <Op op>
using CutlassLayout = std::conditional_t<op == Op::N, cutlass::layout::ColumnMajor, cutlass::layout::RowMajor>;

// A CuTe stride (x, y, batch) of one unit stride and one leading dimension: the non-static mode of
// the two gets `ld`, the batch mode `batch` (0: one matrix).
template <class Stride>
Stride stride_with_ld(int64_t ld, int64_t batch = 0) {
  Stride s{};
  if constexpr (cute::is_static_v<std::remove_cvref_t<decltype(cute::get<0>(s))>>)
    cute::get<1>(s) = ld;
  else
    cute::get<0>(s) = ld;
  cute::get<2>(s) = batch;
  return s;
}

// The 3xTF32 main loop: the builder's TF32 pieces in CUTLASS's FP8 main loop, whose consumers add
// each k-tile's tensor-core sums into a second set of FP32 accumulators (every
// mma_promotion_interval = BK / 8 wgmma instructions). The tensor cores sum a wgmma's products and
// its accumulator with truncation, so an FP32 accumulator that only the tensor cores add to drifts
// by about one ulp per instruction, in one direction; promoted, that drift is bounded by one k-tile
// and the k-tiles' sums round to nearest.
template <class Built>
using PromotedMainloop = cutlass::gemm::collective::CollectiveMma<
    cutlass::gemm::MainloopSm90TmaGmmaWarpSpecializedFP8<Built::DispatchPolicy::Stages,
                                                         typename Built::DispatchPolicy::ClusterShape,
                                                         typename Built::DispatchPolicy::Schedule>,
    typename Built::TileShape, typename Built::ElementA, typename Built::StrideA, typename Built::ElementB,
    typename Built::StrideB, typename Built::TiledMma, typename Built::GmemTiledCopyA,
    typename Built::SmemLayoutAtomA, typename Built::SmemCopyAtomA, typename Built::TransformA,
    typename Built::GmemTiledCopyB, typename Built::SmemLayoutAtomB, typename Built::SmemCopyAtomB,
    typename Built::TransformB>;

template <class Tag>
struct WgmmaGemm {
  static constexpr KernelConfig C = Tag::value;
  static_assert(invalid_reason(C) == nullptr, "invalid wgmma instance");
  using ElementAB = typename CutlassElement<C.types.a>::type;
  using ElementC = typename CutlassElement<C.types.c>::type;
  static constexpr int kAlignAB = 16 / sizeof(ElementAB);  // TMA moves 16-byte aligned rows
  static constexpr bool kPingpong = C.schedule == WgmmaSchedule::kPingpong;
  static constexpr bool kStreamK = C.schedule == WgmmaSchedule::kStreamK;
  // The split-K schedule's epilogue writes FP32 partial tiles; the reduction writes C.
  static constexpr bool kSplitK = C.schedule == WgmmaSchedule::kSplitK;
  using ElementOut = std::conditional_t<kSplitK, float, ElementC>;
  static constexpr int kAlignOut = 16 / sizeof(ElementOut);
  static constexpr bool kPromoted = C.types.compute == ComputeType::k3xTF32;

  using LayoutC = std::conditional_t<C.c_row_major, cutlass::layout::RowMajor, cutlass::layout::ColumnMajor>;

  using Tile = cute::Shape<cute::Int<C.bm>, cute::Int<C.bn>, cute::Int<C.bk>>;
  using Cluster = cute::Shape<cute::Int<C.cluster_m>, cute::Int<C.cluster_n>, cute::_1>;
  using MainloopSchedule = std::conditional_t<kPingpong, cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                                              cutlass::gemm::KernelTmaWarpSpecializedCooperative>;
  using EpilogueSchedule = std::conditional_t<kPingpong, cutlass::epilogue::TmaWarpSpecialized,
                                              cutlass::epilogue::TmaWarpSpecializedCooperative>;
  using Scheduler = std::conditional_t<kStreamK, cutlass::gemm::StreamKScheduler, cutlass::gemm::PersistentScheduler>;

  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementOut, LayoutC, kAlignOut,
      ElementOut, LayoutC, kAlignOut, EpilogueSchedule>::CollectiveOp;
  // Stages: as many as the shared memory left by the epilogue holds, or the instance's own count.
  using Stages = std::conditional_t<
      C.stages == 0,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
      cutlass::gemm::collective::StageCount<(C.stages > 0 ? C.stages : 2)>>;
  using BuiltMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementAB, CutlassLayout<C.op_a>, kAlignAB, ElementAB,
      CutlassLayout<C.op_b>, kAlignAB, float, Tile, Cluster, Stages, MainloopSchedule>::CollectiveOp;
  using Mainloop = std::conditional_t<kPromoted, PromotedMainloop<BuiltMainloop>, BuiltMainloop>;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop, Epilogue, Scheduler>;

  static typename Kernel::Arguments arguments(const GemmParams& p, int device, int sm_count) {
    typename Kernel::Arguments args{};
    args.mode = cutlass::gemm::GemmUniversalMode::kGemm;
    args.mainloop.ptr_A = static_cast<const ElementAB*>(p.a);
    args.mainloop.ptr_B = static_cast<const ElementAB*>(p.b);
    if constexpr (kSplitK) {
      // Batch s is K's [s * kps, (s + 1) * kps), kps = k_per_split (the family's geometry keeps it a
      // multiple of 8 that divides k): A and B start kps further along K, the partials one m x n
      // plane (leading dimension partial_ld(m)) further, written raw (alpha 1, beta 0, C unread).
      const int64_t kps = p.k_per_split, ldp = partial_ld(p.m);
      args.problem_shape = {p.m, p.n, p.k_per_split, p.splits};
      args.mainloop.dA = stride_with_ld<typename Kernel::StrideA>(p.lda, C.op_a == Op::N ? kps * p.lda : kps);
      args.mainloop.dB = stride_with_ld<typename Kernel::StrideB>(p.ldb, C.op_b == Op::N ? kps : kps * p.ldb);
      args.epilogue.thread.alpha = 1.0f;
      args.epilogue.thread.beta = 0.0f;
      args.epilogue.ptr_C = p.partials;
      args.epilogue.dC = stride_with_ld<typename Kernel::StrideC>(ldp, ldp * p.n);
      args.epilogue.ptr_D = p.partials;
      args.epilogue.dD = stride_with_ld<typename Kernel::StrideD>(ldp, ldp * p.n);
    } else {
      args.problem_shape = {p.m, p.n, p.k, 1};
      args.mainloop.dA = stride_with_ld<typename Kernel::StrideA>(p.lda);
      args.mainloop.dB = stride_with_ld<typename Kernel::StrideB>(p.ldb);
      // beta == 0 never loads C (the linear combination's source is not needed).
      args.epilogue.thread.alpha = p.alpha;
      args.epilogue.thread.beta = p.beta;
      args.epilogue.ptr_C = static_cast<const ElementC*>(p.c);
      args.epilogue.dC = stride_with_ld<typename Kernel::StrideC>(p.ldc);
      args.epilogue.ptr_D = static_cast<ElementC*>(p.c);
      args.epilogue.dD = stride_with_ld<typename Kernel::StrideD>(p.ldc);
    }
    args.hw_info.device_id = device;
    args.hw_info.sm_count = sm_count;
    args.scheduler.max_swizzle_size = C.swizzle;  // the raster order: CUTLASS's heuristic
    if constexpr (kStreamK) {
      // More than one split: plain split-K into partials; one: CUTLASS's stream-K heuristic.
      args.scheduler.splits = p.splits;
      if (p.splits > 1) args.scheduler.decomposition_mode = decltype(args.scheduler.decomposition_mode)::SplitK;
    }
    return args;
  }
};

/// The current device and its SM count, which a persistent grid is sized by (read once per device).
inline void current_device_sms(int& device, int& sm_count) {
  constexpr int kDevices = 64;
  static int counts[kDevices] = {};
  cudaGetDevice(&device);
  if (device < 0 || device >= kDevices) {
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
    return;
  }
  if (counts[device] == 0) cudaDeviceGetAttribute(&counts[device], cudaDevAttrMultiProcessorCount, device);
  sm_count = counts[device];
}

/// Workspace bytes of a launch of `Tag` on the current device (stream-K partials and locks; 0 for
/// the data-parallel forms).
template <class Tag>
size_t wgmma_workspace_bytes(const GemmParams& p) {
  using G = WgmmaGemm<Tag>;
  int device = 0, sm_count = 0;
  current_device_sms(device, sm_count);
  return G::Kernel::get_workspace_size(G::arguments(p, device, sm_count));
}

template <class Tag>
cudaError_t launch_wgmma_gemm(const GemmParams& p, cudaStream_t stream) {
  using G = WgmmaGemm<Tag>;
  using Kernel = typename G::Kernel;
  int device = 0, sm_count = 0;
  current_device_sms(device, sm_count);
  const typename Kernel::Arguments args = G::arguments(p, device, sm_count);
  if (!Kernel::can_implement(args)) return cudaErrorInvalidValue;
  // The split-K schedule's workspace is its partials; CUTLASS's data-parallel kernel needs none.
  if constexpr (G::kSplitK) {
    if (Kernel::get_workspace_size(args) != 0) return cudaErrorInvalidValue;
  }
  if (Kernel::initialize_workspace(args, p.partials, stream) != cutlass::Status::kSuccess) return cudaErrorInvalidValue;
  typename Kernel::Params params = Kernel::to_underlying_arguments(args, p.partials);
  // Shared memory past 48 KiB is opted into once per device, not at every call.
  static std::atomic<uint64_t> opted_in{0};
  const uint64_t bit = device < 64 ? uint64_t{1} << device : 0;
  if (bit == 0 || (opted_in.load(std::memory_order_relaxed) & bit) == 0) {
    if (cudaError_t e = cudaFuncSetAttribute(cutlass::device_kernel<Kernel>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, Kernel::SharedStorageSize);
        e != cudaSuccess)
      return e;
    opted_in.fetch_or(bit, std::memory_order_relaxed);
  }
  const cutlass::Status s =
      cutlass::gemm::device::GemmUniversalAdapter<Kernel>::run(params, stream, nullptr, p.after_previous_kernel);
  return s == cutlass::Status::kSuccess ? cudaGetLastError() : cudaErrorLaunchFailure;
}

}  // namespace autogemm::detail
