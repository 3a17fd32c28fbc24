// AUTOGEMM_RECORD_UNTUNED's file: header once, each problem once per process, and readable by
// `gemm-tune tune --shapes` (load_problems_file) with the leading dimensions and alignment class the
// calls had, the old form still read, also when 16 threads record at once.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "../db/db_test_util.hpp"
#include "problem_data.hpp"
#include "record_untuned.hpp"
#include "tuned_lookup.hpp"
#include "tuner.hpp"

namespace autogemm {
namespace {

using db::testing::ScratchDir;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

RecordedProblem recorded(char ta, char tb, int m, int n, int k, int64_t lda, int64_t ldb, int64_t ldc, int align,
                         std::string dtype = "f32") {
  return {ta, tb, m, n, k, lda, ldb, ldc, align, std::move(dtype)};
}

TEST(RecordUntuned, HeaderOnceEachProblemOnceAndReadableByTheTuner) {
  ScratchDir dir;
  const std::string path = dir.file("untuned.csv");
  record_untuned(path, recorded('n', 't', 100, 200, 300, 100, 200, 100, 4));
  record_untuned(path, recorded('n', 't', 100, 200, 300, 100, 200, 100, 4));  // again: not written twice
  record_untuned(path, recorded('t', 'n', 7, 8, 9, 9, 9, 7, 1));
  EXPECT_EQ(read(path),
            "transa,transb,m,n,k,lda,ldb,ldc,align,dtype\nn,t,100,200,300,100,200,100,4,f32\nt,n,7,8,9,9,9,7,1,f32\n");
  const auto problems = load_problems_file(path, Op::N, Op::N);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].op_b, Op::T);
  EXPECT_EQ(problems[0].m, 100);
  EXPECT_EQ(problems[1].op_a, Op::T);
  EXPECT_EQ(problems[1].k, 9);
  EXPECT_EQ(problems[1].lda, 9);
  EXPECT_EQ(tuned_alignment_class(problems[0]), 4);
  EXPECT_EQ(tuned_alignment_class(problems[1]), 1);
}

// A problem that ran padded, or in the scalar class from an offset pointer, is tuned as it ran: with
// its leading dimensions, in its class, and found as tuned in that class when tune runs again.
TEST(RecordUntuned, PaddedAndOffsetProblemsKeepTheirLeadingDimensionsAndClass) {
  ScratchDir dir;
  const std::string path = dir.file("untuned.csv");
  record_untuned(path, recorded('n', 'n', 64, 32, 16, 128, 20, 96, 4));  // padded, aligned
  record_untuned(path, recorded('n', 'n', 64, 32, 16, 64, 16, 64, 1));   // aligned strides, offset base
  const auto problems = load_problems_file(path, Op::N, Op::N);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].lda, 128);
  EXPECT_EQ(problems[0].ldb, 20);
  EXPECT_EQ(problems[0].ldc, 96);
  EXPECT_EQ(tuned_alignment_class(problems[0]), 4);
  EXPECT_EQ(tuned_alignment_class(problems[1]), 1);
  EXPECT_EQ(Tuner::problem_key(problems[1], tuned_alignment_class(problems[1])).align, 1);
}

// A BF16 problem is recorded with its types, and `tune --shapes` tunes it as BF16 whatever --dtype
// says; a file of the form before types gets --dtype's, and is appended to in its form.
TEST(RecordUntuned, TypesAreRecordedAndReadBack) {
  ScratchDir dir;
  const std::string path = dir.file("untuned.csv");
  record_untuned(path, recorded('t', 'n', 4096, 16, 4096, 4096, 4096, 4096, 8, "bf16.bf16.bf16.f32"));
  record_untuned(path, recorded('n', 'n', 64, 32, 16, 64, 16, 64, 4));
  const auto problems = load_problems_file(path, Op::N, Op::N);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].types, (GemmTypes{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32}));
  EXPECT_EQ(tuned_alignment_class(problems[0]), 8);
  EXPECT_EQ(problems[1].types, kF32Types);
  const std::string v2 = dir.file("v2.csv");
  { std::ofstream(v2) << "transa,transb,m,n,k,lda,ldb,ldc,align\nn,n,64,32,16,64,16,64,8\n"; }
  const GemmTypes f16{DataType::kF16, DataType::kF16, DataType::kF16, ComputeType::kF32};
  EXPECT_EQ(load_problems_file(v2, Op::N, Op::N, f16).at(0).types, f16);
  record_untuned(v2, recorded('t', 't', 5, 6, 7, 7, 7, 5, 1));
  EXPECT_EQ(read(v2), "transa,transb,m,n,k,lda,ldb,ldc,align\nn,n,64,32,16,64,16,64,8\nt,t,5,6,7,7,7,5,1\n");
}

TEST(RecordUntuned, TheOldFormIsStillReadAndAppendedToAsItIs) {
  ScratchDir dir;
  const std::string path = dir.file("old.csv");
  { std::ofstream(path) << "transa,transb,m,n,k\nn,t,100,200,300\n"; }
  record_untuned(path, recorded('t', 't', 5, 6, 7, 7, 7, 5, 1));
  EXPECT_EQ(read(path), "transa,transb,m,n,k\nn,t,100,200,300\nt,t,5,6,7\n");
  const auto problems = load_problems_file(path, Op::N, Op::N);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].lda, 100);  // minimal leading dimensions
  EXPECT_EQ(tuned_alignment_class(problems[0]), 4);
}

TEST(RecordUntuned, BadLeadingDimensionsOrClassAreRefusedByLine) {
  ScratchDir dir;
  const std::string path = dir.file("bad.csv");
  auto refused = [&](const std::string& row, const std::string& expect) {
    { std::ofstream(path) << kProblemsCsvHeader << "\n" << row << "\n"; }
    try {
      load_problems_file(path, Op::N, Op::N);
      ADD_FAILURE() << row << ": accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
    }
  };
  refused("n,n,64,32,16,63,16,64,4,f32", "line 2: lda = 63 is less than 64");
  refused("n,n,64,32,16,64,16,64,2,f32", "line 2: align = 2 is not 1, 4 or 8");
  refused("n,n,64,32,16,66,16,64,4,f32", "align 4 needs lda and ldb multiples of it");
  refused("n,n,64,32,16", "expected transa,transb,m,n,k,lda,ldb,ldc,align,dtype");
  refused("n,n,64,32,16,64,16,64,4,bf17", "dtype 'bf17' is not a types key");
}

TEST(RecordUntuned, ConcurrentRecordersWriteWholeLines) {
  ScratchDir dir;
  const std::string path = dir.file("untuned.csv");
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) record_untuned(path, recorded('n', 'n', 1 + t, 1 + i, 64, 1 + t, 64, 1 + t, 1));
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(load_problems_file(path, Op::N, Op::N).size(), 16u * 50u);
}

TEST(RecordUntuned, UnwritablePathIsAWarningNotAFailure) {
  EXPECT_NO_THROW(record_untuned("/nonexistent-dir/untuned.csv", recorded('n', 'n', 1, 2, 3, 1, 3, 1, 1)));
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
