// Experiment: a fingerprint of how this GPU's SMs are grouped into GPCs (which differs between
// dies by floorsweeping), from cudaOccupancyMaxActiveClusters of a kernel that fits one block per
// SM (256 threads, 132 KB of shared memory: the 128x192x32 tile's footprint) and of one that fits
// three (128 threads, 48 KB), for cluster sizes 1..16. Asked because the same 3072^3 kernels run the
// one-block-per-SM 128x192x32 tile 2.9% slower on some H100s and every other candidate alike
// (docs/perf_notes.md, "What would move the numbers next"). Built with the tools
// (BUILD/tools/gpc_fingerprint).
#include <cuda_runtime.h>

#include <cstdio>

#include "experiment_check.hpp"

__global__ void resident(float* out) {
  extern __shared__ float smem[];
  smem[threadIdx.x] = 0.0f;
  if (out != nullptr) out[threadIdx.x] = smem[threadIdx.x];
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaFuncSetAttribute(resident, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  const struct {
    int threads, smem;
  } footprints[] = {{256, 132096}, {128, 49152}};
  for (const auto& f : footprints) {
    CHECK(cudaFuncSetAttribute(resident, cudaFuncAttributeMaxDynamicSharedMemorySize, f.smem));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, resident, f.threads, f.smem));
    std::printf("%3d threads, %6d B smem: %d blocks/SM x %d SMs; resident blocks in clusters of 1..16:", f.threads,
                f.smem, per_sm, sms);
    for (int size = 1; size <= 16; ++size) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(size);
      config.blockDim = dim3(f.threads);
      config.dynamicSmemBytes = f.smem;
      cudaLaunchAttribute cluster{};
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = size;
      cluster.val.clusterDim.y = 1;
      cluster.val.clusterDim.z = 1;
      config.attrs = &cluster;
      config.numAttrs = 1;
      int clusters = 0;
      if (cudaOccupancyMaxActiveClusters(&clusters, resident, &config) != cudaSuccess) {
        cudaGetLastError();
        std::printf(" -");
        continue;
      }
      std::printf(" %d", clusters * size);
    }
    std::printf("\n");
  }
  return 0;
}
