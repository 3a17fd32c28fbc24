// The C API entry points: validate, convert to the internal problem, choose, run; every exception
// becomes a status here and nowhere else (nothing throws across the C boundary).
#include <cmath>
#include <cstdio>
#include <new>
#include <string_view>
#include <utility>

#include "autogemm/autogemm.h"
#include "context.hpp"
#include "realigned.hpp"
#include "splitk_reduce.hpp"
#include "tuned_lookup.hpp"
#include "status.hpp"
#include "validate.hpp"

using namespace autogemm;

namespace {

bool live(autogemmHandle_t handle) { return handle != nullptr && handle->magic == autogemmContext::kMagic; }

template <class F>
autogemmStatus_t guarded(const char* where, F&& body) {
  try {
    clear_last_error();
    return body();
  } catch (const StatusError& e) {
    return fail(e.status(), std::string(where) + ": " + e.what());
  } catch (const std::bad_alloc&) {
    return fail(AUTOGEMM_STATUS_ALLOC_FAILED, std::string(where) + ": host memory exhausted");
  } catch (const std::exception& e) {
    return fail(AUTOGEMM_STATUS_INTERNAL_ERROR, std::string(where) + ": " + e.what());
  }
}

// The internal problem of a GEMM call's (validated) arguments; FP32 A, B, C and arithmetic unless
// `types` says otherwise.
GemmProblem call_problem(autogemmOperation_t transa, autogemmOperation_t transb, int m, int n, int k, float alpha,
                          const void* A, int lda, const void* B, int ldb, float beta, void* C, int ldc,
                          GemmTypes types = kF32Types) {
  GemmProblem p;
  p.op_a = transa == AUTOGEMM_OP_N ? Op::N : Op::T;
  p.op_b = transb == AUTOGEMM_OP_N ? Op::N : Op::T;
  p.m = m, p.n = n, p.k = k;
  p.a = A, p.lda = lda, p.b = B, p.ldb = ldb, p.c = C, p.ldc = ldc;
  p.alpha = alpha, p.beta = beta;
  p.types = types;
  return p;
}

// The arithmetic of the handle's FP32 GEMMs (its math mode).
ComputeType fp32_math(autogemmHandle_t handle) { return handle->fp32_math.load(std::memory_order_relaxed); }

// FP32 operands and output in the handle's math mode (autogemmSgemm).
GemmTypes fp32_types(autogemmHandle_t handle) {
  return GemmTypes{DataType::kF32, DataType::kF32, DataType::kF32, fp32_math(handle)};
}

// The chosen kernel on a problem with work to do.
void run_chosen(autogemmHandle_t handle, const GemmProblem& p) {
  const KernelChoice choice = handle->choose(p);
  const Workspace ws = handle->workspace(workspace_size(*choice.kernel, p, choice.split));
  AUTOGEMM_CUDA_CHECK(run(*choice.kernel, p, choice.split, ws, handle->stream));
}

// The call of a validated problem: BLAS's cases that multiply nothing, else the chosen kernel; a
// BF16/FP16 problem with an operand TMA cannot read runs on aligned copies (realigned.hpp).
autogemmStatus_t run_gemm(autogemmHandle_t handle, const GemmProblem& p) {
  if (p.m == 0 || p.n == 0) return AUTOGEMM_STATUS_SUCCESS;
  DeviceGuard guard(handle->device);
  if (p.k == 0 || p.alpha == 0.0f) {
    AUTOGEMM_CUDA_CHECK(launch_scale_c(p.types.c, p.m, p.n, p.beta, p.c, p.ldc, handle->stream));
    return AUTOGEMM_STATUS_SUCCESS;
  }
  if (!runs_on_copies(p)) {
    run_chosen(handle, p);
    return AUTOGEMM_STATUS_SUCCESS;
  }
  const RealignPlan plan = realign_plan(p);
  void* buffer = handle->realign_buffer(plan.bytes);
  const GemmProblem copies = realign_operands(p, plan, buffer, handle->stream);
  run_chosen(handle, copies);
  copy_back_c(p, copies, plan, handle->stream);
  return AUTOGEMM_STATUS_SUCCESS;
}

// What a call would run (autogemmExplain*): its arguments validated as the call validates them
// (`types_check`: the element types' verdict, null for FP32), then the handle's choice for the
// problem the call's kernel is chosen for (chosen_problem), cached as a call caches it.
autogemmStatus_t explain_call(const char* where, autogemmHandle_t handle, autogemmOperation_t transa,
                              autogemmOperation_t transb, int m, int n, int k, const void* A, int lda, const void* B,
                              int ldb, const void* C, int ldc, GemmTypes types, const Validation* types_check,
                              autogemmChoiceInfo_t* info) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, std::string(where) + ": invalid handle");
  if (info == nullptr) return fail(AUTOGEMM_STATUS_INVALID_VALUE, std::string(where) + ": info is null");
  const float one = 1.0f;  // alpha and beta do not change the choice
  if (const Validation v = validate_sgemm(transa, transb, m, n, k, &one, A, lda, B, ldb, &one, C, ldc); !v.ok())
    return fail(v.status, std::string(where) + ": " + v.message);
  if (types_check != nullptr && !types_check->ok())
    return fail(types_check->status, std::string(where) + ": " + types_check->message);
  *info = autogemmChoiceInfo_t{};
  return guarded(where, [&] {
    if (m == 0 || n == 0 || k == 0) return AUTOGEMM_STATUS_SUCCESS;  // nothing runs but a scale of C
    DeviceGuard guard(handle->device);
    const KernelChoice choice = handle->choose(
        chosen_problem(call_problem(transa, transb, m, n, k, 1.0f, A, lda, B, ldb, 1.0f, const_cast<void*>(C), ldc, types)));
    std::snprintf(info->kernel, sizeof info->kernel, "%.*s", static_cast<int>(choice.kernel->name.size()),
                  choice.kernel->name.data());
    std::snprintf(info->split, sizeof info->split, "%s", split_label(choice.split).c_str());
    std::snprintf(info->source, sizeof info->source, "%s", choice.source);
    info->time_us = choice.estimate_us;
    info->measured = std::string_view(choice.source) != "untuned";
    return AUTOGEMM_STATUS_SUCCESS;
  });
}

}  // namespace

