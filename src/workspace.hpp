// Launch scratch: split-k partial sums and per-tile counters, and the repacked operands
// (operand_repack.hpp, RepackPlan), on the current device. GrowingWorkspace only grows (one
// implementation for the handle's own workspace, the tuner and online tuning); HandleWorkspace is a
// handle's: a caller's fixed buffer (autogemmSetWorkspace) where one is set, else its own.
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

/// A handle's workspace: the caller's buffer (autogemmSetWorkspace), laid out as split-k counters in
/// a fixed head (zeroed when set and left zero by every launch), partial sums after it, then the
/// repacked operands from the next 256-byte boundary of the address; else a GrowingWorkspace.
class HandleWorkspace {
 public:
  /// Bytes at the start of a caller's buffer reserved for serial split-k counters (serial split-k
  /// is only chosen when the output tiles are fewer than the SMs, so 4096 counters are plenty).
  static constexpr size_t kUserHead = 16 * 1024;

  /// Uses `buffer` (`bytes` long; nullptr: the handle's own again). The caller zeroes its head.
  void set_user(void* buffer, size_t bytes) { user_ = buffer, user_bytes_ = buffer != nullptr ? bytes : 0; }
  bool has_user() const { return user_ != nullptr; }
  size_t user_bytes() const { return user_bytes_; }
  /// Bytes of the caller's buffer that `needs` takes (the layout get() hands out).
  size_t user_need(const WorkspaceNeeds& needs) const;
  /// False when `needs` repacks operands and a caller's buffer is set that cannot hold them (such a
  /// choice is passed over, tuned or not).
  bool repack_fits(const WorkspaceNeeds& needs) const;
  /// A workspace for `needs`: from the caller's buffer (a streamed tail it cannot hold is left out;
  /// throws StatusError(INVALID_VALUE) naming both sizes when the rest does not fit), else the own
  /// one grown on `stream` (1.5x: a handle serving many shapes grows a few times).
  Workspace get(WorkspaceNeeds needs, cudaStream_t stream);

 private:
  /// Where the repacked operands start in the caller's buffer: see user_need.
  size_t user_repack_offset(size_t partial_bytes) const;

  void* user_ = nullptr;
  size_t user_bytes_ = 0;
  GrowingWorkspace own_;
};

}  // namespace autogemm
