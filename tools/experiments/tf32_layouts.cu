// TF32 4096^3 on CUTLASS's collective builder in `tn` (both operands K-major in shared memory) against
// `nn` (A M-major, which the builder serves with its register-A main loop), warm L2, zero data: the
// measured reason the TF32 instances are `tn` only and read copies of other layouts
// (docs/decisions.md, "TF32 and 3xTF32 kernels read K-major copies"). sm_90a, CUTLASS's headers.
#include <cstdio>
#include <vector>
#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "wgmma_gemm.cuh"  // stride_with_ld
#include <algorithm>
using namespace cute;
template <class LA, class LB, class TileT>
struct G {
  using Tile = TileT;
  using Cluster = Shape<_1, _1, _1>;
  using Epi = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster, cutlass::epilogue::collective::EpilogueTileAuto,
      float, float, float, cutlass::layout::ColumnMajor, 4, float, cutlass::layout::ColumnMajor, 4,
      cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;
  using ML = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, float, LA, 4, float, LB, 4, float, Tile, Cluster,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epi::SharedStorage))>,
      cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;
  using K = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, ML, Epi>;
  using Op = cutlass::gemm::device::GemmUniversalAdapter<K>;
};
template <class Gm>
float time_it(int n, const float* a, const float* b, float* c, const char* what) {
  typename Gm::Op op;
  typename Gm::K::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm, {n, n, n, 1},
      {a, autogemm::detail::stride_with_ld<typename Gm::K::StrideA>(n),
       b, autogemm::detail::stride_with_ld<typename Gm::K::StrideB>(n)},
      {{1.0f, 0.0f}, c, autogemm::detail::stride_with_ld<typename Gm::K::StrideC>(n),
       c, autogemm::detail::stride_with_ld<typename Gm::K::StrideD>(n)}};
  if (op.can_implement(args) != cutlass::Status::kSuccess) { printf("%s: cannot implement\n", what); return -1; }
  if (op.initialize(args, nullptr) != cutlass::Status::kSuccess) { printf("%s: init failed\n", what); return -1; }
  for (int i = 0; i < 3; ++i) op.run();
  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
  std::vector<float> t;
  for (int i = 0; i < 20; ++i) { cudaEventRecord(s); op.run(); cudaEventRecord(e); cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, s, e); t.push_back(ms * 1000); }
  std::sort(t.begin(), t.end());
  printf("%-40s %8.1f us (median of 20, warm L2) %s\n", what, t[10], cudaGetErrorString(cudaGetLastError()));
  return t[10];
}
int main() {
  const int n = 4096;
  float *a, *b, *c;
  cudaMalloc(&a, sizeof(float) * n * n); cudaMalloc(&b, sizeof(float) * n * n); cudaMalloc(&c, sizeof(float) * n * n);
  cudaMemset(a, 0, sizeof(float) * n * n); cudaMemset(b, 0, sizeof(float) * n * n);
  using R = cutlass::layout::RowMajor; using C = cutlass::layout::ColumnMajor;
  time_it<G<R, C, Shape<_128, _256, _32>>>(n, a, b, c, "tn 128x256 SS (K-major both)");
  time_it<G<C, C, Shape<_128, _256, _32>>>(n, a, b, c, "nn 128x256 RS (A M-major)");
  time_it<G<R, C, Shape<_128, _128, _32>>>(n, a, b, c, "tn 128x128 SS");
  time_it<G<C, C, Shape<_128, _128, _32>>>(n, a, b, c, "nn 128x128 RS");
  return 0;
}
