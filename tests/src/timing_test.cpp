// The quick pass's steadiness rule, on quick measurements an H100 tuning database holds.
#include <gtest/gtest.h>

#include "timing.hpp"

namespace autogemm {
namespace {

TimingResult quick(double min_us, double median_us, double max_us) {
  TimingResult t;
  t.min_us = min_us, t.median_us = median_us, t.max_us = max_us, t.reps = 5;
  return t;
}

TEST(Timing, UnsteadyWhenRepetitionsDisagreeByMoreThanAFifthOfTheMedian) {
  // `tt` 3001x127x1531, the sliced 64x64 tile with 4 splits: 46.4 us when fully timed.
  EXPECT_TRUE(unsteady(quick(51.392, 54.176, 77.920)));
  // Ordinary quick measurements of the same problem: 0.4-3 us of spread around ~50 us.
  EXPECT_FALSE(unsteady(quick(48.8, 49.4, 50.1)));
  EXPECT_FALSE(unsteady(quick(49.4, 50.3, 52.4)));
  // The rule's edge, and another tolerance.
  EXPECT_FALSE(unsteady(quick(100.0, 100.0, 120.0)));
  EXPECT_TRUE(unsteady(quick(100.0, 100.0, 120.1)));
  EXPECT_TRUE(unsteady(quick(100.0, 100.0, 111.0), 0.1));
}

}  // namespace
}  // namespace autogemm
