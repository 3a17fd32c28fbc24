// Emits the instantiation groups and the registry for the kernel grid (see instance_generator.hpp).
#include "instance_generator.hpp"

#include <cstdio>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace autogemm::generator {
namespace {

std::string op_literal(Op op) { return op == Op::N ? "Op::N" : "Op::T"; }

const char* type_literal(DataType t) {
  switch (t) {
    case DataType::kF32: return "DataType::kF32";
    case DataType::kF16: return "DataType::kF16";
    case DataType::kBF16: return "DataType::kBF16";
  }
  throw std::invalid_argument("unknown data type");
}

std::string tag_of(const KernelConfig& c) {
  std::ostringstream s;
  s << "detail::ConfigTag<" << c.bm << ", " << c.bn << ", " << c.bk << ", " << c.wm << ", " << c.wn << ", " << c.tm
    << ", " << c.tn << ", " << c.stages << ", " << c.min_blocks << ", " << op_literal(c.op_a) << ", "
    << op_literal(c.op_b) << ", " << c.align << (c.is_gemv() ? ", Family::kGemv" : c.is_tma() ? ", Family::kTma" : "");
  if (c.slices != 1 || c.residues != 1) s << ", Family::kGemm, " << c.slices;
  if (c.residues != 1) s << ", " << c.residues;
  // A 16-bit GEMV instance spells the defaults before its types.
  if (c.types != kF32Types)
    s << ", " << c.slices << ", " << c.residues << ", " << type_literal(c.types.a) << ", " << type_literal(c.types.c);
  s << ">";
  return s.str();
}

// What the generated code names for each family: the header of its kernel templates, its host
// launcher, and the __global__ function the registry records for occupancy and attribute queries
// with the template arguments after the tag. Adding a family adds its row.
struct FamilySource {
  Family family;
  const char* header;
  const char* launcher;
  const char* kernel;
  const char* kernel_args;
};
constexpr FamilySource kFamilySources[] = {
    {Family::kGemm, "simt_sgemm_multistage.cuh", "launch_simt_sgemm", "simt_sgemm_kernel", ""},
    // The general of the TMA kernel's two forms (the bare one takes the same launch bounds and memory).
    {Family::kTma, "simt_sgemm_tma.cuh", "launch_simt_sgemm_tma", "simt_sgemm_tma_kernel", ", false"},
    // The widest of the GEMV's per-n kernels, the one needing most registers.
    {Family::kGemv, "simt_sgemv.cuh", "launch_simt_sgemv", "simt_sgemv_kernel", ", kGemvMaxN"},
};

const char* schedule_literal(WgmmaSchedule s) {
  switch (s) {
    case WgmmaSchedule::kCooperative: return "WgmmaSchedule::kCooperative";
    case WgmmaSchedule::kPingpong: return "WgmmaSchedule::kPingpong";
    case WgmmaSchedule::kStreamK: return "WgmmaSchedule::kStreamK";
    case WgmmaSchedule::kSplitK: return "WgmmaSchedule::kSplitK";
  }
  throw std::invalid_argument("unknown wgmma schedule");
}

const char* compute_literal(ComputeType t) {
  switch (t) {
    case ComputeType::kF32: return "ComputeType::kF32";
    case ComputeType::kTF32: return "ComputeType::kTF32";
    case ComputeType::k3xTF32: return "ComputeType::k3xTF32";
  }
  throw std::invalid_argument("unknown compute type");
}


// A wgmma instance's registry entry: its tag, the CUTLASS kernel for attribute and occupancy
// queries, and its workspace query (stream-K partials).
std::string wgmma_entry(const KernelConfig& c, size_t position) {
  std::ostringstream tag;
  tag << "detail::WgmmaTag<" << c.bm << ", " << c.bn << ", " << c.bk << ", " << c.stages << ", " << c.cluster_m
      << ", " << c.cluster_n << ", " << schedule_literal(c.schedule) << ", " << op_literal(c.op_a) << ", "
      << op_literal(c.op_b) << ", " << type_literal(c.types.a) << ", " << type_literal(c.types.c) << ", "
      << c.swizzle << ", " << (c.c_row_major ? "true" : "false") << ", " << compute_literal(c.types.compute) << ">";
  const std::string t = tag.str();
  return "  out[" + std::to_string(position) + "] = {" + t + "::value, \"" + kernel_name(c) + "\", &detail::launch_wgmma_gemm<" + t +
         ">, reinterpret_cast<const void*>(&cutlass::device_kernel<typename detail::WgmmaGemm<" + t +
         ">::Kernel>), &detail::wgmma_workspace_bytes<" + t + ">};\n";
}

// 16-bit and FP32-operand wgmma instances fill files of their own, so adding to one set does not
// recompile the other (a wgmma group of 17 kernels takes about 2.5 minutes of one core). Groups are
// numbered over both sets: g < sixteen_bit_groups the 16-bit set's group g, the rest the FP32 set's.
struct WgmmaGroup {
  bool tf32;
  int index;  // within its set
  WgmmaGroup(int g, int sixteen_bit_groups) : tf32(g >= sixteen_bit_groups), index(tf32 ? g - sixteen_bit_groups : g) {}
  std::string file() const {
    char buf[40];
    std::snprintf(buf, sizeof buf, tf32 ? "wgmma_tf32_instances_%02d.cu" : "wgmma_instances_%02d.cu", index);
    return buf;
  }
  std::string register_function() const {
    return (tf32 ? "register_wgmma_tf32_group_" : "register_wgmma_group_") + std::to_string(index);
  }
};

const FamilySource& source_of(const KernelConfig& c) {
  for (const FamilySource& f : kFamilySources)
    if (f.family == c.family) return f;
  throw std::invalid_argument("kernel family " + std::to_string(static_cast<int>(c.family)) + " has no source row");
}

std::string group_file(int g) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "instances_%02d.cu", g);
  return buf;
}

