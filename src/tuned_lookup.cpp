// See tuned_lookup.hpp.
#include "tuned_lookup.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "logging.hpp"
#include "registry.hpp"
#include "status.hpp"

namespace autogemm {
namespace {

struct LookupState {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<db::TuningDb>> open;  // path -> database, null when unusable
};

LookupState& state() {
  static LookupState s;
  return s;
}

bool kernel_in_build(const std::string& name) { return find_kernel(name) != nullptr; }

}  // namespace

db::DeviceSignature device_signature(int device) {
  cudaDeviceProp p{};
  AUTOGEMM_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  return {p.name, p.major, p.minor, p.multiProcessorCount, static_cast<int64_t>(p.totalGlobalMem),
          static_cast<int64_t>(p.l2CacheSize)};
}

std::vector<std::string> tuning_db_search_path() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("AUTOGEMM_DB"); env != nullptr && *env != '\0') {
    std::string list(env);
    for (size_t start = 0; start <= list.size();) {
      const size_t end = std::min(list.find(':', start), list.size());
      if (end > start) paths.push_back(list.substr(start, end - start));
      start = end + 1;
    }
    return paths;
  }
  paths.push_back(db::default_user_db_path());
  paths.push_back(AUTOGEMM_SYSTEM_DB_PATH);
  return paths;
}

std::optional<db::Entry> find_tuned(const db::DeviceSignature& device, const db::ProblemKey& problem,
                                    std::string* source) {
  LookupState& s = state();
  std::lock_guard lock(s.mutex);
  const bool explicit_list = std::getenv("AUTOGEMM_DB") != nullptr;
  for (const std::string& path : tuning_db_search_path()) {
    auto it = s.open.find(path);
    if (it == s.open.end()) {
      std::unique_ptr<db::TuningDb> opened;
      std::error_code ec;
      if (std::filesystem::exists(path, ec)) {
        try {
          opened = std::make_unique<db::TuningDb>(path, db::OpenMode::kReadOnly);
        } catch (const db::DbError& e) {
          logger().warn("ignoring tuning database: {}; untuned choices are used instead", e.what());
        }
      } else if (explicit_list) {
        // The default databases may simply not exist yet; a path the user named should.
        logger().warn("ignoring tuning database {}: no such file (from AUTOGEMM_DB)", path);
      }
      it = s.open.emplace(path, std::move(opened)).first;
    }
    if (!it->second) continue;
    try {
      if (auto entry = it->second->best(device.key(), problem, kernel_in_build)) {
        if (source) *source = path;
        return entry;
      }
    } catch (const db::DbError& e) {
      logger().warn("ignoring tuning database after a failed query: {}", e.what());
      it->second.reset();  // warned once; never queried again in this process
    }
  }
  return std::nullopt;
}

void reset_tuned_lookup() {
  std::lock_guard lock(state().mutex);
  state().open.clear();
}

}  // namespace autogemm
