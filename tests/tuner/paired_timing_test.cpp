// The paired timing's statistics and the clock sample's slowdown rule, on numbers shaped like the
// H100's (4096^3: ~2520 us unslowed, ~2600 under the software power cap).
#include <gtest/gtest.h>

#include "paired_timing.hpp"

namespace autogemm {
namespace {

ClockSample sample(unsigned mhz, std::uint64_t reasons) {
  ClockSample c;
  c.valid = true, c.sm_mhz = mhz, c.power_mw = 600000, c.reasons = reasons;
  return c;
}

TEST(ClockSample, OnlyReasonsThatLowerTheClockCountAsSlowed) {
  EXPECT_TRUE(sample(1755, 0x4).slowed());     // software power cap
  EXPECT_TRUE(sample(1500, 0x40).slowed());    // hardware thermal slowdown
  EXPECT_FALSE(sample(1980, 0x0).slowed());
  EXPECT_FALSE(sample(345, 0x1).slowed());     // idle
  EXPECT_FALSE(sample(1980, 0x2 | 0x10 | 0x100).slowed());  // application clocks, sync boost, display
  ClockSample unread;
  unread.reasons = 0x4;
  EXPECT_FALSE(unread.slowed());  // a sample NVML did not give says nothing
}

TEST(ClockSample, NamesTheSlowdownBits) {
  EXPECT_EQ(slowdown_reason_names(0x4), "sw_power_cap");
  EXPECT_EQ(slowdown_reason_names(0x1 | 0x4 | 0x80), "sw_power_cap|hw_power_brake");
  EXPECT_EQ(slowdown_reason_names(0x1), "");
}

TEST(PairedTiming, SummaryKeepsTheSlowedRepetitionsApart) {
  PairedSide side;
  side.us = {2520, 2610, 2522, 2605, 2519};
  side.clocks = {sample(1980, 0), sample(1755, 0x4), sample(1980, 0), sample(1770, 0x4), ClockSample{}};
  summarize(side);
  EXPECT_EQ(side.timing.reps, 5);
  EXPECT_DOUBLE_EQ(side.timing.median_us, 2522);
  EXPECT_DOUBLE_EQ(side.timing.min_us, 2519);
  EXPECT_DOUBLE_EQ(side.timing.max_us, 2610);
  EXPECT_EQ(side.slowed_reps, 2);
  EXPECT_DOUBLE_EQ(side.unslowed_median_us, 2520);  // 2519, 2520, 2522: the unread sample counts as unslowed
  EXPECT_EQ(side.sm_mhz_min, 1755u);
  EXPECT_EQ(side.sm_mhz_max, 1980u);
}

TEST(PairedTiming, EverySlowedLeavesNoUnslowedMedian) {
  PairedSide side;
  side.us = {2600, 2610};
  side.clocks = {sample(1755, 0x4), sample(1760, 0x4)};
  summarize(side);
  EXPECT_EQ(side.slowed_reps, 2);
  EXPECT_DOUBLE_EQ(side.unslowed_median_us, 0);
}

TEST(PairedTiming, RatioIsTheMedianOfEachRoundsRatio) {
  // Round 2 is slowed for both: its ratio stays near the others although both times moved.
  const std::vector<double> ours = {100, 104, 101, 100};
  const std::vector<double> theirs = {110, 114.4, 111.1, 130};
  EXPECT_NEAR(paired_ratio(ours, theirs), 1.1, 1e-9);
  // Only rounds both sides ran count.
  EXPECT_NEAR(paired_ratio({100, 100, 50}, {120, 120}), 1.2, 1e-9);
  EXPECT_DOUBLE_EQ(paired_ratio({}, {}), 0);
}

TEST(PairedTiming, DisturbedWhenAMedianLeavesItsFloor) {
  PairedTiming t;
  t.side[0].us = {100, 101, 103, 102, 100};
  t.side[1].us = {110, 111, 112, 111, 110};
  for (PairedSide& side : t.side) summarize(side);
  EXPECT_FALSE(disturbed(t));
  // Shaped like the H100's transient: one side's repetitions start at 5-9x the floor and decay.
  t.side[1].us = {121, 100, 90, 37, 35, 24, 26, 13, 13, 13, 13};
  summarize(t.side[1]);
  EXPECT_TRUE(disturbed(t));
  EXPECT_FALSE(disturbed(t, 3.0));  // the threshold is the caller's
  PairedTiming empty;
  EXPECT_FALSE(disturbed(empty));
}

// Blocks alternate 0 1 1 0 0 1 1 0: a clock that drifts linearly over the timing gives each side the
// same mean time past its start, so neither is timed in a later state than the other.
TEST(PairedTiming, BlocksAlternateSoThatALinearDriftFallsOnBothAlike) {
  EXPECT_EQ(block_order(4), (std::vector<int>{0, 1, 1, 0, 0, 1, 1, 0}));
  EXPECT_EQ(block_order(1), (std::vector<int>{0, 1}));
  const std::vector<int> order = block_order(4);
  double mean_position[2] = {0, 0};
  for (size_t i = 0; i < order.size(); ++i) mean_position[order[i]] += static_cast<double>(i) / 4;
  EXPECT_DOUBLE_EQ(mean_position[0], mean_position[1]);
  EXPECT_TRUE(block_order(0).empty());
}

}  // namespace
}  // namespace autogemm
