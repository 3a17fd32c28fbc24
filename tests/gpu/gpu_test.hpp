// Shared pieces of the GPU tests: the skip-without-GPU fixture and a device buffer that owns memory.
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

#define ASSERT_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call << ": " << cudaGetErrorString(cudaGetLastError())

}  // namespace autogemm::testing