extern "C" autogemmStatus_t autogemmCreateForDevice(autogemmHandle_t* handle, int device) {
  return guarded("autogemmCreateForDevice", [&] {
    if (handle == nullptr) return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmCreate: handle is a null pointer");
    *handle = nullptr;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      cudaGetLastError();
      return fail(AUTOGEMM_STATUS_NO_DEVICE, "autogemmCreate: no CUDA device is present");
    }
    if (device < 0 || device >= count)
      return fail(AUTOGEMM_STATUS_NO_DEVICE, "autogemmCreate: device = " + std::to_string(device) +
                                                 " is not in [0, " + std::to_string(count) + ")");
    int major = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (major < 8)
      return fail(AUTOGEMM_STATUS_ARCH_MISMATCH,
                  "autogemmCreate: device " + std::to_string(device) + " has compute capability " +
                      std::to_string(major) + ".x; autogemm needs 8.0 or newer");
    *handle = new autogemmContext(device);
    return AUTOGEMM_STATUS_SUCCESS;
  });
}

extern "C" autogemmStatus_t autogemmCreate(autogemmHandle_t* handle) {
  if (handle == nullptr) return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmCreate: handle is a null pointer");
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    *handle = nullptr;
    return fail(AUTOGEMM_STATUS_NO_DEVICE, "autogemmCreate: no CUDA device is present");
  }
  return autogemmCreateForDevice(handle, device);
}

extern "C" autogemmStatus_t autogemmDestroy(autogemmHandle_t handle) {
  if (handle == nullptr) return AUTOGEMM_STATUS_SUCCESS;  // like free(NULL)
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmDestroy: handle was not created by autogemmCreate");
  delete handle;
  return AUTOGEMM_STATUS_SUCCESS;
}

extern "C" autogemmStatus_t autogemmSetStream(autogemmHandle_t handle, cudaStream_t stream) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSetStream: invalid handle");
  handle->stream = stream;
  return AUTOGEMM_STATUS_SUCCESS;
}

extern "C" autogemmStatus_t autogemmGetStream(autogemmHandle_t handle, cudaStream_t* stream) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmGetStream: invalid handle");
  if (stream == nullptr) return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmGetStream: stream is a null pointer");
  *stream = handle->stream;
  return AUTOGEMM_STATUS_SUCCESS;
}

