// Procedural instance names: kernel_name() writes every KernelConfig field into the name and
// parse_kernel_name() reads it back, so a database row keyed by name survives any rebuild.
#include "kernel_config.hpp"

#include <cstdio>
#include <iterator>

namespace autogemm {

std::string layout_code(Op a, Op b) { return {op_char(a), op_char(b)}; }

namespace {
constexpr const char* kScheduleNames[] = {"coop", "ping", "sk", "splitk"};

std::string wgmma_name(const KernelConfig& c) {
  char buf[128], stages[16] = "", swizzle[16] = "";
  if (c.stages != 0) std::snprintf(stages, sizeof stages, "_s%d", c.stages);
  if (c.swizzle != 1) std::snprintf(swizzle, sizeof swizzle, "_sw%d", c.swizzle);
  // FP32 operands are named by their arithmetic ("tf32", "3xtf32"), 16-bit ones by their type.
  const char* operands = c.types.a == DataType::kF32 ? compute_type_name(c.types.compute) : data_type_name(c.types.a);
  std::snprintf(buf, sizeof buf, "sm90_wgmma_%s_%s_%dx%dx%d_c%dx%d_%s%s%s_%s_align%d%s", operands,
                data_type_name(c.types.c), c.bm, c.bn, c.bk, c.cluster_m, c.cluster_n,
                kScheduleNames[static_cast<int>(c.schedule)], stages, swizzle, layout_code(c.op_a, c.op_b).c_str(),
                c.align, c.c_row_major ? "_ct" : "");
  return buf;
}
}  // namespace

std::string kernel_name(const KernelConfig& c) {
  if (c.is_wgmma()) return wgmma_name(c);
  char buf[128];
  if (c.is_gemv()) {
    // FP32 instances keep the names their database rows carry; 16-bit ones name operands and C.
    char prefix[32] = "simt_sgemv_";
    if (c.types != kF32Types)
      std::snprintf(prefix, sizeof prefix, "simt_gemv_%s_%s_", data_type_name(c.types.a), data_type_name(c.types.c));
    std::snprintf(buf, sizeof buf, "%s%dx%d_u%d_b%d_%s_align%d", prefix, c.bm, c.bn, c.stages, c.threads(),
                  layout_code(c.op_a, c.op_b).c_str(), c.align);
    return buf;
  }
  char slices[16] = "";
  if (c.slices != 1) std::snprintf(slices, sizeof slices, "_ks%d", c.slices);
  char residues[16] = "";
  if (c.residues != 1) std::snprintf(residues, sizeof residues, "_res%d", c.residues);
  std::snprintf(buf, sizeof buf, "simt_sgemm_%s%dx%dx%d_w%dx%d_t%dx%d%s_s%d_b%dx%d_%s_align%d%s",
                c.is_tma() ? "tma_" : "", c.bm, c.bn, c.bk, c.wm, c.wn, c.tm, c.tn, slices, c.stages, c.threads(),
                c.min_blocks, layout_code(c.op_a, c.op_b).c_str(), c.align, residues);
  return buf;
}

namespace {

std::optional<Op> parse_op(char ch) {
  if (ch == 'n') return Op::N;
  if (ch == 't') return Op::T;
  return std::nullopt;
}

// "simt_sgemv_..." (FP32) or "simt_gemv_<operands>_<C>_..." (16-bit operands).
std::optional<KernelConfig> parse_gemv_name(const std::string& s) {
  GemmTypes types = kF32Types;
  const char* rest = s.c_str() + std::string_view("simt_sgemv_").size();
  if (s.rfind("simt_gemv_", 0) == 0) {
    char ab[8] = "", out[8] = "";
    int used = 0;
    if (std::sscanf(s.c_str(), "simt_gemv_%7[a-z0-9]_%7[a-z0-9]_%n", ab, out, &used) != 2 || used == 0)
      return std::nullopt;
    const auto a = parse_data_type(ab), c_type = parse_data_type(out);
    if (!a || !c_type) return std::nullopt;
    types = GemmTypes{*a, *a, *c_type, ComputeType::kF32};
    rest = s.c_str() + used;
  }
  int bm = 0, bn = 0, loads = 0, threads = 0, align = 0, consumed = 0;
  char la = 0, lb = 0;
  const int fields =
      std::sscanf(rest, "%dx%d_u%d_b%d_%c%c_align%d%n", &bm, &bn, &loads, &threads, &la, &lb, &align, &consumed);
  if (fields != 7 || rest[consumed] != '\0') return std::nullopt;
  const auto op_a = parse_op(la), op_b = parse_op(lb);
  if (!op_a || !op_b) return std::nullopt;
  const KernelConfig c = gemv_config(bm, loads, *op_a, *op_b, align, types);
  if (bn != c.bn || threads != c.threads() || kernel_name(c) != s) return std::nullopt;
  return c;
}

// Every field of a wgmma name is in a short list, so the name is read by trying them: the one
// config whose name is `s`.
std::optional<KernelConfig> parse_wgmma_name(const std::string& s) {
  char ab[8] = "", out[8] = "", sched[8] = "";
  int bm = 0, bn = 0, bk = 0, cm = 0, cn = 0, consumed = 0;
  if (std::sscanf(s.c_str(), "sm90_wgmma_%7[a-z0-9]_%7[a-z0-9]_%dx%dx%d_c%dx%d_%7[a-z]%n", ab, out, &bm, &bn, &bk, &cm,
                  &cn, sched, &consumed) != 8)
    return std::nullopt;
  const char* rest = s.c_str() + consumed;
  int stages = 0, swizzle = 1;
  if (int used = 0; std::sscanf(rest, "_s%d%n", &stages, &used) == 1) rest += used;
  if (int used = 0; std::sscanf(rest, "_sw%d%n", &swizzle, &used) == 1) rest += used;
  char la = 0, lb = 0;
  int align = 0;
  int used = 0;
  if (std::sscanf(rest, "_%c%c_align%d%n", &la, &lb, &align, &used) != 3) return std::nullopt;
  const bool c_row_major = std::string_view(rest + used) == "_ct";
  const auto op_a = parse_op(la), op_b = parse_op(lb);
  if (!op_a || !op_b) return std::nullopt;
  // The operands' field: a 16-bit type, or the arithmetic of FP32 operands.
  const auto compute = parse_compute_type(ab);
  const auto a = compute && *compute != ComputeType::kF32 ? std::optional<DataType>(DataType::kF32) : parse_data_type(ab);
  const auto c_type = parse_data_type(out);
  if (!a || !c_type) return std::nullopt;
  const ComputeType arithmetic = *a == DataType::kF32 ? *compute : ComputeType::kF32;
  for (int i = 0; i < static_cast<int>(std::size(kScheduleNames)); ++i) {
    if (std::string_view(sched) != kScheduleNames[i]) continue;
    const KernelConfig c = wgmma_config(bm, bn, bk, stages, cm, cn, static_cast<WgmmaSchedule>(i), *op_a, *op_b, *a,
                                        *c_type, swizzle, c_row_major, arithmetic);
    if (kernel_name(c) == s && is_valid(c)) return c;
  }
  return std::nullopt;
}

}  // namespace

std::optional<KernelConfig> parse_kernel_name(std::string_view name) {
  KernelConfig c;
  int threads = 0;
  char la = 0, lb = 0;
  int consumed = 0;
  const std::string s(name);
  if (s.rfind("simt_sgemv_", 0) == 0 || s.rfind("simt_gemv_", 0) == 0) return parse_gemv_name(s);
  if (s.rfind("sm90_wgmma_", 0) == 0) return parse_wgmma_name(s);
  constexpr std::string_view kTmaPrefix = "simt_sgemm_tma_";
  const bool tma = s.rfind(kTmaPrefix, 0) == 0;
  if (tma) c.family = Family::kTma;
  const char* tiles = s.c_str() + (tma ? kTmaPrefix.size() : std::string_view("simt_sgemm_").size());
  if (s.rfind("simt_sgemm_", 0) != 0) return std::nullopt;
  int head = 0;  // characters up to the thread tile
  if (std::sscanf(tiles, "%dx%dx%d_w%dx%d_t%dx%d%n", &c.bm, &c.bn, &c.bk, &c.wm, &c.wn, &c.tm, &c.tn, &head) != 7)
    return std::nullopt;
  const char* rest = tiles + head;
  if (int used = 0; std::sscanf(rest, "_ks%d%n", &c.slices, &used) == 1) rest += used;
  const int fields = std::sscanf(rest, "_s%d_b%dx%d_%c%c_align%d%n", &c.stages, &threads, &c.min_blocks, &la, &lb,
                                 &c.align, &consumed);
  if (fields != 6) return std::nullopt;
  rest += consumed;
  if (int used = 0; std::sscanf(rest, "_res%d%n", &c.residues, &used) == 1) rest += used;
  if (rest != s.c_str() + s.size()) return std::nullopt;
  const auto op_a = parse_op(la), op_b = parse_op(lb);
  if (!op_a || !op_b) return std::nullopt;
  c.op_a = *op_a;
  c.op_b = *op_b;
  // The name must be exactly the one this config produces (threads is derived, so it must agree).
  if (threads != c.threads() || kernel_name(c) != s) return std::nullopt;
  return c;
}

}  // namespace autogemm
