// Argument validation: each bad argument gets INVALID_VALUE and a message that names it and its
// value; BLAS quick-return cases are accepted.
#include <gtest/gtest.h>

#include <tuple>

#include "validate.hpp"

namespace autogemm {
namespace {

const float kOne = 1.0f, kZero = 0.0f;
float g_buf[64];
const float* A = g_buf;
const float* B = g_buf;
float* C = g_buf;

Validation call(autogemmOperation_t ta, autogemmOperation_t tb, int m, int n, int k, int lda, int ldb, int ldc,
                const float* alpha = &kOne, const float* a = A, const float* b = B, const float* beta = &kZero,
                float* c = C) {
  return validate_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void expect_invalid(const Validation& v, const std::string& fragment) {
  EXPECT_EQ(v.status, AUTOGEMM_STATUS_INVALID_VALUE) << v.message;
  EXPECT_NE(v.message.find(fragment), std::string::npos) << "message '" << v.message << "' lacks '" << fragment << "'";
}

TEST(ValidateSgemm, AcceptsValidCalls) {
  EXPECT_TRUE(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 4, 5, 6, 4, 6, 4).ok());
  EXPECT_TRUE(call(AUTOGEMM_OP_T, AUTOGEMM_OP_T, 4, 5, 6, 6, 5, 4).ok());
  EXPECT_TRUE(call(AUTOGEMM_OP_C, AUTOGEMM_OP_C, 4, 5, 6, 6, 5, 4).ok());  // C == T for real types
  EXPECT_TRUE(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 4, 5, 6, 100, 100, 100).ok());
}

TEST(ValidateSgemm, RejectsBadOps) {
  expect_invalid(call(static_cast<autogemmOperation_t>(7), AUTOGEMM_OP_N, 1, 1, 1, 1, 1, 1), "transa = 7");
  expect_invalid(call(AUTOGEMM_OP_N, static_cast<autogemmOperation_t>(-1), 1, 1, 1, 1, 1, 1), "transb = -1");
}

TEST(ValidateSgemm, RejectsNegativeSizes) {
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, -1, 1, 1, 1, 1, 1), "m = -1");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 1, -2, 1, 1, 1, 1), "n = -2");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 1, 1, -3, 1, 1, 1), "k = -3");
}

TEST(ValidateSgemm, RejectsLeadingDimensionsTooSmallForTheLayout) {
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 10, 5, 7, 9, 7, 10), "lda = 9 is less than max(1, m = 10)");
  expect_invalid(call(AUTOGEMM_OP_T, AUTOGEMM_OP_N, 10, 5, 7, 6, 7, 10), "lda = 6 is less than max(1, k = 7)");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 10, 5, 7, 10, 6, 10), "ldb = 6 is less than max(1, k = 7)");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_T, 10, 5, 7, 10, 4, 10), "ldb = 4 is less than max(1, n = 5)");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 10, 5, 7, 10, 7, 9), "ldc = 9");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 0, 0, 0, 0, 1, 1), "lda = 0");  // BLAS: at least 1
}

TEST(ValidateSgemm, RejectsNullPointersOnlyWhenThereIsWork) {
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 1, 1, 1, 1, 1, 1, nullptr), "alpha");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 1, 1, 1, 1, 1, 1, &kOne, A, B, nullptr), "beta");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 2, 3, 1, 2, 1, 2, &kOne, A, B, &kZero, nullptr), "C is a null pointer");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 2, 3, 4, 2, 4, 2, &kOne, nullptr), "A is a null pointer but k = 4");
  expect_invalid(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 2, 3, 4, 2, 4, 2, &kOne, A, nullptr), "B is a null pointer");
  // No work on A and B: k = 0 or alpha = 0 (C = beta * C); no outputs at all: m or n = 0.
  EXPECT_TRUE(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 2, 3, 0, 2, 1, 2, &kOne, nullptr, nullptr).ok());
  EXPECT_TRUE(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 2, 3, 4, 2, 4, 2, &kZero, nullptr, nullptr).ok());
  EXPECT_TRUE(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 0, 3, 4, 1, 4, 1, &kOne, nullptr, nullptr, &kZero, nullptr).ok());
}

TEST(ValidateSgemm, AcceptsSizesWhoseOffsetsExceed32Bits) {
  // 64-bit indexing inside: 70000 x 70000 has offsets beyond 2^32 and is not rejected.
  EXPECT_TRUE(call(AUTOGEMM_OP_N, AUTOGEMM_OP_N, 70000, 70000, 70000, 70000, 70000, 70000).ok());
}

