// Repacked operands (operation.hpp, RepackPlan): an X-major instance runs problems whose operands are
// K-major through transposed copies in the workspace. Each case against the float64 reference, with
// odd extents, leading dimensions above the minimum, misaligned bases where the copies make up for
// them, beta = 0 over a NaN-poisoned C, and a parallel split-k after the copies.
#include <cmath>
#include <string>
#include <vector>

#include "check.hpp"
#include "gpu_test.hpp"
#include "operation.hpp"
#include "registry.hpp"

namespace autogemm::testing {
namespace {

// The first compiled GEMM instance with an N-major B of op_a, alignment class `align` and `residues`,
// or null.
const KernelInstance* b_n_major_instance(Op op_a, int align, int residues) {
  for (const KernelInstance& k : kernel_registry())
    if (!k.config.is_gemv() && k.config.op_a == op_a && k.config.op_b == Op::T && k.config.align == align &&
        k.config.residues == residues)
      return &k;
  return nullptr;
}

struct RepackCase {
  Op op_a, op_b;
  int m, n, k;
  int ld_extra;   // added to each operand's minimum leading dimension
  int shift;      // floats past 16-byte alignment of A's and B's bases
  int align;      // alignment class of the nt instance to run
  float alpha, beta;
  SplitChoice split;
  const char* repacked;  // what repack_plan must say
  int residues = 1;      // KernelConfig::residues of the instance: nt, or tt for a K-major A (of M)
};

class RepackTest : public GpuTest {
 protected:
  void check(const RepackCase& cs, uint64_t seed) {
    // Residue instances read A as it is (nt for residues of K, tt for residues of M), the others X-major.
    const Op kernel_op_a = cs.residues > 1 ? cs.op_a : Op::N;
    const KernelInstance* kernel = b_n_major_instance(kernel_op_a, cs.align, cs.residues);
    if (kernel == nullptr)
      GTEST_SKIP() << "no " << layout_code(kernel_op_a, Op::T) << " align" << cs.align << " instance with "
                   << cs.residues << " residues in this build";
    SCOPED_TRACE(::testing::Message() << kernel->name << " problem " << layout_code(cs.op_a, cs.op_b) << " m=" << cs.m
                                      << " n=" << cs.n << " k=" << cs.k << " splits=" << cs.split.splits);
    const int64_t lda = (cs.op_a == Op::N ? cs.m : cs.k) + cs.ld_extra;
    const int64_t ldb = (cs.op_b == Op::N ? cs.k : cs.n) + cs.ld_extra;
    const int64_t ldc = cs.m + 3;
    const size_t a_elems = size_t(lda) * (cs.op_a == Op::N ? cs.k : cs.m) + cs.shift;
    const size_t b_elems = size_t(ldb) * (cs.op_b == Op::N ? cs.n : cs.k) + cs.shift;
    const size_t c_elems = size_t(ldc) * cs.n;
    GemmBuffers buffers(a_elems, b_elems, c_elems);
    const auto& [a, b, c, c0] = buffers;
    DeviceBuffer<double> ref(size_t(cs.m) * cs.n);
    ASSERT_CUDA(buffers.fill(seed, cs.beta == 0.0f));  // beta = 0 must never read C
    if (cs.residues > 1) {  // A's padding, which the residues' aligned copies read, is NaN
      ASSERT_CUDA(poison_padding(a.get() + cs.shift, lda, cs.op_a == Op::N ? cs.m : cs.k,
                                 cs.op_a == Op::N ? cs.k : cs.m));
    }

    GemmProblem p;
    p.op_a = cs.op_a, p.op_b = cs.op_b, p.m = cs.m, p.n = cs.n, p.k = cs.k;
    p.a = a.get() + cs.shift, p.lda = lda, p.b = b.get() + cs.shift, p.ldb = ldb, p.c = c.get(), p.ldc = ldc;
    p.alpha = cs.alpha, p.beta = cs.beta;
    ASSERT_STREQ(repacked_operands(repack_plan(kernel->config, p)), cs.repacked);
    DeviceLimits limits;
    ASSERT_CUDA(current_device_limits(limits));
    ASSERT_EQ(cannot_implement(*kernel, p, limits, RepackPolicy::kAllowed), "");
    ASSERT_CUDA(reference_gemm_f64(p.op_a, p.op_b, p.m, p.n, p.k, p.alpha, p.a, lda, p.b, ldb, p.beta, c0.get(), ldc,
                                   ref.get(), nullptr));

    const WorkspaceNeeds needs = workspace_size(*kernel, p, cs.split);
    ASSERT_EQ(needs.repack_bytes > 0, std::string(cs.repacked) != "none");
    DeviceBuffer<float> partials(needs.partial_bytes / sizeof(float)), repacked(needs.repack_bytes / sizeof(float));
    Workspace ws{partials.get(), needs.partial_bytes, nullptr, 0, repacked.get(), needs.repack_bytes};
    // A workspace without room for the copies or the partials is refused, not overrun.
    Workspace small = ws;
    (needs.repack_bytes > 0 ? small.repack_bytes : small.partial_bytes) -= sizeof(float);
    EXPECT_EQ(run(*kernel, p, cs.split, small, nullptr), cudaErrorInvalidValue);
    ASSERT_CUDA(run(*kernel, p, cs.split, ws, nullptr));
    ASSERT_CUDA(cudaDeviceSynchronize());

    const double err = relative_error(c.get(), ldc, ref.get(), cs.m, cs.n, nullptr);
    EXPECT_LE(err, error_bound(cs.k)) << "relative error " << err;  // NaN fails too

    // The padding rows of C stay as they were (NaN when beta = 0, else C0's values).
    std::vector<float> host(c_elems), host0(c_elems);
    ASSERT_CUDA(cudaMemcpy(host.data(), c.get(), c_elems * sizeof(float), cudaMemcpyDeviceToHost));
    ASSERT_CUDA(cudaMemcpy(host0.data(), c0.get(), c_elems * sizeof(float), cudaMemcpyDeviceToHost));
    int written_outside = 0;
    for (int j = 0; j < cs.n; ++j)
      for (int64_t i = cs.m; i < ldc; ++i) {
        const float v = host[size_t(j) * ldc + i];
        written_outside += cs.beta == 0.0f ? !std::isnan(v) : v != host0[size_t(j) * ldc + i];
      }
    EXPECT_EQ(written_outside, 0) << "elements of C's padding rows were written";
  }
};

TEST_F(RepackTest, XMajorInstancesRunKMajorOperandsThroughCopies) {
  const SplitChoice none{1, SplitKMode::kNone};
  const std::vector<RepackCase> cases = {
      // tn, odd leading dimensions and misaligned bases: both operands copied, so align4 runs it.
      {Op::T, Op::N, 2049, 2051, 37, 3, 1, 4, 1.5f, -0.75f, none, "A+B"},
      // nn: B copied, then a parallel split-k with its reduction.
      {Op::N, Op::N, 2052, 2050, 300, 4, 0, 4, 1.0f, 0.0f, {3, SplitKMode::kParallel}, "B"},
      // tt: A copied.
      {Op::T, Op::T, 2051, 2048, 45, 4, 0, 4, -1.0f, 0.5f, none, "A"},
      // nn with a misaligned A, read in place by a scalar-class instance; B copied.
      {Op::N, Op::N, 2049, 2047, 33, 1, 1, 1, 1.0f, 0.0f, none, "B"},
  };
  uint64_t seed = 7;
  for (const RepackCase& cs : cases) {
    check(cs, ++seed);
    if (HasFatalFailure() || IsSkipped()) return;
  }
}

// Residue instances (KernelConfig::residues) on an A with lda = 1, 2 and 3 (mod 4) and A's padding
// NaN, the same cases for both kinds: op_a N runs residues of K (nt instances), op_a T residues of M
// (tt instances, residues_of_m). B read in place when aligned, re-pitched when N-major with an odd
// ldb, transposed when K-major; K from 3 (residues of K: residue 3 empty; of M: a residue's first
// tile is also its last, head and tail cut in one tile) up; M from 1 (of M: residues 1-3 empty); 4 to
// 20 planes (the reductions keep up to 4 splits per residue in flight at once and loop over more:
// both forms); C beta-scaled or NaN-poisoned.
std::vector<RepackCase> residue_cases(Op op_a) {
  const SplitChoice none{1, SplitKMode::kNone};
  return {
      // 127x3001x1531 row-major `nt` / `tt`, the problem they exist for: ldb 127 re-pitched.
      {op_a, Op::T, 3001, 127, 1531, 0, 0, 4, 1.0f, 0.0f, none, "B", kResidues},
      {op_a, Op::T, 131, 68, 5, 0, 0, 4, 1.0f, 0.5f, {8, SplitKMode::kParallel}, "none", kResidues},
      {op_a, Op::N, 2049, 33, 77, 1, 0, 4, -0.5f, -0.75f, {8, SplitKMode::kParallel}, "B", kResidues},
      {op_a, Op::T, 2051, 129, 3, 0, 0, 4, 1.0f, 0.0f, none, "B", kResidues},
      {op_a, Op::T, 1, 16, 9, 0, 0, 4, 2.0f, 0.0f, none, "none", kResidues},
      {op_a, Op::T, 37, 199, 1000, 1, 0, 4, 1.5f, 0.25f, {12, SplitKMode::kParallel}, "none", kResidues},
      // Residues of K: 600 columns per residue, 4 and 5 non-empty splits of each (16 and 20 planes).
      {op_a, Op::T, 37, 67, 2401, 1, 0, 4, 1.0f, 0.5f, {16, SplitKMode::kParallel}, "none", kResidues},
      {op_a, Op::T, 37, 67, 2401, 1, 0, 4, -1.0f, 0.0f, {20, SplitKMode::kParallel}, "none", kResidues},
  };
}

TEST_F(RepackTest, ResidueInstancesOfKReadMMajorOddLdaWithAlignedCopies) {
  uint64_t seed = 70;
  for (const RepackCase& cs : residue_cases(Op::N)) {
    check(cs, ++seed);
    if (HasFatalFailure() || IsSkipped()) return;
  }
}

TEST_F(RepackTest, ResidueInstancesOfMReadKMajorOddLdaWithAlignedCopies) {
  uint64_t seed = 90;
  for (const RepackCase& cs : residue_cases(Op::T)) {
    check(cs, ++seed);
    if (HasFatalFailure() || IsSkipped()) return;
  }
}

}  // namespace
}  // namespace autogemm::testing
