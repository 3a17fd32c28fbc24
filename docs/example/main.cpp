// Calls the C API the way an application would. Without a GPU it reports the status and exits 0:
// the point of the consumer test is that the package configures, compiles and links.
#include <autogemm/autogemm.h>

#include <cstdio>

int main() {
  autogemmHandle_t handle = nullptr;
  const autogemmStatus_t s = autogemmCreate(&handle);
  std::printf("autogemm %s: autogemmCreate -> %s\n", autogemmGetVersion(), autogemmGetStatusString(s));
  if (s != AUTOGEMM_STATUS_SUCCESS) return s == AUTOGEMM_STATUS_NO_DEVICE ? 0 : 1;
  const float alpha = 1.0f, beta = 0.0f;
  // m = n = k = 0 is a valid no-op call: it exercises the full argument path without device memory.
  const autogemmStatus_t g =
      autogemmSgemm(handle, AUTOGEMM_OP_N, AUTOGEMM_OP_N, 0, 0, 0, &alpha, nullptr, 1, nullptr, 1, &beta, nullptr, 1);
  autogemmDestroy(handle);
  return g == AUTOGEMM_STATUS_SUCCESS ? 0 : 1;
}
