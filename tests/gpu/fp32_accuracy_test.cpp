// 3xTF32's accuracy (docs/accuracy.md), on every kind of data at K = 1000 and 65536 on a 256 x 256
// output (4 tiles: the runtime runs 3xTF32 there in splits of at most kEmulatedSplitSum of its 3 K,
// or its instance's most splits), in the fewest splits the runtime allows: its worst error relative
// to Σ|a·b| is within 2x that of cuBLAS pedantic SGEMM on the same inputs (issue 48's bound; the
// H200's accuracy table: 0.36-1.77x) and within 2x that of autogemm's CUDA-core FP32 kernel, and
// TF32's is far above both (a 3xTF32 kernel that summed one TF32 product, or lost its promotion, fails).
#include <algorithm>

#include "cublas_sgemm.hpp"
#include "fp32_accuracy.hpp"
#include "gpu_test.hpp"

namespace autogemm::testing {
namespace {

class Fp32AccuracyTest : public GpuTest, public ::testing::WithParamInterface<AccuracyData> {};

TEST_P(Fp32AccuracyTest, ThreeTf32WithinTwiceCublasPedanticError) {
  const GemmTypes emulated{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::k3xTF32};
  const GemmTypes tf32{DataType::kF32, DataType::kF32, DataType::kF32, ComputeType::kTF32};
  constexpr int kSize = 256;
  CublasGemm cublas(nullptr);
  uint64_t seed = 700 + static_cast<int>(GetParam()) * 10;
  for (int k : {1000, 65536}) {
    if (sanitizer_mode() && k > 1000) continue;
    SCOPED_TRACE(::testing::Message() << accuracy_data_name(GetParam()) << " k=" << k);
    const AccuracyProblem problem(GetParam(), kSize, kSize, k, ++seed);
    std::string kernel;
    const int splits = run_with_arithmetic(problem, emulated, nullptr, 0, &kernel);
    if (splits == 0) GTEST_SKIP() << "no 3xTF32 instance compiled for this device";
    const AccuracyResult ours = problem.error();
    ASSERT_GT(run_with_arithmetic(problem, kF32Types, nullptr), 0);
    const AccuracyResult fp32 = problem.error();
    ColumnMajorProblem cm;
    cm.m = cm.n = kSize, cm.k = k, cm.lda = cm.ldc = kSize, cm.ldb = k;
    cm.types = kF32Types;
    cublas(cm, 1.0f, problem.a(), problem.b(), 0.0f, problem.c());
    const AccuracyResult pedantic = problem.error();
    EXPECT_LE(ours.worst, 2 * pedantic.worst) << kernel << " in " << splits << " split(s): worst " << ours.worst
                                              << ", cuBLAS pedantic " << pedantic.worst;
    EXPECT_LE(ours.worst, 2 * fp32.worst) << kernel << ": worst " << ours.worst << ", FP32 kernel " << fp32.worst;
    ASSERT_GT(run_with_arithmetic(problem, tf32, nullptr), 0);
    EXPECT_GT(problem.error().worst, 4 * std::max(ours.worst, pedantic.worst)) << "TF32 as accurate as 3xTF32?";
  }
}

INSTANTIATE_TEST_SUITE_P(Data, Fp32AccuracyTest, ::testing::ValuesIn(kAccuracyData),
                         [](const auto& info) { return std::string(accuracy_data_name(info.param)); });

}  // namespace
}  // namespace autogemm::testing
