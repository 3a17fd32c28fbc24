// KernelConfig: the one description of a kernel instance (an FP32 SIMT tiled GEMM, a GEMV-shaped
// kernel for outputs at most kGemvMaxN columns wide, a TMA-fed tile, or a BF16/FP16 wgmma kernel).
// Its geometry, its validity rule and its procedural name (the database key) live here and nowhere
// else; the kernel templates, the instance generator, the tuner and the runtime all include this header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "data_types.hpp"

namespace autogemm {

/// How an operand is stored, in cuBLAS terms: N = as given, T = transposed (C = T for real types).
enum class Op : int { N = 0, T = 1 };

/// Which dimension of an operand tile is contiguous in memory. For A (m x k): op N is M-contiguous,
/// op T is K-contiguous. For B (k x n): op N is K-contiguous, op T is N-contiguous.
constexpr bool a_is_k_major(Op op) { return op == Op::T; }
constexpr bool b_is_k_major(Op op) { return op == Op::N; }

/// Shared-memory padding, in floats, of a K-major tile row: keeps 16-byte row alignment for cp.async
/// and spreads the column reads of a warp over distinct banks (see docs/kernels.md).
inline constexpr int kKMajorPad = 4;

/// Row stride, in floats, of an X-major shared tile written by a transposing copy (see
/// KernelConfig::transposes_a / transposes_b): the X extent padded to 4·P floats with P ≡ 32 / bk (mod 8).
/// A warp's copies cover 32 / (bk / 4) adjacent rows x at each of the bk / 4 vectors of k, and
/// store the 4 values of a vector to k-rows (k % 4) · bk / 4 + k / 4; that P puts the 32 lanes of
/// each store on 32 distinct banks, and X-major fragment reads (one row at a time) stay as they are.
constexpr int transposed_row_floats(int x, int bk) {
  const int p = x / 4, want = (32 / bk) % 8;
  return 4 * (p + ((want - p % 8) % 8 + 8) % 8);
}

/// Row padding, in floats, of an X-major shared tile written by copy-transposing 4-byte copies (see
/// KernelConfig::copy_transposes_a / copy_transposes_b): with X a multiple of 16 the stride X + 4 puts
/// the 8 k-rows x 4 adjacent x of one copy instruction on 32 distinct banks.
inline constexpr int kCopyTransposePad = 4;

/// Largest dynamic shared memory any supported architecture grants one block (sm_90: 227 KiB).
/// The device's own limit is checked again at run time.
inline constexpr int kMaxSharedBytesAnyArch = 227 * 1024;

/// Residue classes of K of a residue instance (KernelConfig::residues): 4 makes every leading
/// dimension a multiple of 4 (16-byte vectors).
inline constexpr int kResidues = 4;

/// Which kernel template an instance is.
/// kGemm: simt_sgemm_multistage.cuh, tiles staged through shared memory (any shape).
/// kGemv: simt_sgemv.cuh, A streamed straight from global memory into registers with each element
/// used for at most kGemvMaxN FMAs; for n <= kGemvMaxN (row-major M <= 4), where a GEMM tile would
/// mostly compute zeros and the problem is bound by reading A once.
/// kTma: simt_sgemm_tma.cuh (sm_90a), the kGemm tile's compute with its stages copied by the tensor
/// memory accelerator: a copy warpgroup issues one bulk copy per operand tile and hands its
/// registers to the compute threads (setmaxnreg), which wait on mbarriers instead of block
/// barriers. A is M-major (op_a N, as TMA lays boxes out); B is N-major (`nt`, a TMA box too) or
/// K-major (`nn`: each copy thread loads one column of B's tile with 16-byte loads and stores it
/// transposed into the same X-major stage, so the compute code is the same and `nn` needs no
/// repack of B). Other layouts repack A.
/// The 256x128x16 8x16 tile ran 4096^3 in 2563 us against 2752 for the best kGemm instance
/// (docs/decisions.md, TMA family on sm_90a).
/// kWgmma: sm90_wgmma/wgmma_gemm.cuh (sm_90a), BF16 or FP16 operands on tensor cores (wgmma) with FP32
/// accumulation, an output of the operands' type or FP32, or FP32 operands and output in TF32 or
/// 3xTF32 arithmetic; CUTLASS's warp-specialized TMA kernels.
/// Fields: bm x bn x bk tile, stages (0: as many as shared memory holds), cluster_m x cluster_n,
/// schedule, ops, align = 16 bytes in elements, types; the warp and thread tiles are 0.
enum class Family : int { kGemm = 0, kGemv = 1, kTma = 2, kWgmma = 3 };

/// How a wgmma instance's two consumer warpgroups share the work, and how its grid walks the tiles.
/// kCooperative: both on one tile (M halved between them), tiles assigned persistently.
/// kPingpong: each warpgroup on its own tile, one's epilogue overlapping the other's main loop.
/// kStreamK: cooperative, K split over the blocks (stream-K, or split-K with a requested split),
/// the splits' partial tiles added by the kernel in split order (each split waits for the last).
/// kSplitK: cooperative, K split into equal batches whose FP32 partial tiles the kernel writes to
/// the workspace, all at once; a second kernel adds them and writes C (launch_splitk_reduce).
enum class WgmmaSchedule : int { kCooperative = 0, kPingpong = 1, kStreamK = 2, kSplitK = 3 };

/// wgmma instances: a producer warpgroup and two consumer warpgroups per block.
inline constexpr int kWgmmaThreads = 384;
/// The N widths of a wgmma tile: those CUTLASS's builder runs as one wgmma per warpgroup and k-step
/// (m64nNk16; 112 only with CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED, which wgmma_gemm.cuh defines). The
/// other multiples of 8 it may take are left out as measured losers or untried: 48 ran
/// 128x3072x3072 BF16 in 15.7 us against 13.4 on 64x64 (docs/results/h200_transposed_tiles.txt).
inline constexpr int kWgmmaTileWidths[] = {16, 32, 64, 96, 112, 128, 192, 256};

namespace detail {
/// "wgmma instance: BN must be one of 16, 32, ...", written from kWgmmaTileWidths at compile time.
struct WgmmaWidthMessage {
  char text[112] = {};
};
constexpr WgmmaWidthMessage wgmma_width_message() {
  WgmmaWidthMessage m;
  int n = 0;
  auto put = [&](const char* s) {
    while (*s != '\0') m.text[n++] = *s++;
  };
  put("wgmma instance: BN must be one of");
  const char* separator = " ";
  for (int w : kWgmmaTileWidths) {
    put(separator);
    separator = ", ";
    char digits[4] = {};
    int d = 3;
    do {
      digits[--d] = static_cast<char>('0' + w % 10);
      w /= 10;
    } while (w > 0);
    put(digits + d);
  }
  return m;
}
inline constexpr WgmmaWidthMessage kWgmmaWidthMessage = wgmma_width_message();
static_assert(kWgmmaWidthMessage.text[sizeof(kWgmmaWidthMessage.text) - 1] == '\0',
              "the BN message outgrew its buffer");
}  // namespace detail

constexpr bool is_wgmma_tile_width(int bn) {
  for (int w : kWgmmaTileWidths)
    if (w == bn) return true;
  return false;
}

/// Accumulators a consumer thread holds at most (the 128x256 cooperative tile: 64x256 per
/// warpgroup of 128 threads); more spill.
inline constexpr int kWgmmaMaxAccumulators = 128;

/// TMA instances: the copy warpgroup's threads, and the registers it keeps and the compute threads
/// get (setmaxnreg). 128 x 40 + 256 x 232 fits the 65536 registers of one block per SM, so the
/// compute threads of a kTma instance are exactly 256.
inline constexpr int kTmaCopyThreads = 128;
inline constexpr int kTmaCopyRegisters = 40;
inline constexpr int kTmaComputeRegisters = 232;
inline constexpr int kTmaComputeThreads = 256;
/// TMA instances of a K-major B (`nn`): each copy thread holds one column of B's k-tile in registers
/// between its shared loads and its transposed stores, so bn = kTmaCopyThreads and that column (bk
/// floats) must fit the copy threads' kTmaCopyRegisters beside their addresses.
inline constexpr int kTmaCopyColumnFloats = 16;
/// ...and B's K-major boxes land in a ring of this many staging tiles (bn x bk floats each) ahead of
/// the stages, so that a box is in flight for several k-tiles before the copy threads transpose it
/// (a power of two: the copy loop's ring index and phase are then a mask and a shift).
inline constexpr int kTmaStagingTiles = 4;
/// The named barrier (besides barrier 0) at which the copy warpgroup alone meets.
inline constexpr int kTmaCopyBarrier = 1;

/// GEMV instances: threads per block and the widest output they handle.
inline constexpr int kGemvThreads = 256;
inline constexpr int kGemvMaxN = 4;

/// GEMV instances use bm (rows of C per block), bn = kGemvMaxN, bk = elements per 16-byte vector (4
/// FP32, 8 BF16/FP16), stages (loads each thread keeps in flight), min_blocks = 1, ops, align and
/// types; the warp and thread tiles are 0. See gemv_config().
struct KernelConfig {
  int bm = 0, bn = 0, bk = 0;  // threadblock tile
  int wm = 0, wn = 0;          // warp tile
  int tm = 0, tn = 0;          // thread tile (accumulators per thread = tm * tn)
  int stages = 0;              // cp.async pipeline depth (GEMV: loads in flight per thread)
  int min_blocks = 0;          // __launch_bounds__ minimum blocks per SM
  Op op_a = Op::N, op_b = Op::N;
  int align = 1;               // elements per global load: 16-byte vectors (4 FP32, 8 16-bit) or 1 (scalar)
  Family family = Family::kGemm;
  // Sliced K: `slices` groups of warps each cover the whole block tile and take 1 / slices of every
  // BK step; their accumulators are added through shared memory before the epilogue. More warps per
  // block for the same tile and shared tiles: an SM holds 16 warps of a 64x64 8x8 tile with 4 blocks'
  // shared memory instead of 8, so fewer split-k partials are needed (which pays only where the tile
  // does not spill; docs/decisions.md, sliced K).
  int slices = 1;
  // Residue classes (1 or kResidues) of an aligned instance that also runs problems whose A has a
  // leading dimension that is not a multiple of 4 (the scalar class's 4-byte copies of A cost
  // 127x3001x1531 ~10%). Two kinds, by A's layout:
  // - residues of K (`nt_align4`, M-major A): the columns k = 4q + r
  //   of A form, for each r, a matrix with leading dimension 4·lda, whose base is 16-byte aligned
  //   once it starts (r·lda) mod 4 rows early; the instance reads residue r as that aligned operand,
  //   the extra rows' products landing in output rows the reduction skips. The planes of the four
  //   residues add up to C (launch_residue_reduce).
  // - residues of M (`tt_align4`, K-major A): the rows i = 4p + r of A form, for each r,
  //   a K-major matrix with leading dimension 4·lda whose rows start (r·lda) mod 4 columns past a
  //   16-byte boundary; the instance reads it from that boundary, its first tile's foreign columns
  //   zeroed in both operands (TransposingLoader and OperandLoader `head`). Residue r computes the
  //   rows 4p + r of C (launch_m_residue_reduce gathers them). A must be transposed through
  //   registers (transposes_a), where the zeroing costs one test per tile.
  // Either way a residue's splits are split-k planes: blockIdx.z = r · splits per residue + split.
  int residues = 1;
  // What the instance computes (data_types.hpp). The SIMT GEMM and TMA families compute FP32, the "s"
  // of simt_sgemm in their names; GEMV instances read FP32 (simt_sgemv) or BF16/FP16 operands into
  // FP32 sums (simt_gemv_bf16_f32_...); wgmma instances name their types.
  GemmTypes types{};
  // kWgmma instances: the thread-block cluster (blocks along M x along N sharing TMA loads by
  // multicast) and the schedule.
  int cluster_m = 1, cluster_n = 1;
  WgmmaSchedule schedule = WgmmaSchedule::kCooperative;
  // kWgmma instances: tiles the persistent grid walks along its raster's minor direction before
  // moving on (CUTLASS's max swizzle: 1, 2, 4 or 8), for L2 reuse of the operands' tiles. A launch
  // argument, not code: instances differing only in it share their kernel.
  int swizzle = 1;
  // kWgmma instances: C stored row-major. Such an instance runs the transposed problem
  // (transposed_problem: Cᵀ = op(B)ᵀ·op(A)ᵀ, m and n swapped), so an output a few rows tall, which a
  // wgmma tile of at least 64 rows would mostly waste, becomes a few columns wide: a 16- or 32-wide
  // N tile. Its layout (op_a, op_b) is that of the transposed problem it runs.
  bool c_row_major = false;

