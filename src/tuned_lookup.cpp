// See tuned_lookup.hpp.
#include "tuned_lookup.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "untuned_choice.hpp"
#include "logging.hpp"
#include "registry.hpp"
#include "status.hpp"

namespace autogemm {
namespace {

struct LookupState {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<db::TuningDb>> open;  // path -> database, null when unusable
  std::map<std::string, std::vector<NeighbourMeasurement>> measurements;  // paths|device|class -> rows
  std::set<std::string> checked_devices;  // path|device: whether the file has rows for the device, warned once
  uint64_t generation = 0;  // bumped whenever measurements are forgotten
};

LookupState& state() {
  static LookupState s;
  return s;
}

bool kernel_in_build(const std::string& name) { return find_kernel(name) != nullptr; }

/// Key of the cached measurement lists: database paths, device and class.
std::string class_key(const std::vector<std::string>& paths, const db::DeviceSignature& device, char transa,
                      char transb, int align, const GemmTypes& types) {
  std::string key;
  for (const auto& p : paths) key += p + ":";
  return key + "|" + device.key() + "|" + types_key(types) + "|" + transa + transb + std::to_string(align);
}

}  // namespace

db::DeviceSignature device_signature(int device) {
  cudaDeviceProp p{};
  AUTOGEMM_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  return {p.name, p.major, p.minor, p.multiProcessorCount, static_cast<int64_t>(p.totalGlobalMem),
          static_cast<int64_t>(p.l2CacheSize)};
}

db::Entry measurement_entry(const db::DeviceSignature& device, const db::ProblemKey& problem,
                            const KernelInstance& kernel, SplitChoice split, const TimingResult& time,
                            bool check_passed, double rel_error, const db::Provenance& provenance) {
  const double flops = 2.0 * problem.m * problem.n * static_cast<double>(problem.k);
  db::Entry e;
  e.device = device;
  e.problem = problem;
  e.candidate = {std::string(kernel.name), split.splits, split_mode_name(split.mode)};
  e.measurement.median_us = time.median_us;
  e.measurement.min_us = time.min_us;
  e.measurement.spread_us = time.max_us - time.min_us;
  e.measurement.iterations = time.reps;
  e.measurement.tflops = flops / time.median_us / 1e6;
  e.measurement.check_passed = check_passed;
  e.measurement.rel_error = std::isfinite(rel_error) ? rel_error : 1e300;
  e.provenance = provenance;
  return e;
}

db::ProblemKey tuning_key(const GemmProblem& problem, int align) {
  return tuning_key(problem.op_a, problem.op_b, problem.m, problem.n, problem.k, align, problem.types);
}

db::ProblemKey tuning_key(Op op_a, Op op_b, int m, int n, int k, int align, const GemmTypes& types) {
  db::ProblemKey key;
  key.dtype = types_key(types);
  key.transa = op_char(op_a);
  key.transb = op_char(op_b);
  key.m = m, key.n = n, key.k = k, key.align = align;
  return key;
}

std::vector<std::string> split_path_list(const std::string& list) {
  std::vector<std::string> paths;
  for (size_t start = 0; start <= list.size();) {
    const size_t end = std::min(list.find(':', start), list.size());
    if (end > start) paths.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return paths;
}

std::string system_db_path() {
  if (const char* env = std::getenv("AUTOGEMM_SYSTEM_DB"); env != nullptr && *env != '\0') return env;
  // PREFIX/share/autogemm/tuning.sqlite3 of the prefix this code was installed into: the folder above
  // the one holding libautogemm.so (PREFIX/lib) or the program linked with it (PREFIX/bin), so that
  // `cmake --install --prefix P` finds P's database wherever P is.
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&system_db_path), &info) != 0 && info.dli_fname != nullptr) {
    std::error_code ec;
    const std::filesystem::path binary = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec && binary.has_parent_path() && binary.parent_path().has_parent_path()) {
      const std::filesystem::path candidate = binary.parent_path().parent_path() / "share/autogemm/tuning.sqlite3";
      if (std::filesystem::exists(candidate, ec)) return candidate.string();
    }
  }
  return AUTOGEMM_SYSTEM_DB_PATH;  // the configured install prefix's
}

std::vector<std::string> tuning_db_search_path() {
  if (const char* env = std::getenv("AUTOGEMM_DB"); env != nullptr && *env != '\0') return split_path_list(env);
  return {db::default_user_db_path(), system_db_path()};
}

namespace {

// The open database at `path`, or null when it is missing or unusable (warned about once).
// Call with the state's mutex held.
db::TuningDb* open_database(LookupState& s, const std::string& path, bool warn_missing) {
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
    } else if (warn_missing) {
      // The default databases may simply not exist yet; a path the user named should.
      logger().warn("ignoring tuning database {}: no such file", path);
    }
    it = s.open.emplace(path, std::move(opened)).first;
  }
  return it->second.get();
}


