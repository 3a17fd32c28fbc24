// Launch scratch that only grows: split-k partial sums and per-tile counters, and the repacked
// operands (operation.hpp, RepackPlan), on the current device.
// One implementation for the handle's own workspace, the tuner and online tuning.
#pragma once

#include <cuda_runtime_api.h>

#include "operation.hpp"

namespace autogemm {

class GrowingWorkspace {
 public:
  GrowingWorkspace() = default;
  ~GrowingWorkspace();
  GrowingWorkspace(const GrowingWorkspace&) = delete;
  GrowingWorkspace& operator=(const GrowingWorkspace&) = delete;

  /// A workspace of at least `needs`. A buffer that is too small is replaced by one `slack` times
  /// the need (counters: at least 1024), so a handle serving many shapes grows a few times, not
  /// per call. Freeing the old buffer waits for the device, so launches still using it have
  /// finished. New counters are zeroed on `stream`; every launch leaves them zero again.
  /// Throws StatusError on CUDA errors.
  Workspace get(const WorkspaceNeeds& needs, cudaStream_t stream, double slack = 1.0);

 private:
  float* partials_ = nullptr;
  size_t partial_bytes_ = 0;
  float* repacked_ = nullptr;
  size_t repack_bytes_ = 0;
  int* semaphores_ = nullptr;
  size_t semaphore_count_ = 0;
};

}  // namespace autogemm
