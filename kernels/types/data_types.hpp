// The element and compute types of a GEMM: what a problem asks for, what an instance computes, and
// the one spelling of both in database keys, exchange files, kernel names and the result check.
// The SIMT families compute FP32; the wgmma family BF16 or FP16 operands with FP32 arithmetic and an
// output of the operands' type or FP32.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace autogemm {

/// Element types of A, B and C (cudaDataType_t's CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF).
enum class DataType : uint8_t { kF32 = 0, kF16 = 1, kBF16 = 2 };
/// The arithmetic of the products and their sum.
enum class ComputeType : uint8_t { kF32 = 0 };

struct GemmTypes {
  DataType a = DataType::kF32, b = DataType::kF32, c = DataType::kF32;
  ComputeType compute = ComputeType::kF32;
  constexpr bool operator==(const GemmTypes&) const = default;
};

/// FP32 inputs, output and arithmetic: autogemmSgemm, and every instance compiled today.
inline constexpr GemmTypes kF32Types{};

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

constexpr const char* compute_type_name(ComputeType t) { return t == ComputeType::kF32 ? "f32" : "?"; }

/// Inverse of data_type_name ("f32", "f16", "bf16"); nullopt for any other word.
constexpr std::optional<DataType> parse_data_type(std::string_view word) {
  for (DataType t : {DataType::kF32, DataType::kF16, DataType::kBF16})
    if (word == data_type_name(t)) return t;
  return std::nullopt;
}

/// The key of a combination, as database rows (problems.dtype), exchange files and the runtime's
/// cache store it: "f32" when A, B, C and the arithmetic are all FP32 (the key of every FP32 row),
/// else "a.b.c.compute", such as "bf16.bf16.f32.f32".
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
  if (!a || !b || !c || part[3] != compute_type_name(ComputeType::kF32)) return std::nullopt;
  const GemmTypes t{*a, *b, *c, ComputeType::kF32};
  // The all-FP32 combination has one spelling only.
  if (t == kF32Types) return std::nullopt;
  return t;
}

}  // namespace autogemm
