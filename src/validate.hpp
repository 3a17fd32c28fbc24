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

/// The types of an autogemmGemmEx call: A and B both BF16 or FP16 with C of their type or FP32 and
/// AUTOGEMM_COMPUTE_32F; or all FP32 with any compute type, AUTOGEMM_COMPUTE_32F meaning
/// `fp32_math` (the handle's math mode). Anything else is AUTOGEMM_STATUS_NOT_SUPPORTED (a data or
/// compute type autogemm does not know is INVALID_VALUE), naming the combination. Sets `types` on
/// success.
Validation validate_gemm_types(cudaDataType_t a, cudaDataType_t b, cudaDataType_t c,
                               autogemmComputeType_t compute, ComputeType fp32_math, GemmTypes& types);

/// The compute type that asks autogemmGemmEx for `types`' arithmetic whatever the handle's math mode
/// (AUTOGEMM_COMPUTE_32F for 16-bit operands; the pedantic, TF32 or 3xTF32 one for FP32 operands).
autogemmComputeType_t compute_type_of(const GemmTypes& types);

}  // namespace autogemm
