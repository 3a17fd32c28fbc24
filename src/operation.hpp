// The host contract every kernel instance offers (as CUTLASS's library does): can_implement,
// workspace_size, run. The tuner and the runtime talk to kernels only through this.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "gemm_params.hpp"
#include "registry.hpp"

namespace autogemm {

/// One GEMM call, column-major, cuBLAS semantics.
struct GemmProblem {
  Op op_a = Op::N, op_b = Op::N;
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  const float* b = nullptr;
  int64_t ldb = 0;
  float* c = nullptr;
  int64_t ldc = 0;
  float alpha = 1.0f, beta = 0.0f;
};

/// 4 when A and B allow 16-byte vector loads (16-byte aligned bases, lda and ldb multiples of 4),
/// else 1. The alignment class is part of the tuning key.
int alignment_class(const GemmProblem& p);

/// What the device offers a kernel, read once per handle.
struct DeviceLimits {
  int device = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_shared_per_block_optin = 0;
  int l2_bytes = 0;
};

DeviceLimits query_device_limits(int device);

/// A run-time choice on top of an instance: how K is split.
struct SplitChoice {
  int splits = 1;
  SplitKMode mode = SplitKMode::kNone;
};

/// K elements per split (a multiple of BK) and the number of non-empty splits it gives.
struct SplitGeometry {
  int k_per_split = 0;
  int splits = 1;
};
SplitGeometry split_geometry(const KernelConfig& c, int k, int requested_splits);

/// Workspace of a launch: partial sums (kParallel) and per-tile semaphores (kSerial, zeroed once).
struct Workspace {
  float* partials = nullptr;
  size_t partial_bytes = 0;
  int* semaphores = nullptr;
  size_t semaphore_count = 0;
};
struct WorkspaceNeeds {
  size_t partial_bytes = 0;
  size_t semaphore_count = 0;
};

/// Why `kernel` cannot run `problem` on `device` (layout, alignment, shared memory, architecture),
/// or an empty string when it can. The kernel's own validity rule is checked too.
std::string cannot_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device);
inline bool can_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device) {
  return cannot_implement(kernel, problem, device).empty();
}

/// GEMV instances (KernelConfig::is_gemv) split K only in kParallel mode (a kSerial request is taken
/// as kParallel): partials plus one counter per row block, reduced in the same launch.
WorkspaceNeeds workspace_size(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split);

/// The launch parameters run() passes: the problem, the split geometry (GEMV instances take a serial
/// request as parallel) and, for a GEMM whose one tile column covers n, A's address range as the
/// streamed operand (GemmParams::stream_window; run() drops it when the device's access policy
/// window is smaller).
GemmParams launch_params(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split);

/// Enqueues C = alpha * op(A) op(B) + beta * C with `kernel` (plus the reduction for kParallel).
/// Requires k > 0 and a workspace at least workspace_size(); returns the first CUDA error.
cudaError_t run(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split, const Workspace& ws,
                cudaStream_t stream);

/// Key words for logs and the database.
const char* split_mode_name(SplitKMode mode);
/// Inverse of split_mode_name; kNone for any other word (database rows are checked on write).
SplitKMode parse_split_mode(std::string_view name);

}  // namespace autogemm
