// The library's one logger ("autogemm", stderr). Its level comes from AUTOGEMM_LOG_LEVEL
// (trace, debug, info, warn, error, critical, off; default warn). spdlog stays out of public headers.
#pragma once

#include <spdlog/spdlog.h>

namespace autogemm {

spdlog::logger& logger();

}  // namespace autogemm
