// The yardstick every timing is compared with: cuBLAS SGEMM in pedantic FP32 (never TF32) on one
// stream, as the tuner, `gemm-tune bench` and `gemm-tune overhead` call it.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "problem_data.hpp"

namespace autogemm {

/// Throws StatusError(AUTOGEMM_STATUS_EXECUTION_FAILED) naming `what` unless `s` is success.
void check_cublas(cublasStatus_t s, const char* what);

/// A cuBLAS handle in pedantic math bound to `stream`; destroyed with the object.
class CublasSgemm {
 public:
  explicit CublasSgemm(cudaStream_t stream);
  ~CublasSgemm();
  CublasSgemm(const CublasSgemm&) = delete;
  CublasSgemm& operator=(const CublasSgemm&) = delete;

  /// C = alpha * op(A) * op(B) + beta * C for the column-major problem `p`; the call's status.
  cublasStatus_t run(const ColumnMajorProblem& p, float alpha, const float* a, const float* b, float beta,
                     float* c) const;
  /// run(), throwing on failure.
  void operator()(const ColumnMajorProblem& p, float alpha, const float* a, const float* b, float beta,
                  float* c) const {
    check_cublas(run(p, alpha, a, b, beta, c), "cublasSgemm");
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace autogemm
