// The neighbour-calibrated untuned choice, on the CPU (occupancy supplied by the test): it follows what
// tuned neighbours measured, prefers near neighbours over far ones, ignores those beyond
// kNeighbourMaxDistance, and is the plain cost model when nothing was tuned that near.
#include <gtest/gtest.h>

#include <algorithm>

#include "untuned_neighbours.hpp"
#include "registry.hpp"

namespace autogemm {
namespace {

DeviceLimits h100_limits() {
  DeviceLimits d;
  d.cc_major = 9, d.cc_minor = 0, d.sm_count = 132, d.max_shared_per_block_optin = 227 * 1024, d.l2_bytes = 50 << 20;
  return d;
}

DeviceModel h100_model() {
  DeviceModel m;
  m.sm_count = 132, m.cycles_per_us = 1755.0, m.fma_per_us_per_sm = 128 * 1755.0, m.dram_bytes_per_us = 3.0e6, m.l2_bytes_per_us = 7.5e6;
  return m;
}

GemmProblem problem(int m, int n, int k) {
  GemmProblem p;
  p.m = m, p.n = n, p.k = k;
  p.a = reinterpret_cast<const float*>(0x10000);  // 16-byte aligned, never dereferenced
  p.b = reinterpret_cast<const float*>(0x20000);
  p.c = reinterpret_cast<float*>(0x30000);
  p.lda = m, p.ldb = k, p.ldc = m;  // nn, multiples of 4 below: align4 class
  return p;
}

int one_block(size_t) { return 1; }

// The instances of the nn layout that can run an aligned problem of any shape (tiled GEMMs), or
// the nn GEMV instances.
std::vector<const KernelInstance*> nn_instances(Family family = Family::kGemm) {
  std::vector<const KernelInstance*> out;
  for (const auto& k : kernel_registry())
    if (k.config.op_a == Op::N && k.config.op_b == Op::N && k.config.family == family) out.push_back(&k);
  return out;
}

TEST(UntunedChoice, WithoutTunedDataItIsTheCostModel) {
  const GemmProblem p = problem(1000, 1000, 1000);
  const KernelChoice a = choose_with_neighbours(p, h100_limits(), h100_model(), one_block, {});
  const KernelChoice b = choose_untuned(p, h100_limits(), h100_model(), one_block);
  ASSERT_NE(a.kernel, nullptr);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.split.splits, b.split.splits);
}

// The model prices a 2-block cluster in a single wave as its 1x1 twin; of two candidates priced alike
// the one that needs no pair of SMs scheduled together comes first, whatever the registry's order.
TEST(UntunedChoice, ATieGoesToTheSmallerCluster) {
  auto instance = [](int cluster_m) {
    KernelInstance k{};
    k.config = wgmma_config(128, 128, 64, 0, cluster_m, 1, WgmmaSchedule::kCooperative, Op::T, Op::N,
                            DataType::kBF16, DataType::kBF16);
    return k;
  };
  const KernelInstance pair = instance(2), single = instance(1), cheaper_pair = instance(2);
  std::vector<KernelChoice> ranked = {{&pair, {1, SplitKMode::kNone}, 29.0},
                                      {&single, {1, SplitKMode::kNone}, 29.0},
                                      {&cheaper_pair, {1, SplitKMode::kNone}, 28.0}};
  sort_by_estimate(ranked);
  EXPECT_EQ(ranked[0].kernel, &cheaper_pair);
  EXPECT_EQ(ranked[1].kernel, &single);
  EXPECT_EQ(ranked[2].kernel, &pair);
}

TEST(UntunedChoice, FollowsWhatTheNearestNeighboursMeasured) {
  const auto instances = nn_instances();
  ASSERT_GE(instances.size(), 2u);
  const GemmProblem p = problem(1024, 1024, 1024);
  const KernelChoice model_pick = choose_untuned(p, h100_limits(), h100_model(), one_block);
  // Pick an instance the cost model does not choose, and make it measure 10x faster than its
  // estimate at two nearby tuned shapes, while the model's pick measures as estimated.
  const KernelInstance* favourite = instances.front() == model_pick.kernel ? instances.back() : instances.front();
  std::vector<NeighbourMeasurement> measured;
  for (auto [m, n, k] : {std::tuple{1024, 2048, 1024}, std::tuple{2048, 1024, 1024}}) {
    const double fav = estimate_us(favourite->config, 1, m, n, k, {1, SplitKMode::kNone}, h100_model());
    const double pick = estimate_us(model_pick.kernel->config, 1, m, n, k, {1, SplitKMode::kNone}, h100_model());
    measured.push_back({m, n, k, std::string(favourite->name), {1, SplitKMode::kNone}, fav / 10});
    measured.push_back({m, n, k, std::string(model_pick.kernel->name), {1, SplitKMode::kNone}, pick});
  }
  const KernelChoice c = choose_with_neighbours(p, h100_limits(), h100_model(), one_block, measured);
  ASSERT_NE(c.kernel, nullptr);
  EXPECT_EQ(c.kernel, favourite);
  EXPECT_STREQ(c.source, "untuned");
}

TEST(UntunedChoice, NearNeighboursOutweighFarOnes) {
  const auto instances = nn_instances();
  const KernelInstance* near_fast = instances[0];
  const KernelInstance* far_fast = instances[instances.size() / 2];
  const GemmProblem p = problem(512, 512, 512);
  std::vector<NeighbourMeasurement> measured;
  auto add = [&](int m, int n, int k, const KernelInstance* fast, const KernelInstance* slow) {
    const DeviceModel model = h100_model();
    measured.push_back({m, n, k, std::string(fast->name), {1, SplitKMode::kNone},
                        estimate_us(fast->config, 1, m, n, k, {1, SplitKMode::kNone}, model) / 20});
    measured.push_back({m, n, k, std::string(slow->name), {1, SplitKMode::kNone},
                        estimate_us(slow->config, 1, m, n, k, {1, SplitKMode::kNone}, model) * 2});
  };
  add(512, 512, 1024, near_fast, far_fast);   // distance 1 in log2 space
  add(8192, 8192, 8192, far_fast, near_fast);  // distance ~6.9
  const KernelChoice c = choose_with_neighbours(p, h100_limits(), h100_model(), one_block, measured);
  EXPECT_EQ(c.kernel, near_fast);
}

// Far neighbours' calibration costs more choices than it mends (over five tables 0.889 of the best
// with every neighbour, 0.919 with the cut), so only tuned problems within kNeighbourMaxDistance
// calibrate; beyond it the plain model decides, however fast a far neighbour measured another instance.
TEST(UntunedChoice, FarNeighboursDoNotCalibrate) {
  const auto instances = nn_instances();
  const GemmProblem p = problem(1024, 1024, 1024);
  const KernelChoice model_pick = choose_untuned(p, h100_limits(), h100_model(), one_block);
  ASSERT_NE(model_pick.kernel, nullptr);
  const KernelInstance* favourite = instances.front() == model_pick.kernel ? instances.back() : instances.front();
  auto measured_at = [&](int m, int n, int k) {
    const double fav = estimate_us(favourite->config, 1, m, n, k, {1, SplitKMode::kNone}, h100_model());
    const double pick = estimate_us(model_pick.kernel->config, 1, m, n, k, {1, SplitKMode::kNone}, h100_model());
    return std::vector<NeighbourMeasurement>{{m, n, k, std::string(favourite->name), {1, SplitKMode::kNone}, fav / 10},
                                             {m, n, k, std::string(model_pick.kernel->name), {1, SplitKMode::kNone}, pick}};
  };
  // 4096 x 4096 x 4096: distance sqrt(3) * 2 = 3.5 in log2 space, beyond the cut.
  const auto far = measured_at(4096, 4096, 4096);
  const KernelChoice c = choose_with_neighbours(p, h100_limits(), h100_model(), one_block, far);
  ASSERT_NE(c.kernel, nullptr);
  EXPECT_EQ(c.kernel, model_pick.kernel);
  EXPECT_EQ(c.split.splits, model_pick.split.splits);
  // The same measurements at 2048 x 1024 x 1024 (distance 1) are followed.
  const KernelChoice near =
      choose_with_neighbours(p, h100_limits(), h100_model(), one_block, measured_at(2048, 1024, 1024));
  EXPECT_EQ(near.kernel, favourite);
}

// The rows a database or tuning table gives the untuned choice: passed checks of the class's layout and
// alignment, of instances this build has, each with its split choice and median.
TEST(UntunedChoice, ClassMeasurementsKeepTheClassesPassedRows) {
  const KernelInstance* nn4 = nn_instances().front();
  auto entry = [&](char ta, char tb, int align, const std::string& kernel, bool passed, const std::string& mode) {
    db::Entry e;
    e.problem.transa = ta, e.problem.transb = tb, e.problem.align = align;
    e.problem.m = 64, e.problem.n = 32, e.problem.k = 16;
    e.candidate.kernel = kernel, e.candidate.splits = mode == "parallel" ? 4 : 1, e.candidate.split_mode = mode;
    e.measurement.check_passed = passed, e.measurement.median_us = 7.5;
    return e;
  };
  const std::string name(nn4->name);
  const std::vector<db::Entry> entries = {
      entry('n', 'n', 4, name, true, "parallel"), entry('n', 'n', 4, name, false, "none"),
      entry('n', 't', 4, name, true, "none"),     entry('n', 'n', 1, name, true, "none"),
      entry('n', 'n', 4, "not_a_kernel", true, "none")};
  const auto rows = class_measurements(entries, 'n', 'n', 4);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kernel, name);
  EXPECT_EQ(rows[0].split.splits, 4);
  EXPECT_EQ(rows[0].split.mode, SplitKMode::kParallel);
  EXPECT_EQ(rows[0].median_us, 7.5);
  EXPECT_EQ(rows[0].m, 64);
}

