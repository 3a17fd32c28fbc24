// Where a measurement comes from: the device's signature and the run's provenance (UUID, driver
// and runtime versions, clocks as found, library and grid versions, host, time).
#pragma once

#include "tuning_db.hpp"

namespace autogemm {

/// Provenance of a measurement made now on `device`. Clocks come from nvidia-smi when asked and
/// installed (the clocks as found; starting it takes tens of milliseconds), else the device's
/// maximum SM clock and 0 for memory.
db::Provenance current_provenance(int device, bool ask_nvidia_smi = true);

}  // namespace autogemm
