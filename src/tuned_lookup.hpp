// Looks up tuned configurations in the tuning databases, read-only: the paths of $AUTOGEMM_DB
// (':'-separated, searched in order), else the user database then the system database installed
// with the library (the user's entries override the system's). A file that cannot be read is
// reported once per process with a warning and then skipped: the caller falls back to its
// untuned choice, and nothing fails.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tuning_db.hpp"

namespace autogemm {

/// The signature the database keys devices on, read from the device.
db::DeviceSignature device_signature(int device);

/// The database paths searched, in order.
std::vector<std::string> tuning_db_search_path();

/// The best valid entry for (device, problem) whose kernel this build has, from the first database
/// in the search path that has one. `source` receives the path it came from.
std::optional<db::Entry> find_tuned(const db::DeviceSignature& device, const db::ProblemKey& problem,
                                    std::string* source = nullptr);

/// Forgets open databases and warnings (tests change the environment between cases).
void reset_tuned_lookup();

}  // namespace autogemm
