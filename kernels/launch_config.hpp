// One way to build a kernel launch for the library's launchers (GEMM tiles, GEMV, split-k
// reductions): grid, block, shared memory and stream, plus the launch attributes it may carry — the
// programmatic-dependent attribute (the launch overlaps the previous kernel in its stream; the
// kernel waits with griddepcontrol.wait before reading what that kernel wrote) and an L2 access
// policy window. cudaLaunchKernelEx reads the attributes through a pointer, so they live in the
// object and the pointer is set at launch, never kept across a copy.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cassert>
#include <cstddef>
#include <utility>

#include "device_attribute.hpp"

namespace autogemm::detail {

class KernelLaunch {
 public:
  KernelLaunch(dim3 grid, dim3 block, cudaStream_t stream, size_t shared_bytes = 0) {
    config_.gridDim = grid;
    config_.blockDim = block;
    config_.dynamicSmemBytes = shared_bytes;
    config_.stream = stream;
  }

  /// Makes the launch a programmatic dependent of the previous kernel in its stream when `on`
  /// (the caller has asked programmatic_launch_enabled(); the kernel must wait before its reads).
  KernelLaunch& after_previous_kernel(bool on) {
    if (!on) return *this;
    cudaLaunchAttribute dependent{};
    dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent.val.programmaticStreamSerializationAllowed = 1;
    add(dependent);
    return *this;
  }

  /// Marks [base, base + bytes) as streamed through L2 (hits and misses evict first); no window
  /// when bytes is 0.
  KernelLaunch& streaming_window(const void* base, size_t bytes) {
    if (bytes == 0) return *this;
    cudaLaunchAttribute window{};
    window.id = cudaLaunchAttributeAccessPolicyWindow;
    window.val.accessPolicyWindow.base_ptr = const_cast<void*>(base);
    window.val.accessPolicyWindow.num_bytes = bytes;
    window.val.accessPolicyWindow.hitRatio = 1.0f;
    window.val.accessPolicyWindow.hitProp = cudaAccessPropertyStreaming;
    window.val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    add(window);
    return *this;
  }

  template <class... Params, class... Args>
  cudaError_t launch(void (*kernel)(Params...), Args&&... args) {
    config_.attrs = attributes_.data();
    config_.numAttrs = count_;
    return cudaLaunchKernelEx(&config_, kernel, std::forward<Args>(args)...);
  }

 private:
  void add(const cudaLaunchAttribute& attribute) {
    assert(count_ < attributes_.size() && "each kind of attribute is added at most once");
    attributes_[count_++] = attribute;
  }

  cudaLaunchConfig_t config_{};
  std::array<cudaLaunchAttribute, 2> attributes_{};  // one of each kind above
  unsigned count_ = 0;
};

}  // namespace autogemm::detail