// Neighbours that measured one split-k mode slow steer the choice away from that mode, and
// towards it when it measured fast: calibration is per (instance, split mode).
TEST(UntunedChoice, CalibratesEachSplitModeSeparately) {
  const GemmProblem p = problem(256, 256, 8192);  // few tiles, long K: split-k candidates exist
  const DeviceModel model = h100_model();
  for (const SplitKMode fast : {SplitKMode::kNone, SplitKMode::kParallel}) {
    std::vector<NeighbourMeasurement> measured;
    for (auto [m, n, k] : {std::tuple{256, 256, 4096}, std::tuple{256, 256, 16384}})
      for (const KernelInstance* inst : nn_instances())
        for (const SplitChoice split : split_candidates(inst->config, m, n, k, 132)) {
          const double est = estimate_us(inst->config, 1, m, n, k, split, model);
          measured.push_back({m, n, k, std::string(inst->name), split, split.mode == fast ? est : est * 10});
        }
    const KernelChoice c = choose_with_neighbours(p, h100_limits(), model, one_block, measured);
    ASSERT_NE(c.kernel, nullptr);
    EXPECT_EQ(c.split.mode, fast) << "fast mode " << split_mode_name(fast) << ", chose " << split_mode_name(c.split.mode);
  }
}

// Serial split-k is never an untuned choice (it lost to parallel on every problem measured on the
// H100, docs/kernels.md), even where a neighbour measured it fastest; the tuner still measures it.
TEST(UntunedChoice, NeverChoosesSerialSplitK) {
  const GemmProblem p = problem(256, 256, 8192);
  const DeviceModel model = h100_model();
  std::vector<NeighbourMeasurement> measured;
  for (const KernelInstance* inst : nn_instances())
    for (const SplitChoice split : split_candidates(inst->config, 256, 256, 4096, 132)) {
      const double est = estimate_us(inst->config, 1, 256, 256, 4096, split, model);
      measured.push_back({256, 256, 4096, std::string(inst->name), split, split.mode == SplitKMode::kSerial ? est / 100 : est});
    }
  for (const KernelChoice& c : rank_with_neighbours(p, h100_limits(), model, one_block, measured))
    EXPECT_NE(c.split.mode, SplitKMode::kSerial) << c.kernel->name;
  for (const KernelChoice& c : rank_untuned(p, h100_limits(), model, one_block))
    EXPECT_NE(c.split.mode, SplitKMode::kSerial) << c.kernel->name;
  bool tuner_sees_serial = false;
  for (const KernelInstance* inst : nn_instances())
    for (const SplitChoice split : split_candidates(inst->config, 256, 256, 8192, 132))
      tuner_sees_serial |= split.mode == SplitKMode::kSerial;
  EXPECT_TRUE(tuner_sees_serial);
}

