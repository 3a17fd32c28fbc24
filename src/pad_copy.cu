// See pad_copy.hpp.
#include "pad_copy.hpp"

#include <algorithm>

#include "grid_dependency.cuh"

namespace autogemm {
namespace {

constexpr int kThreads = 256;
// Blocks of one copy at most; past them its blocks stride over the rest (a 1 GB copy is 2^26 chunks).
constexpr int64_t kMaxBlocksPerCopy = int64_t{1} << 20;

struct PadCopies {
  PadCopy copy[kMaxPadCopies];
  int64_t first_block[kMaxPadCopies + 1] = {};  // copy i runs blocks [first_block[i], first_block[i + 1])
};

// Each thread writes 16-byte chunks of its copy's dst (kPer elements of T), numbered down each column
// and then across the columns, so that a warp's chunks are consecutive in memory and a block is busy
// whatever the columns' length (a column of 104 rows holds 13 chunks); it reads them from src one by
// one (src may have any pitch and alignment), zeros past src's rows or columns. dst's leading
// dimension is a multiple of 16 bytes and its base 16-byte aligned (the realignment buffer's copies),
// so the store is one vector where the column holds all kPer rows.
template <class T>
__global__ void pad_copy_kernel(const __grid_constant__ PadCopies copies) {
  constexpr int kPer = 16 / sizeof(T);
  // Launched as a programmatic dependent of the kernel before it (the caller's, or the GEMM whose C
  // it copies back): nothing is read before that kernel has finished.
  wait_for_previous_grid();
  int which = 0;
  while (blockIdx.x >= copies.first_block[which + 1]) ++which;
  const PadCopy& c = copies.copy[which];
  T* __restrict__ dst = static_cast<T*>(c.dst);
  const T* __restrict__ src = static_cast<const T*>(c.src);
  const bool vector = reinterpret_cast<uintptr_t>(dst) % 16 == 0 && c.dst_ld % kPer == 0;
  const int64_t column_chunks = (c.dst_rows + kPer - 1) / kPer, chunks = column_chunks * c.dst_cols;
  const int64_t blocks = copies.first_block[which + 1] - copies.first_block[which];
  for (int64_t chunk = (blockIdx.x - copies.first_block[which]) * kThreads + threadIdx.x; chunk < chunks;
       chunk += blocks * kThreads) {
    const int64_t j = chunk / column_chunks, i0 = (chunk - j * column_chunks) * kPer;
    alignas(16) T v[kPer];
#pragma unroll
    for (int e = 0; e < kPer; ++e) v[e] = i0 + e < c.rows && j < c.cols ? src[i0 + e + j * c.src_ld] : T{0};
    T* out = dst + i0 + j * c.dst_ld;
    if (vector && i0 + kPer <= c.dst_rows) {
      *reinterpret_cast<uint4*>(out) = *reinterpret_cast<const uint4*>(v);
    } else {
      for (int e = 0; e < kPer && i0 + e < c.dst_rows; ++e) out[e] = v[e];
    }
  }
}

template <class T>
cudaError_t launch(const PadCopy* list, int count, cudaStream_t stream) {
  constexpr int kPer = 16 / sizeof(T);
  PadCopies copies;
  int used = 0;
  for (int i = 0; i < count; ++i) {
    const PadCopy& c = list[i];
    if (c.dst_rows == 0 || c.dst_cols == 0) continue;
    const int64_t chunks = (c.dst_rows + kPer - 1) / kPer * c.dst_cols;
    copies.copy[used] = c;
    const int64_t blocks = std::min((chunks + kThreads - 1) / kThreads, kMaxBlocksPerCopy);
    copies.first_block[used + 1] = copies.first_block[used] + blocks;
    ++used;
  }
  if (used == 0) return cudaSuccess;  // a block's search for its copy stops at copy used - 1
  return dependent_launch(dim3(static_cast<unsigned>(copies.first_block[used])), dim3(kThreads), stream)
      .launch(pad_copy_kernel<T>, copies);
}

}  // namespace

cudaError_t launch_pad_copies(const PadCopy* copies, int count, int element_bytes, cudaStream_t stream) {
  if (count < 0 || count > kMaxPadCopies) return cudaErrorInvalidValue;
  if (element_bytes == 2) return launch<uint16_t>(copies, count, stream);
  if (element_bytes == 4) return launch<uint32_t>(copies, count, stream);
  return cudaErrorInvalidValue;
}

cudaError_t launch_pad_copy(void* dst, int64_t dst_ld, int64_t dst_rows, int64_t dst_cols, const void* src,
                            int64_t src_ld, int64_t rows, int64_t cols, int element_bytes, cudaStream_t stream) {
  const PadCopy copy{dst, dst_ld, dst_rows, dst_cols, src, src_ld, rows, cols};
  return launch_pad_copies(&copy, 1, element_bytes, stream);
}

}  // namespace autogemm
