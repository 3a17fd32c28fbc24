// See clock_monitor.hpp. The few NVML entry points used are declared here by their documented C
// signatures (nvml.h is not part of the CUDA toolkit on these machines); they return 0 on success.
#include "clock_monitor.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <utility>

namespace autogemm {

namespace {

using NvmlDevice = void*;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using HandleByPciFn = int (*)(const char*, NvmlDevice*);
using ReasonsFn = int (*)(NvmlDevice, unsigned long long*);
using ClockFn = int (*)(NvmlDevice, int, unsigned*);
using PowerFn = int (*)(NvmlDevice, unsigned*);
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM

}  // namespace

struct ClockMonitor::Api {
  ShutdownFn shutdown = nullptr;
  ReasonsFn reasons = nullptr;
  ClockFn clock = nullptr;
  PowerFn power = nullptr;
};

std::string slowdown_reason_names(std::uint64_t reasons) {
  static const std::pair<std::uint64_t, const char*> kNames[] = {{0x4, "sw_power_cap"},
                                                                 {0x8, "hw_slowdown"},
                                                                 {0x20, "sw_thermal"},
                                                                 {0x40, "hw_thermal"},
                                                                 {0x80, "hw_power_brake"}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((reasons & bit) == 0) continue;
    if (!out.empty()) out += '|';
    out += name;
  }
  return out;
}

ClockMonitor::ClockMonitor(int device) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    why_ = "libnvidia-ml.so.1 not found";
    return;
  }
  auto symbol = [this](const char* name) { return dlsym(library_, name); };
  const auto init = reinterpret_cast<InitFn>(symbol("nvmlInit_v2"));
  const auto by_pci = reinterpret_cast<HandleByPciFn>(symbol("nvmlDeviceGetHandleByPciBusId_v2"));
  api_ = std::make_unique<Api>();
  Api* const api = api_.get();
  api->shutdown = reinterpret_cast<ShutdownFn>(symbol("nvmlShutdown"));
  // The newer name first (driver 535+); the older one is the same call.
  api->reasons = reinterpret_cast<ReasonsFn>(symbol("nvmlDeviceGetCurrentClocksEventReasons"));
  if (api->reasons == nullptr) api->reasons = reinterpret_cast<ReasonsFn>(symbol("nvmlDeviceGetCurrentClocksThrottleReasons"));
  api->clock = reinterpret_cast<ClockFn>(symbol("nvmlDeviceGetClockInfo"));
  api->power = reinterpret_cast<PowerFn>(symbol("nvmlDeviceGetPowerUsage"));
  char bus_id[32] = {};
  if (init == nullptr || by_pci == nullptr || api->shutdown == nullptr || api->reasons == nullptr ||
      api->clock == nullptr || api->power == nullptr) {
    why_ = "libnvidia-ml.so.1 lacks an entry point";
    api->shutdown = nullptr;  // never initialised
  } else if (init() != 0) {
    why_ = "nvmlInit failed";
    api->shutdown = nullptr;  // nothing to shut down
  } else if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess) {
    why_ = "no PCI bus id for CUDA device " + std::to_string(device);
  } else if (NvmlDevice handle = nullptr; by_pci(bus_id, &handle) != 0) {
    why_ = std::string("NVML has no device at PCI bus id ") + bus_id;
  } else {
    device_ = handle;
  }
}

ClockMonitor::~ClockMonitor() {
  if (api_ != nullptr && api_->shutdown != nullptr) api_->shutdown();
  if (library_ != nullptr) dlclose(library_);
}

ClockSample ClockMonitor::sample() const {
  ClockSample s;
  if (device_ == nullptr) return s;
  unsigned long long reasons = 0;
  s.valid = api_->reasons(device_, &reasons) == 0 && api_->clock(device_, kNvmlClockSm, &s.sm_mhz) == 0 &&
            api_->power(device_, &s.power_mw) == 0;
  s.reasons = reasons;
  return s;
}

}  // namespace autogemm
