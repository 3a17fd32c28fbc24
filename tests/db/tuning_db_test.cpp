// The tuning database: schema and migration, the merge policy and best-entry lookup, every failure
// of a bad file or folder, 8 concurrent writer processes, and a writer killed by SIGKILL.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>
#include <tuple>

#include "db_test_util.hpp"
#include "schema.hpp"
#include "tuning_db.hpp"

namespace autogemm::db::testing {
namespace {

void expect_db_error(const std::function<void()>& f, const std::string& path, const std::string& fragment) {
  try {
    f();
    FAIL() << "no DbError; expected one mentioning '" << fragment << "'";
  } catch (const DbError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << "message does not name the file: " << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << "message '" << what << "' lacks '" << fragment << "'";
  }
}

void raw_sql(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
  EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

/// A file at schema `version` as an older build wrote it: device 'sig', problem f32 nn 8x8x8 align 4,
/// and one passed measurement per (kernel, median_us, iterations) of `rows`.
void old_file(const std::string& path, int version, const std::vector<std::tuple<std::string, int, int>>& rows) {
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
    migrate(raw, path, 0, version);
    sqlite3_close(raw);
  }
  std::string sql =
      "INSERT INTO devices VALUES (1, 'sig', 'GPU', 9, 0, 132, 1000, 1000);"
      "INSERT INTO problems VALUES (1, 'f32', 'n', 'n', 8, 8, 8, 4);"
      "INSERT INTO measurements (device_id, problem_id, kernel, splits, split_mode, median_us, min_us, spread_us,"
      " iterations, tflops, check_passed, measured_at, library_version, kernel_grid, gpu_uuid, driver_version,"
      " runtime_version, sm_clock_mhz, mem_clock_mhz) VALUES ";
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& [kernel, median_us, iterations] = rows[i];
    sql += (i ? ", (1, 1, '" : "(1, 1, '") + kernel + "', 1, 'none', " + std::to_string(median_us) + ", " +
           std::to_string(median_us - 1) + ", 1, " + std::to_string(iterations) +
           ", 1, 1, '2026-01-01T00:00:00Z', '0.0.1', 'g', 'u', 1, 1, 1, 1)";
  }
  raw_sql(path, (sql + ";").c_str());
}

TEST(TuningDb, CreatesCurrentSchemaAndStoresEntries) {
  ScratchDir dir;
  TuningDb db(dir.file("t.sqlite3"), OpenMode::kReadWrite);
  EXPECT_EQ(db.schema_version(), kSchemaVersion);
  std::vector<Entry> in = {sample_entry(0), sample_entry(1), sample_entry(2)};
  EXPECT_EQ(db.record(in), 3);
  const auto out = db.entries();
  ASSERT_EQ(out.size(), 3u);
  for (const Entry& e : in) EXPECT_NE(std::find(out.begin(), out.end(), e), out.end());
  EXPECT_EQ(db.devices().size(), 1u);
}

TEST(TuningDb, MigratesVersion1Files) {
  ScratchDir dir;
  const std::string path = dir.file("v1.sqlite3");
  old_file(path, 1, {{"k", 5, 10}});
  expect_db_error([&] { TuningDb ro(path, OpenMode::kReadOnly); }, path, "older");
  TuningDb db(path, OpenMode::kReadWrite);
  EXPECT_EQ(db.schema_version(), kSchemaVersion);
  const auto rows = db.entries();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].candidate.kernel, "k");
  EXPECT_EQ(rows[0].measurement.rel_error, 0.0);  // columns added by migration 2 take their defaults
  EXPECT_EQ(rows[0].provenance.host, "");
}

TEST(TuningDb, NewerMeasurementOfTheSameCandidateWins) {
  ScratchDir dir;
  TuningDb db(dir.file("t.sqlite3"), OpenMode::kReadWrite);
  Entry old_e = sample_entry(0, "2026-11-01T00:00:00Z");
  Entry new_e = sample_entry(0, "2026-11-02T00:00:00Z");
  new_e.measurement.median_us = 42;
  new_e.measurement.min_us = 40;
  EXPECT_EQ(db.record({old_e}), 1);
  EXPECT_EQ(db.record({new_e}), 1);
  EXPECT_EQ(db.record({old_e}), 0);  // older: ignored
  EXPECT_EQ(db.record({new_e}), 0);  // same: idempotent
  const auto rows = db.entries();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], new_e);
}

