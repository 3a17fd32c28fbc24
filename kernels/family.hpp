// The host contract of a kernel family, as CUTLASS's library offers one per operation: whether an
// instance can run a problem, the split of K it runs and the workspace that takes, the launch with
// whatever the family adds after its kernel (a reduction), and the family's terms of the cost model.
// One table (kernel_families) holds every family's contract; the runtime, the tuner and the cost
// model reach families only through it (family_of). docs/kernels.md, "Adding a kernel family".
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <utility>
#include <vector>

#include "gemm_problem.hpp"
#include "operand_repack.hpp"
#include "registry.hpp"

namespace autogemm {

/// Split counts the families offer, in increasing order. 5 and 10 let a grid of a few dozen tiles
/// come closer to one block per SM (127x3001x1531 `tn`/`tt`: 24 tiles of 128x128 x 5 splits = 120 of
/// 132 SMs ran 1.6-2.3% faster than 4 splits). The counts that fill b = 1..4 blocks on every SM
/// exactly (11 for 12 tiles) are not offered: they change no winner (each split's K shrinks and the
/// reduction reads more partials), they only add candidates to time.
inline constexpr int kSplitCounts[] = {2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 48, 64};

/// Batches into which the wgmma split-K schedule cuts K for `requested` splits: the largest count
/// up to it that cuts K into equal parts of a multiple of 8 elements (where a K-major operand's
/// batch starts, 16 bytes on), 1 where none does. Each batch is one problem of CUTLASS's batched
/// GEMM, so the cut must be exact: a shorter last batch would read past K.
constexpr int splitk_batches(int k, int requested) {
  for (int s = requested; s > 1; --s)
    if (k % s == 0 && k / s >= 8 && (k / s) % 8 == 0) return s;
  return 1;
}

/// The longest sum of its copies' K (3 x k) that one split of a 3xTF32 instance runs on an output of
/// fewer tiles than SMs. There cuBLAS's pedantic SGEMM splits K, and its worst error relative to
/// sum|a·b| falls with K (256 x 256: 7.8e-8 at K = 256, 1.4e-8 at 65536), while a 3xTF32 sum that
/// stays in one piece keeps its rounding walk: up to 4.1x cuBLAS's worst at K = 65536 unsplit, at
/// most 0.9x in 64 splits (docs/accuracy.md). At K = 4096, 4 splits of 3072 measured up to 2.4x and
/// 6 of 2048 up to 1.8x.
inline constexpr int kEmulatedSplitSum = 2048;

/// Tiles and blocks of a launch's streamed last wave (a TMA launch's StreamKTail), for the cost model.
struct StreamedTail {
  int tiles = 0, blocks = 0;
};

/// A family's terms of the cost model (src/cost_model.cpp): which terms of the tiled model apply.
struct FamilyCostTerms {
  /// Priced as one stream of A at the DRAM rate (GEMV-shaped kernels), not as a tiled main loop.
  bool streams_a = false;
  /// A warpgroup of its own issues the copies and keeps the stages full: the compute threads pay no
  /// copy instructions, wait on no latency of their own, read fragments a k-step ahead (no shared
  /// memory or k-tile sync term), and the copies read K-major boxes at full DRAM rate (TMA).
  bool copy_warpgroup = false;
  /// Every launch splits K into planes that a reduction adds up (residue instances).
  bool always_reduced = false;
  /// Priced as a persistent tensor-core kernel (wgmma instances), not as a CUDA-core main loop.
  bool tensor_cores = false;
  /// The main loop's efficiency where B is K-major: the TMA copy warpgroup transposes B's staged
  /// boxes beside the compute warps (4096^3 `nn` 2640 us against its `nt` twin's 2554 on the H100).
  double k_major_b_efficiency = 1.0;
  /// The streamed last wave of an unsplit launch of `tiles` tiles over `sm_count` SMs in the bare
  /// form, or none (nullptr: the family has none).
  StreamedTail (*streamed_tail)(const KernelConfig& c, int tiles, int k, int sm_count) = nullptr;
};

struct KernelFamily {
  const char* name;
  /// Why an instance cannot run `problem` on `device` (its validity rule, layout, alignment, the
  /// family's own rules, architecture, resources), or "" when it can. Families compose the shared
  /// checks below with their own, in the order that names the first thing wrong.
  std::string (*cannot_implement)(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device,
                                  RepackPolicy repack);
  /// The split a requested one becomes in this family (GEMV and TMA take serial as parallel).
  SplitChoice (*effective_split)(const KernelConfig& c, SplitChoice requested);
  /// K per split and the splits it gives, for an effective split.
  SplitGeometry (*split_geometry)(const KernelConfig& c, int k, SplitChoice split);
  /// The split-k choices worth considering for a problem.
  std::vector<SplitChoice> (*split_candidates)(const KernelConfig& c, int m, int n, int k, int sm_count,
                                               SplitModes modes);
  /// Partials and counters a launch with effective split `split` needs (the repacked operands are
  /// operand repacking's, added by workspace_size).
  void (*add_workspace)(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split,
                        WorkspaceNeeds& needs);
  /// What runs after the kernel's launch `p` of the problem `original` (before repacking): the
  /// family's reduction of partial planes, or nothing.
  cudaError_t (*finish)(const KernelInstance& kernel, const GemmParams& p, const GemmProblem& original,
                        cudaStream_t stream);
  FamilyCostTerms cost;
  /// Whether an instance runs an m x n output as its transpose (transposed_problem), or nullptr: never.
  /// Every entry below asks the family about the problem as it runs (problem_as_run).
  bool (*runs_transposed)(const KernelConfig& c, int m, int n) = nullptr;
};

/// Every family's contract, one entry per family.
const std::vector<const KernelFamily*>& kernel_families();
/// The contract of the family an instance belongs to.
const KernelFamily& family_of(const KernelConfig& c);

// --- The contract as the runtime and the tuner call it (each through family_of) ---

/// The problem as `c` runs it: the problem itself, or its transpose where the family says so.
GemmProblem problem_as_run(const KernelConfig& c, const GemmProblem& problem);
/// The output's extents (m, n) as `c` runs them (swapped where it runs the transpose).
std::pair<int, int> extents_as_run(const KernelConfig& c, int m, int n);

/// Why `kernel` cannot run `problem` on `device`, or "" when it can. With RepackPolicy::kAllowed a
/// kernel that reads a K-major operand of the problem X-major qualifies when the repack is offered
/// for it (kRepackMinOtherExtent); alignment is then judged on the copies.
std::string cannot_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device,
                             RepackPolicy repack = RepackPolicy::kNever);
