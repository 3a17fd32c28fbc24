// The accuracy of the FP32 arithmetics (pedantic, 3xTF32, TF32) against float64, on data that
// strains each: the error of each output element relative to Σ_k |a_ik·b_kj|, the scale every sum's
// rounding errors are measured on (a relative error of the result itself is unbounded where the sum
// cancels). `gemm-tune accuracy` reports it; the GPU suite asserts 3xTF32's bound with it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data_types.hpp"

namespace autogemm {

/// The data an accuracy problem holds. kRandom: uniform in [-1, 1]. kWideExponents: random signs and
/// mantissas at exponents spread over [-40, 40]. kNearLimits: A subnormal or barely normal
/// (2^-149 ... 2^-100), B near FP32's largest (2^96 ... 2^126), so each product is representable but
/// every operand is at an end of the range (3xTF32's low parts of A fall below FP32's normal range).
/// kCancellation: the second half of K repeats A and negates B to 2^-12 relative, so each sum is a
/// small remainder of large terms.
enum class AccuracyData { kRandom, kWideExponents, kNearLimits, kCancellation };
inline constexpr AccuracyData kAccuracyData[] = {AccuracyData::kRandom, AccuracyData::kWideExponents,
                                                 AccuracyData::kNearLimits, AccuracyData::kCancellation};
const char* accuracy_data_name(AccuracyData data);

/// Worst and median error of one result over its elements (infinite where an element is not finite).
struct AccuracyResult {
  double worst = 0, median = 0;
};

/// Column-major C (m x n) = A (m x k) · B (k x n), `nn`, of one kind of data, with the float64 result
/// and Σ|a·b| of every element, on the current device.
class AccuracyProblem {
 public:
  AccuracyProblem(AccuracyData data, int m, int n, int k, uint64_t seed);

  int m() const { return m_; }
  int n() const { return n_; }
  int k() const { return k_; }
  const float* a() const { return a_.get(); }
  const float* b() const { return b_.get(); }
  /// An m x n output buffer (leading dimension m) to compute into.
  float* c() const { return c_.get(); }
  /// The error of c() (synchronises the device).
  AccuracyResult error() const;

 private:
  struct CudaFree {
    void operator()(void* p) const;
  };
  template <class T>
  using DevicePtr = std::unique_ptr<T, CudaFree>;
  int m_, n_, k_;
  DevicePtr<float> a_, b_, c_;
  DevicePtr<double> ref_, abs_sum_;
};

/// Runs `problem` into its c() with autogemm's first compiled instance of exactly `types` that can
/// run it, so that the arithmetic measured is that one and no more accurate one the handle's choice
/// could serve it with: in `splits` parallel splits of the K it runs (1: unsplit), or with 0 in the
/// fewest its split candidates hold (unsplit unless the family's rules ask for more: 3xTF32 on small
/// outputs, kEmulatedSplitSum). Returns the splits it ran, with the instance's name in `kernel_name`
/// where given; 0 where no compiled instance runs the problem so.
int run_with_arithmetic(const AccuracyProblem& problem, const GemmTypes& types, cudaStream_t stream, int splits = 0,
                        std::string* kernel_name = nullptr);

/// One row of the accuracy table.
struct AccuracyRow {
  std::string data, method, kernel;
  int k = 0;
  int splits = 1;  // splits of the K the instance runs (3xTF32: 3 K, its three products')
  AccuracyResult result;
};

/// Every kind of data at each K (m = n = `size`): cuBLAS pedantic SGEMM, cuBLAS TF32, and autogemm
/// pedantic, 3xTF32 and TF32 (run_with_arithmetic in the fewest splits the runtime allows), then
/// 3xTF32 in each of `emulated_splits` (method autogemm_3xtf32_split, whatever the rules allow), in
/// that order per (data, K). Rows of autogemm arithmetics or splits with no compiled instance are
/// left out.
std::vector<AccuracyRow> measure_accuracy(const std::vector<int>& ks, int size, uint64_t seed,
                                          const std::vector<int>& emulated_splits = {});

}  // namespace autogemm
