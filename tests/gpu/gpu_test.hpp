// Shared pieces of the GPU tests: the skip-without-GPU fixture, a device buffer that owns memory, and
// a CUDA-graph capture-and-replay of library calls.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>

namespace autogemm::testing {

extern bool g_has_gpu;

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

#define ASSERT_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call << ": " << cudaGetErrorString(cudaGetLastError())

}  // namespace autogemm::testing
