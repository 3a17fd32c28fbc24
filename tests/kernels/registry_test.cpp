// The compiled registry: valid, uniquely named instances that parse back to their configs, found by
// name, in the grid's order, and at least one per (layout, alignment) class even in a filtered build.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "grid_table.hpp"
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

// The registry lists the build's instances in the grid's order, whatever the build's filter and
// however the generator dealt them over its files: the untuned choice breaks exact ties by this
// order, so a filtered build must choose as the whole grid does.
TEST(Registry, InstancesInTheGridsOrder) {
  std::map<std::string, size_t> position;
  for (const KernelConfig& c : enumerate_grid()) position.emplace(kernel_name(c), position.size());
  size_t last = 0;
  for (size_t i = 0; i < kernel_registry().size(); ++i) {
    const KernelInstance& k = kernel_registry()[i];
    const auto it = position.find(std::string(k.name));
    ASSERT_NE(it, position.end()) << k.name << " is not in the grid";
    if (i > 0) EXPECT_GT(it->second, last) << k.name << " comes before the instance listed ahead of it";
    last = it->second;
  }
}

// Every FP32 layout and alignment class; GEMV instances of each 16-bit operand type and output type
// in every layout; with the tensor-core family (a build for sm_90a with CUTLASS), every layout of each
// of its 16-bit operand types too, and its TF32 and 3xTF32 instances.
TEST(Registry, EveryLayoutAndAlignmentClassIsCompiled) {
  std::set<std::string> classes, gemv16, wgmma;
  for (const KernelInstance& k : kernel_registry()) {
    const std::string cls = layout_code(k.config.op_a, k.config.op_b) + std::to_string(k.config.align);
    if (k.config.is_wgmma())  // named as the instances are: FP32 operands by their arithmetic
      wgmma.insert(std::string(is_tf32_wgmma(k.config) ? compute_type_name(k.config.types.compute)
                                                       : data_type_name(k.config.types.a)) +
                   "_" + cls);
    else if (k.config.types != kF32Types)
      gemv16.insert(std::string(data_type_name(k.config.types.a)) + "_" + data_type_name(k.config.types.c) + "_" + cls);
    else
      classes.insert(cls);
  }
  EXPECT_EQ(classes, (std::set<std::string>{"nn1", "nn4", "nt1", "nt4", "tn1", "tn4", "tt1", "tt4"}));
  std::set<std::string> every_gemv16;
  for (const char* types : {"bf16_bf16_", "bf16_f32_", "f16_f16_", "f16_f32_"})
    for (const char* layout : {"nn8", "nt8", "tn8", "tt8"}) every_gemv16.insert(std::string(types) + layout);
  EXPECT_EQ(gemv16, every_gemv16);
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
