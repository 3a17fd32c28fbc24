// AUTOGEMM_RECORD_UNTUNED: appends each problem that fell back to the untuned choice, once per
// process, to a CSV that `gemm-tune tune --shapes FILE` reads back. The format is defined here.
#pragma once

#include <string>

namespace autogemm {

/// Header of the CSV of column-major problems (cuBLAS terms: ops of A and B, then m, n, k).
inline constexpr const char* kProblemsCsvHeader = "transa,transb,m,n,k";

/// Appends "transa,transb,m,n,k" to `path` (writing the header first when the file is new or
/// empty). Lines are written whole with O_APPEND, so several processes may share the file. A
/// failure to write is warned about once per path and otherwise ignored.
void record_untuned(const std::string& path, char transa, char transb, int m, int n, int k);

}  // namespace autogemm
