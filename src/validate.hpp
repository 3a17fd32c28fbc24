// Argument validation of autogemmSgemm and autogemmGemmEx, as pure functions so CPU tests can cover
// every case.
// Checks follow the reference BLAS order (xerbla): the first bad argument is the one reported.
#pragma once

#include <string>

#include "autogemm/autogemm.h"
#include "data_types.hpp"

namespace autogemm {

struct Validation {
  autogemmStatus_t status = AUTOGEMM_STATUS_SUCCESS;
  std::string message;  // names the bad argument and its value; empty on success
  bool ok() const { return status == AUTOGEMM_STATUS_SUCCESS; }
};

/// The arguments of a GEMM call whatever its types (the operand pointers are only tested for null).
Validation validate_sgemm(autogemmOperation_t transa, autogemmOperation_t transb, int m, int n, int k,
                          const float* alpha, const void* a, int lda, const void* b, int ldb, const float* beta,
                          const void* c, int ldc);

/// The types of an autogemmGemmEx call: A and B both FP32, BF16 or FP16, C of their type or (for
/// 16-bit operands) FP32, FP32 compute. Anything else is AUTOGEMM_STATUS_NOT_SUPPORTED (a data
/// type autogemm does not know is INVALID_VALUE), naming the combination. Sets `types` on success.
Validation validate_gemm_types(cudaDataType_t a, cudaDataType_t b, cudaDataType_t c,
                               autogemmComputeType_t compute, GemmTypes& types);

}  // namespace autogemm
