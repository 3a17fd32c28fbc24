// The runtime's database lookup without a GPU: search order and overlay, kernels this build lacks,
// and damaged files that are skipped (with a warning), never fatal.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include "../db/db_test_util.hpp"
#include "check.hpp"
#include "registry.hpp"
#include "runtime_mode.hpp"
#include "status.hpp"
#include "tuned_lookup.hpp"

namespace autogemm {
namespace {

using db::testing::ScratchDir;
using db::testing::sample_entry;

class TunedLookupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* old = std::getenv("AUTOGEMM_DB");
    saved_ = old ? std::optional<std::string>(old) : std::nullopt;
    reset_tuned_lookup();
  }
  void TearDown() override {
    saved_ ? setenv("AUTOGEMM_DB", saved_->c_str(), 1) : unsetenv("AUTOGEMM_DB");
    reset_tuned_lookup();
  }
  // An entry naming a kernel this build has (or `kernel` when given).
  db::Entry entry(double median_us, const std::string& kernel = "") {
    db::Entry e = sample_entry(0);
    e.candidate.kernel = kernel.empty() ? std::string(kernel_registry().front().name) : kernel;
    e.measurement.median_us = median_us;
    e.measurement.min_us = median_us;
    return e;
  }
  std::optional<std::string> saved_;
};

TEST_F(TunedLookupTest, SearchPathFromEnvironment) {
  setenv("AUTOGEMM_DB", "/x/a.sqlite3:/y/b.sqlite3", 1);
  EXPECT_EQ(tuning_db_search_path(), (std::vector<std::string>{"/x/a.sqlite3", "/y/b.sqlite3"}));
  unsetenv("AUTOGEMM_DB");
  const auto defaults = tuning_db_search_path();
  ASSERT_EQ(defaults.size(), 2u);  // user database, then the system database
  EXPECT_NE(defaults[1].find("autogemm/tuning.sqlite3"), std::string::npos);
}

TEST_F(TunedLookupTest, FirstDatabaseWithAnEntryWins) {
  ScratchDir dir;
  const db::Entry user = entry(50), system = entry(10);
  {
    db::TuningDb u(dir.file("user.sqlite3"), db::OpenMode::kReadWrite);
    u.record({user});
    db::TuningDb s(dir.file("system.sqlite3"), db::OpenMode::kReadWrite);
    s.record({system});
  }
  setenv("AUTOGEMM_DB", (dir.file("user.sqlite3") + ":" + dir.file("system.sqlite3")).c_str(), 1);
  std::string source;
  const auto found = find_tuned(tuning_db_search_path(), user.device, user.problem, &source);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->measurement.median_us, 50);  // the user's entry overrides, even if slower
  EXPECT_EQ(source, dir.file("user.sqlite3"));
  db::ProblemKey other = user.problem;
  other.m += 1;
  EXPECT_FALSE(find_tuned(tuning_db_search_path(), user.device, other).has_value());
}

// A table installed from another kind of GPU serves nothing here, and says so once per file.
TEST_F(TunedLookupTest, ATableOfOtherDevicesOnlyIsWarnedAboutOnce) {
  ScratchDir dir;
  const db::Entry h100 = entry(50);
  {
    db::TuningDb d(dir.file("h100.sqlite3"), db::OpenMode::kReadWrite);
    d.record({h100});
  }
  db::DeviceSignature a100 = h100.device;
  a100.name = "NVIDIA A100-SXM4-80GB", a100.cc_major = 8, a100.sm_count = 108;
  const std::vector<std::string> paths{dir.file("h100.sqlite3")};
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(find_tuned(paths, a100, h100.problem).has_value());
  db::ProblemKey other = h100.problem;
  other.m += 1;
  EXPECT_FALSE(find_tuned(paths, a100, other).has_value());
  EXPECT_TRUE(find_tuned(paths, h100.device, h100.problem).has_value());  // the H100 itself: no warning
  const std::string said = ::testing::internal::GetCapturedStderr();
  const std::string expect = "has rows for 1 other device (" + h100.device.key() + ") and none for this one (" +
                             a100.key() + ")";
  EXPECT_NE(said.find(expect), std::string::npos) << said;
  EXPECT_EQ(said.find(expect), said.rfind(expect)) << "warned twice: " << said;
}

