// Every compiled kernel instance against the float64 reference: odd sizes and sizes that are
// multiples of no tile, alpha/beta with beta = 0 over NaN, leading dimensions above the minimum,
// misaligned bases for scalar-class instances, both split-k reductions (and the residue planes'
// reduction of residue instances, run on odd lda), NaN in the padding rows of a K-major B, GEMV
// instances on outputs at most 4 rows tall (run as the transpose). The
// output is NaN-poisoned beforehand, and the padding rows of C must still be NaN afterwards
// (nothing written out of bounds).
#include <cmath>
#include <cstdlib>
#include <set>
#include <tuple>
#include <vector>

#include "check.hpp"
#include "gpu_test.hpp"
#include "operation.hpp"
#include "registry.hpp"

namespace autogemm::testing {
namespace {

// Under the sanitizer (sanitizer_mode): test only the first instance of each (family, layout,
// alignment, stages, copy path of A and of B, k-slices) class, and skip the 1000^3 case. That still
// covers every layout, alignment class, stage count, split-k path, the four copy paths of an operand
// (cp.async by whole rows or not, copies_whole_rows; the transposing copy through registers,
// KernelConfig::transposes_a / transposes_b; the scalar class's copy-transposing cp.async,
// copy_transposes_a / copy_transposes_b) and the sliced-K exchange.
bool in_covering_subset(size_t index) {
  static const std::set<size_t> subset = [] {
    std::set<size_t> picked;
    std::set<std::tuple<int, int, int, int, int, int, int, int, int>> seen;
    const auto& reg = kernel_registry();
    for (size_t i = 0; i < reg.size(); ++i) {
      const KernelConfig& c = reg[i].config;
      const bool gemm = !c.is_gemv();
      // Copy path per operand: 0 / 1 cp.async (whole rows per pass or not), 2 transposing through
      // registers, 3 copy-transposing (scalar class).
      auto path = [&](int x, bool k_major, bool transposed, bool copy_transposed) {
        if (!gemm) return 0;
        if (transposed) return 2;
        if (copy_transposed) return 3;
        return copies_whole_rows(x, c.bk, k_major, c.align, c.threads()) ? 1 : 0;
      };
      const int a_path = path(c.bm, a_is_k_major(c.op_a), c.transposes_a(), c.copy_transposes_a());
      const int b_path = path(c.bn, b_is_k_major(c.op_b), c.transposes_b(), c.copy_transposes_b());
      if (seen.insert({static_cast<int>(c.family), static_cast<int>(c.op_a), static_cast<int>(c.op_b), c.align,
                       c.stages, a_path, b_path, c.slices, c.residues})
              .second)
        picked.insert(i);
    }
    return picked;
  }();
  return subset.count(index) > 0;
}

class InstanceTest : public GpuTest, public ::testing::WithParamInterface<size_t> {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (!IsSkipped() && sanitizer_mode() && !in_covering_subset(GetParam()))
      GTEST_SKIP() << "not in the sanitizer's covering subset";
  }

  const KernelInstance& kernel() const { return kernel_registry()[GetParam()]; }

  // Leading dimension above the minimum: a multiple of 4 for align4 instances (their contract),
  // not a multiple of 4 for scalar ones.
  int pad_ld(int rows, bool scalar) const {
    const int base = std::max(rows, 1);
    if (!scalar) return (base + 3) / 4 * 4 + 4;
    int ld = base + 1;
    if (ld % 4 == 0) ++ld;
    return ld;
  }

