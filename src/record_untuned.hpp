// AUTOGEMM_RECORD_UNTUNED: appends each problem that fell back to the untuned choice, once per
// process, to a CSV that `gemm-tune tune --shapes FILE` reads back. The format is defined here.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace autogemm {

/// One untuned call as the CSV records it (cuBLAS terms): the ops of A and B, m, n, k, the leading
/// dimensions, and the alignment class (4: A and B 16-byte aligned with lda, ldb multiples of 4;
/// else 1), so that a problem is tuned in the class and with the leading dimensions it ran with.
struct RecordedProblem {
  char transa = 'n', transb = 'n';
  int m = 0, n = 0, k = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int align = 4;
  auto operator<=>(const RecordedProblem&) const = default;
};

/// Header of the CSV of column-major problems.
inline constexpr const char* kProblemsCsvHeader = "transa,transb,m,n,k,lda,ldb,ldc,align";
/// The header of files written before the leading dimensions and the class were recorded; still
/// read (such problems are tuned with minimal leading dimensions), and appended to in that form.
inline constexpr const char* kProblemsCsvHeaderV1 = "transa,transb,m,n,k";

/// Appends one line of kProblemsCsvHeader's columns to `path` (writing the header first when the
/// file is new or empty). Lines are written whole with O_APPEND, so several processes may share the
/// file. A failure to write is warned about once per path and otherwise ignored.
void record_untuned(const std::string& path, const RecordedProblem& problem);

}  // namespace autogemm
