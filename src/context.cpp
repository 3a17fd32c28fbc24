// See context.hpp.
#include "context.hpp"

#include "runtime_mode.hpp"
#include "status.hpp"

namespace autogemm {

DeviceGuard::DeviceGuard(int device) {
  AUTOGEMM_CUDA_CHECK(cudaGetDevice(&previous_));
  if (previous_ != device) {
    AUTOGEMM_CUDA_CHECK(cudaSetDevice(device));
    switched_ = true;
  }
}

DeviceGuard::~DeviceGuard() {
  if (switched_) cudaSetDevice(previous_);
}

}  // namespace autogemm

using namespace autogemm;

autogemmContext::autogemmContext(int dev) : device(dev), fp32_math(math_mode_from_env()), selector(dev) {}

autogemmContext::~autogemmContext() {
  magic = 0;
}

KernelChoice autogemmContext::choose(const GemmProblem& problem) {
  std::lock_guard lock(mutex);
  return selector.choose(problem, stream, workspace_);
}

Workspace autogemmContext::workspace(WorkspaceNeeds needs) {
  std::lock_guard lock(mutex);
  return workspace_.get(needs, stream);
}

void* autogemmContext::realign_buffer(size_t bytes) {
  std::lock_guard lock(mutex);
  WorkspaceNeeds needs;
  needs.repack_bytes = bytes;
  return realigned_.get(needs, stream, 1.25).repacked;
}

void autogemmContext::clear_choices() {
  std::lock_guard lock(mutex);
  selector.clear();
}