TEST_F(TunedLookupTest, KernelsThisBuildLacksAreSkipped) {
  ScratchDir dir;
  {
    db::TuningDb d(dir.file("t.sqlite3"), db::OpenMode::kReadWrite);
    d.record({entry(1, "simt_sgemm_9x9x9_gone"), entry(20)});
  }
  setenv("AUTOGEMM_DB", dir.file("t.sqlite3").c_str(), 1);
  const auto found = find_tuned(tuning_db_search_path(), entry(0).device, entry(0).problem);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->candidate.kernel, kernel_registry().front().name);
}

// Rows the caller's rule refuses (the runtime's: a 3xTF32 split that sums too long a K) give way to
// the key's next fastest row, not to no row.
TEST_F(TunedLookupTest, RowsTheCallerRefusesGiveWayToTheNext) {
  ScratchDir dir;
  db::Entry refused = entry(1), kept = entry(20);
  refused.candidate.splits = 2, refused.candidate.split_mode = "parallel";
  {
    db::TuningDb d(dir.file("t.sqlite3"), db::OpenMode::kReadWrite);
    d.record({refused, kept});
  }
  setenv("AUTOGEMM_DB", dir.file("t.sqlite3").c_str(), 1);
  const auto found = find_tuned(tuning_db_search_path(), entry(0).device, entry(0).problem, nullptr, false,
                                [](const db::Entry& e) { return e.candidate.splits != 2; });
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->measurement.median_us, 20);
  EXPECT_EQ(find_tuned(tuning_db_search_path(), entry(0).device, entry(0).problem)->measurement.median_us, 1);
}

TEST_F(TunedLookupTest, DamagedAndMissingFilesAreSkipped) {
  ScratchDir dir;
  std::ofstream(dir.file("corrupt.sqlite3")) << "garbage garbage garbage garbage garbage garbage garbage garbage";
  {
    db::TuningDb d(dir.file("good.sqlite3"), db::OpenMode::kReadWrite);
    d.record({entry(5)});
  }
  setenv("AUTOGEMM_DB",
         (dir.file("missing.sqlite3") + ":" + dir.file("corrupt.sqlite3") + ":" + dir.file("good.sqlite3")).c_str(), 1);
  for (int i = 0; i < 3; ++i) {  // repeated lookups: still no exception, still found in the good file
    const auto found = find_tuned(tuning_db_search_path(), entry(0).device, entry(0).problem);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->measurement.median_us, 5);
  }
}

// The untuned choice's neighbours of a scalar-class problem: shapes tuned in its own class keep their own
// rows; shapes tuned only in the aligned class are borrowed, credited to the align1 twins. Cached per
// class until the database is forgotten.
TEST_F(TunedLookupTest, NeighboursBorrowOnlyShapesTheOwnClassLacks) {
  const KernelInstance* k4 = nullptr;
  const KernelInstance* k1 = nullptr;
  for (const auto& k : kernel_registry()) {
    if (k.config.is_gemv() || k.config.op_a != Op::N || k.config.op_b != Op::N || k.config.align != 4) continue;
    KernelConfig twin = k.config;
    twin.align = 1;
    if (const KernelInstance* t = find_kernel(kernel_name(twin)); t != nullptr) {
      k4 = &k, k1 = t;
      break;
    }
  }
  ASSERT_NE(k4, nullptr);
  auto at = [&](int m, int align, const KernelInstance* k, double us) {
    db::Entry e = entry(us, std::string(k->name));
    e.problem.m = m, e.problem.align = align;
    return e;
  };
  ScratchDir dir;
  const std::string path = dir.file("t.sqlite3");
  {
    db::TuningDb d(path, db::OpenMode::kReadWrite);
    d.record({at(64, 4, k4, 10), at(128, 4, k4, 20), at(64, 1, k1, 30)});
  }
  const std::vector<std::string> paths{path};
  const db::DeviceSignature device = entry(0).device;
  auto shapes_and_times = [&](int align) {
    std::multiset<std::pair<int, double>> out;
    for (const auto& x : neighbour_measurements(paths, device, 'n', 'n', align)) {
      EXPECT_EQ(x.kernel, std::string(align == 1 ? k1->name : k4->name));
      out.emplace(x.m, x.median_us);
    }
    return out;
  };
  // m = 64 was tuned in both classes: each keeps its own row; m = 128 only aligned: borrowed.
  EXPECT_EQ(shapes_and_times(1), (std::multiset<std::pair<int, double>>{{64, 30.0}, {128, 20.0}}));
  EXPECT_EQ(shapes_and_times(4), (std::multiset<std::pair<int, double>>{{64, 10.0}, {128, 20.0}}));
  {
    db::TuningDb d(path, db::OpenMode::kReadWrite);
    d.record({at(256, 4, k4, 40)});
  }
  EXPECT_EQ(shapes_and_times(1).size(), 2u);  // cached
  forget_database(path);
  EXPECT_EQ(shapes_and_times(1), (std::multiset<std::pair<int, double>>{{64, 30.0}, {128, 20.0}, {256, 40.0}}));
}

