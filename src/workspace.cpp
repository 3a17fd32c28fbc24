// See workspace.hpp.
#include "workspace.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

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

size_t HandleWorkspace::user_repack_offset(size_t partial_bytes) const {
  // From the next 256-byte boundary of the address (the caller's pointer need not be aligned; the
  // aligned kernels read the copies with 16-byte loads).
  const auto base = reinterpret_cast<uintptr_t>(user_);
  return (base + kUserHead + partial_bytes + 255) / 256 * 256 - base;
}

size_t HandleWorkspace::user_need(const WorkspaceNeeds& needs) const {
  return user_repack_offset(needs.partial_bytes) + needs.repack_bytes;
}

bool HandleWorkspace::repack_fits(const WorkspaceNeeds& needs) const {
  return needs.repack_bytes == 0 || user_ == nullptr || user_need(needs) <= user_bytes_;
}

Workspace HandleWorkspace::get(WorkspaceNeeds needs, cudaStream_t stream) {
  if (user_ == nullptr) return own_.get(needs, stream, 1.5);
  // A streamed tail the caller's buffer cannot hold is left out: the launch then runs without it.
  if (needs.semaphore_count * sizeof(int) > kUserHead || user_need(needs) > user_bytes_) needs = required_part(needs);
  const size_t repack_offset = user_repack_offset(needs.partial_bytes);
  const size_t need = user_need(needs);
  if (needs.semaphore_count * sizeof(int) > kUserHead || need > user_bytes_)
    throw StatusError(AUTOGEMM_STATUS_INVALID_VALUE, "the workspace set by autogemmSetWorkspace has " +
                                                         std::to_string(user_bytes_) + " bytes; this call needs " +
                                                         std::to_string(need));
  char* base = static_cast<char*>(user_);
  return {reinterpret_cast<float*>(base + kUserHead), needs.partial_bytes, reinterpret_cast<int*>(base),
          kUserHead / sizeof(int), reinterpret_cast<float*>(base + repack_offset), needs.repack_bytes};
}

}  // namespace autogemm
