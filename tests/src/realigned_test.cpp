// The padded copies' layout (realigned.hpp): which operands are copied, and the rows' pitch.
#include "realigned.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace autogemm {
namespace {

GemmProblem bf16_problem(Op op_a, Op op_b, int m, int n, int k) {
  GemmProblem p;
  p.op_a = op_a, p.op_b = op_b, p.m = m, p.n = n, p.k = k;
  p.types = GemmTypes{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  p.lda = op_a == Op::N ? m : k;
  p.ldb = op_b == Op::N ? k : n;
  p.ldc = m;
  // 256-byte aligned stand-ins: the plan reads the addresses' alignment only.
  p.a = reinterpret_cast<const void*>(uintptr_t{1} << 20);
  p.b = reinterpret_cast<const void*>(uintptr_t{2} << 20);
  p.c = reinterpret_cast<void*>(uintptr_t{3} << 20);
  return p;
}

// 500 BF16 rows (1000 bytes) pad to 512 elements: every operand is copied (ld 500 is off 16 bytes),
// and the 64-wide boxes of the M-major A and N-major B then end at the copies' edge; the copies' rows
// start 1024 bytes apart (TMA boxes off 128-byte rows read two L2 lines per row).
TEST(Realigned, CopiesRowsStart128BytesApartWhereThatAddsAtMostAnEighth) {
  const RealignPlan plan = realign_plan(bf16_problem(Op::N, Op::T, 500, 500, 5000));
  EXPECT_EQ(plan.m, 512);
  EXPECT_EQ(plan.n, 512);
  EXPECT_EQ(plan.k, 5000);  // stored contiguously by neither A nor B
  ASSERT_TRUE(plan.a.copied);
  ASSERT_TRUE(plan.b.copied);
  EXPECT_EQ(plan.a.ld, 512);
  EXPECT_EQ(plan.b.ld, 512);
  ASSERT_TRUE(plan.c.copied);  // ldc 500: rows off 16 bytes
  EXPECT_EQ(plan.c.ld, 512);
  EXPECT_EQ(plan.a.offset % 256, 0u);
  EXPECT_EQ(plan.b.offset % 256, 0u);
  // 100 rows pad to 104 (208 bytes): 128-byte rows would add 48 bytes, more than an eighth.
  const RealignPlan small = realign_plan(bf16_problem(Op::N, Op::N, 100, 100, 100));
  ASSERT_TRUE(small.a.copied);
  EXPECT_EQ(small.a.ld, 104);
}

// An extent grows to 128 bytes only where every operand holding it grew (and so is copied whatever
// its address) and it grows by at most an eighth; pointers and leading dimensions never change the
// padded problem, which is the one the tuner tunes.
TEST(Realigned, ExtentsGrowToWholeBoxesOnlyWhereTheirOperandsGrew) {
  // k = 900 (1800-byte rows) is off 16 bytes in both K-major operands: k pads to 960, 15 k-steps of
  // 64 as 904 takes; m = 700 grows to 704 for C alone (M-major in neither A nor B).
  const RealignPlan tn = realign_plan(bf16_problem(Op::T, Op::N, 700, 1500, 900));
  EXPECT_EQ(tn.k, 960);
  EXPECT_EQ(tn.m, 704);
  EXPECT_EQ(tn.n, 1500);
  // m = 300 grows to 304 for C (608-byte rows): C's copy's rows start 640 bytes apart.
  const RealignPlan c_rows = realign_plan(bf16_problem(Op::T, Op::N, 300, 100, 64));
  EXPECT_EQ(c_rows.m, 304);
  ASSERT_TRUE(c_rows.c.copied);
  EXPECT_EQ(c_rows.c.ld, 320);
  // A misaligned A is copied, but nothing grew: m and k keep their extents.
  GemmProblem p = bf16_problem(Op::N, Op::N, 1000, 1000, 1000);
  p.a = reinterpret_cast<const void*>((uintptr_t{1} << 20) + 2);
  const RealignPlan one = realign_plan(p);
  EXPECT_TRUE(one.a.copied);
  EXPECT_FALSE(one.b.copied || one.c.copied);
  EXPECT_EQ(one.m, 1000);
  EXPECT_EQ(one.k, 1000);
  // The padded 500x500x5000 `nt` is 512x512 whether A's base is aligned or not.
  GemmProblem shifted = bf16_problem(Op::N, Op::T, 500, 500, 5000);
  shifted.a = reinterpret_cast<const void*>((uintptr_t{1} << 20) + 2);
  shifted.lda = 509;
  const RealignPlan moved = realign_plan(shifted);
  EXPECT_EQ(moved.m, 512);
  EXPECT_EQ(moved.n, 512);
}

// A problem TMA reads as it is keeps its operands in place.
TEST(Realigned, AlignedProblemsAreNotCopied) {
  const GemmProblem p = bf16_problem(Op::T, Op::N, 504, 504, 5000);
  EXPECT_FALSE(runs_on_copies(p));
  const RealignPlan plan = realign_plan(p);
  EXPECT_FALSE(plan.a.copied || plan.b.copied || plan.c.copied);
}

}  // namespace
}  // namespace autogemm
