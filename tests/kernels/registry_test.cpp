// The compiled registry: valid, uniquely named instances that parse back to their configs, found by
// name, and at least one per (layout, alignment) class even in a filtered build.
#include <gtest/gtest.h>

#include <set>

#include "registry.hpp"

namespace autogemm {
namespace {

TEST(Registry, InstancesAreValidUniqueAndNamedByConfig) {
  const auto& reg = kernel_registry();
  ASSERT_FALSE(reg.empty());
  std::set<std::string_view> names;
  for (const KernelInstance& k : reg) {
    EXPECT_TRUE(is_valid(k.config)) << k.name;
    EXPECT_EQ(kernel_name(k.config), k.name);
    EXPECT_TRUE(names.insert(k.name).second) << "duplicate " << k.name;
    EXPECT_NE(k.launch, nullptr);
    EXPECT_NE(k.kernel, nullptr);
    EXPECT_EQ(find_kernel(k.name), &k);
  }
  EXPECT_EQ(find_kernel("simt_sgemm_no_such_kernel"), nullptr);
  EXPECT_FALSE(kernel_grid_id().empty());
}

// Every FP32 layout and alignment class; with the tensor-core family (a build for sm_90a with
// CUTLASS), every layout of each of its 16-bit operand types too, and its TF32 and 3xTF32 instances.
TEST(Registry, EveryLayoutAndAlignmentClassIsCompiled) {
  std::set<std::string> classes, wgmma;
  for (const KernelInstance& k : kernel_registry()) {
    const std::string cls = layout_code(k.config.op_a, k.config.op_b) + std::to_string(k.config.align);
    if (k.config.is_wgmma())  // named as the instances are: FP32 operands by their arithmetic
      wgmma.insert(std::string(is_tf32_wgmma(k.config) ? compute_type_name(k.config.types.compute)
                                                       : data_type_name(k.config.types.a)) +
                   "_" + cls);
    else
      classes.insert(cls);
  }
  EXPECT_EQ(classes, (std::set<std::string>{"nn1", "nn4", "nt1", "nt4", "tn1", "tn4", "tt1", "tt4"}));
#if AUTOGEMM_WGMMA_INSTANCES
  // TF32 and 3xTF32 instances read K-major copies of the other layouts (`tn`), TF32 register-A
  // instances an M-major A in place (`nn`).
  EXPECT_EQ(wgmma, (std::set<std::string>{"bf16_nn8", "bf16_nt8", "bf16_tn8", "bf16_tt8", "f16_nn8", "f16_nt8",
                                          "f16_tn8", "f16_tt8", "tf32_tn4", "tf32_nn4", "3xtf32_tn4"}));
#else
  EXPECT_TRUE(wgmma.empty());
#endif
}

}  // namespace
}  // namespace autogemm