  constexpr bool is_gemv() const { return family == Family::kGemv; }
  constexpr bool is_tma() const { return family == Family::kTma; }
  constexpr bool is_wgmma() const { return family == Family::kWgmma; }
  /// A residue instance of the second kind above: residues of M (K-major A).
  constexpr bool residues_of_m() const { return residues > 1 && op_a == Op::T; }
  constexpr int warps_m() const { return wm > 0 ? bm / wm : 0; }
  constexpr int warps_n() const { return wn > 0 ? bn / wn : 0; }
  /// Threads of one k-slice: the warps that tile BM x BN once.
  constexpr int slice_threads() const { return warps_m() * warps_n() * 32; }
  /// Threads that compute (all but a kTma instance's copy warpgroup) and threads per block.
  constexpr int compute_threads() const {
    return is_gemv() ? kGemvThreads : is_wgmma() ? kWgmmaThreads : slice_threads() * slices;
  }
  constexpr int threads() const { return compute_threads() + (is_tma() ? kTmaCopyThreads : 0); }
  constexpr int lanes_m() const { return tm > 0 ? wm / tm : 0; }  // lanes of a warp along M
  constexpr int lanes_n() const { return tn > 0 ? wn / tn : 0; }

  /// Transposing copies (TransposingLoader in simt_sgemm_multistage.cuh): a K-major operand tile is
  /// loaded into registers (16-byte vectors along K) one tile ahead and stored transposed, so the
  /// main loop reads it X-major, without the register-bank conflicts of K-major fragments. Its one
  /// tile of lookahead must hide a load behind the tile's FFMAs (tm·tn·bk / slices per thread):
  /// measured on the H100, a K-major A pays from 1024 of them
  /// (1000^3 `tn` 66.8 -> 64.9 us, `tt` 66.2 -> 62.5), a K-major B of `nn` only from 2048 (the 12x8,
  /// 8x16 and 128x128 8x8 tiles 3-4% faster, 3072^3 1220 -> 1176 us; smaller tiles 2-33% slower).
  /// Aligned copies only: the scalar class, 4 scalar loads per vector, runs 1.5-1.8% slower that way.
  constexpr int ffmas_per_tile() const { return tm * tn * bk / slices; }
  constexpr bool transposes_a() const { return a_is_k_major(op_a) && transposable() && ffmas_per_tile() >= 1024; }
  constexpr bool transposes_b() const { return b_is_k_major(op_b) && transposable() && ffmas_per_tile() >= 2048; }
  constexpr bool transposable() const { return family == Family::kGemm && align == 4 && (bk == 8 || bk == 16 || bk == 32); }
  /// Copy-transposing copies (CopyTransposingLoader in simt_sgemm_multistage.cuh): the scalar class
  /// copies element by element anyway, so its 4-byte cp.async of a K-major tile can write each element
  /// straight into an X-major shared tile (rows X + kCopyTransposePad apart), which the main loop
  /// reads as it reads `nt` tiles. Each copy instruction covers 8 consecutive k (one 32-byte sector)
  /// of 4 adjacent rows, as cuBLAS's scalar kernels do (the K-major scalar tiles 2-16% faster); that
  /// needs threads / 8 rows per pass to divide X.
  constexpr bool copy_transposes_a() const { return a_is_k_major(op_a) && copy_transposable(bm); }
  constexpr bool copy_transposes_b() const { return b_is_k_major(op_b) && copy_transposable(bn); }
  constexpr bool copy_transposable(int x) const {
    return family == Family::kGemm && align == 1 && bk % 8 == 0 && x % 16 == 0 && x % (threads() / 8) == 0;
  }
  /// Whether A / B tiles are K-major in shared memory (K-major in memory and not transposed).
  /// (A kTma instance's stages are always X-major and dense: TMA boxes, and B transposed by the copy
  /// warpgroup where it is K-major.)
  constexpr bool a_shared_k_major() const {
    return a_is_k_major(op_a) && !is_tma() && !transposes_a() && !copy_transposes_a();
  }
  constexpr bool b_shared_k_major() const {
    return b_is_k_major(op_b) && !is_tma() && !transposes_b() && !copy_transposes_b();
  }

