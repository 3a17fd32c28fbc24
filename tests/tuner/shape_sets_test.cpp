// Shape parsing and the named sets.
#include <gtest/gtest.h>

#include "shape_sets.hpp"

namespace autogemm {
namespace {

TEST(ShapeSets, SeedHasTheTwelveIssueShapes) {
  const auto seed = named_shape_set("seed");
  ASSERT_TRUE(seed.has_value());
  ASSERT_EQ(seed->size(), 12u);
  EXPECT_EQ(seed->front(), (Shape{3072, 3072, 3072}));
  EXPECT_EQ(seed->back(), (Shape{128, 128, 32768}));
  EXPECT_FALSE(named_shape_set("no-such-set").has_value());
}

TEST(ShapeSets, ParseShape) {
  EXPECT_EQ(parse_shape("1,2,3"), (Shape{1, 2, 3}));
  EXPECT_EQ(parse_shape("4096x11008x4096"), (Shape{4096, 11008, 4096}));
  for (const char* bad : {"", "1,2", "1,2,3,4", "0,1,1", "-1,2,3", "a,b,c", "1,,3", "99999999999,1,1", "1,2,3 "})
    EXPECT_FALSE(parse_shape(bad).has_value()) << bad;
}

TEST(ShapeSets, TransformerSet) {
  const auto t = named_shape_set("transformer");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->size(), 8u);
  EXPECT_NE(std::find(t->begin(), t->end(), Shape{2048, 4096, 11008}), t->end());
}

TEST(ShapeSets, PerfSet) {
  const auto p = named_shape_set("perf");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p, (std::vector<Shape>{{4096, 4096, 4096}, {1000, 1000, 1000}, {127, 3001, 1531}, {4096, 11008, 4096}}));
  EXPECT_EQ(shape_set_names(), (std::vector<std::string>{"seed", "transformer", "perf", "llm"}));
}

TEST(ShapeSets, LlmSet) {
  const auto l = named_shape_set("llm");
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->size(), 42u);  // 7 token counts x 6 projections
  EXPECT_NE(std::find(l->begin(), l->end(), Shape{1, 4096, 4096}), l->end());
  EXPECT_NE(std::find(l->begin(), l->end(), Shape{8192, 4096, 14336}), l->end());
}

TEST(ShapeSets, ParseRange) {
  std::string why;
  const auto r = parse_range("M=1..4096,N=3072,K=3072", &why);
  ASSERT_TRUE(r.has_value()) << why;
  ASSERT_EQ(r->size(), 13u);  // 1, 2, 4, ..., 4096
  EXPECT_EQ(r->front(), (Shape{1, 3072, 3072}));
  EXPECT_EQ(r->back(), (Shape{4096, 3072, 3072}));
  EXPECT_EQ(parse_range("M=100..300,N=8,K=8", &why)->size(), 2u);  // 128, 256
  EXPECT_FALSE(parse_range("M=1..8,N=3", &why).has_value());
  EXPECT_NE(why.find("K is missing"), std::string::npos) << why;
  EXPECT_FALSE(parse_range("M=8..1,N=3,K=3", &why).has_value());
  EXPECT_FALSE(parse_range("Q=8,N=3,K=3", &why).has_value());
  EXPECT_NE(why.find("unknown dimension"), std::string::npos);
  EXPECT_FALSE(parse_range("M=x,N=3,K=3", &why).has_value());
}

}  // namespace
}  // namespace autogemm
