// The tuning database: one SQLite file holding every tuning measurement with its provenance.
// Schema and migrations: db/schema.cpp (documented in docs/database.md). Every write is one
// transaction of prepared statements; the file is opened in WAL mode with a busy timeout, so
// several processes can write to it at once. Errors are DbError exceptions whose message names the
// file and the problem.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "data_types.hpp"

struct sqlite3;

namespace autogemm::db {

class DbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What identifies "this kind of GPU": tuning results transfer between cards with equal signatures.
struct DeviceSignature {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int64_t memory_bytes = 0;
  int64_t l2_bytes = 0;
  /// "NVIDIA H100 80GB HBM3|sm_90|132sm|81079MiB|L2:51200KiB": the key stored in the database, exact
  /// in every field (a size that is not a whole number of MiB or KiB is written in bytes).
  std::string key() const;
  bool operator==(const DeviceSignature&) const = default;
};

/// What selects a kernel: the tuning key of a problem, the one key of the database rows, the
/// exchange formats, the tuner's resume and the runtime's cache of choices.
struct ProblemKey {
  std::string dtype = types_key(kF32Types);  // element and compute types (data_types.hpp)
  char transa = 'n', transb = 'n';
  int m = 0, n = 0, k = 0;
  int align = 4;
  bool operator==(const ProblemKey&) const = default;
};

/// The candidate: a kernel instance (by procedural name) plus run-time choices.
struct Candidate {
  std::string kernel;
  int splits = 1;
  std::string split_mode = "none";  // none | serial | parallel
  bool operator==(const Candidate&) const = default;
};

/// Where a measurement came from.
struct Provenance {
  std::string gpu_uuid;
  int driver_version = 0, runtime_version = 0;
  int sm_clock_mhz = 0, mem_clock_mhz = 0;
  std::string library_version, kernel_grid;
  std::string host;
  std::string measured_at;  // ISO 8601 UTC, e.g. 2026-11-21T15:04:05Z
  bool operator==(const Provenance&) const = default;
};

/// Repetitions of a full timing at least (the tuner's, TuneOptions::timing.min_reps). A row of fewer is
/// a screening measurement (the tuner's quick pass: 5 right after the candidate's check; online
/// mode's 7), which ranks a problem's candidates only where it has no full timing: on large
/// problems a few repetitions after an idle moment run above the power cap's clock (8192^3 BF16 on
/// the H200: 1476 us quick, 1639 the best full timing).
inline constexpr int kFullTimingIterations = 10;

/// The pruned reason of the candidates a stop (Ctrl-C) left untimed: the problem is tuned again.
inline constexpr const char* kInterruptedReason = "interrupted";

struct Measurement {
  double median_us = 0, min_us = 0, spread_us = 0;  // spread = max - min
  int iterations = 0;
  double tflops = 0;
  bool check_passed = false;
  double rel_error = 0;
  bool operator==(const Measurement&) const = default;
};

/// Whether `a` ranks before `b` for a problem's best: a full timing before a screening row
/// (kFullTimingIterations), then the shorter median; the order of best_configs and TuningDb::best.
inline bool ranks_before(const Measurement& a, const Measurement& b) {
  const bool a_full = a.iterations >= kFullTimingIterations, b_full = b.iterations >= kFullTimingIterations;
  return a_full != b_full ? a_full : a.median_us < b.median_us;
}

/// One row: a candidate measured for a problem on a device.
struct Entry {
  DeviceSignature device;
  ProblemKey problem;
  Candidate candidate;
  Measurement measurement;
  Provenance provenance;
  bool operator==(const Entry&) const = default;
};

/// A candidate the tuner did not time, and why.
struct PrunedCandidate {
  Candidate candidate;
  std::string reason;
};

/// Restricts queries and exports; empty fields match everything.
struct Filter {
  std::string device_key;  // DeviceSignature::key()
  std::string dtype;
  std::optional<ProblemKey> problem;
};

/// Counts and anomalies of a database file, for `gemm-tune db check`.
struct CheckReport {
  int schema_version = 0;
  int64_t devices = 0, problems = 0, measurements = 0, failed_checks = 0;
  std::vector<std::string> missing_kernels;  // kernels named by rows but absent from this build
  std::string integrity;                     // "ok" or what PRAGMA integrity_check said
};

enum class OpenMode { kReadOnly, kReadWrite };

class TuningDb {
 public:
  /// Opens and migrates the schema; read-write creates the file if missing, and its directory too
  /// when `create_parent` (the default user database is created on first write; an explicit path in
  /// a missing folder is more likely a typo). Throws DbError naming the file: not SQLite, truncated,
  /// newer schema, foreign tables, read-only for a write open, missing or unwritable directory.
  TuningDb(const std::string& path, OpenMode mode, bool create_parent = false);
  ~TuningDb();
  TuningDb(const TuningDb&) = delete;
  TuningDb& operator=(const TuningDb&) = delete;

  const std::string& path() const { return path_; }
  int schema_version() const;

  /// Inserts or merges entries in one transaction (merge policy: docs/database.md — the same
  /// candidate for the same device and problem keeps the newer measurement).
  /// Returns how many rows were inserted or replaced.
  int record(const std::vector<Entry>& entries);

  /// Replaces the pruned-candidate records of (device, problem) with `pruned`, in one transaction.
  void record_pruned(const DeviceSignature& device, const ProblemKey& problem, const std::string& kernel_grid,
                     const std::vector<PrunedCandidate>& pruned);
  std::vector<PrunedCandidate> pruned(const std::string& device_key, const ProblemKey& problem) const;

  /// True when the last tuning of (device, problem) with this build of the grid finished: the tuner's
  /// resume test. It did not if the problem has no row of the grid, a candidate pruned as
  /// kInterruptedReason, or, among the rows of its latest tuning (the newest measured_at), a passed
  /// screening row (fewer than kFullTimingIterations repetitions) faster than all that tuning's full
  /// timings: what a stop before the full timing leaves, a tuner that did not time such a candidate
  /// in full, or online mode alone.
  bool has_tuned(const std::string& device_key, const ProblemKey& problem, const std::string& kernel_grid) const;

  /// All entries that match `filter`, in a stable order (device, problem, candidate).
  std::vector<Entry> entries(const Filter& filter = {}) const;

  /// The fastest entry that passed its check for (device, problem) among its full timings
  /// (kFullTimingIterations), or among all its rows where it has none; skipping rows for which
  /// `usable` returns false (a kernel from another build of the grid, a split the runtime's rules
  /// no longer allow).
  std::optional<Entry> best(const std::string& device_key, const ProblemKey& problem,
                            const std::function<bool(const Entry&)>& usable = {}) const;

  std::vector<DeviceSignature> devices() const;
  CheckReport check(bool (*kernel_exists)(const std::string&) = nullptr) const;

  /// Writes a copy of the database to `out` for distribution: vacuumed, with a rollback journal
  /// (not WAL), whole or not at all (a temporary file beside `out`, then a rename), so that readers
  /// who cannot write beside it read it as it is. Throws DbError naming the file.
  void pack_to(const std::string& out) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

/// $AUTOGEMM_DB (first path of a ':'-separated list), else $XDG_DATA_HOME/autogemm/tuning.sqlite3,
/// else ~/.local/share/autogemm/tuning.sqlite3.
std::string default_user_db_path();

/// The current time as ISO 8601 UTC.
std::string now_iso8601();

}  // namespace autogemm::db
