// The TMA instances of a K-major B (`nn`) against their `nt` twins, bit for bit, at a size with
// hundreds of k-tiles per block. The `nn` copy warpgroup stages B's K-major boxes and transposes
// them into the very X-major stages the `nt` twin gets from TMA, and the compute threads' code is
// the same, so C must be identical to the twin's on a transposed B. A hand-off race between the
// staging ring and its refills (see copy_k_major_b_stages) would corrupt a few columns in a few of
// ~130 000 refills per 4096^3 launch: the float64 reference at the instance suite's sizes would not
// see it, one repeated large launch compared exactly does.
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "gpu_test.hpp"
#include "operation.hpp"
#include "registry.hpp"
#include "tma_launch_plan.hpp"

namespace autogemm::testing {
namespace {

class TmaKMajorBTest : public GpuTest, public ::testing::WithParamInterface<size_t> {};

/// Registry indices of the TMA instances whose B is K-major (`nn`) or, with false, X-major (`nt`).
std::vector<size_t> tma_instances(bool k_major_b) {
  std::vector<size_t> picked;
  const auto& reg = kernel_registry();
  for (size_t i = 0; i < reg.size(); ++i)
    if (reg[i].config.is_tma() && b_is_k_major(reg[i].config.op_b) == k_major_b) picked.push_back(i);
  return picked;
}

std::vector<float> copy_to_host(const DeviceBuffer<float>& d) {
  std::vector<float> h(d.count());
  if (cudaMemcpy(h.data(), d.get(), d.count() * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) h.clear();
  return h;
}

TEST_P(TmaKMajorBTest, RepeatedLaunchesMatchTheNtTwinBitForBit) {
  const KernelInstance& nn = kernel_registry()[GetParam()];
  KernelConfig twin_config = nn.config;
  twin_config.op_b = Op::T;
  const KernelInstance* nt = find_kernel(kernel_name(twin_config));
  ASSERT_NE(nt, nullptr) << kernel_name(twin_config) << " (the nt twin) is not compiled";

  // Both forms of the epilogue: the bare one (alpha 1, beta 0, whole tiles) and the general one.
  struct Case {
    int m, n, k;
    float alpha, beta;
    int launches;
  };
  const Case cases[] = {{4096, 4096, 4096, 1.0f, 0.0f, 8}, {4000, 3968, 4100, 0.5f, 0.25f, 3}};
  DeviceLimits limits;
  ASSERT_CUDA(current_device_limits(limits));
  uint64_t seed = 7;
  for (const Case& cs : cases) {
    SCOPED_TRACE(::testing::Message() << nn.name << " m=" << cs.m << " n=" << cs.n << " k=" << cs.k);
    const int lda = cs.m, ldb = cs.k, ldc = cs.m;  // multiples of 4: the TMA instances' align4
    GemmBuffers buffers(size_t(lda) * cs.k, size_t(ldb) * cs.n, size_t(ldc) * cs.n);
    ASSERT_CUDA(buffers.fill(++seed, false));
    GemmProblem p;
    p.op_a = Op::N, p.op_b = Op::N, p.m = cs.m, p.n = cs.n, p.k = cs.k;
    p.a = buffers.a.get(), p.lda = lda, p.b = buffers.b.get(), p.ldb = ldb, p.ldc = ldc;
    p.alpha = cs.alpha, p.beta = cs.beta;
    const std::string why = cannot_implement(nn, p, limits);
    if (!why.empty()) GTEST_SKIP() << why;
    ASSERT_EQ(cannot_implement(*nt, p, limits, RepackPolicy::kAllowed), "");

    const SplitChoice none{1, SplitKMode::kNone};
    const WorkspaceNeeds needs = workspace_size(*nt, p, none);  // B transposed for the twin
    DeviceBuffer<float> repacked(needs.repack_bytes / sizeof(float) + 1);
    Workspace ws;
    ws.repacked = repacked.get(), ws.repack_bytes = needs.repack_bytes;
    DeviceBuffer<float> expected_c(buffers.c.count()), c(buffers.c.count());
    p.c = expected_c.get();
    ASSERT_CUDA(cudaMemcpy(p.c, buffers.c0.get(), c.count() * sizeof(float), cudaMemcpyDeviceToDevice));
    ASSERT_CUDA(run(*nt, p, none, ws, nullptr));
    const std::vector<float> expected = copy_to_host(expected_c);
    ASSERT_FALSE(expected.empty());

    p.c = c.get();
    int differing_launches = 0;
    for (int launch = 0; launch < cs.launches; ++launch) {
      ASSERT_CUDA(cudaMemcpy(p.c, buffers.c0.get(), c.count() * sizeof(float), cudaMemcpyDeviceToDevice));
      ASSERT_CUDA(run(nn, p, none, Workspace{}, nullptr));
      const std::vector<float> got = copy_to_host(c);
      ASSERT_EQ(got.size(), expected.size());
      differing_launches += std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)) != 0;
    }
    EXPECT_EQ(differing_launches, 0) << "of " << cs.launches << " launches differ from " << nt->name;
  }
}

// The streamed tail (StreamKTail, simt_sgemm_tma_streamk.cuh) of every `nt` TMA instance: a problem
// of about 1.5 waves of tiles on this device, K with a partial last k-tile and enough steps that
// tiles fall to two or three blocks (contributors and finishers), against the float64 reference;
// a second launch must give the same C bit for bit (the fix-up adds in a fixed order) and leave
// every tile counter zero, as must a replay of the launch captured into a CUDA Graph; a workspace
// without the tail's part runs the launch without it.
class TmaStreamKTest : public GpuTest, public ::testing::WithParamInterface<size_t> {};

TEST_P(TmaStreamKTest, PartialLastWaveMatchesFloat64AndIsRepeatable) {
  const KernelInstance& kernel = kernel_registry()[GetParam()];
  const KernelConfig& c = kernel.config;
  DeviceLimits limits;
  ASSERT_CUDA(current_device_limits(limits));
  const int tiles_n = 8, tiles_m = (limits.sm_count * 3 / 2 + tiles_n - 1) / tiles_n;
  GemmProblem p;
  p.op_a = Op::N, p.op_b = Op::T, p.m = tiles_m * c.bm, p.n = tiles_n * c.bn, p.k = 520;
  p.lda = p.m, p.ldb = p.n, p.ldc = p.m, p.alpha = 1.0f, p.beta = 0.0f;  // the bare form
  SCOPED_TRACE(::testing::Message() << kernel.name << " m=" << p.m << " n=" << p.n << " k=" << p.k);
  GemmBuffers buffers(size_t(p.lda) * p.k, size_t(p.ldb) * p.k, size_t(p.ldc) * p.n);
  ASSERT_CUDA(buffers.fill(11, true));
  p.a = buffers.a.get(), p.b = buffers.b.get(), p.c = buffers.c.get();
  const std::string why = cannot_implement(kernel, p, limits);
  if (!why.empty()) GTEST_SKIP() << why;

  const SplitChoice none{1, SplitKMode::kNone};
  const StreamKTail tail = streamk_tail(c, launch_params(kernel, p, none));
  if (!streamk_enabled()) GTEST_SKIP() << "AUTOGEMM_STREAMK=0";
  ASSERT_GT(tail.tiles, 0) << "the problem leaves no partial wave";
  ASSERT_LT(int64_t{tail.k_tiles} * tail.tiles / tail.blocks, tail.k_tiles) << "every tile falls to one block";
  const WorkspaceNeeds needs = workspace_size(kernel, p, none);
  ASSERT_TRUE(needs.streamk_optional);
  DeviceBuffer<float> slots(needs.partial_bytes / sizeof(float));
  DeviceBuffer<int> counters(needs.semaphore_count);
  ASSERT_CUDA(cudaMemset(counters.get(), 0, needs.semaphore_count * sizeof(int)));
  Workspace ws;
  ws.partials = slots.get(), ws.partial_bytes = needs.partial_bytes;
  ws.semaphores = counters.get(), ws.semaphore_count = needs.semaphore_count;

  DeviceBuffer<double> ref(size_t(p.m) * p.n);
  ASSERT_CUDA(reference_gemm_f64(p.op_a, p.op_b, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta,
                                 buffers.c0.get(), p.ldc, ref.get(), nullptr));
  ASSERT_CUDA(run(kernel, p, none, ws, nullptr));
  ASSERT_CUDA(cudaDeviceSynchronize());
  const double err = relative_error(p.c, p.ldc, ref.get(), p.m, p.n, nullptr);
  EXPECT_LE(err, error_bound(p.k)) << "relative error " << err;
  const std::vector<float> first = copy_to_host(buffers.c);

  ASSERT_CUDA(fill_nan(p.c, buffers.c.count(), nullptr));
  ASSERT_CUDA(run(kernel, p, none, ws, nullptr));
  const std::vector<float> second = copy_to_host(buffers.c);
  ASSERT_EQ(first.size(), second.size());
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0) << "two launches differ";
  std::vector<int> left(needs.semaphore_count);
  ASSERT_CUDA(cudaMemcpy(left.data(), counters.get(), left.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int v : left) ASSERT_EQ(v, 0) << "a tile counter was left raised";

  // Captured into a CUDA Graph (the tail is a programmatic dependent launch): the same C again.
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_CUDA(fill_nan(p.c, buffers.c.count(), nullptr));
  ASSERT_CUDA(cudaDeviceSynchronize());
  cudaError_t launched = cudaSuccess;
  const cudaError_t replayed = run_captured(stream, [&] { launched = run(kernel, p, none, ws, stream); });
  cudaStreamDestroy(stream);
  ASSERT_CUDA(launched);
  ASSERT_CUDA(replayed);
  const std::vector<float> from_graph = copy_to_host(buffers.c);
  EXPECT_EQ(std::memcmp(first.data(), from_graph.data(), first.size() * sizeof(float)), 0)
      << "the graph's replay differs from a direct launch";

  // The tail's part of the workspace is optional: without it the launch runs every tile whole.
  ASSERT_CUDA(fill_nan(p.c, buffers.c.count(), nullptr));
  ASSERT_CUDA(run(kernel, p, none, Workspace{}, nullptr));
  ASSERT_CUDA(cudaDeviceSynchronize());
  const double err_without = relative_error(p.c, p.ldc, ref.get(), p.m, p.n, nullptr);
  EXPECT_LE(err_without, error_bound(p.k)) << "without the tail: relative error " << err_without;
}

INSTANTIATE_TEST_SUITE_P(SimtSgemmTma, TmaKMajorBTest, ::testing::ValuesIn(tma_instances(true)), instance_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TmaKMajorBTest);
INSTANTIATE_TEST_SUITE_P(SimtSgemmTma, TmaStreamKTest, ::testing::ValuesIn(tma_instances(false)), instance_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TmaStreamKTest);

}  // namespace
}  // namespace autogemm::testing