bool kernel_named_k2_is_missing(const std::string& k) { return k != "k2"; }

TEST(TuningDb, BestSkipsFailedChecksAndKernelsThisBuildLacks) {
  ScratchDir dir;
  TuningDb db(dir.file("t.sqlite3"), OpenMode::kReadWrite);
  Entry a = sample_entry(0), b = sample_entry(0), c = sample_entry(0);
  a.candidate.kernel = "k1", a.measurement.median_us = 30, a.measurement.min_us = 29;
  b.candidate.kernel = "k2", b.measurement.median_us = 10, b.measurement.min_us = 9;
  c.candidate.kernel = "k3", c.measurement.median_us = 5, c.measurement.min_us = 4, c.measurement.check_passed = false;
  db.record({a, b, c});
  const auto best = db.best(a.device.key(), a.problem);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->candidate.kernel, "k2");
  const auto best_in_build =
      db.best(a.device.key(), a.problem, [](const Entry& e) { return kernel_named_k2_is_missing(e.candidate.kernel); });
  ASSERT_TRUE(best_in_build.has_value());
  EXPECT_EQ(best_in_build->candidate.kernel, "k1");
  EXPECT_FALSE(db.best("other device", a.problem).has_value());
  const CheckReport r = db.check(kernel_named_k2_is_missing);
  EXPECT_EQ(r.measurements, 3);
  EXPECT_EQ(r.failed_checks, 1);
  EXPECT_EQ(r.missing_kernels, std::vector<std::string>{"k2"});
  EXPECT_EQ(r.integrity, "ok");
}

// A screening row (the tuner's quick pass, online mode) faster than every full timing of its problem
// is a burst above the power cap's clock: the full timings decide, in best() and in the view alike,
// in a version-4 file read as it is (the runtime's read-only open) and once migrated. A problem of
// screening rows alone keeps its fastest.
TEST(TuningDb, FullTimingsRankAboveFasterScreeningRows) {
  ScratchDir dir;
  const std::string path = dir.file("v4.sqlite3");
  old_file(path, 4, {{"full", 30, 50}, {"burst", 10, kFullTimingIterations - 1}});
  {
    TuningDb ro(path, OpenMode::kReadOnly);
    EXPECT_EQ(ro.schema_version(), 4);
    const auto best = ro.best("sig", ProblemKey{"f32", 'n', 'n', 8, 8, 8, 4});
    ASSERT_TRUE(best.has_value());
    EXPECT_EQ(best->candidate.kernel, "full");
  }
  Entry full = sample_entry(0), burst = sample_entry(0), fast_full = sample_entry(0), alone = sample_entry(1);
  full.candidate.kernel = "full", full.measurement.median_us = 30, full.measurement.min_us = 29;
  fast_full.candidate.kernel = "fast_full", fast_full.measurement.median_us = 25, fast_full.measurement.min_us = 24;
  burst.candidate.kernel = "burst", burst.measurement.median_us = 10, burst.measurement.min_us = 9;
  burst.measurement.iterations = kFullTimingIterations - 1;
  alone.candidate.kernel = "alone", alone.measurement.iterations = 5;
  TuningDb db(path, OpenMode::kReadWrite);  // migration 5 makes the view again
  ASSERT_EQ(db.schema_version(), kSchemaVersion);
  db.record({full, burst, fast_full, alone});
  const auto best = db.best(full.device.key(), full.problem);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->candidate.kernel, "fast_full");
  const auto only_screening = db.best(alone.device.key(), alone.problem);
  ASSERT_TRUE(only_screening.has_value());
  EXPECT_EQ(only_screening->candidate.kernel, "alone");
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "SELECT kernel FROM best_configs ORDER BY m", -1, &s, nullptr), SQLITE_OK);
  std::vector<std::string> kernels;
  while (sqlite3_step(s) == SQLITE_ROW) kernels.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
  sqlite3_finalize(s);
  sqlite3_close(raw);
  EXPECT_EQ(kernels, (std::vector<std::string>{"full", "fast_full", "alone"}));
}

