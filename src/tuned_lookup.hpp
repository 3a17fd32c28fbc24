// Looks up tuned configurations in the tuning databases, read-only: the paths of $AUTOGEMM_DB
// (':'-separated, searched in order), else the user database then the system database installed
// with the library (the user's entries override the system's). A file that cannot be read is
// reported once per process with a warning and then skipped: the caller falls back to its
// untuned choice, and nothing fails.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "untuned_neighbours.hpp"
#include "timing.hpp"
#include "tuning_db.hpp"

namespace autogemm {

/// The signature the database keys devices on, read from the device.
db::DeviceSignature device_signature(int device);

/// The database key of a column-major problem of element and compute types `types` in alignment
/// class `align`: the key of the rows, the tuner's resume and the runtime's cache of choices.
db::ProblemKey tuning_key(Op op_a, Op op_b, int m, int n, int k, int align, const GemmTypes& types = kF32Types);
/// The same for a problem as the runtime receives it.
db::ProblemKey tuning_key(const GemmProblem& problem, int align);

/// The database row of one timed candidate: `kernel` at `split` timed as `time`, its result check
/// passed or not with relative error `rel_error` (a non-finite error is stored as 1e300). The one
/// conversion from a measurement to a row, for the tuner and online tuning alike.
db::Entry measurement_entry(const db::DeviceSignature& device, const db::ProblemKey& problem,
                            const KernelInstance& kernel, SplitChoice split, const TimingResult& time,
                            bool check_passed, double rel_error, const db::Provenance& provenance);

/// The read-only system database: $AUTOGEMM_SYSTEM_DB, else PREFIX/share/autogemm/tuning.sqlite3 of
/// the prefix the library (or the program linked with it) is installed in, where that file exists,
/// else the configured install prefix's.
std::string system_db_path();

/// The database paths searched by default, in order: $AUTOGEMM_DB, else user then system database.
std::vector<std::string> tuning_db_search_path();

/// Splits a ':'-separated list of paths.
std::vector<std::string> split_path_list(const std::string& list);

/// The best valid entry for (device, problem) whose kernel this build has and that `usable` accepts
/// (where given), from the first database in `paths` that has one. A database with rows for other
/// devices only is warned about once. `source` receives the path it came from. A missing file is
/// skipped silently unless `warn_missing`.
std::optional<db::Entry> find_tuned(const std::vector<std::string>& paths, const db::DeviceSignature& device,
                                    const db::ProblemKey& problem, std::string* source = nullptr,
                                    bool warn_missing = false,
                                    const std::function<bool(const db::Entry&)>& usable = {});

/// Every passed-check measurement of this device with these types, layout and alignment class in `paths`
/// (the untuned choice's neighbours), read once per process and class.
std::vector<NeighbourMeasurement> tuned_measurements(const std::vector<std::string>& paths,
                                                     const db::DeviceSignature& device, char transa, char transb,
                                                     int align, const GemmTypes& types = kF32Types);

/// The untuned choice's neighbours for a problem of this layout and alignment class: tuned_measurements of
/// the class, plus every shape tuned only in the other class with its measurements credited to
/// their twins (credit_to_twins, with_borrowed_shapes: tuning uses aligned buffers, so the scalar
/// class has few tuned shapes of its own). Built once per process and class, like tuned_measurements.
std::vector<NeighbourMeasurement> neighbour_measurements(const std::vector<std::string>& paths,
                                                         const db::DeviceSignature& device, char transa, char transb,
                                                         int align, const GemmTypes& types = kF32Types);

/// Forgets what this process knows of `path` (open handle, "missing" or "unusable" verdict, cached
/// neighbour rows): called after writing to it, so the next lookup reads it afresh.
void forget_database(const std::string& path);

/// Forgets open databases and warnings (tests change the environment between cases).
void reset_tuned_lookup();

}  // namespace autogemm
