// See validate.hpp. Sizes are ints as in cuBLAS; all offsets are formed in 64-bit inside, so no
// size is rejected for 32-bit overflow.
#include "validate.hpp"

#include <algorithm>

namespace autogemm {
namespace {

bool valid_op(autogemmOperation_t op) {
  return op == AUTOGEMM_OP_N || op == AUTOGEMM_OP_T || op == AUTOGEMM_OP_C;
}

Validation bad(std::string message) { return {AUTOGEMM_STATUS_INVALID_VALUE, std::move(message)}; }

}  // namespace

Validation validate_sgemm(autogemmOperation_t transa, autogemmOperation_t transb, int m, int n, int k,
                          const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta,
                          const float* c, int ldc) {
  if (!valid_op(transa)) return bad("transa = " + std::to_string(static_cast<int>(transa)) + " is not N (0), T (1) or C (2)");
  if (!valid_op(transb)) return bad("transb = " + std::to_string(static_cast<int>(transb)) + " is not N (0), T (1) or C (2)");
  if (m < 0) return bad("m = " + std::to_string(m) + " is negative");
  if (n < 0) return bad("n = " + std::to_string(n) + " is negative");
  if (k < 0) return bad("k = " + std::to_string(k) + " is negative");
  const int a_rows = transa == AUTOGEMM_OP_N ? m : k;
  const int b_rows = transb == AUTOGEMM_OP_N ? k : n;
  if (lda < std::max(1, a_rows))
    return bad("lda = " + std::to_string(lda) + " is less than max(1, " + (transa == AUTOGEMM_OP_N ? "m" : "k") +
               " = " + std::to_string(a_rows) + ")");
  if (ldb < std::max(1, b_rows))
    return bad("ldb = " + std::to_string(ldb) + " is less than max(1, " + (transb == AUTOGEMM_OP_N ? "k" : "n") +
               " = " + std::to_string(b_rows) + ")");
  if (ldc < std::max(1, m)) return bad("ldc = " + std::to_string(ldc) + " is less than max(1, m = " + std::to_string(m) + ")");
  if (alpha == nullptr) return bad("alpha is a null pointer");
  if (beta == nullptr) return bad("beta is a null pointer");
  if (m == 0 || n == 0) return {};  // nothing to read or write
  if (c == nullptr) return bad("C is a null pointer but m x n = " + std::to_string(m) + " x " + std::to_string(n) + " outputs are to be written");
  if (k > 0 && *alpha != 0.0f) {
    if (a == nullptr) return bad("A is a null pointer but k = " + std::to_string(k) + " and alpha != 0");
    if (b == nullptr) return bad("B is a null pointer but k = " + std::to_string(k) + " and alpha != 0");
  }
  return {};
}

}  // namespace autogemm
