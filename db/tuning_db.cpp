// See tuning_db.hpp.
#include "tuning_db.hpp"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "schema.hpp"
#include "sqlite_util.hpp"

namespace autogemm::db {

namespace fs = std::filesystem;

namespace {

// "81079MiB" when the size is a whole number of units (every card seen so far reports such sizes,
// so their keys read as before), else the exact "85000000000B": two sizes never share a key.
std::string size_text(int64_t bytes, int64_t unit, const char* unit_name) {
  return bytes % unit == 0 ? std::to_string(bytes / unit) + unit_name : std::to_string(bytes) + "B";
}

}  // namespace

std::string DeviceSignature::key() const {
  // The whole name, however long: the key is the device's identity in the database.
  return name + "|sm_" + std::to_string(cc_major) + std::to_string(cc_minor) + "|" + std::to_string(sm_count) + "sm|" +
         size_text(memory_bytes, int64_t{1} << 20, "MiB") + "|L2:" + size_text(l2_bytes, 1024, "KiB");
}

std::string default_user_db_path() {
  if (const char* env = std::getenv("AUTOGEMM_DB"); env != nullptr && *env != '\0') {
    const std::string list(env);
    return list.substr(0, list.find(':'));
  }
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg == '/')
    return std::string(xdg) + "/autogemm/tuning.sqlite3";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/share/autogemm/tuning.sqlite3";
}

std::string now_iso8601() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

// Signatures written by builds that rounded sizes to MiB and KiB and cut names at 255 bytes are
// rewritten exactly from the stored columns, so lookups by DeviceSignature::key() find them. A key
// already taken (such a build wrote again after this one) keeps the old row as it is.
void rekey_devices(sqlite3* db, const std::string& path) {
  std::vector<std::pair<int64_t, std::string>> stale;
  {
    Statement s(db, path,
                "SELECT id, signature, name, cc_major, cc_minor, sm_count, memory_bytes, l2_bytes FROM devices");
    while (s.step()) {
      const DeviceSignature d{s.text(2), s.integer(3), s.integer(4), s.integer(5), s.int64(6), s.int64(7)};
      if (d.key() != s.text(1)) stale.emplace_back(s.int64(0), d.key());
    }
  }
  if (stale.empty()) return;
  Transaction tx(db, path);
  Statement update(db, path, "UPDATE OR IGNORE devices SET signature = ?1 WHERE id = ?2");
  for (const auto& [id, key] : stale) {
    update.reset();
    update.bind(1, key).bind(2, id);
    update.step();
  }
  tx.commit();
}

// stat() that tells "absent" (false) from "cannot be looked at" (a DbError naming why).
bool file_exists(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return true;
  if (errno == ENOENT) return false;
  // A folder on the way that the user cannot enter, a name too long: say so, not "no such file".
  const fs::path dir = fs::path(path).parent_path();
  if (errno == EACCES && !dir.empty())
    throw DbError(path + ": cannot access: " + std::strerror(EACCES) + " (no search permission on " + dir.string() +
                  " or a folder above it)");
  throw DbError(path + ": cannot access: " + std::strerror(errno));
}

// Whether this process may write the file and create files beside it (SQLite's WAL index and locks).
bool writable_location(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return access(path.c_str(), W_OK) == 0 && access(dir.empty() ? "." : dir.c_str(), W_OK | X_OK) == 0;
}

// "file:<path>?immutable=1" with the characters a URI gives meaning to escaped.
std::string immutable_uri(const std::string& path) {
  std::string uri = "file:";
  for (const char ch : path) {
    if (ch == '%' || ch == '?' || ch == '#') {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(ch));
      uri += hex;
    } else {
      uri += ch;
    }
  }
  return uri + "?immutable=1";
}

}  // namespace

