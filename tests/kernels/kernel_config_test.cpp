// KernelConfig: names round-trip, malformed names are rejected, the validity rule says why, and the
// grid table gives every (layout, alignment) class the span of instances the design promises.
#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "grid_table.hpp"
#include "kernel_config.hpp"

namespace autogemm {
namespace {

TEST(KernelConfig, EveryGridNameRoundTrips) {
  const auto grid = enumerate_grid();
  ASSERT_FALSE(grid.empty());
  std::set<std::string> names;
  for (const auto& c : grid) {
    const std::string name = kernel_name(c);
    const auto parsed = parse_kernel_name(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_EQ(*parsed, c) << name;
    EXPECT_TRUE(names.insert(name).second) << "duplicate name " << name;
  }
}

TEST(KernelConfig, NameSpellsEveryField) {
  const KernelConfig c{128, 64, 16, 64, 32, 8, 8, 3, 2, Op::T, Op::N, 4};
  EXPECT_EQ(kernel_name(c), "simt_sgemm_128x64x16_w64x32_t8x8_s3_b128x2_tn_align4");
}

TEST(KernelConfig, SlicedNameSpellsTheSlices) {
  // Two k-slices of the 4 warps that tile 64x64: 256 threads; one slice keeps the older name.
  const KernelConfig c{64, 64, 32, 32, 32, 4, 8, 3, 2, Op::N, Op::N, 4, Family::kGemm, 2};
  EXPECT_EQ(c.slice_threads(), 128);
  EXPECT_EQ(c.threads(), 256);
  EXPECT_EQ(kernel_name(c), "simt_sgemm_64x64x32_w32x32_t4x8_ks2_s3_b256x2_nn_align4");
  const auto parsed = parse_kernel_name(kernel_name(c));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->slices, 2);
  KernelConfig one = c;
  one.slices = 1;
  EXPECT_EQ(kernel_name(one), "simt_sgemm_64x64x32_w32x32_t4x8_s3_b128x2_nn_align4");
}

TEST(GridTable, SlicedTilesAreInEveryClassTheTableNames) {
  // Every layout x alignment class has 2-slice instances: all of kSlicedTiles when aligned, the
  // ones marked scalar_class with 4-byte copies (their other twins spill, grid_table.hpp).
  std::map<std::string, int> count;
  for (const auto& c : enumerate_grid())
    if (c.slices > 1 && c.residues == 1) {  // residue instances: ResidueInstancesAreTheTablesNtAndTtAlign4
      EXPECT_EQ(c.slices, 2) << kernel_name(c);
      ++count[layout_code(c.op_a, c.op_b) + "_align" + std::to_string(c.align)];
    }
  int scalar = 0;
  for (const SlicedTile& st : kSlicedTiles) scalar += st.scalar_class;
  ASSERT_GT(scalar, 0);
  ASSERT_LT(scalar, static_cast<int>(std::size(kSlicedTiles)));
  ASSERT_EQ(count.size(), 8u);
  for (const auto& [name, n] : count)
    EXPECT_EQ(n, name.ends_with("_align4") ? static_cast<int>(std::size(kSlicedTiles)) : scalar) << name;
}

TEST(KernelConfig, ResidueNameSpellsTheResidues) {
  KernelConfig c{32, 128, 32, 32, 32, 4, 8, 3, 1, Op::N, Op::T, 4};
  c.residues = kResidues;
  EXPECT_EQ(invalid_reason(c), nullptr);
  EXPECT_EQ(kernel_name(c), "simt_sgemm_32x128x32_w32x32_t4x8_s3_b128x1_nt_align4_res4");
  const auto parsed = parse_kernel_name(kernel_name(c));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->residues, kResidues);
  for (const char* bad : {"simt_sgemm_32x128x32_w32x32_t4x8_s3_b128x1_nt_align4_res1",  // one is not spelled
                          "simt_sgemm_32x128x32_w32x32_t4x8_s3_b128x1_nt_align4_res4_",
                          "simt_sgemm_32x128x32_w32x32_t4x8_s3_b128x1_nt_align4res4"})
    EXPECT_FALSE(parse_kernel_name(bad).has_value()) << bad;
  // Residues read an N-major B with 16-byte copies: nt_align4 (of K) and tt_align4 (of M) only.
  for (const auto& [op_a, op_b, align] : {std::tuple{Op::N, Op::N, 4}, std::tuple{Op::T, Op::N, 4},
                                          std::tuple{Op::N, Op::T, 1}, std::tuple{Op::T, Op::T, 1}}) {
    KernelConfig other = c;
    other.op_a = op_a, other.op_b = op_b, other.align = align;
    EXPECT_NE(std::string(invalid_reason(other) ? invalid_reason(other) : "").find("residue instances read"),
              std::string::npos)
        << kernel_name(other);
  }
  // Residues of M zero A's foreign columns in registers: the tt tile must transpose A (this one's
  // 4 x 8 x 32 = 1024 FFMAs per k-tile do; at BK = 16, 512 do not).
  KernelConfig of_m = c;
  of_m.op_a = Op::T;
  EXPECT_TRUE(of_m.residues_of_m());
  EXPECT_FALSE(c.residues_of_m());
  EXPECT_EQ(invalid_reason(of_m), nullptr);
  EXPECT_EQ(kernel_name(of_m), "simt_sgemm_32x128x32_w32x32_t4x8_s3_b128x1_tt_align4_res4");
  of_m.bk = 16;
  EXPECT_NE(std::string(invalid_reason(of_m) ? invalid_reason(of_m) : "").find("transposed through registers"),
            std::string::npos);
  c.residues = 2;
  EXPECT_NE(std::string(invalid_reason(c) ? invalid_reason(c) : "").find("residues must be"), std::string::npos);
}

TEST(GridTable, ResidueInstancesAreTheTablesNtAndTtAlign4) {
  // Every entry of kResidueTiles compiles (none silently dropped by the validity rule), as nt_align4
  // (residues of K) and as tt_align4 (residues of M).
  std::map<std::string, int> count;
  for (const auto& c : enumerate_grid())
    if (c.residues > 1) {
      EXPECT_EQ(c.residues, kResidues);
      EXPECT_EQ(c.align, 4);
      EXPECT_EQ(c.residues_of_m(), c.op_a == Op::T);
      ++count[layout_code(c.op_a, c.op_b)];
    }
  EXPECT_EQ(count, (std::map<std::string, int>{{"nt", static_cast<int>(std::size(kResidueTiles))},
                                               {"tt", static_cast<int>(std::size(kResidueTiles))}}));
}

TEST(KernelConfig, TmaNameSpellsTheFamilyAndCountsTheCopyWarpgroup) {
  KernelConfig c{256, 128, 16, 64, 64, 8, 16, 4, 1, Op::N, Op::T, 4, Family::kTma};
  EXPECT_EQ(invalid_reason(c), nullptr);
  EXPECT_TRUE(c.is_tma());
  EXPECT_EQ(c.compute_threads(), kTmaComputeThreads);
  EXPECT_EQ(c.threads(), kTmaComputeThreads + kTmaCopyThreads);
  // 4 stages of (256 + 128) x 16 floats, then a full and an empty mbarrier per stage.
  EXPECT_EQ(c.shared_bytes(), 4 * 384 * 16 * 4 + 4 * 2 * 8);
  EXPECT_EQ(kernel_name(c), "simt_sgemm_tma_256x128x16_w64x64_t8x16_s4_b384x1_nt_align4");
  const auto parsed = parse_kernel_name(kernel_name(c));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, c);
  for (const char* bad : {"simt_sgemm_tma_256x128x16_w64x64_t8x16_s4_b256x1_nt_align4",  // threads without copiers
                          "simt_sgemm_tma256x128x16_w64x64_t8x16_s4_b384x1_nt_align4",
                          "simt_sgemm_tma_"})
    EXPECT_FALSE(parse_kernel_name(bad).has_value()) << bad;
  // The kGemm twin keeps the old name and thread count.
  KernelConfig gemm = c;
  gemm.family = Family::kGemm;
  EXPECT_EQ(gemm.threads(), 256);
  EXPECT_EQ(kernel_name(gemm), "simt_sgemm_256x128x16_w64x64_t8x16_s4_b256x1_nt_align4");
  // What the rule refuses, and says why.
  auto reason = [](KernelConfig k) { return std::string(invalid_reason(k) ? invalid_reason(k) : ""); };
  KernelConfig tn = c;
  tn.op_a = Op::T;
  EXPECT_NE(reason(tn).find("layout nt or nn, align 4"), std::string::npos);
  KernelConfig scalar = c;
  scalar.align = 1;
  EXPECT_NE(reason(scalar).find("layout nt or nn, align 4"), std::string::npos);
  KernelConfig small{128, 128, 16, 64, 64, 8, 16, 4, 1, Op::N, Op::T, 4, Family::kTma};  // 128 compute threads
  EXPECT_NE(reason(small).find("256 compute threads"), std::string::npos);
  KernelConfig wide{512, 64, 16, 128, 32, 16, 8, 4, 1, Op::N, Op::T, 4, Family::kTma};
  EXPECT_FALSE(reason(wide).empty());
}

