// Online mode on a GPU: the first call of an untuned problem tunes it, stores the measurements in
// the first database of the search path, and the result is the same whichever way the kernel was
// chosen — online, from the database it wrote, or by the untuned choice. Stream capture defers
// the tuning to the first call outside capture. Candidates that read repacked operands are measured
// like the others (their copies are part of the workspace the tuning allocates).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "autogemm/autogemm.h"
#include "check.hpp"
#include "gpu_test.hpp"
#include "online_tuner.hpp"
#include "registry.hpp"
#include "tuned_lookup.hpp"
#include "tuning_db.hpp"

namespace autogemm::testing {
namespace {

constexpr int kM = 333, kN = 222, kK = 555;  // odd sizes, nt: no database has them

class OnlineModeTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    char dir[] = "/tmp/autogemm_online_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    db_path_ = dir_ + "/tuning.sqlite3";
    ASSERT_CUDA(fill_uniform(a_.get(), a_.count(), 1, nullptr));
    ASSERT_CUDA(fill_uniform(b_.get(), b_.count(), 2, nullptr));
    ASSERT_CUDA(reference_gemm_f64(Op::N, Op::T, kM, kN, kK, 1.0, a_.get(), kM, b_.get(), kN, 0.0, nullptr, kM,
                                   ref_.get(), nullptr));
    ASSERT_CUDA(cudaDeviceSynchronize());
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
    reset_tuned_lookup();
  }

  autogemmHandle_t make_handle(autogemmMode_t mode) {
    autogemmHandle_t h = nullptr;
    EXPECT_EQ(autogemmCreate(&h), AUTOGEMM_STATUS_SUCCESS) << autogemmGetLastErrorMessage();
    EXPECT_EQ(autogemmSetDatabasePath(h, db_path_.c_str()), AUTOGEMM_STATUS_SUCCESS);
    EXPECT_EQ(autogemmSetMode(h, mode), AUTOGEMM_STATUS_SUCCESS);
    return h;
  }

