// The generator's output: every kept instance lands in exactly one group file, in the registry slot of
// its grid position; the registry file calls every group, the name filter works, and bad options
// are refused with a message.
#include <gtest/gtest.h>

#include <regex>

#include "grid_table.hpp"
#include "instance_generator.hpp"

namespace autogemm::generator {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// The line of `files` that names instance `name`, or "" if none does.
std::string line_naming(const std::map<std::string, std::string>& files, const std::string& name) {
  const std::string literal = "\"" + name + "\"";
  for (const auto& [file, text] : files)
    if (const size_t at = text.find(literal); at != std::string::npos) {
      const size_t begin = text.rfind('\n', at) + 1;
      return text.substr(begin, text.find('\n', at) - begin);
    }
  return "";
}

TEST(InstanceGenerator, EveryInstanceInExactlyOneGroup) {
  const auto grid = enumerate_grid();
  const auto files = generate_sources(grid, {4, "", true, 2, 3});
  ASSERT_EQ(files.size(), 10u);  // 4 groups, 2 wgmma groups, 3 wgmma tf32 groups, the registry
  for (const auto& c : grid) {
    const std::string literal = "\"" + kernel_name(c) + "\"";
    size_t hits = 0;
    for (const auto& [name, text] : files) hits += count(text, literal);
    EXPECT_EQ(hits, 1u) << kernel_name(c);
  }
  // Round-robin: group sizes differ by at most one.
  size_t lo = SIZE_MAX, hi = 0;
  for (int g = 0; g < 4; ++g) {
    const size_t n = count(files.at("instances_0" + std::to_string(g) + ".cu"), "] = {");
    lo = std::min(lo, n);
    hi = std::max(hi, n);
  }
  EXPECT_LE(hi - lo, 1u);
  const std::string& reg = files.at("registry.cpp");
  for (int g = 0; g < 4; ++g) EXPECT_EQ(count(reg, "register_group_" + std::to_string(g) + "("), 2u);
  for (int g = 0; g < 2; ++g) EXPECT_EQ(count(reg, "register_wgmma_group_" + std::to_string(g) + "("), 2u);
  for (int g = 0; g < 3; ++g) EXPECT_EQ(count(reg, "register_wgmma_tf32_group_" + std::to_string(g) + "("), 2u);
  EXPECT_NE(reg.find("all(" + std::to_string(grid.size()) + ")"), std::string::npos);
}

// Whichever group compiles an instance, it fills the registry slot of its position in the kept
// grid, so a filtered build's registry keeps the grid's order (the untuned choice breaks exact ties
// by it) and every slot is filled once.
TEST(InstanceGenerator, EachInstanceFillsTheSlotOfItsGridPosition) {
  const auto grid = enumerate_grid();
  for (const std::string filter : {"", "sm90_wgmma_bf16|simt_gemv_f16|_nt_align4"})
    for (const bool sm90a : {true, false}) {  // a build without sm_90a drops the TMA and wgmma instances
      auto kept = filter_grid(grid, filter);
      if (!sm90a) std::erase_if(kept, [](const KernelConfig& c) { return c.is_tma() || c.is_wgmma(); });
      const auto files = generate_sources(grid, {4, filter, sm90a, sm90a ? 3 : 0, 2});
      for (size_t i = 0; i < kept.size(); ++i)
        EXPECT_EQ(line_naming(files, kernel_name(kept[i])).rfind("  out[" + std::to_string(i) + "] = {", 0), 0u)
            << kernel_name(kept[i]) << " (filter '" << filter << "', sm_90a " << sm90a << ")";
    }
}

// wgmma instances include CUTLASS: they go to their own groups (16-bit operands apart from FP32 ones,
// so adding to one set recompiles none of the other), those that differ only in their swizzle (one
// kernel) to the same group, and a build without CUTLASS (0 groups) drops them all.
TEST(InstanceGenerator, WgmmaInstancesInTheirOwnGroupsSwizzleTwinsTogether) {
  const auto grid = enumerate_grid();
  const auto files = generate_sources(grid, {4, "", true, 3});
  size_t wgmma = 0;
  for (const auto& c : grid) {
    if (!c.is_wgmma()) continue;
    ++wgmma;
    KernelConfig base = c;
    base.swizzle = 1;
    for (const auto& [name, text] : files) {
      if (count(text, "\"" + kernel_name(c) + "\"") == 0) continue;
      EXPECT_EQ(name.rfind(is_tf32_wgmma(c) ? "wgmma_tf32_instances_" : "wgmma_instances_", 0), 0u)
          << kernel_name(c) << " in " << name;
      EXPECT_EQ(count(text, "\"" + kernel_name(base) + "\""), 1u) << kernel_name(c) << " apart from its twin";
    }
  }
  ASSERT_GT(wgmma, 0u);
  for (const auto& [name, text] : generate_sources(grid, {4, "", true, 0})) {
    EXPECT_EQ(name.rfind("wgmma_", 0), std::string::npos) << name;
    EXPECT_EQ(count(text, "sm90_wgmma_"), 0u) << name;
  }
}

TEST(InstanceGenerator, FilterKeepsOnlyMatchingNames) {
  const auto grid = enumerate_grid();
  const auto kept = filter_grid(grid, "_tn_align1$");
  ASSERT_FALSE(kept.empty());
  for (const auto& c : kept) {
    EXPECT_EQ(c.op_a, Op::T);
    EXPECT_EQ(c.op_b, Op::N);
    EXPECT_EQ(c.align, 1);
  }
  const auto files = generate_sources(grid, {2, "_tn_align1$"});
  EXPECT_EQ(count(files.at("instances_00.cu") + files.at("instances_01.cu"), "] = {"), kept.size());
  EXPECT_EQ(filter_grid(grid, "").size(), grid.size());
}

TEST(InstanceGenerator, TmaInstancesOnlyWhenTheBuildTargetsSm90a) {
  // The TMA instances launch through their own template; a build without sm_90a drops them.
  const auto grid = enumerate_grid();
  size_t tma = 0;
  size_t wgmma = 0;  // dropped too: generate_sources' default has no wgmma groups
  for (const auto& c : grid) tma += c.is_tma(), wgmma += c.is_wgmma();
  ASSERT_GT(tma, 0u);
  auto all_text = [](const std::map<std::string, std::string>& files) {
    std::string text;
    for (const auto& [name, body] : files) text += body;
    return text;
  };
  const std::string with = all_text(generate_sources(grid, {4, ""}));
  EXPECT_EQ(count(with, "&detail::launch_simt_sgemm_tma<"), tma);
  EXPECT_EQ(count(with, "simt_sgemm_tma_kernel<"), tma);
  GeneratorOptions without{4, ""};
  without.tma_instances = false;
  const auto files = generate_sources(grid, without);
  const std::string text = all_text(files);
  EXPECT_EQ(count(text, "launch_simt_sgemm_tma"), 0u);
  EXPECT_EQ(count(text, "] = {"), grid.size() - tma - wgmma);
  EXPECT_NE(files.at("registry.cpp").find("all(" + std::to_string(grid.size() - tma - wgmma) + ")"),
            std::string::npos);
}

TEST(InstanceGenerator, BadOptionsAreRefused) {
  const auto grid = enumerate_grid();
  try {
    generate_sources(grid, {4, "([unclosed"});
    FAIL() << "bad regex accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("([unclosed"), std::string::npos);
  }
  EXPECT_THROW(generate_sources(grid, {0, ""}), std::invalid_argument);
}

TEST(InstanceGenerator, OutputIsDeterministic) {
  const auto grid = enumerate_grid();
  EXPECT_EQ(generate_sources(grid, {3, ""}), generate_sources(grid, {3, ""}));
}

}  // namespace
}  // namespace autogemm::generator
