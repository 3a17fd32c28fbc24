// Argument validation of autogemmSgemm, as a pure function so CPU tests can cover every case.
// Checks follow the reference BLAS order (xerbla): the first bad argument is the one reported.
#pragma once

#include <string>

#include "autogemm/autogemm.h"

namespace autogemm {

struct Validation {
  autogemmStatus_t status = AUTOGEMM_STATUS_SUCCESS;
  std::string message;  // names the bad argument and its value; empty on success
  bool ok() const { return status == AUTOGEMM_STATUS_SUCCESS; }
};

Validation validate_sgemm(autogemmOperation_t transa, autogemmOperation_t transb, int m, int n, int k,
                          const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta,
                          const float* c, int ldc);

}  // namespace autogemm
