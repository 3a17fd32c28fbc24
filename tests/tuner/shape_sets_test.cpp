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

}  // namespace
}  // namespace autogemm
