// The CUDA element type of each DataType, for host code that launches kernels templated on it.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "data_types.hpp"

namespace autogemm {

/// Returns f(T{}) with T the element type of `t` (float, __nv_bfloat16, __half).
template <class F>
cudaError_t with_element(DataType t, F&& f) {
  switch (t) {
    case DataType::kF32: return f(float{});
    case DataType::kBF16: return f(__nv_bfloat16{});
    case DataType::kF16: return f(__half{});
  }
  return cudaErrorInvalidValue;
}

}  // namespace autogemm
