#include "study/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gpusim::study {
namespace {

bool others_at_baseline(const Observation& o, size_t except, size_t except2 = SIZE_MAX) {
  for (size_t f = 0; f < o.baseline.size(); ++f)
    if (f != except && f != except2 && !o.baseline[f]) return false;
  return true;
}

bool numeric_factor(const std::vector<Observation>& obs, size_t f) {
  for (const Observation& o : obs)
    if (!o.numbers[f]) return false;
  return !obs.empty();
}

bool positive(const std::vector<Observation>& obs, size_t f) {
  for (const Observation& o : obs)
    if (!o.numbers[f] || *o.numbers[f] <= 0) return false;
  return true;
}

// Mean metric per value of factor f over `obs`, in value order.
std::vector<ResponsePoint> response_of(const std::vector<Observation>& obs, size_t f, double reference, bool numeric) {
  std::vector<ResponsePoint> out;
  std::map<std::string, size_t> index;
  for (const Observation& o : obs) {
    auto [it, fresh] = index.emplace(o.values[f], out.size());
    if (fresh) out.push_back({o.values[f], o.numbers[f], 0, 0, 0});
    ResponsePoint& r = out[it->second];
    r.metric += o.metric;
    ++r.points;
  }
  for (ResponsePoint& r : out) {
    r.metric /= static_cast<double>(r.points);
    r.normalised = r.metric / reference;
  }
  if (numeric) std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return *a.number < *b.number; });
  return out;
}

}  // namespace

std::optional<std::vector<double>> least_squares(const std::vector<std::vector<double>>& x, const std::vector<double>& y) {
  const size_t n = y.size(), k = x.empty() ? 0 : x.front().size() + 1;
  if (n < k || k == 0) return std::nullopt;
  // Normal equations (X'X) b = X'y, solved by Gaussian elimination with partial pivoting.
  std::vector<std::vector<double>> a(k, std::vector<double>(k + 1, 0));
  for (size_t r = 0; r < n; ++r) {
    std::vector<double> row = {1.0};
    row.insert(row.end(), x[r].begin(), x[r].end());
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = 0; j < k; ++j) a[i][j] += row[i] * row[j];
      a[i][k] += row[i] * y[r];
    }
  }
  for (size_t c = 0; c < k; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < k; ++r)
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    if (std::fabs(a[pivot][c]) < 1e-12 * std::max(1.0, std::fabs(a[c][c]))) return std::nullopt;
    std::swap(a[c], a[pivot]);
    for (size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const double m = a[r][c] / a[c][c];
      for (size_t j = c; j <= k; ++j) a[r][j] -= m * a[c][j];
    }
  }
  std::vector<double> b(k);
  for (size_t i = 0; i < k; ++i) b[i] = a[i][k] / a[i][i];
  return b;
}

