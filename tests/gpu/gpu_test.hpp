// Shared pieces of the GPU tests: the skip-without-GPU fixture, a device buffer that owns memory, the
// operands of one test GEMM, a CUDA-graph capture-and-replay of library calls, the current device's
// limits, and the name of a test parameterised by a registry index.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "check.hpp"
#include "operation.hpp"
#include "registry.hpp"

namespace autogemm::testing {

extern bool g_has_gpu;

/// AUTOGEMM_TEST_SANITIZER=1: the suite runs under compute-sanitizer (10-100x slower), and tests cut
/// their work to what covers every path (instance_test.cpp, tight_allocation_test.cpp).
inline bool sanitizer_mode() {
  const char* v = std::getenv("AUTOGEMM_TEST_SANITIZER");
  return v != nullptr && std::string(v) == "1";
}

/// One problem of an instance test: extents, alpha and beta, the split of K.
struct Case {
  int m, n, k;
  float alpha, beta;
  SplitChoice split;
};

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!g_has_gpu) GTEST_SKIP() << "no CUDA device";
  }
};

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count > 0 && cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)) != cudaSuccess) ptr_ = nullptr;
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }
  size_t count() const { return count_; }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

/// A, B, C and C0 of one test GEMM. fill(): A, B and C0 uniform from `seed`; C a copy of C0, or all
/// NaN when `poison_c` (for beta = 0, which must never read C).
struct GemmBuffers {
  GemmBuffers(size_t a_elems, size_t b_elems, size_t c_elems) : a(a_elems), b(b_elems), c(c_elems), c0(c_elems) {}
  cudaError_t fill(uint64_t seed, bool poison_c) const {
    cudaError_t e = fill_uniform(a.get(), a.count(), seed * 4 + 1, nullptr);
    if (e == cudaSuccess) e = fill_uniform(b.get(), b.count(), seed * 4 + 2, nullptr);
    if (e == cudaSuccess) e = fill_uniform(c0.get(), c0.count(), seed * 4 + 3, nullptr);
    if (e == cudaSuccess)
      e = poison_c ? fill_nan(c.get(), c.count(), nullptr)
                   : cudaMemcpy(c.get(), c0.get(), c.count() * sizeof(float), cudaMemcpyDeviceToDevice);
    return e;
  }
  DeviceBuffer<float> a, b, c, c0;
};

/// Sets the padding of a column-major matrix (elements rows .. ld - 1 of each of its `cols` columns)
/// to NaN: residue instances (KernelConfig::residues) read such foreign elements with their aligned
/// copies and must keep them out of C, where any that leaks shows as NaN.
inline cudaError_t poison_padding(float* matrix, int64_t ld, int rows, int cols) {
  if (ld <= rows || cols <= 0) return cudaSuccess;
  return cudaMemset2D(matrix + rows, static_cast<size_t>(ld) * sizeof(float), 0xff,
                      static_cast<size_t>(ld - rows) * sizeof(float), static_cast<size_t>(cols));
}

/// Captures what `enqueue` puts on `stream` into a CUDA graph, launches the graph once and waits for
/// it; the graph is destroyed either way. Returns the first CUDA error. (Library calls inside
/// `enqueue` report through their own status: check them there with EXPECT_*.)
template <class Enqueue>
cudaError_t run_captured(cudaStream_t stream, Enqueue&& enqueue) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  if (e == cudaSuccess) {
    enqueue();
    e = cudaStreamEndCapture(stream, &graph);
  }
  if (e == cudaSuccess) e = cudaGraphInstantiate(&exec, graph, 0);
  if (e == cudaSuccess) e = cudaGraphLaunch(exec, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (exec != nullptr) cudaGraphExecDestroy(exec);
  if (graph != nullptr) cudaGraphDestroy(graph);
  return e;
}

/// The limits the library reads for the current device (what cannot_implement is asked against).
inline cudaError_t current_device_limits(DeviceLimits& limits) {
  int device = 0;
  const cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) limits = query_device_limits(device);
  return e;
}

#define ASSERT_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call << ": " << cudaGetErrorString(cudaGetLastError())

/// A test parameterised by a kernel registry index is named after the instance.
inline std::string instance_name(const ::testing::TestParamInfo<size_t>& info) {
  return std::string(kernel_registry()[info.param].name);
}

}  // namespace autogemm::testing