TEST(UntunedChoice, GemvOnlyForNarrowOutputsAndPreferredThere) {
  ASSERT_FALSE(nn_instances(Family::kGemv).empty()) << "every build compiles GEMV instances (ci keeps one per class)";
  // Row-major 1 x 3072 x 3072: the model picks a GEMV instance (it reads A once, no split-k).
  const KernelChoice narrow = choose_untuned(problem(3072, 1, 3072), h100_limits(), h100_model(), one_block);
  ASSERT_NE(narrow.kernel, nullptr);
  EXPECT_TRUE(narrow.kernel->config.is_gemv()) << narrow.kernel->name;
  // Wider than kGemvMaxN: GEMV instances cannot implement it, with the reason named.
  const GemmProblem wide = problem(3072, kGemvMaxN + 1, 3072);
  for (const KernelChoice& c : rank_untuned(wide, h100_limits(), h100_model(), one_block))
    EXPECT_FALSE(c.kernel->config.is_gemv()) << c.kernel->name;
  for (const KernelInstance* k : nn_instances(Family::kGemv)) {
    if (k->config.types != wide.types) continue;  // the 16-bit instances refuse the FP32 problem by its types
    EXPECT_NE(cannot_implement(*k, wide, h100_limits()).find("n = 5"), std::string::npos) << k->name;
  }
}

