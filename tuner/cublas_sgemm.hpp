// The yardstick every timing is compared with, on one stream, as the tuner, `gemm-tune bench` and
// `gemm-tune overhead` call it: cuBLAS SGEMM in pedantic FP32 (never TF32) for FP32 problems, and
// cublasGemmEx with CUBLAS_COMPUTE_32F in default math (tensor cores) for BF16 and FP16 operands.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "problem_data.hpp"

namespace autogemm {

/// cudaDataType_t of an element type (CUDA_R_32F, CUDA_R_16BF, CUDA_R_16F).
cudaDataType_t cuda_data_type(DataType t);

/// Throws StatusError(AUTOGEMM_STATUS_EXECUTION_FAILED) naming `what` unless `s` is success.
void check_cublas(cublasStatus_t s, const char* what);

/// cuBLAS handles bound to `stream` (pedantic math for SGEMM, default math for GemmEx); destroyed
/// with the object.
class CublasGemm {
 public:
  explicit CublasGemm(cudaStream_t stream);
  ~CublasGemm();
  CublasGemm(const CublasGemm&) = delete;
  CublasGemm& operator=(const CublasGemm&) = delete;

  /// C = alpha * op(A) * op(B) + beta * C for the column-major problem `p` of its types; the
  /// call's status.
  cublasStatus_t run(const ColumnMajorProblem& p, float alpha, const void* a, const void* b, float beta,
                     void* c) const;
  /// run(), throwing on failure.
  void operator()(const ColumnMajorProblem& p, float alpha, const void* a, const void* b, float beta,
                  void* c) const {
    check_cublas(run(p, alpha, a, b, beta, c), p.types == kF32Types ? "cublasSgemm" : "cublasGemmEx");
  }

 private:
  cublasHandle_t handle_ = nullptr;     // pedantic math: SGEMM
  cublasHandle_t handle_ex_ = nullptr;  // default math: GemmEx
};

}  // namespace autogemm
