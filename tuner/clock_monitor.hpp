// What the GPU's clocks were doing while a timing ran: SM clock, power draw and the driver's
// clock-event ("throttle") reasons, read through NVML. A timing of a big problem can fall inside a
// power-cap transient (docs/perf_notes.md, measurement 104: 0.7-1.5% at 4096^3); with a sample beside
// each repetition a capped repetition is seen in the results instead of guessed at.
//
// NVML is opened at run time (dlopen of the driver's libnvidia-ml.so.1): the library and the tools
// neither link it nor need its header, and where it is missing every sample reports `valid = false`.
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

/// "sw_power_cap|hw_slowdown" for the bits of kSlowdownReasons set in `reasons`; "" for none.
std::string slowdown_reason_names(std::uint64_t reasons);

class ClockMonitor {
 public:
  /// Opens NVML for the CUDA device `device` (matched by PCI bus id). Never throws: without NVML,
  /// available() is false and sample() returns invalid samples.
  explicit ClockMonitor(int device);
  ~ClockMonitor();
  ClockMonitor(const ClockMonitor&) = delete;
  ClockMonitor& operator=(const ClockMonitor&) = delete;

  bool available() const { return device_ != nullptr; }
  /// Why NVML is not available ("" when it is).
  const std::string& unavailable_reason() const { return why_; }
  ClockSample sample() const;

 private:
  struct Api;
  void* library_ = nullptr;
  std::unique_ptr<Api> api_;
  void* device_ = nullptr;  // nvmlDevice_t
  std::string why_;
};

}  // namespace autogemm
