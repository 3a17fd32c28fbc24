// The tuner's options: the defaults tune, and each bad value is named.
#include <gtest/gtest.h>

#include "tuner.hpp"

namespace autogemm {
namespace {

TEST(TuneOptions, DefaultsAreValid) { EXPECT_EQ(invalid_tune_options(TuneOptions{}), ""); }

TEST(TuneOptions, AQuickPassStaysBelowAFullTimingsRepetitions) {
  TuneOptions o;
  o.quick_reps = db::kFullTimingIterations;  // its rows would rank with the full timings
  EXPECT_NE(invalid_tune_options(o).find("quick_reps = 10"), std::string::npos) << invalid_tune_options(o);
  o.quick_reps = db::kFullTimingIterations - 1;
  EXPECT_EQ(invalid_tune_options(o), "");
  o.timing.min_reps = db::kFullTimingIterations - 1;
  EXPECT_NE(invalid_tune_options(o).find("timing.min_reps = 9"), std::string::npos) << invalid_tune_options(o);
}

TEST(TuneOptions, BoundaryValuesTune) {
  TuneOptions o;
  o.quick_reps = 1;
  o.timing.max_reps = o.timing.min_reps;
  o.top = 1;
  o.quick_pool = 0;
  o.per_instance = 0;
  o.refine_instances = 0;
  o.max_candidates = 0;
  o.reject_ratio = 1;
  o.finalist_settle_ms = 0;
  EXPECT_EQ(invalid_tune_options(o), "");
}

TEST(TuneOptions, LargeValuesAreNamedExactly) {
  TuneOptions o;
  o.quick_pool = -1234567;
  EXPECT_NE(invalid_tune_options(o).find("quick_pool = -1234567:"), std::string::npos) << invalid_tune_options(o);
}

TEST(TuneOptions, EachBadValueIsNamed) {
  const std::pair<const char*, void (*)(TuneOptions&)> cases[] = {
      {"quick_reps = 0", [](TuneOptions& o) { o.quick_reps = 0; }},
      {"timing.max_reps = 5", [](TuneOptions& o) { o.timing.max_reps = 5; }},
      {"top = 0", [](TuneOptions& o) { o.top = 0; }},
      {"quick_pool = -1", [](TuneOptions& o) { o.quick_pool = -1; }},
      {"per_instance = -2", [](TuneOptions& o) { o.per_instance = -2; }},
      {"refine_instances = -1", [](TuneOptions& o) { o.refine_instances = -1; }},
      {"max_candidates = -1", [](TuneOptions& o) { o.max_candidates = -1; }},
      {"shape_budget_s = 0", [](TuneOptions& o) { o.shape_budget_s = 0; }},
      {"reject_ratio = 0.5", [](TuneOptions& o) { o.reject_ratio = 0.5; }},
      {"finalist_settle_ms = -1", [](TuneOptions& o) { o.finalist_settle_ms = -1; }},
  };
  for (const auto& [expect, set] : cases) {
    TuneOptions o;
    set(o);
    const std::string why = invalid_tune_options(o);
    EXPECT_NE(why.find(std::string("TuneOptions::") + expect), std::string::npos) << expect << ": " << why;
  }
}

}  // namespace
}  // namespace autogemm
