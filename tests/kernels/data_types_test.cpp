// The element and compute types and their one spelling: the key every layer stores, the validity
// rule that keeps instances FP32, and a problem of other types refused by name, never run.
#include <gtest/gtest.h>

#include "data_types.hpp"
#include "family.hpp"
#include "grid_table.hpp"

namespace autogemm {
namespace {

TEST(DataTypes, FP32HasTheKeyEveryExistingRowHas) {
  EXPECT_EQ(types_key(kF32Types), "f32");
  EXPECT_EQ(parse_types_key("f32"), kF32Types);
}

TEST(DataTypes, OtherCombinationsRoundTrip) {
  const GemmTypes bf16{DataType::kBF16, DataType::kBF16, DataType::kF32, ComputeType::kF32};
  EXPECT_EQ(types_key(bf16), "bf16.bf16.f32.f32");
  EXPECT_EQ(parse_types_key("bf16.bf16.f32.f32"), bf16);
  const GemmTypes f16{DataType::kF16, DataType::kF16, DataType::kF16, ComputeType::kF32};
  EXPECT_EQ(parse_types_key(types_key(f16)), f16);
  // FP32 operands in TF32 or 3xTF32 arithmetic: the arithmetic keys the row.
  const GemmTypes tf32{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
  EXPECT_EQ(types_key(tf32), "f32.f32.f32.tf32");
  EXPECT_EQ(parse_types_key("f32.f32.f32.tf32"), tf32);
  const GemmTypes emulated{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::k3xTF32};
  EXPECT_EQ(types_key(emulated), "f32.f32.f32.3xtf32");
  EXPECT_EQ(parse_types_key(types_key(emulated)), emulated);
}

// The math modes' words (AUTOGEMM_MATH, gemm-tune --math) name the arithmetics one to one.
TEST(DataTypes, MathModeWordsRoundTrip) {
  EXPECT_EQ(parse_math_mode("pedantic"), ComputeType::kF32);
  EXPECT_EQ(parse_math_mode("fp32_emulated"), ComputeType::k3xTF32);
  EXPECT_EQ(parse_math_mode("tf32"), ComputeType::kTF32);
  for (ComputeType t : {ComputeType::kF32, ComputeType::kTF32, ComputeType::k3xTF32})
    EXPECT_EQ(parse_math_mode(math_mode_name(t)), t);
  EXPECT_EQ(parse_math_mode("TF32"), std::nullopt);
  EXPECT_EQ(parse_math_mode(""), std::nullopt);
}

// A problem's arithmetic may run on an instance at least as accurate, never on a less accurate one.
TEST(DataTypes, AMoreAccurateArithmeticServesALessAccurateOne) {
  const GemmTypes tf32{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
  const GemmTypes emulated{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::k3xTF32};
  EXPECT_TRUE(serves(kF32Types, tf32));
  EXPECT_TRUE(serves(kF32Types, emulated));
  EXPECT_TRUE(serves(emulated, tf32));
  EXPECT_FALSE(serves(tf32, emulated));
  EXPECT_FALSE(serves(tf32, kF32Types));
  EXPECT_FALSE(serves(emulated, kF32Types));
  const GemmTypes bf16{DataType::kBF16, DataType::kBF16, DataType::kF32, ComputeType::kF32};
  EXPECT_FALSE(serves(kF32Types, bf16));
  EXPECT_FALSE(serves(bf16, kF32Types));
}

TEST(DataTypes, AnythingElseIsNotAKey) {
  for (const char* bad : {"", "f64", "F32", "f32.f32.f32.f32", "bf16.bf16.f32", "bf16.bf16.f32.f32.f32",
                          "bf16..f32.f32", "bf16.bf16.f32.f16", "bf16.bf16.f32.f32.", "bf16.bf16.bf16.tf32",
                          "f32.f32.bf16.3xtf32", "bf16.f16.f32.f32"})
    EXPECT_FALSE(parse_types_key(bad).has_value()) << bad;
}

TEST(DataTypes, TiledSimtInstancesComputeFP32Only) {
  const KernelConfig c = enumerate_grid().front();
  EXPECT_EQ(c.types, kF32Types);
  EXPECT_EQ(invalid_reason(c), nullptr);
  KernelConfig other = c;
  other.types.a = other.types.b = DataType::kBF16;
  ASSERT_NE(invalid_reason(other), nullptr);
  EXPECT_STREQ(invalid_reason(other), "the SIMT GEMM and TMA families compute FP32 only (types f32)");
}

TEST(DataTypes, AProblemOfOtherTypesIsRefusedByName) {
  const KernelConfig c = enumerate_grid().front();
  const KernelInstance kernel{c, "test", nullptr, nullptr};
  GemmProblem p;
  p.op_a = c.op_a, p.op_b = c.op_b, p.m = p.n = p.k = 64;
  p.lda = p.ldb = p.ldc = 64;
  DeviceLimits h100;
  h100.cc_major = 9, h100.sm_count = 132, h100.max_shared_per_block_optin = 227 * 1024;
  p.types = {DataType::kBF16, DataType::kBF16, DataType::kF32, ComputeType::kF32};
  EXPECT_EQ(cannot_implement(kernel, p, h100), "instance computes f32, the problem is bf16.bf16.f32.f32");
  // A CUDA-core FP32 instance serves the TF32 and 3xTF32 arithmetics (more accurate than either).
  p.types = {DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
  EXPECT_EQ(cannot_implement(kernel, p, h100).find("instance computes"), std::string::npos);
}

}  // namespace
}  // namespace autogemm