/// Warns once per file and device when the file has tuned rows but none for `device`: a table
/// installed from another kind of GPU, whose problems all run the untuned choice here.
void warn_if_other_devices_only(LookupState& s, const db::TuningDb& database, const std::string& path,
                                const db::DeviceSignature& device) {
  if (!s.checked_devices.insert(path + "|" + device.key()).second) return;
  const std::vector<db::DeviceSignature> devices = database.devices();
  if (devices.empty()) return;
  for (const db::DeviceSignature& d : devices)
    if (d.key() == device.key()) return;
  logger().warn("tuning database {} has rows for {} other device{} ({}{}) and none for this one ({}): problems run "
                "the untuned choice; tune this GPU (gemm-tune tune) or install a table tuned on it",
                path, devices.size(), devices.size() == 1 ? "" : "s", devices.front().key(),
                devices.size() > 1 ? ", ..." : "", device.key());
}

}  // namespace

std::optional<db::Entry> find_tuned(const std::vector<std::string>& paths, const db::DeviceSignature& device,
                                    const db::ProblemKey& problem, std::string* source, bool warn_missing,
                                    const std::function<bool(const db::Entry&)>& usable) {
  LookupState& s = state();
  std::lock_guard lock(s.mutex);
  for (const std::string& path : paths) {
    db::TuningDb* database = open_database(s, path, warn_missing);
    if (database == nullptr) continue;
    try {
      const auto in_build = [&usable](const db::Entry& e) {
        return kernel_in_build(e.candidate.kernel) && (!usable || usable(e));
      };
      if (auto entry = database->best(device.key(), problem, in_build)) {
        if (source) *source = path;
        return entry;
      }
      warn_if_other_devices_only(s, *database, path, device);
    } catch (const db::DbError& e) {
      logger().warn("ignoring tuning database after a failed query: {}", e.what());
      s.open[path].reset();  // warned once; never queried again in this process
    }
  }
  return std::nullopt;
}

std::vector<NeighbourMeasurement> tuned_measurements(const std::vector<std::string>& paths,
                                                     const db::DeviceSignature& device, char transa, char transb,
                                                     int align, const GemmTypes& types) {
  LookupState& s = state();
  std::lock_guard lock(s.mutex);
  const std::string key = class_key(paths, device, transa, transb, align, types);
  if (const auto it = s.measurements.find(key); it != s.measurements.end()) return it->second;
  std::vector<NeighbourMeasurement> rows;
  for (const std::string& path : paths) {
    db::TuningDb* database = open_database(s, path, false);
    if (database == nullptr) continue;
    try {
      db::Filter filter;
      filter.device_key = device.key();
      filter.dtype = types_key(types);
      const auto measured = class_measurements(database->entries(filter), transa, transb, align);
      rows.insert(rows.end(), measured.begin(), measured.end());
    } catch (const db::DbError& e) {
      logger().warn("ignoring tuning database after a failed query: {}", e.what());
      s.open[path].reset();
    }
  }
  s.measurements.emplace(key, rows);
  return rows;
}

std::vector<NeighbourMeasurement> neighbour_measurements(const std::vector<std::string>& paths,
                                                         const db::DeviceSignature& device, char transa, char transb,
                                                         int align, const GemmTypes& types) {
  LookupState& s = state();
  const std::string key = class_key(paths, device, transa, transb, align, types) + "|with borrowed";
  uint64_t generation = 0;
  {
    std::lock_guard lock(s.mutex);
    if (const auto it = s.measurements.find(key); it != s.measurements.end()) return it->second;
    generation = s.generation;
  }
  // Built outside the lock (tuned_measurements takes it); kept only if no database was forgotten
  // meanwhile, so a list built from rows read before a write is never cached.
  auto rows = class_neighbours(
      [&](int class_align) { return tuned_measurements(paths, device, transa, transb, class_align, types); }, align,
      query_local_bytes);
  std::lock_guard lock(s.mutex);
  if (s.generation == generation) s.measurements.emplace(key, rows);
  return rows;
}

void forget_database(const std::string& path) {
  std::lock_guard lock(state().mutex);
  state().open.erase(path);
  state().measurements.clear();  // keyed by path lists; rebuilt on the next untuned choice
  ++state().generation;
}

void reset_tuned_lookup() {
  std::lock_guard lock(state().mutex);
  state().open.clear();
  state().measurements.clear();
  state().checked_devices.clear();
  ++state().generation;
}

}  // namespace autogemm