TEST(TuningDb, BestConfigsViewDerivesTheWinner) {
  ScratchDir dir;
  const std::string path = dir.file("t.sqlite3");
  {
    TuningDb db(path, OpenMode::kReadWrite);
    Entry a = sample_entry(0), b = sample_entry(0);
    b.candidate.kernel = "faster", b.measurement.median_us = 1, b.measurement.min_us = 1;
    db.record({a, b});
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "SELECT kernel FROM best_configs", -1, &s, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)), "faster");
  EXPECT_EQ(sqlite3_step(s), SQLITE_DONE);
  sqlite3_finalize(s);
  sqlite3_close(raw);
}

TEST(TuningDb, RecordIsAllOrNothing) {
  ScratchDir dir;
  TuningDb db(dir.file("t.sqlite3"), OpenMode::kReadWrite);
  Entry bad = sample_entry(1);
  bad.candidate.split_mode = "sideways";  // violates the schema's CHECK constraint
  EXPECT_THROW(db.record({sample_entry(0), bad}), DbError);
  EXPECT_TRUE(db.entries().empty());
}

TEST(TuningDb, FileThatIsNotSqlite) {
  ScratchDir dir;
  const std::string path = dir.file("junk.sqlite3");
  std::ofstream(path) << "this is a text file, not a database, and it is long enough to have a header........";
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadWrite); }, path, "not a database");
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadOnly); }, path, "not a database");
}

TEST(TuningDb, TruncatedFile) {
  ScratchDir dir;
  const std::string path = dir.file("t.sqlite3");
  {
    TuningDb db(path, OpenMode::kReadWrite);
    std::vector<Entry> many;
    for (int i = 0; i < 2000; ++i) many.push_back(sample_entry(i));
    db.record(many);
  }
  raw_sql(path, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;");
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 3);
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadOnly); }, path, "");
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadWrite); }, path, "");
}

TEST(TuningDb, NewerSchemaThanThisBuild) {
  ScratchDir dir;
  const std::string path = dir.file("t.sqlite3");
  { TuningDb db(path, OpenMode::kReadWrite); }
  raw_sql(path, "PRAGMA user_version = 99;");
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadWrite); }, path, "schema version 99 is newer");
}

// A negative user_version made the read-write open run kMigrations[-5] (a segfault), and the
// read-only open told the user to run exactly that.
TEST(TuningDb, NegativeSchemaVersionIsRefused) {
  ScratchDir dir;
  const std::string path = dir.file("t.sqlite3");
  { TuningDb db(path, OpenMode::kReadWrite); }
  raw_sql(path, "PRAGMA user_version = -5;");
  const std::string refused = "schema version -5 is not one autogemm writes";
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadWrite); }, path, refused);
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadOnly); }, path, refused);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  EXPECT_THROW(migrate(raw, path, -5), DbError);
  EXPECT_THROW(migrate(raw, path, 0, kSchemaVersion + 1), DbError);
  sqlite3_close(raw);
}

// integrity_check passes a file with a table dropped: the check names what the schema lacks.
TEST(TuningDb, CheckNamesAMissingTable) {
  ScratchDir dir;
  const std::string path = dir.file("t.sqlite3");
  {
    TuningDb db(path, OpenMode::kReadWrite);
    db.record({sample_entry(0)});
  }
  raw_sql(path, "DROP TABLE pruned; DROP VIEW best_configs;");
  TuningDb db(path, OpenMode::kReadWrite);
  const CheckReport r = db.check();
  EXPECT_NE(r.integrity, "ok");
  EXPECT_NE(r.integrity.find("table pruned"), std::string::npos) << r.integrity;
  EXPECT_NE(r.integrity.find("view best_configs"), std::string::npos) << r.integrity;
  EXPECT_EQ(r.measurements, 1);  // the tables that are there are still counted
}

