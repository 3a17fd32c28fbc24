// See untuned_neighbours.hpp.
#include "untuned_neighbours.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace autogemm {
namespace {

double log_distance(int m0, int n0, int k0, int m1, int n1, int k1) {
  const double dm = std::log2(static_cast<double>(m0) / m1);
  const double dn = std::log2(static_cast<double>(n0) / n1);
  const double dk = std::log2(static_cast<double>(k0) / k1);
  return std::sqrt(dm * dm + dn * dn + dk * dk);
}

}  // namespace

std::vector<NeighbourMeasurement> class_measurements(const std::vector<db::Entry>& entries, char transa, char transb,
                                                     int align) {
  std::vector<NeighbourMeasurement> rows;
  for (const db::Entry& e : entries) {
    if (!e.measurement.check_passed || e.problem.transa != transa || e.problem.transb != transb ||
        e.problem.align != align || find_kernel(e.candidate.kernel) == nullptr)
      continue;
    rows.push_back({e.problem.m, e.problem.n, e.problem.k, e.candidate.kernel,
                    {e.candidate.splits, parse_split_mode(e.candidate.split_mode)}, e.measurement.median_us});
  }
  return rows;
}

std::vector<NeighbourMeasurement> credit_to_twins(std::vector<NeighbourMeasurement> measured, int align,
                                                  const std::function<size_t(const KernelInstance&)>& local_bytes) {
  // Rows repeat instances (one row per tuned shape and candidate): ask local_bytes once per instance.
  std::unordered_map<const KernelInstance*, size_t> bytes_of;
  auto spill = [&](const KernelInstance* k) -> size_t {
    if (k == nullptr) return 0;  // a measured instance this build lacks counts as spilling nothing
    const auto [it, fresh] = bytes_of.try_emplace(k, 0);
    if (fresh) it->second = local_bytes(*k);
    return it->second;
  };
  std::vector<NeighbourMeasurement> out;
  for (NeighbourMeasurement& x : measured) {
    const auto config = parse_kernel_name(x.kernel);
    if (!config) continue;
    KernelConfig twin = *config;
    twin.align = align;
    const KernelInstance* twin_kernel = is_valid(twin) ? find_kernel(kernel_name(twin)) : nullptr;
    if (twin_kernel == nullptr) continue;
    if (local_bytes && spill(twin_kernel) > spill(find_kernel(x.kernel))) continue;
    x.kernel = std::string(twin_kernel->name);
    out.push_back(std::move(x));
  }
  return out;
}

std::vector<NeighbourMeasurement> with_borrowed_shapes(std::vector<NeighbourMeasurement> own,
                                                       const std::vector<NeighbourMeasurement>& borrowed) {
  std::set<std::tuple<int, int, int>> own_shapes;
  for (const auto& x : own) own_shapes.emplace(x.m, x.n, x.k);
  for (const auto& x : borrowed)
    if (!own_shapes.count({x.m, x.n, x.k})) own.push_back(x);
  return own;
}

std::vector<NeighbourMeasurement> class_neighbours(
    const std::function<std::vector<NeighbourMeasurement>(int align)>& rows_of_class, int align,
    const std::function<size_t(const KernelInstance&)>& local_bytes) {
  auto borrowed = credit_to_twins(rows_of_class(align == 4 ? 1 : 4), align, local_bytes);
  return with_borrowed_shapes(rows_of_class(align), borrowed);
}

