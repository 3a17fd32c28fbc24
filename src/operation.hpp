// The library's side of running one kernel instance on one problem: the device's limits, and run(),
// which repacks operands, launches the instance and its family's finish with the launch features
// the device offers. What an instance can run, its split of K and its workspace are its family's
// contract (kernels/family.hpp), which the tuner and the runtime reach only through family_of.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <string_view>

#include "family.hpp"
#include "gemm_problem.hpp"
#include "operand_repack.hpp"
#include "registry.hpp"

namespace autogemm {

DeviceLimits query_device_limits(int device);

/// Enqueues C = alpha * op(A) op(B) + beta * C with `kernel` (after the repacking copies of
/// repack_plan, plus the reduction for kParallel). Requires k > 0, a kernel that can implement the
/// problem (with RepackPolicy::kAllowed when it repacks) and a workspace at least workspace_size();
/// returns the first CUDA error.
cudaError_t run(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split, const Workspace& ws,
                cudaStream_t stream);

/// Key words for logs and the database.
const char* split_mode_name(SplitKMode mode);
/// "8p": the split count and the mode's letter (p, s; nothing for kNone), as the tools print it.
std::string split_label(SplitChoice split);
/// Inverse of split_mode_name; kNone for any other word (database rows are checked on write).
SplitKMode parse_split_mode(std::string_view name);

}  // namespace autogemm
