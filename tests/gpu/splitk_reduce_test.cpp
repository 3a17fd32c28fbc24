// The split-k reduction on its own: C = alpha * (the splits' partials added in split order, or in the
// groups of splitk_reduce_warps for small outputs of many splits) + beta * C, bit for bit against the
// same float additions on the host (the order every split-k result's bits depend on), for small
// outputs of many splits and outputs larger than the device's resident threads, with C's padding
// rows left untouched.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <cuda_bf16.h>

#include "gpu_test.hpp"
#include "gemm_params.hpp"
#include "splitk_reduce.hpp"

namespace autogemm::testing {
namespace {

struct ReduceCase {
  int m, n, splits;
  float alpha, beta;
  int ldc_pad = 3;  // ldc = m + pad: 3 gives 16-byte aligned columns for the m = 1 (mod 4) below, 2 and 6 odd ldc
};

// Output (i, j)'s sum in the reduction's order: groups of `per` consecutive splits, each summed in
// order, then the groups' sums in order (one group of all splits where the reduction takes one warp
// per output: splitk_reduce_warps).
float host_sum(const std::vector<float>& partials, const ReduceCase& cs, int sms, int64_t i, int64_t j) {
  const int64_t ldp = partial_ld(cs.m);
  const int warps = splitk_reduce_warps(cs.m, cs.n, cs.splits, sms), per = (cs.splits + warps - 1) / warps;
  float sum = 0.0f;
  for (int w = 0; w < warps; ++w) {
    float group = 0.0f;
    for (int s = w * per; s < std::min(cs.splits, (w + 1) * per); ++s) group += partials[size_t((s * cs.n + j) * ldp + i)];
    sum = w == 0 ? group : sum + group;
  }
  return sum;
}

class SplitkReduceTest : public GpuTest {
 protected:
  void check(const ReduceCase& cs, uint32_t seed, int sms) {
    SCOPED_TRACE(::testing::Message() << "m=" << cs.m << " n=" << cs.n << " splits=" << cs.splits
                                      << " beta=" << cs.beta << " ldc=m+" << cs.ldc_pad);
    // Partials are column-major with leading dimension partial_ld(m): m rounded up to 4, the rows
    // past m never read (NaN here, so a read would show).
    const int64_t total = int64_t{cs.m} * cs.n, ldc = cs.m + cs.ldc_pad, ldp = partial_ld(cs.m);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> partials(size_t(ldp * cs.n) * cs.splits), c(size_t(ldc) * cs.n);
    for (size_t e = 0; e < partials.size(); ++e) partials[e] = int64_t(e) % ldp < cs.m ? uniform(rng) : std::nanf("");
    // beta = 0 must not read C: NaN there would show in the result. Padding rows: NaN either way.
    for (int64_t j = 0; j < cs.n; ++j)
      for (int64_t i = 0; i < ldc; ++i) c[j * ldc + i] = i < cs.m && cs.beta != 0.0f ? uniform(rng) : std::nanf("");

    DeviceBuffer<float> d_partials(partials.size()), d_c(c.size());
    ASSERT_CUDA(cudaMemcpy(d_partials.get(), partials.data(), partials.size() * sizeof(float), cudaMemcpyHostToDevice));
    ASSERT_CUDA(cudaMemcpy(d_c.get(), c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice));
    ASSERT_CUDA(launch_splitk_reduce(d_partials.get(), cs.splits, cs.m, cs.n, cs.alpha, cs.beta, d_c.get(), ldc, nullptr));
    std::vector<float> out(c.size());
    ASSERT_CUDA(cudaMemcpy(out.data(), d_c.get(), out.size() * sizeof(float), cudaMemcpyDeviceToHost));

    int64_t wrong = 0, padding_written = 0;
    for (int64_t j = 0; j < cs.n; ++j) {
      for (int64_t i = 0; i < cs.m; ++i) {
        const float sum = host_sum(partials, cs, sms, i, j);
        const float got = out[j * ldc + i];
        if (cs.beta == 0.0f) {
          wrong += got != cs.alpha * sum;  // the same float operations: the same bits
        } else {
          // alpha * sum + beta * C may be contracted into an FMA on the device.
          const float want = cs.alpha * sum + cs.beta * c[j * ldc + i];
          wrong += !(std::fabs(got - want) <= 1e-6f * (std::fabs(want) + 1.0f));
        }
      }
      for (int64_t i = cs.m; i < ldc; ++i) padding_written += !std::isnan(out[j * ldc + i]);
    }
    EXPECT_EQ(wrong, 0) << "of " << total << " outputs";
    EXPECT_EQ(padding_written, 0) << "elements of C's padding rows were written";
  }
};

TEST_F(SplitkReduceTest, SumsSplitsInOrderAndLeavesPaddingAlone) {
  int device = 0, sms = 0, threads_per_sm = 0;
  ASSERT_CUDA(cudaGetDevice(&device));
  ASSERT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  ASSERT_CUDA(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  // Outputs of one thread each that the device cannot hold at once: blocks in more than one round.
  const int64_t round = int64_t{sms} * threads_per_sm;
  const int wide = static_cast<int>(round * 2 / 1001) + 3;       // a bit over two rounds
  const int middle = static_cast<int>(round * 3 / 2 / 997) + 1;  // one and a half
  const std::vector<ReduceCase> cases = {
      {133, 71, 64, 1.0f, 0.0f},      // small output, many splits: warps share each output's splits
      {128, 128, 17, 0.5f, -0.75f},   // the same with beta, groups of 5, 5, 5 and 2 splits
      {61, 45, 15, 1.0f, 0.0f},       // small output, too few splits to share: one thread per output
      {128, 33, 4, 1.0f, 0.0f},       // m a multiple of 4: no padding rows in the partials
      {133, 71, 3, 0.5f, -0.75f},     // beta reads C
      {1001, wide, 4, 1.0f, 0.0f},    // more outputs than resident threads
      {997, middle, 3, -1.5f, 0.0f},  // odd m, a partial last block
      {997, middle, 5, 1.0f, 0.25f},
      {1001, wide, 4, 1.0f, 0.0f, 2},   // C's columns not 16-byte aligned
      {997, middle, 3, 0.5f, -0.75f, 6},
      {127, 301, 8, 1.0f, 0.0f, 0},  // odd ldc = m with 8 splits (127x3001x1531's), and 11: a remainder
      {127, 301, 11, 1.0f, 0.5f, 0},
  };
  // Which cases take the split-sharing form: on a device of more than 64 SMs (one thread per output
  // would give 37 and 64 blocks), the first two above; never below 16 splits.
  if (sms > 64) {
    ASSERT_EQ(splitk_reduce_warps(133, 71, 64, sms), kReduceSplitWarps);
    ASSERT_EQ(splitk_reduce_warps(128, 128, 17, sms), kReduceSplitWarps);
  }
  ASSERT_EQ(splitk_reduce_warps(61, 45, 15, sms), 1);
  ASSERT_EQ(splitk_reduce_warps(1001, wide, 64, sms), 1);  // enough outputs for every SM
  uint32_t seed = 7;
  for (const ReduceCase& cs : cases) {
    check(cs, ++seed, sms);
    if (HasFatalFailure()) return;
  }
}

// C of a 16-bit type (the wgmma split-K schedule's reduction): the same FP32 sums in the same order,
// rounded once to C's type, bit for bit; C's padding rows untouched.
TEST_F(SplitkReduceTest, RoundsTheSumOnceToA16BitC) {
  int device = 0, sms = 0;
  ASSERT_CUDA(cudaGetDevice(&device));
  ASSERT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  for (const ReduceCase cs : {ReduceCase{133, 71, 64, 1.0f, 0.0f}, ReduceCase{128, 96, 3, 0.5f, 0.0f},
                              ReduceCase{61, 45, 5, 1.0f, 0.0f, 2}}) {
    SCOPED_TRACE(::testing::Message() << "m=" << cs.m << " n=" << cs.n << " splits=" << cs.splits);
    const int64_t ldc = cs.m + cs.ldc_pad, ldp = partial_ld(cs.m);
    std::mt19937 rng(cs.m * 7 + cs.splits);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> partials(size_t(ldp * cs.n) * cs.splits);
    for (float& v : partials) v = uniform(rng);
    const __nv_bfloat16 poison = __ushort_as_bfloat16(0x7fff);  // NaN
    std::vector<__nv_bfloat16> c(size_t(ldc) * cs.n, poison);
    DeviceBuffer<float> d_partials(partials.size());
    DeviceBuffer<__nv_bfloat16> d_c(c.size());
    ASSERT_CUDA(cudaMemcpy(d_partials.get(), partials.data(), partials.size() * sizeof(float), cudaMemcpyHostToDevice));
    ASSERT_CUDA(cudaMemcpy(d_c.get(), c.data(), c.size() * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
    ASSERT_CUDA(launch_splitk_reduce(DataType::kBF16, d_partials.get(), cs.splits, cs.m, cs.n, cs.alpha, cs.beta,
                                     d_c.get(), ldc, nullptr));
    ASSERT_CUDA(cudaMemcpy(c.data(), d_c.get(), c.size() * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));
    int64_t wrong = 0, padding_written = 0;
    for (int64_t j = 0; j < cs.n; ++j) {
      for (int64_t i = 0; i < cs.m; ++i) {
        const float sum = host_sum(partials, cs, sms, i, j);
        wrong += __bfloat16_as_ushort(c[j * ldc + i]) != __bfloat16_as_ushort(__float2bfloat16(cs.alpha * sum));
      }
      for (int64_t i = cs.m; i < ldc; ++i) padding_written += __bfloat16_as_ushort(c[j * ldc + i]) != 0x7fff;
    }
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(padding_written, 0);
  }
}

}  // namespace
}  // namespace autogemm::testing
