// gemm-tune selfcheck: a quick GPU check of the library as applications call it — every layout,
// both alignment classes, beta = 0 over a NaN-poisoned C, beta != 0, and a split-k-sized shape —
// against the float64 reference. Exit 0 only if every case is within the error bound.
#include <cstdio>

#include "autogemm/autogemm.h"
#include "check.hpp"
#include "commands.hpp"
#include "problem_data.hpp"

namespace autogemm::cli {

Command add_selfcheck_command(CLI::App& app) {
  auto* sub = app.add_subcommand("selfcheck", "Check autogemmSgemm against a float64 reference on this GPU");
  return {sub, []() -> int {
    if (!require_gpu("selfcheck")) return 1;
    autogemmHandle_t handle = nullptr;
    if (autogemmStatus_t s = autogemmCreate(&handle); s != AUTOGEMM_STATUS_SUCCESS) {
      std::fprintf(stderr, "gemm-tune selfcheck: autogemmCreate failed: %s: %s\n", autogemmGetStatusString(s),
                   autogemmGetLastErrorMessage());
      return 1;
    }
    struct Case {
      int m, n, k, pad;
    };
    // pad > 0 makes leading dimensions odd, forcing the scalar alignment class.
    const Case cases[] = {{1, 1, 1, 0}, {129, 65, 33, 0}, {129, 65, 33, 3}, {1000, 1000, 1000, 0}, {64, 48, 8192, 0}};
    int failures = 0, total = 0;
    for (Op op_a : {Op::N, Op::T})
      for (Op op_b : {Op::N, Op::T})
        for (const Case& cs : cases)
          for (float beta : {0.0f, -0.5f}) {
            ColumnMajorProblem p{op_a, op_b, cs.m, cs.n, cs.k, 0, 0, 0};
            p.lda = (op_a == Op::N ? cs.m : cs.k) + cs.pad;
            p.ldb = (op_b == Op::N ? cs.k : cs.n) + cs.pad;
            p.ldc = cs.m + cs.pad;
            ProblemData data(p, 1000 + total);
            const float alpha = 1.25f;
            data.compute_reference(alpha, beta, nullptr);
            if (beta == 0.0f) fill_nan(data.c(), static_cast<size_t>(p.ldc) * p.n, nullptr);
            const autogemmStatus_t s =
                autogemmSgemm(handle, op_a == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T,
                              op_b == Op::N ? AUTOGEMM_OP_N : AUTOGEMM_OP_T, p.m, p.n, p.k, &alpha, data.f32_a(), p.lda,
                              data.f32_b(), p.ldb, &beta, data.f32_c(), p.ldc);
            const double err = s == AUTOGEMM_STATUS_SUCCESS ? data.error(nullptr) : -1.0;
            const bool ok = s == AUTOGEMM_STATUS_SUCCESS && err <= error_bound(p.k);
            ++total;
            if (!ok) ++failures;
            std::printf("%s %s %5dx%5dx%5d ld+%d beta=%-4g rel_err=%.2e (bound %.1e)%s\n", ok ? "ok  " : "FAIL",
                        layout_code(op_a, op_b).c_str(), p.m, p.n, p.k, cs.pad, beta, err, error_bound(p.k),
                        s == AUTOGEMM_STATUS_SUCCESS ? "" : autogemmGetLastErrorMessage());
          }
    autogemmDestroy(handle);
    std::printf("%d passed, %d failed\n", total - failures, failures);
    return failures == 0 ? 0 : 1;
  }};
}

}  // namespace autogemm::cli