// Devices that differ anywhere, however far into the name or however little in memory, are two.
TEST(TuningDb, DeviceIdentityIsExact) {
  ScratchDir dir;
  TuningDb db(dir.file("t.sqlite3"), OpenMode::kReadWrite);
  Entry a = sample_entry(0), b = sample_entry(0), c = sample_entry(0), d = sample_entry(0);
  a.device.name = std::string(300, 'x') + "A";
  b.device.name = std::string(300, 'x') + "B";
  c.device.memory_bytes = a.device.memory_bytes + 1000;  // less than 1 MiB apart from d
  d.device.l2_bytes = c.device.l2_bytes + 10;             // and less than 1 KiB in L2
  EXPECT_EQ(db.record({a, b, c, d, sample_entry(0)}), 5);
  EXPECT_EQ(db.devices().size(), 5u);
  EXPECT_EQ(db.entries().size(), 5u);
  for (const Entry& e : {a, b, c, d}) {
    const auto found = db.entries({e.device.key(), "", std::nullopt});
    ASSERT_EQ(found.size(), 1u) << e.device.key();
    EXPECT_EQ(found[0].device, e.device);
  }
  // Rows keyed by earlier builds, which rounded to MiB, are found by the exact key once opened for writing.
  const std::string old_path = dir.file("old.sqlite3");
  { TuningDb init(old_path, OpenMode::kReadWrite); }
  raw_sql(old_path,
          "INSERT INTO devices VALUES (1, 'GPU|sm_90|132sm|81062MiB|L2:51200KiB', 'GPU', 9, 0, 132, 85000000000, "
          "52428800);"
          "INSERT INTO problems VALUES (1, 'f32', 'n', 'n', 8, 8, 8, 4);"
          "INSERT INTO measurements (device_id, problem_id, kernel, splits, split_mode, median_us, min_us, spread_us,"
          " iterations, tflops, check_passed, measured_at, library_version, kernel_grid, gpu_uuid, driver_version,"
          " runtime_version, sm_clock_mhz, mem_clock_mhz) VALUES (1, 1, 'k', 1, 'none', 5, 4, 1, 10, 1, 1,"
          " '2026-01-01T00:00:00Z', '0.0.1', 'g', 'u', 1, 1, 1, 1);");
  const DeviceSignature gpu{"GPU", 9, 0, 132, 85000000000, 52428800};
  TuningDb old(old_path, OpenMode::kReadWrite);
  EXPECT_EQ(old.entries({gpu.key(), "", std::nullopt}).size(), 1u) << gpu.key();
  // Whole MiB and KiB read as before: existing keys of real cards do not change.
  const DeviceSignature h100{"NVIDIA H100 80GB HBM3", 9, 0, 132, 85017493504, 52428800};
  EXPECT_EQ(h100.key(), "NVIDIA H100 80GB HBM3|sm_90|132sm|81079MiB|L2:51200KiB");
}

// A folder the user cannot enter is "permission denied", not "no such file"; a name too long for
// the file system is an error, not an abort.
TEST(TuningDb, UnreachablePaths) {
  ScratchDir dir;
  const std::string locked = dir.file("locked");
  std::filesystem::create_directory(locked);
  { TuningDb db(locked + "/t.sqlite3", OpenMode::kReadWrite); }
  chmod(locked.c_str(), 0600);  // readable listing, but no search (x) permission
  const int rc = run_unprivileged([&] {
    for (const OpenMode mode : {OpenMode::kReadOnly, OpenMode::kReadWrite}) {
      try {
        TuningDb db(locked + "/t.sqlite3", mode);
        return false;
      } catch (const DbError& e) {
        const std::string what = e.what();
        if (what.find("Permission denied") == std::string::npos || what.find("no such file") != std::string::npos) {
          std::fprintf(stderr, "%s\n", what.c_str());
          return false;
        }
      }
    }
    return true;
  });
  chmod(locked.c_str(), 0755);
  EXPECT_EQ(rc, 0);
  const std::string too_long = dir.file(std::string(300, 'a') + ".sqlite3");
  expect_db_error([&] { TuningDb db(too_long, OpenMode::kReadOnly); }, too_long, "File name too long");
  expect_db_error([&] { TuningDb db(too_long, OpenMode::kReadWrite); }, too_long, "File name too long");
}

TEST(TuningDb, ForeignTables) {
  ScratchDir dir;
  const std::string path = dir.file("other.sqlite3");
  raw_sql(path, "CREATE TABLE customers (id INTEGER, name TEXT); INSERT INTO customers VALUES (1, 'x');");
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadWrite); }, path, "not an autogemm tuning database");
}

