// See workspace.hpp.
#include "workspace.hpp"

#include <algorithm>

#include "status.hpp"

namespace autogemm {

GrowingWorkspace::~GrowingWorkspace() {
  cudaFree(partials_);
  cudaFree(repacked_);
  cudaFree(semaphores_);
}

namespace {
// Replaces `buffer` by one of `slack` times `need` bytes when it holds fewer than `need`.
void grow(float*& buffer, size_t& bytes, size_t need, double slack) {
  if (need <= bytes) return;
  AUTOGEMM_CUDA_CHECK(cudaFree(buffer));
  buffer = nullptr;
  bytes = 0;
  const auto grown = static_cast<size_t>(static_cast<double>(need) * std::max(1.0, slack));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&buffer), grown));
  bytes = grown;
}
}  // namespace

Workspace GrowingWorkspace::get(const WorkspaceNeeds& needs, cudaStream_t stream, double slack) {
  grow(partials_, partial_bytes_, needs.partial_bytes, slack);
  grow(repacked_, repack_bytes_, needs.repack_bytes, slack);
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
  return {partials_, partial_bytes_, semaphores_, semaphore_count_, repacked_, repack_bytes_};
}

}  // namespace autogemm
