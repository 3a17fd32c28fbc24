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

TEST(Registry, EveryLayoutAndAlignmentClassIsCompiled) {
  std::set<std::string> classes;
  for (const KernelInstance& k : kernel_registry())
    classes.insert(layout_code(k.config.op_a, k.config.op_b) + std::to_string(k.config.align));
  EXPECT_EQ(classes, (std::set<std::string>{"nn1", "nn4", "nt1", "nt4", "tn1", "tn4", "tt1", "tt4"}));
}

}  // namespace
}  // namespace autogemm
