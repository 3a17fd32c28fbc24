// The launch parameters run() derives from an instance, a problem and a split choice, without a GPU:
// split geometry, GEMV split semantics and workspace, the streamed operand's address range, which
// operands are repacked for which kernels (with the workspace their copies take), and which part of
// a workspace a launch cannot run without.
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

TEST(LaunchParams, SplitLabelsAsTheToolsPrintThem) {
  EXPECT_EQ(split_label({8, SplitKMode::kParallel}), "8p");
  EXPECT_EQ(split_label({3, SplitKMode::kSerial}), "3s");
  EXPECT_EQ(split_label({1, SplitKMode::kNone}), "1");
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

DeviceLimits h100() {
  DeviceLimits d;
  d.cc_major = 9, d.sm_count = 132, d.max_shared_per_block_optin = 227 * 1024, d.l2_bytes = 50 << 20;
  return d;
}

KernelConfig with_layout(Op op_a, Op op_b, int align = 4) {
  KernelConfig c = tile64;
  c.op_a = op_a, c.op_b = op_b, c.align = align;
  return c;
}

GemmProblem problem(Op op_a, Op op_b, int m, int n, int k) {
  GemmProblem p = problem(m, n, k);
  p.op_a = op_a, p.op_b = op_b;
  p.b = reinterpret_cast<const float*>(0x20000);
  p.lda = op_a == Op::N ? m : k;
  p.ldb = op_b == Op::N ? k : n;
  return p;
}

TEST(Workspace, TheStreamedTailsPartIsOptionalTheRestRequired) {
  WorkspaceNeeds needs;
  needs.partial_bytes = 1 << 20, needs.semaphore_count = 24, needs.repack_bytes = 3 << 20;
  needs.streamk_optional = true;  // a streamed tail's slots and counters, beside a repack
  const WorkspaceNeeds required = required_part(needs);
  EXPECT_EQ(required.partial_bytes, 0u);
  EXPECT_EQ(required.semaphore_count, 0u);
  EXPECT_EQ(required.repack_bytes, needs.repack_bytes);
  EXPECT_FALSE(required.streamk_optional);
  needs.streamk_optional = false;  // split-k's partials and counters cannot be left out
  const WorkspaceNeeds split = required_part(needs);
  EXPECT_EQ(split.partial_bytes, needs.partial_bytes);
  EXPECT_EQ(split.semaphore_count, needs.semaphore_count);
}

TEST(Repack, OnlyKMajorOperandsForXMajorKernelsWhenAllowed) {
  const GemmProblem tn = problem(Op::T, Op::N, 4096, 4096, 4096);
  const KernelInstance nt = instance(with_layout(Op::N, Op::T));
  const RepackPlan plan = repack_plan(nt.config, tn);
  EXPECT_TRUE(plan.a && plan.b);
  EXPECT_STREQ(repacked_operands(plan), "A+B");
  EXPECT_TRUE(can_implement(nt, tn, h100(), RepackPolicy::kAllowed));
  // Without the policy (the untuned choice) the layout must match, as before.
  EXPECT_EQ(cannot_implement(nt, tn, h100()), "layout nt differs from the problem's tn");
  // Never the other way: an X-major operand is not turned K-major.
  const GemmProblem nt_problem = problem(Op::N, Op::T, 4096, 4096, 4096);
  EXPECT_FALSE(repack_plan(with_layout(Op::T, Op::N), nt_problem).any());
  EXPECT_EQ(cannot_implement(instance(with_layout(Op::T, Op::N)), nt_problem, h100(), RepackPolicy::kAllowed),
            "layout tn differs from the problem's nt");
  // A kernel of the problem's own layout repacks nothing; GEMV instances never repack.
  EXPECT_FALSE(repack_plan(with_layout(Op::T, Op::N), tn).any());
  EXPECT_FALSE(repack_plan(gemv_config(64, 8, Op::N, Op::T, 4), problem(Op::N, Op::N, 4096, 1, 4096)).any());
}

// TF32 and 3xTF32 instances (`tn` only) read K-major copies of what TMA cannot read K-major as it
// is, k padded to 4; a 3xTF32 instance always, each operand split into three parts along K.
TEST(Repack, Tf32InstancesReadKMajorCopies) {
  auto config = [](ComputeType arithmetic) {
    return wgmma_config(128, 128, 32, 0, 1, 1, WgmmaSchedule::kCooperative, Op::T, Op::N, DataType::kF32,
                        DataType::kF32, 1, false, arithmetic);
  };
  auto fp32_problem = [](Op op_a, Op op_b, int m, int n, int k, ComputeType arithmetic) {
    GemmProblem p = problem(op_a, op_b, m, n, k);
    p.types = {DataType::kF32, DataType::kF32, DataType::kF32, arithmetic};
    return p;
  };
  const KernelConfig tf32 = config(ComputeType::kTF32), emulated = config(ComputeType::k3xTF32);
  ASSERT_EQ(invalid_reason(tf32), nullptr);
  ASSERT_EQ(invalid_reason(emulated), nullptr);
  EXPECT_FALSE(repack_plan(tf32, fp32_problem(Op::T, Op::N, 4096, 1024, 4096, ComputeType::kTF32)).any());
  // An M-major A is copied K-major; B, K-major already, is read in place.
  const GemmProblem nn = fp32_problem(Op::N, Op::N, 4096, 1024, 4096, ComputeType::kTF32);
  RepackPlan plan = repack_plan(tf32, nn);
  EXPECT_TRUE(plan.a);
  EXPECT_FALSE(plan.b);
  EXPECT_EQ(plan.k_major_parts, 1);
  GemmProblem run = repacked_problem(nn, plan, reinterpret_cast<float*>(0x100000));
  EXPECT_EQ(run.op_a, Op::T);
  EXPECT_EQ(run.lda, 4096);
  EXPECT_EQ(run.k, 4096);
  EXPECT_EQ(run.b, nn.b);
  EXPECT_EQ(can_implement(instance(tf32), nn, h100()), true) << cannot_implement(instance(tf32), nn, h100());
  // k not a multiple of 4: both copied, k padded with zeros.
  plan = repack_plan(tf32, fp32_problem(Op::T, Op::N, 4096, 1024, 4095, ComputeType::kTF32));
  EXPECT_TRUE(plan.a && plan.b);
  run = repacked_problem(fp32_problem(Op::T, Op::N, 4096, 1024, 4095, ComputeType::kTF32), plan, nullptr);
  EXPECT_EQ(run.k, 4096);
  EXPECT_EQ(run.lda, 4096);
  EXPECT_EQ(run.ldb, 4096);
  // 3xTF32: both operands split, the kernel's K three times k rounded up to 4.
  const GemmProblem tn = fp32_problem(Op::T, Op::N, 4096, 1024, 4095, ComputeType::k3xTF32);
  plan = repack_plan(emulated, tn);
  EXPECT_TRUE(plan.a && plan.b);
  EXPECT_EQ(plan.k_major_parts, 3);
  run = repacked_problem(tn, plan, nullptr);
  EXPECT_EQ(run.k, 3 * 4096);
  EXPECT_EQ(run.lda, 3 * 4096);
  EXPECT_EQ(repack_layout(tn, plan).bytes, sizeof(float) * 3 * 4096 * (4096 + 1024));
  EXPECT_EQ(workspace_size(instance(emulated), tn, {1, SplitKMode::kNone}).repack_bytes, repack_layout(tn, plan).bytes);
  // C is written in place by TMA: its m must be a multiple of 4.
  GemmProblem odd_m = fp32_problem(Op::T, Op::N, 4095, 1024, 4096, ComputeType::k3xTF32);
  odd_m.ldc = 4096;
  EXPECT_NE(cannot_implement(instance(emulated), odd_m, h100()).find("C is stored along m = 4095"), std::string::npos);
  // A TF32 instance never serves a pedantic problem.
  EXPECT_NE(cannot_implement(instance(tf32), fp32_problem(Op::T, Op::N, 4096, 1024, 4096, ComputeType::kF32), h100())
                .find("instance computes f32.f32.f32.tf32"),
            std::string::npos);
}

// A register-A TF32 instance (op_a N) reads an M-major A in place and copies only a B that is not
// TMA-readable K-major; A op T, a misaligned A or k % 4 != 0 it leaves to the others.
TEST(Repack, RegisterATf32InstancesReadAInPlace) {
  const KernelConfig rs = wgmma_config(128, 128, 32, 0, 1, 1, WgmmaSchedule::kCooperative, Op::N, Op::N,
                                       DataType::kF32, DataType::kF32, 1, false, ComputeType::kTF32);
  ASSERT_EQ(invalid_reason(rs), nullptr);
  EXPECT_EQ(kernel_name(rs), "sm90_wgmma_tf32_f32_128x128x32_c1x1_coop_nn_align4");
  EXPECT_EQ(parse_kernel_name(kernel_name(rs)), rs);
  auto tf32_problem = [](Op op_a, Op op_b, int m, int n, int k) {
    GemmProblem p = problem(op_a, op_b, m, n, k);
    p.types = {DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
    return p;
  };
  const GemmProblem nn = tf32_problem(Op::N, Op::N, 3072, 128, 3072);
  EXPECT_FALSE(repack_plan(rs, nn).any());
  EXPECT_EQ(cannot_implement(instance(rs), nn, h100()), "");
  const GemmProblem nt = tf32_problem(Op::N, Op::T, 3072, 128, 3072);
  const RepackPlan plan = repack_plan(rs, nt);
  EXPECT_FALSE(plan.a);
  EXPECT_TRUE(plan.b);
  EXPECT_EQ(repacked_problem(nt, plan, nullptr).k, 3072);
  EXPECT_EQ(cannot_implement(instance(rs), nt, h100()), "");
  EXPECT_NE(cannot_implement(instance(rs), tf32_problem(Op::T, Op::N, 3072, 128, 3072), h100()).find("A M-major"),
            std::string::npos);
  EXPECT_NE(cannot_implement(instance(rs), tf32_problem(Op::N, Op::N, 3072, 128, 3071), h100()).find("k = 3071"),
            std::string::npos);
  GemmProblem misaligned = nn;
  misaligned.lda = 3073;
  EXPECT_NE(cannot_implement(instance(rs), misaligned, h100()).find("lda 3073"), std::string::npos);
  // 3xTF32 splits A as it copies it: no register-A instance.
  KernelConfig emulated = rs;
  emulated.types.compute = ComputeType::k3xTF32;
  ASSERT_NE(invalid_reason(emulated), nullptr);
  EXPECT_NE(std::string(invalid_reason(emulated)).find("TF32 only"), std::string::npos);
}

TEST(Repack, OfferedOnlyWhenTheOtherExtentAmortisesTheCopy) {
  const KernelInstance nt = instance(with_layout(Op::N, Op::T));
  // B's copy is paid once per row of C: m must reach kRepackMinOtherExtent.
  const GemmProblem nn_short = problem(Op::N, Op::N, kRepackMinOtherExtent - 1, 4096, 4096);
  EXPECT_EQ(cannot_implement(nt, nn_short, h100(), RepackPolicy::kAllowed),
            "repacking B for layout nt is offered for m >= 2048; the problem has m = 2047");
  EXPECT_TRUE(can_implement(nt, problem(Op::N, Op::N, kRepackMinOtherExtent, 16, 4096), h100(), RepackPolicy::kAllowed));
  // A's copy is paid once per column of C: n must reach it.
  const GemmProblem tt_narrow = problem(Op::T, Op::T, 4096, 1000, 4096);
  EXPECT_EQ(cannot_implement(nt, tt_narrow, h100(), RepackPolicy::kAllowed),
            "repacking A for layout nt is offered for n >= 2048; the problem has n = 1000");
}

TEST(Repack, CopiesAreAlignedSoTheyLiftTheAlignmentClass) {
  // tn with odd leading dimensions: scalar class, but both operands are copied into aligned buffers.
  GemmProblem tn = problem(Op::T, Op::N, 2049, 2051, 37);
  tn.lda = 41, tn.ldb = 39;
  ASSERT_EQ(alignment_class(tn), 1);
  EXPECT_TRUE(can_implement(instance(with_layout(Op::N, Op::T, 4)), tn, h100(), RepackPolicy::kAllowed));
  // nn: A is read in place, so its misalignment still rules the align4 instance out.
  GemmProblem nn = problem(Op::N, Op::N, 2049, 2051, 37);
  nn.lda = 2049;
  EXPECT_EQ(cannot_implement(instance(with_layout(Op::N, Op::T, 4)), nn, h100(), RepackPolicy::kAllowed),
            "needs 16-byte aligned A and B with lda, ldb multiples of 4");
  EXPECT_TRUE(can_implement(instance(with_layout(Op::N, Op::T, 1)), nn, h100(), RepackPolicy::kAllowed));
}

TEST(Alignment, GemvInstancesNeedOnlyAAligned) {
  // Row-major 1 x 3072 x 3072 in `nt`: B is stored 1 x 3072 with ldb = 1, so the problem is in the
  // scalar class; the GEMV reads B with scalar loads, so its align4 instances still qualify.
  GemmProblem nt = problem(Op::N, Op::T, 3072, 1, 3072);
  ASSERT_EQ(alignment_class(nt), 1);
  const KernelInstance gemv4 = instance(gemv_config(16, 8, Op::N, Op::T, 4));
  EXPECT_TRUE(can_implement(gemv4, nt, h100()));
  // GEMM instances copy B with 16-byte vectors: both operands must be aligned.
  EXPECT_EQ(cannot_implement(instance(with_layout(Op::N, Op::T, 4)), nt, h100()),
            "needs 16-byte aligned A and B with lda, ldb multiples of 4");
  // A misaligned: only the scalar GEMV.
  nt.lda = 3073;
  EXPECT_EQ(cannot_implement(gemv4, nt, h100()), "needs 16-byte aligned A with lda a multiple of 4");
  EXPECT_TRUE(can_implement(instance(gemv_config(16, 8, Op::N, Op::T, 1)), nt, h100()));
}

TEST(Gemv, SixteenBitInstancesServeTheirTypesOnSm80AndNeedAAligned) {
  // Row-major 1 x 4096 x 4096 BF16 of a Linear layer (`tn`, n = 1): the GEMV over the weights.
  const GemmTypes bf16{DataType::kBF16, DataType::kBF16, DataType::kBF16, ComputeType::kF32};
  GemmProblem p = problem(Op::T, Op::N, 4096, 1, 4096);
  p.types = bf16;
  const KernelInstance gemv = instance(gemv_config(16, 8, Op::T, Op::N, 8, bf16));
  DeviceLimits a100 = h100();
  a100.cc_major = 8;
  EXPECT_EQ(cannot_implement(gemv, p, a100), "");
  // K split on whole 16-byte vectors of 8 elements.
  EXPECT_EQ(launch_params(gemv, p, {7, SplitKMode::kParallel}).k_per_split, 592);  // FP32 instances: 588
  // An lda of 4100 BF16 elements is no multiple of 16 bytes.
  p.lda = 4100;
  EXPECT_EQ(cannot_implement(gemv, p, a100), "needs 16-byte aligned A with lda a multiple of 8");
  // An FP32 problem is not its to serve, nor a BF16 one with an FP32 C.
  p.lda = 4096;
  p.types = kF32Types;
  EXPECT_FALSE(can_implement(gemv, p, a100));
  p.types = GemmTypes{DataType::kBF16, DataType::kBF16, DataType::kF32, ComputeType::kF32};
  EXPECT_FALSE(can_implement(gemv, p, a100));
}

TEST(Alignment, PatternsSplitAClassByWhatTheRulesRead) {
  // Both in the scalar class; a GEMV align4 instance runs the first (A aligned) only.
  GemmProblem aligned_a = problem(Op::N, Op::N, 300, 3, 97);
  aligned_a.lda = 300, aligned_a.ldb = 97;
  GemmProblem pitched_a = aligned_a;
  pitched_a.lda = 305;
  ASSERT_EQ(alignment_class(aligned_a), alignment_class(pitched_a));
  EXPECT_NE(alignment_pattern(aligned_a), alignment_pattern(pitched_a));
  const KernelInstance gemv4 = instance(gemv_config(8, 8, Op::N, Op::N, 4));
  EXPECT_TRUE(can_implement(gemv4, aligned_a, h100()));
  EXPECT_FALSE(can_implement(gemv4, pitched_a, h100()));
  GemmProblem shifted_a = aligned_a;  // an unaligned base: another pattern again
  shifted_a.a = shifted_a.f32_a() + 1;
  EXPECT_NE(alignment_pattern(shifted_a), alignment_pattern(aligned_a));
  EXPECT_NE(alignment_pattern(shifted_a), alignment_pattern(pitched_a));
}

TEST(Gemv, OutputsAtMostFourRowsTallRunAsTheirTranspose) {
  // Row-major 3072 x 1 x 3072 in `nn` is column-major 1 x 3072 x 3072: C = op(A) op(B) runs as
  // Cᵀ = op(B)ᵀ op(A)ᵀ, a GEMV of layout `tt` over B (3072 x 3072) with A as its vector.
  GemmProblem nn = problem(Op::N, Op::N, 1, 3072, 3072);
  nn.c = reinterpret_cast<float*>(0x30000);
  nn.ldc = 4, nn.ldb = 3076;
  const KernelInstance tt = instance(gemv_config(16, 8, Op::T, Op::T, 4));
  const KernelInstance same = instance(gemv_config(16, 8, Op::N, Op::N, 4));
  EXPECT_TRUE(can_implement(tt, nn, h100()));
  EXPECT_EQ(cannot_implement(same, nn, h100()),
            "run as its transpose (3072 x 1): layout nn differs from the problem's tt");
  const GemmProblem run = problem_as_run(tt.config, nn);
  EXPECT_TRUE(run.c_transposed);
  EXPECT_EQ(run.m, 3072);
  EXPECT_EQ(run.n, 1);
  EXPECT_EQ(run.a, nn.b);
  EXPECT_EQ(run.lda, 3076);
  EXPECT_EQ(run.b, nn.a);
  EXPECT_EQ(run.ldb, nn.lda);
  // The launch writes C(i, j) at c[j + i·ldc] and splits K over row blocks of the 3072 rows.
  const GemmParams p = launch_params(tt, nn, {8, SplitKMode::kParallel});
  EXPECT_TRUE(p.c_transposed);
  EXPECT_EQ(p.m, 3072);
  EXPECT_EQ(p.c, nn.c);
  EXPECT_EQ(p.ldc, 4);
  EXPECT_EQ(workspace_size(tt, nn, {8, SplitKMode::kParallel}).semaphore_count, 3072u / 16);
  const auto as_given = split_candidates(tt.config, 3072, 1, 3072, 132);
  const auto transposed = split_candidates(tt.config, 1, 3072, 3072, 132);
  ASSERT_EQ(transposed.size(), as_given.size());
  EXPECT_GT(transposed.size(), 1u);
  for (size_t i = 0; i < as_given.size(); ++i) EXPECT_EQ(transposed[i].splits, as_given[i].splits);
  // Outputs at most 4 wide both ways run as given; wider both ways do not run at all.
  EXPECT_FALSE(problem_as_run(tt.config, problem(Op::N, Op::N, 3, 4, 64)).c_transposed);
  EXPECT_NE(cannot_implement(same, problem(Op::N, Op::N, 8, 8, 64), h100()).find("n <= 4 (or m <= 4"), std::string::npos);
  // The transpose of the transpose is the problem.
  const GemmProblem back = transposed_problem(run);
  EXPECT_FALSE(back.c_transposed);
  EXPECT_EQ(back.op_a, Op::N);
  EXPECT_EQ(back.op_b, Op::N);
  EXPECT_EQ(back.a, nn.a);
  EXPECT_EQ(back.m, 1);
}

TEST(Repack, WorkspaceHoldsBothCopiesAtAlignedOffsets) {
  const GemmProblem tn = problem(Op::T, Op::N, 2049, 2051, 37);
  const KernelInstance nt = instance(with_layout(Op::N, Op::T));
  const RepackLayout layout = repack_layout(tn, repack_plan(nt.config, tn));
  EXPECT_EQ(layout.lda, 2052);  // m rounded up to 4
  EXPECT_EQ(layout.ldb, 2052);  // n rounded up to 4
  EXPECT_EQ(layout.b_offset_bytes, (sizeof(float) * 2052 * 37 + 255) / 256 * 256);
  EXPECT_EQ(layout.bytes, layout.b_offset_bytes + sizeof(float) * 2052 * 37);
  EXPECT_EQ(workspace_size(nt, tn, {4, SplitKMode::kParallel}).repack_bytes, layout.bytes);
  // Only B: no room for A.
  const GemmProblem nn = problem(Op::N, Op::N, 2049, 2051, 37);
  EXPECT_EQ(workspace_size(nt, nn, {}).repack_bytes, sizeof(float) * 2052 * 37);
  EXPECT_EQ(workspace_size(instance(tile64), nn, {}).repack_bytes, 0u);
}

// The residue instance of tile64's nt_align4 twin (KernelConfig::residues), or of its tt_align4
// twin (residues of M: tile64 transposes a K-major A, 1024 FFMAs per k-tile).
KernelConfig residue_config(Op op_a = Op::N) {
  KernelConfig c = with_layout(op_a, Op::T, 4);
  c.residues = kResidues;
  return c;
}

// A residue instance that serves `served` refuses it with lda = aligned_lda (a multiple of 4: the
// plain instances' problem) and with A's base one float past 16-byte alignment.
void expect_refuses_aligned_lda_and_misaligned_base(const KernelInstance& res, const GemmProblem& served,
                                                    int64_t aligned_lda) {
  ASSERT_TRUE(can_implement(res, served, h100(), RepackPolicy::kAllowed));
  GemmProblem aligned = served;
  aligned.lda = aligned_lda;
  EXPECT_EQ(cannot_implement(res, aligned, h100(), RepackPolicy::kAllowed),
            "residue instance serves an lda that is not a multiple of 4, the problem has lda = " +
                std::to_string(aligned_lda));
  GemmProblem shifted = served;
  shifted.a = shifted.f32_a() + 1;
  EXPECT_EQ(cannot_implement(res, shifted, h100(), RepackPolicy::kAllowed),
            "residue instance needs A's base 16-byte aligned");
}

TEST(Residues, ServeAnMMajorAWhoseLdaIsNotAMultipleOf4) {
  const KernelInstance res = instance(residue_config());
  // 127x3001x1531 row-major `nt`: A 3001 x 1531 with lda 3001, B N-major with ldb 127.
  GemmProblem nt = problem(Op::N, Op::T, 3001, 127, 1531);
  ASSERT_EQ(alignment_class(nt), 1);
  // Without the policy B's re-pitching copy is not allowed.
  EXPECT_EQ(cannot_implement(res, nt, h100()),
            "residue instance reads B at a leading dimension that is a multiple of 4 from a 16-byte aligned base: "
            "ldb = 127 needs a re-pitching copy, not allowed here");
  const RepackPlan plan = repack_plan(res.config, nt);
  EXPECT_TRUE(plan.b && plan.b_repitch && !plan.a);
  EXPECT_TRUE(can_implement(res, nt, h100(), RepackPolicy::kAllowed));
  // B already aligned: read in place, no policy needed.
  nt.ldb = 128;
  EXPECT_FALSE(repack_plan(res.config, nt).any());
  EXPECT_TRUE(can_implement(res, nt, h100()));
  // `nn`: B transposed as for any nt instance (not re-pitched).
  const GemmProblem nn = problem(Op::N, Op::N, 3001, 127, 1531);
  EXPECT_TRUE(repack_plan(res.config, nn).b && !repack_plan(res.config, nn).b_repitch);
  EXPECT_TRUE(can_implement(res, nn, h100(), RepackPolicy::kAllowed));
  // An aligned lda is the plain instances' problem; a misaligned base or a K-major A cannot be read.
  expect_refuses_aligned_lda_and_misaligned_base(res, nt, 3004);
  const GemmProblem tt = problem(Op::T, Op::T, 3001, 2049, 1531);
  EXPECT_EQ(cannot_implement(res, tt, h100(), RepackPolicy::kAllowed),
            "residue instance reads an M-major A (op_a N), the problem's is K-major");
}

TEST(Residues, SplitIntoFourPlanesPerSplitOfAResidue) {
  const KernelInstance res = instance(residue_config());
  GemmProblem pr = problem(Op::N, Op::T, 3001, 127, 1531);
  pr.ldb = 128;
  // Unsplit or serial requests run as 4 parallel planes; other counts round up to whole residues.
  for (const SplitChoice asked : {SplitChoice{1, SplitKMode::kNone}, SplitChoice{3, SplitKMode::kSerial},
                                  SplitChoice{4, SplitKMode::kParallel}}) {
    const GemmParams p = launch_params(res, pr, asked);
    EXPECT_EQ(p.mode, SplitKMode::kParallel);
    EXPECT_EQ(p.splits, 4);
    EXPECT_EQ(p.k, 1530);  // the last column's product is the reduction's (launch_residue_reduce)
    EXPECT_EQ(p.k_per_split, 384);  // ceil(1530 / 4) = 383 columns per residue, whole BK = 32 steps
  }
  GemmParams p = launch_params(res, pr, {6, SplitKMode::kParallel});
  EXPECT_EQ(p.splits, 8);
  EXPECT_EQ(p.k_per_split, 192);
  // The planes hold m + 3 rows (rounded up to 4): a residue starts up to 3 rows early.
  EXPECT_EQ(residue_partial_ld(3001, false), 3004);
  EXPECT_EQ(residue_partial_ld(3002, false), 3008);
  EXPECT_EQ(workspace_size(res, pr, {6, SplitKMode::kParallel}).partial_bytes, sizeof(float) * 8 * 3004 * 127);
  EXPECT_EQ(workspace_size(res, pr, {6, SplitKMode::kParallel}).semaphore_count, 0u);
  // Short K: each residue keeps one split of its own columns (k = 5: the planes cover 4, one each).
  p = launch_params(res, problem(Op::N, Op::T, 31, 9, 5), {16, SplitKMode::kParallel});
  EXPECT_EQ(p.splits, 4);
  EXPECT_EQ(p.k_per_split, 32);
}

TEST(Residues, OfMServeAKMajorAWhoseLdaIsNotAMultipleOf4) {
  const KernelInstance res = instance(residue_config(Op::T));
  ASSERT_TRUE(res.config.residues_of_m());
  // 127x3001x1531 row-major `tt`: A K-major with lda 1531, B N-major with ldb 127.
  GemmProblem tt = problem(Op::T, Op::T, 3001, 127, 1531);
  ASSERT_EQ(tt.lda, 1531);
  EXPECT_EQ(cannot_implement(res, tt, h100()),
            "residue instance reads B at a leading dimension that is a multiple of 4 from a 16-byte aligned base: "
            "ldb = 127 needs a re-pitching copy, not allowed here");
  EXPECT_TRUE(repack_plan(res.config, tt).b_repitch && !repack_plan(res.config, tt).a);
  EXPECT_TRUE(can_implement(res, tt, h100(), RepackPolicy::kAllowed));
  tt.ldb = 128;  // B aligned: read in place
  EXPECT_FALSE(repack_plan(res.config, tt).any());
  EXPECT_TRUE(can_implement(res, tt, h100()));
  // `tn`: B transposed; A is never repacked (the instance reads it K-major).
  const GemmProblem tn = problem(Op::T, Op::N, 3001, 127, 1531);
  const RepackPlan tn_plan = repack_plan(res.config, tn);
  EXPECT_TRUE(tn_plan.b && !tn_plan.b_repitch && !tn_plan.a);
  EXPECT_TRUE(can_implement(res, tn, h100(), RepackPolicy::kAllowed));
  // An aligned lda, a misaligned base or an M-major A are not its problems.
  expect_refuses_aligned_lda_and_misaligned_base(res, tt, 1532);
  EXPECT_EQ(cannot_implement(res, problem(Op::N, Op::T, 3001, 127, 1531), h100(), RepackPolicy::kAllowed),
            "layout tt differs from the problem's nt");
}

TEST(Residues, OfMSplitAllOfKIntoFourPlanesPerSplitOfAResidue) {
  const KernelInstance res = instance(residue_config(Op::T));
  GemmProblem pr = problem(Op::T, Op::T, 3001, 127, 1531);
  pr.ldb = 128;
  // Every residue runs all of K from up to 3 columns early (k + 3 = 1534 columns, BK = 32).
  GemmParams p = launch_params(res, pr, {1, SplitKMode::kNone});
  EXPECT_EQ(p.mode, SplitKMode::kParallel);
  EXPECT_EQ(p.splits, 4);
  EXPECT_EQ(p.k, 1531);
  EXPECT_EQ(p.k_per_split, 1536);
  p = launch_params(res, pr, {6, SplitKMode::kParallel});
  EXPECT_EQ(p.splits, 8);
  EXPECT_EQ(p.k_per_split, 768);
  // Residue r holds rows 4p + r: planes of ceil(3001 / 4) = 751 rows, 752 with the rounding.
  EXPECT_EQ(residue_partial_ld(3001, true), 752);
  EXPECT_EQ(residue_partial_ld(3001, false), 3004);
  EXPECT_EQ(workspace_size(res, pr, {6, SplitKMode::kParallel}).partial_bytes, sizeof(float) * 8 * 752 * 127);
}

// The tensor-core family's contract: its types only, compute capability 9.0, the problem's own
// layout (no repacking), and TMA's 16-byte rule for A, B and C, each message naming what is wrong.
TEST(Wgmma, CannotImplementNamesTypesDeviceLayoutAndAlignment) {
  const KernelInstance tn = instance(wgmma_config(128, 256, 64, 0, 1, 1, WgmmaSchedule::kCooperative, Op::T, Op::N,
                                                  DataType::kBF16, DataType::kBF16));
  GemmProblem p = problem(Op::T, Op::N, 4096, 512, 4096);
  p.b = p.c = reinterpret_cast<void*>(0x20000);
  p.lda = 4096, p.ldb = 4096, p.ldc = 4096;
  EXPECT_EQ(cannot_implement(tn, p, h100()), "instance computes bf16.bf16.bf16.f32, the problem is f32");
  p.types = tn.config.types;
  EXPECT_EQ(cannot_implement(tn, p, h100()), "");
  DeviceLimits a100 = h100();
  a100.cc_major = 8;
  EXPECT_NE(cannot_implement(tn, p, a100).find("needs compute capability 9.0, the device has 8.0"), std::string::npos);
  GemmProblem nn = p;
  nn.op_a = Op::N;
  EXPECT_EQ(cannot_implement(tn, nn, h100()), "layout tn differs from the problem's nn");
  GemmProblem odd = p;
  odd.lda = 4100;
  EXPECT_EQ(cannot_implement(tn, odd, h100()), "TMA needs A 16-byte aligned with lda a multiple of 8 (lda 4100)");
  odd = p;
  odd.c = reinterpret_cast<void*>(0x20002);
  EXPECT_NE(cannot_implement(tn, odd, h100()).find("TMA needs C 16-byte aligned"), std::string::npos);
  // An FP32 C: ldc a multiple of 4 suffices.
  const KernelInstance f32_out = instance(wgmma_config(128, 128, 64, 0, 1, 1, WgmmaSchedule::kStreamK, Op::T, Op::N,
                                                       DataType::kBF16, DataType::kF32));
  GemmProblem wide = p;
  wide.types = f32_out.config.types;
  wide.ldc = 4100;
  EXPECT_EQ(cannot_implement(f32_out, wide, h100()), "");
  EXPECT_EQ(alignment_class(wide), 8);
  // Only the stream-K schedule splits K; the others run unsplit whatever is asked.
  EXPECT_EQ(split_candidates(tn.config, 4096, 16, 4096, 132).size(), 1u);
  EXPECT_GT(split_candidates(f32_out.config, 4096, 16, 4096, 132).size(), 1u);
}

// The split-K schedule cuts K into equal batches of a multiple of 8 elements (CUTLASS's batched GEMM
// reads each batch's K from its own start: a shorter last batch would read past K), offers them only
// for tile grids smaller than the SMs, and always runs into FP32 partials, one plane per batch.
TEST(Wgmma, SplitKScheduleCutsKIntoEqualBatches) {
  EXPECT_EQ(splitk_batches(32768, 64), 64);
  EXPECT_EQ(splitk_batches(8192, 24), 16);  // 8192 / 24 is no whole number; 16 is the largest cut below
  EXPECT_EQ(splitk_batches(1000, 4), 1);    // 500 and 250 are not multiples of 8, 333.3 not whole
  EXPECT_EQ(splitk_batches(1000, 5), 5);    // 200
  EXPECT_EQ(splitk_batches(1531, 64), 1);   // prime
  EXPECT_EQ(splitk_batches(64, 16), 8);     // batches of at least 8
  EXPECT_EQ(splitk_batches(0, 8), 1);
  EXPECT_EQ(splitk_batches(4096, 1), 1);

  const KernelInstance sk = instance(wgmma_config(128, 64, 64, 0, 1, 1, WgmmaSchedule::kSplitK, Op::N, Op::N,
                                                  DataType::kBF16, DataType::kBF16));
  ASSERT_EQ(invalid_reason(sk.config), nullptr);
  EXPECT_EQ(kernel_name(sk.config), "sm90_wgmma_bf16_bf16_128x64x64_c1x1_splitk_nn_align8");
  EXPECT_EQ(parse_kernel_name(kernel_name(sk.config)), sk.config);
  KernelConfig clustered = sk.config;
  clustered.cluster_m = 2;
  EXPECT_NE(std::string(invalid_reason(clustered)).find("split-K wgmma instance"), std::string::npos);

  // 128x128x32768: 2 tiles, so up to 64 batches of 512 (4 blocks per SM and 4 k-tiles per batch bound it).
  const auto long_k = split_candidates(sk.config, 128, 128, 32768, 132);
  ASSERT_FALSE(long_k.empty());
  for (const SplitChoice s : long_k) {
    EXPECT_EQ(s.mode, SplitKMode::kParallel);
    EXPECT_EQ(32768 % s.splits, 0) << s.splits;
  }
  EXPECT_EQ(long_k.back().splits, 64);
  EXPECT_TRUE(split_candidates(sk.config, 128, 128, 1531, 132).empty());    // no equal cut
  EXPECT_TRUE(split_candidates(sk.config, 4096, 4096, 4096, 132).empty());  // 2048 tiles fill the SMs

  GemmProblem p;
  p.op_a = Op::N, p.op_b = Op::N, p.m = 128, p.n = 128, p.k = 32768, p.lda = 128, p.ldb = 32768, p.ldc = 128;
  p.a = p.b = p.c = reinterpret_cast<void*>(0x10000);
  p.types = sk.config.types;
  EXPECT_EQ(cannot_implement(sk, p, h100()), "");
  // 64 planes of 128 x 128 floats; asked for no split, one plane (all of K in one batch).
  EXPECT_EQ(workspace_size(sk, p, {64, SplitKMode::kParallel}).partial_bytes, size_t{64} * 128 * 128 * 4);
  EXPECT_EQ(workspace_size(sk, p, {1, SplitKMode::kNone}).partial_bytes, size_t{128} * 128 * 4);
  const GemmParams launch = launch_params(sk, p, {64, SplitKMode::kParallel});
  EXPECT_EQ(launch.splits, 64);
  EXPECT_EQ(launch.k_per_split, 512);
  // A count that does not cut K runs as the largest one below it that does.
  const GemmParams cut = launch_params(sk, p, {48, SplitKMode::kParallel});
  EXPECT_EQ(cut.splits, 32);
  EXPECT_EQ(cut.k_per_split, 1024);
}

// TF32 and 3xTF32 split-K instances cut the K their copies give the kernel, and the workspace holds
// one plane per batch beside the copies. TF32 reads a `tn` problem in place: k = 1000 in 5 batches of
// 200. 3xTF32 copies both operands, k padded to 1024 (kSplitKCopyKMultiple): 3 x 1024 in 8 batches
// of 384, and 5 asked run as the 4 below that cut it.
TEST(Wgmma, Tf32SplitKCutsTheCopiesK) {
  for (const ComputeType arithmetic : {ComputeType::kTF32, ComputeType::k3xTF32}) {
    const KernelInstance sk = instance(wgmma_config(128, 128, 32, 0, 1, 1, WgmmaSchedule::kSplitK, Op::T, Op::N,
                                                    DataType::kF32, DataType::kF32, 1, false, arithmetic));
    ASSERT_EQ(invalid_reason(sk.config), nullptr);
    EXPECT_EQ(parse_kernel_name(kernel_name(sk.config)), sk.config) << kernel_name(sk.config);
    GemmProblem p = problem(Op::T, Op::N, 256, 256, 1000);
    p.types = sk.config.types;
    EXPECT_EQ(cannot_implement(sk, p, h100()), "");
    const bool emulated = arithmetic == ComputeType::k3xTF32;
    const SplitChoice asked{emulated ? 8 : 5, SplitKMode::kParallel};
    EXPECT_EQ(workspace_size(sk, p, asked).partial_bytes, size_t(asked.splits) * partial_ld(256) * 256 * sizeof(float));
    const RepackPlan plan = repack_plan(sk.config, p);
    const GemmProblem run = repacked_problem(p, plan, reinterpret_cast<float*>(0x100000));
    EXPECT_EQ(run.k, emulated ? 3 * 1024 : 1000);
    const GemmParams launch = launch_params(sk, run, asked);
    EXPECT_EQ(launch.splits, asked.splits);
    EXPECT_EQ(launch.k_per_split, emulated ? 384 : 200);
    if (emulated) {
      const GemmParams five = launch_params(sk, run, {5, SplitKMode::kParallel});
      EXPECT_EQ(five.splits, 4);
      EXPECT_EQ(five.k_per_split, 768);
    }
  }
}

// A TF32 split-K instance writes C through its FP32 partials, so it takes what TMA cannot write:
// 127x3001x1531 row-major (3001 x 127 to cuBLAS, ldc 3001, k 1531) runs on a copy of A padded to
// 3004 rows and of both operands padded to k = 1536, which 2, 3, 4, 6, 8 or 12 batches cut; the
// instances whose epilogue writes C, and the register-A one, refuse it by name.
TEST(Wgmma, Tf32SplitKTakesAnyC) {
  auto tf32 = [](WgmmaSchedule schedule, Op op_a) {
    return instance(wgmma_config(128, 64, 32, 0, 1, 1, schedule, op_a, Op::N, DataType::kF32, DataType::kF32, 1,
                                 false, ComputeType::kTF32));
  };
  const KernelInstance sk = tf32(WgmmaSchedule::kSplitK, Op::T);
  ASSERT_EQ(invalid_reason(sk.config), nullptr);
  GemmProblem p = problem(Op::T, Op::T, 3001, 127, 1531);
  p.types = sk.config.types;
  p.a = reinterpret_cast<const void*>(0x10000), p.b = reinterpret_cast<const void*>(0x20000);
  p.c = reinterpret_cast<void*>(0x30000);
  p.lda = 1531, p.ldb = 127, p.ldc = 3001;
  EXPECT_EQ(cannot_implement(sk, p, h100()), "");
  for (const Op op_a : {Op::N, Op::T})
    for (const Op op_b : {Op::N, Op::T}) {
      GemmProblem layout = p;
      layout.op_a = op_a, layout.op_b = op_b;
      layout.lda = op_a == Op::N ? 3001 : 1531, layout.ldb = op_b == Op::N ? 1531 : 127;
      EXPECT_EQ(cannot_implement(sk, layout, h100(), RepackPolicy::kAllowed), "") << layout_code(op_a, op_b);
    }
  const RepackPlan plan = repack_plan(sk.config, p);
  EXPECT_TRUE(plan.a && plan.b && plan.pad_m);
  EXPECT_EQ(plan.k_multiple, kSplitKCopyKMultiple);
  const GemmProblem run = repacked_problem(p, plan, reinterpret_cast<float*>(0x100000));
  EXPECT_EQ(run.m, 3004);
  EXPECT_EQ(run.k, 1536);
  EXPECT_EQ(run.lda, 1536);
  EXPECT_EQ(run.c, p.c);
  EXPECT_EQ(repack_layout(p, plan).bytes, repack_layout(p, plan).b_offset_bytes + sizeof(float) * 1536 * 127);
  EXPECT_GE(repack_layout(p, plan).b_offset_bytes, sizeof(float) * 1536 * 3004);
  const GemmParams launch = launch_params(sk, run, {8, SplitKMode::kParallel});
  EXPECT_EQ(launch.splits, 8);
  EXPECT_EQ(launch.k_per_split, 192);
  // The tuner's and the untuned choice's split counts are those that cut the copies' K.
  EXPECT_EQ(copies_k(sk.config, 1531), 1536);
  const std::vector<SplitChoice> splits = split_candidates(sk.config, 3001, 127, 1531, 132);
  ASSERT_FALSE(splits.empty());
  for (const SplitChoice s : splits) EXPECT_EQ(splitk_batches(1536, s.splits), s.splits) << s.splits;
  EXPECT_EQ(workspace_size(sk, p, {8, SplitKMode::kParallel}).partial_bytes,
            size_t{8} * partial_ld(3001) * 127 * sizeof(float));
  EXPECT_NE(cannot_implement(tf32(WgmmaSchedule::kPingpong, Op::T), p, h100()).find("ldc 3001"), std::string::npos);
  GemmProblem aligned_c = p;
  aligned_c.ldc = 3004;
  EXPECT_NE(cannot_implement(tf32(WgmmaSchedule::kPingpong, Op::T), aligned_c, h100()).find("m = 3001"),
            std::string::npos);
  GemmProblem m_major = aligned_c;
  m_major.op_a = Op::N, m_major.lda = 3004, m_major.k = 1532;
  EXPECT_NE(cannot_implement(tf32(WgmmaSchedule::kSplitK, Op::N), m_major, h100()).find("m = 3001"), std::string::npos);
  // A problem TMA reads and writes as it is keeps its m and k.
  GemmProblem whole = problem(Op::T, Op::N, 3004, 128, 1532);
  whole.types = sk.config.types;
  const RepackPlan none = repack_plan(sk.config, whole);
  EXPECT_FALSE(none.any() || none.pad_m);
  EXPECT_EQ(repacked_problem(whole, none, nullptr).k, 1532);
}

// 3xTF32 on an output of fewer tiles than SMs sums at most kEmulatedSplitSum of its copies' K per
// split, or runs the most splits its instance offers: 256 x 256 (4 tiles of 128 x 128) runs k = 512
// unsplit, k = 4096 only in 6 splits or more (the cooperative instance, which can run such k, offers
// no candidate past k = 680 and names why), and k = 65536 in the 64 splits of 3072 that the split-K
// instance offers at most; 512 x 3072 x 3072 (96 tiles, at most 4 equal splits of 9216) in those 4; TF32 and an
// output that fills the SMs are not restricted.
TEST(Wgmma, EmulatedSumsAtMostItsSplitLengthOnSmallOutputs) {
  auto config = [](WgmmaSchedule schedule, ComputeType arithmetic) {
    return wgmma_config(128, 128, 32, 0, 1, 1, schedule, Op::T, Op::N, DataType::kF32, DataType::kF32, 1, false,
                        arithmetic);
  };
  auto fp32_problem = [](int m, int n, int k, ComputeType arithmetic) {
    GemmProblem p = problem(Op::T, Op::N, m, n, k);
    p.types = {DataType::kF32, DataType::kF32, DataType::kF32, arithmetic};
    p.a = reinterpret_cast<const void*>(0x10000), p.b = reinterpret_cast<const void*>(0x20000);
    p.c = reinterpret_cast<void*>(0x30000);
    p.lda = p.ldb = k, p.ldc = m;
    return p;
  };
  const KernelInstance coop = instance(config(WgmmaSchedule::kCooperative, ComputeType::k3xTF32));
  const KernelInstance sk = instance(config(WgmmaSchedule::kSplitK, ComputeType::k3xTF32));
  ASSERT_EQ(invalid_reason(coop.config), nullptr);
  ASSERT_EQ(invalid_reason(sk.config), nullptr);
  EXPECT_EQ(split_candidates(coop.config, 256, 256, 512, 132).size(), 1u);
  EXPECT_EQ(cannot_implement(coop, fp32_problem(256, 256, 4096, ComputeType::k3xTF32), h100()), "");
  EXPECT_TRUE(split_candidates(coop.config, 256, 256, 1024, 132).empty());
  EXPECT_NE(emulated_split_violation(coop.config, 256, 256, 4096, 132, {1, SplitKMode::kNone}).find("at most 2048"),
            std::string::npos);
  EXPECT_EQ(split_candidates(coop.config, 4096, 4096, 65536, 132).size(), 1u);
  // k = 4096: 12288 of copies' K, so 6 splits or more.
  const std::vector<SplitChoice> mid_k = split_candidates(sk.config, 256, 256, 4096, 132);
  ASSERT_FALSE(mid_k.empty());
  for (const SplitChoice s : mid_k) EXPECT_GE(s.splits, 6);
  EXPECT_NE(emulated_split_violation(sk.config, 256, 256, 4096, 132, {4, SplitKMode::kParallel}), "");
  const std::vector<SplitChoice> wide = split_candidates(sk.config, 512, 3072, 3072, 132);
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].splits, 4);
  const std::vector<SplitChoice> long_k = split_candidates(sk.config, 256, 256, 65536, 132);
  ASSERT_EQ(long_k.size(), 1u);
  EXPECT_EQ(long_k[0].splits, 64);
  // Past 64 splits of 3072 the most splits remain.
  const std::vector<SplitChoice> longer = split_candidates(sk.config, 256, 256, 131072, 132);
  ASSERT_EQ(longer.size(), 1u);
  EXPECT_EQ(longer[0].splits, 64);
  EXPECT_EQ(cannot_implement(sk, fp32_problem(256, 256, 131072, ComputeType::k3xTF32), h100()), "");
  const KernelConfig tf32_sk = config(WgmmaSchedule::kSplitK, ComputeType::kTF32);
  EXPECT_GT(split_candidates(tf32_sk, 256, 256, 65536, 132).size(), 1u);
  EXPECT_EQ(emulated_split_violation(tf32_sk, 256, 256, 65536, 132, {2, SplitKMode::kParallel}), "");
}

