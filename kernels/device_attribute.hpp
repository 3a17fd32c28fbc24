// A device attribute of the current device, read from the driver once per device and cached, for
// decisions taken on every launch (programmatic dependent launch, access policy windows).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstdint>

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

}  // namespace autogemm