TEST(KernelConfig, TmaOfAKMajorBTransposesOneColumnPerCopyThread) {
  // nn: B's K-major box lands in a staging ring, and the copy warpgroup transposes it, one column (bk
  // floats) per thread, into the same dense X-major stage as nt's TMA box: the stages do not depend
  // on B's layout; the ring and its "staged" barriers come on top.
  KernelConfig nt{256, 128, 16, 64, 64, 8, 16, 4, 1, Op::N, Op::T, 4, Family::kTma};
  KernelConfig nn = nt;
  nn.op_b = Op::N;
  EXPECT_EQ(invalid_reason(nn), nullptr);
  EXPECT_FALSE(nn.b_shared_k_major());
  EXPECT_EQ(nn.b_stage_floats(), 16 * 128);
  EXPECT_EQ(nt.tma_staging_floats(), 0);
  EXPECT_EQ(nn.tma_staging_floats(), kTmaStagingTiles * 128 * 16);
  EXPECT_EQ(nt.shared_bytes(), 4 * (256 + 128) * 16 * 4 + 2 * 4 * 8);
  EXPECT_EQ(nn.shared_bytes(), nt.shared_bytes() + kTmaStagingTiles * (128 * 16 * 4 + 8));
  EXPECT_EQ(kernel_name(nn), "simt_sgemm_tma_256x128x16_w64x64_t8x16_s4_b384x1_nn_align4");
  ASSERT_TRUE(parse_kernel_name(kernel_name(nn)).has_value());
  EXPECT_EQ(*parse_kernel_name(kernel_name(nn)), nn);
  auto reason = [](KernelConfig k) { return std::string(invalid_reason(k) ? invalid_reason(k) : ""); };
  KernelConfig wide_b{128, 256, 16, 64, 64, 8, 16, 4, 1, Op::N, Op::N, 4, Family::kTma};  // 2 columns a thread
  EXPECT_NE(reason(wide_b).find("one column of B's tile per copy thread"), std::string::npos);
  KernelConfig deep{256, 128, 32, 64, 64, 8, 16, 3, 1, Op::N, Op::N, 4, Family::kTma};  // 32 floats a column
  EXPECT_NE(reason(deep).find("one column of B's tile per copy thread"), std::string::npos);
}

