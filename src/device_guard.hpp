// Makes a device current for a scope: every call that works on a handle's device from a thread whose
// current device may be another.
#pragma once

namespace autogemm {

/// Makes `device` current for the scope and restores the caller's device after.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
  bool switched_ = false;
};

}  // namespace autogemm
