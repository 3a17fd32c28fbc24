// The float64 reference itself: the tiled form that every check uses gives the one-thread-per-output
// form's results bit for bit (both sum each output's products in order of k, one FMA each), on odd
// sizes that leave partial tiles and slices, in every layout, with beta.
#include <vector>

#include "check.hpp"
#include "gpu_test.hpp"

namespace autogemm::testing {
namespace {

class ReferenceTest : public GpuTest {};

TEST_F(ReferenceTest, TiledFormEqualsTheNaiveFormInEveryLayout) {
  struct Case {
    int m, n, k;
    double beta;
  };
  const Case cases[] = {{1, 1, 1, 0.0}, {65, 63, 17, 0.0}, {127, 130, 33, -0.5}, {200, 7, 300, 1.0}, {64, 64, 0, 2.0}};
  for (const Case& cs : cases)
    for (const Op op_a : {Op::N, Op::T})
      for (const Op op_b : {Op::N, Op::T}) {
        // Leading dimensions past the stored extent, as a BLAS caller may pass.
        const int64_t lda = (op_a == Op::N ? cs.m : cs.k) + 3, ldb = (op_b == Op::N ? cs.k : cs.n) + 5, ldc = cs.m + 1;
        DeviceBuffer<float> a(size_t(lda) * (op_a == Op::N ? cs.k : cs.m) + 1),
            b(size_t(ldb) * (op_b == Op::N ? cs.n : cs.k) + 1), c0(size_t(ldc) * cs.n);
        DeviceBuffer<double> tiled(size_t(cs.m) * cs.n), naive(size_t(cs.m) * cs.n);
        ASSERT_CUDA(fill_uniform(a.get(), a.count(), 11, nullptr));
        ASSERT_CUDA(fill_uniform(b.get(), b.count(), 12, nullptr));
        ASSERT_CUDA(fill_uniform(c0.get(), c0.count(), 13, nullptr));
        ASSERT_CUDA(reference_gemm_f64(op_a, op_b, cs.m, cs.n, cs.k, 0.75, a.get(), lda, b.get(), ldb, cs.beta,
                                       c0.get(), ldc, tiled.get(), nullptr));
        ASSERT_CUDA(reference_gemm_f64_naive(op_a, op_b, cs.m, cs.n, cs.k, 0.75, a.get(), lda, b.get(), ldb, cs.beta,
                                             c0.get(), ldc, naive.get(), nullptr));
        std::vector<double> t(tiled.count()), r(naive.count());
        ASSERT_CUDA(cudaMemcpy(t.data(), tiled.get(), t.size() * sizeof(double), cudaMemcpyDeviceToHost));
        ASSERT_CUDA(cudaMemcpy(r.data(), naive.get(), r.size() * sizeof(double), cudaMemcpyDeviceToHost));
        size_t differ = 0, nonzero = 0;
        for (size_t i = 0; i < t.size(); ++i) differ += t[i] != r[i], nonzero += r[i] != 0.0;
        EXPECT_EQ(differ, 0u) << cs.m << "x" << cs.n << "x" << cs.k << " " << layout_code(op_a, op_b);
        if (cs.k > 0 || cs.beta != 0.0) {
          EXPECT_GT(nonzero, 0u);  // the comparison saw real values
        }
      }
}

}  // namespace
}  // namespace autogemm::testing
