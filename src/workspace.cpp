// See workspace.hpp.
#include "workspace.hpp"

#include <algorithm>

#include "status.hpp"

namespace autogemm {

GrowingWorkspace::~GrowingWorkspace() {
  cudaFree(partials_);
  cudaFree(semaphores_);
}

Workspace GrowingWorkspace::get(const WorkspaceNeeds& needs, cudaStream_t stream, double slack) {
  if (needs.partial_bytes > partial_bytes_) {
    AUTOGEMM_CUDA_CHECK(cudaFree(partials_));
    partials_ = nullptr;
    partial_bytes_ = 0;
    const auto bytes = static_cast<size_t>(static_cast<double>(needs.partial_bytes) * std::max(1.0, slack));
    AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&partials_), bytes));
    partial_bytes_ = bytes;
  }
  if (needs.semaphore_count > semaphore_count_) {
    AUTOGEMM_CUDA_CHECK(cudaFree(semaphores_));
    semaphores_ = nullptr;
    semaphore_count_ = 0;
    const size_t count = slack > 1.0 ? std::max<size_t>(static_cast<size_t>(needs.semaphore_count * slack), 1024)
                                     : needs.semaphore_count;
    AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&semaphores_), count * sizeof(int)));
    AUTOGEMM_CUDA_CHECK(cudaMemsetAsync(semaphores_, 0, count * sizeof(int), stream));
    semaphore_count_ = count;
  }
  return {partials_, partial_bytes_, semaphores_, semaphore_count_};
}

}  // namespace autogemm