TEST(GridTable, TmaInstancesAreTheTablesNtAndNnAlign4) {
  // Every entry of kTmaTiles compiles in nt (none dropped by the validity rule); in nn, exactly the
  // entries whose B column fits a copy thread; align 4 always.
  std::map<std::string, int> count;
  for (const auto& c : enumerate_grid())
    if (c.is_tma()) {
      EXPECT_EQ(c.align, 4) << kernel_name(c);
      ++count[layout_code(c.op_a, c.op_b)];
    }
  int nn_tiles = 0;
  for (const TmaTile& t : kTmaTiles) nn_tiles += t.tile.bn == kTmaCopyThreads && t.pipeline.bk <= kTmaCopyColumnFloats;
  EXPECT_EQ(nn_tiles, 1);
  EXPECT_EQ(count, (std::map<std::string, int>{{"nt", static_cast<int>(std::size(kTmaTiles))}, {"nn", nn_tiles}}));
}

TEST(KernelConfig, GemvNameSpellsEveryField) {
  const KernelConfig c = gemv_config(16, 8, Op::N, Op::T, 1);
  EXPECT_EQ(kernel_name(c), "simt_sgemv_16x4_u8_b256_nt_align1");
  EXPECT_EQ(c.threads(), kGemvThreads);
  EXPECT_EQ(c.shared_bytes(), 0);
  EXPECT_TRUE(c.is_gemv());
}

TEST(KernelConfig, SixteenBitGemvNamesItsTypesAndRoundTrips) {
  const KernelConfig c =
      gemv_config(16, 8, Op::T, Op::N, 8, GemmTypes{DataType::kBF16, DataType::kBF16, DataType::kF32, ComputeType::kF32});
  EXPECT_EQ(kernel_name(c), "simt_gemv_bf16_f32_16x4_u8_b256_tn_align8");
  EXPECT_EQ(c.bk, 8);  // k per 16-byte vector: splits start on whole vectors
  EXPECT_EQ(invalid_reason(c), nullptr);
  const auto parsed = parse_kernel_name(kernel_name(c));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, c);
  for (const char* bad : {"simt_gemv_bf16_16x4_u8_b256_tn_align8", "simt_gemv_f32_f32_16x4_u8_b256_tn_align4",
                          "simt_gemv_bf16_f16_16x4_u8_b256_tn_align8"})
    EXPECT_FALSE(parse_kernel_name(bad).has_value() && is_valid(*parse_kernel_name(bad))) << bad;
}

