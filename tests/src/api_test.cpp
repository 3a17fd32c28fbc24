// The C API without a GPU: handle checks, status strings, last-error messages, and device errors
// that are reported, not crashed on.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "autogemm/autogemm.h"
#include "autogemm/autogemm.hpp"

namespace {

TEST(CApi, NullHandleIsNotInitialized) {
  const float one = 1.0f;
  float c = 0;
  EXPECT_EQ(autogemmSgemm(nullptr, AUTOGEMM_OP_N, AUTOGEMM_OP_N, 1, 1, 1, &one, &one, 1, &one, 1, &one, &c, 1),
            AUTOGEMM_STATUS_NOT_INITIALIZED);
  EXPECT_NE(std::string(autogemmGetLastErrorMessage()).find("invalid handle"), std::string::npos);
  EXPECT_EQ(autogemmSetStream(nullptr, nullptr), AUTOGEMM_STATUS_NOT_INITIALIZED);
  cudaStream_t s;
  EXPECT_EQ(autogemmGetStream(nullptr, &s), AUTOGEMM_STATUS_NOT_INITIALIZED);
  EXPECT_EQ(autogemmDestroy(nullptr), AUTOGEMM_STATUS_SUCCESS);  // like free(NULL)
}

TEST(CApi, CreateRejectsNullOutputAndBadDevice) {
  EXPECT_EQ(autogemmCreate(nullptr), AUTOGEMM_STATUS_INVALID_VALUE);
  autogemmHandle_t h = reinterpret_cast<autogemmHandle_t>(0x1);
  const autogemmStatus_t s = autogemmCreateForDevice(&h, 12345);
  EXPECT_EQ(h, nullptr);
  EXPECT_EQ(s, AUTOGEMM_STATUS_NO_DEVICE);
  EXPECT_FALSE(std::string(autogemmGetLastErrorMessage()).empty());
}

TEST(CApi, CreateWithoutGpuSaysNoDevice) {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) GTEST_SKIP() << "a GPU is present";
  cudaGetLastError();
  autogemmHandle_t h = nullptr;
  EXPECT_EQ(autogemmCreate(&h), AUTOGEMM_STATUS_NO_DEVICE);
  EXPECT_EQ(h, nullptr);
  EXPECT_THROW(autogemm::Handle{}, autogemm::Error);
}

TEST(CApi, EveryStatusHasItsOwnString) {
  std::set<std::string> seen;
  for (int s = AUTOGEMM_STATUS_SUCCESS; s <= AUTOGEMM_STATUS_INTERNAL_ERROR; ++s) {
    const std::string text = autogemmGetStatusString(static_cast<autogemmStatus_t>(s));
    EXPECT_TRUE(seen.insert(text).second) << text;
    EXPECT_EQ(text.rfind("AUTOGEMM_STATUS_", 0), 0u) << text;
  }
  EXPECT_NE(autogemmGetStatusString(static_cast<autogemmStatus_t>(999)), nullptr);
}

TEST(CApi, VersionIsSemantic) {
  const std::string v = autogemmGetVersion();
  EXPECT_EQ(std::count(v.begin(), v.end(), '.'), 2) << v;
}

}  // namespace
