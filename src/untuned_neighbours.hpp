// The choice for a shape nobody tuned, informed by the shapes that were. Measurements of the
// nearest tuned problems (same device, layout and alignment class; distance in log2 of M, N, K, at
// most kNeighbourMaxDistance) calibrate the cost model per (kernel instance, split-k mode) —
// measured time over estimated time — and the candidate with the lowest calibrated estimate for the
// new shape wins. What was never measured near the shape keeps a pessimistic calibration (75th
// percentile of its split mode), so measured-good choices are preferred. With no tuned neighbour
// that near, this is the plain cost model (untuned_choice.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "untuned_choice.hpp"
#include "tuning_db.hpp"

namespace autogemm {

/// One measured candidate of a tuned problem.
struct NeighbourMeasurement {
  int m = 0, n = 0, k = 0;
  std::string kernel;
  SplitChoice split;
  double median_us = 0;
};

/// The passed-check measurements among `entries` (one device's f32 rows, as a database or a tuning
/// table holds them) of problems in layout (transa, transb) and alignment class `align`, of
/// instances this build has: the rows tuned_measurements (tuned_lookup.hpp) reads from a database
/// and tools/model_check from a table.
std::vector<NeighbourMeasurement> class_measurements(const std::vector<db::Entry>& entries, char transa, char transb,
                                                     int align);

/// Measurements of one alignment class credited to the twin instances (same tiles and pipeline) of
/// class `align`; those without a compiled twin are dropped. Tuning uses aligned buffers, so
/// scalar-class problems have few tuned neighbours of their own (often only the M = 1 problems whose
/// ldb = 1 puts them in that class) and borrow the aligned class's (see with_borrowed_shapes).
/// When `local_bytes` is given (an instance's local memory per thread: register spills), a twin that
/// spills more than the measured instance is not credited either: its sibling's time says nothing
/// of what the spills cost (a sliced scalar twin spilling 548 bytes ran 1.9x its aligned twin's
/// time).
std::vector<NeighbourMeasurement> credit_to_twins(
    std::vector<NeighbourMeasurement> measured, int align,
    const std::function<size_t(const KernelInstance&)>& local_bytes = {});

/// `own` (measurements of the problem's alignment class) plus the rows of `borrowed` (the other
/// class's, credited to twins) whose shape `own` does not have: a shape tuned in the problem's own
/// class speaks for itself, every other tuned shape is still a neighbour. Without this, one
/// scalar-class problem tuned far away (a 3072x1x3072 GEMV shape) was the only neighbour of every
/// scalar-class `nt`/`tt` problem.
std::vector<NeighbourMeasurement> with_borrowed_shapes(std::vector<NeighbourMeasurement> own,
                                                       const std::vector<NeighbourMeasurement>& borrowed);

/// The untuned choice's neighbours for a problem of alignment class `align`: the rows `rows_of_class`
/// gives for that class, plus the other class's (4 <-> 1) credited to twins (credit_to_twins with
/// `local_bytes`, with_borrowed_shapes). The runtime's neighbour_measurements (tuned_lookup.hpp)
/// reads a class's rows from its databases, tools/model_check from a tuning table.
std::vector<NeighbourMeasurement> class_neighbours(
    const std::function<std::vector<NeighbourMeasurement>(int align)>& rows_of_class, int align,
    const std::function<size_t(const KernelInstance&)>& local_bytes = {});

/// How many tuned problems inform a choice.
inline constexpr int kUntunedNeighbours = 4;

/// How far (log2 distance in M, N, K) a tuned problem may be and still calibrate a choice; with none
/// that near, the plain cost model decides, as with no database. The model's own ranking beats
/// calibration by far neighbours: on the untuned choice list through the seed set's
/// neighbours 0.897 of the exhaustive best (geometric mean) with every neighbour, 0.914 with none,
/// 0.928 with this cut; over five tables and two neighbour tables 0.889 -> 0.919, worst 0.571 ->
/// 0.734 (tools/model_check --neighbours).
inline constexpr double kNeighbourMaxDistance = 2.0;

/// Every candidate for `problem` by calibrated estimate, cheapest first (rank_untuned when nothing
/// was measured within kNeighbourMaxDistance). `measured` holds the passed-check measurements of problems with the new
/// problem's layout and alignment class on this device. `occupancy(index)` as in rank_untuned.
/// Candidates are those of rank_untuned: parallel split-k only (see split_candidates), with the
/// instances that read repacked operands (RepackPolicy::kAllowed; priced with their copies, and
/// calibrated, like every candidate, by what neighbours measured).
std::vector<KernelChoice> rank_with_neighbours(const GemmProblem& problem, const DeviceLimits& limits,
                                               const DeviceModel& model, const std::function<int(size_t)>& occupancy,
                                               const std::vector<NeighbourMeasurement>& measured);

/// The front of rank_with_neighbours; kernel == nullptr when nothing implements the problem.
KernelChoice choose_with_neighbours(const GemmProblem& problem, const DeviceLimits& limits, const DeviceModel& model,
                                    const std::function<int(size_t)>& occupancy,
                                    const std::vector<NeighbourMeasurement>& measured);

}  // namespace autogemm
