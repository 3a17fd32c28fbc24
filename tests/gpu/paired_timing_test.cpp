// The benchmark's paired timing on a GPU. Interleaved, the two launches' repetitions alternate,
// switching which goes first, each timed one right after an untimed launch of the same side; in
// blocks, each side's repetitions run together. With equal shares each side gets as many as the
// other, and on a machine with NVML every repetition carries a clock sample read off the device.
#include <string>
#include <vector>

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

// In blocks, each side's repetitions run together, the blocks in the order 0 1 1 0, each its share of
// the repetitions (and, with a settle time, after untimed launches of its own side).
TEST_F(PairedTimingTest, BlocksRunEachSidesRepetitionsTogetherInTheOrderZeroOneOneZero) {
  int device = 0;
  ASSERT_CUDA(cudaGetDevice(&device));
  L2Flusher flusher(device);
  std::string order;
  auto side = [&](char name) { return [&, name](cudaStream_t) { order += name; }; };
  auto first = side('a'), second = side('b');
  TimingOptions options;
  options.warmup = 0, options.min_reps = 4, options.max_reps = 4, options.budget_ms = 0;
  const PairedTiming t = time_in_blocks(first, second, nullptr, flusher, nullptr, options, 0.0, 2);
  EXPECT_EQ(order, "aabbbbaa");
  for (const PairedSide& s : t.side) {
    EXPECT_EQ(s.timing.reps, 4);
    ASSERT_EQ(s.clocks.size(), 4u);
  }
  // With a settle time each block starts with untimed launches of its own side: the runs of one
  // letter (a, then both b blocks, then a) are longer than the 2, 4 and 2 timed repetitions.
  order.clear();
  const PairedTiming settled = time_in_blocks(first, second, nullptr, flusher, nullptr, options, 5.0, 2);
  std::vector<size_t> runs;
  for (size_t i = 0; i < order.size(); ++i)
    if (i == 0 || order[i] != order[i - 1]) runs.push_back(1); else ++runs.back();
  ASSERT_EQ(runs.size(), 3u) << order;
  EXPECT_EQ(order.front(), 'a');
  EXPECT_GT(runs[0], 2u);
  EXPECT_GT(runs[1], 4u + 1u);  // two blocks of b, each after its own settling
  EXPECT_GT(runs[2], 2u);
  EXPECT_EQ(settled.side[1].timing.reps, 4);
}

}  // namespace
}  // namespace autogemm::testing
