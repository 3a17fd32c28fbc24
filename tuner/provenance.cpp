// See provenance.hpp.
#include "provenance.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "autogemm/autogemm.h"
#include "registry.hpp"

namespace autogemm {
namespace {

// "1980, 2619" from nvidia-smi for the GPU at this PCI address; false when unavailable.
bool smi_clocks(int device, int& sm_mhz, int& mem_mhz) {
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) return false;
  const std::string cmd = std::string("nvidia-smi --id=") + bus +
                          " --query-gpu=clocks.sm,clocks.mem --format=csv,noheader,nounits 2>/dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return false;
  const int got = std::fscanf(f, "%d, %d", &sm_mhz, &mem_mhz);
  pclose(f);
  return got == 2;
}

}  // namespace

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

db::Provenance current_provenance(int device, bool ask_nvidia_smi) {
  db::Provenance p;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) p.gpu_uuid = gpu_uuid_string(prop.uuid);
  cudaDriverGetVersion(&p.driver_version);
  cudaRuntimeGetVersion(&p.runtime_version);
  if (!ask_nvidia_smi || !smi_clocks(device, p.sm_clock_mhz, p.mem_clock_mhz)) {
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
