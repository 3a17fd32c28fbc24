// Status strings, the thread-local last-error message, and the library version.
#include "status.hpp"

#include "logging.hpp"

namespace autogemm {
namespace {
thread_local std::string g_last_error;
}

autogemmStatus_t fail(autogemmStatus_t status, const std::string& message) {
  g_last_error = message;
  logger().warn("{}: {}", autogemmGetStatusString(status), message);
  return status;
}

void clear_last_error() { g_last_error.clear(); }

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  throw StatusError(err == cudaErrorMemoryAllocation ? AUTOGEMM_STATUS_ALLOC_FAILED : AUTOGEMM_STATUS_EXECUTION_FAILED,
                    std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                        cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace autogemm

extern "C" const char* autogemmGetStatusString(autogemmStatus_t status) {
  switch (status) {
    case AUTOGEMM_STATUS_SUCCESS: return "AUTOGEMM_STATUS_SUCCESS: success";
    case AUTOGEMM_STATUS_NOT_INITIALIZED: return "AUTOGEMM_STATUS_NOT_INITIALIZED: handle is null or not created";
    case AUTOGEMM_STATUS_INVALID_VALUE: return "AUTOGEMM_STATUS_INVALID_VALUE: an argument is out of range";
    case AUTOGEMM_STATUS_ALLOC_FAILED: return "AUTOGEMM_STATUS_ALLOC_FAILED: memory allocation failed";
    case AUTOGEMM_STATUS_ARCH_MISMATCH: return "AUTOGEMM_STATUS_ARCH_MISMATCH: device older than sm_80 or not built for";
    case AUTOGEMM_STATUS_NOT_SUPPORTED: return "AUTOGEMM_STATUS_NOT_SUPPORTED: no compiled kernel implements this";
    case AUTOGEMM_STATUS_EXECUTION_FAILED: return "AUTOGEMM_STATUS_EXECUTION_FAILED: a CUDA call or launch failed";
    case AUTOGEMM_STATUS_NO_DEVICE: return "AUTOGEMM_STATUS_NO_DEVICE: no usable CUDA device";
    case AUTOGEMM_STATUS_INTERNAL_ERROR: return "AUTOGEMM_STATUS_INTERNAL_ERROR: internal error";
  }
  return "unknown autogemmStatus_t value";
}

extern "C" const char* autogemmGetLastErrorMessage(void) { return autogemm::g_last_error.c_str(); }

extern "C" const char* autogemmGetVersion(void) { return AUTOGEMM_VERSION_STRING; }
