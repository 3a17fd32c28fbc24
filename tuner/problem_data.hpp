// Device buffers for one column-major GEMM problem with random A, B, C and its float64 reference,
// shared by the tuner, gemm-tune bench and selfcheck. Row-major shapes map to the column-major call
// as cuBLAS users do (see to_column_major).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_config.hpp"
#include "operation.hpp"  // GemmProblem
#include "record_untuned.hpp"  // kProblemsCsvHeader: the CSV the runtime writes and --shapes reads
#include "shape_sets.hpp"

namespace autogemm {

/// A column-major problem: C (m x n) = op(A) op(B), with explicit leading dimensions.
struct ColumnMajorProblem {
  Op op_a = Op::N, op_b = Op::N;
  int m = 0, n = 0, k = 0;
  int lda = 0, ldb = 0, ldc = 0;
  int align = 0;      // alignment class to tune in: 0 the one the leading dimensions give; 1 forces
                      // the scalar class (A's base one float past a 16-byte boundary)
  GemmTypes types{};  // element and compute types
};

/// The alignment class a problem is tuned and stored in: `align` when set, else 4 where lda and ldb
/// are multiples of 4 (ProblemData's buffers start 16-byte aligned), else 1. The tuner's resume
/// asks the database for this class.
int tuned_alignment_class(const ColumnMajorProblem& p);

/// The problem a call of `p` has its kernel chosen for, which is the one to tune: `p` itself, or,
/// for a BF16/FP16 problem the tensor-core kernels cannot take as it is, its padded problem on
/// aligned copies (realigned.hpp's chosen_problem: extents rounded up, leading dimensions of the
/// copies). ProblemData's buffers start 256-byte aligned, as the copies do.
ColumnMajorProblem problem_as_called(const ColumnMajorProblem& p);

/// Row-major C[M,N] = A[M,K] . B[K,N] is column-major C^T (N x M) = B^T A^T: m = N, n = M, with
/// `layout` giving the ops of the column-major call ("nn" = plain row-major A and B).
ColumnMajorProblem to_column_major(const Shape& s, Op op_a, Op op_b);

/// Owns A, B, C (and a float64 reference) on the device; frees on destruction.
class ProblemData {
 public:
  /// Random operands of `p` on the device, of its types.
  explicit ProblemData(const ColumnMajorProblem& p, uint64_t seed);
  ~ProblemData();
  ProblemData(const ProblemData&) = delete;
  ProblemData& operator=(const ProblemData&) = delete;

  /// float64 reference of alpha * op(A) op(B) + beta * C0 into ref(); C0 is the initial C.
  void compute_reference(float alpha, float beta, cudaStream_t stream);
  /// Restores C to its initial random contents.
  void reset_c(cudaStream_t stream);
  double error(cudaStream_t stream) const;

  const ColumnMajorProblem& problem() const { return p_; }
  /// The library's form of the problem on these buffers (C = A·B: alpha 1, beta 0).
  GemmProblem gemm_problem() const;
  void* a() const { return a_; }
  void* b() const { return b_; }
  void* c() const { return c_; }
  /// The buffers of an FP32 problem.
  const float* f32_a() const { return reinterpret_cast<const float*>(a_); }
  const float* f32_b() const { return reinterpret_cast<const float*>(b_); }
  float* f32_c() const { return reinterpret_cast<float*>(c_); }

 private:
  ColumnMajorProblem p_;
  char* a_alloc_ = nullptr;  // A's allocation; a_ is one element past it for a forced scalar class
  char *a_ = nullptr, *b_ = nullptr, *c_ = nullptr, *c0_ = nullptr;
  double* ref_ = nullptr;
};

bool parse_layout(const std::string& text, Op& op_a, Op& op_b);

/// Reads a shapes file: a JSON array of row-major [M, N, K] triples or {"m":, "n":, "k":} objects
/// (mapped through `layout` like --shape), or a CSV of column-major problems with kProblemsCsvHeader
/// (their leading dimensions, alignment class and types kept), kProblemsCsvHeaderV2 (no types) or
/// kProblemsCsvHeaderV1 (minimal leading dimensions). Problems without recorded types get `types`.
/// Throws std::runtime_error("FILE: line 3: ...") on anything malformed.
std::vector<ColumnMajorProblem> load_problems_file(const std::string& path, Op op_a, Op op_b,
                                                   const GemmTypes& types = kF32Types);

/// Column-major problem with minimal leading dimensions.
ColumnMajorProblem make_problem(Op op_a, Op op_b, int m, int n, int k);

}  // namespace autogemm
