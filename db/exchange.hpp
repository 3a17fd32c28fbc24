// Export/import of tuning tables: a versioned JSON document and a CSV table (docs/database.md).
// Parsing validates every entry; the first bad one rejects the whole input with its index and the
// reason, so an import is all or nothing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tuning_db.hpp"

namespace autogemm::db {

inline constexpr const char* kExchangeFormat = "autogemm-tuning";
inline constexpr int kExchangeFormatVersion = 1;

/// True for an ISO 8601 UTC time of the form 2026-11-21T15:04:05Z with a real date and time of day.
bool is_iso8601_utc(const std::string& t);

/// Why `e` cannot be stored, or nullopt when it is a valid entry.
std::optional<std::string> invalid_entry_reason(const Entry& e);

std::string to_json(const std::vector<Entry>& entries);
std::string to_csv(const std::vector<Entry>& entries);

/// Throws DbError("entry 12: problem.m: must be a positive 32-bit integer, got -3") and similar.
std::vector<Entry> from_json(const std::string& text);
std::vector<Entry> from_csv(const std::string& text);

/// Picks the parser by content, after a UTF-8 byte order mark if any: JSON when the first
/// non-blank character is '{' or '[', else CSV.
std::vector<Entry> parse_exchange(const std::string& text);

/// parse_exchange of a file's contents; throws DbError naming PATH when it cannot be read, is a
/// directory, or is compressed (xz, gzip, zstd, bzip2: "PATH: is xz-compressed; decompress it first ...").
std::vector<Entry> read_exchange_file(const std::string& path);

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so `path` is
/// either its old self or complete; throws DbError("PATH: cannot write file: REASON").
void write_exchange_file(const std::string& path, const std::string& text);

}  // namespace autogemm::db