Analysis analyse(const std::vector<std::string>& names, const std::vector<Observation>& obs) {
  Analysis out;
  if (obs.empty()) return out;
  for (const Observation& o : obs)
    if (others_at_baseline(o, SIZE_MAX)) out.baseline_metric = o.metric;
  if (out.baseline_metric) {
    out.reference = *out.baseline_metric;
  } else {
    double log_sum = 0;
    for (const Observation& o : obs) log_sum += std::log(std::max(o.metric, 1e-300));
    out.reference = std::exp(log_sum / static_cast<double>(obs.size()));
  }
  const bool all_positive_metric = std::all_of(obs.begin(), obs.end(), [](const auto& o) { return o.metric > 0; });

  // The one regression over every point, for factors without a slice through the baseline.
  std::vector<size_t> regressors;
  for (size_t f = 0; f < names.size(); ++f) {
    std::set<double> distinct;
    for (const Observation& o : obs)
      if (o.numbers[f]) distinct.insert(*o.numbers[f]);
    if (positive(obs, f) && distinct.size() >= 2) regressors.push_back(f);
  }
  std::optional<std::vector<double>> fit;
  if (all_positive_metric && !regressors.empty()) {
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    for (const Observation& o : obs) {
      std::vector<double> row;
      for (size_t f : regressors) row.push_back(std::log(*o.numbers[f]));
      x.push_back(std::move(row));
      y.push_back(std::log(o.metric));
    }
    fit = least_squares(x, y);
  }

  for (size_t f = 0; f < names.size(); ++f) {
    FactorEffect e;
    e.name = names[f];
    e.numeric = numeric_factor(obs, f);
    for (const Observation& o : obs)
      if (o.baseline[f]) e.baseline_value = o.values[f];
    std::vector<Observation> slice;
    for (const Observation& o : obs)
      if (others_at_baseline(o, f)) slice.push_back(o);
    std::set<std::string> slice_values;
    for (const Observation& o : slice) slice_values.insert(o.values[f]);
    if (slice_values.size() >= 2) {
      e.method = "slice";
      e.response = response_of(slice, f, out.reference, e.numeric);
      if (e.numeric && positive(slice, f) && all_positive_metric) {
        std::vector<std::vector<double>> x;
        std::vector<double> y;
        for (const ResponsePoint& r : e.response) {
          x.push_back({std::log(*r.number)});
          y.push_back(std::log(r.metric));
        }
        if (const auto b = least_squares(x, y)) e.elasticity = (*b)[1];
      }
    } else {
      e.response = response_of(obs, f, out.reference, e.numeric);
      if (e.response.size() >= 2) e.method = "regression";
      const auto it = std::find(regressors.begin(), regressors.end(), f);
      if (fit && it != regressors.end()) e.elasticity = (*fit)[static_cast<size_t>(it - regressors.begin()) + 1];
    }
    if (e.method == "regression" && e.elasticity && e.response.size() >= 2) {
      // Marginal means mix in the other factors; the fit's prediction at the lowest and
      // highest value (the others at their baselines) is the factor's own effect.
      double base = 0;
      for (const Observation& o : obs)
        if (o.baseline[f]) base = *o.numbers[f];
      const double lo = std::pow(*e.response.front().number / base, *e.elasticity);
      const double hi = std::pow(*e.response.back().number / base, *e.elasticity);
      e.low = std::min(lo, hi);
      e.high = std::max(lo, hi);
      e.swing = e.high / e.low;
    } else if (!e.response.empty()) {
      e.low = e.high = e.response.front().normalised;
      for (const ResponsePoint& r : e.response) {
        e.low = std::min(e.low, r.normalised);
        e.high = std::max(e.high, r.normalised);
      }
      e.swing = e.low > 0 ? e.high / e.low : 1;
    }
    out.factors.push_back(std::move(e));
  }

  // Two factors moved together around the baseline (a grid): the map of both.
  for (size_t a = 0; a < names.size(); ++a)
    for (size_t b = a + 1; b < names.size(); ++b) {
      std::vector<Observation> slice;
      for (const Observation& o : obs)
        if (others_at_baseline(o, a, b)) slice.push_back(o);
      PairMap m{names[a], names[b], {}, {}, {}};
      for (const auto& r : response_of(slice, a, 1, numeric_factor(slice, a))) m.a_values.push_back(r.value);
      for (const auto& r : response_of(slice, b, 1, numeric_factor(slice, b))) m.b_values.push_back(r.value);
      if (m.a_values.size() < 2 || m.b_values.size() < 2) continue;
      m.normalised.assign(m.a_values.size(), std::vector<std::optional<double>>(m.b_values.size()));
      size_t filled = 0;
      for (const Observation& o : slice) {
        const auto ia = std::find(m.a_values.begin(), m.a_values.end(), o.values[a]) - m.a_values.begin();
        const auto ib = std::find(m.b_values.begin(), m.b_values.end(), o.values[b]) - m.b_values.begin();
        auto& cell = m.normalised[static_cast<size_t>(ia)][static_cast<size_t>(ib)];
        if (!cell) ++filled;
        cell = o.metric / out.reference;
      }
      // Only a full cross of both factors' values makes a map; a one-at-a-time design has a cross.
      if (filled == m.a_values.size() * m.b_values.size()) out.pairs.push_back(std::move(m));
    }

  std::stable_sort(out.factors.begin(), out.factors.end(),
                   [](const FactorEffect& x, const FactorEffect& y) { return x.swing > y.swing; });
  return out;
}

}  // namespace gpusim::study