TuningDb::TuningDb(const std::string& path, OpenMode mode, bool create_parent) : path_(path) {
  const bool write = mode == OpenMode::kReadWrite;
  const bool exists = file_exists(path);
  if (write) {
    const fs::path dir = fs::path(path).parent_path();
    if (!dir.empty() && !exists && !file_exists(dir.string())) {
      if (!create_parent) throw DbError(path + ": directory " + dir.string() + " does not exist");
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec) throw DbError(path + ": cannot create directory " + dir.string() + ": " + ec.message());
    }
    if (!dir.empty() && access(dir.c_str(), W_OK | X_OK) != 0)
      throw DbError(path + ": directory " + dir.string() + " is not writable: " + std::strerror(errno));
    if (exists && access(path.c_str(), W_OK) != 0)
      throw DbError(path + ": file is read-only: " + std::strerror(errno));
  } else if (!exists) {
    throw DbError(path + ": no such file");
  }
  int flags = write ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) : SQLITE_OPEN_READONLY;
  std::string name = path;
  if (!write && !writable_location(path)) {
    // A reader that may not write beside the file (a table installed read-only for a fleet): SQLite
    // would try to create the WAL index or take a lock there and fail ("attempt to write a readonly
    // database"). Opened as immutable it reads the file as it is, without locks; `gemm-tune db pack`
    // writes files meant for this, whole and out of WAL mode.
    name = immutable_uri(path);
    flags |= SQLITE_OPEN_URI;
  }
  if (sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw DbError(path + ": cannot open: " + message);
  }
  try {
    sqlite3_busy_timeout(db_, 10000);  // writers queue for the lock instead of failing
    // Reading the schema is the first access: a file that is not SQLite fails here.
    int tables = 0;
    bool ours = false;
    std::string foreign;
    {
      Statement s(db_, path_, "SELECT name FROM sqlite_master WHERE type = 'table'");
      while (s.step()) {
        const std::string name = s.text(0);
        ++tables;
        if (name == "autogemm_meta") ours = true;
        else if (foreign.size() < 80) foreign += (foreign.empty() ? "" : ", ") + name;
      }
    }
    if (tables > 0 && !ours)
      throw DbError(path + ": not an autogemm tuning database (it has tables " + foreign + " but no autogemm_meta)");
    {
      Statement check(db_, path_, "PRAGMA quick_check");
      check.step();
      if (check.text(0) != "ok") throw DbError(path + ": database is damaged: " + check.text(0));
    }
    int version = 0;
    {
      Statement v(db_, path_, "PRAGMA user_version");
      v.step();
      version = v.integer(0);
    }
    if (version > kSchemaVersion)
      throw DbError(path + ": schema version " + std::to_string(version) + " is newer than this build knows (" +
                    std::to_string(kSchemaVersion) + "); upgrade autogemm");
    if (version < 0)
      throw DbError(path + ": schema version " + std::to_string(version) +
                    " is not one autogemm writes (0 to " + std::to_string(kSchemaVersion) +
                    "): the file is damaged or was changed by hand");
    if (write) {
      // WAL: readers never block the writer; NORMAL sync is safe against process crashes in WAL.
      exec(db_, path_, "PRAGMA journal_mode = WAL");
      exec(db_, path_, "PRAGMA synchronous = NORMAL");
      exec(db_, path_, "PRAGMA foreign_keys = ON");
      if (version < kSchemaVersion) migrate(db_, path_, version);
      rekey_devices(db_, path_);
    } else if (version == 0) {
      throw DbError(path + ": empty file, not an autogemm tuning database");
    } else if (version < kOldestReadableVersion) {
      // A read-only open cannot migrate, and the queries use version 4's columns.
      throw DbError(path + ": schema version " + std::to_string(version) + " is older than this build's " +
                    std::to_string(kSchemaVersion) + "; migrate it with 'gemm-tune db check --db " + path + "'");
    }
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

void TuningDb::pack_to(const std::string& out) const {
  const fs::path target(out);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (fs::weakly_canonical(target) == fs::weakly_canonical(path_))
    throw DbError(out + ": is the database being packed; name another file");
  std::string temp = (dir / ("." + target.filename().string() + ".pack.XXXXXX")).string();
  const int fd = mkstemp(temp.data());
  if (fd < 0) throw DbError(out + ": cannot write file: " + std::strerror(errno));
  ::close(fd);
  ::unlink(temp.c_str());  // VACUUM INTO writes a file that does not exist yet
  try {
    Statement vacuum(db_, path_, "VACUUM INTO ?1");
    vacuum.bind(1, temp);
    vacuum.step();
    sqlite3* copy = nullptr;
    if (sqlite3_open_v2(temp.c_str(), &copy, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      const std::string message = copy ? sqlite3_errmsg(copy) : "out of memory";
      sqlite3_close(copy);
      throw DbError(out + ": cannot open the packed copy: " + message);
    }
    try {
      exec(copy, temp, "PRAGMA journal_mode = DELETE");
    } catch (...) {
      sqlite3_close(copy);
      throw;
    }
    sqlite3_close(copy);
    ::chmod(temp.c_str(), 0644);  // readable by every user of the machines it is installed on
    if (::rename(temp.c_str(), target.c_str()) != 0)
      throw DbError(out + ": cannot write file: " + std::strerror(errno));
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

TuningDb::~TuningDb() { sqlite3_close(db_); }

int TuningDb::schema_version() const {
  Statement v(db_, path_, "PRAGMA user_version");
  v.step();
  return v.integer(0);
}

namespace {

int64_t device_id(sqlite3* db, const std::string& path, const DeviceSignature& d) {
  Statement ins(db, path,
                "INSERT INTO devices (signature, name, cc_major, cc_minor, sm_count, memory_bytes, l2_bytes) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (signature) DO NOTHING");
  ins.bind(1, d.key()).bind(2, d.name).bind(3, d.cc_major).bind(4, d.cc_minor).bind(5, d.sm_count);
  ins.bind(6, d.memory_bytes).bind(7, d.l2_bytes);
  ins.step();
  Statement sel(db, path, "SELECT id FROM devices WHERE signature = ?1");
  sel.bind(1, d.key());
  sel.step();
  return sel.int64(0);
}

int64_t problem_id(sqlite3* db, const std::string& path, const ProblemKey& p) {
  const std::string ta(1, p.transa), tb(1, p.transb);
  Statement ins(db, path,
                "INSERT INTO problems (dtype, transa, transb, m, n, k, align) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                "ON CONFLICT DO NOTHING");
  ins.bind(1, p.dtype).bind(2, ta).bind(3, tb).bind(4, p.m).bind(5, p.n).bind(6, p.k).bind(7, p.align);
  ins.step();
  Statement sel(db, path,
                "SELECT id FROM problems WHERE dtype = ?1 AND transa = ?2 AND transb = ?3 AND m = ?4 AND n = ?5 "
                "AND k = ?6 AND align = ?7");
  sel.bind(1, p.dtype).bind(2, ta).bind(3, tb).bind(4, p.m).bind(5, p.n).bind(6, p.k).bind(7, p.align);
  sel.step();
  return sel.int64(0);
}

constexpr const char* kSelectEntries =
    "SELECT d.name, d.cc_major, d.cc_minor, d.sm_count, d.memory_bytes, d.l2_bytes, "
    "p.dtype, p.transa, p.transb, p.m, p.n, p.k, p.align, "
    "m.kernel, m.splits, m.split_mode, m.median_us, m.min_us, m.spread_us, m.iterations, m.tflops, m.check_passed, "
    "m.rel_error, m.gpu_uuid, m.driver_version, m.runtime_version, m.sm_clock_mhz, m.mem_clock_mhz, "
    "m.library_version, m.kernel_grid, m.host, m.measured_at "
    "FROM measurements m JOIN devices d ON d.id = m.device_id JOIN problems p ON p.id = m.problem_id ";

Entry read_entry(const Statement& s) {
  Entry e;
  e.device = {s.text(0), s.integer(1), s.integer(2), s.integer(3), s.int64(4), s.int64(5)};
  e.problem.dtype = s.text(6);
  e.problem.transa = s.text(7).empty() ? '?' : s.text(7)[0];
  e.problem.transb = s.text(8).empty() ? '?' : s.text(8)[0];
  e.problem.m = s.integer(9);
  e.problem.n = s.integer(10);
  e.problem.k = s.integer(11);
  e.problem.align = s.integer(12);
  e.candidate = {s.text(13), s.integer(14), s.text(15)};
  e.measurement = {s.real(16), s.real(17), s.real(18), s.integer(19), s.real(20), s.integer(21) != 0, s.real(22)};
  e.provenance.gpu_uuid = s.text(23);
  e.provenance.driver_version = s.integer(24);
  e.provenance.runtime_version = s.integer(25);
  e.provenance.sm_clock_mhz = s.integer(26);
  e.provenance.mem_clock_mhz = s.integer(27);
  e.provenance.library_version = s.text(28);
  e.provenance.kernel_grid = s.text(29);
  e.provenance.host = s.text(30);
  e.provenance.measured_at = s.text(31);
  return e;
}

}  // namespace

int TuningDb::record(const std::vector<Entry>& entries) {
  Transaction tx(db_, path_);
  // Merge policy: one row per (device, problem, candidate); a newer measurement replaces an older
  // one, an equal or older one changes nothing (so importing a file twice is a no-op).
  Statement upsert(db_, path_,
                   "INSERT INTO measurements (device_id, problem_id, kernel, splits, split_mode, median_us, min_us, "
                   "spread_us, iterations, tflops, check_passed, rel_error, gpu_uuid, driver_version, runtime_version, "
                   "sm_clock_mhz, mem_clock_mhz, library_version, kernel_grid, host, measured_at) VALUES "
                   "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21) "
                   "ON CONFLICT (device_id, problem_id, kernel, splits, split_mode) DO UPDATE SET "
                   "median_us = excluded.median_us, min_us = excluded.min_us, spread_us = excluded.spread_us, "
                   "iterations = excluded.iterations, tflops = excluded.tflops, check_passed = excluded.check_passed, "
                   "rel_error = excluded.rel_error, gpu_uuid = excluded.gpu_uuid, "
                   "driver_version = excluded.driver_version, runtime_version = excluded.runtime_version, "
                   "sm_clock_mhz = excluded.sm_clock_mhz, mem_clock_mhz = excluded.mem_clock_mhz, "
                   "library_version = excluded.library_version, kernel_grid = excluded.kernel_grid, "
                   "host = excluded.host, measured_at = excluded.measured_at "
                   "WHERE excluded.measured_at > measurements.measured_at");
  int changed = 0;
  for (const Entry& e : entries) {
    const int64_t dev = device_id(db_, path_, e.device);
    const int64_t prob = problem_id(db_, path_, e.problem);
    const Measurement& m = e.measurement;
    const Provenance& p = e.provenance;
    upsert.reset();
    upsert.bind(1, dev).bind(2, prob).bind(3, e.candidate.kernel).bind(4, e.candidate.splits);
    upsert.bind(5, e.candidate.split_mode).bind(6, m.median_us).bind(7, m.min_us).bind(8, m.spread_us);
    upsert.bind(9, m.iterations).bind(10, m.tflops).bind(11, m.check_passed ? 1 : 0).bind(12, m.rel_error);
    upsert.bind(13, p.gpu_uuid).bind(14, p.driver_version).bind(15, p.runtime_version).bind(16, p.sm_clock_mhz);
    upsert.bind(17, p.mem_clock_mhz).bind(18, p.library_version).bind(19, p.kernel_grid).bind(20, p.host);
    upsert.bind(21, p.measured_at);
    upsert.step();
    changed += sqlite3_changes(db_);
  }
  tx.commit();
  return changed;
}

void TuningDb::record_pruned(const DeviceSignature& device, const ProblemKey& problem, const std::string& kernel_grid,
                             const std::vector<PrunedCandidate>& pruned) {
  Transaction tx(db_, path_);
  const int64_t dev = device_id(db_, path_, device);
  const int64_t prob = problem_id(db_, path_, problem);
  Statement clear(db_, path_, "DELETE FROM pruned WHERE device_id = ?1 AND problem_id = ?2");
  clear.bind(1, dev).bind(2, prob);
  clear.step();
  Statement ins(db_, path_,
                "INSERT INTO pruned (device_id, problem_id, kernel, splits, split_mode, reason, kernel_grid, "
                "recorded_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  const std::string now = now_iso8601();
  for (const PrunedCandidate& p : pruned) {
    ins.reset();
    ins.bind(1, dev).bind(2, prob).bind(3, p.candidate.kernel).bind(4, p.candidate.splits);
    ins.bind(5, p.candidate.split_mode).bind(6, p.reason).bind(7, kernel_grid).bind(8, now);
    ins.step();
  }
  tx.commit();
}

namespace {

// One (device, problem) key as SQL over aliases d (devices) and p (problems), parameters ?1..?8,
// and its bindings: the lookups below share both.
constexpr const char* kDeviceProblemIs =
    "d.signature = ?1 AND p.dtype = ?2 AND p.transa = ?3 AND p.transb = ?4 AND p.m = ?5 AND p.n = ?6 AND p.k = ?7 "
    "AND p.align = ?8 ";

void bind_device_problem(Statement& s, const std::string& device_key, const ProblemKey& problem) {
  s.bind(1, device_key).bind(2, problem.dtype).bind(3, std::string(1, problem.transa));
  s.bind(4, std::string(1, problem.transb)).bind(5, problem.m).bind(6, problem.n).bind(7, problem.k);
  s.bind(8, problem.align);
}

}  // namespace

std::vector<PrunedCandidate> TuningDb::pruned(const std::string& device_key, const ProblemKey& problem) const {
  const std::string sql = std::string(
                              "SELECT x.kernel, x.splits, x.split_mode, x.reason FROM pruned x JOIN devices d ON "
                              "d.id = x.device_id JOIN problems p ON p.id = x.problem_id WHERE ") +
                          kDeviceProblemIs + "ORDER BY x.kernel, x.splits, x.split_mode";
  Statement s(db_, path_, sql.c_str());
  bind_device_problem(s, device_key, problem);
  std::vector<PrunedCandidate> out;
  while (s.step()) out.push_back({{s.text(0), s.integer(1), s.text(2)}, s.text(3)});
  return out;
}

bool TuningDb::has_tuned(const std::string& device_key, const ProblemKey& problem,
                         const std::string& kernel_grid) const {
  // The rows of a tuning share its measured_at (one provenance per problem recorded); the latest
  // tuning's screening rows are compared with its own full timings, so rows an older tuning left
  // behind never make a problem look unfinished forever.
  const std::string full = std::to_string(kFullTimingIterations);
  auto of_latest = [](const char* x) {
    return std::string(x) + ".device_id = m.device_id AND " + x + ".problem_id = m.problem_id AND " + x +
           ".kernel_grid = ?9 AND " + x + ".check_passed = 1 AND " + x +
           ".measured_at = (SELECT MAX(l.measured_at) FROM measurements l WHERE l.device_id = m.device_id AND "
           "l.problem_id = m.problem_id AND l.kernel_grid = ?9)";
  };
  const std::string sql =
      std::string("SELECT 1 FROM measurements m JOIN devices d ON d.id = m.device_id JOIN problems p ON "
                  "p.id = m.problem_id WHERE ") +
      kDeviceProblemIs +
      "AND m.kernel_grid = ?9 AND NOT EXISTS (SELECT 1 FROM pruned x WHERE x.device_id = m.device_id AND "
      "x.problem_id = m.problem_id AND x.reason = ?10) AND NOT EXISTS (SELECT 1 FROM measurements x WHERE " +
      of_latest("x") + " AND x.iterations < " + full + " AND x.median_us < COALESCE((SELECT MIN(f.median_us) FROM " +
      "measurements f WHERE " + of_latest("f") + " AND f.iterations >= " + full + "), 1e300)) LIMIT 1";
  Statement s(db_, path_, sql.c_str());
  bind_device_problem(s, device_key, problem);
  s.bind(9, kernel_grid).bind(10, std::string(kInterruptedReason));
  return s.step();
}

std::vector<Entry> TuningDb::entries(const Filter& filter) const {
  std::string sql = std::string(kSelectEntries) +
                    "WHERE (?1 = '' OR d.signature = ?1) AND (?2 = '' OR p.dtype = ?2) AND "
                    "(?3 = 0 OR (p.transa = ?4 AND p.transb = ?5 AND p.m = ?6 AND p.n = ?7 AND p.k = ?8 AND "
                    "p.align = ?9)) ORDER BY d.signature, p.dtype, p.transa, p.transb, p.m, p.n, p.k, p.align, "
                    "m.kernel, m.splits, m.split_mode";
  Statement s(db_, path_, sql.c_str());
  s.bind(1, filter.device_key).bind(2, filter.dtype).bind(3, filter.problem ? 1 : 0);
  const ProblemKey p = filter.problem.value_or(ProblemKey{});
  s.bind(4, std::string(1, p.transa)).bind(5, std::string(1, p.transb)).bind(6, p.m).bind(7, p.n).bind(8, p.k);
  s.bind(9, p.align);
  std::vector<Entry> out;
  while (s.step()) out.push_back(read_entry(s));
  return out;
}

std::optional<Entry> TuningDb::best(const std::string& device_key, const ProblemKey& problem,
                                    const std::function<bool(const Entry&)>& usable) const {
  // As the best_configs view orders them (db/schema.cpp): full timings first.
  const std::string sql = std::string(kSelectEntries) + "WHERE " + kDeviceProblemIs +
                          "AND m.check_passed = 1 ORDER BY m.iterations < " + std::to_string(kFullTimingIterations) +
                          ", m.median_us, m.id";
  Statement s(db_, path_, sql.c_str());
  bind_device_problem(s, device_key, problem);
  while (s.step()) {
    Entry e = read_entry(s);
    if (!usable || usable(e)) return e;  // stale kernels and splits are skipped
  }
  return std::nullopt;
}

std::vector<DeviceSignature> TuningDb::devices() const {
  Statement s(db_, path_,
              "SELECT name, cc_major, cc_minor, sm_count, memory_bytes, l2_bytes FROM devices ORDER BY signature");
  std::vector<DeviceSignature> out;
  while (s.step()) out.push_back({s.text(0), s.integer(1), s.integer(2), s.integer(3), s.int64(4), s.int64(5)});
  return out;
}

CheckReport TuningDb::check(bool (*kernel_exists)(const std::string&)) const {
  CheckReport r;
  r.schema_version = schema_version();
  // PRAGMA integrity_check only checks the objects that exist: a dropped table is not its business.
  std::string missing;
  const auto has = [&](const std::string& type, const std::string& name) {
    Statement s(db_, path_, "SELECT 1 FROM sqlite_master WHERE type = ?1 AND name = ?2");
    s.bind(1, type).bind(2, name);
    return s.step();
  };
  for (const auto& [type, name] : {std::pair<std::string, std::string>{"table", "autogemm_meta"},
                                   {"table", "devices"}, {"table", "problems"}, {"table", "measurements"},
                                   {"table", "pruned"}, {"view", "best_configs"}, {"index", "measurements_by_problem"}})
    if (!has(type, name)) missing += (missing.empty() ? "" : ", ") + type + " " + name;
  // The counts of the tables that are there.
  auto count = [&](const char* table, const char* sql) -> int64_t {
    if (!has("table", table)) return 0;
    Statement s(db_, path_, sql);
    s.step();
    return s.int64(0);
  };
  r.devices = count("devices", "SELECT COUNT(*) FROM devices");
  r.problems = count("problems", "SELECT COUNT(*) FROM problems");
  r.measurements = count("measurements", "SELECT COUNT(*) FROM measurements");
  r.failed_checks = count("measurements", "SELECT COUNT(*) FROM measurements WHERE check_passed = 0");
  {
    Statement s(db_, path_, "PRAGMA integrity_check");
    s.step();
    r.integrity = s.text(0);
  }
  if (!missing.empty()) {
    const std::string lacks = "schema version " + std::to_string(r.schema_version) + " lacks " + missing;
    r.integrity = r.integrity == "ok" ? lacks : lacks + "; " + r.integrity;
  }
  if (kernel_exists != nullptr && has("table", "measurements")) {
    Statement s(db_, path_, "SELECT DISTINCT kernel FROM measurements ORDER BY kernel");
    while (s.step())
      if (!kernel_exists(s.text(0))) r.missing_kernels.push_back(s.text(0));
  }
  return r;
}

}  // namespace autogemm::db
