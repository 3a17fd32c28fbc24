// The launch plan of the TMA instances (tma_launch_plan.hpp): which launches run a streamed tail,
// how its steps are divided, and the workspace run() is told to provide for it.
#include <gtest/gtest.h>

#include <cstdint>

#include "tma_launch_plan.hpp"

namespace autogemm {
namespace {

constexpr KernelConfig kNt{256, 128, 16, 64, 64, 8, 16, 4, 1, Op::N, Op::T, 4, Family::kTma};

TEST(StreamKTail, TakesThePartialLastWaveOf4096Cubed) {
  // 4096^3 on 256x128 tiles: 512 tiles over 132 SMs, 3 whole waves and 116 tiles of 256 steps.
  const StreamKTail t = streamk_tail_of(kNt, 512, 4096, 132, true, true);
  EXPECT_EQ(t.first_tile, 396);
  EXPECT_EQ(t.tiles, 116);
  EXPECT_EQ(t.k_tiles, 256);
  EXPECT_EQ(t.blocks, 132);
  EXPECT_EQ(t.taper, 256 * 3 / 64);  // 3 waves before the tail
  // Every step belongs to exactly one block, blocks in order; the shares fall from about 225 + 6
  // to 225 - 6 (the taper), neighbours within two steps (each share is rounded).
  EXPECT_EQ(streamk_first_step(t, 0), 0);
  EXPECT_EQ(streamk_first_step(t, t.blocks), int64_t{116} * 256);
  int64_t previous = streamk_first_step(t, 1);
  EXPECT_NEAR(previous, 225 + 6, 1);
  for (int b = 1; b < t.blocks; ++b) {
    const int64_t steps = streamk_first_step(t, b + 1) - streamk_first_step(t, b);
    EXPECT_LE(steps, previous + 2);
    EXPECT_GE(steps, previous - 2);
    previous = steps;
  }
  EXPECT_NEAR(previous, 225 - 6, 1);
  StreamKTail even = t;
  even.taper = 0;
  for (int b = 0; b <= even.blocks; ++b) EXPECT_EQ(streamk_first_step(even, b), int64_t{116} * 256 * b / 132);
}

TEST(StreamKTail, TaperGrowsWithTheWavesBeforeTheTailWithinItsCaps) {
  // 3072^3 on 128x256 tiles: 288 tiles, 2 waves, 24 tail tiles of 192 steps, 34 steps a block.
  EXPECT_EQ(streamk_tail_of(kNt, 288, 3072, 132, true, true).taper, 192 * 2 / 64);
  // 4096x11008x4096: 10 waves would give 40 steps; capped at k_tiles / 8.
  EXPECT_EQ(streamk_tail_of(kNt, 1376, 4096, 132, true, true).taper, 256 / 8);
  // Short shares: at most half a share (20 tiles of 32 steps over 40 blocks: 16 steps a block).
  EXPECT_LE(streamk_tail_of(kNt, 152 + 132 * 8, 512, 132, true, true).taper, 8);
}

TEST(StreamKTail, NoneWhereItCannotPayOrCannotRun) {
  EXPECT_EQ(streamk_tail_of(kNt, 528, 4096, 132, true, true).tiles, 0) << "whole waves";
  EXPECT_EQ(streamk_tail_of(kNt, 100, 4096, 132, true, true).tiles, 0) << "less than one wave";
  EXPECT_EQ(streamk_tail_of(kNt, 132 + 119, 4096, 132, true, true).tiles, 0) << "a last wave 9/10 full";
  EXPECT_EQ(streamk_tail_of(kNt, 512, 4096, 132, false, true).tiles, 0) << "the general form";
  EXPECT_EQ(streamk_tail_of(kNt, 512, 4096, 132, true, false).tiles, 0) << "AUTOGEMM_STREAMK=0";
  KernelConfig nn = kNt;
  nn.op_b = Op::N;
  EXPECT_EQ(streamk_tail_of(nn, 512, 4096, 132, true, true).tiles, 0) << "a K-major B";
  KernelConfig gemm = kNt;
  gemm.family = Family::kGemm;
  EXPECT_EQ(streamk_tail_of(gemm, 512, 4096, 132, true, true).tiles, 0) << "not a TMA instance";
  // 116 tiles of 8 steps: 58 blocks of kStreamKMinSteps would run two tiles each, slower than one
  // block per tile.
  EXPECT_EQ(streamk_tail_of(kNt, 512, 128, 132, true, true).tiles, 0) << "too few steps per tile";
}

TEST(StreamKTail, ShortTilesGetFewerBlocksOfAtLeastTheMinimumSteps) {
  // 56 tail tiles (4096x11008x4096's 1376 tiles) of 40 steps: 140 blocks' worth, capped at 132.
  EXPECT_EQ(streamk_tail_of(kNt, 1376, 640, 132, true, true).blocks, 132);
  // 20 tiles of 32 steps: 40 blocks of 16 steps, two per tile.
  const StreamKTail t = streamk_tail_of(kNt, 152, 512, 132, true, true);
  EXPECT_EQ(t.tiles, 20);
  EXPECT_EQ(t.blocks, 40);
  EXPECT_EQ(streamk_first_step(t, 1), kStreamKMinSteps);
}

}  // namespace
}  // namespace autogemm