inline bool can_implement(const KernelInstance& kernel, const GemmProblem& problem, const DeviceLimits& device,
                          RepackPolicy repack = RepackPolicy::kNever) {
  return cannot_implement(kernel, problem, device, repack).empty();
}
/// The split-k choices worth considering: {1, none} where the family runs unsplit; more splits only
/// when the output tiles cannot fill the SMs and K is long enough to give every split several BK
/// steps; none where a 3xTF32 instance would sum too long a K (emulated_split_violation). The tuner
/// asks for kAll; the untuned choice for kParallelOnly.
std::vector<SplitChoice> split_candidates(const KernelConfig& c, int m, int n, int k, int sm_count,
                                          SplitModes modes = SplitModes::kAll);
/// "" when `split` of `c` keeps 3xTF32's accuracy on an m x n x k problem, else why not: on an output
/// of fewer tiles than SMs each split sums at most kEmulatedSplitSum of the copies' K, or the instance
/// runs the most splits it offers. Other arithmetics and larger outputs: always "". The wgmma family's
/// split_candidates leave out the splits it refuses (all of a cooperative or ping-pong instance's
/// where K is long), so neither the tuner nor the untuned choice picks them; the tuned lookup checks
/// a table's split with it.
std::string emulated_split_violation(const KernelConfig& c, int m, int n, int k, int sm_count, SplitChoice split);
/// The splits a launch of `requested` runs on a problem of `k`: the family's effective split cut
/// over the K the instance runs (copies_k: a 3xTF32 instance's 3·k).
int splits_run(const KernelConfig& c, int k, SplitChoice requested);
/// The workspace a launch needs: the family's partials and counters plus the repacked operands.
WorkspaceNeeds workspace_size(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split);
/// The launch parameters of `kernel` on `problem` (already repacked): the problem, the family's split
/// geometry and, for a GEMM whose one tile column covers n, A's address range as the streamed
/// operand (GemmParams::stream_window).
GemmParams launch_params(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split);