  void check(const Case& cs, uint64_t seed) {
    const KernelConfig& cfg = kernel().config;
    SCOPED_TRACE(::testing::Message() << kernel().name << " m=" << cs.m << " n=" << cs.n << " k=" << cs.k
                                      << " alpha=" << cs.alpha << " beta=" << cs.beta << " splits=" << cs.split.splits
                                      << " mode=" << split_mode_name(cs.split.mode));
    // A GEMV instance runs an output wider than kGemvMaxN and at most that tall as its transpose
    // (transposed_problem): the problem's layout is then (flip op_b, flip op_a) of the instance's,
    // its A the instance's vector operand and its B the streamed one.
    const bool transposed = cfg.is_gemv() && cs.n > kGemvMaxN;
    auto flip = [](Op op) { return op == Op::N ? Op::T : Op::N; };
    const Op op_a = transposed ? flip(cfg.op_b) : cfg.op_a, op_b = transposed ? flip(cfg.op_a) : cfg.op_b;
    // GEMV instances read their vector operand with scalar loads whatever their class (cannot_implement):
    // it gets the scalar class's odd ld and unaligned base in every instance.
    // Residue instances (KernelConfig::residues) exist for an lda that is not a multiple of 4, from
    // an aligned base, with B aligned: every case runs as its residue planes (4 or 8 of them), of K
    // (nt) or of M (tt).
    const bool residues = cfg.residues > 1;
    const bool a_scalar = cfg.align == 1 || residues || transposed;
    const bool b_scalar = transposed ? cfg.align == 1 : cfg.align == 1 || cfg.is_gemv();
    const int lda = pad_ld(op_a == Op::N ? cs.m : cs.k, a_scalar);
    const int ldb = pad_ld(op_b == Op::N ? cs.k : cs.n, b_scalar);
    const int ldc = pad_ld(cs.m, cfg.align == 1);
    // Scalar-class operands get bases one float past 16-byte alignment (residue instances' A is aligned).
    const int shift = cfg.align == 1 || transposed ? 1 : 0;
    const int b_shift = b_scalar ? 1 : 0;
    const size_t a_elems = size_t(lda) * (op_a == Op::N ? cs.k : cs.m) + shift;
    const size_t b_elems = size_t(ldb) * (op_b == Op::N ? cs.n : cs.k) + b_shift;
    const size_t c_elems = size_t(ldc) * cs.n;
    GemmBuffers buffers(a_elems, b_elems, c_elems);
    const auto& [a, b, c, c0] = buffers;
    DeviceBuffer<double> ref(size_t(cs.m) * cs.n);
    ASSERT_CUDA(buffers.fill(seed, cs.beta == 0.0f));  // beta = 0 must never read C
    if (residues) {  // A's padding, which the residues' aligned copies read, is NaN
      const bool m_major = op_a == Op::N;
      ASSERT_CUDA(poison_padding(a.get() + shift, lda, m_major ? cs.m : cs.k, m_major ? cs.k : cs.m));
    }
    if (b_is_k_major(op_b)) {
      // A K-major B's padding rows are NaN: none may reach C (a TMA box of B zero-fills what lies
      // past k, the copies of the other families stop at k).
      ASSERT_CUDA(poison_padding(b.get() + b_shift, ldb, cs.k, cs.n));
    }
    if (cs.beta != 0.0f) {
      // Poison the padding rows so an out-of-bounds write shows up as a changed NaN.
      std::vector<float> host(c_elems);
      ASSERT_CUDA(cudaMemcpy(host.data(), c.get(), c_elems * sizeof(float), cudaMemcpyDeviceToHost));
      for (int j = 0; j < cs.n; ++j)
        for (int i = cs.m; i < ldc; ++i) host[size_t(j) * ldc + i] = std::nanf("");
      ASSERT_CUDA(cudaMemcpy(c.get(), host.data(), c_elems * sizeof(float), cudaMemcpyHostToDevice));
    }

    GemmProblem p;
    p.op_a = op_a, p.op_b = op_b, p.m = cs.m, p.n = cs.n, p.k = cs.k;
    p.a = a.get() + shift, p.lda = lda, p.b = b.get() + b_shift, p.ldb = ldb, p.c = c.get(), p.ldc = ldc;
    p.alpha = cs.alpha, p.beta = cs.beta;
    ASSERT_EQ(alignment_class(p), !a_scalar && !b_scalar ? 4 : 1);
    DeviceLimits limits;
    ASSERT_CUDA(current_device_limits(limits));
    ASSERT_EQ(cannot_implement(kernel(), p, limits), "");
    ASSERT_CUDA(reference_gemm_f64(p.op_a, p.op_b, p.m, p.n, p.k, p.alpha, p.a, lda, p.b, ldb, p.beta, c0.get(), ldc,
                                   ref.get(), nullptr));

    const WorkspaceNeeds needs = workspace_size(kernel(), p, cs.split);
    DeviceBuffer<float> partials(needs.partial_bytes / sizeof(float));
    DeviceBuffer<int> semaphores(needs.semaphore_count);
    if (needs.semaphore_count > 0) {
      ASSERT_CUDA(cudaMemset(semaphores.get(), 0, needs.semaphore_count * sizeof(int)));
    }
    const Workspace ws{partials.get(), needs.partial_bytes, semaphores.get(), needs.semaphore_count};
    ASSERT_CUDA(run(kernel(), p, cs.split, ws, nullptr));
    ASSERT_CUDA(cudaDeviceSynchronize());

    const double err = relative_error(c.get(), ldc, ref.get(), cs.m, cs.n, nullptr);
    EXPECT_LE(err, error_bound(cs.k)) << "relative error " << err;  // NaN fails too

    std::vector<float> host(c_elems);
    ASSERT_CUDA(cudaMemcpy(host.data(), c.get(), c_elems * sizeof(float), cudaMemcpyDeviceToHost));
    int written_outside = 0;
    for (int j = 0; j < cs.n; ++j)
      for (int i = cs.m; i < ldc; ++i) written_outside += !std::isnan(host[size_t(j) * ldc + i]);
    EXPECT_EQ(written_outside, 0) << "elements of C's padding rows were written";

    if (needs.semaphore_count > 0) {  // serial split-k must leave its counters zero for the next launch
      std::vector<int> sem(needs.semaphore_count);
      ASSERT_CUDA(cudaMemcpy(sem.data(), semaphores.get(), sem.size() * sizeof(int), cudaMemcpyDeviceToHost));
      for (int v : sem) ASSERT_EQ(v, 0);
    }
  }
};

TEST_P(InstanceTest, MatchesFloat64Reference) {
  const SplitChoice none{1, SplitKMode::kNone};
  const std::vector<Case> gemm_cases = {
      {1, 1, 1, 1.0f, 0.0f, none},         {7, 13, 5, 1.5f, 0.0f, none},      {129, 65, 33, 1.5f, -0.75f, none},
      {97, 211, 300, -1.0f, 0.0f, none},   {1000, 1000, 1000, 1.0f, 0.0f, none},
      // Whole tiles of the TMA instances (256x128, 128x256), alpha 1, beta 0, no split, ldc 772:
      // their bare epilogue (bare_epilogue_fits); K with a partial last tile.
      {768, 512, 200, 1.0f, 0.0f, none},
      // Whole interior tiles of every tile shape up to 192 (the unpredicated copies), edges beside them.
      {389, 397, 72, 1.0f, 0.25f, none},
      {133, 71, 777, 0.5f, 0.5f, {3, SplitKMode::kSerial}}, {133, 71, 777, 0.5f, 0.0f, {5, SplitKMode::kParallel}},
      // m a multiple of 4: the partials' columns are 16-byte aligned (float4 stores of X-major A tiles).
      {132, 71, 777, 1.0f, 0.0f, {4, SplitKMode::kParallel}},
  };
  // GEMV instances take n <= kGemvMaxN: every width, M not a multiple of 4 or of the block, K below
  // one step, with a partial last step, and long enough for the unrolled loop; split K with the
  // in-launch reduction (beta too; a serial request runs as parallel).
  const std::vector<Case> gemv_cases = {
      {1, 1, 1, 1.0f, 0.0f, none},          {7, 1, 5, 1.5f, 0.0f, none},         {129, 3, 33, 1.5f, -0.75f, none},
      {97, 4, 300, -1.0f, 0.0f, none},      {1000, 1, 1000, 1.0f, 0.0f, none},   {3001, 1, 1531, 1.0f, 0.0f, none},
      {50, 2, 4100, 1.0f, 0.5f, none},      {133, 2, 777, 0.5f, 0.0f, {5, SplitKMode::kParallel}},
      {3001, 1, 1531, 1.0f, 0.0f, {12, SplitKMode::kParallel}}, {50, 4, 4100, 1.0f, 0.5f, {8, SplitKMode::kParallel}},
      {97, 3, 300, -1.0f, 0.0f, {2, SplitKMode::kSerial}},
      // Outputs at most 4 rows tall and wider than 4: the same kernels on the transposed problem,
      // which writes C row-major (GemmParams::c_transposed), split K too.
      {1, 3001, 1531, 1.0f, 0.0f, none},    {3, 129, 33, 1.5f, -0.75f, none},    {4, 97, 300, -1.0f, 0.0f, none},
      {2, 50, 4100, 1.0f, 0.5f, {8, SplitKMode::kParallel}},                   {1, 3001, 1531, 1.0f, 0.0f, {12, SplitKMode::kParallel}},
  };
  uint64_t seed = GetParam() * 101;
  for (const Case& cs : kernel().config.is_gemv() ? gemv_cases : gemm_cases) {
    if (sanitizer_mode() && cs.m * cs.n * cs.k > 100'000'000) continue;
    check(cs, ++seed);
    if (HasFatalFailure()) return;
  }
}

// The FP32 instances (wgmma_instance_test.cpp checks the tensor-core family).
std::vector<size_t> fp32_indices() {
  std::vector<size_t> out;
  for (size_t i = 0; i < kernel_registry().size(); ++i)
    if (kernel_registry()[i].config.types == kF32Types) out.push_back(i);
  return out;
}

INSTANTIATE_TEST_SUITE_P(SimtSgemm, InstanceTest, ::testing::ValuesIn(fp32_indices()), instance_name);

}  // namespace
}  // namespace autogemm::testing