TEST(KernelConfig, SixteenBitGemvValidityRule) {
  const GemmTypes h{DataType::kF16, DataType::kF16, DataType::kF16, ComputeType::kF32};
  EXPECT_EQ(invalid_reason(gemv_config(8, 8, Op::N, Op::N, 8, h)), nullptr);  // one lane of 8 rows along M
  EXPECT_EQ(invalid_reason(gemv_config(128, 8, Op::N, Op::T, 8, h)), nullptr);
  // 16-byte vectors only: an unaligned 16-bit problem runs on aligned copies.
  EXPECT_NE(std::string(invalid_reason(gemv_config(16, 8, Op::N, Op::N, 1, h))).find("align"), std::string::npos);
  // 12 rows: not a whole number of 8-row vectors.
  EXPECT_NE(std::string(invalid_reason(gemv_config(12, 4, Op::N, Op::N, 8, h))).find("divide 32"), std::string::npos);
  const GemmTypes mixed{DataType::kBF16, DataType::kBF16, DataType::kF16, ComputeType::kF32};
  EXPECT_NE(std::string(invalid_reason(gemv_config(16, 8, Op::N, Op::N, 8, mixed))).find("FP32"), std::string::npos);
  // The GEMM tile families stay FP32.
  KernelConfig tile{128, 128, 8, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4};
  tile.types = h;
  EXPECT_NE(std::string(invalid_reason(tile)).find("FP32 only"), std::string::npos);
}

TEST(KernelConfig, MalformedNamesAreRejected) {
  for (const char* bad : {"", "simt_sgemm_", "simt_sgemm_128x64x16_w64x32_t8x8_s3_b128x2_tn_align4x",
                          "simt_sgemv_16x4_u8_b128_nn_align4",    // GEMV blocks have 256 threads
                          "simt_sgemv_16x8_u8_b256_nn_align4",    // GEMV width is kGemvMaxN
                          "simt_sgemv_16x4_u8_b256_nn_align4_",   // trailing text
                          "simt_sgemv_016x4_u8_b256_nn_align4",   // not canonical
                          "simt_sgemm_128x64x16_w64x32_t8x8_s3_b256x2_tn_align4",  // threads disagree with tiles
                          "simt_sgemm_128x64x16_w64x32_t8x8_s3_b128x2_xn_align4",
                          "simt_sgemm_0128x64x16_w64x32_t8x8_s3_b128x2_tn_align4",  // not canonical
                          "simt_sgemm_64x64x32_w32x32_t4x8_ks1_s3_b128x2_nn_align4",  // one slice is not spelled
                          "simt_sgemm_64x64x32_w32x32_t4x8_ks2_s3_b128x2_nn_align4",  // threads disagree with slices
                          "simt_sgemm_64x64x32_w32x32_t4x8_ks2s3_b256x2_nn_align4",
                          "cutlass_simt_sgemm_128x128_8x4_nn_align1"}) {
    EXPECT_FALSE(parse_kernel_name(bad).has_value()) << bad;
  }
}

TEST(KernelConfig, CopiesCoverWholeRowsOnlyWhenTheRowDividesTheThreads) {
  // 128-wide X-major tile, 16-byte copies: 32 vectors per row, 256 threads cover 8 whole rows.
  EXPECT_TRUE(copies_whole_rows(128, 32, false, 4, 256));
  // 192-wide: 48 vectors per row do not divide 256 threads; K-major with BK 32: 8 per row, they do.
  EXPECT_FALSE(copies_whole_rows(192, 32, false, 4, 256));
  EXPECT_TRUE(copies_whole_rows(192, 32, true, 4, 256));
  // Scalar copies of a 96-wide tile over 128 threads: 96 per row.
  EXPECT_FALSE(copies_whole_rows(96, 16, false, 1, 128));
}

TEST(GridTable, BothOperandCopyPathsAreInTheGrid) {
  // The sanitizer's covering subset (tests/gpu/instance_test.cpp) keys on both copy paths; the grid
  // must hold instances of each in every layout with an X-major operand, or one path goes unchecked
  // (`tn` has none: K-major rows are BK / vec <= 32 vectors, which every thread count covers).
  std::set<std::string> whole, partial;
  for (const auto& c : enumerate_grid()) {
    if (c.is_gemv()) continue;
    const bool a = copies_whole_rows(c.bm, c.bk, a_is_k_major(c.op_a), c.align, c.threads());
    const bool b = copies_whole_rows(c.bn, c.bk, b_is_k_major(c.op_b), c.align, c.threads());
    (a && b ? whole : partial).insert(layout_code(c.op_a, c.op_b));
  }
  EXPECT_EQ(whole, (std::set<std::string>{"nn", "nt", "tn", "tt"}));
  EXPECT_EQ(partial, (std::set<std::string>{"nn", "nt", "tt"}));
}