std::vector<KernelChoice> rank_with_neighbours(const GemmProblem& problem, const DeviceLimits& limits,
                                               const DeviceModel& model, const std::function<int(size_t)>& occupancy,
                                               const std::vector<NeighbourMeasurement>& measured) {
  if (measured.empty()) return rank_untuned(problem, limits, model, occupancy);

  // The nearest tuned problems, each weighted by closeness.
  std::map<std::tuple<int, int, int>, double> distance;
  for (const auto& x : measured)
    distance.emplace(std::tuple{x.m, x.n, x.k}, log_distance(problem.m, problem.n, problem.k, x.m, x.n, x.k));
  std::vector<std::pair<double, std::tuple<int, int, int>>> nearest;
  for (const auto& [shape, d] : distance) nearest.emplace_back(d, shape);
  std::sort(nearest.begin(), nearest.end());
  nearest.resize(std::min<size_t>(nearest.size(), kUntunedNeighbours));
  std::erase_if(nearest, [](const auto& x) { return x.first > kNeighbourMaxDistance; });
  if (nearest.empty()) return rank_untuned(problem, limits, model, occupancy);
  std::map<std::tuple<int, int, int>, double> weight;
  for (const auto& [d, shape] : nearest) weight[shape] = 1.0 / (d + 0.25);

  // Calibration per (instance, split mode): weighted mean over the neighbours of (best measured /
  // estimated) among that instance's candidates of that mode there. Split modes are kept apart
  // because the model's error differs most between them (the serial chain above all).
  const auto& registry = kernel_registry();
  std::unordered_map<std::string_view, size_t> index_of;
  for (size_t i = 0; i < registry.size(); ++i) index_of.emplace(registry[i].name, i);
  using Key = std::pair<size_t, int>;  // (instance, split mode)
  std::map<std::pair<std::tuple<int, int, int>, Key>, double> ratio;
  for (const auto& x : measured) {
    const auto shape = std::tuple{x.m, x.n, x.k};
    const auto it = index_of.find(x.kernel);
    if (!weight.count(shape) || it == index_of.end()) continue;
    const int occ = occupancy(it->second);
    if (occ <= 0) continue;
    // A neighbour's time includes the copies of a repacking kernel: so does its estimate.
    GemmProblem neighbour = problem;
    neighbour.m = x.m, neighbour.n = x.n, neighbour.k = x.k;
    const KernelConfig& config = registry[it->second].config;
    const double est = repack_estimate_us(config, neighbour, model) + estimate_us(config, occ, x.m, x.n, x.k, x.split, model);
    const double r = x.median_us / est;
    auto [slot, inserted] = ratio.emplace(std::pair{shape, Key{it->second, static_cast<int>(x.split.mode)}}, r);
    if (!inserted) slot->second = std::min(slot->second, r);
  }
  std::map<Key, std::pair<double, double>> sums;  // (instance, mode) -> (sum w*r, sum w)
  std::map<int, std::vector<double>> by_mode;
  std::vector<double> all;
  for (const auto& [key, r] : ratio) {
    const double w = weight[key.first];
    sums[key.second].first += w * r;
    sums[key.second].second += w;
    by_mode[key.second.second].push_back(r);
    all.push_back(r);
  }
  if (all.empty()) return rank_untuned(problem, limits, model, occupancy);
  // Pessimistic defaults for what was not measured near the shape: the 75th percentile of the
  // same split mode's ratios, else of all ratios.
  auto percentile75 = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() * 3 / 4];
  };
  const double unmeasured = percentile75(all);
  std::map<int, double> unmeasured_mode;
  for (const auto& [mode, v] : by_mode) unmeasured_mode[mode] = percentile75(v);

  // The cost model's candidates, re-priced by their calibration; the instances that read repacked
  // operands too, since neighbours can show them faster than the model (which cannot see what most
  // K-major copy paths cost) would.
  std::vector<KernelChoice> ranked = rank_untuned(problem, limits, model, occupancy);
  for (KernelChoice& c : ranked) {
    const size_t i = static_cast<size_t>(c.kernel - registry.data());
    const int mode = static_cast<int>(c.split.mode);
    const auto s = sums.find(Key{i, mode});
    const auto m = unmeasured_mode.find(mode);
    const double calibration = s != sums.end()                ? s->second.first / s->second.second
                               : m != unmeasured_mode.end() ? m->second
                                                            : unmeasured;
    c.estimate_us *= calibration;
  }
  sort_by_estimate(ranked);
  return ranked;
}

KernelChoice choose_with_neighbours(const GemmProblem& problem, const DeviceLimits& limits, const DeviceModel& model,
                                    const std::function<int(size_t)>& occupancy,
                                    const std::vector<NeighbourMeasurement>& measured) {
  const auto ranked = rank_with_neighbours(problem, limits, model, occupancy, measured);
  return ranked.empty() ? KernelChoice{} : ranked.front();
}

}  // namespace autogemm
