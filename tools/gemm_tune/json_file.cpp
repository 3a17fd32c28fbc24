// write_json_file: the one way the subcommands write their --json reports.
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "commands.hpp"

namespace autogemm::cli {

void write_json_file(const std::string& path, const nlohmann::json& doc) {
  std::ofstream f(path);
  f << doc.dump(2) << "\n";
  if (!f) throw std::runtime_error(path + ": cannot write file");
}

}  // namespace autogemm::cli
