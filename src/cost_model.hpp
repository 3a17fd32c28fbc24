// Analytical cost model of one (instance, split-k) choice on one device: waves over the SMs and their
// quantization, occupancy, tile efficiency at the edges (K in whole k-tiles), shared-memory
// instructions and bandwidth, the cost of each copy by its width, each k-tile's sync, memory
// traffic, its run lengths and the bytes kept in flight, split-k reduction cost. It ranks
// candidates; it does not replace measuring them.
// Used by the runtime's untuned choice and by the tuner's pruning.
#pragma once

#include <vector>

#include "operation.hpp"  // the family contracts (split_candidates) and the problem types

namespace autogemm {

/// Throughput figures of a device, derived from its attributes (see device_model()).
struct DeviceModel {
  int sm_count = 1;
  double fma_per_us_per_sm = 1.0;  // FP32 fused multiply-adds per microsecond per SM
  double cycles_per_us = 1.0;      // the SM clock in MHz (a model built by hand sets it with the FMA rate)
  double dram_bytes_per_us = 1.0;
  double l2_bytes_per_us = 1.0;
};

DeviceModel device_model(const DeviceLimits& limits);
/// The same from the figures the attributes give: SM clock and memory clock in kHz, memory bus width
/// in bits (0 where unknown). tools/model_check.cpp takes them from a tuning table's provenance.
DeviceModel device_model(int cc_major, int cc_minor, int sm_count, int clock_khz, int mem_clock_khz, int bus_bits);

/// Estimated time in microseconds. `blocks_per_sm` is the occupancy the device reports (>= 1).
double estimate_us(const KernelConfig& c, int blocks_per_sm, int m, int n, int k, SplitChoice split,
                   const DeviceModel& device);

/// Estimated time of the copies run() makes before `c` runs `problem` (operation.hpp, RepackPlan;
/// 0 when it copies nothing): every copied byte read and written once at the DRAM rate (the H100's
/// transposes move ~2.5 TB/s), plus the copy kernel's launch.
double repack_estimate_us(const KernelConfig& c, const GemmProblem& problem, const DeviceModel& device);

}  // namespace autogemm
