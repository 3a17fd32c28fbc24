// The migrations. Never edit a released step: add the next one. docs/database.md documents the
// result; tests/db/tuning_db_test.cpp migrates version-1 and version-4 files forward.
#include "schema.hpp"

#include <sqlite3.h>

#include "sqlite_util.hpp"
#include "tuning_db.hpp"

namespace autogemm::db {
namespace {

// The best valid measurement per (device, problem): version 1 creates the view, version 4 makes it
// again over its rebuilt problems table, version 5 replaces it with one that ranks full timings
// first. Macros of literals, so that each migration stays one string literal; version 1's and 4's
// text is what they always were.
#define AUTOGEMM_BEST_CONFIGS_VIEW_ORDERED_BY(order) \
  "CREATE VIEW best_configs AS\n" \
  "SELECT d.signature, p.dtype, p.transa, p.transb, p.m, p.n, p.k, p.align,\n" \
  "       m.kernel, m.splits, m.split_mode, m.median_us, m.tflops, m.measured_at\n" \
  "FROM measurements m\n" \
  "JOIN devices d ON d.id = m.device_id\n" \
  "JOIN problems p ON p.id = m.problem_id\n" \
  "WHERE m.check_passed = 1\n" \
  "  AND m.id = (SELECT m2.id FROM measurements m2\n" \
  "              WHERE m2.device_id = m.device_id AND m2.problem_id = m.problem_id AND m2.check_passed = 1\n" \
  "              ORDER BY " order " LIMIT 1);\n"
#define AUTOGEMM_BEST_CONFIGS_VIEW AUTOGEMM_BEST_CONFIGS_VIEW_ORDERED_BY("m2.median_us, m2.id")

// From version 5 the best is the fastest passed full timing (kFullTimingIterations repetitions or
// more), or the fastest passed row of a problem that has none: tables written by tuners that let a
// quick pass's burst be a problem's fastest row run the tuner's choice.
static_assert(kFullTimingIterations == 10, "AUTOGEMM_BEST_CONFIGS_VIEW_5 spells kFullTimingIterations as 10");
#define AUTOGEMM_BEST_CONFIGS_VIEW_5 AUTOGEMM_BEST_CONFIGS_VIEW_ORDERED_BY("m2.iterations < 10, m2.median_us, m2.id")

// Version 1: devices, problems, measurements, the best-per-problem view.
constexpr const char* kMigration1 = R"sql(
CREATE TABLE autogemm_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT INTO autogemm_meta (key, value) VALUES ('format', 'autogemm-tuning');

CREATE TABLE devices (
  id           INTEGER PRIMARY KEY,
  signature    TEXT NOT NULL UNIQUE,
  name         TEXT NOT NULL,
  cc_major     INTEGER NOT NULL,
  cc_minor     INTEGER NOT NULL,
  sm_count     INTEGER NOT NULL,
  memory_bytes INTEGER NOT NULL,
  l2_bytes     INTEGER NOT NULL
);

CREATE TABLE problems (
  id     INTEGER PRIMARY KEY,
  dtype  TEXT NOT NULL,
  transa TEXT NOT NULL CHECK (transa IN ('n', 't')),
  transb TEXT NOT NULL CHECK (transb IN ('n', 't')),
  m      INTEGER NOT NULL CHECK (m > 0),
  n      INTEGER NOT NULL CHECK (n > 0),
  k      INTEGER NOT NULL CHECK (k > 0),
  align  INTEGER NOT NULL CHECK (align IN (1, 4)),
  UNIQUE (dtype, transa, transb, m, n, k, align)
);

CREATE TABLE measurements (
  id              INTEGER PRIMARY KEY,
  device_id       INTEGER NOT NULL REFERENCES devices (id),
  problem_id      INTEGER NOT NULL REFERENCES problems (id),
  kernel          TEXT NOT NULL,
  splits          INTEGER NOT NULL CHECK (splits >= 1),
  split_mode      TEXT NOT NULL CHECK (split_mode IN ('none', 'serial', 'parallel')),
  median_us       REAL NOT NULL,
  min_us          REAL NOT NULL,
  spread_us       REAL NOT NULL,
  iterations      INTEGER NOT NULL,
  tflops          REAL NOT NULL,
  check_passed    INTEGER NOT NULL CHECK (check_passed IN (0, 1)),
  measured_at     TEXT NOT NULL,
  library_version TEXT NOT NULL,
  kernel_grid     TEXT NOT NULL,
  gpu_uuid        TEXT NOT NULL,
  driver_version  INTEGER NOT NULL,
  runtime_version INTEGER NOT NULL,
  sm_clock_mhz    INTEGER NOT NULL,
  mem_clock_mhz   INTEGER NOT NULL,
  UNIQUE (device_id, problem_id, kernel, splits, split_mode)
);

)sql" AUTOGEMM_BEST_CONFIGS_VIEW;

// Version 2: the result check's relative error and the measuring host as provenance, and an index
// for the per-problem lookups of the runtime.
constexpr const char* kMigration2 = R"sql(
ALTER TABLE measurements ADD COLUMN rel_error REAL NOT NULL DEFAULT 0;
ALTER TABLE measurements ADD COLUMN host TEXT NOT NULL DEFAULT '';
CREATE INDEX measurements_by_problem ON measurements (device_id, problem_id, check_passed, median_us);
)sql";

