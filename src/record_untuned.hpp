// AUTOGEMM_RECORD_UNTUNED: appends each problem that fell back to the untuned choice, once per
// process, to a CSV that `gemm-tune tune --shapes FILE` reads back. The format is defined here.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace autogemm {

/// One untuned call as the CSV records it (cuBLAS terms): the ops of A and B, m, n, k, the leading
/// dimensions, the alignment class (the elements in 16 bytes, 4 for FP32 and 8 for BF16/FP16, when
/// A and B are 16-byte aligned with leading dimensions multiples of 16 bytes; else 1) and the types
/// (types_key: "f32", "bf16.bf16.bf16.f32"), so that a problem is tuned as it ran.
struct RecordedProblem {
  char transa = 'n', transb = 'n';
  int m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int align = 4;
  std::string dtype = "f32";
  auto operator<=>(const RecordedProblem&) const = default;
};

/// Header of the CSV of column-major problems.
inline constexpr const char* kProblemsCsvHeader = "transa,transb,m,n,k,lda,ldb,ldc,align,dtype";
/// The headers of files written before the types (V2) and before the leading dimensions and the
/// class (V1) were recorded; still read (V1's problems with minimal leading dimensions; both with
/// the types `gemm-tune tune --dtype` names), and appended to in their form.
inline constexpr const char* kProblemsCsvHeaderV2 = "transa,transb,m,n,k,lda,ldb,ldc,align";
inline constexpr const char* kProblemsCsvHeaderV1 = "transa,transb,m,n,k";

/// Appends one line of kProblemsCsvHeader's columns to `path` (writing the header first when the
/// file is new or empty). Lines are written whole with O_APPEND, so several processes may share the
/// file. A failure to write is warned about once per path and otherwise ignored.
void record_untuned(const std::string& path, const RecordedProblem& problem);

}  // namespace autogemm
