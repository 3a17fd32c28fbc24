// Every tensor-core (wgmma) instance, and every GEMV instance of BF16/FP16 operands (outputs at most
// 4 wide, any sizes: it reads A in 16-byte vectors where they fit, B and C element by element), against
// the float64 reference computed from the same BF16/FP16
// (or FP32, for the TF32 and 3xTF32 instances, in every layout and with leading dimensions TMA
// cannot read: their operands' K-major copies; a TF32 register-A instance in every layout of an
// M-major A) inputs: sizes that are multiples of no tile (odd where the layout allows:
// wgmma_extent_rule), alpha/beta with beta = 0 over NaN, leading dimensions above the minimum
// (multiples of 8 elements, as TMA needs), NaN in the padding rows of every operand and of C (none
// may reach C, and C's must stay NaN: nothing written out of bounds), the stream-K schedule unsplit
// and split, the split-K schedule's batches. The bound is error_bound's: the FP32 sum's plus the
// output type's rounding.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <tuple>
#include <vector>

#include "check.hpp"
#include "gpu_test.hpp"
#include "operation.hpp"
#include "registry.hpp"
#include "untuned_choice.hpp"

namespace autogemm::testing {
namespace {

std::vector<size_t> typed_indices() {
  std::vector<size_t> out;
  const auto& reg = kernel_registry();
  for (size_t i = 0; i < reg.size(); ++i)
    if (reg[i].config.is_wgmma() || (reg[i].config.is_gemv() && reg[i].config.types != kF32Types)) out.push_back(i);
  return out;
}

// Under the sanitizer: the first instance of each (family, types, arithmetic, layout, schedule, C's
// order) class.
bool in_covering_subset(size_t index) {
  static const std::set<size_t> subset = [] {
    std::set<size_t> picked;
    std::set<std::tuple<int, int, int, int, int, int, int, bool>> seen;
    for (size_t i : typed_indices()) {
      const KernelConfig& c = kernel_registry()[i].config;
      if (seen.insert({static_cast<int>(c.family), static_cast<int>(c.types.a), static_cast<int>(c.types.c),
                       static_cast<int>(c.types.compute), static_cast<int>(c.op_a), static_cast<int>(c.op_b),
                       static_cast<int>(c.schedule), c.c_row_major})
              .second)
        picked.insert(i);
    }
    return picked;
  }();
  return subset.count(index) > 0;
}

// Whether a stored element of `type` is a NaN (the poison of padding rows: all bits set).
bool is_nan_bits(const unsigned char* p, DataType type) {
  if (type == DataType::kF32) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu) != 0;
  }
  uint16_t v;
  std::memcpy(&v, p, 2);
  if (type == DataType::kBF16) return (v & 0x7f80u) == 0x7f80u && (v & 0x7fu) != 0;
  return (v & 0x7c00u) == 0x7c00u && (v & 0x3ffu) != 0;
}

// Sets rows [rows, ld) of a column-major matrix of `cols` columns to all-ones bytes (NaN in each type).
cudaError_t poison_rows(void* matrix, int64_t ld, int rows, int cols, int bytes) {
  if (ld <= rows || cols <= 0) return cudaSuccess;
  return cudaMemset2D(static_cast<char*>(matrix) + static_cast<size_t>(rows) * bytes, static_cast<size_t>(ld) * bytes,
                      0xff, static_cast<size_t>(ld - rows) * bytes, static_cast<size_t>(cols));
}

