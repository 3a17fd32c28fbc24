// Internal error plumbing: a thread-local last-error message behind the C API, and the CUDA_CHECK
// macro that reports file, line and call text. Errors become an autogemmStatus_t at the boundary.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "autogemm/autogemm.h"

namespace autogemm {

/// An internal failure carrying the status the C API will return.
class StatusError : public std::runtime_error {
 public:
  StatusError(autogemmStatus_t status, const std::string& message) : std::runtime_error(message), status_(status) {}
  autogemmStatus_t status() const noexcept { return status_; }

 private:
  autogemmStatus_t status_;
};

/// Records `message` as this thread's last error, logs it at warn level, and returns `status`.
autogemmStatus_t fail(autogemmStatus_t status, const std::string& message);
void clear_last_error();

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);

}  // namespace autogemm

#define AUTOGEMM_CUDA_CHECK(call)                                                        \
  do {                                                                                   \
    const cudaError_t autogemm_err_ = (call);                                            \
    if (autogemm_err_ != cudaSuccess) ::autogemm::throw_cuda_error(autogemm_err_, #call, __FILE__, __LINE__); \
  } while (0)
