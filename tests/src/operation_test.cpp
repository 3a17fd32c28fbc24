// The launch parameters run() derives from an instance, a problem and a split choice, without a GPU:
// split geometry, GEMV split semantics and workspace, and the streamed operand's address range.
#include <gtest/gtest.h>

#include "operation.hpp"

namespace autogemm {
namespace {

// A registry-shaped instance; launch_params and workspace_size read only its config.
KernelInstance instance(const KernelConfig& c) { return {c, "test", nullptr, nullptr}; }

GemmProblem problem(int m, int n, int k) {
  GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.a = reinterpret_cast<const float*>(0x10000);  // never dereferenced
  p.lda = m, p.ldb = k, p.ldc = m;
  return p;
}

const KernelConfig tile64{64, 64, 32, 32, 32, 4, 8, 3, 1, Op::N, Op::N, 4};

TEST(LaunchParams, StreamsAOnlyWhenOneTileColumnCoversN) {
  const KernelInstance k = instance(tile64);
  GemmProblem pr = problem(3072, 16, 3072);  // op N: k columns of lda = 3072
  GemmParams p = launch_params(k, pr, {8, SplitKMode::kParallel});
  EXPECT_EQ(p.stream_window, pr.a);
  EXPECT_EQ(p.stream_window_bytes, sizeof(float) * (3071u * 3072u + 3072u));
  pr.lda = 3080;  // padding between columns is inside the range, past the last column is not
  EXPECT_EQ(launch_params(k, pr, {1, SplitKMode::kNone}).stream_window_bytes, sizeof(float) * (3071u * 3080u + 3072u));
  EXPECT_EQ(launch_params(k, problem(3072, 65, 3072), {1, SplitKMode::kNone}).stream_window_bytes, 0u);
  KernelConfig t = tile64;
  t.op_a = Op::T;  // op T: m rows of lda
  GemmProblem prt = problem(100, 64, 300);
  prt.op_a = Op::T;
  prt.lda = 304;
  EXPECT_EQ(launch_params(instance(t), prt, {1, SplitKMode::kNone}).stream_window_bytes, sizeof(float) * (99u * 304u + 300u));
  // GEMV instances stream A with their own loads.
  EXPECT_EQ(launch_params(instance(gemv_config(64, 8, Op::N, Op::N, 4)), problem(3072, 1, 3072), {1, SplitKMode::kNone})
                .stream_window_bytes,
            0u);
}

TEST(LaunchParams, SplitGeometryAndUnsplitFallback) {
  const KernelInstance k = instance(tile64);
  GemmParams p = launch_params(k, problem(128, 128, 1000), {4, SplitKMode::kParallel});
  EXPECT_EQ(p.splits, 4);
  EXPECT_EQ(p.k_per_split, 256);  // 250 rounded up to BK = 32
  EXPECT_EQ(p.mode, SplitKMode::kParallel);
  p = launch_params(k, problem(128, 128, 40), {4, SplitKMode::kParallel});  // splits are whole BK steps
  EXPECT_EQ(p.splits, 2);
  EXPECT_EQ(p.k_per_split, 32);
  p = launch_params(k, problem(128, 128, 30), {4, SplitKMode::kParallel});  // K below one BK step
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.mode, SplitKMode::kNone);
  EXPECT_EQ(p.k_per_split, 30);
}

TEST(LaunchParams, GemvSplitsInParallelModeWithOneCounterPerRowBlock) {
  const KernelInstance k = instance(gemv_config(64, 8, Op::N, Op::N, 4));
  const GemmProblem pr = problem(3072, 1, 3072);
  const GemmParams p = launch_params(k, pr, {8, SplitKMode::kSerial});  // serial is taken as parallel
  EXPECT_EQ(p.mode, SplitKMode::kParallel);
  EXPECT_EQ(p.splits, 8);
  const WorkspaceNeeds needs = workspace_size(k, pr, {8, SplitKMode::kSerial});
  EXPECT_EQ(needs.partial_bytes, sizeof(float) * 8 * 3072);
  EXPECT_EQ(needs.semaphore_count, 3072u / 64);
  EXPECT_EQ(workspace_size(k, pr, {1, SplitKMode::kNone}).semaphore_count, 0u);
}

}  // namespace
}  // namespace autogemm
