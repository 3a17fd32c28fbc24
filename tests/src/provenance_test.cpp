// The device UUID text written into every measurement's provenance and the bench JSON: the form
// nvidia-smi prints, so a result can be matched to `nvidia-smi -L` on the machine.
#include <gtest/gtest.h>

#include "provenance.hpp"

namespace autogemm {
namespace {

TEST(Provenance, GpuUuidIsNvidiaSmiText) {
  cudaUUID_t uuid{};
  for (int i = 0; i < 16; ++i) uuid.bytes[i] = static_cast<char>(i * 17);  // 00 11 22 .. ff
  EXPECT_EQ(gpu_uuid_string(uuid), "GPU-00112233-4455-6677-8899-aabbccddeeff");
}

}  // namespace
}  // namespace autogemm