class TypedInstanceTest : public GpuTest, public ::testing::WithParamInterface<size_t> {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    DeviceLimits limits;
    ASSERT_CUDA(current_device_limits(limits));
    if (kernel().config.is_wgmma() && !(limits.cc_major == 9 && limits.cc_minor == 0))
      GTEST_SKIP() << "wgmma instances need sm_90a";
    if (sanitizer_mode() && !in_covering_subset(GetParam())) GTEST_SKIP() << "not in the sanitizer's covering subset";
  }

  const KernelInstance& kernel() const { return kernel_registry()[GetParam()]; }

  // The problem in the instance's own layout: an instance of a row-major C runs it transposed, so
  // its own layout is the transposed problem's (transposed_problem flips both ops and swaps them).
  void check(Case cs, uint64_t seed) {
    const KernelConfig& cfg = kernel().config;
    auto flip = [](Op op) { return op == Op::N ? Op::T : Op::N; };
    check(cs, seed, cfg.c_row_major ? flip(cfg.op_b) : cfg.op_a, cfg.c_row_major ? flip(cfg.op_a) : cfg.op_b, false);
  }

  // `misaligned_ab`: A's and B's leading dimensions one element past the minimum, which TMA cannot
  // read (TF32 and 3xTF32 instances, whose operands go through K-major copies; a register-A
  // instance reads A in place, so only B's).
  void check(Case cs, uint64_t seed, Op op_a, Op op_b, bool misaligned_ab) {
    const KernelConfig& cfg = kernel().config;
    const bool copies = is_tf32_wgmma(cfg), register_a = copies && cfg.op_a == Op::N;
    // A TF32 or 3xTF32 split-K instance (not register-A) writes C through its partials: any m, and
    // a leading dimension of C TMA could not write (one past m).
    const bool c_through_partials = copies && !register_a && cfg.schedule == WgmmaSchedule::kSplitK;
    // The extents the problem's layout stores contiguously are multiples of 16 bytes
    // (wgmma_extent_rule; the API pads other problems, realigned.hpp); the others stay as odd as the
    // case makes them. TF32 and 3xTF32 instances copy A and B, so only C's m is ruled (and k, for
    // a register-A instance).
    // A GEMV instance takes any extents.
    const int vec = cfg.is_gemv() ? 1 : vector_elements(cfg.types.a);
    auto up = [vec](int x) { return (x + vec - 1) / vec * vec; };
    if (!c_through_partials) cs.m = up(cs.m);
    if ((!copies && (op_a == Op::T || op_b == Op::N)) || register_a) cs.k = up(cs.k);
    if (!copies && op_b == Op::T) cs.n = up(cs.n);
    SCOPED_TRACE(::testing::Message() << kernel().name << " " << layout_code(op_a, op_b) << " m=" << cs.m
                                      << " n=" << cs.n << " k=" << cs.k << " alpha=" << cs.alpha << " beta=" << cs.beta
                                      << " splits=" << cs.split.splits << (misaligned_ab ? " misaligned" : ""));
    const int ab = data_type_bytes(cfg.types.a), cb = data_type_bytes(cfg.types.c);
    // Leading dimensions past the minimum, each a multiple of 16 bytes (or one past A's and B's rows).
    auto pad = [](int rows, int bytes) { return (rows + 16 / bytes - 1) / (16 / bytes) * (16 / bytes) + 16 / bytes; };
    const int a_rows = op_a == Op::N ? cs.m : cs.k, a_cols = op_a == Op::N ? cs.k : cs.m;
    const int b_rows = op_b == Op::N ? cs.k : cs.n, b_cols = op_b == Op::N ? cs.n : cs.k;
    const int lda = misaligned_ab && !register_a ? a_rows + 1 : pad(a_rows, ab);
    const int ldb = misaligned_ab ? b_rows + 1 : pad(b_rows, ab);
    const int ldc = c_through_partials ? cs.m + 1 : pad(cs.m, cb);
    const size_t c_bytes = size_t(ldc) * cs.n * cb;
    DeviceBuffer<char> a(size_t(lda) * a_cols * ab), b(size_t(ldb) * b_cols * ab), c(c_bytes), c0(c_bytes);
    DeviceBuffer<double> ref(size_t(cs.m) * cs.n);
    ASSERT_CUDA(fill_uniform(a.get(), size_t(lda) * a_cols, seed * 4 + 1, nullptr, cfg.types.a));
    ASSERT_CUDA(fill_uniform(b.get(), size_t(ldb) * b_cols, seed * 4 + 2, nullptr, cfg.types.b));
    ASSERT_CUDA(fill_uniform(c0.get(), size_t(ldc) * cs.n, seed * 4 + 3, nullptr, cfg.types.c));
    ASSERT_CUDA(poison_rows(a.get(), lda, a_rows, a_cols, ab));
    ASSERT_CUDA(poison_rows(b.get(), ldb, b_rows, b_cols, ab));
    if (cs.beta == 0.0f) {
      ASSERT_CUDA(fill_nan(c.get(), size_t(ldc) * cs.n, nullptr, cfg.types.c));  // beta = 0 must never read C
    } else {
      ASSERT_CUDA(cudaMemcpy(c.get(), c0.get(), c_bytes, cudaMemcpyDeviceToDevice));
      ASSERT_CUDA(poison_rows(c.get(), ldc, cs.m, cs.n, cb));
    }

    GemmProblem p;
    p.op_a = op_a, p.op_b = op_b, p.m = cs.m, p.n = cs.n, p.k = cs.k;
    p.a = a.get(), p.lda = lda, p.b = b.get(), p.ldb = ldb, p.c = c.get(), p.ldc = ldc;
    p.alpha = cs.alpha, p.beta = cs.beta;
    p.types = cfg.types;
    DeviceLimits limits;
    ASSERT_CUDA(current_device_limits(limits));
    ASSERT_EQ(cannot_implement(kernel(), p, limits), "");
    ASSERT_CUDA(reference_gemm_f64(p.op_a, p.op_b, p.m, p.n, p.k, p.alpha, p.a, lda, p.b, ldb, p.beta, c0.get(), ldc,
                                   ref.get(), nullptr, p.types));

    const WorkspaceNeeds needs = workspace_size(kernel(), p, cs.split);
    DeviceBuffer<float> partials((needs.partial_bytes + 3) / sizeof(float));
    DeviceBuffer<float> copies_buffer((needs.repack_bytes + 3) / sizeof(float));
    // A GEMV split counts its row blocks' arrivals (zero before the launch, re-armed by it).
    DeviceBuffer<int> semaphores(needs.semaphore_count);
    if (needs.semaphore_count > 0) {
      ASSERT_CUDA(cudaMemset(semaphores.get(), 0, needs.semaphore_count * sizeof(int)));
    }
    const Workspace ws{partials.get(), needs.partial_bytes, semaphores.get(), needs.semaphore_count,
                       copies_buffer.get(), needs.repack_bytes};
    ASSERT_CUDA(run(kernel(), p, cs.split, ws, nullptr));
    ASSERT_CUDA(cudaDeviceSynchronize());
    if (needs.semaphore_count > 0) {
      std::vector<int> counters(needs.semaphore_count);
      ASSERT_CUDA(cudaMemcpy(counters.data(), semaphores.get(), counters.size() * sizeof(int), cudaMemcpyDeviceToHost));
      EXPECT_EQ(std::count(counters.begin(), counters.end(), 0), static_cast<long>(counters.size()))
          << "the split left its counters armed";
    }

    const double err = relative_error(c.get(), ldc, ref.get(), cs.m, cs.n, nullptr, cfg.types.c);
    EXPECT_LE(err, error_bound(cs.k, p.types)) << "relative error " << err;  // NaN fails too

    std::vector<unsigned char> host(c_bytes);
    ASSERT_CUDA(cudaMemcpy(host.data(), c.get(), c_bytes, cudaMemcpyDeviceToHost));
    int written_outside = 0;
    for (int j = 0; j < cs.n; ++j)
      for (int i = cs.m; i < ldc; ++i) written_outside += !is_nan_bits(&host[(size_t(j) * ldc + i) * cb], cfg.types.c);
    EXPECT_EQ(written_outside, 0) << "elements of C's padding rows were written";
  }
};