TEST(UntunedChoice, ScalarClassBorrowsFromAlignedTwins) {
  // Every compiled align4 instance whose align1 twin is compiled maps onto that twin; others drop.
  std::vector<NeighbourMeasurement> aligned;
  size_t twins = 0;
  for (const auto& k : kernel_registry()) {
    if (k.config.align != 4) continue;
    aligned.push_back({64, 64, 64, std::string(k.name), {1, SplitKMode::kNone}, 10.0});
    KernelConfig t = k.config;
    t.align = 1;
    twins += find_kernel(kernel_name(t)) != nullptr;
  }
  aligned.push_back({64, 64, 64, "not_a_kernel", {1, SplitKMode::kNone}, 1.0});
  const auto scalar = credit_to_twins(aligned, 1);
  ASSERT_EQ(scalar.size(), twins);
  ASSERT_GT(twins, 0u);
  for (const auto& x : scalar) {
    const auto c = parse_kernel_name(x.kernel);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->align, 1);
    EXPECT_EQ(x.median_us, 10.0);
  }
}

TEST(UntunedChoice, ATwinThatSpillsMoreIsNotCredited) {
  // A scalar twin spilling 548 bytes runs 1.9x its aligned sibling's time, so it must not borrow it.
  // With local memory sizes known, only twins spilling no more than the measured instance borrow.
  std::vector<NeighbourMeasurement> aligned;
  for (const auto& k : kernel_registry()) {
    KernelConfig t = k.config;
    t.align = 1;
    if (k.config.align == 4 && is_valid(t) && find_kernel(kernel_name(t)) != nullptr)
      aligned.push_back({64, 64, 64, std::string(k.name), {1, SplitKMode::kNone}, 10.0});
  }
  ASSERT_GE(aligned.size(), 2u);
  const std::string spiller = kernel_name([&] {
    KernelConfig t = find_kernel(aligned[0].kernel)->config;
    t.align = 1;
    return t;
  }());
  // The first measured instance's twin spills 64 bytes, the others spill what their siblings do.
  auto local_bytes = [&](const KernelInstance& k) -> size_t { return k.name == spiller ? 64 : 16; };
  const auto credited = credit_to_twins(aligned, 1, local_bytes);
  ASSERT_EQ(credited.size(), aligned.size() - 1);
  for (const auto& x : credited) EXPECT_NE(x.kernel, spiller);
  EXPECT_EQ(credit_to_twins(aligned, 1).size(), aligned.size());  // no sizes given: every twin borrows
}