TEST(KernelConfig, GemvValidityRuleNamesTheViolation) {
  EXPECT_EQ(invalid_reason(gemv_config(16, 8, Op::N, Op::N, 4)), nullptr);
  EXPECT_EQ(invalid_reason(gemv_config(64, 2, Op::T, Op::N, 4)), nullptr);
  // 12 rows per block: 3 lanes along M do not divide a warp; not a multiple of 8 for K-major.
  EXPECT_NE(std::string(invalid_reason(gemv_config(12, 4, Op::N, Op::N, 4))).find("divide 32"), std::string::npos);
  EXPECT_NE(std::string(invalid_reason(gemv_config(12, 4, Op::T, Op::N, 4))).find("multiple of 8"), std::string::npos);
  EXPECT_NE(std::string(invalid_reason(gemv_config(64, 4, Op::T, Op::N, 4))).find("registers"), std::string::npos);
  EXPECT_NE(std::string(invalid_reason(gemv_config(16, 9, Op::N, Op::N, 4))).find("in flight"), std::string::npos);
  KernelConfig tiled = gemv_config(16, 4, Op::N, Op::N, 4);
  tiled.tm = 4;
  EXPECT_NE(std::string(invalid_reason(tiled)).find("no warp or thread tile"), std::string::npos);
}

TEST(GridTable, GemvInstancesInEveryClass) {
  // FP32 in both alignment classes; BF16 and FP16 operands, C of their type or FP32, 16-byte vectors.
  std::map<std::string, int> per_class;
  for (const auto& c : enumerate_grid())
    if (c.is_gemv())
      ++per_class[std::string(data_type_name(c.types.a)) + "_" + data_type_name(c.types.c) + "_" +
                  layout_code(c.op_a, c.op_b) + "_align" + std::to_string(c.align)];
  ASSERT_EQ(per_class.size(), 8u + 16u);
  for (const auto& [name, count] : per_class) {
    // Every shape the layout of A admits, and at least four.
    const bool f32 = name.rfind("f32_", 0) == 0;
    const size_t layout = name.find("_align") - 2;
    const Op op_a = name[layout] == 'n' ? Op::N : Op::T;
    const DataType t = f32 ? DataType::kF32 : name.rfind("bf16", 0) == 0 ? DataType::kBF16 : DataType::kF16;
    int admitted = 0;
    for (const GemvShape& g : kGemvShapes)
      admitted += is_valid(gemv_config(g.bm, g.loads_in_flight, op_a, Op::N, f32 ? 4 : 8,
                                       GemmTypes{t, t, f32 ? t : DataType::kF32, ComputeType::kF32}));
    EXPECT_EQ(count, admitted) << name;
    EXPECT_GE(count, 4) << name;
  }
}

TEST(KernelConfig, ValidityRuleNamesTheViolation) {
  const KernelConfig good{128, 128, 8, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4};
  EXPECT_EQ(invalid_reason(good), nullptr);
  auto with = [&](auto mutate) {
    KernelConfig c = good;
    mutate(c);
    const char* why = invalid_reason(c);
    return std::string(why ? why : "");
  };
  EXPECT_NE(with([](KernelConfig& c) { c.bk = 6; }).find("BK"), std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.wm = 48; }).find("warp tile"), std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.tm = 4; }).find("32 lanes"), std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.stages = 1; }).find("stages"), std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.align = 2; }).find("align"), std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.bk = 64, c.stages = 8, c.op_a = Op::T, c.op_b = Op::N; }).find("shared memory"),
            std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.min_blocks = 4; }).find("register"), std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.slices = 3; }).find("k-slices"), std::string::npos);
  EXPECT_NE(with([](KernelConfig& c) { c.slices = 4; }).find("whole groups"), std::string::npos);  // BK 8
  EXPECT_NE(with([](KernelConfig& c) { c.bk = 32, c.slices = 4, c.wm = 32, c.tm = 4; }).find("threads"),
            std::string::npos);  // 16 warps x 4 slices
  KernelConfig gemv = gemv_config(16, 4, Op::N, Op::N, 4);
  gemv.slices = 2;
  EXPECT_NE(std::string(invalid_reason(gemv)).find("one k-slice"), std::string::npos);
}

