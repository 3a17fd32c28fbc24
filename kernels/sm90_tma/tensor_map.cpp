// See tensor_map.hpp.
#include "tensor_map.hpp"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <algorithm>

namespace autogemm::detail {

namespace {
// The driver's encoder, looked up once through the runtime (no link against libcuda).
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      return static_cast<PFN_cuTensorMapEncodeTiled_v12000>(nullptr);
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}
}  // namespace

cudaError_t encode_x_major_tile_map(CUtensorMap* map, const float* base, int64_t x_extent, int64_t k, int64_t ld,
                                    int box_x, int box_k) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = tensor_map_encoder();
  if (encode == nullptr) return cudaErrorNotSupported;
  // An empty extent still needs a valid description: no box is ever copied then (k = 0 has no
  // k-tiles, m or n = 0 no blocks).
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(std::max<int64_t>(1, x_extent)),
                              static_cast<cuuint64_t>(std::max<int64_t>(1, k))};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(std::max<int64_t>(ld, 4)) * sizeof(float)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_x), static_cast<cuuint32_t>(box_k)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box,
                            element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace autogemm::detail
