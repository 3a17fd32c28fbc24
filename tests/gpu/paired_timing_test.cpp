// The benchmark's paired timing on a GPU: the two launches' repetitions interleave, alternating which
// goes first, each timed one right after an untimed launch of the same side; each side gets as many
// as the other, and on a machine with NVML every repetition carries a clock sample read off the
// device.
#include <string>

#include "gpu_test.hpp"
#include "paired_timing.hpp"

namespace autogemm::testing {
namespace {

class PairedTimingTest : public GpuTest {};

TEST_F(PairedTimingTest, RepetitionsInterleaveAlternatingWhichSideGoesFirstEachAfterAnUntimedOwnLaunch) {
  int device = 0;
  ASSERT_CUDA(cudaGetDevice(&device));
  L2Flusher flusher(device);
  DeviceBuffer<float> x(1 << 20);
  ASSERT_NE(x.get(), nullptr);
  std::string order;
  auto side = [&](char name, int bytes_shift) {
    return [&, name, bytes_shift](cudaStream_t s) {
      order += name;
      ASSERT_CUDA(cudaMemsetAsync(x.get(), 0, (x.count() * sizeof(float)) >> bytes_shift, s));
    };
  };
  auto first = side('a', 0), second = side('b', 4);
  TimingOptions options;
  options.warmup = 0, options.min_reps = 4, options.max_reps = 4, options.budget_ms = 0;  // no untimed runs
  const NvmlDevice clocks(device);
  const PairedTiming t = time_interleaved(first, second, nullptr, flusher, &clocks, options);
  // Per round: an untimed and a timed launch of one side, then of the other.
  EXPECT_EQ(order, "aabbbbaaaabbbbaa");
  for (const PairedSide& s : t.side) {
    EXPECT_EQ(s.timing.reps, 4);
    ASSERT_EQ(s.us.size(), 4u);
    ASSERT_EQ(s.clocks.size(), 4u);
    for (double us : s.us) EXPECT_GT(us, 0.0);
    EXPECT_GE(s.timing.max_us, s.timing.median_us);
    EXPECT_LE(s.timing.min_us, s.timing.median_us);
  }
  // The 4 MB memset against a 256 KB one: the paired ratio says the second is the faster.
  EXPECT_LT(t.paired_ratio, 1.0);
  EXPECT_GT(t.paired_ratio, 0.0);
  if (!clocks.available()) GTEST_SKIP() << "no NVML here: " << clocks.unavailable_reason();
  for (const PairedSide& s : t.side) {
    for (const ClockSample& c : s.clocks) {
      EXPECT_TRUE(c.valid);
      EXPECT_GT(c.sm_mhz, 0u);
    }
    EXPECT_GT(s.sm_mhz_min, 0u);
  }
}

TEST_F(PairedTimingTest, StopsAtTheBudgetOnceBothSidesHaveTheirMinimum) {
  int device = 0;
  ASSERT_CUDA(cudaGetDevice(&device));
  L2Flusher flusher(device);
  auto nothing = [](cudaStream_t) {};
  TimingOptions options;
  options.warmup = 1, options.min_reps = 3, options.max_reps = 50, options.budget_ms = 0;
  const PairedTiming t = time_interleaved(nothing, nothing, nullptr, flusher, nullptr, options);
  EXPECT_EQ(t.side[0].timing.reps, 3);
  EXPECT_EQ(t.side[1].timing.reps, 3);
  // Without a monitor, every sample is unread and no repetition counts as slowed.
  EXPECT_FALSE(t.side[0].clocks.front().valid);
  EXPECT_EQ(t.side[0].slowed_reps, 0);
}

}  // namespace
}  // namespace autogemm::testing