TEST_P(TypedInstanceTest, MatchesFloat64Reference) {
  const SplitChoice none{1, SplitKMode::kNone};
  if (kernel().config.is_gemv()) {
    // Outputs 1-4 wide, odd rows and K (A's vectors and its scalar edges), alpha/beta, K split into
    // partials reduced in the launch.
    const std::vector<Case> cases = {
        {1, 1, 1, 1.0f, 0.0f, none},          {7, 3, 5, 1.5f, 0.0f, none},           {129, 4, 33, 1.5f, -0.75f, none},
        {97, 2, 300, -1.0f, 0.0f, none},      {1000, 1, 1000, 1.0f, 0.0f, none},     {389, 4, 72, 1.0f, 0.25f, none},
        {3001, 1, 1531, 1.0f, 0.0f, none},    {133, 3, 2777, 0.5f, 0.5f, {5, SplitKMode::kParallel}},
        {300, 2, 4096, 1.0f, 0.0f, {8, SplitKMode::kParallel}},
    };
    uint64_t seed = GetParam() * 131;
    for (const Case& cs : cases) {
      check(cs, ++seed);
      if (HasFatalFailure()) return;
    }
    return;
  }
  std::vector<Case> cases = {
      {1, 1, 1, 1.0f, 0.0f, none},          {7, 13, 5, 1.5f, 0.0f, none},     {129, 65, 33, 1.5f, -0.75f, none},
      {97, 211, 300, -1.0f, 0.0f, none},    {1000, 1000, 1000, 1.0f, 0.0f, none},
      {389, 397, 72, 1.0f, 0.25f, none},    {256, 512, 128, 1.0f, 0.0f, none},  // whole tiles only
      {133, 71, 2777, 0.5f, 0.5f, none},
  };
  if (kernel().config.schedule == WgmmaSchedule::kStreamK) {
    cases.push_back({133, 71, 2777, 0.5f, 0.0f, {5, SplitKMode::kParallel}});
    cases.push_back({300, 200, 4096, 1.0f, 0.5f, {8, SplitKMode::kParallel}});
  }
  if (kernel().config.schedule == WgmmaSchedule::kSplitK) {
    // Batches of 600, 512 and 128 of K; 2777 has no equal cut in the layouts that keep it odd (one
    // batch). Where a TF32 instance copies both operands their K is padded to 64 (3xTF32: three
    // times that), which the asked count, or the largest below it, cuts.
    cases.push_back({136, 72, 3000, 0.5f, 0.0f, {5, SplitKMode::kParallel}});
    cases.push_back({300, 200, 4096, 1.0f, 0.5f, {8, SplitKMode::kParallel}});
    cases.push_back({64, 64, 8192, 1.0f, 0.0f, {64, SplitKMode::kParallel}});
    cases.push_back({133, 71, 2777, 0.5f, 0.5f, {5, SplitKMode::kParallel}});
  }
  uint64_t seed = GetParam() * 131;
  for (const Case& cs : cases) {
    if (sanitizer_mode() && cs.m * cs.n * cs.k > 100'000'000) continue;
    check(cs, ++seed);
    if (HasFatalFailure()) return;
  }
  if (!is_tf32_wgmma(kernel().config)) return;
  // TF32 and 3xTF32 instances take every layout, and leading dimensions TMA cannot read, through
  // their K-major copies (the split-K schedule's batches cut the copies' K: 4 of 128, or of 384 for
  // 3xTF32's three parts); a register-A instance every layout of an M-major A (op N).
  std::vector<Case> layout_cases = {{129, 65, 33, 1.5f, -0.75f, none}, {97, 211, 301, -1.0f, 0.0f, none}};
  if (kernel().config.schedule == WgmmaSchedule::kSplitK)
    layout_cases.push_back({131, 67, 512, 0.5f, 0.5f, {4, SplitKMode::kParallel}});
  for (Op op_a : {Op::N, Op::T})
    for (Op op_b : {Op::N, Op::T})
      for (bool misaligned : {false, true})
        for (const Case& cs : layout_cases) {
          if (kernel().config.op_a == Op::N && op_a != Op::N) continue;
          check(cs, ++seed, op_a, op_b, misaligned);
          if (HasFatalFailure()) return;
        }
}