extern "C" autogemmStatus_t autogemmGetDevice(autogemmHandle_t handle, int* device) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmGetDevice: invalid handle");
  if (device == nullptr) return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmGetDevice: device is a null pointer");
  *device = handle->device;
  return AUTOGEMM_STATUS_SUCCESS;
}

extern "C" autogemmStatus_t autogemmSetMode(autogemmHandle_t handle, autogemmMode_t mode) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSetMode: invalid handle");
  if (mode != AUTOGEMM_MODE_TUNED && mode != AUTOGEMM_MODE_HEURISTIC && mode != AUTOGEMM_MODE_ONLINE)
    return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmSetMode: mode = " + std::to_string(static_cast<int>(mode)) +
                                                   " is not TUNED (0), HEURISTIC (1) or ONLINE (2)");
  {
    std::lock_guard lock(handle->mutex);
    handle->selector.settings.mode = mode == AUTOGEMM_MODE_TUNED       ? RuntimeMode::kTuned
                                     : mode == AUTOGEMM_MODE_HEURISTIC ? RuntimeMode::kHeuristic
                                                                       : RuntimeMode::kOnline;
  }
  handle->clear_choices();
  return AUTOGEMM_STATUS_SUCCESS;
}

// The math modes of the C API and the arithmetic each gives FP32 GEMMs.
constexpr std::pair<autogemmMath_t, ComputeType> kMathModes[] = {{AUTOGEMM_MATH_PEDANTIC, ComputeType::kF32},
                                                                 {AUTOGEMM_MATH_FP32_EMULATED, ComputeType::k3xTF32},
                                                                 {AUTOGEMM_MATH_TF32, ComputeType::kTF32}};

extern "C" autogemmStatus_t autogemmSetMathMode(autogemmHandle_t handle, autogemmMath_t mode) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSetMathMode: invalid handle");
  for (const auto& [math, arithmetic] : kMathModes)
    if (mode == math) {
      handle->fp32_math.store(arithmetic, std::memory_order_relaxed);
      return AUTOGEMM_STATUS_SUCCESS;
    }
  return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmSetMathMode: mode = " + std::to_string(static_cast<int>(mode)) +
                                                 " is not PEDANTIC (0), FP32_EMULATED (1) or TF32 (2)");
}

extern "C" autogemmStatus_t autogemmGetMathMode(autogemmHandle_t handle, autogemmMath_t* mode) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmGetMathMode: invalid handle");
  if (mode == nullptr) return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmGetMathMode: mode is a null pointer");
  const ComputeType current = fp32_math(handle);
  for (const auto& [math, arithmetic] : kMathModes)
    if (arithmetic == current) *mode = math;
  return AUTOGEMM_STATUS_SUCCESS;
}

extern "C" autogemmStatus_t autogemmSetOnlineBudget(autogemmHandle_t handle, double milliseconds) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSetOnlineBudget: invalid handle");
  if (!(milliseconds >= 0) || !std::isfinite(milliseconds))
    return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmSetOnlineBudget: milliseconds = " +
                                                   std::to_string(milliseconds) + " is not a finite number >= 0");
  std::lock_guard lock(handle->mutex);
  handle->selector.settings.online_budget_ms = milliseconds;
  return AUTOGEMM_STATUS_SUCCESS;
}

extern "C" autogemmStatus_t autogemmSetDatabasePath(autogemmHandle_t handle, const char* paths) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSetDatabasePath: invalid handle");
  return guarded("autogemmSetDatabasePath", [&] {
    {
      std::lock_guard lock(handle->mutex);
      handle->selector.settings.db_paths = paths ? split_path_list(paths) : tuning_db_search_path();
      handle->selector.settings.db_paths_explicit = paths != nullptr;
      // Read anew: a file found missing or read before may have been written since (gemm-tune tune).
      for (const std::string& path : handle->selector.settings.db_paths) forget_database(path);
    }
    handle->clear_choices();
    return AUTOGEMM_STATUS_SUCCESS;
  });
}

extern "C" autogemmStatus_t autogemmSetRecordUntuned(autogemmHandle_t handle, const char* path) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSetRecordUntuned: invalid handle");
  return guarded("autogemmSetRecordUntuned", [&] {
    std::lock_guard lock(handle->mutex);
    handle->selector.settings.record_untuned_path = path ? path : "";
    return AUTOGEMM_STATUS_SUCCESS;
  });
}

