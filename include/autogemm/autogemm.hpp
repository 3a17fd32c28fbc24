// Thin C++ layer over the C API: an RAII handle and exceptions that carry the status and message.
#pragma once

#include <stdexcept>
#include <string>

#include "autogemm/autogemm.h"

namespace autogemm {

class Error : public std::runtime_error {
 public:
  explicit Error(autogemmStatus_t status)
      : std::runtime_error(std::string(autogemmGetStatusString(status)) + ": " + autogemmGetLastErrorMessage()),
        status_(status) {}
  autogemmStatus_t status() const noexcept { return status_; }

 private:
  autogemmStatus_t status_;
};

inline void check(autogemmStatus_t status) {
  if (status != AUTOGEMM_STATUS_SUCCESS) throw Error(status);
}

/// Owns an autogemmHandle_t bound to one device.
class Handle {
 public:
  Handle() { check(autogemmCreate(&handle_)); }
  explicit Handle(int device) { check(autogemmCreateForDevice(&handle_, device)); }
  ~Handle() {
    if (handle_ != nullptr) autogemmDestroy(handle_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
  Handle& operator=(Handle&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }

  autogemmHandle_t get() const noexcept { return handle_; }
  void set_stream(cudaStream_t stream) { check(autogemmSetStream(handle_, stream)); }
  /// The arithmetic of FP32 GEMMs (autogemmSetMathMode).
  void set_math_mode(autogemmMath_t mode) { check(autogemmSetMathMode(handle_, mode)); }

  /// C = alpha * op(A) * op(B) + beta * C (column-major, cuBLAS semantics); throws autogemm::Error.
  void sgemm(autogemmOperation_t transa, autogemmOperation_t transb, int m, int n, int k, float alpha,
             const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc) {
    check(autogemmSgemm(handle_, transa, transb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc));
  }

  /// The same with element types, as cublasGemmEx (autogemmGemmEx); throws autogemm::Error, whose
  /// status is AUTOGEMM_STATUS_NOT_SUPPORTED for a combination without kernels.
  void gemm_ex(autogemmOperation_t transa, autogemmOperation_t transb, int m, int n, int k, float alpha,
               const void* a, cudaDataType_t a_type, int lda, const void* b, cudaDataType_t b_type, int ldb,
               float beta, void* c, cudaDataType_t c_type, int ldc,
               autogemmComputeType_t compute = AUTOGEMM_COMPUTE_32F) {
    check(autogemmGemmEx(handle_, transa, transb, m, n, k, &alpha, a, a_type, lda, b, b_type, ldb, &beta, c, c_type,
                         ldc, compute));
  }

 private:
  autogemmHandle_t handle_ = nullptr;
};

}  // namespace autogemm