// The runtime and tools/model_check build a class's neighbours through class_neighbours: its own
// rows, plus the other class's credited to twins for shapes its own class did not tune.
TEST(UntunedChoice, ClassNeighboursBorrowTheOtherClassesShapes) {
  std::vector<const KernelInstance*> twins;  // align4 instances with a compiled align1 twin
  for (const auto& k : kernel_registry()) {
    KernelConfig t = k.config;
    t.align = 1;
    if (k.config.align == 4 && is_valid(t) && find_kernel(kernel_name(t)) != nullptr) twins.push_back(&k);
  }
  ASSERT_GE(twins.size(), 2u);
  auto twin_of = [](const KernelInstance* k) {
    KernelConfig t = k->config;
    t.align = 1;
    return kernel_name(t);
  };
  std::vector<int> asked;
  auto rows_of_class = [&](int align) {
    asked.push_back(align);
    return align == 1 ? std::vector<NeighbourMeasurement>{{64, 64, 64, twin_of(twins[0]), {1, SplitKMode::kNone}, 5.0}}
                      : std::vector<NeighbourMeasurement>{
                            {64, 64, 64, std::string(twins[1]->name), {1, SplitKMode::kNone}, 9.0},
                            {128, 64, 64, std::string(twins[1]->name), {1, SplitKMode::kNone}, 7.0}};
  };
  const auto rows = class_neighbours(rows_of_class, 1);
  std::sort(asked.begin(), asked.end());  // either class may be read first
  EXPECT_EQ(asked, (std::vector<int>{1, 4}));
  ASSERT_EQ(rows.size(), 2u);  // 64^3 keeps its own row; 128x64x64 is borrowed, credited to the twin
  EXPECT_EQ(rows[0].kernel, twin_of(twins[0]));
  EXPECT_EQ(rows[1].m, 128);
  EXPECT_EQ(rows[1].kernel, twin_of(twins[1]));
  EXPECT_EQ(rows[1].median_us, 7.0);
}

TEST(UntunedChoice, OwnClassShapesKeepTheirRowsOtherShapesAreBorrowed) {
  const std::vector<NeighbourMeasurement> own = {{3072, 1, 3072, "a", {8, SplitKMode::kParallel}, 20.0}};
  const std::vector<NeighbourMeasurement> borrowed = {{3072, 1, 3072, "b", {1, SplitKMode::kNone}, 5.0},
                                                      {1024, 256, 1024, "c", {4, SplitKMode::kParallel}, 9.0},
                                                      {1024, 256, 1024, "d", {1, SplitKMode::kNone}, 12.0}};
  const auto merged = with_borrowed_shapes(own, borrowed);
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].kernel, "a");  // the shape tuned in its own class: only its own rows
  EXPECT_EQ(merged[1].kernel, "c");
  EXPECT_EQ(merged[2].kernel, "d");
  EXPECT_EQ(with_borrowed_shapes({}, borrowed).size(), borrowed.size());
  EXPECT_EQ(with_borrowed_shapes(own, {}).size(), own.size());
}

TEST(UntunedChoice, AFarOwnClassShapeNoLongerDecidesAlone) {
  // Scalar-class `tt` problem 1111x333x777 whose only own-class neighbour is a GEMV-shaped
  // 3072x1x3072 on which a skinny tile measured well. With the aligned class's nearby shapes
  // borrowed, what was measured near the problem decides; and a neighbour that far (distance ~8.8,
  // past kNeighbourMaxDistance) does not calibrate at all: alone, it leaves the plain cost model's
  // choice.
  const auto instances = nn_instances();
  ASSERT_GE(instances.size(), 2u);
  const GemmProblem p = problem(1112, 332, 776);
  // Any two instances (the CI grid has a few per class): "far_good" plays the tile that measured well
  // only on the far GEMV-shaped problem, "near_good" the one that measured well nearby.
  const KernelInstance* far_good = instances[0];
  const KernelInstance* near_good = instances[1];
  const SplitChoice none{1, SplitKMode::kNone};
  // Far away far_good measured 100x faster than its estimate and near_good as estimated;
  // near, the other way round. (Modelled on the aligned nn class of this test's helpers.)
  auto est = [&](const KernelInstance* k, int m, int n, int kk) {
    return estimate_us(k->config, 1, m, n, kk, none, h100_model());
  };
  const std::vector<NeighbourMeasurement> own = {
      {3072, 1, 3072, std::string(far_good->name), none, est(far_good, 3072, 1, 3072) / 100},
      {3072, 1, 3072, std::string(near_good->name), none, est(near_good, 3072, 1, 3072)}};
  const std::vector<NeighbourMeasurement> near = {
      {1024, 256, 1024, std::string(near_good->name), none, est(near_good, 1024, 256, 1024) / 100},
      {1024, 256, 1024, std::string(far_good->name), none, est(far_good, 1024, 256, 1024)},
      {1024, 512, 512, std::string(near_good->name), none, est(near_good, 1024, 512, 512) / 100},
      {1024, 512, 512, std::string(far_good->name), none, est(far_good, 1024, 512, 512)}};
  const KernelChoice alone = choose_with_neighbours(p, h100_limits(), h100_model(), one_block, own);
  const KernelChoice merged =
      choose_with_neighbours(p, h100_limits(), h100_model(), one_block, with_borrowed_shapes(own, near));
  EXPECT_EQ(alone.kernel, choose_untuned(p, h100_limits(), h100_model(), one_block).kernel);
  EXPECT_EQ(merged.kernel, near_good);
}