  /// Floats of one pipeline stage of A / B in shared memory.
  constexpr int a_stage_floats() const {
    if (is_tma()) return bk * bm;
    if (a_shared_k_major()) return bm * (bk + kKMajorPad);
    if (copy_transposes_a()) return bk * (bm + kCopyTransposePad);
    return bk * (a_is_k_major(op_a) ? transposed_row_floats(bm, bk) : bm);
  }
  constexpr int b_stage_floats() const {
    if (is_tma()) return bk * bn;
    if (b_shared_k_major()) return bn * (bk + kKMajorPad);
    if (copy_transposes_b()) return bk * (bn + kCopyTransposePad);
    return bk * (b_is_k_major(op_b) ? transposed_row_floats(bn, bk) : bn);
  }
  /// Floats of a kTma instance's staging ring of K-major B boxes (`nn`; kTmaStagingTiles).
  constexpr int tma_staging_floats() const {
    return is_tma() && b_is_k_major(op_b) ? kTmaStagingTiles * bn * bk : 0;
  }
  /// Floats of the sliced-K reduction: the accumulators of slices 1.. (the pipeline's tiles are
  /// reused for it once the main loop is done).
  constexpr int slice_reduction_floats() const { return (slices - 1) * bm * bn; }
  /// mbarriers of a kTma instance: "full" and "empty" per stage, "staged" per staging tile.
  constexpr int tma_barriers() const {
    return is_tma() ? 2 * stages + (tma_staging_floats() > 0 ? kTmaStagingTiles : 0) : 0;
  }
  /// Dynamic shared memory of a launch (GEMV instances use a small static array only; kTma
  /// instances add their staging ring and their mbarriers of 8 bytes after the stages).
  /// (A kWgmma instance fills the shared memory of the largest architecture with stages, its
  /// epilogue's tile beside them.)
  constexpr int shared_bytes() const {
    if (is_gemv()) return 0;
    if (is_wgmma()) return kMaxSharedBytesAnyArch;
    const int pipeline = stages * (a_stage_floats() + b_stage_floats()) + tma_staging_floats();
    const int reduction = slice_reduction_floats();
    return (pipeline > reduction ? pipeline : reduction) * static_cast<int>(sizeof(float)) + tma_barriers() * 8;
  }

