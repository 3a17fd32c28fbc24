// The kernel grid: the one table of the instances autogemm compiles (FP32 SIMT and TMA, BF16/FP16
// wgmma). The generator crosses it with every layout and alignment class (and type) and keeps what
// the validity rule accepts; tests check the per-class counts. Edit here to grow or shrink the grid.
#pragma once

#include <vector>

#include "kernel_config.hpp"

namespace autogemm {

struct TileShape {
  int bm, bn, wm, wn, tm, tn;
};

struct PipelineChoice {
  int bk, stages, min_blocks;
};

/// Block / warp / thread tiles, from 32x32 (64 threads) to 256x128 (256 threads), plus two skinny
/// tiles (128x16, 16x128) for outputs a few columns or rows wide (M <= 32 row-major problems), where
/// a 32-wide tile computes mostly zeros, and 96- and 192-wide tiles (8x12 thread tiles) whose wave
/// counts fit multiples of 3 such as 3072 (3072^3 with 128x192: 384 tiles, 2.9 waves of 132 blocks,
/// where 128x64 at 2 or 128x128 at 1 block per SM run 4.4 waves).
inline constexpr TileShape kTileShapes[] = {
    {32, 32, 32, 16, 4, 4},    {32, 64, 32, 32, 4, 8},   {64, 32, 32, 32, 8, 4},    {64, 64, 32, 32, 4, 8},
    {64, 64, 64, 32, 8, 8},    {128, 32, 32, 32, 8, 4},  {32, 128, 32, 32, 4, 8},   {128, 64, 64, 32, 8, 8},
    {64, 128, 32, 64, 8, 8},   {128, 128, 64, 32, 8, 8}, {128, 128, 64, 64, 8, 16}, {256, 64, 64, 32, 8, 8},
    {256, 128, 64, 64, 8, 16}, {128, 16, 32, 16, 4, 4},  {16, 128, 16, 32, 4, 4},
    {128, 96, 64, 48, 8, 12},  {96, 128, 48, 64, 12, 8}, {128, 192, 64, 48, 8, 12}, {192, 128, 48, 64, 12, 8},
};

/// K depth, cp.async stages and __launch_bounds__ min blocks tried with every tile shape. {16, 3, 4}
/// caps 128-thread 8x8 tiles at 128 registers so 4 blocks (16 warps) share an SM instead of 3
/// (at 3 blocks of 168 registers, 24% of issue cycles are empty); the validity rule drops it where
/// the cap cannot hold the tile.
inline constexpr PipelineChoice kPipelineChoices[] = {
    {8, 2, 2}, {8, 4, 1}, {16, 3, 1}, {16, 5, 2}, {32, 3, 1}, {16, 3, 4},
};

/// Sliced-K instances (KernelConfig::slices): 8x8 and 4x8 tiles with 2 k-slices of warps per block,
/// each with its one pipeline, whose min blocks cap registers at 128 so that 16 warps share an SM.
/// Two slices share one block's shared tiles, so an SM holds those 16 warps with half the shared
/// memory unsliced blocks would need: 512x3072x3072 ran 230.2 -> 222.0 us with the 64x64 8x8 tile
/// at 4 blocks per SM. 4 slices are never the best there, so none are compiled.
/// The 64x64 8x8 tile also at 3 blocks per SM (170 registers, 12 warps): its `nn` twin does not
/// spill there, and it ran nn 128x128x32768 2% faster than any other instance.
/// `scalar_class`: also compiled with 4-byte copies (align1) — the tiles whose scalar twins do not
/// spill, the loaders' edge path holding no registers across the main loop (127x3001x1531 0.2-5.5%
/// faster with them); the 8x8 tiles at the 128-register cap spill 28-76 bytes there (ptxas, sm_90).
struct SlicedTile {
  TileShape tile;
  int slices;
  PipelineChoice pipeline;
  bool scalar_class;  // also compiled with 4-byte copies (align1)
};
inline constexpr SlicedTile kSlicedTiles[] = {
    {{32, 32, 32, 16, 4, 4}, 2, {32, 3, 4}, true},   {{64, 64, 32, 32, 4, 8}, 2, {32, 3, 2}, true},
    {{64, 64, 64, 32, 8, 8}, 2, {32, 3, 4}, false},  {{64, 64, 64, 32, 8, 8}, 2, {32, 3, 3}, true},
    {{128, 64, 64, 32, 8, 8}, 2, {32, 3, 2}, false},
    {{128, 128, 64, 32, 8, 8}, 2, {32, 3, 1}, false},
};

/// Residue instances (KernelConfig::residues): `nt_align4` residues of K for an M-major A, `tt_align4`
/// residues of M for a K-major A, of the aligned tiles that ran 128x3004x1532 (127x3001x1531's
/// aligned twin) fastest, 4 splits of 32x128x32 in `nn`/`nt` and the 64x64 8x8 sliced tile in `tt`
/// (tuned on the H100), and the two 8x8 tiles the scalar class runs that problem
/// with. A few instances, not a grid: each is one more compilation, and they serve only problems
/// whose A has a leading dimension that is not a multiple of 4.
struct ResidueTile {
  TileShape tile;
  int slices;
  PipelineChoice pipeline;
};
inline constexpr ResidueTile kResidueTiles[] = {
    {{32, 128, 32, 32, 4, 8}, 1, {32, 3, 1}},
    {{64, 64, 64, 32, 8, 8}, 2, {32, 3, 3}},
    {{64, 128, 32, 64, 8, 8}, 1, {16, 3, 4}},
    {{128, 64, 64, 32, 8, 8}, 1, {16, 3, 1}},
};

/// GEMV instances (family kGemv, n <= kGemvMaxN): rows of C per block and loads in flight per thread.
/// Wide M-major blocks read long contiguous runs of each column; loads in flight and split-k blocks
/// supply the bytes in flight that DRAM needs. The validity rule drops what a layout cannot take
/// (K-major blocks stop at 64 rows and 16 loads per thread).
struct GemvShape {
  int bm, loads_in_flight;
};
inline constexpr GemvShape kGemvShapes[] = {{8, 8}, {16, 8}, {32, 4}, {64, 2}, {64, 8}, {128, 8}};

/// TMA instances (family kTma, layouts `nt` and `nn`, align 4, one block of 256 compute threads and a
/// copy warpgroup per SM): the 8x16 tiles that run 4096^3 fastest on the H100 (256x128x16 with
/// 4 stages 2563 us, with 6 stages 2738, at BK 32 with 3 stages 2704) and the
/// 128x256 transpose of the winner. In `nn` the validity rule keeps only the tiles whose B column
/// a copy thread can hold (256x128x16). Only builds for sm_90a compile them (AUTOGEMM_TMA_INSTANCES).
struct TmaTile {
  TileShape tile;
  PipelineChoice pipeline;
};
inline constexpr TmaTile kTmaTiles[] = {
    {{256, 128, 64, 64, 8, 16}, {16, 4, 1}},
    {{128, 256, 64, 64, 8, 16}, {16, 4, 1}},
    {{256, 128, 64, 64, 8, 16}, {32, 3, 1}},
};

/// wgmma instances (family kWgmma, sm_90a, BF16/FP16 operands): tile, schedule and cluster, each
/// compiled in every layout for both operand types with an output of their type; the tiles marked
/// `f32_output` also with an FP32 output. Stages: as many as the shared memory holds (stages 0).
struct WgmmaTile {
  int bm, bn;
  WgmmaSchedule schedule;
  int cluster_m, cluster_n;
  bool f32_output;
  bool swizzles = false;  // also at swizzle 4 and 8 (kWgmmaSwizzles): the large tiles, whose grids are long
  bool c_row_major = false;  // runs the transposed problem, C stored row-major (KernelConfig::c_row_major)
};
inline constexpr int kWgmmaSwizzles[] = {4, 8};
inline constexpr WgmmaTile kWgmmaTiles[] = {
    {128, 256, WgmmaSchedule::kCooperative, 1, 1, true, true},  {128, 256, WgmmaSchedule::kCooperative, 2, 1, false, true},
    {128, 256, WgmmaSchedule::kCooperative, 1, 2, false, true}, {256, 128, WgmmaSchedule::kCooperative, 1, 1, false, true},
    {256, 128, WgmmaSchedule::kCooperative, 2, 1, false, true}, {256, 128, WgmmaSchedule::kCooperative, 1, 2, false, true},
    {128, 128, WgmmaSchedule::kCooperative, 1, 1, false}, {128, 128, WgmmaSchedule::kCooperative, 2, 1, false},
    {128, 128, WgmmaSchedule::kPingpong, 1, 1, true},     {128, 128, WgmmaSchedule::kPingpong, 2, 1, false},
    {128, 128, WgmmaSchedule::kPingpong, 1, 2, false},    {64, 256, WgmmaSchedule::kPingpong, 1, 1, false},
    {64, 128, WgmmaSchedule::kPingpong, 1, 1, true},      {128, 64, WgmmaSchedule::kPingpong, 1, 1, false},
    {128, 128, WgmmaSchedule::kStreamK, 1, 1, true},      {128, 256, WgmmaSchedule::kStreamK, 1, 1, false},
    // 192-wide tiles: 3072^2 in 384 of them is 2.91 waves of 132 SMs, where 128x256 leaves 2.18 and
    // 128x128 4.36 (a last wave a fifth or a third full).
    {128, 192, WgmmaSchedule::kCooperative, 1, 1, false, true}, {128, 192, WgmmaSchedule::kCooperative, 2, 1, false},
    // 128x64 with both warpgroups on one tile: a block per SM on outputs of ~128 tiles (1000^2 has
    // 128 of them), where ping-pong runs one tile per SM at half the SM's rate.
    {128, 64, WgmmaSchedule::kCooperative, 1, 1, false},
    // 64x128 ping-pong in 2x1 clusters, as cuBLAS runs 1000^3: 128 tiles, one per SM, each pair
    // sharing its B tile by multicast; 11.8 us on the H100 against 12.9 for 128x128 cooperative and
    // 14.5 for 64x128 without the cluster.
    {64, 128, WgmmaSchedule::kPingpong, 2, 1, false},
    // Outputs of a few tiles over a long K (256x256x8192, 128x128x32768): K in up to 64 batches whose
    // partials a second kernel adds, where stream-K's in-kernel sum, one split after another, grows
    // by ~1.5 us per split.
    {128, 64, WgmmaSchedule::kSplitK, 1, 1, true},        {128, 128, WgmmaSchedule::kSplitK, 1, 1, true},
    // Outputs a few tiles wide (row-major M of 16-128 tokens, n <= 128 in the column-major call):
    // 64-wide tiles split over K, and small ping-pong tiles, for more blocks than SMs.
    {128, 64, WgmmaSchedule::kStreamK, 1, 1, true},       {64, 64, WgmmaSchedule::kPingpong, 1, 1, false},
    // Outputs a few rows tall (1-64 tokens as the m of a `tn` Linear): the transposed problem, C
    // stored row-major, so the tokens are a 16-64 wide N tile and the weights' rows the 64 or 128 of M.
    {64, 16, WgmmaSchedule::kPingpong, 1, 1, false, false, true},  {64, 32, WgmmaSchedule::kPingpong, 1, 1, false, false, true},
    {64, 64, WgmmaSchedule::kPingpong, 1, 1, false, false, true},  {128, 16, WgmmaSchedule::kStreamK, 1, 1, false, false, true},
    {128, 32, WgmmaSchedule::kStreamK, 1, 1, true, false, true},   {128, 64, WgmmaSchedule::kStreamK, 1, 1, false, false, true},
    // Outputs a few columns wide (n = 1-32 tokens of a row-major `x·Wᵀ`): 16- and 32-wide N tiles, so
    // the tensor cores do no more than 2x the useful work while the weights stream.
    {64, 16, WgmmaSchedule::kPingpong, 1, 1, false},  {64, 32, WgmmaSchedule::kPingpong, 1, 1, false},
    {128, 16, WgmmaSchedule::kStreamK, 1, 1, false},  {128, 32, WgmmaSchedule::kStreamK, 1, 1, false},
    // Outputs of 512 or 256 tokens by 3072 features, 128 or 64 by 12288 (row-major M x N: the
    // column-major call's n and m), run transposed: 96-wide tiles along the features make 128 tiles,
    // 0.97 of a wave of 132 SMs; the grid's other tiles make at most 96 (0.73 of one) or more than a
    // wave. 512x3072x3072 BF16 `nn`: 19.1 us on 128x96 against 21.3 on 128x128.
    {128, 96, WgmmaSchedule::kCooperative, 1, 1, false, false, true},
    {64, 96, WgmmaSchedule::kPingpong, 1, 1, false, false, true},
    // 512 tokens by 11008 or 14336 features, run transposed: 112-wide tiles make 396 or 512 tiles,
    // 3.0 or 3.9 waves, where 128x128 makes 344 (2.6) or 448 (3.4). 512x11008x4096 BF16 `tn` on the
    // H200 (an experiment build, tuned --exhaustive): 68.1 us on 128x112 against 74.0 on 128x128
    // ping-pong; 512x14336x4096 88.0 against 95.3 on 128x96.
    {128, 112, WgmmaSchedule::kCooperative, 1, 1, false, false, true},
};
inline constexpr DataType kWgmmaOperandTypes[] = {DataType::kBF16, DataType::kF16};

/// wgmma instances of FP32 operands (TF32 and 3xTF32 arithmetic, FP32 output): K-major operands
/// (`tn`; other layouts run on K-major copies), each tile in both arithmetics where the validity rule
/// allows (3xTF32's second set of accumulators leaves it the tiles of at most 64 per thread); the
/// rows marked `register_a` read an M-major A in place (`nn`, TF32 only; KernelConfig::op_a N).
struct WgmmaTf32Tile {
  int bm, bn;
  WgmmaSchedule schedule;
  int cluster_m, cluster_n;
  bool swizzles = false;
  bool register_a = false;
};
inline constexpr WgmmaTf32Tile kWgmmaTf32Tiles[] = {
    {128, 256, WgmmaSchedule::kCooperative, 1, 1, true}, {256, 128, WgmmaSchedule::kCooperative, 1, 1, true},
    {128, 256, WgmmaSchedule::kCooperative, 2, 1},       {128, 128, WgmmaSchedule::kCooperative, 1, 1, true},
    {128, 128, WgmmaSchedule::kCooperative, 2, 1},       {256, 64, WgmmaSchedule::kCooperative, 1, 1},
    {128, 128, WgmmaSchedule::kPingpong, 1, 1},          {64, 256, WgmmaSchedule::kPingpong, 1, 1},
    {64, 128, WgmmaSchedule::kPingpong, 1, 1},           {128, 64, WgmmaSchedule::kPingpong, 1, 1},
    {64, 64, WgmmaSchedule::kPingpong, 1, 1},            {128, 128, WgmmaSchedule::kStreamK, 1, 1},
    {128, 64, WgmmaSchedule::kStreamK, 1, 1},
    // Outputs of a few dozen tiles over a long K (128-512 x 3072 x 3072, 256x256x8192): 4-byte
    // operands need 128-row tiles to feed the tensor cores from L2 (a 64x64 tile reads 128 bytes per
    // clock of its tensor-core work), so such outputs fill the SMs only with K in batches.
    {128, 64, WgmmaSchedule::kSplitK, 1, 1},             {128, 128, WgmmaSchedule::kSplitK, 1, 1},
    // A M-major through registers (CUTLASS's register-A main loop, tools/experiments/tf32_layouts.cu):
    // 1.5x the time of the K-major tile where the tensor cores bound it (3072^3 on 128x128 340.4 us
    // against 225.4), close to it where A's stream does (column-major 3072x128x3072 `nn` in 4 batches
    // 31.0 against 26.1), without the copy of A that doubles such a call (that problem, the seed set's
    // 128x3072x3072: 58.7 us on a copy, 32.8 in registers; docs/decisions.md).
    {128, 128, WgmmaSchedule::kCooperative, 1, 1, false, true}, {64, 128, WgmmaSchedule::kPingpong, 1, 1, false, true},
    {64, 64, WgmmaSchedule::kPingpong, 1, 1, false, true},      {128, 64, WgmmaSchedule::kSplitK, 1, 1, false, true},
    {128, 128, WgmmaSchedule::kSplitK, 1, 1, false, true},
};
inline constexpr ComputeType kWgmmaTf32Arithmetics[] = {ComputeType::kTF32, ComputeType::k3xTF32};

inline constexpr Op kOps[] = {Op::N, Op::T};
inline constexpr int kAligns[] = {4, 1};

/// The GEMM instance of a tile shape and a pipeline, in one layout and alignment class.
constexpr KernelConfig gemm_config(const TileShape& t, const PipelineChoice& pc, Op a, Op b, int align,
                                   int slices = 1, int residues = 1) {
  return KernelConfig{t.bm, t.bn, pc.bk, t.wm, t.wn, t.tm, t.tn, pc.stages, pc.min_blocks, a, b, align,
                      Family::kGemm, slices, residues};
}

/// Every valid instance of the grid, in a fixed order (layout, alignment, GEMM tile and pipeline,
/// sliced-K tile, then GEMV shape; then the residue instances, the TMA instances, the 16-bit GEMV
/// instances, the wgmma instances).
inline std::vector<KernelConfig> enumerate_grid() {
  std::vector<KernelConfig> out;
  for (Op a : kOps)
    for (Op b : kOps)
      for (int align : kAligns) {
        for (const TileShape& t : kTileShapes)
          for (const PipelineChoice& pc : kPipelineChoices) {
            const KernelConfig c = gemm_config(t, pc, a, b, align);
            if (is_valid(c)) out.push_back(c);
          }
        for (const SlicedTile& st : kSlicedTiles) {
          if (align == 1 && !st.scalar_class) continue;
          const KernelConfig c = gemm_config(st.tile, st.pipeline, a, b, align, st.slices);
          if (is_valid(c)) out.push_back(c);
        }
        for (const GemvShape& g : kGemvShapes) {
          const KernelConfig c = gemv_config(g.bm, g.loads_in_flight, a, b, align);
          if (is_valid(c)) out.push_back(c);
        }
      }
  for (Op a : kOps)
    for (const ResidueTile& rt : kResidueTiles) {
      const KernelConfig c = gemm_config(rt.tile, rt.pipeline, a, Op::T, 4, rt.slices, kResidues);
      if (is_valid(c)) out.push_back(c);
    }
  for (Op b : {Op::T, Op::N})
    for (const TmaTile& tt : kTmaTiles) {
      KernelConfig c = gemm_config(tt.tile, tt.pipeline, Op::N, b, 4);
      c.family = Family::kTma;
      if (is_valid(c)) out.push_back(c);
    }
  // GEMV instances of BF16/FP16 operands, C of their type or FP32: 16-byte vectors only (a 16-bit
  // problem they cannot read runs on aligned copies, realigned.hpp).
  for (DataType t : {DataType::kBF16, DataType::kF16})
    for (DataType out_type : {t, DataType::kF32})
      for (Op a : kOps)
        for (Op b : kOps)
          for (const GemvShape& g : kGemvShapes) {
            const KernelConfig c =
                gemv_config(g.bm, g.loads_in_flight, a, b, 8, GemmTypes{t, t, out_type, ComputeType::kF32});
            if (is_valid(c)) out.push_back(c);
          }
  // Tile outermost: a tile added at the end of kWgmmaTiles adds instances after the others; the
  // generator deals kernels round-robin, so each of the 16 group files that gains one recompiles
  // whole (adding 32 kernels rebuilt every group: about 25 minutes on 2 cores).
  for (const WgmmaTile& w : kWgmmaTiles)
    for (DataType t : kWgmmaOperandTypes)
      for (Op a : kOps)
        for (Op b : kOps)
          for (DataType out_type : {t, DataType::kF32}) {
            if (out_type == DataType::kF32 && !w.f32_output) continue;
            const KernelConfig c =
                wgmma_config(w.bm, w.bn, 64, 0, w.cluster_m, w.cluster_n, w.schedule, a, b, t, out_type, 1, w.c_row_major);
            if (!is_valid(c)) continue;
            out.push_back(c);
            if (w.swizzles)
              for (int sw : kWgmmaSwizzles)
                out.push_back(wgmma_config(w.bm, w.bn, 64, 0, w.cluster_m, w.cluster_n, w.schedule, a, b, t, out_type, sw,
                                           w.c_row_major));
          }
  for (const WgmmaTf32Tile& w : kWgmmaTf32Tiles)
    for (ComputeType arithmetic : kWgmmaTf32Arithmetics) {
      const auto config = [&](int swizzle) {
        return wgmma_config(w.bm, w.bn, 32, 0, w.cluster_m, w.cluster_n, w.schedule, w.register_a ? Op::N : Op::T,
                            Op::N, DataType::kF32, DataType::kF32, swizzle, false, arithmetic);
      };
      if (!is_valid(config(1))) continue;
      out.push_back(config(1));
      if (w.swizzles)
        for (int sw : kWgmmaSwizzles) out.push_back(config(sw));
    }
  return out;
}

}  // namespace autogemm
