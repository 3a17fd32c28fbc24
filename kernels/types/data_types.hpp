// The element and compute types of a GEMM: what a problem asks for, what an instance computes, and
// the one spelling of both in database keys, exchange files, kernel names and the result check.
// The SIMT families compute FP32; the wgmma family BF16 or FP16 operands with FP32 arithmetic and an
// output of the operands' type or FP32, and FP32 operands and output in TF32 or 3xTF32 arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace autogemm {

/// Element types of A, B and C (cudaDataType_t's CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF).
enum class DataType : uint8_t { kF32 = 0, kF16 = 1, kBF16 = 2 };
/// The arithmetic of the products and their sum. kF32: FP32 products and sums (for FP32 operands the
/// CUDA cores, as cuBLAS's pedantic SGEMM). kTF32: FP32 operands read by the tensor cores as TF32
/// (8-bit exponent, 10-bit mantissa), FP32 sums. k3xTF32: each FP32 operand split into two TF32
/// numbers, x = hi + lo, and three TF32 products a_hi·b_hi + a_hi·b_lo + a_lo·b_hi summed in FP32:
/// FP32-level error on the tensor cores.
enum class ComputeType : uint8_t { kF32 = 0, kTF32 = 1, k3xTF32 = 2 };

struct GemmTypes {
  DataType a = DataType::kF32, b = DataType::kF32, c = DataType::kF32;
  ComputeType compute = ComputeType::kF32;
  constexpr bool operator==(const GemmTypes&) const = default;
};

/// FP32 inputs, output and arithmetic: autogemmSgemm, and every instance compiled today.
inline constexpr GemmTypes kF32Types{};

/// The value among `values` whose `name` is `word`; nullopt for any other word (the inverse of each
/// name function below).
template <class E, size_t N>
constexpr std::optional<E> parse_name(std::string_view word, const E (&values)[N], const char* (*name)(E)) {
  for (E value : values)
    if (word == name(value)) return value;
  return std::nullopt;
}

inline constexpr DataType kDataTypes[] = {DataType::kF32, DataType::kF16, DataType::kBF16};
inline constexpr ComputeType kComputeTypes[] = {ComputeType::kF32, ComputeType::kTF32, ComputeType::k3xTF32};

constexpr const char* data_type_name(DataType t) {
  switch (t) {
    case DataType::kF32: return "f32";
    case DataType::kF16: return "f16";
    case DataType::kBF16: return "bf16";
  }
  return "?";
}

/// Bytes of one element of a data type.
constexpr int data_type_bytes(DataType t) { return t == DataType::kF32 ? 4 : 2; }
/// Elements of a data type in one 16-byte vector (4 FP32, 8 BF16/FP16): what a vector load, a TMA
/// row and an aligned leading dimension are counted in.
constexpr int vector_elements(DataType t) { return 16 / data_type_bytes(t); }

constexpr const char* compute_type_name(ComputeType t) {
  switch (t) {
    case ComputeType::kF32: return "f32";
    case ComputeType::kTF32: return "tf32";
    case ComputeType::k3xTF32: return "3xtf32";
  }
  return "?";
}

/// Inverse of compute_type_name; nullopt for any other word.
constexpr std::optional<ComputeType> parse_compute_type(std::string_view word) {
  return parse_name(word, kComputeTypes, compute_type_name);
}

/// The word of the math mode (autogemmMath_t, AUTOGEMM_MATH, gemm-tune --math) whose FP32 GEMMs
/// compute in `arithmetic`: "pedantic" (kF32), "fp32_emulated" (k3xTF32), "tf32" (kTF32).
constexpr const char* math_mode_name(ComputeType arithmetic) {
  switch (arithmetic) {
    case ComputeType::kF32: return "pedantic";
    case ComputeType::k3xTF32: return "fp32_emulated";
    case ComputeType::kTF32: return "tf32";
  }
  return "?";
}

/// Inverse of math_mode_name; nullopt for any other word.
constexpr std::optional<ComputeType> parse_math_mode(std::string_view word) {
  return parse_name(word, kComputeTypes, math_mode_name);
}

/// Whether a combination is one autogemm knows: A and B of one type; FP32 arithmetic with C of their
/// type or FP32; TF32 and 3xTF32 arithmetic with A, B and C all FP32.
constexpr bool is_known_combination(const GemmTypes& t) {
  if (t.a != t.b) return false;
  if (t.compute != ComputeType::kF32) return t.a == DataType::kF32 && t.c == DataType::kF32;
  return t.c == t.a || t.c == DataType::kF32;
}

/// How closely an arithmetic reproduces FP32's: TF32 < 3xTF32 < FP32.
constexpr int precision_rank(ComputeType t) {
  return t == ComputeType::kTF32 ? 0 : t == ComputeType::k3xTF32 ? 1 : 2;
}

/// Whether an instance computing `kernel` may serve a problem asking for `problem`: the same
/// combination, or, for FP32 operands, an arithmetic at least as accurate (a TF32 problem may run on
/// a 3xTF32 or CUDA-core FP32 kernel where that is faster, as cuBLAS's TF32 math mode allows; a
/// 3xTF32 problem on a CUDA-core kernel).
constexpr bool serves(const GemmTypes& kernel, const GemmTypes& problem) {
  if (kernel == problem) return true;
  return kernel.a == problem.a && kernel.b == problem.b && kernel.c == problem.c && kernel.a == DataType::kF32 &&
         precision_rank(kernel.compute) >= precision_rank(problem.compute);
}

/// Inverse of data_type_name ("f32", "f16", "bf16"); nullopt for any other word.
constexpr std::optional<DataType> parse_data_type(std::string_view word) {
  return parse_name(word, kDataTypes, data_type_name);
}

/// The key of a combination, as database rows (problems.dtype), exchange files and the runtime's
/// cache store it: "f32" when A, B, C and the arithmetic are all FP32 (the key of every FP32 row),
/// else "a.b.c.compute", such as "bf16.bf16.f32.f32" or "f32.f32.f32.tf32" (the arithmetic is part
/// of the key, so tables of different precisions never mix).
inline std::string types_key(const GemmTypes& t) {
  if (t == kF32Types) return "f32";
  return std::string(data_type_name(t.a)) + "." + data_type_name(t.b) + "." + data_type_name(t.c) + "." +
         compute_type_name(t.compute);
}

/// Inverse of types_key; nullopt for any other text.
inline std::optional<GemmTypes> parse_types_key(std::string_view key) {
  if (key == "f32") return kF32Types;
  std::string_view part[4];
  for (int i = 0; i < 4; ++i) {
    const size_t dot = key.find('.');
    if ((dot == std::string_view::npos) != (i == 3)) return std::nullopt;
    part[i] = key.substr(0, dot);
    key = dot == std::string_view::npos ? std::string_view{} : key.substr(dot + 1);
  }
  const auto a = parse_data_type(part[0]), b = parse_data_type(part[1]), c = parse_data_type(part[2]);
  const auto compute = parse_compute_type(part[3]);
  if (!a || !b || !c || !compute) return std::nullopt;
  const GemmTypes t{*a, *b, *c, *compute};
  // The all-FP32 combination has one spelling only.
  if (t == kF32Types || !is_known_combination(t)) return std::nullopt;
  return t;
}

}  // namespace autogemm
