// See paired_timing.hpp.
#include "paired_timing.hpp"

#include <algorithm>
#include <chrono>

#include "status.hpp"

namespace autogemm {

void summarize(PairedSide& side) {
  side.timing = summarize_times(side.us);
  std::vector<double> unslowed;
  side.slowed_reps = 0;
  side.sm_mhz_min = side.sm_mhz_max = 0;
  for (size_t i = 0; i < side.us.size(); ++i) {
    const ClockSample* c = i < side.clocks.size() ? &side.clocks[i] : nullptr;
    if (c != nullptr && c->slowed()) {
      ++side.slowed_reps;
    } else {
      unslowed.push_back(side.us[i]);
    }
    if (c != nullptr && c->valid) {
      side.sm_mhz_min = side.sm_mhz_min == 0 ? c->sm_mhz : std::min(side.sm_mhz_min, c->sm_mhz);
      side.sm_mhz_max = std::max(side.sm_mhz_max, c->sm_mhz);
    }
  }
  side.unslowed_median_us = median(unslowed);
}

double paired_ratio(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> ratios;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] > 0) ratios.push_back(b[i] / a[i]);
  return median(ratios);
}

bool disturbed(const PairedTiming& t, double ratio) {
  for (const PairedSide& side : t.side)
    if (side.timing.reps > 0 && side.timing.median_us > ratio * side.timing.min_us) return true;
  return false;
}

std::vector<int> block_order(int blocks_per_side) {
  std::vector<int> order;
  for (int b = 0; b < blocks_per_side; ++b) {
    const int first = b % 2;  // 0 1, 1 0, 0 1, ...
    order.push_back(first);
    order.push_back(1 - first);
  }
  return order;
}

namespace {

/// The warm-up runs both paired timings share: options.warmup flushed runs of each, then
/// options.warmup_ms of untimed runs of both in turn.
void warm_up_pair(const std::function<void(cudaStream_t)>& first, const std::function<void(cudaStream_t)>& second,
                  cudaStream_t stream, L2Flusher& flusher, const TimingOptions& options) {
  for (int i = 0; i < options.warmup; ++i)
    for (const auto* launch : {&first, &second}) {
      if (options.flush_l2) flusher.flush(stream);
      (*launch)(stream);
    }
  AUTOGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (options.warmup_ms > 0) {
    auto both = [&](cudaStream_t s) {
      first(s);
      second(s);
    };
    run_untimed_for(both, stream, flusher, options.warmup_ms);
  }
}

/// One flushed, event-timed repetition of `launch` for `side`, with the clock sample read right
/// after it; returns its time in ms.
double time_repetition(EventTimer& timer, const std::function<void(cudaStream_t)>& launch, cudaStream_t stream,
                       L2Flusher& flusher, const NvmlDevice* clocks, const TimingOptions& options,
                       PairedSide& side) {
  const double us = timer.time_us(launch, stream, options.flush_l2 ? &flusher : nullptr);
  side.us.push_back(us);
  side.clocks.push_back(clocks != nullptr ? clocks->sample() : ClockSample{});
  return us / 1000.0;
}

/// Both sides' statistics and the paired ratio, once their repetitions are in.
void summarize_pair(PairedTiming& result) {
  for (PairedSide& side : result.side) summarize(side);
  result.paired_ratio = paired_ratio(result.side[0].us, result.side[1].us);
}

}  // namespace

PairedTiming time_interleaved(const std::function<void(cudaStream_t)>& first,
                              const std::function<void(cudaStream_t)>& second, cudaStream_t stream,
                              L2Flusher& flusher, const NvmlDevice* clocks, const TimingOptions& options) {
  const std::function<void(cudaStream_t)>* launches[2] = {&first, &second};
  warm_up_pair(first, second, stream, flusher, options);

  PairedTiming result;
  EventTimer timer;
  double spent_ms[2] = {0, 0};
  for (int round = 0; round < options.max_reps; ++round) {
    if (round >= options.min_reps && spent_ms[0] >= options.budget_ms && spent_ms[1] >= options.budget_ms) break;
    for (int j = 0; j < 2; ++j) {
      const int which = round % 2 == 0 ? j : 1 - j;  // alternate which side goes first
      PairedSide& side = result.side[which];
      // An untimed launch of the same side first, so that each timed repetition finds the state its
      // own last launch left (its code and constants in the SMs' caches), as in time_on_gpu and the
      // tuner: right after the other library's kernel, 1000^3 on a TMA instance runs 6-8% slower.
      if (options.flush_l2) flusher.flush(stream);
      (*launches[which])(stream);
      spent_ms[which] += time_repetition(timer, *launches[which], stream, flusher, clocks, options, side);
    }
  }
  summarize_pair(result);
  return result;
}

PairedTiming time_in_blocks(const std::function<void(cudaStream_t)>& first,
                            const std::function<void(cudaStream_t)>& second, cudaStream_t stream,
                            L2Flusher& flusher, const NvmlDevice* clocks, const TimingOptions& options,
                            double settle_ms, int blocks_per_side) {
  const std::function<void(cudaStream_t)>* launches[2] = {&first, &second};
  warm_up_pair(first, second, stream, flusher, options);
  blocks_per_side = std::max(1, blocks_per_side);
  // A block's share of the repetitions: max_reps wins over min_reps, as in time_interleaved.
  const int max_reps = std::max(1, options.max_reps / blocks_per_side);
  const int min_reps = std::min(max_reps, (options.min_reps + blocks_per_side - 1) / blocks_per_side);
  const double budget_ms = options.budget_ms / blocks_per_side;

  PairedTiming result;
  EventTimer timer;
  for (const int which : block_order(blocks_per_side)) {
    PairedSide& side = result.side[which];
    run_untimed_for(*launches[which], stream, flusher, settle_ms);
    double spent_ms = 0;
    for (int rep = 0; rep < max_reps && (rep < min_reps || spent_ms < budget_ms); ++rep)
      spent_ms += time_repetition(timer, *launches[which], stream, flusher, clocks, options, side);
  }
  summarize_pair(result);
  return result;
}

}  // namespace autogemm
