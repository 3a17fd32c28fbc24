// Procedural instance names: kernel_name() writes every KernelConfig field into the name and
// parse_kernel_name() reads it back, so a database row keyed by name survives any rebuild.
#include "kernel_config.hpp"

#include <cstdio>

namespace autogemm {

std::string layout_code(Op a, Op b) { return {op_char(a), op_char(b)}; }

std::string kernel_name(const KernelConfig& c) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "simt_sgemm_%dx%dx%d_w%dx%d_t%dx%d_s%d_b%dx%d_%s_align%d", c.bm, c.bn, c.bk,
                c.wm, c.wn, c.tm, c.tn, c.stages, c.threads(), c.min_blocks, layout_code(c.op_a, c.op_b).c_str(),
                c.align);
  return buf;
}

std::optional<KernelConfig> parse_kernel_name(std::string_view name) {
  KernelConfig c;
  int threads = 0;
  char la = 0, lb = 0;
  int consumed = 0;
  const std::string s(name);
  const int fields = std::sscanf(s.c_str(), "simt_sgemm_%dx%dx%d_w%dx%d_t%dx%d_s%d_b%dx%d_%c%c_align%d%n", &c.bm,
                                 &c.bn, &c.bk, &c.wm, &c.wn, &c.tm, &c.tn, &c.stages, &threads, &c.min_blocks, &la,
                                 &lb, &c.align, &consumed);
  if (fields != 13 || consumed != static_cast<int>(s.size())) return std::nullopt;
  if ((la != 'n' && la != 't') || (lb != 'n' && lb != 't')) return std::nullopt;
  c.op_a = la == 'n' ? Op::N : Op::T;
  c.op_b = lb == 'n' ? Op::N : Op::T;
  // The name must be exactly the one this config produces (threads is derived, so it must agree).
  if (threads != c.threads() || kernel_name(c) != s) return std::nullopt;
  return c;
}

}  // namespace autogemm
