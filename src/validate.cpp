// See validate.hpp. Sizes are ints as in cuBLAS; all offsets are formed in 64-bit inside, so no
// size is rejected for 32-bit overflow.
#include "validate.hpp"

#include <algorithm>
#include <optional>

namespace autogemm {
namespace {

bool valid_op(autogemmOperation_t op) {
  return op == AUTOGEMM_OP_N || op == AUTOGEMM_OP_T || op == AUTOGEMM_OP_C;
}

Validation bad(std::string message) { return {AUTOGEMM_STATUS_INVALID_VALUE, std::move(message)}; }

}  // namespace

Validation validate_sgemm(autogemmOperation_t transa, autogemmOperation_t transb, int m, int n, int k,
                          const float* alpha, const void* a, int lda, const void* b, int ldb, const float* beta,
                          const void* c, int ldc) {
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

namespace {
// cudaDataType_t's name of the types autogemm knows of, else null.
const char* cuda_type_name(cudaDataType_t t) {
  switch (t) {
    case CUDA_R_32F: return "CUDA_R_32F";
    case CUDA_R_16BF: return "CUDA_R_16BF";
    case CUDA_R_16F: return "CUDA_R_16F";
    case CUDA_R_64F: return "CUDA_R_64F";
    case CUDA_R_8I: return "CUDA_R_8I";
    case CUDA_R_32I: return "CUDA_R_32I";
    case CUDA_R_8F_E4M3: return "CUDA_R_8F_E4M3";
    case CUDA_R_8F_E5M2: return "CUDA_R_8F_E5M2";
    case CUDA_C_32F: return "CUDA_C_32F";
    case CUDA_C_64F: return "CUDA_C_64F";
    default: return nullptr;
  }
}

std::optional<DataType> supported_type(cudaDataType_t t) {
  switch (t) {
    case CUDA_R_32F: return DataType::kF32;
    case CUDA_R_16BF: return DataType::kBF16;
    case CUDA_R_16F: return DataType::kF16;
    default: return std::nullopt;
  }
}

std::string type_text(cudaDataType_t t) {
  const char* name = cuda_type_name(t);
  return name ? name : "cudaDataType_t " + std::to_string(static_cast<int>(t));
}
}  // namespace

namespace {
const char* compute_name(autogemmComputeType_t compute) {
  switch (compute) {
    case AUTOGEMM_COMPUTE_32F: return "AUTOGEMM_COMPUTE_32F";
    case AUTOGEMM_COMPUTE_32F_PEDANTIC: return "AUTOGEMM_COMPUTE_32F_PEDANTIC";
    case AUTOGEMM_COMPUTE_32F_FAST_TF32: return "AUTOGEMM_COMPUTE_32F_FAST_TF32";
    case AUTOGEMM_COMPUTE_32F_EMULATED_3XTF32: return "AUTOGEMM_COMPUTE_32F_EMULATED_3XTF32";
  }
  return nullptr;
}
}  // namespace

Validation validate_gemm_types(cudaDataType_t a, cudaDataType_t b, cudaDataType_t c, autogemmComputeType_t compute,
                               ComputeType fp32_math, GemmTypes& types) {
  const char* names[] = {"Atype", "Btype", "Ctype"};
  const cudaDataType_t given[] = {a, b, c};
  for (int i = 0; i < 3; ++i)
    if (cuda_type_name(given[i]) == nullptr)
      return bad(std::string(names[i]) + " = " + std::to_string(static_cast<int>(given[i])) +
                 " is not a cudaDataType_t autogemm knows");
  if (compute_name(compute) == nullptr)
    return bad("computeType = " + std::to_string(static_cast<int>(compute)) +
               " is not an autogemmComputeType_t (AUTOGEMM_COMPUTE_32F 0 ... AUTOGEMM_COMPUTE_32F_EMULATED_3XTF32 3)");
  const std::string combination =
      "Atype " + type_text(a) + ", Btype " + type_text(b) + ", Ctype " + type_text(c) + " with " + compute_name(compute);
  const auto ta = supported_type(a), tb = supported_type(b), tc = supported_type(c);
  const bool fp32 = ta == DataType::kF32 && tb == DataType::kF32 && tc == DataType::kF32;
  const bool sixteen = ta && tb && tc && *ta == *tb && *ta != DataType::kF32 && (*tc == *ta || *tc == DataType::kF32);
  if (!fp32 && !(sixteen && compute == AUTOGEMM_COMPUTE_32F))
    return {AUTOGEMM_STATUS_NOT_SUPPORTED,
            combination + " is not implemented (A and B both CUDA_R_16BF or CUDA_R_16F with C of their type or "
                          "CUDA_R_32F and AUTOGEMM_COMPUTE_32F; or A, B and C CUDA_R_32F with any compute type)"};
  ComputeType arithmetic = ComputeType::kF32;
  switch (compute) {
    case AUTOGEMM_COMPUTE_32F: arithmetic = fp32 ? fp32_math : ComputeType::kF32; break;
    case AUTOGEMM_COMPUTE_32F_PEDANTIC: arithmetic = ComputeType::kF32; break;
    case AUTOGEMM_COMPUTE_32F_FAST_TF32: arithmetic = ComputeType::kTF32; break;
    case AUTOGEMM_COMPUTE_32F_EMULATED_3XTF32: arithmetic = ComputeType::k3xTF32; break;
  }
  types = GemmTypes{*ta, *tb, *tc, arithmetic};
  return {};
}

autogemmComputeType_t compute_type_of(const GemmTypes& types) {
  if (types.a != DataType::kF32) return AUTOGEMM_COMPUTE_32F;
  switch (types.compute) {
    case ComputeType::kF32: return AUTOGEMM_COMPUTE_32F_PEDANTIC;
    case ComputeType::kTF32: return AUTOGEMM_COMPUTE_32F_FAST_TF32;
    case ComputeType::k3xTF32: return AUTOGEMM_COMPUTE_32F_EMULATED_3XTF32;
  }
  return AUTOGEMM_COMPUTE_32F;
}

}  // namespace autogemm
