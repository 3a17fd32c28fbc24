// cuBLAS SGEMM in pedantic FP32: the yardstick of the tuner and the benchmarks.
#include "cublas_sgemm.hpp"

#include <string>

#include "status.hpp"

namespace autogemm {

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw StatusError(AUTOGEMM_STATUS_EXECUTION_FAILED, std::string(what) + ": cuBLAS status " + std::to_string(s));
}

CublasSgemm::CublasSgemm(cudaStream_t stream) {
  check_cublas(cublasCreate(&handle_), "cublasCreate");
  try {
    check_cublas(cublasSetMathMode(handle_, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode(PEDANTIC)");  // never TF32
    check_cublas(cublasSetStream(handle_, stream), "cublasSetStream");
  } catch (...) {
    cublasDestroy(handle_);
    throw;
  }
}

CublasSgemm::~CublasSgemm() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

cublasStatus_t CublasSgemm::run(const ColumnMajorProblem& p, float alpha, const float* a, const float* b, float beta,
                                float* c) const {
  return cublasSgemm(handle_, p.op_a == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T, p.op_b == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T,
                     p.m, p.n, p.k, &alpha, a, p.lda, b, p.ldb, &beta, c, p.ldc);
}

}  // namespace autogemm
