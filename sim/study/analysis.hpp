// What matters, from a study's points: for each factor the response of a metric
// normalised to the baseline point, its elasticity (d ln metric / d ln parameter), its
// swing (largest over smallest normalised response) and, for two factors varied together
// around the baseline, the map of both.
//
// A factor's response comes from the points where every other factor is at its baseline
// (a grid or a one-at-a-time design has them); its elasticity is the least-squares slope of
// ln metric on ln value over those points. A Latin hypercube sample has no such points:
// there the elasticities come from one least-squares fit of ln metric on the ln values of
// all numeric factors, and the response is the mean normalised metric at each value.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpusim::study {

struct Observation {
  std::vector<std::string> values;               // per factor, as written
  std::vector<std::optional<double>> numbers;    // per factor, when numeric
  std::vector<bool> baseline;                    // per factor: at its baseline level
  double metric = 0;
};

struct ResponsePoint {
  std::string value;
  std::optional<double> number;
  double metric = 0;      // mean over the points with this value
  double normalised = 0;  // metric / baseline metric
  size_t points = 0;
};

struct FactorEffect {
  std::string name;
  bool numeric = false;
  std::string baseline_value;
  std::vector<ResponsePoint> response;  // by value (numeric: ascending)
  std::optional<double> elasticity;     // numeric factors with positive values only
  double swing = 1;                     // max / min normalised response (1: no effect seen)
  double low = 1, high = 1;             // min and max normalised response; from a regression,
                                        // the fit's prediction at the lowest and highest value
  std::string method;                   // "slice" or "regression"; "" when not enough points
};

struct PairMap {
  std::string a, b;
  std::vector<std::string> a_values, b_values;
  std::vector<std::vector<std::optional<double>>> normalised;  // [a][b]
};

struct Analysis {
  std::optional<double> baseline_metric;  // absent: normalised to the geometric mean instead
  double reference = 0;                   // what normalised values divide by
  std::vector<FactorEffect> factors;      // ranked: largest swing first
  std::vector<PairMap> pairs;
};

Analysis analyse(const std::vector<std::string>& factor_names, const std::vector<Observation>& observations);

// Least-squares coefficients of y on [1, x_1 .. x_k]; nullopt when singular or too few rows.
std::optional<std::vector<double>> least_squares(const std::vector<std::vector<double>>& x, const std::vector<double>& y);

}  // namespace gpusim::study
