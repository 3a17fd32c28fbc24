// See sqlite_util.hpp.
#include "sqlite_util.hpp"

#include <chrono>
#include <thread>

namespace autogemm::db {

void throw_sqlite(sqlite3* db, const std::string& path, const std::string& what) {
  const int code = db ? sqlite3_extended_errcode(db) : SQLITE_ERROR;
  throw DbError(path + ": " + what + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(code)));
}

Statement::Statement(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
  if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) throw_sqlite(db, path, "cannot prepare query");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) throw_sqlite(db_, path_, "cannot bind");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) throw_sqlite(db_, path_, "cannot bind");
  return *this;
}

Statement& Statement::bind(int index, const std::string& value) {
  if (sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT) != SQLITE_OK)
    throw_sqlite(db_, path_, "cannot bind");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw_sqlite(db_, path_, "query failed");
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int column) const {
  const unsigned char* t = sqlite3_column_text(stmt_, column);
  return t ? std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(stmt_, column)) : std::string();
}

void exec(sqlite3* db, const std::string& path, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string message = err ? err : "unknown error";
    sqlite3_free(err);
    throw DbError(path + ": " + message);
  }
}

Transaction::Transaction(sqlite3* db, const std::string& path) : db_(db), path_(path) {
  // The busy timeout already waits for other writers; retry a few times beyond it under heavy load.
  for (int attempt = 0;; ++attempt) {
    const int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) return;
    if ((rc & 0xff) != SQLITE_BUSY || attempt >= 20) throw_sqlite(db, path, "cannot start a write transaction");
    std::this_thread::sleep_for(std::chrono::milliseconds(10 * (attempt + 1)));
  }
}

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  exec(db_, path_, "COMMIT");
  done_ = true;
}

}  // namespace autogemm::db
