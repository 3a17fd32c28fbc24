// Two launches timed against each other (gemm-tune bench: autogemm and cuBLAS), in turns. Timed one
// after the other, each library meets the GPU in a different power state: the H100 drifts in and out
// of its software power cap over hundreds of ms (4096^3 0.7-1.5% slower under it), so the library
// timed second may be timed in another state than the first. In turns, both see the same drift, and
// a clock sample after every repetition (NvmlDevice) says which repetitions ran slowed. The turns
// are blocks of each side's own (time_in_blocks), so that each is timed in the power state its own
// launches settle to, or single repetitions (time_interleaved), each after an untimed launch of its
// own side, so it meets the caches as a repetition of time_on_gpu does (right after the other
// library's kernel, 1000^3 on a TMA instance runs 6-8% slower).
#pragma once

#include <array>
#include <functional>
#include <vector>

#include "nvml_device.hpp"
#include "timing.hpp"

namespace autogemm {

/// One launch's repetitions within a paired timing.
struct PairedSide {
  TimingResult timing;               // median, min, max and count of all its repetitions
  std::vector<double> us;            // each repetition's time, in the order run
  std::vector<ClockSample> clocks;   // the clock sample read right after each repetition
  int slowed_reps = 0;               // repetitions whose sample carries a kSlowdownReasons bit
  double unslowed_median_us = 0;     // median of the others; 0 when every repetition was slowed
  unsigned sm_mhz_min = 0, sm_mhz_max = 0;  // over the valid samples; 0 when none
};

struct PairedTiming {
  std::array<PairedSide, 2> side;
  /// Median of side[1]'s i-th time over side[0]'s (cuBLAS over autogemm: the speed-up): interleaved,
  /// two repetitions run back to back; in blocks, the i-th of each side's (their counts may differ).
  double paired_ratio = 0;
};

/// Fills a side's statistics from its `us` and `clocks` (exposed for the CPU tests).
void summarize(PairedSide& side);

/// Median of b[i] / a[i] over the rounds both sides ran.
double paired_ratio(const std::vector<double>& a, const std::vector<double>& b);

/// Whether either side's median lies more than `ratio` times above its fastest repetition. On the
/// H100 a steady pair stays within 1.11 (95% of 876 sides within 1.06); a transient slowdown of the
/// machine, striking both sides for dozens of repetitions and decaying (5-10x the floor at first),
/// left 1.36-6.4, medians that measure the machine and not the kernels. gemm-tune bench times such a
/// pair again.
bool disturbed(const PairedTiming& t, double ratio = 1.25);

/// Which side each block of a blocked timing runs: `blocks_per_side` blocks each, in the order
/// 0 1 1 0 0 1 1 0 ...; with an even count a drift linear in time falls on both sides alike.
std::vector<int> block_order(int blocks_per_side);

/// Times `first` and `second` in rounds: each round runs, for each of them, one flushed untimed launch
/// and then one flushed, event-timed repetition, alternating which goes first, until both have
/// options.min_reps and each has spent options.budget_ms, or options.max_reps rounds have run. Before that, options.warmup runs of each
/// and, for options.warmup_ms, untimed runs of both in turn, so neither is timed in the other's
/// transient. `clocks` may be null (no samples). options.give_up is not used. Throws StatusError on a
/// CUDA error.
PairedTiming time_interleaved(const std::function<void(cudaStream_t)>& first,
                              const std::function<void(cudaStream_t)>& second, cudaStream_t stream,
                              L2Flusher& flusher, const NvmlDevice* clocks, const TimingOptions& options);

/// Times `first` and `second` in blocks of their own (block_order): each block runs its side untimed
/// for `settle_ms`, then times flushed, event-timed repetitions of it until it has its share of
/// options.min_reps and of options.budget_ms, or its share of options.max_reps. Interleaved,
/// the two kernels share one power state, so what one draws sets the other's clock under the power
/// cap: on the H200, cuBLAS beside autogemm's 128x128 ping-pong tiles ran 8192x12288x4096 BF16 in
/// 1282.9 us at 1395 MHz, beside its 128x256 cooperative tile in 1224.8 at 1455
/// (docs/results/h200_interleaved_clocks.txt). In blocks each side is timed in the state its own
/// launches settle to. Warm-up, `clocks` and errors as time_interleaved; blocks_per_side below 1 counts as 1.
PairedTiming time_in_blocks(const std::function<void(cudaStream_t)>& first,
                            const std::function<void(cudaStream_t)>& second, cudaStream_t stream,
                            L2Flusher& flusher, const NvmlDevice* clocks, const TimingOptions& options,
                            double settle_ms, int blocks_per_side);

}  // namespace autogemm
