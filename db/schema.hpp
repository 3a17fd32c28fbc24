// Schema of the tuning database and its forward migrations, keyed by PRAGMA user_version.
#pragma once

#include <string>

struct sqlite3;

namespace autogemm::db {

/// The schema version this build writes and understands.
inline constexpr int kSchemaVersion = 4;

/// Brings a database at `from` (0 = empty) to `to` (<= kSchemaVersion), one migration at a time,
/// each in its own transaction with its user_version bump. Tests use `to` < kSchemaVersion to
/// make old files.
void migrate(sqlite3* db, const std::string& path, int from, int to = kSchemaVersion);

}  // namespace autogemm::db
