// Both sides of a programmatic dependent launch (KernelLaunch::after_previous_kernel,
// launch_config.hpp): such a launch's blocks may be scheduled while the previous kernel in the
// stream still runs, so a kernel launched that way calls wait_for_previous_grid() before its first
// global access, and reads and writes nothing that kernel could still be using. The copies and
// reductions are launched by dependent_launch.
#pragma once

#include <cuda_runtime.h>

#include "device_attribute.hpp"
#include "launch_config.hpp"

namespace autogemm {

/// Waits until the previous grid in the stream has finished and its memory is visible
/// (griddepcontrol.wait; sm_90 and newer, where launches carry the attribute; nothing before).
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// A launch of `grid` blocks of `block` threads on `stream`, a programmatic dependent of the
/// previous kernel in the stream wherever the device allows it (programmatic_launch_enabled), for
/// a kernel that calls wait_for_previous_grid() first.
inline detail::KernelLaunch dependent_launch(dim3 grid, dim3 block, cudaStream_t stream) {
  detail::KernelLaunch launch(grid, block, stream);
  launch.after_previous_kernel(programmatic_launch_enabled());
  return launch;
}

}  // namespace autogemm