  // One call with C poisoned first; returns C on the host after checking it against the reference.
  std::vector<float> call(autogemmHandle_t h) {
    const float alpha = 1.0f, beta = 0.0f;
    EXPECT_CUDA_OK(fill_nan(c_.get(), c_.count(), nullptr));
    EXPECT_EQ(autogemmSgemm(h, AUTOGEMM_OP_N, AUTOGEMM_OP_T, kM, kN, kK, &alpha, a_.get(), kM, b_.get(), kN, &beta,
                            c_.get(), kM),
              AUTOGEMM_STATUS_SUCCESS)
        << autogemmGetLastErrorMessage();
    EXPECT_CUDA_OK(cudaDeviceSynchronize());
    EXPECT_LE(relative_error(c_.get(), kM, ref_.get(), kM, kN, nullptr), error_bound(kK));
    std::vector<float> host(c_.count());
    EXPECT_CUDA_OK(cudaMemcpy(host.data(), c_.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
  }

  // Passed-check rows stored for the test problem.
  size_t stored_rows() {
    if (!std::filesystem::exists(db_path_)) return 0;
    db::TuningDb db(db_path_, db::OpenMode::kReadOnly);
    size_t rows = 0;
    for (const db::Entry& e : db.entries())
      rows += e.problem.m == kM && e.problem.n == kN && e.problem.k == kK && e.problem.transa == 'n' &&
              e.problem.transb == 't' && e.measurement.check_passed;
    return rows;
  }

  static void EXPECT_CUDA_OK(cudaError_t e) { EXPECT_EQ(e, cudaSuccess) << cudaGetErrorString(e); }

  std::string dir_, db_path_;
  DeviceBuffer<float> a_{size_t(kM) * kK}, b_{size_t(kN) * kK}, c_{size_t(kM) * kN};
  DeviceBuffer<double> ref_{size_t(kM) * kN};
};

// Setting a handle's database path reads its files anew: a database another process wrote after
// this one found the file missing (the Python workflow: record, gemm-tune tune, set_database, run)
// is used, not the cached "missing" verdict.
TEST_F(OnlineModeTest, SettingTheDatabasePathRereadsItsFiles) {
  const std::string later = dir_ + "/written_later.sqlite3";
  autogemmHandle_t reader = nullptr;
  ASSERT_EQ(autogemmCreate(&reader), AUTOGEMM_STATUS_SUCCESS);
  ASSERT_EQ(autogemmSetDatabasePath(reader, later.c_str()), AUTOGEMM_STATUS_SUCCESS);
  autogemmChoiceInfo_t info;
  auto explain = [&] {
    EXPECT_EQ(autogemmExplainSgemm(reader, AUTOGEMM_OP_N, AUTOGEMM_OP_T, kM, kN, kK, a_.get(), kM, b_.get(), kN,
                                   c_.get(), kM, &info),
              AUTOGEMM_STATUS_SUCCESS)
        << autogemmGetLastErrorMessage();
    return std::string(info.source);
  };
  EXPECT_EQ(explain(), "untuned");  // the file is missing, and this process now knows it
  autogemmHandle_t online = make_handle(AUTOGEMM_MODE_ONLINE);
  call(online);  // tunes the problem into db_path_
  autogemmDestroy(online);
  ASSERT_GE(stored_rows(), 1u);
  std::filesystem::copy_file(db_path_, later);  // as if another process had written it
  EXPECT_EQ(explain(), "untuned");  // cached choice
  ASSERT_EQ(autogemmSetDatabasePath(reader, later.c_str()), AUTOGEMM_STATUS_SUCCESS);
  EXPECT_EQ(explain(), "tuned");
  EXPECT_EQ(info.measured, 1);
  EXPECT_GT(info.time_us, 0.0);
  autogemmDestroy(reader);
}

TEST_F(OnlineModeTest, TunesOnceStoresAndAgreesWithTheOtherSources) {
  autogemmHandle_t online = make_handle(AUTOGEMM_MODE_ONLINE);
  EXPECT_EQ(autogemmSetOnlineBudget(online, -1.0), AUTOGEMM_STATUS_INVALID_VALUE);
  ASSERT_EQ(autogemmSetOnlineBudget(online, 300.0), AUTOGEMM_STATUS_SUCCESS);
  ASSERT_EQ(stored_rows(), 0u);
  const std::vector<float> from_online = call(online);
  const size_t rows = stored_rows();
  EXPECT_GE(rows, 1u) << "online mode wrote no measurement to " << db_path_;
  EXPECT_EQ(call(online), from_online);  // cached: same kernel, same bits
  EXPECT_EQ(stored_rows(), rows);        // and not tuned again

  // A tuned-mode handle reads what online mode stored and picks the same kernel: identical bits.
  autogemmHandle_t tuned = make_handle(AUTOGEMM_MODE_TUNED);
  EXPECT_EQ(call(tuned), from_online);
  // The untuned choice (heuristic mode ignores databases) may pick another kernel; its result
  // meets the same bound against the float64 reference (checked in call()).
  autogemmHandle_t heuristic = make_handle(AUTOGEMM_MODE_HEURISTIC);
  call(heuristic);
  autogemmDestroy(heuristic);
  autogemmDestroy(tuned);
  autogemmDestroy(online);
}

TEST_F(OnlineModeTest, CaptureDefersTuningToTheFirstCallOutsideIt) {
  autogemmHandle_t h = make_handle(AUTOGEMM_MODE_ONLINE);
  cudaStream_t stream;
  ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  ASSERT_EQ(autogemmSetStream(h, stream), AUTOGEMM_STATUS_SUCCESS);
  // A first call allocates its split-k workspace, which capture forbids: give it one up front.
  DeviceBuffer<char> workspace(64 << 20);
  ASSERT_EQ(autogemmSetWorkspace(h, workspace.get(), workspace.count()), AUTOGEMM_STATUS_SUCCESS);
  const float alpha = 1.0f, beta = 0.0f;
  ASSERT_CUDA(fill_nan(c_.get(), c_.count(), nullptr));
  ASSERT_CUDA(cudaDeviceSynchronize());
  ASSERT_CUDA(run_captured(stream, [&] {
    EXPECT_EQ(autogemmSgemm(h, AUTOGEMM_OP_N, AUTOGEMM_OP_T, kM, kN, kK, &alpha, a_.get(), kM, b_.get(), kN, &beta,
                            c_.get(), kM),
              AUTOGEMM_STATUS_SUCCESS)
        << autogemmGetLastErrorMessage();
  }));
  EXPECT_EQ(stored_rows(), 0u);  // nothing tuned during capture (replaying the graph runs no host code)
  EXPECT_LE(relative_error(c_.get(), kM, ref_.get(), kM, kN, nullptr), error_bound(kK));
  call(h);  // outside capture: tunes now
  EXPECT_GE(stored_rows(), 1u);
  autogemmSetStream(h, nullptr);
  cudaStreamDestroy(stream);
  autogemmDestroy(h);
}


class OnlineTunerTest : public GpuTest {};

TEST_F(OnlineTunerTest, MeasuresCandidatesThatReadRepackedOperands) {
  // nn with m >= kRepackMinOtherExtent: an `nt` instance may run it on a transposed copy of B.
  constexpr int m = 2048, n = 256, k = 256;
  DeviceBuffer<float> a(size_t(m) * k), b(size_t(k) * n), c(size_t(m) * n);
  ASSERT_CUDA(fill_uniform(a.get(), a.count(), 3, nullptr));
  ASSERT_CUDA(fill_uniform(b.get(), b.count(), 4, nullptr));
  GemmProblem problem;
  problem.op_a = Op::N, problem.op_b = Op::N, problem.m = m, problem.n = n, problem.k = k;
  problem.a = a.get(), problem.b = b.get(), problem.c = c.get(), problem.lda = m, problem.ldb = k, problem.ldc = m;
  int device = 0;
  ASSERT_CUDA(cudaGetDevice(&device));
  const DeviceLimits limits = query_device_limits(device);
  // The first GEMM instance of each layout that runs the problem: `nt` (B repacked) first.
  auto first_of = [&](Op op_b) -> const KernelInstance* {
    for (const KernelInstance& kernel : kernel_registry()) {
      const KernelConfig& cfg = kernel.config;
      if (cfg.is_gemv() || cfg.op_a != Op::N || cfg.op_b != op_b) continue;
      if (cannot_implement(kernel, problem, limits, RepackPolicy::kAllowed).empty()) return &kernel;
    }
    return nullptr;
  };
  const KernelInstance* repacking = first_of(Op::T);
  const KernelInstance* in_place = first_of(Op::N);
  if (repacking == nullptr || in_place == nullptr) GTEST_SKIP() << "this build has no nt and nn GEMM instances for it";
  ASSERT_TRUE(repack_plan(repacking->config, problem).b);
  const std::vector<KernelChoice> ranked = {{repacking, {1, SplitKMode::kNone}}, {in_place, {1, SplitKMode::kNone}}};
  OnlineOptions options;
  options.budget_ms = 1e9;  // both measured even where a sanitizer makes each run 10-100x slower
  const OnlineReport report = tune_online(problem, ranked, nullptr, device, device_signature(device), options);
  EXPECT_EQ(report.measured, 2);
  EXPECT_EQ(report.failed, 0);
  ASSERT_EQ(report.entries.size(), 2u);
  EXPECT_EQ(report.entries.front().candidate.kernel, repacking->name);
  EXPECT_TRUE(report.entries.front().measurement.check_passed);
  EXPECT_GT(report.entries.front().measurement.median_us, 0.0);
  EXPECT_NE(report.best.kernel, nullptr);
}

}  // namespace
}  // namespace autogemm::testing
