// See cost_model.hpp. Each term says which effect it models; the constants are rough and are meant
// to order candidates, the tuner's measurements decide.
#include "cost_model.hpp"

#include <algorithm>
#include <cmath>

#include "family.hpp"

namespace autogemm {

DeviceModel device_model(const DeviceLimits& limits) {
  int clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
  // Attributes may be unavailable on some drivers: fall back to H100-like figures.
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, limits.device) != cudaSuccess || clock_khz <= 0)
    clock_khz = 1755000;
  if (cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, limits.device) != cudaSuccess)
    mem_clock_khz = 0;
  if (cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, limits.device) != cudaSuccess) bus_bits = 0;
  cudaGetLastError();  // the fallbacks above must not leave a sticky error behind
  return device_model(limits.cc_major, limits.cc_minor, limits.sm_count, clock_khz, mem_clock_khz, bus_bits);
}

DeviceModel device_model(int cc_major, int cc_minor, int sm_count, int clock_khz, int mem_clock_khz, int bus_bits) {
  if (clock_khz <= 0) clock_khz = 1755000;  // unknown (a table without clocks): the H100's base clock
  DeviceModel d;
  d.sm_count = std::max(1, sm_count);
  // sm_80 (A100) has 64 FP32 lanes per SM; sm_86 and newer have 128.
  const int fp32_lanes = (cc_major == 8 && cc_minor == 0) ? 64 : 128;
  d.cycles_per_us = clock_khz / 1000.0;
  d.fma_per_us_per_sm = fp32_lanes * d.cycles_per_us;
  d.dram_bytes_per_us = (mem_clock_khz > 0 && bus_bits > 0) ? 2.0 * mem_clock_khz * 1e3 * (bus_bits / 8.0) / 1e6 * 0.85
                                                            : 2.0e6;
  d.l2_bytes_per_us = 2.5 * d.dram_bytes_per_us;
  return d;
}

namespace {
// Loaded DRAM latency: a stream's rate is at most the bytes it keeps in flight over this (Little's
// law). Unsplit 1x3072x3072 on the H100 ran 24.1 / 27.6 / 48.1 us with 96 / 48 / 24 GEMV blocks of
// 8 KB-32 KB in flight each, about what ~1.1 us gives.
constexpr double kLoadedLatencyUs = 1.1;

/// DRAM efficiency of a stream read in contiguous runs of `run_bytes` out of an operand of
/// `operand_bytes`. Runs of 32 bytes run slower from the start, and runs under 128 bytes lose more
/// as the operand outgrows 64 MiB. Measured on the GEMV's M-major blocks against the best candidate
/// of the same problem on the H100: 16-row blocks (64-byte runs)
/// 1.00 at 36 and 64 MiB of A (1x3072x3072, 1x2048x8192), 1.14 at 172 MiB (1x4096x11008 and
/// 1x11008x4096 alike), 1.20 at 224, 1.35 at 256, 1.46 at 896 MiB (1x8192x28672); 8-row blocks
/// 1.24 at 36 MiB, 1.86 at 172. So the loss follows log2(operand / 64 MiB). A GEMM's K-major
/// operand is read in runs of bk floats per row (estimate_us).
double short_run_efficiency(double run_bytes, double operand_bytes) {
  const double per_doubling = run_bytes < 64 ? 0.33 : run_bytes < 128 ? 0.11 : 0.0;
  const double doublings = std::max(0.0, std::log2(operand_bytes / (64.0 * 1024 * 1024)));
  return (run_bytes < 64 ? 0.8 : 1.0) / (1.0 + per_doubling * doublings);
}
}  // namespace