TEST(TuningDb, MissingFileForReading) {
  ScratchDir dir;
  const std::string path = dir.file("absent.sqlite3");
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadOnly); }, path, "no such file");
  EXPECT_FALSE(std::filesystem::exists(path));  // reading never creates
}

TEST(TuningDb, MissingDirectoryIsCreatedOnlyWhenAsked) {
  ScratchDir dir;
  const std::string path = dir.file("a/b/t.sqlite3");
  expect_db_error([&] { TuningDb db(path, OpenMode::kReadWrite); }, path, "does not exist");
  TuningDb db(path, OpenMode::kReadWrite, /*create_parent=*/true);
  EXPECT_TRUE(std::filesystem::exists(path));
}

TEST(TuningDb, ReadOnlyFileAndUnwritableDirectory) {
  ScratchDir dir;
  const std::string path = dir.file("ro.sqlite3");
  {
    TuningDb db(path, OpenMode::kReadWrite);
    db.record({sample_entry(0)});
  }
  raw_sql(path, "PRAGMA journal_mode = DELETE;");  // a read-only reader cannot create WAL side files
  chmod(path.c_str(), 0444);
  const std::string locked_dir = dir.file("locked");
  std::filesystem::create_directory(locked_dir);
  chmod(locked_dir.c_str(), 0555);
  const int rc = run_unprivileged([&] {
    bool ok = true;
    try {
      TuningDb db(path, OpenMode::kReadWrite);
      ok = false;  // must refuse to open a read-only file for writing
    } catch (const DbError& e) {
      ok = ok && std::string(e.what()).find("read-only") != std::string::npos;
    }
    TuningDb reader(path, OpenMode::kReadOnly);
    ok = ok && reader.entries().size() == 1;
    try {
      TuningDb db(locked_dir + "/t.sqlite3", OpenMode::kReadWrite);
      ok = false;
    } catch (const DbError& e) {
      ok = ok && std::string(e.what()).find("not writable") != std::string::npos;
    }
    return ok;
  });
  EXPECT_EQ(rc, 0);
}

