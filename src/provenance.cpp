// See provenance.hpp.
#include "provenance.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "autogemm/autogemm.h"
#include "nvml_device.hpp"
#include "registry.hpp"

namespace autogemm {
std::string gpu_uuid_string(const cudaUUID_t& uuid) {
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    s += hex;
    if (i == 3 || i == 5 || i == 7 || i == 9) s += '-';
  }
  return s;
}

db::Provenance current_provenance(int device, bool read_clocks) {
  db::Provenance p;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) p.gpu_uuid = gpu_uuid_string(prop.uuid);
  cudaDriverGetVersion(&p.driver_version);
  cudaRuntimeGetVersion(&p.runtime_version);
  DeviceState state;
  if (read_clocks) state = NvmlDevice(device).state();
  if (state.valid) {
    p.sm_clock_mhz = static_cast<int>(state.sm_mhz);
    p.mem_clock_mhz = static_cast<int>(state.mem_mhz);
  } else {
    int khz = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device);
    p.sm_clock_mhz = khz / 1000;
    p.mem_clock_mhz = 0;
  }
  cudaGetLastError();
  p.library_version = autogemmGetVersion();
  p.kernel_grid = std::string(kernel_grid_id());
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  p.host = host;
  p.measured_at = db::now_iso8601();
  return p;
}

}  // namespace autogemm