// An instance of a row-major C runs the caller's problem transposed: a `tn` problem 16 tokens tall
// is a `tn` problem 16 wide to it, with A and B swapped, C the same memory; a problem of another
// layout, or one it would have to run as it stands, is refused by name.
TEST(Wgmma, RowMajorCInstanceRunsTheTransposedProblem) {
  const KernelInstance ct = instance(wgmma_config(64, 16, 64, 0, 1, 1, WgmmaSchedule::kPingpong, Op::T, Op::N,
                                                  DataType::kBF16, DataType::kBF16, 1, true));
  GemmProblem p = problem(Op::T, Op::N, 16, 4096, 4096);
  p.types = ct.config.types;
  p.a = reinterpret_cast<const void*>(0x10000), p.b = reinterpret_cast<const void*>(0x20000);
  p.c = reinterpret_cast<void*>(0x30000);
  p.lda = 4096, p.ldb = 4096, p.ldc = 16;
  EXPECT_EQ(cannot_implement(ct, p, h100()), "");
  const GemmParams run = launch_params(ct, p, {1, SplitKMode::kNone});
  EXPECT_EQ(run.m, 4096);
  EXPECT_EQ(run.n, 16);
  EXPECT_EQ(run.a, p.b);
  EXPECT_EQ(run.b, p.a);
  EXPECT_EQ(run.c, p.c);
  EXPECT_EQ(run.ldc, 16);
  EXPECT_TRUE(run.c_transposed);
  // The run problem is run as it stands (the workspace query builds launch parameters from it).
  const GemmProblem as_run = problem_as_run(ct.config, p);
  EXPECT_EQ(problem_as_run(ct.config, as_run).m, 4096);
  EXPECT_EQ(launch_params(ct, as_run, {1, SplitKMode::kNone}).m, 4096);
  EXPECT_EQ(split_candidates(ct.config, 16, 4096, 4096, 132).size(), 1u);
  // A `tt` problem runs as `nn`: read in place, nothing repacked.
  const KernelInstance ct_nn = instance(wgmma_config(64, 16, 64, 0, 1, 1, WgmmaSchedule::kPingpong, Op::N, Op::N,
                                                     DataType::kBF16, DataType::kBF16, 1, true));
  GemmProblem tt = p;
  tt.op_a = Op::T, tt.op_b = Op::T, tt.lda = 4096, tt.ldb = 4096;
  EXPECT_EQ(cannot_implement(ct_nn, tt, h100()), "");
  EXPECT_FALSE(repack_plan(ct_nn.config, tt).any());
  EXPECT_EQ(workspace_size(ct_nn, tt, {1, SplitKMode::kNone}).repack_bytes, 0u);
  GemmProblem nn = p;
  nn.op_a = Op::N, nn.lda = 16;
  EXPECT_EQ(cannot_implement(ct, nn, h100()), "run as its transpose (4096 x 16): layout tn differs from the problem's tt");
  // C is stored along m = 12 here: 24 bytes, which TMA's rows cannot take (the API pads it).
  GemmProblem short_c = p;
  short_c.m = 12, short_c.ldc = 16;
  EXPECT_NE(cannot_implement(ct, short_c, h100()).find("C is stored along n = 12"), std::string::npos);
  // The column-major twin refuses a transposed run.
  GemmProblem transposed = transposed_problem(p);
  const KernelInstance cm = instance(wgmma_config(64, 64, 64, 0, 1, 1, WgmmaSchedule::kPingpong, Op::T, Op::N,
                                                  DataType::kBF16, DataType::kBF16));
  EXPECT_EQ(cannot_implement(cm, transposed, h100()), "wgmma instance writes C column-major only");
}

}  // namespace
}  // namespace autogemm