TEST(KernelConfig, SharedBytesFollowLayouts) {
  // (BK, BM) for an M-major A, (BM, BK + pad) for a K-major A.
  const KernelConfig nn{64, 32, 8, 32, 32, 8, 4, 2, 1, Op::N, Op::T, 4};
  EXPECT_EQ(nn.shared_bytes(), 2 * (8 * 64 + 8 * 32) * 4);
  const KernelConfig tn{64, 32, 8, 32, 32, 8, 4, 2, 1, Op::T, Op::N, 4};
  EXPECT_EQ(tn.shared_bytes(), 2 * (64 * (8 + kKMajorPad) + 32 * (8 + kKMajorPad)) * 4);
  // A K-major operand transposed through registers is stored X-major with padded rows
  // (KernelConfig::transposes_b: 8x8 x BK 32 = 2048 FFMAs per thread and tile).
  const KernelConfig wide_nn{128, 128, 32, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 4};
  ASSERT_TRUE(wide_nn.transposes_b());
  EXPECT_FALSE(wide_nn.transposes_a());  // A is M-major: nothing to transpose
  EXPECT_EQ(wide_nn.shared_bytes(), 3 * (32 * 128 + 32 * transposed_row_floats(128, 32)) * 4);
  // The scalar class's 4-byte copies write a K-major tile X-major themselves, rows X + pad apart
  // (KernelConfig::copy_transposes_b), where a pass of the block's rows (threads / 8) divides X.
  const KernelConfig wide_nn_scalar{128, 128, 32, 64, 32, 8, 8, 3, 1, Op::N, Op::N, 1};
  EXPECT_FALSE(wide_nn_scalar.transposes_b());
  ASSERT_TRUE(wide_nn_scalar.copy_transposes_b());
  EXPECT_FALSE(wide_nn_scalar.b_shared_k_major());
  EXPECT_EQ(wide_nn_scalar.shared_bytes(), 3 * (32 * 128 + 32 * (128 + kCopyTransposePad)) * 4);
  const KernelConfig tn_scalar{64, 32, 8, 32, 32, 8, 4, 2, 1, Op::T, Op::N, 1};  // 64 threads: 8 rows a pass
  EXPECT_TRUE(tn_scalar.copy_transposes_a() && tn_scalar.copy_transposes_b());
  EXPECT_EQ(tn_scalar.shared_bytes(), 2 * (8 * (64 + kCopyTransposePad) + 8 * (32 + kCopyTransposePad)) * 4);
  // Sliced K reuses the pipeline's memory for the other slices' accumulators, which may need more.
  const KernelConfig sliced{64, 32, 8, 32, 32, 8, 4, 2, 1, Op::N, Op::T, 4, Family::kGemm, 2};
  EXPECT_EQ(sliced.shared_bytes(), 64 * 32 * 4);
}

// A transposing copy (TransposingLoader) stores vector kq's value q of tile row x at word
// (q * BK/4 + kq) * stride + x; the lanes of a warp hold BK/4 vectors of each of 32 / (BK/4)
// adjacent rows. Every such store must hit 32 distinct banks, and rows must stay float4-aligned for
// the X-major fragment reads, for every X extent of the grid's tiles and every BK a copy takes.
TEST(KernelConfig, TransposedTileStoresAreConflictFree) {
  std::set<int> extents;
  for (const TileShape& t : kTileShapes) extents.insert({t.bm, t.bn});
  for (const int x : extents)
    for (const int bk : {8, 16, 32}) {
      const int stride = transposed_row_floats(x, bk), q_count = bk / 4;
      EXPECT_EQ(stride % 4, 0) << "x " << x << " bk " << bk;
      EXPECT_GE(stride, x);
      EXPECT_LT(stride, x + 32);
      for (int first_row = 0; first_row + 32 / q_count <= x; first_row += 32 / q_count)
        for (int q = 0; q < 4; ++q) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            const int row = first_row + lane / q_count, kq = lane % q_count;
            banks.insert(((q * q_count + kq) * stride + row) % 32);
          }
          EXPECT_EQ(banks.size(), 32u) << "x " << x << " bk " << bk << " rows from " << first_row << " q " << q;
        }
    }
}

// The promise for the grid: per (layout, alignment) class at least 40 instances spanning
// tiles 32x32..256x128, BK 8..32, 2..5 stages, 64..256 threads (512: the 128x128 tile with 2 k-slices,
// aligned classes), 1 to 4 min blocks per SM (3: a sliced tile).
TEST(GridTable, EveryClassSpansTheDesignRanges) {
  struct Span {
    int count = 0;
    std::set<int> bk, stages, threads, min_blocks;
    std::set<std::pair<int, int>> tiles;
  };
  std::map<std::string, Span> classes;
  for (const auto& c : enumerate_grid()) {
    if (c.is_gemv() || c.is_wgmma()) continue;  // GemvInstancesInEveryClass, WgmmaGrid...
    Span& s = classes[layout_code(c.op_a, c.op_b) + "_align" + std::to_string(c.align)];
    ++s.count;
    s.bk.insert(c.bk);
    s.stages.insert(c.stages);
    s.threads.insert(c.threads());
    s.min_blocks.insert(c.min_blocks);
    s.tiles.insert({c.bm, c.bn});
  }
  ASSERT_EQ(classes.size(), 8u);
  for (const auto& [name, s] : classes) {
    SCOPED_TRACE(name);
    EXPECT_GE(s.count, 40);
    EXPECT_TRUE(s.tiles.count({32, 32}));
    EXPECT_TRUE(s.tiles.count({256, 128}));
    EXPECT_EQ(*s.bk.begin(), 8);
    EXPECT_EQ(*s.bk.rbegin(), 32);
    EXPECT_EQ(s.stages, (std::set<int>{2, 3, 4, 5}));
    EXPECT_EQ(*s.threads.begin(), 64);
    EXPECT_EQ(*s.threads.rbegin(), name.find("align4") != std::string::npos ? 512 : 256);
    // 3: the sliced 64x64 8x8 tile at 3 blocks per SM (every class).
    EXPECT_EQ(s.min_blocks, (std::set<int>{1, 2, 3, 4}));
  }
}

