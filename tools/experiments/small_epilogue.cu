// Does the epilogue's trip through shared memory and TMA cost the small BF16 problems their time?
// cuBLAS runs 256^3 BF16 in 5.3 us against the library's 6.0 on its best tile (64x16 ping-pong), and
// ncu, caches flushed or not, puts the difference inside the blocks (1200 more cycles on the busiest
// SM), not in the data's trips. Here each tile runs twice, the epilogue writing C through shared
// memory with TMA stores (the library's) or straight from registers (CUTLASS's
// NoSmemWarpSpecialized), on the small problems of the seed and perf sets (run_small_problems),
// `tn`, BF16 in and out, FP32 accumulation, cuBLAS's cublasGemmEx in the same process beside them.
// Both epilogues of a tile must write the same C bit for bit, and each C must match a float64
// reference on sampled outputs. sm_90a, CUTLASS's headers (AUTOGEMM_CUTLASS_INCLUDE).
#include <functional>
#include <vector>

#include "builder_gemm.cuh"
#include "bf16_tn_problem.cuh"

using namespace cute;

template <class TileT, bool kPingpong, bool kDirect>
using Gemm = BuilderGemm<Bf16, cutlass::layout::RowMajor, 8, Bf16, 8, TileT, kPingpong, kDirect>;

int main() {
  run_small_problems("epilogue", "tma", [](const Bf16TnProblem& p, std::vector<Variant>& variants) {
    auto add = [&](const char* tile, const char* form, std::function<void()> launch) {
      if (launch) variants.push_back({tile, form, std::move(launch), {}, {}});
    };
    add("64x16 ping", "tma", cutlass_launch<Gemm<Shape<_64, _16, _64>, true, false>>(p));
    add("64x16 ping", "direct", cutlass_launch<Gemm<Shape<_64, _16, _64>, true, true>>(p));
    add("64x32 ping", "tma", cutlass_launch<Gemm<Shape<_64, _32, _64>, true, false>>(p));
    add("64x32 ping", "direct", cutlass_launch<Gemm<Shape<_64, _32, _64>, true, true>>(p));
    add("64x128 ping", "tma", cutlass_launch<Gemm<Shape<_64, _128, _64>, true, false>>(p));
    add("64x128 ping", "direct", cutlass_launch<Gemm<Shape<_64, _128, _64>, true, true>>(p));
    add("128x64 coop", "tma", cutlass_launch<Gemm<Shape<_128, _64, _64>, false, false>>(p));
    add("128x64 coop", "direct", cutlass_launch<Gemm<Shape<_128, _64, _64>, false, true>>(p));
  });
  return 0;
}