  friend constexpr bool operator==(const KernelConfig&, const KernelConfig&) = default;
};

/// Whether one pass of `threads` copies of `vec` floats covers whole rows of an operand tile (x wide,
/// bk deep; rows run along its contiguous extent), so each thread's copies share a column: the
/// operand loader's per-thread fast path (OperandLoader in simt_sgemm_multistage.cuh). E.g. a 192-wide
/// X-major tile has 48 vectors per row, which 256 threads do not cover whole.
constexpr bool copies_whole_rows(int x, int bk, bool k_major, int vec, int threads) {
  return threads % ((k_major ? bk : x) / vec) == 0;
}

/// A GEMV instance: `bm` rows of C per block, `loads_in_flight` vector loads per thread per step, of
/// `types` (FP32, or BF16/FP16 operands with FP32 sums and C of their type or FP32).
constexpr KernelConfig gemv_config(int bm, int loads_in_flight, Op op_a, Op op_b, int align,
                                   GemmTypes types = kF32Types) {
  KernelConfig c{bm, kGemvMaxN, vector_elements(types.a), 0, 0, 0, 0, loads_in_flight, 1, op_a, op_b, align,
                 Family::kGemv};
  c.types = types;
  return c;
}

/// Elements of a GEMV instance's operand type in one 16-byte vector (4 FP32, 8 BF16/FP16).
constexpr int gemv_vector(const KernelConfig& c) { return vector_elements(c.types.a); }

/// A wgmma instance: tile bm x bn x bk, `stages` (0: as many as fit), cluster, schedule, layout and
/// types (A and B of `operands`, C of `output`, the arithmetic `compute`: FP32 for 16-bit operands,
/// TF32 or 3xTF32 for FP32 ones).
constexpr KernelConfig wgmma_config(int bm, int bn, int bk, int stages, int cluster_m, int cluster_n,
                                    WgmmaSchedule schedule, Op op_a, Op op_b, DataType operands, DataType output,
                                    int swizzle = 1, bool c_row_major = false,
                                    ComputeType compute = ComputeType::kF32) {
  KernelConfig c{bm, bn, bk, 0, 0, 0, 0, stages, 1, op_a, op_b, 16 / (operands == DataType::kF32 ? 4 : 2),
                 Family::kWgmma};
  c.types = GemmTypes{operands, operands, output, compute};
  c.cluster_m = cluster_m, c.cluster_n = cluster_n, c.schedule = schedule, c.swizzle = swizzle;
  c.c_row_major = c_row_major;
  return c;
}

/// Whether a wgmma instance reads FP32 operands (TF32 or 3xTF32 arithmetic). TF32 wgmma takes its
/// operands from shared memory K-major only: such an instance reads both K-major (`tn`), or (TF32,
/// op_a N) A M-major through registers, CUTLASS's register-A main loop. Operands of other layouts,
/// and every 3xTF32 problem's (split into TF32 parts), run on K-major copies (operand_repack.hpp).
constexpr bool is_tf32_wgmma(const KernelConfig& c) { return c.is_wgmma() && c.types.a == DataType::kF32; }

/// The validity rule of GEMV instances (see invalid_reason).
constexpr const char* invalid_gemv_reason(const KernelConfig& c) {
  if (c.types != kF32Types && (c.types.a == DataType::kF32 || !is_known_combination(c.types)))
    return "GEMV instance computes FP32, or BF16/FP16 operands into FP32 with C of their type or FP32";
  const int vector = gemv_vector(c);
  if (c.bn != kGemvMaxN || c.bk != vector || c.wm != 0 || c.wn != 0 || c.tm != 0 || c.tn != 0 ||
      c.min_blocks != 1 || c.slices != 1)
    return "GEMV instance must have bn = kGemvMaxN, bk = its 16-byte vector, no warp or thread tile, min blocks 1, "
           "one k-slice";
  // A 16-bit problem that 16-byte vectors cannot read runs on aligned copies (realigned.hpp).
  if (vector == 4 ? c.align != 1 && c.align != 4 : c.align != vector)
    return "align must be 1 (scalar) or 4 for FP32 GEMV instances, 8 (16-byte vectors) for 16-bit ones";
  if (c.stages < 1 || c.stages > 8) return "GEMV loads in flight must lie in [1, 8]";
  if (a_is_k_major(c.op_a)) {
    // One warp per bm / 8 rows, its lanes along K.
    if (c.bm < 8 || c.bm > 64 || c.bm % 8 != 0) return "K-major GEMV: BM must be a multiple of 8 in [8, 64]";
    if ((c.bm / 8) * c.stages > 16) return "K-major GEMV: (BM / 8) * loads in flight must be at most 16 (registers)";
  } else {
    // bm / vector lanes along M (a vector of rows each) must divide a warp, so a warp's k-groups are
    // whole.
    const int lanes = c.bm / vector;
    if (c.bm < 8 || c.bm > 128 || c.bm % vector != 0 || 32 % lanes != 0)
      return "M-major GEMV: BM / (elements per 16-byte vector) must divide 32 (BM in 8, 16, 32, 64, 128)";
  }
  return nullptr;
}

constexpr const char* invalid_reason(const KernelConfig& c);

/// Registers a thread of a tiled instance needs: its tm x tn accumulators, one k-step's fragments
/// of A and B, and about 40 of addressing. More than its budget and the compiler spills to local
/// memory. The one formula of the validity rule, for the multistage tiles and the TMA compute threads.
constexpr int thread_tile_registers(const KernelConfig& c) { return c.tm * c.tn + c.tm + c.tn + 40; }

/// Registers per thread that __launch_bounds__(threads, min_blocks) leaves: the SM's 65536 shared by
/// min_blocks blocks, at most 255 per thread.
constexpr int launch_bounds_register_budget(int threads, int min_blocks) {
  const int budget = 65536 / (threads * min_blocks);
  return budget > 255 ? 255 : budget;
}

/// The validity rule of TMA instances (see invalid_reason): the tile rules of the kGemm family for
/// the compute threads, plus what the copy warpgroup and TMA need.
constexpr const char* invalid_tma_reason(const KernelConfig& c) {
  if (c.op_a != Op::N || c.align != 4 || c.slices != 1 || c.residues != 1 || c.min_blocks != 1)
    return "TMA instance must be layout nt or nn, align 4, one k-slice, no residues, min blocks 1";
  if (b_is_k_major(c.op_b) && (c.bn != kTmaCopyThreads || c.bk > kTmaCopyColumnFloats))
    return "TMA instance of a K-major B (nn): one column of B's tile per copy thread, so BN must be "
           "kTmaCopyThreads (128) and BK at most kTmaCopyColumnFloats (16)";
  if (c.compute_threads() != kTmaComputeThreads)
    return "TMA instance must have 256 compute threads (the copy warpgroup's registers go to them)";
  if (c.bm > 256 || c.bn > 256) return "TMA boxes hold at most 256 elements per dimension";
  if (thread_tile_registers(c) > kTmaComputeRegisters)
    return "register budget of the compute threads too small for the thread tile";
  // Its compute threads run the kGemm tile's code, so that tile must be a valid kGemm instance.
  KernelConfig g = c;
  g.family = Family::kGemm;
  if (const char* why = invalid_reason(g)) return why;
  if (c.shared_bytes() > kMaxSharedBytesAnyArch) return "shared memory per block exceeds 227 KiB";
  return nullptr;
}

/// The validity rule of wgmma instances (see invalid_reason): what wgmma, TMA and CUTLASS's
/// warp-specialized schedules take, and registers for the accumulators.
constexpr const char* invalid_wgmma_reason(const KernelConfig& c) {
  const GemmTypes& t = c.types;
  const bool tf32 = t.a == DataType::kF32;
  if (tf32) {
    if (t.b != t.a || t.c != DataType::kF32 || t.compute == ComputeType::kF32)
      return "wgmma instance of FP32 operands: A, B and C f32 with TF32 or 3xTF32 arithmetic";
    if (c.op_b != Op::N || c.c_row_major || (c.op_a != Op::T && t.compute != ComputeType::kTF32))
      return "wgmma instance of FP32 operands reads B K-major, A K-major (tn) or, TF32 only, M-major through "
             "registers (nn), and writes C column-major";
  } else if (t.a != t.b || (t.a != DataType::kBF16 && t.a != DataType::kF16) || (t.c != t.a && t.c != DataType::kF32) ||
             t.compute != ComputeType::kF32) {
    return "wgmma instance: A and B both bf16 or both f16, C of their type or f32, FP32 arithmetic";
  }
  if (c.wm != 0 || c.wn != 0 || c.tm != 0 || c.tn != 0 || c.min_blocks != 1 || c.slices != 1 || c.residues != 1)
    return "wgmma instance has no warp or thread tile, min blocks 1, one k-slice, no residues";
  if (c.align != vector_elements(t.a)) return "wgmma instance reads 16-byte aligned operands (align 8, 4 for f32)";
  if (c.bk * data_type_bytes(t.a) != 128)
    return "wgmma instance: BK must fill one 128-byte swizzled row (64 16-bit or 32 FP32 elements)";
  if (!is_wgmma_tile_width(c.bn)) return detail::kWgmmaWidthMessage.text;
  if (c.schedule == WgmmaSchedule::kPingpong) {
    if (c.bm != 64 && c.bm != 128) return "ping-pong wgmma instance: BM must be 64 or 128 (one warpgroup's tile)";
  } else if (c.bm != 128 && c.bm != 256) {
    return "cooperative wgmma instance: BM must be 128 or 256 (two warpgroups of 64 or 128 rows)";
  }
  // 3xTF32 promotes each k-tile's tensor-core sums into a second set of FP32 accumulators.
  const int rows_per_warpgroup = c.schedule == WgmmaSchedule::kPingpong ? c.bm : c.bm / 2;
  const int accumulator_sets = t.compute == ComputeType::k3xTF32 ? 2 : 1;
  if (accumulator_sets * rows_per_warpgroup * c.bn / 128 > kWgmmaMaxAccumulators)
    return "wgmma instance: more than 128 accumulators per consumer thread spill registers";
  if (!((c.cluster_m == 1 && c.cluster_n == 1) || (c.cluster_m == 2 && c.cluster_n == 1) ||
        (c.cluster_m == 1 && c.cluster_n == 2)))
    return "wgmma instance: cluster must be 1x1, 2x1 or 1x2";
  if (c.schedule == WgmmaSchedule::kSplitK && (c.c_row_major || c.cluster_m * c.cluster_n != 1))
    return "split-K wgmma instance: column-major C, no cluster";
  if (c.stages != 0 && (c.stages < 2 || c.stages > 8)) return "wgmma stages must be 0 (as many as fit) or in [2, 8]";
  if (c.swizzle != 1 && c.swizzle != 2 && c.swizzle != 4 && c.swizzle != 8) return "wgmma swizzle must be 1, 2, 4 or 8";
  if (c.stages != 0 && c.stages * (c.bm + c.bn) * c.bk * data_type_bytes(t.a) > 200 * 1024)
    return "wgmma stages exceed the shared memory beside the epilogue";
  return nullptr;
}

/// The validity rule, written once: returns nullptr when `c` describes a kernel that compiles and runs
/// correctly, else the reason it does not. Used by the kernel's static_assert, the generator, the
/// tuner's pruning and the runtime's can_implement.
constexpr const char* invalid_reason(const KernelConfig& c) {
  if (c.is_wgmma()) return invalid_wgmma_reason(c);
  if (c.cluster_m != 1 || c.cluster_n != 1 || c.schedule != WgmmaSchedule::kCooperative || c.swizzle != 1 ||
      c.c_row_major)
    return "clusters, schedules, swizzles and row-major C belong to wgmma instances";
  if (c.is_gemv()) return invalid_gemv_reason(c);
  if (c.types != kF32Types) return "the SIMT GEMM and TMA families compute FP32 only (types f32)";
  if (c.is_tma()) return invalid_tma_reason(c);
  if (c.family != Family::kGemm) return "unknown kernel family";
  if (c.bm < 16 || c.bm > 256 || c.bn < 16 || c.bn > 256) return "block tile BM, BN must lie in [16, 256]";
  if (c.bk < 4 || c.bk > 64 || c.bk % 4 != 0) return "BK must be a multiple of 4 in [4, 64]";
  if (c.slices != 1 && c.slices != 2 && c.slices != 4) return "k-slices must be 1, 2 or 4";
  if (c.bk % (4 * c.slices) != 0) return "BK must give every k-slice whole groups of 4 k-steps";
  if (c.wm <= 0 || c.wn <= 0 || c.bm % c.wm != 0 || c.bn % c.wn != 0)
    return "warp tile must divide the block tile";
  if (c.tm <= 0 || c.tn <= 0 || c.wm % c.tm != 0 || c.wn % c.tn != 0)
    return "thread tile must divide the warp tile";
  if (c.tm % 4 != 0 || c.tn % 4 != 0)
    return "thread tile TM, TN must be multiples of 4 (float4 fragment reads)";
  if (c.lanes_m() * c.lanes_n() != 32) return "warp tile / thread tile must give exactly 32 lanes";
  if (c.threads() < 32 || c.threads() > 1024) return "threads per block must lie in [32, 1024]";
  if (c.stages < 2 || c.stages > 8) return "stages must lie in [2, 8]";
  if (c.min_blocks < 1 || c.min_blocks > 4) return "min blocks per SM must lie in [1, 4]";
  if (c.align != 1 && c.align != 4) return "align must be 1 (scalar) or 4 (16-byte vectors)";
  if (c.align == 4) {
    // A vector runs along the contiguous dimension of each operand tile.
    if ((a_is_k_major(c.op_a) ? c.bk : c.bm) % 4 != 0) return "A tile's contiguous extent must be a multiple of 4";
    if ((b_is_k_major(c.op_b) ? c.bk : c.bn) % 4 != 0) return "B tile's contiguous extent must be a multiple of 4";
  }
  // Every thread issues the same number of copies per stage: no tail loop, no idle threads.
  if ((c.bm * c.bk / c.align) % c.threads() != 0) return "BM*BK/align must be a multiple of the thread count";
  if ((c.bn * c.bk / c.align) % c.threads() != 0) return "BN*BK/align must be a multiple of the thread count";
  if (c.tm * c.tn > 128) return "more than 128 accumulators per thread spill registers";
  if (thread_tile_registers(c) > launch_bounds_register_budget(c.threads(), c.min_blocks))
    return "register budget of (threads, min blocks) too small for the thread tile";
  if (c.residues != 1 && c.residues != kResidues) return "residues must be 1 or kResidues (4)";
  if (c.residues != 1 && (c.op_b != Op::T || c.align != 4))
    return "residue instances read an N-major B with 16-byte copies (layout nt or tt, align 4)";
  if (c.residues_of_m() && !c.transposes_a())
    return "residues of M (layout tt) zero their first tile's foreign columns of A in registers: A must be "
           "transposed through registers (tm * tn * bk / slices >= 1024)";
  if (c.shared_bytes() > kMaxSharedBytesAnyArch) return "shared memory per block exceeds 227 KiB";
  if (static_cast<long>(c.shared_bytes()) * c.min_blocks > 228L * 1024) return "min blocks per SM do not fit in shared memory";
  return nullptr;
}

constexpr bool is_valid(const KernelConfig& c) { return invalid_reason(c) == nullptr; }

/// 'n' or 't': an op as the names, the database and the shapes CSV spell it.
constexpr char op_char(Op op) { return op == Op::N ? 'n' : 't'; }

/// Layout code of an instance as in cuBLAS/CUTLASS names: first letter op(A), second op(B).
std::string layout_code(Op a, Op b);

/// Procedural name, stable across rebuilds, e.g.
/// "simt_sgemm_128x128x8_w64x32_t8x4_s3_b256x2_nt_align4", with "_ks2" after the thread tile for 2
/// k-slices ("simt_sgemm_64x64x32_w32x32_t4x8_ks2_s3_b256x2_nn_align4"; one slice writes nothing, so
/// older names stay keys) and "_res4" at the end for a residue instance (KernelConfig::residues),
/// or "simt_sgemv_16x4_u8_b256_nn_align4" (rows x max columns, loads in flight, threads; FP32), or
/// "simt_gemv_bf16_f32_16x4_u8_b256_tn_align8" (BF16/FP16 operands, then C's type), or
/// "simt_sgemm_tma_256x128x16_w64x64_t8x16_s4_b384x1_nt_align4" for a kTma instance (threads
/// counting its copy warpgroup), or "sm90_wgmma_bf16_f32_128x256x64_c2x1_coop_tn_align8" for a
/// kWgmma instance (operand type, output type, tile, cluster, schedule coop|ping|sk|splitk, "_s4" for an
/// explicit stage count and "_sw4" for a swizzle before the layout, "_ct" at the end for a row-major
/// C, the layout then being the transposed problem's). Every field is in the name.
std::string kernel_name(const KernelConfig& c);

/// Inverse of kernel_name; nullopt when `name` is not a well-formed instance name.
std::optional<KernelConfig> parse_kernel_name(std::string_view name);

}  // namespace autogemm
