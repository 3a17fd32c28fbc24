// Measures how many blocks of a GEMM instance can be resident at once when the splits of a tile are
// launched as one thread-block cluster (the reason of docs/decisions.md, No reduction inside the GEMM
// launch: 2- and 3-block clusters run 1-3% faster than the reduction kernel, 4-block clusters 30-60%
// slower, because clusters fit fewer resident blocks). For a few instances, prints the blocks per SM
// the device grants (cudaOccupancyMaxActiveBlocksPerMultiprocessor, times the SM count) against
// cudaOccupancyMaxActiveClusters x cluster size for clusters of 1..8 blocks along z (the split
// dimension). Built with the tools (BUILD/tools/cluster_occupancy).
#include <cuda_runtime.h>

#include <cstdio>
#include <string_view>

#include "experiment_check.hpp"
#include "registry.hpp"

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::string_view names[] = {
      "simt_sgemm_64x64x32_w64x32_t8x8_ks2_s3_b128x3_nt_align4", "simt_sgemm_64x64x32_w32x32_t4x8_s3_b128x1_nn_align4",
      "simt_sgemm_64x64x16_w32x32_t4x8_s3_b128x1_nn_align1",     "simt_sgemm_128x16x32_w32x16_t4x4_s3_b128x1_nn_align4",
      "simt_sgemm_128x64x16_w64x32_t8x8_s3_b128x1_nt_align4",    "simt_sgemm_32x32x32_w32x16_t4x4_ks2_s3_b128x4_nn_align4"};
  std::printf("%-58s %8s %6s  resident blocks in clusters of 1..8 along z\n", "instance", "smem", "blocks");
  for (std::string_view name : names) {
    const autogemm::KernelInstance* k = autogemm::find_kernel(name);
    if (k == nullptr) {
      std::printf("%-58s not compiled\n", std::string(name).c_str());
      continue;
    }
    CHECK(cudaFuncSetAttribute(k->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, k->shared_bytes()));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k->kernel, k->threads(), k->shared_bytes()));
    std::printf("%-58s %8d %6d ", std::string(name).c_str(), k->shared_bytes(), per_sm * sms);
    for (int size = 1; size <= 8; ++size) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(1, 1, size);
      config.blockDim = dim3(k->threads());
      config.dynamicSmemBytes = k->shared_bytes();
      cudaLaunchAttribute cluster{};
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = 1;
      cluster.val.clusterDim.y = 1;
      cluster.val.clusterDim.z = size;
      config.attrs = &cluster;
      config.numAttrs = 1;
      int clusters = 0;
      const cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, k->kernel, &config);
      if (e != cudaSuccess) {
        cudaGetLastError();
        std::printf(" %5s", "err");
        continue;
      }
      std::printf(" %5d", clusters * size);
    }
    std::printf("\n");
  }
  return 0;
}
