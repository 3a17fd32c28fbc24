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
}

TEST(DataTypes, AnythingElseIsNotAKey) {
  for (const char* bad : {"", "f64", "F32", "f32.f32.f32.f32", "bf16.bf16.f32", "bf16.bf16.f32.f32.f32",
                          "bf16..f32.f32", "bf16.bf16.f32.f16", "bf16.bf16.f32.f32."})
    EXPECT_FALSE(parse_types_key(bad).has_value()) << bad;
}

TEST(DataTypes, InstancesComputeFP32Only) {
  const KernelConfig c = enumerate_grid().front();
  EXPECT_EQ(c.types, kF32Types);
  EXPECT_EQ(invalid_reason(c), nullptr);
  KernelConfig other = c;
  other.types.a = other.types.b = DataType::kBF16;
  ASSERT_NE(invalid_reason(other), nullptr);
  EXPECT_STREQ(invalid_reason(other), "the SIMT families compute FP32 only (types f32)");
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
}

}  // namespace
}  // namespace autogemm
