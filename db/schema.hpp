// Schema of the tuning database and its forward migrations, keyed by PRAGMA user_version.
#pragma once

#include <string>

struct sqlite3;

namespace autogemm::db {

/// The schema version this build writes and understands.
inline constexpr int kSchemaVersion = 5;

/// The oldest version a read-only open accepts: the tables and columns this build queries are
/// version 4's (version 5 only makes the best_configs view again, which the runtime's lookup does
/// not read), so an installed version-4 table keeps serving lookups without being migrated.
inline constexpr int kOldestReadableVersion = 4;

/// Brings a database at `from` (0 = empty) to `to` (<= kSchemaVersion), one migration at a time,
/// each in its own transaction with its user_version bump. Tests use `to` < kSchemaVersion to
/// make old files.
void migrate(sqlite3* db, const std::string& path, int from, int to = kSchemaVersion);

}  // namespace autogemm::db
