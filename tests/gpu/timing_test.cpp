// The timing's warm-up on a GPU: TimingOptions::warmup_ms keeps launching, untimed, for at least
// that long before the timed repetitions (the H100 leaves its software power cap within ~500 ms of
// steady launches), and none of those launches is counted as a repetition.
#include <chrono>

#include "gpu_test.hpp"
#include "timing.hpp"

namespace autogemm::testing {
namespace {

class TimingTest : public GpuTest {};

TEST_F(TimingTest, WarmupMsRunsTheLaunchUntimedForAtLeastThatLong) {
  int device = 0;
  ASSERT_CUDA(cudaGetDevice(&device));
  L2Flusher flusher(device);
  DeviceBuffer<float> x(1 << 10);
  ASSERT_NE(x.get(), nullptr);
  int launches = 0;
  auto launch = [&](cudaStream_t s) {
    ++launches;
    ASSERT_CUDA(cudaMemsetAsync(x.get(), 0, x.count() * sizeof(float), s));
  };
  TimingOptions options;
  options.warmup = 3, options.min_reps = 5, options.max_reps = 5;
  options.warmup_ms = 100.0;
  const auto start = std::chrono::steady_clock::now();
  const TimingResult t = time_on_gpu(launch, nullptr, flusher, options);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(t.reps, 5);
  EXPECT_GE(ms, 100.0);
  // The three counted warm-ups, at least one settling launch, and the five timed repetitions.
  EXPECT_GT(launches, 3 + 5);

  // Without it, only the warm-ups and the repetitions run.
  launches = 0;
  options.warmup_ms = 0.0;
  EXPECT_EQ(time_on_gpu(launch, nullptr, flusher, options).reps, 5);
  EXPECT_EQ(launches, 3 + 5);
}

}  // namespace
}  // namespace autogemm::testing
