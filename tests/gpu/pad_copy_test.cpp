// The padded copies' kernel (pad_copy.hpp): every element of each source in its copy's top-left
// corner and zeros elsewhere, for sources at every 2-byte offset from 16-byte alignment and pitches
// that are not multiples of 16 bytes, columns of fewer, as many and more rows than a thread's 16
// bytes, and copies of different shapes sharing a launch. Each source ends where its allocation
// ends, so a read past its last element is one compute-sanitizer's memcheck reports.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "gpu_test.hpp"
#include "pad_copy.hpp"

namespace autogemm::testing {
namespace {

// One copy of 2-byte elements: its random source on the device (`shift` bytes past an aligned
// allocation that ends with the source), its destination (poisoned), and the check of the result.
struct CopyCase {
  int64_t rows, cols, src_ld, dst_rows, dst_cols;
  int shift;
  std::vector<uint16_t> host;
  std::unique_ptr<DeviceBuffer<char>> src;
  std::unique_ptr<DeviceBuffer<uint16_t>> dst;

  int64_t dst_ld() const { return (dst_rows + 7) / 8 * 8; }

  CopyCase(int64_t rows_, int64_t cols_, int64_t src_ld_, int shift_, int64_t dst_rows_, int64_t dst_cols_)
      : rows(rows_), cols(cols_), src_ld(src_ld_), dst_rows(dst_rows_), dst_cols(dst_cols_), shift(shift_) {
    host.resize(static_cast<size_t>((cols - 1) * src_ld + rows));
    std::mt19937 rng(static_cast<uint32_t>(rows * 131 + cols * 7 + shift));
    for (auto& x : host) x = static_cast<uint16_t>(rng() | 1u);  // never zero, so a missed copy shows
    src = std::make_unique<DeviceBuffer<char>>(host.size() * 2 + shift);
    dst = std::make_unique<DeviceBuffer<uint16_t>>(static_cast<size_t>(dst_ld() * dst_cols));
  }

  cudaError_t upload() const {
    if (cudaError_t e = cudaMemcpy(src->get() + shift, host.data(), host.size() * 2, cudaMemcpyHostToDevice))
      return e;
    return cudaMemset(dst->get(), 0xff, dst->count() * 2);
  }

  PadCopy copy() const { return {dst->get(), dst_ld(), dst_rows, dst_cols, src->get() + shift, src_ld, rows, cols}; }

  void check() const {
    SCOPED_TRACE(::testing::Message() << "rows=" << rows << " cols=" << cols << " src_ld=" << src_ld
                                      << " shift=" << shift << " dst " << dst_rows << "x" << dst_cols);
    std::vector<uint16_t> out(dst->count());
    ASSERT_EQ(cudaMemcpy(out.data(), dst->get(), out.size() * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    int64_t wrong = 0, first_i = -1, first_j = -1;
    for (int64_t j = 0; j < dst_cols; ++j)
      for (int64_t i = 0; i < dst_rows; ++i) {
        const uint16_t want = i < rows && j < cols ? host[static_cast<size_t>(i + j * src_ld)] : 0;
        if (out[static_cast<size_t>(i + j * dst_ld())] != want && wrong++ == 0) first_i = i, first_j = j;
      }
    EXPECT_EQ(wrong, 0) << "first wrong element at row " << first_i << ", column " << first_j;
  }
};

class PadCopyTest : public GpuTest {};

TEST_F(PadCopyTest, CopiesEveryElementFromAnyAlignmentAndPitch) {
  for (int shift = 0; shift < 16; shift += 2)
    for (int64_t rows : {1, 7, 8, 9, 100, 517}) {
      const CopyCase c(rows, 5, rows + 3, shift, (rows + 63) / 64 * 64, 7);
      ASSERT_CUDA(c.upload());
      ASSERT_CUDA(launch_pad_copy(c.dst->get(), c.dst_ld(), c.dst_rows, c.dst_cols, c.src->get() + c.shift, c.src_ld,
                                  c.rows, c.cols, 2, nullptr));
      ASSERT_CUDA(cudaDeviceSynchronize());
      c.check();
    }
}

// A, B and C of a call in one launch: each copy's blocks write its own chunks only (a column of 5000
// rows, 33 of 700 in 40, 70000 columns of 3 rows, more than one grid dimension holds).
TEST_F(PadCopyTest, CopiesOfDifferentShapesShareALaunch) {
  const CopyCase cases[] = {{5000, 9, 5003, 2, 5056, 9}, {700, 33, 712, 6, 704, 40}, {3, 70000, 5, 4, 8, 70000}};
  PadCopy copies[kMaxPadCopies];
  for (int i = 0; i < kMaxPadCopies; ++i) {
    ASSERT_CUDA(cases[i].upload());
    copies[i] = cases[i].copy();
  }
  ASSERT_CUDA(launch_pad_copies(copies, kMaxPadCopies, 2, nullptr));
  ASSERT_CUDA(cudaDeviceSynchronize());
  for (const CopyCase& c : cases) c.check();
}

}  // namespace
}  // namespace autogemm::testing