// The resource pruning the tuner and the runtime apply: each instance fits one block per SM, and a
// cluster instance's 2-block clusters are co-scheduled (cudaOccupancyMaxActiveClusters), about one
// per pair of SMs; an instance without clusters answers -1.
TEST_P(TypedInstanceTest, OccupancyAndClustersFitTheDevice) {
  const KernelConfig& c = kernel().config;
  if (!c.is_wgmma()) GTEST_SKIP() << "a GEMV block is no persistent wgmma block";
  EXPECT_EQ(query_occupancy(kernel()), 1);
  const int clusters = query_active_clusters(kernel());
  DeviceLimits limits;
  ASSERT_CUDA(current_device_limits(limits));
  if (c.cluster_m * c.cluster_n == 1) {
    EXPECT_EQ(clusters, -1);
  } else {
    EXPECT_GE(clusters, limits.sm_count / 2 - 8) << "clusters of " << c.cluster_m << "x" << c.cluster_n;
    EXPECT_LE(clusters, limits.sm_count / 2);
  }
}

// A build without the family has no instance to run (a placeholder keeps gtest from calling that
// an uninstantiated suite).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TypedInstanceTest);
INSTANTIATE_TEST_SUITE_P(Typed, TypedInstanceTest, ::testing::ValuesIn(typed_indices()), instance_name);

}  // namespace
}  // namespace autogemm::testing