// The tensor-core grid: every layout of both operand types with an output of their type, the
// cooperative, ping-pong, stream-K and split-K schedules, 1x1, 2x1 and 1x2 clusters, an FP32 output, and
// instances of a row-major C (outputs a few rows tall).
TEST(GridTable, WgmmaGridCoversEveryLayoutTypeScheduleAndCluster) {
  std::map<std::string, std::set<std::string>> seen;
  for (const auto& c : enumerate_grid()) {
    if (!c.is_wgmma() || is_tf32_wgmma(c)) continue;
    EXPECT_EQ(invalid_reason(c), nullptr) << kernel_name(c);
    const std::string cls = std::string(data_type_name(c.types.a)) + "_" + data_type_name(c.types.c) + "_" +
                            layout_code(c.op_a, c.op_b);
    seen[cls].insert("schedule" + std::to_string(static_cast<int>(c.schedule)));
    seen[cls].insert("cluster" + std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n));
    if (c.c_row_major) seen[cls].insert("row-major C");
  }
  ASSERT_EQ(seen.size(), 16u);  // {bf16, f16} x {own type, f32} x 4 layouts
  for (const auto& [cls, s] : seen) {
    SCOPED_TRACE(cls);
    EXPECT_TRUE(s.count("schedule0") && s.count("schedule1") && s.count("schedule2") && s.count("schedule3"));
    EXPECT_TRUE(s.count("row-major C"));
    if (cls.find("_f32_") == std::string::npos) {
      EXPECT_TRUE(s.count("cluster1x1") && s.count("cluster2x1") && s.count("cluster1x2"));
    }
  }
}

// The FP32-operand grid: `tn` instances of every schedule in TF32 and 3xTF32, the split-K schedule
// included; register-A (`nn`) instances in TF32 only; no other layout.
TEST(GridTable, Tf32GridHasSplitKAndRegisterAInstances) {
  std::set<std::string> seen;
  for (const auto& c : enumerate_grid()) {
    if (!is_tf32_wgmma(c)) continue;
    EXPECT_EQ(invalid_reason(c), nullptr) << kernel_name(c);
    seen.insert(std::string(compute_type_name(c.types.compute)) + "_" + layout_code(c.op_a, c.op_b) + "_schedule" +
                std::to_string(static_cast<int>(c.schedule)));
  }
  for (const char* arithmetic : {"tf32", "3xtf32"})
    for (int schedule = 0; schedule < 4; ++schedule)
      EXPECT_TRUE(seen.count(std::string(arithmetic) + "_tn_schedule" + std::to_string(schedule)))
          << arithmetic << " tn schedule " << schedule;
  EXPECT_TRUE(seen.count("tf32_nn_schedule0") && seen.count("tf32_nn_schedule1") && seen.count("tf32_nn_schedule3"));
  for (const std::string& cls : seen)
    EXPECT_TRUE(cls.find("_tn_") != std::string::npos || cls.rfind("tf32_nn_", 0) == 0) << cls;
}