// FNV-1a over the names: a stable id of exactly which instances this build has.
std::string grid_fingerprint(const std::vector<KernelConfig>& kept) {
  unsigned long long h = 1469598103934665603ull;
  for (const auto& c : kept) {
    for (char ch : kernel_name(c) + ";") {
      h ^= static_cast<unsigned char>(ch);
      h *= 1099511628211ull;
    }
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", h);
  return buf;
}

}  // namespace

std::vector<KernelConfig> filter_grid(const std::vector<KernelConfig>& grid, const std::string& name_filter) {
  if (name_filter.empty()) return grid;
  std::regex re;
  try {
    re = std::regex(name_filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw std::invalid_argument("kernel name filter '" + name_filter + "' is not a valid regex: " + e.what());
  }
  std::vector<KernelConfig> kept;
  for (const auto& c : grid)
    if (std::regex_search(kernel_name(c), re)) kept.push_back(c);
  return kept;
}

std::map<std::string, std::string> generate_sources(const std::vector<KernelConfig>& grid,
                                                    const GeneratorOptions& options) {
  if (options.groups < 1)
    throw std::invalid_argument("groups must be at least 1, got " + std::to_string(options.groups));
  std::vector<KernelConfig> kept = filter_grid(grid, options.name_filter);
  if (options.wgmma_groups < 0)
    throw std::invalid_argument("wgmma groups must be at least 0, got " + std::to_string(options.wgmma_groups));
  if (!options.tma_instances) std::erase_if(kept, [](const KernelConfig& c) { return c.is_tma(); });
  if (options.wgmma_groups == 0) std::erase_if(kept, [](const KernelConfig& c) { return c.is_wgmma(); });

  std::map<std::string, std::string> files;
  std::vector<std::ostringstream> groups(options.groups);
  for (int g = 0; g < options.groups; ++g) {
    groups[g] << "// Generated by kernels/generator; do not edit. Instantiation group " << g << ".\n"
              << "#include \"registry.hpp\"\n";
    for (const FamilySource& f : kFamilySources) groups[g] << "#include \"" << f.header << "\"\n";
    groups[g] << "\nnamespace autogemm::generated {\n\n"
              << "void register_group_" << g << "(std::vector<KernelInstance>& out) {\n";
  }
  if (options.wgmma_tf32_groups < 0 || (options.wgmma_groups > 0 && options.wgmma_tf32_groups < 1))
    throw std::invalid_argument("wgmma tf32 groups must be at least 1 where wgmma groups are, got " +
                                std::to_string(options.wgmma_tf32_groups));
  const int tf32_groups = options.wgmma_groups > 0 ? options.wgmma_tf32_groups : 0;
  std::vector<std::ostringstream> wgmma_groups(options.wgmma_groups + tf32_groups);
  for (int g = 0; g < static_cast<int>(wgmma_groups.size()); ++g) {
    const WgmmaGroup group(g, options.wgmma_groups);
    wgmma_groups[g] << "// Generated by kernels/generator; do not edit. wgmma " << (group.tf32 ? "tf32 " : "")
                    << "instantiation group " << group.index << ".\n"
                    << "#include \"registry.hpp\"\n#include \"config_tag.hpp\"\n#include \"wgmma_gemm.cuh\"\n"
                    << "\nnamespace autogemm::generated {\n\n"
                    << "void " << group.register_function() << "(std::vector<KernelInstance>& out) {\n";
  }
  // Round-robin keeps heavy and light instances spread over the groups. wgmma instances that differ
  // only in their swizzle share one kernel: they go to the group of their first, which compiles it once.
  // Each entry fills its own slot of the registry, its position in the grid's order, so the registry
  // is in that order whichever group compiles it: the untuned choice breaks exact ties by registry
  // order, and a filtered build must break them as the whole grid does.
  size_t simt = 0, wgmma = 0, wgmma_tf32 = 0;
  std::map<std::string, size_t> wgmma_group_of;  // name with swizzle 1 -> group
  for (size_t position = 0; position < kept.size(); ++position) {
    const KernelConfig& c = kept[position];
    if (c.is_wgmma()) {
      KernelConfig base = c;
      base.swizzle = 1;
      const bool tf32 = is_tf32_wgmma(c);
      size_t& dealt = tf32 ? wgmma_tf32 : wgmma;
      const size_t group = tf32 ? options.wgmma_groups + dealt % tf32_groups : dealt % options.wgmma_groups;
      const auto [it, fresh] = wgmma_group_of.try_emplace(kernel_name(base), group);
      dealt += fresh;
      wgmma_groups[it->second] << wgmma_entry(c, position);
      continue;
    }
    const size_t i = simt++;
    const std::string tag = tag_of(c);
    const FamilySource& f = source_of(c);
    groups[i % options.groups] << "  out[" << position << "] = {" << tag << "::value, \"" << kernel_name(c)
                               << "\", &detail::" << f.launcher << "<" << tag
                               << ">, reinterpret_cast<const void*>(&detail::" << f.kernel << "<" << tag
                               << f.kernel_args << ">)};\n";
  }
  for (int g = 0; g < options.groups; ++g) {
    groups[g] << "}\n\n}  // namespace autogemm::generated\n";
    files[group_file(g)] = groups[g].str();
  }
  for (int g = 0; g < static_cast<int>(wgmma_groups.size()); ++g) {
    wgmma_groups[g] << "}\n\n}  // namespace autogemm::generated\n";
    files[WgmmaGroup(g, options.wgmma_groups).file()] = wgmma_groups[g].str();
  }

  std::ostringstream reg;
  reg << "// Generated by kernels/generator; do not edit. The registry of " << kept.size() << " instances.\n"
      << "#include \"registry.hpp\"\n\nnamespace autogemm {\nnamespace generated {\n";
  for (int g = 0; g < options.groups; ++g) reg << "void register_group_" << g << "(std::vector<KernelInstance>&);\n";
  for (int g = 0; g < static_cast<int>(wgmma_groups.size()); ++g)
    reg << "void " << WgmmaGroup(g, options.wgmma_groups).register_function() << "(std::vector<KernelInstance>&);\n";
  reg << "}  // namespace generated\n\n"
      << "const std::vector<KernelInstance>& kernel_registry() {\n"
      << "  static const std::vector<KernelInstance> registry = [] {\n"
      << "    std::vector<KernelInstance> all(" << kept.size() << ");  // each group fills its instances' slots\n";
  for (int g = 0; g < options.groups; ++g) reg << "    generated::register_group_" << g << "(all);\n";
  for (int g = 0; g < static_cast<int>(wgmma_groups.size()); ++g)
    reg << "    generated::" << WgmmaGroup(g, options.wgmma_groups).register_function() << "(all);\n";
  reg << "    return all;\n  }();\n  return registry;\n}\n\n"
      << "std::string_view kernel_grid_id() { return \"" << grid_fingerprint(kept) << "\"; }\n\n"
      << "}  // namespace autogemm\n";
  files["registry.cpp"] = reg.str();
  return files;
}

}  // namespace autogemm::generator
