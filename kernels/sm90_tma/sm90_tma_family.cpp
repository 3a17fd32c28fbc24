// The contract of the sm_90a TMA family (simt_sgemm_tma.cuh): a copy warpgroup feeds the stages by
// TMA; K splits into partial planes only, and an unsplit launch may stream its partial last wave
// (tma_launch_plan.hpp).
#include "family.hpp"
#include "tma_launch_plan.hpp"

namespace autogemm {
namespace {

std::string tma_cannot_implement(const KernelConfig& c, const GemmProblem& problem, const DeviceLimits& device,
                                 RepackPolicy repack) {
  const RepackPlan plan = repack_plan(c, problem);
  std::string why = check_layout(c, problem, plan, repack);
  if (why.empty()) why = check_alignment(c, problem, plan, false, false);
  if (why.empty()) why = check_architecture(device);
  if (why.empty() && !(device.cc_major == 9 && device.cc_minor == 0))
    why = "TMA instance runs sm_90a code (TMA, setmaxnreg): needs compute capability 9.0, the device has " +
          std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor);
  if (why.empty()) why = check_resources(c, problem, device);
  return why;
}

// K splits into partial planes only (the kernel has no serial epilogue).
SplitChoice serial_as_parallel(const KernelConfig&, SplitChoice split) {
  if (split.mode == SplitKMode::kSerial) split.mode = SplitKMode::kParallel;
  return split;
}

// Partials of a parallel split; an unsplit launch whose last wave is partial: a slot per block of
// its streamed tail and a counter per tile, optional (without them the launch runs whole tiles).
void tma_add_workspace(const KernelInstance& kernel, const GemmProblem& problem, SplitChoice split,
                       WorkspaceNeeds& needs) {
  const KernelConfig& c = kernel.config;
  add_split_workspace(c, problem, split, whole_k_geometry(c, problem.k, split), false, needs);
  if (split.mode == SplitKMode::kNone) {
    const StreamKTail tail = streamk_tail(c, launch_params(kernel, problem, split));
    if (tail.tiles > 0) {
      needs.partial_bytes = sizeof(float) * static_cast<size_t>(tail.blocks) * c.bm * c.bn;
      needs.semaphore_count = static_cast<size_t>(tail.tiles);
      needs.streamk_optional = true;
    }
  }
}

StreamedTail tma_streamed_tail(const KernelConfig& c, int tiles, int k, int sm_count) {
  const StreamKTail tail = streamk_tail_of(c, tiles, k, sm_count, true, streamk_enabled());
  return {tail.tiles, tail.blocks};
}

}  // namespace

extern const KernelFamily kSm90TmaFamily{
    "sm90_tma",         tma_cannot_implement, serial_as_parallel,    whole_k_geometry,
    tiled_split_candidates, tma_add_workspace, reduce_parallel_split,
    {.copy_warpgroup = true, .k_major_b_efficiency = 0.967, .streamed_tail = tma_streamed_tail}};

}  // namespace autogemm