TEST(TuningDb, EightConcurrentWritersLoseNothing) {
  ScratchDir dir;
  const std::string path = dir.file("shared.sqlite3");
  { TuningDb init(path, OpenMode::kReadWrite); }
  constexpr int kWriters = 8, kRows = 500;
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = fork();
    if (pid == 0) {
      try {
        TuningDb db(path, OpenMode::kReadWrite);
        for (int r = 0; r < kRows; ++r) {
          Entry e = sample_entry(r);
          e.candidate.kernel = "writer" + std::to_string(w) + "_row" + std::to_string(r);
          db.record({e});  // one transaction per row: the worst case for contention
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "writer %d: %s\n", w, e.what());
        _exit(1);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  TuningDb db(path, OpenMode::kReadOnly);
  EXPECT_EQ(db.entries().size(), static_cast<size_t>(kWriters * kRows));
}

TEST(TuningDb, WriterKilledMidTransactionLeavesConsistentFile) {
  ScratchDir dir;
  const std::string path = dir.file("killed.sqlite3");
  { TuningDb init(path, OpenMode::kReadWrite); }
  constexpr int kBatch = 200;
  const pid_t pid = fork();
  if (pid == 0) {
    TuningDb db(path, OpenMode::kReadWrite);
    for (int round = 0;; ++round) {
      std::vector<Entry> batch;
      for (int r = 0; r < kBatch; ++r) {
        Entry e = sample_entry(r);
        e.candidate.kernel = "round" + std::to_string(round) + "_" + std::to_string(r);
        batch.push_back(e);
      }
      db.record(batch);
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  TuningDb db(path, OpenMode::kReadWrite);
  EXPECT_EQ(db.check().integrity, "ok");
  const size_t rows = db.entries().size();
  EXPECT_GT(rows, 0u) << "the writer committed nothing in 400 ms";
  EXPECT_EQ(rows % kBatch, 0u) << "a batch was half-written";
}

TEST(TuningDb, DefaultPathFollowsEnvironment) {
  const char* old_db = std::getenv("AUTOGEMM_DB");
  const char* old_xdg = std::getenv("XDG_DATA_HOME");
  const std::string saved_db = old_db ? old_db : "", saved_xdg = old_xdg ? old_xdg : "";
  unsetenv("AUTOGEMM_DB");
  setenv("XDG_DATA_HOME", "/data/home", 1);
  EXPECT_EQ(default_user_db_path(), "/data/home/autogemm/tuning.sqlite3");
  setenv("AUTOGEMM_DB", "/a/first.sqlite3:/b/second.sqlite3", 1);
  EXPECT_EQ(default_user_db_path(), "/a/first.sqlite3");
  old_db ? setenv("AUTOGEMM_DB", saved_db.c_str(), 1) : unsetenv("AUTOGEMM_DB");
  old_xdg ? setenv("XDG_DATA_HOME", saved_xdg.c_str(), 1) : unsetenv("XDG_DATA_HOME");
}


TEST(TuningDb, PrunedCandidatesAndResume) {
  ScratchDir dir;
  TuningDb db(dir.file("t.sqlite3"), OpenMode::kReadWrite);
  const Entry e = sample_entry(0);
  EXPECT_FALSE(db.has_tuned(e.device.key(), e.problem, e.provenance.kernel_grid));
  db.record({e});
  EXPECT_TRUE(db.has_tuned(e.device.key(), e.problem, e.provenance.kernel_grid));
  EXPECT_FALSE(db.has_tuned(e.device.key(), e.problem, "another grid"));  // rebuilt grid: tune again
  // A passed screening row of the latest tuning faster than all its full timings: a stop came before
  // its full timing, or an older tuner never gave it one; tune again.
  Entry quick = sample_entry(0);
  quick.candidate.kernel = "quick", quick.measurement.iterations = kFullTimingIterations - 1;
  quick.measurement.median_us = e.measurement.median_us - 1, quick.measurement.min_us = quick.measurement.median_us - 1;
  db.record({quick});
  EXPECT_FALSE(db.has_tuned(e.device.key(), e.problem, e.provenance.kernel_grid));
  // The next tuning finishes: its rows replace the older ones where it measured the same candidate,
  // its screening row is slower than its full timing. A faster screening row an older tuning left
  // behind (the "quick" row, not measured again) does not count.
  Entry full = e, slower_quick = quick;
  full.provenance.measured_at = slower_quick.provenance.measured_at = "2026-11-22T10:00:00Z";
  slower_quick.candidate.kernel = "slower_quick";
  slower_quick.measurement.median_us = e.measurement.median_us + 1, slower_quick.measurement.min_us = e.measurement.median_us;
  db.record({full, slower_quick});
  EXPECT_TRUE(db.has_tuned(e.device.key(), e.problem, e.provenance.kernel_grid));
  // A stop leaves candidates pruned as interrupted: tune again, whatever the rows say.
  db.record_pruned(e.device, e.problem, "g", {{{"k0", 1, "none"}, kInterruptedReason}});
  EXPECT_FALSE(db.has_tuned(e.device.key(), e.problem, e.provenance.kernel_grid));
  db.record_pruned(e.device, e.problem, "g", {{{"k1", 1, "none"}, "occupancy 0"}, {{"k2", 4, "serial"}, "cost model rank 90"}});
  EXPECT_TRUE(db.has_tuned(e.device.key(), e.problem, e.provenance.kernel_grid));
  // Online mode measured it since (screening rows only, the newest): the tuner tunes it in full.
  Entry online = sample_entry(0, "2026-11-23T10:00:00Z");
  online.candidate.kernel = "online", online.measurement.iterations = 7;
  db.record({online});
  EXPECT_FALSE(db.has_tuned(e.device.key(), e.problem, e.provenance.kernel_grid));
  db.record_pruned(e.device, e.problem, "g", {{{"k3", 1, "none"}, "shape time budget"}});  // replaces
  const auto pruned = db.pruned(e.device.key(), e.problem);
  ASSERT_EQ(pruned.size(), 1u);
  EXPECT_EQ(pruned[0].candidate.kernel, "k3");
  EXPECT_EQ(pruned[0].reason, "shape time budget");
}

}  // namespace
}  // namespace autogemm::db::testing
