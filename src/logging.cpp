// Creates the library logger once; see logging.hpp.
#include "logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>

namespace autogemm {

spdlog::logger& logger() {
  static const std::shared_ptr<spdlog::logger> instance = [] {
    auto log = std::make_shared<spdlog::logger>("autogemm", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    log->set_pattern("[autogemm %l] %v");
    spdlog::level::level_enum level = spdlog::level::warn;
    if (const char* env = std::getenv("AUTOGEMM_LOG_LEVEL"); env != nullptr && *env != '\0') {
      level = spdlog::level::from_str(env);
      // from_str maps unknown words to "off"; say so rather than silently going quiet.
      if (level == spdlog::level::off && std::string(env) != "off") {
        level = spdlog::level::warn;
        log->warn("AUTOGEMM_LOG_LEVEL='{}' is not one of trace, debug, info, warn, error, critical, off; using warn",
                  env);
      }
    }
    log->set_level(level);
    return log;
  }();
  return *instance;
}

}  // namespace autogemm
