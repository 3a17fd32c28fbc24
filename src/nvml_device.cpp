// See nvml_device.hpp. The few NVML entry points used are declared here by their documented C
// signatures (nvml.h is not part of the CUDA toolkit on these machines); they return 0 on success.
#include "nvml_device.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <utility>

namespace autogemm {

namespace {

using NvmlHandle = void*;  // nvmlDevice_t
using InitFn = int (*)();
using ShutdownFn = int (*)();
using HandleByPciFn = int (*)(const char*, NvmlHandle*);
using ReasonsFn = int (*)(NvmlHandle, unsigned long long*);
using ClockFn = int (*)(NvmlHandle, int, unsigned*);
using PowerFn = int (*)(NvmlHandle, unsigned*);
using DriverVersionFn = int (*)(char*, unsigned);
using TemperatureFn = int (*)(NvmlHandle, int, unsigned*);
constexpr int kNvmlClockSm = 1;   // NVML_CLOCK_SM
constexpr int kNvmlClockMem = 2;  // NVML_CLOCK_MEM
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

}  // namespace

struct NvmlDevice::Api {
  ShutdownFn shutdown = nullptr;
  ReasonsFn reasons = nullptr;
  ClockFn clock = nullptr;
  PowerFn power = nullptr;
  // Optional: state() leaves a field 0 or empty where its entry point is missing.
  ClockFn max_clock = nullptr;
  PowerFn power_limit = nullptr;
  DriverVersionFn driver_version = nullptr;
  TemperatureFn temperature = nullptr;
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

NvmlDevice::NvmlDevice(int device) {
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
  api->max_clock = reinterpret_cast<ClockFn>(symbol("nvmlDeviceGetMaxClockInfo"));
  api->power_limit = reinterpret_cast<PowerFn>(symbol("nvmlDeviceGetPowerManagementLimit"));
  api->driver_version = reinterpret_cast<DriverVersionFn>(symbol("nvmlSystemGetDriverVersion"));
  api->temperature = reinterpret_cast<TemperatureFn>(symbol("nvmlDeviceGetTemperature"));
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
  } else if (NvmlHandle handle = nullptr; by_pci(bus_id, &handle) != 0) {
    why_ = std::string("NVML has no device at PCI bus id ") + bus_id;
  } else {
    device_ = handle;
  }
}

NvmlDevice::~NvmlDevice() {
  if (api_ != nullptr && api_->shutdown != nullptr) api_->shutdown();
  if (library_ != nullptr) dlclose(library_);
}

ClockSample NvmlDevice::sample() const {
  ClockSample s;
  if (device_ == nullptr) return s;
  unsigned long long reasons = 0;
  s.valid = api_->reasons(device_, &reasons) == 0 && api_->clock(device_, kNvmlClockSm, &s.sm_mhz) == 0 &&
            api_->power(device_, &s.power_mw) == 0;
  s.reasons = reasons;
  return s;
}

DeviceState NvmlDevice::state() const {
  DeviceState s;
  if (device_ == nullptr) return s;
  s.valid = api_->clock(device_, kNvmlClockSm, &s.sm_mhz) == 0;
  if (api_->clock(device_, kNvmlClockMem, &s.mem_mhz) != 0) s.mem_mhz = 0;
  if (api_->max_clock == nullptr || api_->max_clock(device_, kNvmlClockSm, &s.max_sm_mhz) != 0) s.max_sm_mhz = 0;
  if (api_->power_limit == nullptr || api_->power_limit(device_, &s.power_limit_mw) != 0) s.power_limit_mw = 0;
  if (api_->temperature == nullptr || api_->temperature(device_, kNvmlTemperatureGpu, &s.temperature_c) != 0)
    s.temperature_c = 0;
  char version[96] = {};
  if (api_->driver_version != nullptr && api_->driver_version(version, sizeof version) == 0) s.driver_version = version;
  return s;
}

}  // namespace autogemm
