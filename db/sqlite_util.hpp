// Minimal RAII over the SQLite C API: prepared statements only, every error turned into a DbError
// that names the file. Internal to db/.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "tuning_db.hpp"

namespace autogemm::db {

[[noreturn]] void throw_sqlite(sqlite3* db, const std::string& path, const std::string& what);

class Statement {
 public:
  Statement(sqlite3* db, const std::string& path, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, const std::string& value);

  /// Advances; true while a row is available, false when done. Throws on error.
  bool step();
  void reset();

  int64_t int64(int column) const { return sqlite3_column_int64(stmt_, column); }
  int integer(int column) const { return sqlite3_column_int(stmt_, column); }
  double real(int column) const { return sqlite3_column_double(stmt_, column); }
  std::string text(int column) const;

 private:
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// Runs SQL without results (schema statements, PRAGMAs, BEGIN/COMMIT).
void exec(sqlite3* db, const std::string& path, const char* sql);

/// BEGIN IMMEDIATE ... COMMIT, rolled back by the destructor unless commit() ran.
/// IMMEDIATE takes the write lock up front, so two writers never deadlock upgrading read locks.
class Transaction {
 public:
  Transaction(sqlite3* db, const std::string& path);
  ~Transaction();
  void commit();

 private:
  sqlite3* db_;
  const std::string& path_;
  bool done_ = false;
};

}  // namespace autogemm::db
