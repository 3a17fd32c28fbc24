// The one reader of a GPU's facts that CUDA does not give: driver version, clocks, power and the
// driver's clock-event ("throttle") reasons, through NVML. Provenance records the clocks of each
// measurement, and the benchmark samples the clocks beside each repetition: a timing of a big
// problem can fall inside a power-cap transient (0.7-1.5% at 4096^3 on the H100), and with a sample
// beside each repetition a capped repetition is seen in the results instead of guessed at.
//
// NVML is opened at run time (dlopen of the driver's libnvidia-ml.so.1): the library and the tools
// neither link it nor need its header, and where it is missing every read reports `valid = false`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace autogemm {

/// The clock-event reason bits that mean the GPU ran below the clock it would otherwise pick
/// (NVML's nvmlClocksEventReason*: software power cap, hardware slowdown, software and hardware
/// thermal slowdown, hardware power brake). Idle (0x1), application-clock setting (0x2), sync boost
/// (0x10) and display clock (0x100) are not counted.
inline constexpr std::uint64_t kSlowdownReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

struct ClockSample {
  bool valid = false;          // false where NVML could not be read
  unsigned sm_mhz = 0;
  unsigned power_mw = 0;
  std::uint64_t reasons = 0;   // NVML clock-event reason bits
  bool slowed() const { return valid && (reasons & kSlowdownReasons) != 0; }
};

/// The device's state as the benchmark records it beside its results.
struct DeviceState {
  bool valid = false;              // false where NVML could not be read
  std::string driver_version;      // "580.159.04"
  unsigned sm_mhz = 0, max_sm_mhz = 0, mem_mhz = 0;
  unsigned power_limit_mw = 0;
  unsigned temperature_c = 0;
};

/// "sw_power_cap|hw_slowdown" for the bits of kSlowdownReasons set in `reasons`; "" for none.
std::string slowdown_reason_names(std::uint64_t reasons);

class NvmlDevice {
 public:
  /// Opens NVML for the CUDA device `device` (matched by PCI bus id). Never throws: without NVML,
  /// available() is false and every read returns an invalid answer.
  explicit NvmlDevice(int device);
  ~NvmlDevice();
  NvmlDevice(const NvmlDevice&) = delete;
  NvmlDevice& operator=(const NvmlDevice&) = delete;

  bool available() const { return device_ != nullptr; }
  /// Why NVML is not available ("" when it is).
  const std::string& unavailable_reason() const { return why_; }
  /// SM clock, power and clock-event reasons now: one sample beside a timed repetition.
  ClockSample sample() const;
  /// Driver version, clocks, power limit and temperature now.
  DeviceState state() const;

 private:
  struct Api;
  void* library_ = nullptr;
  std::unique_ptr<Api> api_;
  void* device_ = nullptr;  // nvmlDevice_t
  std::string why_;
};

}  // namespace autogemm
