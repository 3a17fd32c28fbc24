// Name lookup over the generated registry (the registry itself is generated: see kernels/generator).
#include <algorithm>
#include <unordered_map>

#include "registry.hpp"

namespace autogemm {

const KernelInstance* find_kernel(std::string_view name) {
  static const std::unordered_map<std::string_view, const KernelInstance*> by_name = [] {
    std::unordered_map<std::string_view, const KernelInstance*> map;
    for (const KernelInstance& k : kernel_registry()) map.emplace(k.name, &k);
    return map;
  }();
  const auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

}  // namespace autogemm
