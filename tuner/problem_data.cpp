// See problem_data.hpp.
#include "problem_data.hpp"

#include "check.hpp"
#include "status.hpp"

namespace autogemm {

ColumnMajorProblem to_column_major(const Shape& s, Op op_a, Op op_b) {
  ColumnMajorProblem p;
  p.op_a = op_a;
  p.op_b = op_b;
  p.m = s.n;
  p.n = s.m;
  p.k = s.k;
  p.lda = op_a == Op::N ? p.m : p.k;
  p.ldb = op_b == Op::N ? p.k : p.n;
  p.ldc = p.m;
  return p;
}

ProblemData::ProblemData(const ColumnMajorProblem& p, uint64_t seed) : p_(p) {
  const size_t a_elems = static_cast<size_t>(p.lda) * (p.op_a == Op::N ? p.k : p.m);
  const size_t b_elems = static_cast<size_t>(p.ldb) * (p.op_b == Op::N ? p.n : p.k);
  const size_t c_elems = static_cast<size_t>(p.ldc) * p.n;
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&a_), a_elems * sizeof(float)));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&b_), b_elems * sizeof(float)));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&c_), c_elems * sizeof(float)));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&c0_), c_elems * sizeof(float)));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ref_), static_cast<size_t>(p.m) * p.n * sizeof(double)));
  AUTOGEMM_CUDA_CHECK(fill_uniform(a_, a_elems, seed * 3 + 1, nullptr));
  AUTOGEMM_CUDA_CHECK(fill_uniform(b_, b_elems, seed * 3 + 2, nullptr));
  AUTOGEMM_CUDA_CHECK(fill_uniform(c0_, c_elems, seed * 3 + 3, nullptr));
  reset_c(nullptr);
  AUTOGEMM_CUDA_CHECK(cudaDeviceSynchronize());
}

ProblemData::~ProblemData() {
  cudaFree(a_);
  cudaFree(b_);
  cudaFree(c_);
  cudaFree(c0_);
  cudaFree(ref_);
}

void ProblemData::compute_reference(float alpha, float beta, cudaStream_t stream) {
  AUTOGEMM_CUDA_CHECK(reference_gemm_f64(p_.op_a, p_.op_b, p_.m, p_.n, p_.k, alpha, a_, p_.lda, b_, p_.ldb, beta, c0_,
                                         p_.ldc, ref_, stream));
}

void ProblemData::reset_c(cudaStream_t stream) {
  AUTOGEMM_CUDA_CHECK(cudaMemcpyAsync(c_, c0_, static_cast<size_t>(p_.ldc) * p_.n * sizeof(float),
                                      cudaMemcpyDeviceToDevice, stream));
}

double ProblemData::error(cudaStream_t stream) const { return relative_error(c_, p_.ldc, ref_, p_.m, p_.n, stream); }

bool parse_layout(const std::string& text, Op& op_a, Op& op_b) {
  if (text.size() != 2) return false;
  auto one = [](char ch, Op& op) {
    if (ch == 'n' || ch == 'N') return op = Op::N, true;
    if (ch == 't' || ch == 'T') return op = Op::T, true;
    return false;
  };
  return one(text[0], op_a) && one(text[1], op_b);
}

}  // namespace autogemm
