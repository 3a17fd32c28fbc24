// Random GEMMs whose operands end exactly where their allocations end, as a sub-matrix view or a
// packed allocator gives them (ld·(cols − 1) + rows elements from the pointer, all cuBLAS reads):
// random M, N, K in 1..3000 (log-uniform, so most are small and every tile edge is hit), layouts,
// leading-dimension padding, pointer offsets of 0-4 floats (so both alignment classes), alpha and
// beta (beta = 0 over NaN). Each problem runs twice: through autogemmSgemm (the library's own
// choice) and as a random instance of a random family among those that can run it, with a random split of K and
// repacked operands where the instance asks for them. The padding rows of A, B and C are NaN: a
// padding element that reaches C shows as NaN, one written changes its bits. Run under
// compute-sanitizer memcheck (tools/gpu_validation.sh, step sanitize), any read past an allocation
// is an error; without it, every result is checked against the float64 reference.
// AUTOGEMM_FUZZ_PROBLEMS and AUTOGEMM_FUZZ_SEED change the count (1000, 500 under the sanitizer)
// and the seed (1).
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "autogemm/autogemm.h"
#include "check.hpp"
#include "family.hpp"
#include "gpu_test.hpp"
#include "operation.hpp"
#include "registry.hpp"

namespace autogemm::testing {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

/// One column-major matrix of rows x cols at leading dimension ld, `offset` floats into an allocation
/// that ends at its last element. Its padding rows are NaN.
struct TightMatrix {
  TightMatrix(int rows_, int cols_, int64_t ld_, int offset)
      : rows(rows_), cols(cols_), ld(ld_), buffer(static_cast<size_t>(offset) + elements(rows_, cols_, ld_)),
        data(buffer.get() + offset) {}
  static size_t elements(int rows, int cols, int64_t ld) {
    return static_cast<size_t>(ld) * static_cast<size_t>(cols - 1) + static_cast<size_t>(rows);
  }
  size_t count() const { return elements(rows, cols, ld); }
  /// Padding rows to NaN: rows .. ld - 1 of every column but the last, which has none here.
  cudaError_t poison_padding() const { return autogemm::testing::poison_padding(data, ld, rows, cols - 1); }
  int rows, cols;
  int64_t ld;
  DeviceBuffer<float> buffer;
  float* data;
};

struct FuzzProblem {
  Op op_a, op_b;
  int m, n, k;
  int pad_a, pad_b, pad_c;           // leading dimension above the rows
  int offset_a, offset_b, offset_c;  // floats past the allocation's (256-byte aligned) start
  float alpha, beta;
};

std::string describe(const FuzzProblem& f) {
  return layout_code(f.op_a, f.op_b) + " " + std::to_string(f.m) + "x" + std::to_string(f.n) + "x" +
         std::to_string(f.k) + " pads " + std::to_string(f.pad_a) + "," + std::to_string(f.pad_b) + "," +
         std::to_string(f.pad_c) + " offsets " + std::to_string(f.offset_a) + "," + std::to_string(f.offset_b) + "," +
         std::to_string(f.offset_c) + " alpha " + std::to_string(f.alpha) + " beta " + std::to_string(f.beta);
}

FuzzProblem draw(std::mt19937_64& rng, double max_volume) {
  std::uniform_real_distribution<double> log_extent(0.0, std::log(3000.0));
  auto extent = [&] { return std::min(3000, static_cast<int>(std::exp(log_extent(rng)))); };
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  FuzzProblem f;
  f.op_a = pick(2) ? Op::T : Op::N;
  f.op_b = pick(2) ? Op::T : Op::N;
  do {
    f.m = extent(), f.n = extent(), f.k = extent();
  } while (static_cast<double>(f.m) * f.n * f.k > max_volume);
  // Leading dimensions: tight (ld = rows) half of the time, else a multiple of 4 (the aligned class
  // with its cut last vectors) or 1-8 floats of padding; offsets 0 half of the time, else 1-4.
  auto pad = [&](int rows) {
    switch (pick(4)) {
      case 0: return (rows + 3) / 4 * 4 - rows + 4 * pick(3);
      case 1: return 1 + pick(8);
      default: return 0;
    }
  };
  auto offset = [&] { return pick(2) ? 0 : 1 + pick(4); };
  f.pad_a = pad(f.op_a == Op::N ? f.m : f.k), f.pad_b = pad(f.op_b == Op::N ? f.k : f.n), f.pad_c = pad(f.m);
  f.offset_a = offset(), f.offset_b = offset(), f.offset_c = offset();
  const float alphas[] = {1.0f, -1.5f, 0.5f};
  const float betas[] = {0.0f, 0.0f, 1.0f, -0.75f};
  f.alpha = alphas[pick(3)];
  f.beta = betas[pick(4)];
  return f;
}

class TightAllocationFuzz : public GpuTest {
 protected:
  // Runs `f` through `launch`, which computes C in place; checks C against the float64 reference and
  // that C's padding rows kept their NaN bits.
  template <class Launch>
  void check(const FuzzProblem& f, uint64_t seed, const char* path, Launch&& launch) {
    SCOPED_TRACE(::testing::Message() << path << ": " << describe(f) << " (seed " << seed << ")");
    const int a_rows = f.op_a == Op::N ? f.m : f.k, a_cols = f.op_a == Op::N ? f.k : f.m;
    const int b_rows = f.op_b == Op::N ? f.k : f.n, b_cols = f.op_b == Op::N ? f.n : f.k;
    TightMatrix a(a_rows, a_cols, a_rows + f.pad_a, f.offset_a);
    TightMatrix b(b_rows, b_cols, b_rows + f.pad_b, f.offset_b);
    TightMatrix c(f.m, f.n, f.m + f.pad_c, f.offset_c);
    TightMatrix c0(f.m, f.n, f.m + f.pad_c, 0);
    ASSERT_NE(a.data, nullptr);
    ASSERT_NE(b.data, nullptr);
    ASSERT_NE(c.buffer.get(), nullptr);
    ASSERT_NE(c0.buffer.get(), nullptr);
    ASSERT_CUDA(fill_uniform(a.data, a.count(), seed * 4 + 1, nullptr));
    ASSERT_CUDA(fill_uniform(b.data, b.count(), seed * 4 + 2, nullptr));
    ASSERT_CUDA(fill_uniform(c0.data, c0.count(), seed * 4 + 3, nullptr));
    if (f.beta == 0.0f) {
      ASSERT_CUDA(fill_nan(c.data, c.count(), nullptr));  // beta = 0 must never read C
    } else {
      ASSERT_CUDA(cudaMemcpy(c.data, c0.data, c.count() * sizeof(float), cudaMemcpyDeviceToDevice));
    }
    ASSERT_CUDA(a.poison_padding());
    ASSERT_CUDA(b.poison_padding());
    ASSERT_CUDA(c.poison_padding());
    DeviceBuffer<double> ref(static_cast<size_t>(f.m) * f.n);
    ASSERT_CUDA(reference_gemm_f64(f.op_a, f.op_b, f.m, f.n, f.k, f.alpha, a.data, a.ld, b.data, b.ld, f.beta, c0.data,
                                   c0.ld, ref.get(), nullptr));
    ASSERT_CUDA(cudaDeviceSynchronize());

    GemmProblem p;
    p.op_a = f.op_a, p.op_b = f.op_b, p.m = f.m, p.n = f.n, p.k = f.k;
    p.a = a.data, p.lda = a.ld, p.b = b.data, p.ldb = b.ld, p.c = c.data, p.ldc = c.ld;
    p.alpha = f.alpha, p.beta = f.beta;
    launch(p);
    if (HasFatalFailure()) return;
    ASSERT_CUDA(cudaDeviceSynchronize());

    const double err = relative_error(c.data, c.ld, ref.get(), f.m, f.n, nullptr);
    EXPECT_LE(err, error_bound(f.k)) << "relative error " << err;  // NaN (a padding element read) fails too
    if (f.pad_c > 0 && f.n > 1) {
      std::vector<uint32_t> host(c.count());
      ASSERT_CUDA(cudaMemcpy(host.data(), c.data, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
      int written = 0;
      for (int j = 0; j + 1 < f.n; ++j)
        for (int64_t i = f.m; i < c.ld; ++i) written += host[static_cast<size_t>(j) * c.ld + i] != 0xffffffffu;
      EXPECT_EQ(written, 0) << "elements of C's padding rows were written";
    }
  }
};

TEST_F(TightAllocationFuzz, ReadsAndWritesOnlyTheMatrices) {
  const bool sanitizer = sanitizer_mode();
  const int problems = env_int("AUTOGEMM_FUZZ_PROBLEMS", sanitizer ? 500 : 1000);
  const uint64_t seed = static_cast<uint64_t>(env_int("AUTOGEMM_FUZZ_SEED", 1));
  // Under the sanitizer, 10-100x slower, problems up to 2e8 multiply-adds (any extent still up to
  // 3000, e.g. 3000 x 3000 x 22); else up to 3000^3.
  const double max_volume = sanitizer ? 2e8 : 2.7e10;
  std::mt19937_64 rng(seed);
  DeviceLimits limits;
  ASSERT_CUDA(current_device_limits(limits));
  autogemmHandle_t handle = nullptr;
  ASSERT_EQ(autogemmCreate(&handle), AUTOGEMM_STATUS_SUCCESS) << autogemmGetLastErrorMessage();
  const auto& registry = kernel_registry();
  std::vector<int> runs_per_family(kernel_families().size());
  for (int i = 0; i < problems && !HasFailure(); ++i) {
    const FuzzProblem f = draw(rng, max_volume);
    const uint64_t problem_seed = seed * 1000003 + static_cast<uint64_t>(i);
    check(f, problem_seed, "autogemmSgemm", [&](const GemmProblem& p) {
      auto op = [](Op o) { return o == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T; };
      ASSERT_EQ(autogemmSgemm(handle, op(p.op_a), op(p.op_b), p.m, p.n, p.k, &p.alpha, p.f32_a(), p.lda, p.f32_b(),
                              p.ldb, &p.beta, p.f32_c(), p.ldc),
                AUTOGEMM_STATUS_SUCCESS)
          << autogemmGetLastErrorMessage();
    });
    check(f, problem_seed, "instance", [&](const GemmProblem& p) {
      // A family first, then one of its instances, so that families with few instances (TMA,
      // residues) get their share.
      std::vector<std::vector<size_t>> able(kernel_families().size());
      for (size_t r = 0; r < registry.size(); ++r)
        if (can_implement(registry[r], p, limits, RepackPolicy::kAllowed))
          for (size_t fam = 0; fam < able.size(); ++fam)
            if (kernel_families()[fam] == &family_of(registry[r].config)) able[fam].push_back(r);
      std::vector<size_t> families;
      for (size_t fam = 0; fam < able.size(); ++fam)
        if (!able[fam].empty()) families.push_back(fam);
      ASSERT_FALSE(families.empty()) << "no instance runs the problem";
      const std::vector<size_t>& of_family = able[families[rng() % families.size()]];
      const KernelInstance& kernel = registry[of_family[rng() % of_family.size()]];
      const auto splits = split_candidates(kernel.config, p.m, p.n, p.k, limits.sm_count);
      const SplitChoice split = splits[rng() % splits.size()];
      SCOPED_TRACE(::testing::Message() << kernel.name << " split " << split_label(split));
      const WorkspaceNeeds needs = workspace_size(kernel, p, split);
      DeviceBuffer<float> partials(needs.partial_bytes / sizeof(float));
      DeviceBuffer<float> repacked(needs.repack_bytes / sizeof(float));
      DeviceBuffer<int> semaphores(needs.semaphore_count);
      if (needs.semaphore_count > 0) {
        ASSERT_CUDA(cudaMemset(semaphores.get(), 0, needs.semaphore_count * sizeof(int)));
      }
      const Workspace ws{partials.get(),   needs.partial_bytes, semaphores.get(),
                         needs.semaphore_count, repacked.get(), needs.repack_bytes};
      ASSERT_CUDA(run(kernel, p, split, ws, nullptr));
      for (size_t fam = 0; fam < kernel_families().size(); ++fam)
        runs_per_family[fam] += kernel_families()[fam] == &family_of(kernel.config);
    });
  }
  autogemmDestroy(handle);
  std::string counts;
  for (size_t fam = 0; fam < kernel_families().size(); ++fam)
    counts += std::string(counts.empty() ? "" : ", ") + kernel_families()[fam]->name + " " +
              std::to_string(runs_per_family[fam]);
  std::printf("[ fuzz     ] %d problems from seed %llu, each through autogemmSgemm and one instance (%s)\n",
              problems, static_cast<unsigned long long>(seed), counts.c_str());
}

}  // namespace
}  // namespace autogemm::testing
