// The problem the tuner tunes for a call: its own, or the padded problem its BF16/FP16 calls run.
#include <gtest/gtest.h>

#include "problem_data.hpp"

namespace autogemm {
namespace {

TEST(ProblemAsCalled, FP32AndTmaReadableProblemsAreTheirOwn) {
  ColumnMajorProblem p;
  p.op_a = Op::T, p.op_b = Op::N, p.m = 4096, p.n = 16, p.k = 4096, p.lda = 4096, p.ldb = 4096, p.ldc = 4096;
  p.types = GemmTypes{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  const ColumnMajorProblem q = problem_as_called(p);
  EXPECT_EQ(q.m, 4096);
  EXPECT_EQ(q.n, 16);
  EXPECT_EQ(q.ldc, 4096);
  p.types = kF32Types;
  p.m = 127, p.lda = 127;
  EXPECT_EQ(problem_as_called(p).m, 127);
  // FP32 operands in TF32 or 3xTF32 arithmetic too: where their instances cannot write C, the
  // CUDA-core kernels serve the problem as it is.
  for (ComputeType arithmetic : {ComputeType::kTF32, ComputeType::k3xTF32}) {
    p.types = GemmTypes{DataType::kF32, DataType::kF32, DataType::kF32, arithmetic};
    p.ldc = 127;
    EXPECT_EQ(problem_as_called(p).m, 127);
    EXPECT_EQ(problem_as_called(p).ldc, 127);
  }
}

// 3001 x 127 x 1531 `nn` BF16 (the perf set's odd problem): m, which A and C store contiguously,
// and k, B's contiguous extent, round up to multiples of 8; the copies' leading dimensions follow.
TEST(ProblemAsCalled, OddBf16ProblemIsItsPaddedForm) {
  ColumnMajorProblem p;
  p.m = 3001, p.n = 127, p.k = 1531, p.lda = 3001, p.ldb = 1531, p.ldc = 3001;
  p.types = GemmTypes{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  const ColumnMajorProblem q = problem_as_called(p);
  EXPECT_EQ(q.m, 3008);
  EXPECT_EQ(q.n, 127);
  EXPECT_EQ(q.k, 1536);
  EXPECT_EQ(q.lda, 3008);
  EXPECT_EQ(q.ldb, 1536);
  EXPECT_EQ(q.ldc, 3008);
  EXPECT_EQ(tuned_alignment_class(q), 8);
}

}  // namespace
}  // namespace autogemm
