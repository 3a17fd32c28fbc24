// Do the small BF16 problems wait on the kernel parameters' first reads? Under ncu (1000^3 BF16) the
// library's CUTLASS kernel takes 12% of its stall samples on immediate-constant misses against 6% for
// cuBLAS's, on uniform loads that every warp issues once in its prologue from a parameter block of 1792 bytes
// (to offset 0x904 of the constant bank; cuBLAS's kernels to 0x350). Here the same CUTLASS kernel body runs
// three ways: CUTLASS's own kernel and launch; our __global__ wrapper around the body (the launch alone); the
// wrapper with every warp first touching each 64-byte line of the parameters, the loads of a warp in flight
// together, so that the body's reads find them cached. The small problems of run_small_problems, `tn`, BF16
// in and out, FP32 accumulation, cuBLAS beside them; every form must write CUTLASS's launch's C bit for bit,
// and each C must match a float64 reference on sampled outputs. sm_90a, CUTLASS's headers
// (AUTOGEMM_CUTLASS_INCLUDE).
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "builder_gemm.cuh"
#include "bf16_tn_problem.cuh"

using namespace cute;

template <class TileT, bool kPingpong>
using Gemm = BuilderGemm<Bf16, cutlass::layout::RowMajor, 8, Bf16, 8, TileT, kPingpong>;

// CUTLASS's kernel body under our own __global__; with kPrefetch every warp first loads one word of
// each 64-byte line of the parameter block (lane l the lines l, l + 32, ...) and waits for them.
template <class Kernel, bool kPrefetch>
__global__ void __launch_bounds__(Kernel::MaxThreadsPerBlock, Kernel::MinBlocksPerMultiprocessor)
    wrapped_kernel(CUTLASS_GRID_CONSTANT typename Kernel::Params const params) {
  extern __shared__ char smem[];
  if constexpr (kPrefetch) {
    constexpr int kLines = static_cast<int>((sizeof(params) + 63) / 64);
    const auto* words = reinterpret_cast<const uint32_t*>(&params);
    uint32_t sink = 0;
    for (int line = static_cast<int>(threadIdx.x % 32); line < kLines; line += 32) sink ^= words[line * 16];
    asm volatile("" ::"r"(sink));
  }
  Kernel op;
  op(params, smem);
}

const char* const kForms[] = {"cutlass launch", "wrapper", "wrapper+prefetch"};

// A launch of the problem on G in form `form` (kForms); empty where CUTLASS refuses the problem.
template <class G>
std::function<void()> launch_form(int form, const Bf16TnProblem& p) {
  using K = typename G::Kernel;
  auto launch = cutlass_launch<G>(p);
  if (form == 0 || !launch) return launch;
  auto params = std::make_shared<typename K::Params>(K::to_underlying_arguments(p.arguments<K>(), nullptr));
  auto kernel = form == 1 ? wrapped_kernel<K, false> : wrapped_kernel<K, true>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, K::SharedStorageSize);
  return [params, kernel] {
    kernel<<<K::get_grid_shape(*params), K::get_block_shape(), K::SharedStorageSize>>>(*params);
  };
}

int main() {
  std::printf("parameter bytes: 64x16 ping %zu, 64x128 ping %zu, 128x64 coop %zu\n",
              sizeof(typename Gemm<Shape<_64, _16, _64>, true>::Kernel::Params),
              sizeof(typename Gemm<Shape<_64, _128, _64>, true>::Kernel::Params),
              sizeof(typename Gemm<Shape<_128, _64, _64>, false>::Kernel::Params));
  run_small_problems("form", kForms[0], [](const Bf16TnProblem& p, std::vector<Variant>& variants) {
    auto add = [&](const char* tile, auto gemm) {
      for (int f = 0; f < 3; ++f)
        if (auto launch = launch_form<decltype(gemm)>(f, p))
          variants.push_back({tile, kForms[f], std::move(launch), {}, {}});
    };
    add("64x16 ping", Gemm<Shape<_64, _16, _64>, true>{});
    add("64x128 ping", Gemm<Shape<_64, _128, _64>, true>{});
    add("128x64 coop", Gemm<Shape<_128, _64, _64>, false>{});
  });
  return 0;
}
