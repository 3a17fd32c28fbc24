// cuBLASLt's best of its own top heuristic algorithms: the second yardstick `gemm-tune bench`
// reports beside cublasGemmEx for BF16/FP16 problems. cublasGemmEx runs the first algorithm cuBLAS's
// heuristic picks; cuBLASLt offers several ranked candidates for the same problem, and a user who
// autotunes cuBLASLt (as PyTorch's TunableOp does) gets the fastest of them.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

#include "problem_data.hpp"
#include "timing.hpp"

namespace autogemm {

/// One problem's candidates in cuBLASLt: its matmul descriptor, layouts and the heuristic's top
/// `max_algorithms` algorithms that fit `workspace_bytes`, in the heuristic's order.
class CublasLtCandidates {
 public:
  /// Default workspace: 32 MiB, what cuBLAS itself reserves on Hopper.
  static constexpr size_t kWorkspaceBytes = size_t{32} << 20;

  CublasLtCandidates(const ColumnMajorProblem& p, int max_algorithms, size_t workspace_bytes = kWorkspaceBytes);
  ~CublasLtCandidates();
  CublasLtCandidates(const CublasLtCandidates&) = delete;
  CublasLtCandidates& operator=(const CublasLtCandidates&) = delete;

  int count() const { return static_cast<int>(algorithms_.size()); }
  /// C = alpha op(A) op(B) + beta C with algorithm `i`; the call's status.
  cublasStatus_t run(int i, float alpha, const void* a, const void* b, float beta, void* c, cudaStream_t stream) const;

 private:
  void release();

  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  void* workspace_ = nullptr;
  size_t workspace_bytes_ = 0;
  std::vector<cublasLtMatmulAlgo_t> algorithms_;
};

/// The fastest of the candidates whose output passes the check: its index in heuristic order (-1:
/// none passed) and its timing.
struct CublasLtBest {
  int algorithm = -1;
  int candidates = 0;
  TimingResult timing;
};

/// Runs each candidate once after `poison` (NaN into C) and times it with time_on_gpu (cold L2,
/// `options`) if `check` then accepts its output.
CublasLtBest time_cublaslt_best(const CublasLtCandidates& candidates, float alpha, const void* a, const void* b,
                                float beta, void* c, cudaStream_t stream, L2Flusher& flusher,
                                const TimingOptions& options, const std::function<void()>& poison,
                                const std::function<bool()>& check);

}  // namespace autogemm
