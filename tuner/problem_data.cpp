// See problem_data.hpp.
#include "problem_data.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "check.hpp"
#include "realigned.hpp"
#include "status.hpp"

namespace autogemm {

ColumnMajorProblem make_problem(Op op_a, Op op_b, int m, int n, int k) {
  ColumnMajorProblem p;
  p.op_a = op_a;
  p.op_b = op_b;
  p.m = m;
  p.n = n;
  p.k = k;
  p.lda = op_a == Op::N ? m : k;
  p.ldb = op_b == Op::N ? k : n;
  p.ldc = m;
  return p;
}

ColumnMajorProblem to_column_major(const Shape& s, Op op_a, Op op_b) { return make_problem(op_a, op_b, s.n, s.m, s.k); }

std::vector<ColumnMajorProblem> load_problems_file(const std::string& path, Op op_a, Op op_b,
                                                   const GemmTypes& types) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read file");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  std::vector<ColumnMajorProblem> out;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '[') {
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw std::runtime_error(path + ": not valid JSON: " + e.what());
    }
    for (size_t i = 0; i < doc.size(); ++i) {
      const auto& item = doc[i];
      auto dim = [&](const nlohmann::json& v, const char* name) {
        if (!v.is_number_integer() || v.get<int64_t>() <= 0 || v.get<int64_t>() > INT32_MAX)
          throw std::runtime_error(path + ": entry " + std::to_string(i) + ": " + name + " must be a positive 32-bit integer");
        return static_cast<int>(v.get<int64_t>());
      };
      Shape s;
      if (item.is_array() && item.size() == 3) {
        s = {dim(item[0], "M"), dim(item[1], "N"), dim(item[2], "K")};
      } else if (item.is_object() && item.contains("m") && item.contains("n") && item.contains("k")) {
        s = {dim(item["m"], "m"), dim(item["n"], "n"), dim(item["k"], "k")};
      } else {
        throw std::runtime_error(path + ": entry " + std::to_string(i) + ": expected [M, N, K] or {\"m\", \"n\", \"k\"}");
      }
      out.push_back(to_column_major(s, op_a, op_b));
      out.back().types = types;
    }
    return out;
  }
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  bool v1 = false, v2 = false;
  while (std::getline(lines, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (number == 1) {
      if (line != kProblemsCsvHeader && line != kProblemsCsvHeaderV2 && line != kProblemsCsvHeaderV1)
        throw std::runtime_error(path + ": line 1: expected the header '" + std::string(kProblemsCsvHeader) +
                                 "' (or '" + kProblemsCsvHeaderV2 + "', or '" + kProblemsCsvHeaderV1 + "')");
      v1 = line == kProblemsCsvHeaderV1;
      v2 = line == kProblemsCsvHeaderV2;
      continue;
    }
    const std::string where = path + ": line " + std::to_string(number) + ": ";
    char ta = 0, tb = 0;
    int m = 0, n = 0, k = 0, used = 0, align = 0;
    long long lda = 0, ldb = 0, ldc = 0;
    Op a, b;
    char dtype[32] = "";
    const bool parsed =
        v1   ? std::sscanf(line.c_str(), "%c,%c,%d,%d,%d%n", &ta, &tb, &m, &n, &k, &used) == 5
        : v2 ? std::sscanf(line.c_str(), "%c,%c,%d,%d,%d,%lld,%lld,%lld,%d%n", &ta, &tb, &m, &n, &k, &lda, &ldb, &ldc,
                           &align, &used) == 9
             : std::sscanf(line.c_str(), "%c,%c,%d,%d,%d,%lld,%lld,%lld,%d,%31[a-z0-9.]%n", &ta, &tb, &m, &n, &k, &lda,
                           &ldb, &ldc, &align, dtype, &used) == 10;
    const char* header = v1 ? kProblemsCsvHeaderV1 : v2 ? kProblemsCsvHeaderV2 : kProblemsCsvHeader;
    if (!parsed || used != static_cast<int>(line.size()) || !parse_layout(std::string{ta, tb}, a, b) || m <= 0 ||
        n <= 0 || k <= 0)
      throw std::runtime_error(where + "expected " + header + ", got '" + line + "'");
    ColumnMajorProblem p = make_problem(a, b, m, n, k);
    p.types = types;
    if (!v1 && !v2) {
      const auto recorded = parse_types_key(dtype);
      if (!recorded) throw std::runtime_error(where + "dtype '" + dtype + "' is not a types key (f32, bf16.bf16.bf16.f32, ...)");
      p.types = *recorded;
    }
    if (!v1) {
      // Leading dimensions at least the minimal ones, within the 32-bit range the tuner keeps them in.
      auto ld = [&](long long value, int minimum, const char* name) {
        if (value < minimum || value > INT32_MAX)
          throw std::runtime_error(where + name + " = " + std::to_string(value) + " is less than " +
                                   std::to_string(minimum) + " or past 2^31 - 1");
        return static_cast<int>(value);
      };
      p.lda = ld(lda, p.lda, "lda");
      p.ldb = ld(ldb, p.ldb, "ldb");
      p.ldc = ld(ldc, p.ldc, "ldc");
      if (align != 1 && align != 4 && align != 8)
        throw std::runtime_error(where + "align = " + std::to_string(align) + " is not 1, 4 or 8");
      if (align != 1 && (p.lda % align != 0 || p.ldb % align != 0))
        throw std::runtime_error(where + "align " + std::to_string(align) + " needs lda and ldb multiples of it, got " + std::to_string(p.lda) +
                                 " and " + std::to_string(p.ldb));
      p.align = align;
    }
    out.push_back(p);
  }
  if (number == 0) throw std::runtime_error(path + ": empty file");
  return out;
}