// Instances that read repacked operands are never the plain cost model's pick (it cannot see what a
// K-major operand costs), but the untuned choice follows neighbours that measured one fastest, copies
// included, and only where the copy is offered (kRepackMinOtherExtent).
TEST(UntunedChoice, RepacksUnmeasuredOnlyForTmaInstancesAndWhereNeighboursMeasuredItFaster) {
  const KernelInstance* nt = nullptr;
  for (const auto& k : kernel_registry())
    if (!k.config.is_gemv() && !k.config.is_tma() && k.config.residues == 1 && k.config.op_a == Op::N &&
        k.config.op_b == Op::T && k.config.align == 4)
      nt = &k;  // the last plain `nt` GEMM instance (residue instances serve only an odd lda)
  ASSERT_NE(nt, nullptr);
  const DeviceModel model = h100_model();
  const GemmProblem big = problem(4096, 4096, 2048);  // nn: B is K-major and m >= 2048
  // Unmeasured, an instance that reads a repacked B ranks ahead of its own `nn` twin only if it is
  // a TMA instance (the model prices no other K-major copy path; untuned_choice.hpp).
  const auto ranked = rank_untuned(big, h100_limits(), model, one_block);
  for (size_t r = 0; r < ranked.size(); ++r) {
    const KernelConfig& c = ranked[r].kernel->config;
    if (!repack_plan(c, big).any() || c.is_tma()) continue;
    KernelConfig twin = c;
    twin.op_b = Op::N;
    const KernelInstance* own = find_kernel(kernel_name(twin));
    if (own == nullptr) continue;
    for (size_t q = r + 1; q < ranked.size(); ++q)
      EXPECT_FALSE(ranked[q].kernel == own && ranked[q].split.splits == ranked[r].split.splits &&
                   ranked[q].split.mode == ranked[r].split.mode)
          << own->name << " ranks behind its X-major twin with a copy of B, " << ranked[r].kernel->name;
  }
  const KernelChoice unmeasured = choose_with_neighbours(big, h100_limits(), model, one_block, {});
  EXPECT_TRUE(!repack_plan(unmeasured.kernel->config, big).any() || unmeasured.kernel->config.is_tma())
      << unmeasured.kernel->name;

  // Neighbours where the nt instance (with its copy of B) measured 3x faster than estimated and the
  // nn instances as estimated.
  std::vector<NeighbourMeasurement> measured;
  for (auto [m, n, k] : {std::tuple{4096, 4096, 4096}, std::tuple{4096, 2048, 2048}}) {
    GemmProblem neighbour = big;
    neighbour.m = m, neighbour.n = n, neighbour.k = k;
    const double nt_est =
        repack_estimate_us(nt->config, neighbour, model) + estimate_us(nt->config, 1, m, n, k, {}, model);
    EXPECT_GT(repack_estimate_us(nt->config, neighbour, model), 0.0);
    measured.push_back({m, n, k, std::string(nt->name), {}, nt_est / 3});
    for (const KernelInstance* inst : nn_instances())
      measured.push_back({m, n, k, std::string(inst->name), {}, estimate_us(inst->config, 1, m, n, k, {}, model)});
  }
  const KernelChoice c = choose_with_neighbours(big, h100_limits(), model, one_block, measured);
  ASSERT_NE(c.kernel, nullptr);
  EXPECT_EQ(c.kernel, nt);
  EXPECT_STREQ(repacked_operands(repack_plan(c.kernel->config, big)), "B");
  // Below the extent that amortises the copy, the same neighbours cannot make it repack.
  const GemmProblem short_m = problem(1024, 4096, 2048);
  for (const KernelChoice& r : rank_with_neighbours(short_m, h100_limits(), model, one_block, measured))
    EXPECT_FALSE(repack_plan(r.kernel->config, short_m).any()) << r.kernel->name;
}

}  // namespace
}  // namespace autogemm
