// TF32 on CUTLASS's collective builder: `tn` (both operands K-major in shared memory) against `nn`
// (A M-major, which the builder serves with its register-A main loop), cold L2 (a 256 MiB memset
// before each run), zero data, K cut into equal batches as the split-K schedule runs it (FP32
// partials, no reduction). The measured reason the TF32 register-A instances exist for narrow
// outputs and the large `nn` problems run on K-major copies (docs/decisions.md, "TF32 and 3xTF32
// operands: K-major copies, and A in registers"). sm_90a, CUTLASS's headers, a build with NDEBUG
// (CUTLASS's device asserts are calls that serialize the wgmma pipeline).
// wgmma_gemm.cuh (for stride_with_ld) comes before every other CUTLASS header: it sets the macro
// under which CUTLASS's kernels wait for the previous grid, and checks that it came first.
#include "wgmma_gemm.cuh"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "builder_gemm.cuh"

using namespace cute;

// FP32 operands (TF32 arithmetic) and output, aligned 4, B K-major.
template <class LayoutA, class TileT, bool kPingpong>
using Gemm = BuilderGemm<float, LayoutA, 4, float, 4, TileT, kPingpong>;

char* g_flush = nullptr;
constexpr size_t kFlushBytes = size_t{256} << 20;

// Median of 15 cold-L2 runs of C (m x n, column-major) = A B over `splits` batches of K.
template <class G, bool kAKMajor>
void time_it(int m, int n, int k, int splits, const float* a, const float* b, float* c, const char* what) {
  using K = typename G::Kernel;
  const int kps = k / splits;
  const int64_t lda = kAKMajor ? k : m;
  typename K::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm,
      {m, n, kps, splits},
      {a, autogemm::detail::stride_with_ld<typename K::StrideA>(lda, kAKMajor ? kps : int64_t{kps} * lda), b,
       autogemm::detail::stride_with_ld<typename K::StrideB>(k, kps)},
      {{1.0f, 0.0f},
       c,
       autogemm::detail::stride_with_ld<typename K::StrideC>(m, int64_t{m} * n),
       c,
       autogemm::detail::stride_with_ld<typename K::StrideD>(m, int64_t{m} * n)}};
  typename G::Op op;
  if (op.can_implement(args) != cutlass::Status::kSuccess || op.initialize(args, nullptr) != cutlass::Status::kSuccess) {
    std::printf("%s: cannot run\n", what);
    return;
  }
  for (int i = 0; i < 3; ++i) op.run();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> us;
  for (int i = 0; i < 15; ++i) {
    cudaMemsetAsync(g_flush, i, kFlushBytes);
    cudaEventRecord(start);
    op.run();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    us.push_back(ms * 1000);
  }
  std::sort(us.begin(), us.end());
  std::printf("%5dx%5dx%5d splits %2d  %-22s %8.1f us  %s\n", m, n, k, splits, what, us[7],
              cudaGetErrorString(cudaGetLastError()));
}

int main() {
  const size_t elements = size_t{4096} * 4096 * 8;
  float *a, *b, *c;
  cudaMalloc(&g_flush, kFlushBytes);
  cudaMalloc(&a, elements * 4);
  cudaMalloc(&b, elements * 4);
  cudaMalloc(&c, elements * 4);
  cudaMemset(a, 0, elements * 4);
  cudaMemset(b, 0, elements * 4);
  using R = cutlass::layout::RowMajor;     // A K-major: `tn`
  using C = cutlass::layout::ColumnMajor;  // A M-major: `nn`, register-A
  struct Problem {
    int m, n, k;
    std::vector<int> splits;
  };
  const Problem problems[] = {{3072, 128, 3072, {1, 2, 4}}, {3072, 256, 3072, {1, 2}}, {3072, 512, 3072, {1, 2}},
                              {1000, 1000, 1000, {1}},      {256, 256, 8192, {4, 8, 16}}, {128, 128, 32768, {16, 32, 64}},
                              {3072, 3072, 3072, {1}},      {4096, 4096, 4096, {1}}};
  for (const Problem& p : problems)
    for (int s : p.splits) {
      time_it<Gemm<R, Shape<_128, _128, _32>, false>, true>(p.m, p.n, p.k, s, a, b, c, "tn 128x128 coop");
      time_it<Gemm<C, Shape<_128, _128, _32>, false>, false>(p.m, p.n, p.k, s, a, b, c, "nn 128x128 coop (RS)");
      time_it<Gemm<R, Shape<_128, _64, _32>, false>, true>(p.m, p.n, p.k, s, a, b, c, "tn 128x64 coop");
      time_it<Gemm<C, Shape<_128, _64, _32>, false>, false>(p.m, p.n, p.k, s, a, b, c, "nn 128x64 coop (RS)");
      time_it<Gemm<C, Shape<_64, _128, _32>, true>, false>(p.m, p.n, p.k, s, a, b, c, "nn 64x128 ping (RS)");
    }
  return 0;
}