// The wgmma validity rule names what is wrong.
TEST(KernelConfig, WgmmaValidityRuleNamesTheProblem) {
  const KernelConfig ok = wgmma_config(128, 256, 64, 0, 2, 1, WgmmaSchedule::kCooperative, Op::T, Op::N,
                                       DataType::kBF16, DataType::kBF16);
  EXPECT_EQ(invalid_reason(ok), nullptr);
  EXPECT_EQ(kernel_name(ok), "sm90_wgmma_bf16_bf16_128x256x64_c2x1_coop_tn_align8");
  EXPECT_EQ(parse_kernel_name(kernel_name(ok)), ok);
  auto why = [&](auto change) {
    KernelConfig c = ok;
    change(c);
    const char* r = invalid_reason(c);
    return std::string(r ? r : "");
  };
  EXPECT_NE(why([](KernelConfig& c) { c.types.c = DataType::kF16; }).find("C of their type or f32"), std::string::npos);
  EXPECT_NE(why([](KernelConfig& c) { c.bk = 32; }).find("BK must fill one 128-byte swizzled row"), std::string::npos);
  EXPECT_NE(why([](KernelConfig& c) { c.types.compute = ComputeType::kTF32; }).find("FP32 arithmetic"),
            std::string::npos);
  EXPECT_NE(why([](KernelConfig& c) { c.bm = 64; }).find("cooperative"), std::string::npos);
  EXPECT_NE(why([](KernelConfig& c) { c.bm = 256, c.bn = 256; }).find("accumulators"), std::string::npos);
  EXPECT_NE(why([](KernelConfig& c) { c.cluster_m = 2, c.cluster_n = 2; }).find("cluster"), std::string::npos);
  EXPECT_NE(why([](KernelConfig& c) { c.swizzle = 3; }).find("swizzle"), std::string::npos);
  EXPECT_NE(why([](KernelConfig& c) { c.align = 4; }).find("align 8"), std::string::npos);
  // FP32 operands: TF32 or 3xTF32 arithmetic, K-major operands, BK 32, and 3xTF32's promoted sums
  // count twice against the accumulators.
  const KernelConfig tf32 = wgmma_config(128, 256, 32, 0, 1, 1, WgmmaSchedule::kCooperative, Op::T, Op::N,
                                         DataType::kF32, DataType::kF32, 1, false, ComputeType::kTF32);
  EXPECT_EQ(invalid_reason(tf32), nullptr);
  EXPECT_EQ(kernel_name(tf32), "sm90_wgmma_tf32_f32_128x256x32_c1x1_coop_tn_align4");
  EXPECT_EQ(parse_kernel_name(kernel_name(tf32)), tf32);
  KernelConfig emulated = tf32;
  emulated.types.compute = ComputeType::k3xTF32;
  EXPECT_NE(std::string(invalid_reason(emulated)).find("accumulators"), std::string::npos);
  emulated.bn = 128;
  EXPECT_EQ(invalid_reason(emulated), nullptr);
  EXPECT_EQ(kernel_name(emulated), "sm90_wgmma_3xtf32_f32_128x128x32_c1x1_coop_tn_align4");
  EXPECT_EQ(parse_kernel_name(kernel_name(emulated)), emulated);
  KernelConfig nn = tf32;  // A M-major through registers: TF32 only
  nn.op_a = Op::N;
  EXPECT_EQ(invalid_reason(nn), nullptr);
  EXPECT_EQ(parse_kernel_name(kernel_name(nn)), nn);
  nn.types.compute = ComputeType::k3xTF32;
  nn.bn = 128;
  ASSERT_NE(invalid_reason(nn), nullptr);
  EXPECT_NE(std::string(invalid_reason(nn)).find("TF32 only"), std::string::npos);
  KernelConfig nt = tf32;
  nt.op_b = Op::T;
  ASSERT_NE(invalid_reason(nt), nullptr);
  EXPECT_NE(std::string(invalid_reason(nt)).find("reads B K-major"), std::string::npos);
  KernelConfig pedantic = tf32;
  pedantic.types.compute = ComputeType::kF32;
  EXPECT_NE(std::string(invalid_reason(pedantic)).find("TF32 or 3xTF32"), std::string::npos);
  EXPECT_EQ(parse_kernel_name("sm90_wgmma_f32_f32_128x256x32_c1x1_coop_tn_align4"), std::nullopt);
  // A SIMT instance takes no wgmma fields.
  KernelConfig simt = gemm_config(kTileShapes[0], kPipelineChoices[0], Op::N, Op::N, 4);
  ASSERT_EQ(invalid_reason(simt), nullptr);
  simt.cluster_m = 2;
  EXPECT_NE(std::string(invalid_reason(simt)).find("wgmma"), std::string::npos);
  // Names that are not exactly a config's are refused.
  EXPECT_FALSE(parse_kernel_name("sm90_wgmma_bf16_bf16_128x256x64_c2x1_coop_tn_align4"));
  EXPECT_FALSE(parse_kernel_name("sm90_wgmma_bf16_bf16_128x256x64_c2x1_fast_tn_align8"));
  EXPECT_FALSE(parse_kernel_name("sm90_wgmma_bf16_f16_128x256x64_c2x1_coop_tn_align8"));
  // A row-major C: "_ct" at the end, read back; BN 16 and 32 are wgmma shapes, 48 is not in the rule.
  const KernelConfig ct = wgmma_config(64, 16, 64, 0, 1, 1, WgmmaSchedule::kPingpong, Op::T, Op::N, DataType::kF16,
                                       DataType::kF16, 1, true);
  EXPECT_EQ(invalid_reason(ct), nullptr);
  EXPECT_EQ(kernel_name(ct), "sm90_wgmma_f16_f16_64x16x64_c1x1_ping_tn_align8_ct");
  EXPECT_EQ(parse_kernel_name(kernel_name(ct)), ct);
  EXPECT_FALSE(parse_kernel_name("sm90_wgmma_f16_f16_64x16x64_c1x1_ping_tn_align8_cx"));
  EXPECT_NE(why([](KernelConfig& c) { c.bn = 48; }).find("BN must be one of 16, 32, 64, 96, 112, 128, 192, 256"),
            std::string::npos);
  for (int bn : kWgmmaTileWidths) EXPECT_EQ(why([bn](KernelConfig& c) { c.bn = bn; }), "") << bn;
  simt.cluster_m = 1;
  simt.c_row_major = true;
  EXPECT_NE(std::string(invalid_reason(simt)).find("row-major C"), std::string::npos);
}

}  // namespace
}  // namespace autogemm
