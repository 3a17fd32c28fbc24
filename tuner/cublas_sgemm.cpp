// cuBLAS, the yardstick of the tuner and the benchmarks (cublas_sgemm.hpp).
#include "cublas_sgemm.hpp"

#include <string>

#include "status.hpp"

namespace autogemm {

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw StatusError(AUTOGEMM_STATUS_EXECUTION_FAILED, std::string(what) + ": cuBLAS status " + std::to_string(s));
}

CublasGemm::CublasGemm(cudaStream_t stream) {
  check_cublas(cublasCreate(&handle_), "cublasCreate");
  try {
    check_cublas(cublasSetMathMode(handle_, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode(PEDANTIC)");  // never TF32
    check_cublas(cublasSetStream(handle_, stream), "cublasSetStream");
    check_cublas(cublasCreate(&handle_ex_), "cublasCreate");
    check_cublas(cublasSetStream(handle_ex_, stream), "cublasSetStream");
  } catch (...) {
    cublasDestroy(handle_);
    if (handle_ex_ != nullptr) cublasDestroy(handle_ex_);
    throw;
  }
}

CublasGemm::~CublasGemm() {
  if (handle_ != nullptr) cublasDestroy(handle_);
  if (handle_ex_ != nullptr) cublasDestroy(handle_ex_);
}

cudaDataType_t cuda_data_type(DataType t) {
  switch (t) {
    case DataType::kF32: return CUDA_R_32F;
    case DataType::kBF16: return CUDA_R_16BF;
    case DataType::kF16: return CUDA_R_16F;
  }
  return CUDA_R_32F;
}

cublasStatus_t CublasGemm::run(const ColumnMajorProblem& p, float alpha, const void* a, const void* b, float beta,
                               void* c) const {
  const cublasOperation_t ta = p.op_a == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t tb = p.op_b == Op::N ? CUBLAS_OP_N : CUBLAS_OP_T;
  // FP32 operands: pedantic SGEMM for the pedantic and 3xTF32 arithmetics (the yardstick FP32-level
  // error is measured against), TF32 tensor-core math for TF32.
  if (p.types.a == DataType::kF32 && p.types.compute != ComputeType::kTF32)
    return cublasSgemm(handle_, ta, tb, p.m, p.n, p.k, &alpha, static_cast<const float*>(a), p.lda,
                       static_cast<const float*>(b), p.ldb, &beta, static_cast<float*>(c), p.ldc);
  return cublasGemmEx(handle_ex_, ta, tb, p.m, p.n, p.k, &alpha, a, cuda_data_type(p.types.a), p.lda, b,
                      cuda_data_type(p.types.b), p.ldb, &beta, c, cuda_data_type(p.types.c), p.ldc,
                      p.types.compute == ComputeType::kTF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
}

}  // namespace autogemm
