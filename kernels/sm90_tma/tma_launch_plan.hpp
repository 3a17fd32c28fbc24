// How a launch of a TMA instance (KernelConfig family kTma) is laid out: which form of the kernel
// runs (bare_epilogue_fits) and which tiles, if any, run as a streamed tail (streamk_tail). Host
// code asks it for the workspace a launch needs (workspace_size), the launch for its grids, so both
// read the same rule. docs/kernels.md, "TMA instances"; docs/decisions.md, "TMA kernel: bare and
// general forms" and "A TMA launch's partial last wave".
#pragma once

#include <cstdint>

#include "device_attribute.hpp"
#include "gemm_params.hpp"
#include "kernel_config.hpp"

namespace autogemm {

/// Whether a launch may take the bare epilogue: C = A·B exactly (alpha 1, beta 0, no split), whole
/// tiles, and C's columns 16-byte aligned. The general epilogue (alpha, beta, guards, partial planes)
/// slows the whole kernel: with it in the same kernel, ptxas schedules the main loop differently,
/// and 4096^3 ran 2.6-3.5% slower. So each instance is compiled
/// twice and the launch picks.
inline bool bare_epilogue_fits(const KernelConfig& c, const GemmParams& p) {
  return p.alpha == 1.0f && p.beta == 0.0f && p.mode == SplitKMode::kNone && p.m % c.bm == 0 && p.n % c.bn == 0 &&
         p.ldc % 4 == 0 && (reinterpret_cast<uintptr_t>(p.c) & 15) == 0;
}

/// The streamed tail of a bare TMA launch whose tiles fill the SMs a whole number of times and then
/// part of a wave (4096^3 on 256x128 tiles: 512 tiles, 3 waves of 132 and 116 more). The whole
/// waves run as usual, one block per tile; the last `tiles` tiles' tiles x k_tiles BK-steps are
/// divided over `blocks` blocks of a second launch (stream-K; the later blocks' shares tapered,
/// streamk_first_step), so the last wave ends with every SM busy instead of 16 idle. A tile whose steps fall to several blocks is summed by the
/// block holding its last step, from the others' partial sums (one slot of bm x bn floats per
/// block) once a per-tile counter says they are written.
struct StreamKTail {
  int first_tile = 0;  // grouped tile index of the tail's first tile (the tiles before it: whole waves)
  int tiles = 0;       // tiles in the tail; 0: no tail, every tile runs in the data-parallel grid
  int k_tiles = 0;     // BK steps per tile
  int blocks = 0;      // blocks sharing the tail's steps
  int taper = 0;       // steps by which block 0's share exceeds the last block's (linear in between)
};

/// Fewest BK steps a block of the tail gets: its pipeline fill and its fix-up of a tile (writing or
/// adding a bm x bn slot) must be small against its share of the main loop.
inline constexpr int kStreamKMinSteps = 16;

/// First step of block b of the tail (steps numbered tile by tile, k within a tile): block b runs
/// total / blocks + taper * ((blocks - 1) / 2 - b) / (blocks - 1) steps, as integers allow, so
/// later blocks (which take SMs later, as the whole waves' blocks exit) may get fewer.
__host__ __device__ constexpr int64_t streamk_first_step(const StreamKTail& t, int b) {
  const int64_t total = static_cast<int64_t>(t.tiles) * t.k_tiles, g = t.blocks;
  if (g <= 1 || t.taper == 0) return total * b / g;
  return (total * b * 2 * (g - 1) + static_cast<int64_t>(t.taper) * b * (g - b) * g) / (2 * g * (g - 1));
}

/// The tail of a launch of TMA instance `c` with parameters `p` on a device of `sm_count` SMs (one
/// block per SM): none unless the bare form runs, B is X-major (the tail's kernel has no `nn` copy
/// warpgroup), and the tiles leave a partial last wave. `enabled`: AUTOGEMM_STREAMK (host callers
/// pass streamk_enabled()).
/// A last wave at least 9/10 full keeps its tiles whole: the tail would save under a tenth of a
/// tile's time, about what the SMs' spread in finishing the whole waves costs it.
constexpr StreamKTail streamk_tail_of(const KernelConfig& c, int tiles, int k, int sm_count, bool bare, bool enabled) {
  const StreamKTail none;
  if (!enabled || !bare || !c.is_tma() || b_is_k_major(c.op_b) || sm_count <= 0 || tiles <= sm_count) return none;
  const int remainder = tiles % sm_count;
  if (remainder == 0 || remainder * 10 >= sm_count * 9) return none;
  StreamKTail t;
  t.first_tile = tiles - remainder;
  t.tiles = remainder;
  t.k_tiles = (k + c.bk - 1) / c.bk;
  const int64_t steps = static_cast<int64_t>(t.tiles) * t.k_tiles;
  const int64_t blocks = steps / kStreamKMinSteps;
  t.blocks = static_cast<int>(blocks > sm_count ? sm_count : blocks);
  // Fewer blocks than tiles would run some tiles one after another: no better than whole tiles.
  if (t.blocks <= t.tiles) return none;
  // The tail's blocks take SMs in index order as the whole waves' blocks exit, spread over more
  // time the more waves ran before: later blocks get fewer steps. k_tiles * waves / 64 steps from
  // the first block's share to the last's, at most k_tiles / 8 and half a share (measured on the
  // H100 for 2, 3 and 10 waves before the tail).
  const int64_t waves = tiles / sm_count, share = steps / t.blocks;
  int64_t taper = static_cast<int64_t>(t.k_tiles) * waves / 64;
  if (taper > t.k_tiles / 8) taper = t.k_tiles / 8;
  if (taper > share / 2) taper = share / 2;
  t.taper = static_cast<int>(taper);
  return t;
}

/// False when a diagnostics build (AUTOGEMM_LAUNCH_DIAGNOSTICS) runs with AUTOGEMM_STREAMK=0: no
/// launch runs a streamed tail, to measure what the tail gains.
inline bool streamk_enabled() {
  static const bool enabled = launch_feature_enabled("AUTOGEMM_STREAMK");
  return enabled;
}

/// streamk_tail_of for a launch on the current device.
inline StreamKTail streamk_tail(const KernelConfig& c, const GemmParams& p) {
  const int tiles = (p.m + c.bm - 1) / c.bm * ((p.n + c.bn - 1) / c.bn);
  return streamk_tail_of(c, tiles, p.k, current_device_attribute<cudaDevAttrMultiProcessorCount>(),
                         bare_epilogue_fits(c, p), streamk_enabled());
}

}  // namespace autogemm