// --- Shared checks the families compose in their cannot_implement ---

/// The layout rule: the instance reads each operand in the problem's layout or from a repacked copy
/// that `repack` allows and kRepackMinOtherExtent offers.
std::string check_layout(const KernelConfig& c, const GemmProblem& problem, RepackPlan plan, RepackPolicy repack);
/// The alignment rule of a vector instance (align > 1): A (and B unless `a_only`) 16-byte aligned with
/// leading dimensions multiples of `align` elements of its type, judged on the copies where repacked.
std::string check_alignment(const KernelConfig& c, const GemmProblem& problem, RepackPlan plan, bool a_aligned,
                            bool a_only);
/// sm_80 or newer (cp.async).
std::string check_architecture(const DeviceLimits& device);
/// Shared memory the device grants, and a grid that can hold the output tiles.
std::string check_resources(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device);

/// The wgmma family's rule on a problem's extents: CUTLASS's TMA kernels take the contiguous extent
/// of each operand (m of an op-N A and of C, k of a K-major operand, n of an op-T B) in multiples of
/// 16 bytes. realigned.hpp pads problems that break it.
struct WgmmaExtentRule {
  struct Operand {
    char extent;   // 'm', 'n' or 'k': the extent the operand stores contiguously
    int multiple;  // elements in 16 bytes of its type
  };
  Operand a, b, c;
};
WgmmaExtentRule wgmma_extent_rule(const GemmProblem& problem);
/// "" when the problem keeps the rule, else the sentence naming the first operand that breaks it.
std::string wgmma_extent_violation(const GemmProblem& problem);

/// The tiled families' split rule (split_candidates above), shared by the multistage and TMA GEMMs.
std::vector<SplitChoice> tiled_split_candidates(const KernelConfig& c, int m, int n, int k, int sm_count,
                                                SplitModes modes);
/// Whether `splits` of a 16-bit K-major GEMV instance leave a split ending inside a warp step of 32
/// vectors along K, which that split then reads element by element (simt_sgemv.cuh): its split
/// candidates leave such splits out, the cost model prices them.
bool gemv_split_ends_inside_a_step(const KernelConfig& c, int k, int splits);
/// Geometry of a split over all of K (split_geometry).
SplitGeometry whole_k_geometry(const KernelConfig& c, int k, SplitChoice split);
/// The tiled families' finish: the reduction of a parallel split's partials (kParallel), else nothing.
cudaError_t reduce_parallel_split(const KernelInstance& kernel, const GemmParams& p, const GemmProblem& original,
                                  cudaStream_t stream);
/// What a split of K takes: the partial planes of a parallel split (more than one split, leading
/// dimension partial_ld of the grid's rows) and, with `counters` and more than one split, one counter
/// per output tile (serial split-k's turns, the GEMV's last-block reduction).
void add_split_workspace(const KernelConfig& c, const GemmProblem& problem, SplitChoice split, SplitGeometry g,
                         bool counters, WorkspaceNeeds& needs);

}  // namespace autogemm
