// See fallback.hpp.
#include "fallback.hpp"

#include <algorithm>
#include <cmath>
#include <map>
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

KernelChoice choose_with_neighbours(const GemmProblem& problem, const DeviceLimits& limits, const DeviceModel& model,
                                    const std::function<int(size_t)>& occupancy,
                                    const std::vector<NeighbourMeasurement>& measured) {
  if (measured.empty()) return choose_heuristic(problem, limits, model, occupancy);

  // The nearest tuned problems, each weighted by closeness.
  std::map<std::tuple<int, int, int>, double> distance;
  for (const auto& x : measured)
    distance.emplace(std::tuple{x.m, x.n, x.k}, log_distance(problem.m, problem.n, problem.k, x.m, x.n, x.k));
  std::vector<std::pair<double, std::tuple<int, int, int>>> nearest;
  for (const auto& [shape, d] : distance) nearest.emplace_back(d, shape);
  std::sort(nearest.begin(), nearest.end());
  nearest.resize(std::min<size_t>(nearest.size(), kFallbackNeighbours));
  std::map<std::tuple<int, int, int>, double> weight;
  for (const auto& [d, shape] : nearest) weight[shape] = 1.0 / (d + 0.25);

  // Calibration per instance: weighted mean over the neighbours of (best measured / estimated)
  // among that instance's measured candidates there.
  const auto& registry = kernel_registry();
  std::unordered_map<std::string_view, size_t> index_of;
  for (size_t i = 0; i < registry.size(); ++i) index_of.emplace(registry[i].name, i);
  std::map<std::pair<std::tuple<int, int, int>, size_t>, double> ratio;  // (neighbour, instance) -> ratio
  for (const auto& x : measured) {
    const auto shape = std::tuple{x.m, x.n, x.k};
    const auto it = index_of.find(x.kernel);
    if (!weight.count(shape) || it == index_of.end()) continue;
    const int occ = occupancy(it->second);
    if (occ <= 0) continue;
    const double est = estimate_us(registry[it->second].config, occ, x.m, x.n, x.k, x.split, model);
    const double r = x.median_us / est;
    auto [slot, inserted] = ratio.emplace(std::pair{shape, it->second}, r);
    if (!inserted) slot->second = std::min(slot->second, r);
  }
  std::unordered_map<size_t, std::pair<double, double>> sums;  // instance -> (sum w*r, sum w)
  std::vector<double> all;
  for (const auto& [key, r] : ratio) {
    const double w = weight[key.first];
    sums[key.second].first += w * r;
    sums[key.second].second += w;
    all.push_back(r);
  }
  if (all.empty()) return choose_heuristic(problem, limits, model, occupancy);
  std::sort(all.begin(), all.end());
  const double unmeasured = all[all.size() * 3 / 4];  // pessimistic: the 75th percentile

  KernelChoice best;
  double best_time = 0;
  for (size_t i = 0; i < registry.size(); ++i) {
    const KernelInstance& kernel = registry[i];
    if (!can_implement(kernel, problem, limits)) continue;
    const int occ = occupancy(i);
    if (occ <= 0) continue;
    const auto s = sums.find(i);
    const double calibration = s != sums.end() ? s->second.first / s->second.second : unmeasured;
    for (const SplitChoice split : split_candidates(kernel.config, problem.m, problem.n, problem.k, limits.sm_count)) {
      const double t = calibration * estimate_us(kernel.config, occ, problem.m, problem.n, problem.k, split, model);
      if (best.kernel == nullptr || t < best_time) {
        best = {&kernel, split, t, "fallback"};
        best_time = t;
      }
    }
  }
  return best;
}

}  // namespace autogemm