namespace {

/// GEMV instances stream A once; their speed is the DRAM rate, or less when too few bytes are in
/// flight to cover the memory latency (Little's law: rate = bytes in flight / latency), or when an
/// M-major block reads runs shorter than 128 bytes per column.
double estimate_gemv_us(const KernelConfig& c, int blocks_per_sm, int m, int n, int k, SplitChoice split,
                        const DeviceModel& device) {
  const int splits = split.mode == SplitKMode::kNone ? 1 : split_geometry(c, k, split.splits).splits;
  const bool k_major = a_is_k_major(c.op_a);
  const long blocks = (m + c.bm - 1) / c.bm * static_cast<long>(splits);
  const long resident = std::min<long>(blocks, static_cast<long>(std::max(1, blocks_per_sm)) * device.sm_count);
  // Vector loads in flight per thread: `stages` per step, times the rows a lane reads (K-major).
  // An SM keeps at most ~32 KB of loads in flight however many it is given: a K-major 64-row block
  // (64 KB issued) on 64 SMs ran 2x4096x4096 `tn` in 57.8 us where 512 blocks of 32 KB took 31.2
  // (H100, untuned).
  constexpr double kMaxInFlightPerSm = 32.0 * 1024;
  const double loads = c.stages * (k_major ? c.bm / 8.0 : 1.0);
  const double per_block = c.threads() * loads * 16.0;
  const long busy_sms = std::min<long>(blocks, device.sm_count);
  const double per_sm = std::min(kMaxInFlightPerSm, per_block * static_cast<double>(resident) / busy_sms);
  const double in_flight = per_sm * static_cast<double>(busy_sms);
  // An M-major block reads bm elements of each column (short_run_efficiency).
  const double e = data_type_bytes(c.types.a), e_c = data_type_bytes(c.types.c);
  const double run_efficiency = k_major ? 1.0 : short_run_efficiency(e * c.bm, e * static_cast<double>(m) * k);
  // 16-bit M-major blocks stream at about 0.57 of the FP32 ones' rate: 1x3072x3072 `nn` at best
  // 13.7 us for 18.9 MB of BF16 (64x4, 12 splits) against 15.7 for 37.7 MB of FP32 (H200).
  const double m_major_16bit = !k_major && e < 4 ? 0.57 : 1.0;
  const double rate =
      std::min(device.dram_bytes_per_us * run_efficiency, in_flight / kLoadedLatencyUs) * m_major_16bit;
  const double bytes = e * (static_cast<double>(m) * k + static_cast<double>(k) * n) + e_c * 2.0 * m * n;
  // Scalar instances issue 4 loads where align4 issues one. An M-major block's scalar loads read
  // bm-byte pieces of a column: with 16-row blocks that cost 1.56x on the H100 (1x3072x3072 `nt`
  // align1 32.5 us vs `nn` align4 20.8 us untuned), with 64 rows and more next to nothing
  // (1x4096x11008 `nt` align1 72.7 us, `nn` align4 71.4); the K-major
  // mapping's scalar loads cost nothing measurable (`tt` align1 19.4 vs `tn` align4 20.3 us).
  double issue = c.align > 1 ? 1.0 : (k_major || c.bm >= 64 ? 1.05 : 1.5);
  // K-major lanes each load a vector's k of every column of B per step, shared by the warp's bm / 8 rows;
  // with n > 1 those scalar loads span many L1 lines (op(B) = B^T strides by ldb): measured 30.5 vs
  // 22.9 us (`tn`) and 90.2 vs 23.2 us (`tt`) for one row per warp against the best on 4x3072x3072.
  if (k_major && n > 1) issue *= 1.0 + (n - 1) * (c.op_b == Op::T ? 1.0 : 0.12) / (c.bm / 8.0);
  // 16-bit K-major steps read their 8 values of B per column at the FMAs, shared by a warp's bm / 8
  // rows: one row per warp ran 1x4096x4096 `tn` (BF16) in 20.2 us, two in 18.0, four in 16.3.
  if (k_major && e < 4) issue *= 1.0 + 0.25 / (c.bm / 8.0);
  double t = bytes / rate * issue + 2.0;
  // Split K: partials written and read back through L2, and the last block's reduction tail.
  if (splits > 1) t += 4.0 * 2.0 * splits * m * n / device.l2_bytes_per_us + 0.5;
  // A 16-bit K-major split ending inside a warp step of 256 k reads that step element by element
  // (1x4096x4096 `tn`, BF16, 64x4: 3 splits 22.4 us against 17.2 and 16.1 for 2 and 4; the split
  // candidates leave such splits out, tables measured before may hold them).
  if (gemv_split_ends_inside_a_step(c, k, splits)) t += 6.0;
  return t;
}

/// Bytes in each row of the TMA boxes that fill an MN-major wgmma operand's tile of `extent`
/// elements: its shared-memory layout (CUTLASS's ss_smem_selector) takes the widest swizzle atom,
/// 128, 64 or 32 bytes, whose width in elements divides the extent, and the boxes are one atom wide.
int mn_major_box_row_bytes(int extent, int element_bytes) {
  for (int bytes : {128, 64, 32})
    if (extent % (bytes / element_bytes) == 0) return bytes;
  return 16;
}

/// How much longer a wgmma instance's main loop (its tensor-core or its streaming time, whichever
/// bounds it) runs where an MN-major operand arrives in box rows under 128 bytes (16-bit tiles 16 or
/// 112 wide take 32-byte atoms, 32 or 96 wide 64-byte ones). The same tile
/// with that operand K-major (128-byte rows) runs faster; on the H200, BF16 1024x1024x4096
/// (docs/results/h200_tuning_table_layouts.csv.xz), `nt` against `nn`: 64x32 ping-pong 47.5 against
/// 41.7 us, 128x32 stream-K 33.2 against 28.7; the row-major-C 128x112 32.3 in `nt` against 24.7 in
/// `tt`. Over the H100 and H200 BF16/FP16 tables, measured over estimated time, such candidates
/// ran 1.16-1.29x (64-byte rows) and 1.18-1.29x (32-byte rows) their problem's median candidate, the
/// rest 0.97-0.99x. With the factors tools/model_check's pick on the untuned problems' table
/// (h200_tuning_table_untuned_problems.csv.xz) reaches 0.963 of the best (0.947 without, worst 0.91
/// against 0.77), on the layouts' table 0.842 (0.835), the H100 and H200 sets' tables unchanged.
double narrow_box_rows_factor(const KernelConfig& c) {
  const int ab = data_type_bytes(c.types.a);
  const int a_row = a_is_k_major(c.op_a) ? 128 : mn_major_box_row_bytes(c.bm, ab);
  const int b_row = b_is_k_major(c.op_b) ? 128 : mn_major_box_row_bytes(c.bn, ab);
  const int row = std::min(a_row, b_row);
  return row >= 128 ? 1.0 : row == 64 ? 1.2 : 1.3;
}

/// wgmma instances: a persistent grid of one block per SM walks the tiles, each tile's main loop at
/// the tensor cores' rate times the tile's efficiency, or the operands' bytes at the DRAM rate where
/// that is longer. Split into `splits`, the stream-K schedule runs the tiles' splits as tiles.
/// Unsplit it is priced as its data-parallel twin plus its workspace's set-up: CUTLASS's heuristic
/// mostly keeps whole tiles (measured on the H100 against the cooperative instance of the same tile,
/// 3072x16x3072 BF16 28.3 against 21.2 us, 4096x16x4096 32.6 against 30.0, 256x256x8192 43.6
/// against 43.1), where pricing its k-steps spread evenly over every SM made it the model's pick
/// for narrow outputs at half the speed of the best (docs/decisions.md).
/// The tensor cores of an sm_90 SM do 16x its FP32 lanes' FMAs on BF16/FP16 (989 vs 62 dense
/// TFLOP/s at the same clock); the tile efficiencies are rough (CUTLASS's 128x256 tiles reach about
/// 80% of peak on 4096^3, smaller tiles feed the tensor cores less per byte of shared memory).
/// TF32 runs at half that rate (494 dense TFLOP/s), and a 3xTF32 instance's main loop runs its split
/// copies' 3 x k (rounded up to 4), their copy priced by repack_estimate_us.
double estimate_wgmma_us(const KernelConfig& c, int m, int n, int k, SplitChoice split, const DeviceModel& device) {
  constexpr double kLaunchUs = 4.0;
  const double tensor_ratio = c.types.a == DataType::kF32 ? 8.0 : 16.0;
  k = copies_k(c, k);  // a TF32 or 3xTF32 instance runs its copies' K
  const double tensor_rate = device.fma_per_us_per_sm * tensor_ratio;
  const int area = c.bm * c.bn;
  // Between 128x64 and 128x128 the efficiency grows with the log of the area: 128x96 and 128x112 run
  // one wgmma 96 or 112 wide per warpgroup and k-step, nearly 128x128's rate (512x11008x4096 BF16
  // `tn` in the H200 tuning table: 66.1 us on 128x112, 72.6 on 128x128 cooperative). A step at
  // 128x128 would price 128x112 at 128x64's efficiency, and the untuned choice would run that
  // problem on 128x192 (83.1 us); interpolated, tools/model_check's pick on the H200 BF16/FP16 table
  // reaches 0.961 of the best (0.960 with the step), the H100 and TF32 tables unchanged.
  double efficiency = area >= 128 * 256  ? 0.82
                      : area >= 128 * 128 ? 0.74
                      : area > 128 * 64   ? 0.6 + 0.14 * std::log2(area / (128.0 * 64.0))
                                          : 0.6;
  // A TF32 register-A main loop (A M-major through registers) runs the tensor cores at about 2/3 of
  // the rate of its K-major twin: 3072^3 on 128x128 340.4 us against 225.4, 4096^3 749.6 against 489.8.
  if (is_tf32_wgmma(c) && c.op_a == Op::N) efficiency /= 1.5;
  // CUTLASS's persistent schedulers round each tile count up to a multiple of swizzle x cluster
  // extent and walk the rounded grid, running a main loop (on zero-filled copies) for every tile
  // past the matrix: 11008x512 BF16 on 128x192 (86 x 3 tiles, 88 x 8 at swizzle 8) ran 162.4 us
  // against 78.5 unswizzled.
  auto rounded = [](long tiles, int multiple) { return (tiles + multiple - 1) / multiple * multiple; };
  const long tiles = rounded((m + c.bm - 1) / c.bm, c.swizzle * c.cluster_m) *
                     rounded((n + c.bn - 1) / c.bn, c.swizzle * c.cluster_n);
  const bool split_k = c.schedule == WgmmaSchedule::kStreamK && split.splits > 1;
  const bool batched = c.schedule == WgmmaSchedule::kSplitK;
  const SplitGeometry g = split_k   ? split_geometry(c, k, split.splits)
                          : batched ? family_of(c).split_geometry(c, k, split)
                                    : SplitGeometry{((k + c.bk - 1) / c.bk) * c.bk, 1};
  constexpr double kStreamKSetupUs = 1.0;
  // Tiles the busiest SM runs, ping-pong's as cooperative ones: a ping-pong warpgroup runs its
  // tile's main loop alone about as fast as two cooperative ones share a tile of the same shape.
  // 128x128 ping-pong over cooperative in the H200 table ran 0.90-1.01x at 3, 5 and 11 tiles per SM
  // (11008x512x4096, 3072^3, 11008x2048x4096), about 1.0x with one (below).
  const long tiles_per_sm = (tiles * g.splits + device.sm_count - 1) / device.sm_count;
  // Ping-pong hides an epilogue behind the other warpgroup's main loop only where an SM runs two
  // tiles: with one, 4096x512x4096 BF16 `tn` on the H200 took 32.9 us on 64x256 ping-pong against
  // 29.6 on 128x128 cooperative.
  if (c.schedule == WgmmaSchedule::kPingpong && tiles_per_sm >= 2) efficiency += 0.03;
  // Two or more 64-row ping-pong tiles per SM run slower than that: 3072x512x3072 BF16 `nn` on the
  // H200, 256 tiles of 64x96 29.3-30.0 us against 19.1 for 128 of 128x96 cooperative, 192 of 64x128
  // 24.5 against 21.3 for 96 of 128x128 (docs/results/h200_transposed_tiles.txt). With this term
  // tools/model_check's pick reaches 0.963 of the best on the H200 BF16/FP16 table as tuned with the
  // 96-wide tiles (0.957 without, worst 0.76 against 0.65), the H200 TF32/3xTF32 table's
  // 0.953 -> 0.956, the H100's 0.958 unchanged.
  if (c.schedule == WgmmaSchedule::kPingpong && c.bm == 64 && tiles_per_sm >= 2) efficiency /= 1.2;
  const double steps_per_sm = static_cast<double>(tiles_per_sm) * ((g.k_per_split + c.bk - 1) / c.bk);
  const double compute = steps_per_sm * area * c.bk / (tensor_rate * efficiency);
  const double ab = data_type_bytes(c.types.a), cb = data_type_bytes(c.types.c);
  // Each tile reads its rows of A and columns of B through L2: A once per column of tiles, B once
  // per row of them, so a narrow tile re-reads the other operand many times (1000^3 BF16 on a 64x16
  // tile: 63 passes over A, 34.7 us against 13.3 on 128x128). Those re-reads stream at about 4x the
  // DRAM rate: 4096x512x14336 on 128x128 moves 939 MB through L2 in 84.6 us (11.1 TB/s). With this
  // term tools/model_check's pick reaches 0.936 of the best on the H100 BF16 table (0.843 without).
  const double l2_bytes = ab * (static_cast<double>(m) * k * ((n + c.bn - 1) / c.bn) +
                                static_cast<double>(k) * n * ((m + c.bm - 1) / c.bm));
  const double reread_bytes_per_us = 4.0 * device.dram_bytes_per_us;
  // TMA streams an operand at the DRAM rate only in boxes of about 8 KB per k-tile or more (64 rows
  // of 128 bytes): 4096x1x4096 BF16 `tn` ran 22.7 us on 64x16 with A's weights in 8 KB boxes, 23.5
  // on the row-major-C 64x32 (its B' boxes 4 KB), 35.6 on the row-major-C 64x16 (2 KB).
  constexpr double kFullRateBoxBytes = 8192.0;
  auto box_rate = [&](int rows) { return std::min(1.0, rows * c.bk * ab / kFullRateBoxBytes); };
  const double dram_us = (ab * static_cast<double>(m) * k / box_rate(c.bm) +
                          ab * static_cast<double>(k) * n / box_rate(c.bn) + cb * static_cast<double>(m) * n) /
                         device.dram_bytes_per_us;
  // An output narrower than the tile: the main loop's tensor-core work (on zero-filled rows or
  // columns) and the stream of the other operand add up instead of overlapping. 14336x1x4096 BF16
  // `tn` measured 56.7 us on 128x64, 61.1 on 128x128 and 78.2 on 128x256 (one tile per SM each),
  // where the DRAM time alone is 39 us; 64x16 and 64x32 ping-pong 55.0-55.1.
  const bool narrower_than_tile = m < c.bm || n < c.bn;
  // Otherwise they overlap, but not wholly: a fifth of the shorter one shows. On 11008x64x4096 BF16
  // `tn` (H200 table) five tiles priced alike at the DRAM time ran 34.1 (128x64 cooperative), 34.4,
  // 35.1 and 38.2 us (64x64 ping-pong, two tiles and the most tensor-core work per SM), and the
  // untuned choice, left to the registry's order among them, ran 64x64. The fifth narrows measured
  // over estimated time within each problem of the H200 and H100 BF16/FP16 tables (rms of its log
  // 0.340 -> 0.335 and 0.328 -> 0.324); untuned on the H200 the `llm` sets went from 0.994x and
  // 0.991x cuBLAS to 1.004x and 1.003x (docs/decisions.md).
  constexpr double kOverlapShown = 0.2;
  double t = narrower_than_tile ? compute + dram_us
                                : std::max(compute, dram_us) + kOverlapShown * std::min(compute, dram_us);
  t = std::max(t, l2_bytes / reread_bytes_per_us);
  t *= narrow_box_rows_factor(c);
  // A lone 64x256 ping-pong tile per SM runs slower than the cooperative 128x128 of the same area
  // (1.07x over the 24 such pairs of whole tiles in a single wave in the H200 table, 0.98-1.15x;
  // 4096x512x4096 BF16 `tn` 31.9 us against 29.1), where 64x128 runs as fast as 128x64 (1.00x, 30).
  if (c.schedule == WgmmaSchedule::kPingpong && c.bm == 64 && c.bn >= 256 && tiles_per_sm == 1) t *= 1.07;
  // A lone 128-row ping-pong tile runs 1.01x its cooperative twin (geometric mean over the 262 such
  // single-wave pairs of 128x128 and 128x64 in the H200 table, 0.94-1.16x; 4096x512x14336 BF16 `tn`
  // 81.4 us against 80.8).
  if (c.schedule == WgmmaSchedule::kPingpong && c.bm == 128 && tiles_per_sm == 1) t *= 1.01;
  // A 2-block cluster against its 1x1 twin (geometric means over the H100 BF16/FP16 table's pairs):
  // 0.94-0.96x the time in grids of more than 8 waves (332 pairs), where multicast saves L2 reads;
  // in grids of 1-4 waves 1.01-1.04x (2x1 and, past 2 waves, 1x2; 11008x512x4096, 2.6 waves of
  // 128x128 ping-pong: 86.3 us at 2x1, 75.4 at 1x1) and 1.30x (1x2 up to 2 waves, 72 pairs, partly
  // the rounding above); 0.98x (2x1) in a single wave, left alike, except for 64-row ping-pong
  // tiles, whose 2x1 clusters took 0.96x their twins' time in a single wave (48 pairs of the H200
  // table; 1000^3 BF16 on 64x128 11.9-12.2 us against 13.7-14.2).
  if (c.cluster_m * c.cluster_n > 1) {
    const long blocks = tiles * g.splits;
    if (blocks > 8L * device.sm_count) t *= 0.95;
    else if (blocks > device.sm_count && blocks <= 4L * device.sm_count) t *= 1.03;
    else if (blocks <= device.sm_count && c.bm == 64 && c.cluster_m == 2 && c.schedule == WgmmaSchedule::kPingpong)
      t *= 0.96;
  }
  // However small its tile, a main loop retires a k-step in no less than about 200 cycles (the
  // consumers wait on the stage's barrier, issue its wgmmas and wait on them before releasing it):
  // 128x128x32768 BF16 `nn` on the H200, one tile per SM over 512 k-steps, ran 57.0-57.7 us on
  // 64x16, 64x32 and 64x64 ping-pong (0.105 us a step, where a 64x16 step's tensor-core work is
  // 0.027), and 96x96x20000 37.3 us on 64x16; without the floor the model prices that at 12.4,
  // ahead of 10 batches of 128x64 split-K (14.8 us in the tuning).
  constexpr double kStepCycles = 200.0;
  t = std::max(t, steps_per_sm * kStepCycles / device.cycles_per_us);
  t += kLaunchUs;
  if (c.schedule == WgmmaSchedule::kStreamK) t += kStreamKSetupUs;
  // Split-K's partial tiles are added in split order by the kernel (CUTLASS's deterministic
  // reduction): each split waits for the one before, about 0.09 ns per element of the tile per split
  // (128x128x32768 BF16 on the H100, 128x64 tile: 30.3 us at 8 splits, 57.0 at 32, 90.6 at 64), after
  // a fixed 5 us (the workspace's flags zeroed by a memset launch before the kernel; 3072x16x3072
  // at 2 splits ran 19.3 us where the tiles' work and the launch come to 14).
  constexpr double kSplitKFixedUs = 5.0;
  if (split_k) t += kSplitKFixedUs + 9e-5 * area * g.splits;
  // The split-K schedule's batches run as tiles; their partials are written and read back through
  // L2, and the reduction's launch overlaps the GEMM's tail (a programmatic dependent).
  constexpr double kReduceUs = 2.0;
  if (batched) t += kReduceUs + 2.0 * sizeof(float) * g.splits * static_cast<double>(m) * n / device.l2_bytes_per_us;
  return t;
}

/// Tiles' worth of main loop the busiest SM runs: per_sm whole tiles, except where a TMA launch
/// streams its partial last wave (tma_launch_plan.hpp): then the whole waves plus each tail block's
/// share of a tile, at the streamed kernel's 4.6% more per step (measured on the H100).
/// The model does not see alpha, beta or C's alignment: a problem of whole tiles is priced in the
/// bare form the tuner times (alpha 1, beta 0), the form that runs the tail.
double busiest_sm_tiles(const KernelConfig& c, const FamilyCostTerms& terms, long blocks, long per_sm, bool unsplit,
                        int m, int n, int k, int sm_count) {
  if (!unsplit || terms.streamed_tail == nullptr || m % c.bm != 0 || n % c.bn != 0) return static_cast<double>(per_sm);
  const StreamedTail tail = terms.streamed_tail(c, static_cast<int>(blocks), k, sm_count);
  if (tail.tiles == 0) return static_cast<double>(per_sm);
  constexpr double kStreamedStepCost = 1.046;
  return static_cast<double>(blocks - tail.tiles) / sm_count +
         kStreamedStepCost * static_cast<double>(tail.tiles) / tail.blocks;
}

}  // namespace

