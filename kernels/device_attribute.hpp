// Inputs of decisions taken on every launch (programmatic dependent launch, access policy windows):
// a device attribute of the current device, read from the driver once per device and cached, and
// the switches that turn such a launch feature off in a diagnostics build.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace autogemm {

/// The attribute's value on the current device, or 0 when it cannot be read.
template <cudaDeviceAttr Attr>
int current_device_attribute() {
  static std::array<std::atomic<int64_t>, 64> cache{};  // value + 1 per device; 0: not read yet
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= static_cast<int>(cache.size())) {
    cudaGetLastError();
    return 0;
  }
  int64_t v = cache[device].load(std::memory_order_relaxed);
  if (v == 0) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, Attr, device) != cudaSuccess) value = 0;
    cudaGetLastError();  // an unreadable attribute must not stay the thread's last error
    v = static_cast<int64_t>(value) + 1;
    cache[device].store(v, std::memory_order_relaxed);
  }
  return static_cast<int>(v - 1);
}

/// Whether a launch feature is on. Builds with AUTOGEMM_LAUNCH_DIAGNOSTICS read the environment
/// variable `name`: "0" turns the feature off, to measure what it gains. Other builds never read the
/// environment here, so no variable can change what the library launches. Callers read it once.
inline bool launch_feature_enabled(const char* name) {
#ifdef AUTOGEMM_LAUNCH_DIAGNOSTICS
  const char* v = std::getenv(name);
  return v == nullptr || std::string_view(v) != "0";
#else
  (void)name;
  return true;
#endif
}

/// Whether a launch may be a programmatic dependent of the previous kernel in its stream (sm_90+):
/// its blocks start as the previous grid's blocks exit, and the kernel waits (griddepcontrol.wait)
/// for that grid's completion and memory before reading what it wrote (KernelLaunch::after_previous_kernel,
/// launch_config.hpp). AUTOGEMM_PDL=0 turns it off in a diagnostics build.
inline bool programmatic_launch_enabled() {
  static const bool allowed = launch_feature_enabled("AUTOGEMM_PDL");
  return allowed && current_device_attribute<cudaDevAttrComputeCapabilityMajor>() >= 9;
}

}  // namespace autogemm