// Version 3: the candidates the tuner pruned before timing, each with its reason, so a tuning run
// can be audited (what the occupancy check and the cost model removed).
constexpr const char* kMigration3 = R"sql(
CREATE TABLE pruned (
  id          INTEGER PRIMARY KEY,
  device_id   INTEGER NOT NULL REFERENCES devices (id),
  problem_id  INTEGER NOT NULL REFERENCES problems (id),
  kernel      TEXT NOT NULL,
  splits      INTEGER NOT NULL CHECK (splits >= 1),
  split_mode  TEXT NOT NULL CHECK (split_mode IN ('none', 'serial', 'parallel')),
  reason      TEXT NOT NULL,
  kernel_grid TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  UNIQUE (device_id, problem_id, kernel, splits, split_mode) ON CONFLICT REPLACE
);
)sql";

// Version 4: problems of 16-bit element types are aligned in classes of 8 elements (16 bytes), so
// the problems table's align takes 8. SQLite cannot change a CHECK in place: the table is copied
// into its new form (migrate() runs with foreign keys off, so measurements keep their problem ids),
// and version 1's best-per-problem view is made again over it.
constexpr const char* kMigration4 = R"sql(
CREATE TABLE problems_v4 (
  id     INTEGER PRIMARY KEY,
  dtype  TEXT NOT NULL,
  transa TEXT NOT NULL CHECK (transa IN ('n', 't')),
  transb TEXT NOT NULL CHECK (transb IN ('n', 't')),
  m      INTEGER NOT NULL CHECK (m > 0),
  n      INTEGER NOT NULL CHECK (n > 0),
  k      INTEGER NOT NULL CHECK (k > 0),
  align  INTEGER NOT NULL CHECK (align IN (1, 4, 8)),
  UNIQUE (dtype, transa, transb, m, n, k, align)
);
INSERT INTO problems_v4 (id, dtype, transa, transb, m, n, k, align)
  SELECT id, dtype, transa, transb, m, n, k, align FROM problems;
DROP VIEW best_configs;
DROP TABLE problems;
ALTER TABLE problems_v4 RENAME TO problems;
)sql" AUTOGEMM_BEST_CONFIGS_VIEW;

// Version 5: the best-per-problem view prefers full timings (AUTOGEMM_BEST_CONFIGS_VIEW_5).
constexpr const char* kMigration5 = "DROP VIEW best_configs;\n" AUTOGEMM_BEST_CONFIGS_VIEW_5;

constexpr const char* kMigrations[] = {kMigration1, kMigration2, kMigration3, kMigration4, kMigration5};
static_assert(sizeof(kMigrations) / sizeof(kMigrations[0]) == kSchemaVersion, "one migration per schema version");

}  // namespace

void migrate(sqlite3* db, const std::string& path, int from, int to) {
  // kMigrations[v] for v outside [0, kSchemaVersion) would read past the table.
  if (from < 0 || to > kSchemaVersion || from > to)
    throw DbError(path + ": cannot migrate schema version " + std::to_string(from) + " to " + std::to_string(to) +
                  " (this build knows 0 to " + std::to_string(kSchemaVersion) + ")");
  // Version 4 rebuilds a table others reference: SQLite's procedure for that runs with foreign keys
  // off (they cannot change inside a transaction), restored after.
  int foreign_keys = 0;
  {
    Statement fk(db, path, "PRAGMA foreign_keys");
    fk.step();
    foreign_keys = fk.integer(0);
  }
  exec(db, path, "PRAGMA foreign_keys = OFF");
  struct Restore {
    sqlite3* db;
    int on;
    ~Restore() { sqlite3_exec(db, on ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF", nullptr, nullptr, nullptr); }
  } restore{db, foreign_keys};
  for (int v = from; v < to; ++v) {
    Transaction tx(db, path);
    // Another process may have migrated while we waited for the write lock.
    int now = 0;
    {
      Statement version(db, path, "PRAGMA user_version");
      version.step();
      now = version.integer(0);
    }
    if (now > v) continue;
    exec(db, path, kMigrations[v]);
    exec(db, path, ("PRAGMA user_version = " + std::to_string(v + 1)).c_str());
    tx.commit();
  }
}

}  // namespace autogemm::db