double repack_estimate_us(const KernelConfig& c, const GemmProblem& problem, const DeviceModel& device) {
  const size_t bytes = repack_layout(problem, repack_plan(c, problem)).bytes;
  if (bytes == 0) return 0.0;
  // Plus the copy kernel's launch and ramp, which the GEMM's dependent launch does not hide.
  constexpr double kCopyLaunchUs = 2.0;
  return 2.0 * static_cast<double>(bytes) / device.dram_bytes_per_us + kCopyLaunchUs;
}

double estimate_us(const KernelConfig& c, int blocks_per_sm, int m, int n, int k, SplitChoice split,
                   const DeviceModel& device) {
  const KernelFamily& family = family_of(c);
  const FamilyCostTerms& terms = family.cost;
  if (terms.tensor_cores) {
    const auto [rm, rn] = extents_as_run(c, m, n);
    return estimate_wgmma_us(c, rm, rn, k, split, device);
  }
  if (terms.streams_a) {
    const auto [rm, rn] = extents_as_run(c, m, n);
    return estimate_gemv_us(c, blocks_per_sm, rm, rn, k, split, device);
  }
  const int occ = std::max(1, blocks_per_sm);
  // Families whose every launch is reduced (residue instances): the launch's own geometry.
  const bool reduced = terms.always_reduced;
  const SplitGeometry g =
      family.split_geometry(c, k, reduced || split.mode != SplitKMode::kNone ? split : SplitChoice{});
  const bool unsplit = split.mode == SplitKMode::kNone && !reduced;
  const int splits = unsplit ? 1 : g.splits;
  const int k_per_block = unsplit ? k : g.k_per_split;
  const long blocks = grid_tiles(c, m, n) * splits;

  // Wave quantization: the busiest SM runs ceil(blocks / SMs) blocks, occ of them at a time.
  const long per_sm = (blocks + device.sm_count - 1) / device.sm_count;
  const long resident = std::min<long>(occ, per_sm);

  // Inner loop: tm*tn FMAs per k step against the instructions that feed them: float4 shared reads
  // of the fragments (both layouts, kernels/simt_sgemm_multistage.cuh) and the cp.async copies of
  // the block's tiles, 4 bytes each for align1 instances, 16 for align4. A k-slice's threads do
  // 1 / slices of each BK step's FMAs, so its copies per FMA are those of the slice's thread count.
  const double fma = c.tm * c.tn;
  const double lds = (c.tm + c.tn) / 4.0;
  // (TMA instances: a copy warpgroup of their own issues the copies.)
  const double copies = terms.copy_warpgroup ? 0.0 : static_cast<double>(c.bm + c.bn) / (c.align * c.slice_threads());
  // Issue slots per copy: a 16-byte copy ~4; a 4-byte one ~12, its address and edge arithmetic being
  // per element. Fitted on 14 scalar-class problems tuned --exhaustive on the H100 (measured over
  // estimated time was 1.71 for 4x4 align1 tiles and 1.25 for 4x8 at 4, 1.0-1.1 for 8x8 and wider;
  // the untuned picks' quality 0.88 with it, 0.77 at 4 slots) and checked on problems left out of
  // the fit. Only align1 instances run on scalar-class problems, so no
  // aligned problem's choice moves.
  const double copy_cost = c.align == 4 ? 4.0 : 12.0;
  // A thread's k-tile beyond 3072 FFMAs (fully unrolled: ~64 KB of code for 8x16 at BK = 32) runs
  // past the instruction cache: the 256x128x32 TMA tile ran 4096^3 `nt` at 0.83 of its BK = 16 twin
  // (3049 against 2533 us), and no such tile wins a tuned problem.
  const double code_eff = fma * c.bk > 3072 ? 0.85 : 1.0;
  // A TMA instance of a K-major B (`nn`) transposes B's staged boxes in its copy warpgroup, beside
  // the compute warps: 4096^3 ran 2640 us against its `nt` twin's 2554 without tails (3.4% on
  // the H100). Other K-major copy paths are not priced (see rank_untuned).
  const double transpose_eff = b_is_k_major(c.op_b) ? terms.k_major_b_efficiency : 1.0;
  const double inner_eff = code_eff * transpose_eff * fma / (fma + 1.5 * lds + copy_cost * copies);
  // Latency hiding: an SM needs roughly 16 resident warps of FMA streams to stay busy. A TMA
  // instance's 8 compute warps wait on no copies of their own (the copy warpgroup keeps the stages
  // in flight) and read their fragments a k-step ahead: 4096^3 `nt` ran 2538 us on 128x256 TMA tiles
  // against 3300 on the 128x128x8 tile of 16 warps that the model without this term prefers.
  const double warps = static_cast<double>(resident) * c.compute_threads() / 32.0;
  const double latency_eff = terms.copy_warpgroup ? 1.0 : std::min(1.0, warps / 16.0 + 0.15 * (fma / 64.0));
  // Shared-memory bandwidth: an SM's shared memory serves one 128-byte wavefront per cycle while its
  // four schedulers issue four warp FFMAs, and a warp's float4 fragment read takes ~3 wavefronts
  // (Nsight Compute of 8x8 and 8x16 thread tiles on the H100). So a thread
  // tile with fewer than 12 FFMAs per fragment read (4x4: 8; 4x8 and 8x4: 10.7) waits on shared
  // memory: the 32x32 4x4 sliced tile measured 1.4x its estimate (median of its 66 candidates in
  // an H100 tuning table, up to 1.76x where its blocks filled every SM).
  constexpr double kWavefrontsPerFragmentRead = 3.0;
  const double smem_eff = terms.copy_warpgroup ? 1.0 : std::min(1.0, fma / (4.0 * kWavefrontsPerFragmentRead * lds));
  // Every k-tile ends in a wait for the next stage and a barrier, about what 48 FFMAs of each thread
  // take: a thread tile with few FFMAs per k-tile pays it most (8x8 at BK = 8: 512 FFMAs per k-tile,
  // 9%). The 128x128x8 tile measured 1.40x (`nt`) to 1.8x (`tn`) its estimate at 4096x2048x4096 and
  // 3072^3 where the BK = 16 TMA tile measured 1.0-1.1x, and the plain model picked it for large
  // `tn` problems (quality 0.64); with this term those take the TMA tile, and the plain model's
  // quality over nine tuning tables is 0.916 with it, 0.890 without (tools/model_check).
  constexpr double kKTileSyncFfmas = 48.0;
  const double ktile_fmas = fma * c.bk / c.slices;
  const double sync_eff = terms.copy_warpgroup ? 1.0 : ktile_fmas / (ktile_fmas + kKTileSyncFfmas);
  const double eff = std::max(0.05, std::min({1.0, inner_eff * std::min(1.0, latency_eff) * sync_eff, smem_eff}));
  // Includes edge waste: the tile's overhang of m and n, and K rounded up to whole k-tiles.
  const double k_tiled = std::ceil(static_cast<double>(k_per_block) / c.bk) * c.bk;
  const double block_fmas = static_cast<double>(c.bm) * c.bn * k_tiled;
  const double compute_us = busiest_sm_tiles(c, terms, blocks, per_sm, unsplit, m, n, k, device.sm_count) * block_fmas /
                            (device.fma_per_us_per_sm * eff);

  // Memory: every block streams its A and B panels through L2; DRAM sees each matrix at least once.
  const double l2_bytes = 4.0 * static_cast<double>(blocks) * (c.bm + c.bn) * k_per_block;
  // DRAM reads each operand once; a K-major one in runs of bk floats per row (short_run_efficiency;
  // TMA boxes excepted), which 24x4096x11008 `tn` showed: its 128x32 8x4 tile ran 124.4 us at
  // BK = 16 (64-byte runs of a 180 MB A) and 94.0 at BK = 32 on the H100.
  const auto run_eff = [&](bool k_major, double bytes) {
    return k_major && !terms.copy_warpgroup ? short_run_efficiency(4.0 * c.bk, bytes) : 1.0;
  };
  const double a_bytes = 4.0 * static_cast<double>(m) * k, b_bytes = 4.0 * static_cast<double>(k) * n;
  const double dram_bytes = a_bytes / run_eff(a_is_k_major(c.op_a), a_bytes) +
                            b_bytes / run_eff(b_is_k_major(c.op_b), b_bytes) + 4.0 * 2.0 * m * n;
  // 4-byte copies also stream slower: 1x3072x3072 `nt` ran 30.6 us on a scalar 128x16 tile against
  // 25.5 us on the aligned one (H100, untuned and seed benchmarks), so memory-bound scalar tiles
  // are not priced like aligned ones.
  const double copy_rate = c.align == 4 ? 1.0 : 1.0 / 1.2;
  // A cp.async pipeline keeps stages - 1 tiles of each resident block in flight; with few, shallow
  // ones DRAM waits on latency: 32001x16x4096 `nt` (scalar class) ran 355.7 us on the 128x16x8 tile
  // with 2 stages, 211.0 on the 128x16x16 one with 3, which the model without this cap prices
  // alike. (TMA instances: their copy warpgroup keeps the stages full.)
  const double in_flight = static_cast<double>(resident) * std::min<long>(blocks, device.sm_count) *
                           (c.stages - 1) * (c.bm + c.bn) * c.bk * 4.0;
  const double dram_rate =
      terms.copy_warpgroup ? device.dram_bytes_per_us : std::min(device.dram_bytes_per_us, in_flight / kLoadedLatencyUs);
  const double memory_us = std::max(dram_bytes / dram_rate, l2_bytes / device.l2_bytes_per_us) / copy_rate;

  // Fixed costs: pipeline fill and epilogue per wave, and a launch.
  const double waves = std::ceil(static_cast<double>(per_sm) / occ);
  double t = std::max(compute_us, memory_us) + waves * (0.4 + 0.05 * c.stages) + 2.0;

  if (splits > 1 && (split.mode == SplitKMode::kParallel || reduced)) {
    // Partials written and read back once, plus the reduction launch. (Residues of M: each output
    // has one residue's planes, a quarter of them.)
    const int planes_per_output = c.residues_of_m() ? splits / kResidues : splits;
    t += 4.0 * (2.0 * planes_per_output + 2.0) * m * n / device.dram_bytes_per_us + 2.5;
  } else if (splits > 1 && split.mode == SplitKMode::kSerial) {
    // Splits of a tile take turns on C: a chain of (splits - 1) read-modify-write epilogues.
    t += (splits - 1) * (0.6 + 8.0 * c.bm * c.bn / device.l2_bytes_per_us * device.sm_count / 8.0);
  }
  return t;
}

}  // namespace autogemm