// The runtime, online tuning and the tuner key problems the same way.
TEST(TuningKey, SpellsOpsAsTheDatabaseDoes) {
  const db::ProblemKey key = tuning_key(Op::T, Op::N, 3001, 127, 1531, 1);
  EXPECT_EQ(key.dtype, "f32");
  EXPECT_EQ(key.transa, 't');
  EXPECT_EQ(key.transb, 'n');
  EXPECT_EQ(key.m, 3001);
  EXPECT_EQ(key.n, 127);
  EXPECT_EQ(key.k, 1531);
  EXPECT_EQ(key.align, 1);
  EXPECT_EQ(layout_code(Op::N, Op::T), "nt");
}

// A problem's types reach its key, and so its database rows and the runtime's cache: the same shape
// in another type is another problem.
TEST(TuningKey, CarriesTheProblemsTypes) {
  GemmProblem p;
  p.op_a = Op::N, p.op_b = Op::T, p.m = 64, p.n = 32, p.k = 16;
  EXPECT_EQ(tuning_key(p, 4).dtype, "f32");
  p.types = {DataType::kBF16, DataType::kBF16, DataType::kF32, ComputeType::kF32};
  const db::ProblemKey bf16 = tuning_key(p, 4);
  EXPECT_EQ(bf16.dtype, "bf16.bf16.f32.f32");
  EXPECT_EQ(bf16.transb, 't');
  EXPECT_FALSE(bf16 == tuning_key(Op::N, Op::T, 64, 32, 16, 4));
}

// The result check's bound: the FP32 sum's, plus C's unit roundoff for a 16-bit C.
TEST(ResultCheck, BoundIsTheSumsPlusTheOutputsRounding) {
  const double sum = error_bound(1024);
  EXPECT_DOUBLE_EQ(sum, 1e-6 * 32 + 1e-6);
  EXPECT_DOUBLE_EQ(error_bound(1024, {DataType::kBF16, DataType::kBF16, DataType::kF32, ComputeType::kF32}), sum);
  EXPECT_DOUBLE_EQ(error_bound(1024, {DataType::kF16, DataType::kF16, DataType::kF16, ComputeType::kF32}),
                   sum + 1.0 / 2048);
  EXPECT_DOUBLE_EQ(error_bound(1024, {DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32}),
                   sum + 1.0 / 256);
}

// The system database: AUTOGEMM_SYSTEM_DB names it; without it, the installed prefix's (the test
// binary is not installed, so the configured one), after the user's database.
TEST(TuningDbSearchPath, SystemDatabaseFollowsAutogemmSystemDb) {
  const char* saved_db = std::getenv("AUTOGEMM_DB");
  const std::string keep_db = saved_db ? saved_db : "";
  unsetenv("AUTOGEMM_DB");
  setenv("AUTOGEMM_SYSTEM_DB", "/opt/fleet/tuning.sqlite3", 1);
  EXPECT_EQ(system_db_path(), "/opt/fleet/tuning.sqlite3");
  const auto path = tuning_db_search_path();
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(path[1], "/opt/fleet/tuning.sqlite3");
  unsetenv("AUTOGEMM_SYSTEM_DB");
  EXPECT_EQ(system_db_path(), AUTOGEMM_SYSTEM_DB_PATH_FOR_TESTS);
  if (saved_db) setenv("AUTOGEMM_DB", keep_db.c_str(), 1);
}

TEST(RuntimeMode, Parse) {
  EXPECT_EQ(parse_runtime_mode("tuned"), RuntimeMode::kTuned);
  EXPECT_EQ(parse_runtime_mode(""), RuntimeMode::kTuned);
  EXPECT_EQ(parse_runtime_mode("heuristic"), RuntimeMode::kHeuristic);
  EXPECT_EQ(parse_runtime_mode("online"), RuntimeMode::kOnline);
  EXPECT_FALSE(parse_runtime_mode("fast").has_value());
}

}  // namespace
}  // namespace autogemm
