// See cublaslt_best.hpp.
#include "cublaslt_best.hpp"

#include <string>

#include "cublas_sgemm.hpp"
#include "status.hpp"

namespace autogemm {

CublasLtCandidates::CublasLtCandidates(const ColumnMajorProblem& p, int max_algorithms, size_t workspace_bytes)
    : workspace_bytes_(workspace_bytes) {
  try {
    check_cublas(cublasLtCreate(&handle_), "cublasLtCreate");
    check_cublas(cublasLtMatmulDescCreate(&desc_,
                                          p.types.compute == ComputeType::kTF32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                                : CUBLAS_COMPUTE_32F,
                                          CUDA_R_32F), "cublasLtMatmulDescCreate");
    const cublasOperation_t ta = p.op_a == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T;
    const cublasOperation_t tb = p.op_b == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T;
    check_cublas(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "TRANSA");
    check_cublas(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "TRANSB");
    // Each operand as stored: rows x cols column-major with its leading dimension.
    const bool a_n = p.op_a == Op::N, b_n = p.op_b == Op::N;
    check_cublas(cublasLtMatrixLayoutCreate(&a_, cuda_data_type(p.types.a), a_n ? p.m : p.k, a_n ? p.k : p.m, p.lda),
                 "cublasLtMatrixLayoutCreate(A)");
    check_cublas(cublasLtMatrixLayoutCreate(&b_, cuda_data_type(p.types.b), b_n ? p.k : p.n, b_n ? p.n : p.k, p.ldb),
                 "cublasLtMatrixLayoutCreate(B)");
    check_cublas(cublasLtMatrixLayoutCreate(&c_, cuda_data_type(p.types.c), p.m, p.n, p.ldc),
                 "cublasLtMatrixLayoutCreate(C)");
    if (workspace_bytes_ > 0) AUTOGEMM_CUDA_CHECK(cudaMalloc(&workspace_, workspace_bytes_));
    cublasLtMatmulPreference_t pref = nullptr;
    check_cublas(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    std::vector<cublasLtMatmulHeuristicResult_t> found(static_cast<size_t>(max_algorithms));
    int returned = 0;
    cublasStatus_t s = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                            &workspace_bytes_, sizeof workspace_bytes_);
    if (s == CUBLAS_STATUS_SUCCESS)
      s = cublasLtMatmulAlgoGetHeuristic(handle_, desc_, a_, b_, c_, c_, pref, max_algorithms, found.data(), &returned);
    cublasLtMatmulPreferenceDestroy(pref);
    check_cublas(s, "cublasLtMatmulAlgoGetHeuristic");
    for (int i = 0; i < returned; ++i)
      if (found[static_cast<size_t>(i)].state == CUBLAS_STATUS_SUCCESS)
        algorithms_.push_back(found[static_cast<size_t>(i)].algo);
  } catch (...) {
    release();
    throw;
  }
}

CublasLtCandidates::~CublasLtCandidates() { release(); }

void CublasLtCandidates::release() {
  if (workspace_ != nullptr) cudaFree(workspace_), workspace_ = nullptr;
  if (c_ != nullptr) cublasLtMatrixLayoutDestroy(c_), c_ = nullptr;
  if (b_ != nullptr) cublasLtMatrixLayoutDestroy(b_), b_ = nullptr;
  if (a_ != nullptr) cublasLtMatrixLayoutDestroy(a_), a_ = nullptr;
  if (desc_ != nullptr) cublasLtMatmulDescDestroy(desc_), desc_ = nullptr;
  if (handle_ != nullptr) cublasLtDestroy(handle_), handle_ = nullptr;
}

cublasStatus_t CublasLtCandidates::run(int i, float alpha, const void* a, const void* b, float beta, void* c,
                                       cudaStream_t stream) const {
  return cublasLtMatmul(handle_, desc_, &alpha, a, a_, b, b_, &beta, c, c_, c, c_,
                        &algorithms_.at(static_cast<size_t>(i)), workspace_, workspace_bytes_, stream);
}

CublasLtBest time_cublaslt_best(const CublasLtCandidates& candidates, float alpha, const void* a, const void* b,
                                float beta, void* c, cudaStream_t stream, L2Flusher& flusher,
                                const TimingOptions& options, const std::function<void()>& poison,
                                const std::function<bool()>& check) {
  CublasLtBest best;
  best.candidates = candidates.count();
  for (int i = 0; i < candidates.count(); ++i) {
    poison();
    if (candidates.run(i, alpha, a, b, beta, c, stream) != CUBLAS_STATUS_SUCCESS || !check()) continue;
    const TimingResult t = time_on_gpu(
        [&](cudaStream_t s) { check_cublas(candidates.run(i, alpha, a, b, beta, c, s), "cublasLtMatmul"); }, stream,
        flusher, options);
    if (best.algorithm < 0 || t.median_us < best.timing.median_us) best.algorithm = i, best.timing = t;
  }
  return best;
}

}  // namespace autogemm