// autogemmGemmEx's types: the implemented combinations give their GemmTypes; any other is
// NOT_SUPPORTED naming all three types; a value that is no cudaDataType_t autogemm knows, or another
// compute type, is INVALID_VALUE naming it.
TEST(ValidateGemmTypes, ImplementedCombinationsAndMessagesForTheRest) {
  GemmTypes t;
  ASSERT_TRUE(validate_gemm_types(CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, AUTOGEMM_COMPUTE_32F, ComputeType::kF32, t).ok());
  EXPECT_EQ(t, (GemmTypes{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32}));
  ASSERT_TRUE(validate_gemm_types(CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, AUTOGEMM_COMPUTE_32F, ComputeType::kF32, t).ok());
  EXPECT_EQ(t, (GemmTypes{DataType::kF16, DataType::kF16, DataType::kF32, ComputeType::kF32}));
  ASSERT_TRUE(validate_gemm_types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, AUTOGEMM_COMPUTE_32F, ComputeType::kF32, t).ok());
  EXPECT_EQ(t, kF32Types);
  for (auto [a, b, c] : {std::tuple{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F}, std::tuple{CUDA_R_16F, CUDA_R_16F, CUDA_R_16BF},
                         std::tuple{CUDA_R_32F, CUDA_R_32F, CUDA_R_16BF}, std::tuple{CUDA_R_64F, CUDA_R_64F, CUDA_R_64F},
                         std::tuple{CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF}}) {
    const Validation v = validate_gemm_types(a, b, c, AUTOGEMM_COMPUTE_32F, ComputeType::kF32, t);
    EXPECT_EQ(v.status, AUTOGEMM_STATUS_NOT_SUPPORTED) << v.message;
    EXPECT_NE(v.message.find("Atype"), std::string::npos) << v.message;
    EXPECT_NE(v.message.find("is not implemented"), std::string::npos) << v.message;
  }
  const Validation bad = validate_gemm_types(static_cast<cudaDataType_t>(12345), CUDA_R_16BF, CUDA_R_16BF,
                                             AUTOGEMM_COMPUTE_32F, ComputeType::kF32, t);
  EXPECT_EQ(bad.status, AUTOGEMM_STATUS_INVALID_VALUE);
  EXPECT_NE(bad.message.find("Atype = 12345"), std::string::npos) << bad.message;
  const Validation compute = validate_gemm_types(CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF,
                                                 static_cast<autogemmComputeType_t>(7), ComputeType::kF32, t);
  EXPECT_EQ(compute.status, AUTOGEMM_STATUS_INVALID_VALUE);
  EXPECT_NE(compute.message.find("computeType = 7"), std::string::npos) << compute.message;
}

// FP32 operands take every compute type: AUTOGEMM_COMPUTE_32F is the handle's math mode, the others
// their own arithmetic whatever the mode; 16-bit operands take AUTOGEMM_COMPUTE_32F only.
TEST(ValidateGemmTypes, ComputeTypesOfFp32OperandsAndTheMathMode) {
  const GemmTypes tf32{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
  const GemmTypes emulated{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::k3xTF32};
  GemmTypes t;
  ASSERT_TRUE(validate_gemm_types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, AUTOGEMM_COMPUTE_32F, ComputeType::kTF32, t).ok());
  EXPECT_EQ(t, tf32);
  ASSERT_TRUE(
      validate_gemm_types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, AUTOGEMM_COMPUTE_32F, ComputeType::k3xTF32, t).ok());
  EXPECT_EQ(t, emulated);
  ASSERT_TRUE(
      validate_gemm_types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, AUTOGEMM_COMPUTE_32F_PEDANTIC, ComputeType::kTF32, t).ok());
  EXPECT_EQ(t, kF32Types);
  ASSERT_TRUE(
      validate_gemm_types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, AUTOGEMM_COMPUTE_32F_FAST_TF32, ComputeType::kF32, t).ok());
  EXPECT_EQ(t, tf32);
  ASSERT_TRUE(validate_gemm_types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, AUTOGEMM_COMPUTE_32F_EMULATED_3XTF32,
                                  ComputeType::kF32, t)
                  .ok());
  EXPECT_EQ(t, emulated);
  // The math mode is FP32's: 16-bit operands keep FP32 arithmetic under any mode.
  ASSERT_TRUE(validate_gemm_types(CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, AUTOGEMM_COMPUTE_32F, ComputeType::kTF32, t).ok());
  EXPECT_EQ(t.compute, ComputeType::kF32);
  const Validation v =
      validate_gemm_types(CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, AUTOGEMM_COMPUTE_32F_FAST_TF32, ComputeType::kF32, t);
  EXPECT_EQ(v.status, AUTOGEMM_STATUS_NOT_SUPPORTED);
  EXPECT_NE(v.message.find("with AUTOGEMM_COMPUTE_32F_FAST_TF32 is not implemented"), std::string::npos) << v.message;
}

}  // namespace
}  // namespace autogemm
