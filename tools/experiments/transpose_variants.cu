// Experiment 111 (docs/perf_notes.md): how close can the repack's transpose come to a plain copy of
// the same bytes, right after the benchmark's memset flush? At 4096^3 `nn` the transpose of B is the
// ~50 us that `nn` pays over `nt` (2.4-2.6 TB/s against the copy's ~3.0, change 24), and target 2 is
// within 0.5% of its line. Times, for R x C row-major FP32 matrices: cudaMemcpyAsync of the same
// bytes, then tile transposes TR x TC (reads: TR rows of TC contiguous floats; writes: TC rows of TR
// contiguous floats; 32 x 8 threads; tile padded by one column), with plain or streaming (.cs)
// stores. Each transpose is checked against the host on the first shape. Median of 21 runs.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "experiment_check.hpp"
#include "experiment_timing.hpp"

template <int TR, int TC, bool kStreamStore>
__global__ void __launch_bounds__(256) transpose(const float* __restrict__ in, float* __restrict__ out, int rows,
                                                 int cols) {
  __shared__ float tile[TR][TC + 1];
  const int c0 = blockIdx.x * TC, r0 = blockIdx.y * TR;
  for (int r = threadIdx.y; r < TR; r += 8)
    for (int c = threadIdx.x; c < TC; c += 32) {
      const int gr = r0 + r, gc = c0 + c;
      if (gr < rows && gc < cols) tile[r][c] = __ldcs(in + static_cast<size_t>(gr) * cols + gc);
    }
  __syncthreads();
  for (int c = threadIdx.y; c < TC; c += 8)
    for (int r = threadIdx.x; r < TR; r += 32) {
      const int gc = c0 + c, gr = r0 + r;
      if (gc >= cols || gr >= rows) continue;
      float* const dst = out + static_cast<size_t>(gc) * rows + gr;
      if constexpr (kStreamStore) {
        __stcs(dst, tile[r][c]);
      } else {
        *dst = tile[r][c];
      }
    }
}

struct Variant {
  const char* name;
  void (*launch)(const float*, float*, int, int);
};

template <int TR, int TC, bool kStream>
void launch_variant(const float* in, float* out, int rows, int cols) {
  const dim3 grid((cols + TC - 1) / TC, (rows + TR - 1) / TR), block(32, 8);
  transpose<TR, TC, kStream><<<grid, block>>>(in, out, rows, cols);
}

int main() {
  const size_t flush_bytes = l2_flush_bytes();
  if (flush_bytes == 0) return std::printf("cannot read the L2 size of device 0\n"), 1;
  void* flush = nullptr;
  CHECK(cudaMalloc(&flush, flush_bytes));
  const Variant variants[] = {{"32x32", launch_variant<32, 32, false>},       {"32x32 .cs", launch_variant<32, 32, true>},
                              {"64x64", launch_variant<64, 64, false>},       {"32x128", launch_variant<32, 128, false>},
                              {"128x32", launch_variant<128, 32, false>},     {"64x64 .cs", launch_variant<64, 64, true>}};
  const int shapes[][2] = {{4096, 4096}, {3072, 3072}, {4096, 11008}};
  bool first = true;
  for (const auto& s : shapes) {
    const int rows = s[0], cols = s[1];
    const size_t count = static_cast<size_t>(rows) * cols, bytes = count * sizeof(float);
    float *in = nullptr, *out = nullptr;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    std::vector<float> host(count), back(count);
    for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>(i % 1000003);
    CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
    auto flush_l2 = [&](int r) { cudaMemsetAsync(flush, r & 0xff, flush_bytes); };
    auto report = [&](const char* name, const std::vector<float>& us) {
      const double med = us[us.size() / 2];
      std::printf("%5d x %5d %-10s %8.1f us (fastest %8.1f), %5.2f TB/s read+write\n", rows, cols, name, med, us[0],
                  2.0 * bytes / med / 1e6);
    };
    report("copy", sorted_times_us(flush_l2, [&] { cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice); }, 22, 1));
    for (const Variant& v : variants) {
      report(v.name, sorted_times_us(flush_l2, [&] { v.launch(in, out, rows, cols); }, 22, 1));
      CHECK(cudaGetLastError());
      if (!first) continue;
      CHECK(cudaMemset(out, 0, bytes));
      v.launch(in, out, rows, cols);
      CHECK(cudaMemcpy(back.data(), out, bytes, cudaMemcpyDeviceToHost));
      size_t wrong = 0;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) wrong += back[static_cast<size_t>(c) * rows + r] != host[static_cast<size_t>(r) * cols + c];
      std::printf("  %s: %zu wrong elements\n", v.name, wrong);
      if (wrong != 0) return 1;
    }
    first = false;
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  return 0;
}
