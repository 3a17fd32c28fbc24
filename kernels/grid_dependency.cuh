// The device side of a programmatic dependent launch (KernelLaunch::after_previous_kernel,
// launch_config.hpp): such a launch's blocks may be scheduled while the previous kernel in the
// stream still runs, so a kernel launched that way calls wait_for_previous_grid() before its first
// global access, and reads and writes nothing that kernel could still be using.
#pragma once

namespace autogemm {

/// Waits until the previous grid in the stream has finished and its memory is visible
/// (griddepcontrol.wait; sm_90 and newer, where launches carry the attribute; nothing before).
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace autogemm