int tuned_alignment_class(const ColumnMajorProblem& p) {
  if (p.align != 0) return p.align;
  const int vector = vector_elements(p.types.a);
  return p.lda % vector == 0 && p.ldb % vector == 0 ? vector : 1;
}

namespace {
// The library's problem of `p` on operands at `a`, `b` and `c` (alpha 1, beta 0).
GemmProblem gemm_problem_on(const ColumnMajorProblem& p, const void* a, const void* b, void* c) {
  GemmProblem g;
  g.op_a = p.op_a, g.op_b = p.op_b, g.m = p.m, g.n = p.n, g.k = p.k;
  g.a = a, g.lda = p.lda, g.b = b, g.ldb = p.ldb, g.c = c, g.ldc = p.ldc;
  g.types = p.types;
  return g;
}
}  // namespace

ColumnMajorProblem problem_as_called(const ColumnMajorProblem& p) {
  const auto aligned = reinterpret_cast<void*>(uintptr_t{256});
  const GemmProblem called = chosen_problem(gemm_problem_on(p, aligned, aligned, aligned));
  ColumnMajorProblem q = p;
  q.m = called.m, q.n = called.n, q.k = called.k;
  q.lda = static_cast<int>(called.lda), q.ldb = static_cast<int>(called.ldb), q.ldc = static_cast<int>(called.ldc);
  return q;
}

ProblemData::ProblemData(const ColumnMajorProblem& p, uint64_t seed) : p_(p) {
  const size_t ab = data_type_bytes(p.types.a), cb = data_type_bytes(p.types.c);
  const size_t a_elems = static_cast<size_t>(p.lda) * (p.op_a == Op::N ? p.k : p.m);
  const size_t b_elems = static_cast<size_t>(p.ldb) * (p.op_b == Op::N ? p.n : p.k);
  const size_t c_elems = static_cast<size_t>(p.ldc) * p.n;
  // A forced scalar class on aligned leading dimensions: A's base one element past the allocation's.
  const int vector = static_cast<int>(16 / ab);
  const size_t a_shift = tuned_alignment_class(p) == 1 && p.lda % vector == 0 && p.ldb % vector == 0 ? ab : 0;
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&a_alloc_), a_elems * ab + a_shift));
  a_ = a_alloc_ + a_shift;
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&b_), b_elems * ab));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&c_), c_elems * cb));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&c0_), c_elems * cb));
  AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ref_), static_cast<size_t>(p.m) * p.n * sizeof(double)));
  AUTOGEMM_CUDA_CHECK(fill_uniform(a_, a_elems, seed * 3 + 1, nullptr, p.types.a));
  AUTOGEMM_CUDA_CHECK(fill_uniform(b_, b_elems, seed * 3 + 2, nullptr, p.types.b));
  AUTOGEMM_CUDA_CHECK(fill_uniform(c0_, c_elems, seed * 3 + 3, nullptr, p.types.c));
  reset_c(nullptr);
  AUTOGEMM_CUDA_CHECK(cudaDeviceSynchronize());
}

ProblemData::~ProblemData() {
  cudaFree(a_alloc_);
  cudaFree(b_);
  cudaFree(c_);
  cudaFree(c0_);
  cudaFree(ref_);
}

void ProblemData::compute_reference(float alpha, float beta, cudaStream_t stream) {
  AUTOGEMM_CUDA_CHECK(reference_gemm_f64(p_.op_a, p_.op_b, p_.m, p_.n, p_.k, alpha, a_, p_.lda, b_, p_.ldb, beta, c0_,
                                         p_.ldc, ref_, stream, p_.types));
}

void ProblemData::reset_c(cudaStream_t stream) {
  AUTOGEMM_CUDA_CHECK(cudaMemcpyAsync(c_, c0_, static_cast<size_t>(p_.ldc) * p_.n * data_type_bytes(p_.types.c),
                                      cudaMemcpyDeviceToDevice, stream));
}

GemmProblem ProblemData::gemm_problem() const { return gemm_problem_on(p_, a_, b_, c_); }

double ProblemData::error(cudaStream_t stream) const {
  return relative_error(c_, p_.ldc, ref_, p_.m, p_.n, stream, p_.types.c);
}

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
