// The cost model's qualitative promises: split-k only when tiles cannot fill the SMs, wave
// quantization is penalised, and bigger problems cost more.
#include <gtest/gtest.h>

#include <tuple>

#include <utility>

#include "cost_model.hpp"

namespace autogemm {
namespace {

DeviceModel h100_like() {
  DeviceModel d;
  d.sm_count = 132;
  d.cycles_per_us = 1755.0;
  d.fma_per_us_per_sm = 128 * d.cycles_per_us;
  d.dram_bytes_per_us = 3.0e6;
  d.l2_bytes_per_us = 7.5e6;
  return d;
}

const KernelConfig k128{128, 128, 8, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4};

TEST(CostModel, SplitsOnlyWhenTilesCannotFillTheSms) {
  EXPECT_EQ(split_candidates(k128, 3072, 3072, 3072, 132).size(), 1u);  // 576 tiles
  const auto small = split_candidates(k128, 128, 128, 32768, 132);     // 1 tile, long K
  EXPECT_GT(small.size(), 1u);
  for (const auto& s : small) EXPECT_LE(s.splits, 4 * 132);
  EXPECT_EQ(split_candidates(k128, 128, 128, 48, 132).size(), 1u);     // K too short: < 4 BK steps per split
}

TEST(CostModel, ResidueSplitsDivideTheColumnsTheLaunchCovers) {
  // A residue instance's planes cover k - 1 columns, ceil((k - 1) / 4) per residue (residue_columns),
  // and each split of a residue keeps at least 4 BK steps: at k = 1021 (255 columns, BK 32) two
  // splits per residue would keep 3.98 steps, so only the 4 planes of one split each are offered.
  KernelConfig res{32, 128, 32, 32, 32, 4, 8, 3, 1, Op::N, Op::T, 4};
  res.residues = kResidues;
  ASSERT_EQ(residue_columns(1021, false), 255);
  const auto at1021 = split_candidates(res, 31, 127, 1021, 132);
  ASSERT_EQ(at1021.size(), 1u);
  EXPECT_EQ(at1021[0].splits, kResidues);
  const auto at1025 = split_candidates(res, 31, 127, 1025, 132);  // 256 columns: 2 splits fit
  ASSERT_EQ(at1025.size(), 2u);
  EXPECT_EQ(at1025[1].splits, 2 * kResidues);
}

TEST(CostModel, ResiduesOfMSplitAllOfKOverAQuarterOfTheRows) {
  // Residues of M: each residue covers ceil(m / 4) rows and all of K from up to 3 columns early. At
  // 3001 x 127 x 1531 the 64 x 64 tile has 12 x 2 tiles per residue: 1 to 4 splits per residue
  // (384 blocks <= 4 waves), each keeping >= 4 BK steps of the 1534 columns. Each output reads one
  // residue's planes, so 16 planes cost the reduction what 4 cost residues of K.
  KernelConfig res{64, 64, 32, 32, 32, 4, 8, 3, 1, Op::T, Op::T, 4};
  res.residues = kResidues;
  ASSERT_TRUE(res.residues_of_m());
  ASSERT_EQ(residue_columns(1531, true), 1534);
  const auto c = split_candidates(res, 3001, 127, 1531, 132);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c.back().splits, 4 * kResidues);
  for (const auto& s : c) EXPECT_EQ(s.mode, SplitKMode::kParallel);
  KernelConfig of_k = res;
  of_k.op_a = Op::N;
  const DeviceModel d = h100_like();
  EXPECT_LT(estimate_us(res, 2, 3001, 127, 1531, {16, SplitKMode::kParallel}, d),
            estimate_us(of_k, 2, 3001, 127, 1531, {16, SplitKMode::kParallel}, d));
}

TEST(CostModel, WaveQuantizationCosts) {
  const DeviceModel d = h100_like();
  // 132 tiles fill one wave at occupancy 1; 133 need a second.
  const double one_wave = estimate_us(k128, 1, 128 * 132, 128, 4096, {1, SplitKMode::kNone}, d);
  const double two_waves = estimate_us(k128, 1, 128 * 133, 128, 4096, {1, SplitKMode::kNone}, d);
  EXPECT_GT(two_waves, 1.5 * one_wave);
}

TEST(CostModel, AStreamedTailIsPricedAsTheShareOfATileEachSmRuns) {
  // 3072^3 on 128x256 TMA tiles: 288 tiles, 2 waves and 24 tiles streamed over 132 blocks. Priced
  // as 3 waves, the instance would lose the untuned choice to the 128x192 tile it beats by 7%
  // (1099 against 1177 us on the H100).
  const DeviceModel d = h100_like();
  constexpr KernelConfig tma{128, 256, 16, 64, 64, 8, 16, 4, 1, Op::N, Op::T, 4, Family::kTma};
  const SplitChoice none{1, SplitKMode::kNone};
  const double streamed = estimate_us(tma, 1, 3072, 3072, 3072, none, d);
  const double two_waves = estimate_us(tma, 1, 128 * 264 / 12, 3072, 3072, none, d);  // 264 tiles
  const double three_waves = estimate_us(tma, 1, 128 * 396 / 12, 3072, 3072, none, d);  // 396 tiles
  EXPECT_GT(streamed, two_waves * 1.05);
  EXPECT_LT(streamed, two_waves * 1.2);
  EXPECT_LT(streamed, three_waves * 0.8);
  // Where the tail cannot run (tiles that overhang C: the general epilogue), the last wave is whole.
  EXPECT_GT(estimate_us(tma, 1, 3072 - 4, 3072, 3072, none, d), three_waves * 0.95);
}

TEST(CostModel, RanksTheTmaTileAheadOfTheSixteenWarpTileAtFourThousandCubed) {
  // Measured on the H100: 4096^3 `nt` 2526 us on the 256x128x16 TMA tile, 3049 on its BK = 32
  // twin (a k-tile of 4096 FFMAs per thread), 3300 on the 128x128x8 tile of two 8-warp blocks per
  // SM that a model without the TMA terms prefers.
  const DeviceModel d = h100_like();
  constexpr KernelConfig tma16{256, 128, 16, 64, 64, 8, 16, 4, 1, Op::N, Op::T, 4, Family::kTma};
  constexpr KernelConfig tma32{256, 128, 32, 64, 64, 8, 16, 3, 1, Op::N, Op::T, 4, Family::kTma};
  constexpr KernelConfig small{128, 128, 8, 64, 32, 8, 8, 2, 2, Op::N, Op::T, 4};
  const SplitChoice none{1, SplitKMode::kNone};
  const double t16 = estimate_us(tma16, 1, 4096, 4096, 4096, none, d);
  EXPECT_LT(t16, estimate_us(small, 2, 4096, 4096, 4096, none, d));
  EXPECT_GT(estimate_us(tma32, 1, 4096, 4096, 4096, none, d), 1.1 * t16);
}

TEST(CostModel, SplitKHelpsSmallOutputsWithLongK) {
  const DeviceModel d = h100_like();
  const double none = estimate_us(k128, 1, 128, 128, 32768, {1, SplitKMode::kNone}, d);
  const double split = estimate_us(k128, 1, 128, 128, 32768, {32, SplitKMode::kParallel}, d);
  EXPECT_LT(split, none / 4);
}

const KernelConfig gemv16 = gemv_config(16, 8, Op::N, Op::N, 4);

TEST(CostModel, GemvSplitsKOnlyInParallelModeAndOnlyToFillTheSms) {
  const auto splits = split_candidates(gemv16, 64, 1, 1 << 20, 132);  // 4 row blocks, long K
  ASSERT_GT(splits.size(), 1u);
  for (const auto& s : splits) {
    EXPECT_NE(s.mode, SplitKMode::kSerial);
    EXPECT_LE(4L * s.splits, 8L * 132);
  }
  EXPECT_EQ(split_candidates(gemv16, 64 * 132 * 8, 1, 1 << 20, 132).size(), 1u);  // rows alone fill the SMs
  EXPECT_EQ(split_candidates(gemv16, 64, 1, 200, 132).size(), 1u);              // K too short to split
}

TEST(CostModel, GemvIsBoundByReadingAOnce) {
  const DeviceModel d = h100_like();
  // 1 x 3072 x 3072 row-major: 37.7 MB of A at 3 TB/s is 12.6 us, plus a launch.
  const double t = estimate_us(gemv16, 4, 3072, 1, 3072, {1, SplitKMode::kNone}, d);
  EXPECT_GT(t, 12.6);
  EXPECT_LT(t, 16.0);
  // The same tiled GEMM instance computes 128 columns to produce one: slower than the GEMV.
  EXPECT_LT(t, estimate_us(k128, 1, 3072, 1, 3072, {1, SplitKMode::kNone}, d));
  // Too few blocks leave too few bytes in flight: 4 blocks stream slower per byte than 192.
  const double few = estimate_us(gemv16, 4, 64, 1, 3072 * 48, {1, SplitKMode::kNone}, d);
  EXPECT_GT(few, 2.0 * t);
  // Splitting K puts more blocks, so more bytes, in flight.
  EXPECT_LT(estimate_us(gemv16, 4, 64, 1, 3072 * 48, {32, SplitKMode::kParallel}, d), few / 4);
  // 8-row M-major blocks read 32-byte runs of each column: priced below 16-row blocks.
  EXPECT_GT(estimate_us(gemv_config(8, 8, Op::N, Op::N, 4), 4, 3072, 1, 3072, {1, SplitKMode::kNone}, d), t);
  // Scalar loads cost issue slots, most in narrow M-major blocks.
  EXPECT_GT(estimate_us(gemv_config(16, 8, Op::N, Op::N, 1), 4, 3072, 1, 3072, {1, SplitKMode::kNone}, d), 1.4 * t);
  EXPECT_LT(estimate_us(gemv_config(64, 8, Op::N, Op::N, 1), 4, 3072, 1, 3072, {8, SplitKMode::kParallel}, d),
            1.15 * estimate_us(gemv_config(64, 8, Op::N, Op::N, 4), 4, 3072, 1, 3072, {8, SplitKMode::kParallel}, d));
  EXPECT_LT(estimate_us(gemv_config(16, 8, Op::T, Op::N, 1), 4, 3072, 1, 3072, {1, SplitKMode::kNone}, d), 1.1 * t);
  // K-major with n > 1: B's loads are shared by the rows of a warp, so more rows per warp win.
  const double one_row = estimate_us(gemv_config(8, 8, Op::T, Op::T, 4), 4, 3072, 4, 3072, {1, SplitKMode::kNone}, d);
  const double four_rows = estimate_us(gemv_config(32, 4, Op::T, Op::T, 4), 4, 3072, 4, 3072, {1, SplitKMode::kNone}, d);
  EXPECT_GT(one_row, 1.5 * four_rows);
  // Blocks on fewer SMs than the GPU has keep fewer bytes in flight: 64-row K-major blocks (64 of
  // them) are priced above 8-row ones (512) for 2 x 4096 x 4096.
  EXPECT_GT(estimate_us(gemv_config(64, 2, Op::T, Op::N, 4), 4, 4096, 2, 4096, {1, SplitKMode::kNone}, d),
            estimate_us(gemv_config(8, 8, Op::T, Op::N, 4), 4, 4096, 2, 4096, {1, SplitKMode::kNone}, d));
}

TEST(CostModel, NarrowMMajorGemvBlocksLoseOnLargeA) {
  const DeviceModel d = h100_like();
  const KernelConfig rows16 = gemv16, rows64 = gemv_config(64, 8, Op::N, Op::N, 4);
  // 1 x 3072 x 3072 (36 MiB of A) and 1 x 2048 x 8192 (64 MiB): the 16-row block unsplit is the
  // measured best and the model's pick over 64 rows with splits (19.9 vs 20.5 us on the H100).
  for (auto [m, k] : {std::pair{3072, 3072}, std::pair{2048, 8192}})
    EXPECT_LT(estimate_us(rows16, 4, m, 1, k, {1, SplitKMode::kNone}, d),
              estimate_us(rows64, 4, m, 1, k, {8, SplitKMode::kParallel}, d))
        << m << "x" << k;
  // 172 MiB of A, whichever way round: the 16-row block ran 80.5 / 79.8 us against 70.9 / 70.0 for
  // 64 rows (16 splits / unsplit, the tuned best); the model orders them that way, by about that much.
  struct Case {
    int m, k;
    SplitChoice best_64_rows;
  };
  for (const Case& c : {Case{4096, 11008, {16, SplitKMode::kParallel}}, Case{11008, 4096, {1, SplitKMode::kNone}}}) {
    const double narrow = estimate_us(rows16, 4, c.m, 1, c.k, {1, SplitKMode::kNone}, d);
    const double wide = estimate_us(rows64, 4, c.m, 1, c.k, c.best_64_rows, d);
    EXPECT_NEAR(narrow / wide, 1.14, 0.05) << c.m << "x" << c.k;
  }
  // 64-row blocks read 256-byte runs: no such loss; time grows with the bytes alone.
  EXPECT_NEAR(estimate_us(rows64, 4, 8192, 1, 28672, {1, SplitKMode::kNone}, d),
              (4.0 * 8192 * 28672 / d.dram_bytes_per_us) + 2.0, 2.0);
}

TEST(CostModel, ScalarCopiesStreamSlower) {
  const DeviceModel d = h100_like();
  const KernelConfig skinny{128, 16, 32, 32, 16, 4, 4, 3, 1, Op::N, Op::N, 4};
  KernelConfig scalar = skinny;
  scalar.align = 1;
  // Memory-bound (one output column on a 16-wide tile): the scalar tile is priced above its twin.
  EXPECT_GT(estimate_us(scalar, 1, 3072, 1, 3072, {8, SplitKMode::kParallel}, d),
            1.1 * estimate_us(skinny, 1, 3072, 1, 3072, {8, SplitKMode::kParallel}, d));
}

// 127x3001x1531 in the scalar class (column-major m = 3001, n = 127, odd lda), 4 parallel splits:
// the residue instance's 16-byte copies against the 4x8 sliced align1 tile's 4-byte ones. Measured
// on the H100: 43.2 against 57.1 us; a model that charges a 4-byte copy what a 16-byte one costs
// prices them the other way round. Occupancy as on the H100.
TEST(CostModel, FourByteCopiesCostMoreIssueSlots) {
  const DeviceModel d = h100_like();
  constexpr KernelConfig scalar{64, 64, 32, 32, 32, 4, 8, 3, 2, Op::N, Op::N, 1, Family::kGemm, 2};
  constexpr KernelConfig residue{64, 64, 32, 64, 32, 8, 8, 3, 3, Op::N, Op::T, 4, Family::kGemm, 2, 4};
  GemmProblem p;  // nn: the residue instance reads B transposed, a copy the untuned choice prices too
  p.m = 3001, p.n = 127, p.k = 1531, p.lda = 3001, p.ldb = 1531, p.ldc = 3001;
  p.a = reinterpret_cast<const float*>(0x10000), p.b = reinterpret_cast<const float*>(0x20000);
  p.c = reinterpret_cast<float*>(0x30000);
  const SplitChoice four{4, SplitKMode::kParallel};
  EXPECT_LT(repack_estimate_us(residue, p, d) + estimate_us(residue, 3, p.m, p.n, p.k, four, d),
            repack_estimate_us(scalar, p, d) + estimate_us(scalar, 2, p.m, p.n, p.k, four, d));
}

// A pipeline keeps stages - 1 tiles in flight: 32001x16x4096 `nt` (scalar class, unsplit) ran
// 355.7 us on the 128x16x8 tile with 2 stages and 211.0 on the 128x16x16 one with 3 (H100),
// which a model of the plain DRAM rate prices alike.
TEST(CostModel, ShallowPipelinesStreamSlower) {
  const DeviceModel d = h100_like();
  constexpr KernelConfig shallow{128, 16, 8, 32, 16, 4, 4, 2, 2, Op::N, Op::T, 1};
  constexpr KernelConfig deeper{128, 16, 16, 32, 16, 4, 4, 3, 1, Op::N, Op::T, 1};
  EXPECT_GT(estimate_us(shallow, 6, 32001, 16, 4096, {1, SplitKMode::kNone}, d),
            1.2 * estimate_us(deeper, 5, 32001, 16, 4096, {1, SplitKMode::kNone}, d));
}

// A warp's float4 fragment read takes ~3 shared-memory wavefronts and an SM serves one per cycle
// against four warp FFMAs, so a 4x4 thread tile (8 FFMAs per read) runs at most 2/3 of the FFMA
// rate. 256x3072x3072 (column-major m = 3072, n = 256) on the H100: the 32x32 4x4 sliced tile
// unsplit 164.3 us, the 128x64 8x8 sliced tile with 4 splits 131.2; without the cap the model
// prices them the other way round. Occupancy as on the H100.
TEST(CostModel, SharedMemoryWavefrontsCapSmallThreadTiles) {
  const DeviceModel d = h100_like();
  constexpr KernelConfig t4x4{32, 32, 32, 32, 16, 4, 4, 3, 4, Op::N, Op::N, 4, Family::kGemm, 2};
  constexpr KernelConfig t8x8{128, 64, 32, 64, 32, 8, 8, 3, 2, Op::N, Op::N, 4, Family::kGemm, 2};
  EXPECT_LT(estimate_us(t8x8, 2, 3072, 256, 3072, {4, SplitKMode::kParallel}, d),
            estimate_us(t4x4, 5, 3072, 256, 3072, {1, SplitKMode::kNone}, d));
  // And a compute-bound launch of the 4x4 tile takes at least 1.5x its FFMAs at the full rate.
  const double ffma_us = 3072.0 * 3072 * 3072 / (d.fma_per_us_per_sm * d.sm_count);
  EXPECT_GT(estimate_us(t4x4, 5, 3072, 3072, 3072, {1, SplitKMode::kNone}, d), 1.5 * ffma_us);
}

// A K-major operand kept K-major in shared memory is read in runs of bk floats per row:
// 24x4096x11008 `tn` (column-major m = 4096, n = 24, k = 11008: a 180 MB A) ran 124.4 us on the
// 128x32 8x4 tile at BK = 16 (64-byte runs) and 94.0 at BK = 32 with 12 splits (H100); without
// the short-run term the model prices them alike. Occupancy as on the H100.
TEST(CostModel, ShortRunsOfAKMajorOperandStreamSlower) {
  const DeviceModel d = device_model(9, 0, 132, 1980000, 2619000, 5120);  // the H100's attributes
  constexpr KernelConfig bk16{128, 32, 16, 32, 32, 8, 4, 3, 1, Op::T, Op::N, 4};
  constexpr KernelConfig bk32{128, 32, 32, 32, 32, 8, 4, 3, 1, Op::T, Op::N, 4};
  const SplitChoice twelve{12, SplitKMode::kParallel};
  // A 1.05x margin: the k-tile sync (EachKTileEndsInASync) raises the BK = 32 tile's estimate too,
  // in the compute-bound share of its time at 3 blocks per SM; measured 124.4 against 94.0 us.
  EXPECT_GT(estimate_us(bk16, 4, 4096, 24, 11008, twelve, d), 1.05 * estimate_us(bk32, 3, 4096, 24, 11008, twelve, d));
}

TEST(CostModel, KIsComputedInWholeKTiles) {
  // A block runs ceil(K / BK) k-tiles, the last one zero-filled: at 3000x3000x100 a BK = 32 tile
  // computes 128 steps, a BK = 8 one 104, and the 64x64x32 sliced tile that a model of K / BK steps
  // prefers ran 77.7 us where 64x32x8 ran 63.2 (H100). Where compute bounds the
  // time, K = 100 costs a BK = 32 tile what K = 128 does and a BK = 8 tile less.
  const DeviceModel d = device_model(9, 0, 132, 1980000, 2619000, 5120);
  constexpr KernelConfig bk32{64, 64, 32, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4};
  constexpr KernelConfig bk8{64, 32, 8, 32, 32, 8, 4, 2, 2, Op::N, Op::N, 4};
  const SplitChoice none{1, SplitKMode::kNone};
  EXPECT_DOUBLE_EQ(estimate_us(bk32, 4, 3000, 3000, 100, none, d), estimate_us(bk32, 4, 3000, 3000, 128, none, d));
  EXPECT_LT(estimate_us(bk8, 9, 3000, 3000, 100, none, d), estimate_us(bk8, 9, 3000, 3000, 128, none, d));
}

TEST(CostModel, EachKTileEndsInASync) {
  // A k-tile's wait and barrier cost about 48 FFMAs of each thread, so of two tiles that
  // differ only in BK the shallow one pays ~9% more per FFMA (8x8 at BK = 8) and the deep one ~2%.
  const DeviceModel d = device_model(9, 0, 132, 1980000, 2619000, 5120);
  constexpr KernelConfig bk8{128, 128, 8, 64, 32, 8, 8, 2, 2, Op::N, Op::T, 4};
  constexpr KernelConfig bk32{128, 128, 32, 64, 32, 8, 8, 2, 2, Op::N, Op::T, 4};
  const SplitChoice none{1, SplitKMode::kNone};
  const double ratio = estimate_us(bk8, 2, 4096, 2048, 4096, none, d) / estimate_us(bk32, 2, 4096, 2048, 4096, none, d);
  EXPECT_GT(ratio, 1.05);
  EXPECT_LT(ratio, 1.10);
}

TEST(CostModel, LargerProblemsCostMore) {
  const DeviceModel d = h100_like();
  EXPECT_LT(estimate_us(k128, 1, 1024, 1024, 1024, {1, SplitKMode::kNone}, d),
            estimate_us(k128, 1, 4096, 4096, 4096, {1, SplitKMode::kNone}, d));
}

// The tensor-core terms, as the H100's and H200's BF16 measurements set them (docs/decisions.md): the
// stream-K schedule unsplit costs its cooperative twin plus a set-up, a 128-row ping-pong tile costs
// about what its cooperative twin does, split-K pays per split, so its best split count is finite,
// and narrow tiles pay for their re-reads of the other operand.
TEST(CostModel, WgmmaTermsFollowTheMeasurements) {
  const DeviceModel d = h100_like();
  auto cfg = [](int bm, int bn, WgmmaSchedule s) {
    return wgmma_config(bm, bn, 64, 0, 1, 1, s, Op::T, Op::N, DataType::kBF16, DataType::kBF16);
  };
  const SplitChoice none{1, SplitKMode::kNone};
  const KernelConfig coop = cfg(128, 128, WgmmaSchedule::kCooperative), sk = cfg(128, 128, WgmmaSchedule::kStreamK),
                     ping = cfg(128, 128, WgmmaSchedule::kPingpong);
  for (auto [m, n, k] : {std::tuple{3072, 16, 3072}, std::tuple{4096, 4096, 4096}, std::tuple{256, 256, 8192}})
    EXPECT_GT(estimate_us(sk, 1, m, n, k, none, d), estimate_us(coop, 1, m, n, k, none, d)) << m << "x" << n << "x" << k;
  // 4096x512: 128 tiles of 128x128, one per SM: a lone ping-pong tile 1.01x its cooperative twin
  // (4096x512x14336 `tn` on the H200: 81.4 us against 80.8). 11008x512: 344 tiles, 3 per SM, where
  // ping-pong hides all but the last epilogue (`tn` on the H200: 70.8 us against 72.6).
  const double lone = estimate_us(ping, 1, 4096, 512, 14336, none, d) / estimate_us(coop, 1, 4096, 512, 14336, none, d);
  EXPECT_GT(lone, 1.0);
  EXPECT_LT(lone, 1.02);
  EXPECT_LT(estimate_us(ping, 1, 11008, 512, 4096, none, d), estimate_us(coop, 1, 11008, 512, 4096, none, d));
  const KernelConfig sk64 = cfg(128, 64, WgmmaSchedule::kStreamK);
  auto split = [&](int s) { return estimate_us(sk64, 1, 128, 128, 32768, {s, SplitKMode::kParallel}, d); };
  EXPECT_LT(split(8), split(2));
  EXPECT_LT(split(8), split(64));
  // The split-K schedule's batches run side by side: more of them shorten the busiest SM's K.
  const KernelConfig batched = cfg(128, 64, WgmmaSchedule::kSplitK);
  auto batches = [&](int s) { return estimate_us(batched, 1, 128, 128, 32768, {s, SplitKMode::kParallel}, d); };
  EXPECT_LT(batches(64), batches(8));
  EXPECT_LT(batches(8), batches(2));
  // Swizzle and cluster round each tile count up, and CUTLASS runs the padding tiles: 11008x512 on
  // 128x192 is 86 x 3 tiles, 88 x 8 at swizzle 8 (162.4 us against 78.5 unswizzled).
  KernelConfig wide = cfg(128, 192, WgmmaSchedule::kCooperative), swizzled = wide;
  swizzled.swizzle = 8;
  EXPECT_GT(estimate_us(swizzled, 1, 11008, 512, 4096, none, d), 2.0 * estimate_us(wide, 1, 11008, 512, 4096, none, d));
  EXPECT_EQ(estimate_us(swizzled, 1, 3072, 3072, 3072, none, d), estimate_us(wide, 1, 3072, 3072, 3072, none, d));
  // A narrow tile re-reads the wide operand through L2 once per column of tiles: 1000^3 on 64x16
  // ran 34.7 us against 13.3 on 128x128.
  const KernelConfig narrow = cfg(64, 16, WgmmaSchedule::kPingpong);
  EXPECT_GT(estimate_us(narrow, 1, 1000, 1000, 1000, none, d), 1.5 * estimate_us(coop, 1, 1000, 1000, 1000, none, d));
  // A main loop retires a k-step in no less than ~200 cycles: 96x96x20000 ran 37.3 us on 64x16
  // ping-pong (313 k-steps per tile) and 14.8 in 10 batches of 128x64 split-K (H200, tuned).
  const KernelConfig batched_nn = wgmma_config(128, 64, 64, 0, 1, 1, WgmmaSchedule::kSplitK, Op::N, Op::N,
                                               DataType::kBF16, DataType::kBF16);
  const KernelConfig narrow_nn = wgmma_config(64, 16, 64, 0, 1, 1, WgmmaSchedule::kPingpong, Op::N, Op::N,
                                              DataType::kBF16, DataType::kBF16);
  EXPECT_GT(estimate_us(narrow_nn, 1, 96, 96, 20000, none, d), 313 * 200 / d.cycles_per_us);
  EXPECT_LT(estimate_us(batched_nn, 1, 96, 96, 20000, {10, SplitKMode::kParallel}, d),
            estimate_us(narrow_nn, 1, 96, 96, 20000, none, d));
  // Between 128x64 and 128x128 the tensor cores' efficiency grows with the tile: per unit of work,
  // 128x112 is priced nearer 128x128 than 128x64 (8 tiles per SM).
  auto per_column = [&](int bn) {
    return estimate_us(cfg(128, bn, WgmmaSchedule::kCooperative), 1, 128 * 132, 8 * bn, 4096, none, d) / bn;
  };
  EXPECT_LT(per_column(112) - per_column(128), 0.5 * (per_column(64) - per_column(128)));
  // An N-major B whose tile is 32 wide arrives in 64-byte box rows: 64x32 ping-pong ran
  // 1024x1024x4096 in 47.5 us in `nt`, 41.7 in `nn` (B K-major); 64 wide, the rows are whole.
  auto layout = [&](int bn, Op op_b) {
    return estimate_us(wgmma_config(64, bn, 64, 0, 1, 1, WgmmaSchedule::kPingpong, Op::N, op_b, DataType::kBF16,
                                    DataType::kBF16),
                       1, 1024, 1024, 4096, none, d);
  };
  EXPECT_GT(layout(32, Op::T), 1.1 * layout(32, Op::N));
  EXPECT_EQ(layout(64, Op::T), layout(64, Op::N));
  // Streaming and tensor-core work overlap only in part: of tiles the DRAM time bounds alike, the one
  // with less tensor-core work per SM costs less (11008x64x4096 `tn` on the H200: 128x64 cooperative
  // 34.1 us, 64x64 ping-pong, two tiles per SM, 38.2).
  const KernelConfig tall = cfg(128, 64, WgmmaSchedule::kCooperative), two_per_sm = cfg(64, 64, WgmmaSchedule::kPingpong);
  EXPECT_LT(estimate_us(tall, 1, 11008, 64, 4096, none, d), estimate_us(two_per_sm, 1, 11008, 64, 4096, none, d));
  // A lone 64x256 ping-pong tile per SM runs slower than a 128x128 cooperative one (4096x512x4096
  // `tn`: 31.9 us against 29.1, 128 tiles either way); a lone 64x128 as fast as 128x64 (4096x256).
  const KernelConfig lone_wide = cfg(64, 256, WgmmaSchedule::kPingpong);
  EXPECT_GT(estimate_us(lone_wide, 1, 4096, 512, 4096, none, d), 1.05 * estimate_us(coop, 1, 4096, 512, 4096, none, d));
  EXPECT_EQ(estimate_us(cfg(64, 128, WgmmaSchedule::kPingpong), 1, 4096, 256, 4096, none, d),
            estimate_us(cfg(128, 64, WgmmaSchedule::kCooperative), 1, 4096, 256, 4096, none, d));
}

// A TF32 register-A instance runs the tensor cores at 2/3 of its `tn` twin's rate (3072^3 on 128x128
// 340.4 us against 225.4), but reads an M-major A in place: on a narrow `nn` output the copy of A
// the twin needs costs more than that (column-major 3072x128x3072: 58.7 us on the copy, 32.8 in
// registers).
TEST(CostModel, RegisterATf32PaysInComputeAndSavesTheCopy) {
  const DeviceModel d = h100_like();
  auto tf32 = [](Op op_a) {
    return wgmma_config(128, 128, 32, 0, 1, 1, WgmmaSchedule::kCooperative, op_a, Op::N, DataType::kF32,
                        DataType::kF32, 1, false, ComputeType::kTF32);
  };
  const KernelConfig tn = tf32(Op::T), rs = tf32(Op::N);
  const SplitChoice none{1, SplitKMode::kNone};
  EXPECT_GT(estimate_us(rs, 1, 4096, 4096, 4096, none, d), 1.3 * estimate_us(tn, 1, 4096, 4096, 4096, none, d));
  GemmProblem nn;
  nn.op_a = Op::N, nn.op_b = Op::N, nn.m = 3072, nn.n = 128, nn.k = 3072;
  nn.lda = nn.ldb = nn.ldc = 3072;
  nn.a = nn.b = reinterpret_cast<const float*>(0x10000);
  nn.types = {DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
  EXPECT_EQ(repack_estimate_us(rs, nn, d), 0.0);
  EXPECT_LT(estimate_us(rs, 1, 3072, 128, 3072, none, d),
            estimate_us(tn, 1, 3072, 128, 3072, none, d) + repack_estimate_us(tn, nn, d));
}

}  // namespace
}  // namespace autogemm
