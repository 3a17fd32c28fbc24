// AUTOGEMM_RECORD_UNTUNED's file: header once, each problem once per process, and readable by
// `gemm-tune tune --shapes` (load_problems_file), also when 16 threads record at once.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "../db/db_test_util.hpp"
#include "problem_data.hpp"
#include "record_untuned.hpp"
#include "tuned_lookup.hpp"

namespace autogemm {
namespace {

using db::testing::ScratchDir;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RecordUntuned, HeaderOnceEachProblemOnceAndReadableByTheTuner) {
  ScratchDir dir;
  const std::string path = dir.file("untuned.csv");
  record_untuned(path, 'n', 't', 100, 200, 300);
  record_untuned(path, 'n', 't', 100, 200, 300);  // again: not written twice
  record_untuned(path, 't', 'n', 7, 8, 9);
  EXPECT_EQ(read(path), "transa,transb,m,n,k\nn,t,100,200,300\nt,n,7,8,9\n");
  const auto problems = load_problems_file(path, Op::N, Op::N);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].op_b, Op::T);
  EXPECT_EQ(problems[0].m, 100);
  EXPECT_EQ(problems[1].op_a, Op::T);
  EXPECT_EQ(problems[1].k, 9);
}

TEST(RecordUntuned, ConcurrentRecordersWriteWholeLines) {
  ScratchDir dir;
  const std::string path = dir.file("untuned.csv");
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) record_untuned(path, 'n', 'n', 1 + t, 1 + i, 64);
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(load_problems_file(path, Op::N, Op::N).size(), 16u * 50u);
}

TEST(RecordUntuned, UnwritablePathIsAWarningNotAFailure) {
  EXPECT_NO_THROW(record_untuned("/nonexistent-dir/untuned.csv", 'n', 'n', 1, 2, 3));
}

TEST(TunedLookupConcurrency, SixteenThreadsOfFirstLookups) {
  ScratchDir dir;
  db::Entry e = db::testing::sample_entry(0);
  e.candidate.kernel = std::string(kernel_registry().front().name);
  {
    db::TuningDb d(dir.file("t.sqlite3"), db::OpenMode::kReadWrite);
    d.record({e});
  }
  reset_tuned_lookup();
  const std::vector<std::string> paths{dir.file("t.sqlite3")};
  std::atomic<int> found{0}, rows{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&] {
      found += find_tuned(paths, e.device, e.problem).has_value();
      rows += static_cast<int>(tuned_measurements(paths, e.device, e.problem.transa, e.problem.transb, e.problem.align).size());
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(found.load(), 16);
  EXPECT_EQ(rows.load(), 16);
  reset_tuned_lookup();
}

}  // namespace
}  // namespace autogemm
