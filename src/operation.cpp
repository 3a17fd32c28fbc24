// See operation.hpp.
#include "operation.hpp"

#include <algorithm>
#include <cstdint>

#include "device_attribute.hpp"
#include "status.hpp"

namespace autogemm {

DeviceLimits query_device_limits(int device) {
  DeviceLimits d;
  d.device = device;
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, device));
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.cc_minor, cudaDevAttrComputeCapabilityMinor, device));
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, device));
  AUTOGEMM_CUDA_CHECK(
      cudaDeviceGetAttribute(&d.max_shared_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&d.l2_bytes, cudaDevAttrL2CacheSize, device));
  return d;
}

cudaError_t run(const KernelInstance& kernel, const GemmProblem& original, SplitChoice requested, const Workspace& ws,
                cudaStream_t stream) {
  GemmProblem problem;
  if (cudaError_t e = repack_operands(original, repack_plan(kernel.config, original), ws, stream, problem);
      e != cudaSuccess)
    return e;
  GemmParams p = launch_params(kernel, problem, requested);
  // The GEMM is a programmatic dependent of the kernel before it in the stream: the repack's
  // transpose or, without one, whatever the caller ran last. Its blocks may then be scheduled while
  // that kernel drains, and their first instruction waits for its completion and memory
  // (griddepcontrol.wait; GEMM, TMA and GEMV kernels alike), so no result changes: 1.1-1.5 us per
  // call behind another kernel, nothing where the stream's previous work is not a kernel
  // (docs/decisions.md, programmatic dependent launches). In a diagnostics build (AUTOGEMM_LAUNCH_DIAGNOSTICS)
  // AUTOGEMM_PDL_AFTER_REPACK=0 and AUTOGEMM_PDL_GEMM=0 turn off the two cases, to measure each one's gain.
  static const bool after_repack = launch_feature_enabled("AUTOGEMM_PDL_AFTER_REPACK");
  static const bool after_caller = launch_feature_enabled("AUTOGEMM_PDL_GEMM");
  const bool repacked = problem.a != original.a || problem.b != original.b;
  p.after_previous_kernel = (repacked ? after_repack : after_caller) && programmatic_launch_enabled();
  if (p.stream_window_bytes > 0) {
    // A window larger than the device allows is dropped; in a diagnostics build AUTOGEMM_STREAM_WINDOW=0
    // launches without it, to measure its gain. Only launches that propose one ask.
    static const bool enabled = launch_feature_enabled("AUTOGEMM_STREAM_WINDOW");
    const auto max_window = static_cast<size_t>(current_device_attribute<cudaDevAttrMaxAccessPolicyWindowSize>());
    if (!enabled || p.stream_window_bytes > max_window) p.stream_window = nullptr, p.stream_window_bytes = 0;
  }
  const WorkspaceNeeds needs = workspace_size(kernel, original, {p.splits, p.mode});
  const bool holds = ws.partial_bytes >= needs.partial_bytes && ws.semaphore_count >= needs.semaphore_count;
  if (!holds && !needs.streamk_optional) return cudaErrorInvalidValue;
  p.partials = ws.partials;
  p.semaphores = ws.semaphores;
  p.streamk = holds && needs.streamk_optional;
  if (cudaError_t e = kernel.launch(p, stream); e != cudaSuccess) return e;
  return family_of(kernel.config).finish(kernel, p, original, stream);
}

const char* split_mode_name(SplitKMode mode) {
  switch (mode) {
    case SplitKMode::kNone: return "none";
    case SplitKMode::kParallel: return "parallel";
    case SplitKMode::kSerial: return "serial";
  }
  return "unknown";
}

std::string split_label(SplitChoice split) {
  const char* letter = split.mode == SplitKMode::kParallel ? "p" : split.mode == SplitKMode::kSerial ? "s" : "";
  return std::to_string(split.splits) + letter;
}

SplitKMode parse_split_mode(std::string_view name) {
  return name == "serial" ? SplitKMode::kSerial : name == "parallel" ? SplitKMode::kParallel : SplitKMode::kNone;
}

}  // namespace autogemm
