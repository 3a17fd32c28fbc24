// Build-time tool: writes the kernel instantiation groups and the registry into an output folder.
// Usage: autogemm_gen_instances OUT_DIR GROUPS [NAME_FILTER_REGEX [TMA_INSTANCES (0 or 1) [WGMMA_GROUPS
//        [WGMMA_TF32_GROUPS]]]]
// Files whose content is unchanged are not rewritten, so a re-run does not trigger a rebuild.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <stdexcept>

#include "grid_table.hpp"
#include "instance_generator.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 7 || (argc >= 5 && std::string(argv[4]) != "0" && std::string(argv[4]) != "1")) {
    std::fprintf(stderr,
                 "usage: %s OUT_DIR GROUPS [NAME_FILTER_REGEX [TMA_INSTANCES (0 or 1) [WGMMA_GROUPS "
                 "[WGMMA_TF32_GROUPS]]]]\n",
                 argv[0]);
    return 2;
  }
  autogemm::generator::GeneratorOptions options;
  options.groups = std::atoi(argv[2]);
  if (argc >= 4) options.name_filter = argv[3];
  if (argc >= 5) options.tma_instances = std::string(argv[4]) == "1";
  if (argc >= 6) options.wgmma_groups = std::atoi(argv[5]);
  if (argc == 7) options.wgmma_tf32_groups = std::atoi(argv[6]);
  try {
    const auto files = autogemm::generator::generate_sources(autogemm::enumerate_grid(), options);
    for (const auto& [name, content] : files) {
      const std::string path = std::string(argv[1]) + "/" + name;
      std::ifstream in(path);
      std::stringstream old;
      old << in.rdbuf();
      if (in && old.str() == content) continue;
      std::ofstream out(path, std::ios::trunc);
      out << content;
      if (!out) {
        std::fprintf(stderr, "autogemm_gen_instances: cannot write %s\n", path.c_str());
        return 1;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "autogemm_gen_instances: %s\n", e.what());
    return 1;
  }
  return 0;
}
