// Where a measurement comes from: the device's signature and the run's provenance (UUID, driver
// and runtime versions, clocks as found, library and grid versions, host, time).
#pragma once

#include <driver_types.h>

#include <string>

#include "tuning_db.hpp"

namespace autogemm {

/// Provenance of a measurement made now on `device`. With `read_clocks` the clocks as found come
/// from NVML (nvml_device.hpp; opening it costs milliseconds, which online tuning's first call does
/// not spend), else, or where NVML is missing, the device's maximum SM clock and 0 for memory.
db::Provenance current_provenance(int device, bool read_clocks = true);

/// A device UUID as nvidia-smi prints it: "GPU-" and 32 hex digits grouped 8-4-4-4-12.
std::string gpu_uuid_string(const cudaUUID_t& uuid);

}  // namespace autogemm
