// The tuner on a GPU: it finds a checked candidate, every pruned candidate has a reason, its
// database rows validate, and the library then runs the tuned choice with the same result as its
// untuned choice.
#include <atomic>
#include <cmath>
#include <cstdlib>

#include "../db/db_test_util.hpp"
#include "autogemm/autogemm.h"
#include "check.hpp"
#include "context.hpp"
#include "exchange.hpp"
#include "gpu_test.hpp"
#include "operation.hpp"
#include "registry.hpp"
#include "provenance.hpp"
#include "tuned_lookup.hpp"
#include "tuner.hpp"

namespace autogemm::testing {
namespace {

class TunerTest : public GpuTest {};

autogemmOperation_t api_op(Op op) { return op == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T; }

/// C = A·B of `data`'s problem through autogemmSgemm on `h`, C poisoned first, checked against the
/// float64 reference (computed by the caller).
void sgemm_and_check(autogemmHandle_t h, const ProblemData& data, const char* what) {
  SCOPED_TRACE(what);
  const ColumnMajorProblem& p = data.problem();
  const float alpha = 1.0f, beta = 0.0f;
  ASSERT_CUDA(fill_nan(data.c(), size_t(p.ldc) * p.n, nullptr));
  ASSERT_EQ(autogemmSgemm(h, api_op(p.op_a), api_op(p.op_b), p.m, p.n, p.k, &alpha, data.f32_a(), p.lda, data.f32_b(),
                          p.ldb, &beta, data.f32_c(), p.ldc),
            AUTOGEMM_STATUS_SUCCESS)
      << autogemmGetLastErrorMessage();
  ASSERT_CUDA(cudaDeviceSynchronize());
  EXPECT_LE(data.error(nullptr), error_bound(p.k));
}

TEST_F(TunerTest, FindsACheckedWinnerAndAccountsForEveryCandidate) {
  TuneOptions options;
  options.quick_pool = 12;
  options.top = 3;
  Tuner tuner(0, options);
  const std::atomic<bool> stop{false};
  const ColumnMajorProblem p = make_problem(Op::N, Op::T, 300, 200, 1000);
  const ProblemReport r = tuner.tune(p, stop);
  ASSERT_TRUE(r.best.has_value());
  EXPECT_TRUE(r.best->check_passed);
  EXPECT_TRUE(r.best->fully_timed);
  EXPECT_GT(r.cublas.median_us, 0);
  EXPECT_EQ(r.candidates, static_cast<int>(r.results.size()) + r.pruned_occupancy + r.pruned_cost_model + r.pruned_budget);
  EXPECT_EQ(r.pruned.size(), static_cast<size_t>(r.pruned_occupancy + r.pruned_cost_model + r.pruned_budget));
  for (const auto& pc : r.pruned) EXPECT_FALSE(pc.reason.empty());
  for (const auto& c : r.results) EXPECT_TRUE(c.check_passed) << c.kernel->name << " rel error " << c.rel_error;
  const auto entries = Tuner::to_entries(r, device_signature(0), current_provenance(0));
  EXPECT_EQ(entries.size(), r.results.size());
  for (const auto& e : entries) EXPECT_FALSE(db::invalid_entry_reason(e).has_value()) << *db::invalid_entry_reason(e);
  // No row is faster than the tuner's best, quick ones included (top 3 of a pool of 12 leaves quick
  // rows in the table), and the database's best, what the runtime runs, is the tuner's best.
  const db::Entry* fastest = nullptr;
  for (const auto& e : entries)
    if (e.measurement.check_passed && (fastest == nullptr || e.measurement.median_us < fastest->measurement.median_us))
      fastest = &e;
  ASSERT_NE(fastest, nullptr);
  EXPECT_GE(fastest->measurement.median_us, r.best->time.median_us);
  db::testing::ScratchDir dir;
  db::TuningDb database(dir.file("t.sqlite3"), db::OpenMode::kReadWrite);
  database.record(entries);
  const auto best = database.best(device_signature(0).key(), Tuner::problem_key(p, r.align));
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->candidate.kernel, r.best->kernel->name);
  EXPECT_EQ(best->candidate.splits, r.best->split.splits);
  EXPECT_EQ(best->candidate.split_mode, split_mode_name(r.best->split.mode));
  // A finished tuning counts as tuned: a resumed run skips it.
  EXPECT_TRUE(database.has_tuned(device_signature(0).key(), Tuner::problem_key(p, r.align), entries.front().provenance.kernel_grid));
}

TEST_F(TunerTest, LibraryRunsTheTunedChoiceWithTheSameResultAsTheUntunedChoice) {
  db::testing::ScratchDir dir;
  const std::string path = dir.file("tuned.sqlite3");
  const ColumnMajorProblem p = make_problem(Op::T, Op::N, 257, 129, 4000);
  {
    TuneOptions options;
    options.quick_pool = 8;
    options.top = 2;
    Tuner tuner(0, options);
    const std::atomic<bool> stop{false};
    const ProblemReport r = tuner.tune(p, stop);
    ASSERT_TRUE(r.best.has_value());
    db::TuningDb database(path, db::OpenMode::kReadWrite);
    database.record(Tuner::to_entries(r, device_signature(0), current_provenance(0)));
  }
  ProblemData data(p, 77);
  data.compute_reference(1.0f, 0.0f, nullptr);
  std::vector<float> results[2];
  const char* sources[2] = {nullptr, nullptr};
  for (int tuned = 0; tuned < 2; ++tuned) {
    tuned ? setenv("AUTOGEMM_DB", path.c_str(), 1) : setenv("AUTOGEMM_DB", dir.file("none.sqlite3").c_str(), 1);
    reset_tuned_lookup();
    autogemmHandle_t h = nullptr;
    ASSERT_EQ(autogemmCreate(&h), AUTOGEMM_STATUS_SUCCESS);
    ASSERT_NO_FATAL_FAILURE(sgemm_and_check(h, data, tuned ? "tuned" : "untuned"));
    sources[tuned] = h->choose(data.gemm_problem()).source;
    results[tuned].resize(size_t(p.ldc) * p.n);
    ASSERT_CUDA(cudaMemcpy(results[tuned].data(), data.c(), results[tuned].size() * 4, cudaMemcpyDeviceToHost));
    autogemmDestroy(h);
  }
  unsetenv("AUTOGEMM_DB");
  reset_tuned_lookup();
  EXPECT_STREQ(sources[0], "untuned");
  EXPECT_STREQ(sources[1], "tuned");
  // Both within the bound of the reference (checked above); and close to each other.
  double diff = 0, norm = 0;
  for (size_t i = 0; i < results[0].size(); ++i) {
    diff += double(results[0][i] - results[1][i]) * (results[0][i] - results[1][i]);
    norm += double(results[0][i]) * results[0][i];
  }
  EXPECT_LE(std::sqrt(diff / norm), 2 * error_bound(p.k));
}

// A tuned entry naming an instance that reads a repacked operand (an nt instance for an nn problem)
// runs through the C API with the copy; a caller's workspace without room for the copy gets the
// untuned choice instead (which fits it), and a large enough one the tuned entry again.
TEST_F(TunerTest, TunedRepackingChoiceRunsAndYieldsToASmallUserWorkspace) {
  const KernelInstance* nt = nullptr;
  for (const auto& k : kernel_registry())
    if (k.config.types == kF32Types && !k.config.is_gemv() && k.config.op_a == Op::N && k.config.op_b == Op::T &&
        k.config.align == 4 && k.config.residues == 1) {
      nt = &k;
      break;
    }
  if (nt == nullptr) GTEST_SKIP() << "no FP32 nt align4 GEMM instance of whole tiles (no residues) in this build";
  // m reaches kRepackMinOtherExtent, so B (k x n) may be repacked; K = 40 offers no split-k.
  const ColumnMajorProblem p = make_problem(Op::N, Op::N, 2052, 96, 40);
  db::testing::ScratchDir dir;
  const std::string path = dir.file("repack.sqlite3");
  {
    db::Entry e;
    e.device = device_signature(0);
    e.problem = Tuner::problem_key(p, 4);
    e.candidate = {std::string(nt->name), 1, "none"};
    e.measurement = {1.0, 1.0, 0.0, 10, 1.0, true, 0.0};
    e.provenance = current_provenance(0);
    db::TuningDb database(path, db::OpenMode::kReadWrite);
    database.record({e});
  }
  setenv("AUTOGEMM_DB", path.c_str(), 1);
  reset_tuned_lookup();
  autogemmHandle_t h = nullptr;
  ASSERT_EQ(autogemmCreate(&h), AUTOGEMM_STATUS_SUCCESS);
  ProblemData data(p, 91);
  data.compute_reference(1.0f, 0.0f, nullptr);
  const GemmProblem gp = data.gemm_problem();
  KernelChoice choice = h->choose(gp);
  EXPECT_EQ(choice.kernel, nt);
  EXPECT_STREQ(choice.source, "tuned");
  EXPECT_STREQ(repacked_operands(repack_plan(nt->config, gp)), "B");
  sgemm_and_check(h, data, "tuned, B repacked into the handle's own workspace");

  DeviceBuffer<char> small(autogemmContext::kUserWorkspaceHead + 1024);
  ASSERT_EQ(autogemmSetWorkspace(h, small.get(), small.count()), AUTOGEMM_STATUS_SUCCESS);
  choice = h->choose(gp);
  EXPECT_STREQ(choice.source, "untuned");
  EXPECT_FALSE(repack_plan(choice.kernel->config, gp).any()) << choice.kernel->name;
  sgemm_and_check(h, data, "untuned choice within a small user workspace");

  DeviceBuffer<char> large(1 << 20);
  ASSERT_EQ(autogemmSetWorkspace(h, large.get() + 4, large.count() - 4), AUTOGEMM_STATUS_SUCCESS);  // unaligned base
  choice = h->choose(gp);
  EXPECT_EQ(choice.kernel, nt);
  sgemm_and_check(h, data, "tuned again, the copy 256-byte aligned inside an unaligned user workspace");

  autogemmDestroy(h);
  unsetenv("AUTOGEMM_DB");
  reset_tuned_lookup();
}

// A TF32 problem's tuned choice is the fastest row of its own arithmetic or a more accurate one
// (3xTF32, pedantic FP32) for the same problem: a faster pedantic row wins over the TF32 row, a
// slower one does not.
TEST_F(TunerTest, MathModeChoiceIsTheFastestRowOfAnArithmeticThatServesIt) {
  const KernelInstance *tf32 = nullptr, *simt = nullptr;
  for (const auto& k : kernel_registry()) {
    if (tf32 == nullptr && is_tf32_wgmma(k.config) && k.config.types.compute == ComputeType::kTF32 &&
        k.config.op_a == Op::T && k.config.schedule == WgmmaSchedule::kCooperative)
      tf32 = &k;
    if (simt == nullptr && k.config.family == Family::kGemm && k.config.op_a == Op::T && k.config.op_b == Op::N &&
        k.config.align == 4 && k.config.residues == 1)
      simt = &k;
  }
  if (tf32 == nullptr || simt == nullptr) GTEST_SKIP() << "needs a TF32 tn instance and a SIMT tn align4 instance";
  ColumnMajorProblem p = make_problem(Op::T, Op::N, 512, 256, 1024);
  p.types = tf32->config.types;
  ProblemData data(p, 93);
  data.compute_reference(1.0f, 0.0f, nullptr);
  const GemmProblem gp = data.gemm_problem();
  DeviceLimits limits;
  ASSERT_CUDA(current_device_limits(limits));
  if (!can_implement(*tf32, gp, limits)) GTEST_SKIP() << cannot_implement(*tf32, gp, limits);
  for (const double pedantic_us : {2.0, 8.0}) {
    SCOPED_TRACE(pedantic_us);
    db::testing::ScratchDir dir;
    const std::string path = dir.file("modes.sqlite3");
    {
      auto entry = [&](const KernelInstance& k, const GemmTypes& types, double us) {
        ColumnMajorProblem q = p;
        q.types = types;
        db::Entry e;
        e.device = device_signature(0);
        e.problem = Tuner::problem_key(q, 4);
        e.candidate = {std::string(k.name), 1, "none"};
        e.measurement = {us, us, 0.0, 10, 1.0, true, 0.0};
        e.provenance = current_provenance(0);
        return e;
      };
      db::TuningDb database(path, db::OpenMode::kReadWrite);
      database.record({entry(*tf32, p.types, 5.0), entry(*simt, kF32Types, pedantic_us)});
    }
    setenv("AUTOGEMM_DB", path.c_str(), 1);
    reset_tuned_lookup();
    autogemmHandle_t h = nullptr;
    ASSERT_EQ(autogemmCreate(&h), AUTOGEMM_STATUS_SUCCESS);
    const KernelChoice choice = h->choose(gp);
    EXPECT_EQ(choice.kernel, pedantic_us < 5.0 ? simt : tf32) << choice.kernel->name;
    EXPECT_STREQ(choice.source, "tuned");
    autogemmDestroy(h);
  }
  unsetenv("AUTOGEMM_DB");
  reset_tuned_lookup();
}

TEST_F(TunerTest, UntunedChoiceRepacksOnlyWhereTheUserWorkspaceHoldsTheCopies) {
  // The untuned choice may repack (on the full H100 grid it takes a TMA instance on
  // a repacked B for big `nn` problems); a caller's fixed workspace too small for the copies must
  // rule those candidates out in the heuristic mode as in the untuned choice's.
  const ColumnMajorProblem p = make_problem(Op::N, Op::N, 4096, 4096, 512);
  autogemmHandle_t h = nullptr;
  ASSERT_EQ(autogemmCreate(&h), AUTOGEMM_STATUS_SUCCESS);
  ASSERT_EQ(autogemmSetMode(h, AUTOGEMM_MODE_HEURISTIC), AUTOGEMM_STATUS_SUCCESS);
  ProblemData data(p, 93);
  data.compute_reference(1.0f, 0.0f, nullptr);
  const GemmProblem gp = data.gemm_problem();
  const KernelChoice own = h->choose(gp);
  RecordProperty("untuned_choice", std::string(own.kernel->name));
  sgemm_and_check(h, data, "the heuristic choice in the handle's own workspace");

  DeviceBuffer<char> small(autogemmContext::kUserWorkspaceHead + 1024);
  ASSERT_EQ(autogemmSetWorkspace(h, small.get(), small.count()), AUTOGEMM_STATUS_SUCCESS);
  const KernelChoice within = h->choose(gp);
  EXPECT_FALSE(repack_plan(within.kernel->config, gp).any()) << within.kernel->name;
  sgemm_and_check(h, data, "the heuristic choice within a small user workspace");
  autogemmDestroy(h);
}

}  // namespace
}  // namespace autogemm::testing