extern "C" autogemmStatus_t autogemmSetWorkspace(autogemmHandle_t handle, void* workspace, size_t bytes) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSetWorkspace: invalid handle");
  if (workspace != nullptr && bytes < autogemmContext::kUserWorkspaceHead)
    return fail(AUTOGEMM_STATUS_INVALID_VALUE, "autogemmSetWorkspace: bytes = " + std::to_string(bytes) +
                                                   " is less than the minimum " +
                                                   std::to_string(autogemmContext::kUserWorkspaceHead));
  return guarded("autogemmSetWorkspace", [&] {
    if (workspace != nullptr) {
      DeviceGuard guard(handle->device);
      AUTOGEMM_CUDA_CHECK(cudaMemsetAsync(workspace, 0, autogemmContext::kUserWorkspaceHead, handle->stream));
    }
    {
      std::lock_guard lock(handle->mutex);
      handle->workspace_.set_user(workspace, bytes);
    }
    handle->clear_choices();  // a tuned choice that repacks operands depends on the workspace's size
    return AUTOGEMM_STATUS_SUCCESS;
  });
}

extern "C" autogemmStatus_t autogemmExplainSgemm(autogemmHandle_t handle, autogemmOperation_t transa,
                                                 autogemmOperation_t transb, int m, int n, int k, const float* A,
                                                 int lda, const float* B, int ldb, const float* C, int ldc,
                                                 autogemmChoiceInfo_t* info) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmExplainSgemm: invalid handle");
  return explain_call("autogemmExplainSgemm", handle, transa, transb, m, n, k, A, lda, B, ldb, C, ldc,
                      fp32_types(handle), nullptr, info);
}

extern "C" autogemmStatus_t autogemmExplainGemmEx(autogemmHandle_t handle, autogemmOperation_t transa,
                                                  autogemmOperation_t transb, int m, int n, int k, const void* A,
                                                  cudaDataType_t Atype, int lda, const void* B, cudaDataType_t Btype,
                                                  int ldb, const void* C, cudaDataType_t Ctype, int ldc,
                                                  autogemmComputeType_t computeType, autogemmChoiceInfo_t* info) {
  GemmTypes types;
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmExplainGemmEx: invalid handle");
  const Validation v = validate_gemm_types(Atype, Btype, Ctype, computeType, fp32_math(handle), types);
  return explain_call("autogemmExplainGemmEx", handle, transa, transb, m, n, k, A, lda, B, ldb, C, ldc, types, &v,
                      info);
}

extern "C" autogemmStatus_t autogemmSgemm(autogemmHandle_t handle, autogemmOperation_t transa,
                                          autogemmOperation_t transb, int m, int n, int k, const float* alpha,
                                          const float* A, int lda, const float* B, int ldb, const float* beta,
                                          float* C, int ldc) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmSgemm: invalid handle");
  if (const Validation v = validate_sgemm(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); !v.ok())
    return fail(v.status, "autogemmSgemm: " + v.message);
  return guarded("autogemmSgemm", [&] {
    return run_gemm(handle,
                    call_problem(transa, transb, m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc, fp32_types(handle)));
  });
}

extern "C" autogemmStatus_t autogemmGemmEx(autogemmHandle_t handle, autogemmOperation_t transa,
                                           autogemmOperation_t transb, int m, int n, int k, const float* alpha,
                                           const void* A, cudaDataType_t Atype, int lda, const void* B,
                                           cudaDataType_t Btype, int ldb, const float* beta, void* C,
                                           cudaDataType_t Ctype, int ldc, autogemmComputeType_t computeType) {
  if (!live(handle)) return fail(AUTOGEMM_STATUS_NOT_INITIALIZED, "autogemmGemmEx: invalid handle");
  if (const Validation v = validate_sgemm(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); !v.ok())
    return fail(v.status, "autogemmGemmEx: " + v.message);
  GemmTypes types;
  if (const Validation v = validate_gemm_types(Atype, Btype, Ctype, computeType, fp32_math(handle), types); !v.ok())
    return fail(v.status, "autogemmGemmEx: " + v.message);
  return guarded("autogemmGemmEx", [&] {
    return run_gemm(handle, call_problem(transa, transb, m, n, k, *alpha, A, lda, B, ldb, *beta, C, ldc, types));
  });
}
