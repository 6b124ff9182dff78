// The points of a study: every (architecture, workload) pair is a context, and the design
// picks levels of the factors within it: the full grid, one factor at a time around the
// baseline, or a Latin hypercube sample (which always includes the baseline). Each point
// is checked by loading its architecture and workload exactly as `gpusim run` would,
// before anything runs.
#pragma once

#include <string>
#include <vector>

#include "study/results_db.hpp"
#include "study/study.hpp"

namespace gpusim::study {

struct Point {
  size_t arch = 0;      // index into Study::archs
  size_t workload = 0;  // index into Study::workloads
  std::vector<size_t> levels;  // per factor
  std::string key;             // the point's identity in the results database
};

struct Plan {
  std::vector<Point> points;
  // baseline[context][factor]: the baseline level; context = arch * workloads + workload.
  std::vector<std::vector<size_t>> baseline;
};

// Points in a fixed order (same study, same points). Throws util::InputError when a
// baseline cannot be found.
Plan make_plan(const Study& s);

// Latin hypercube: `samples` rows of one level per factor, each factor's levels spread
// evenly over the rows (stratified), shuffled with a fixed generator from `seed`.
std::vector<std::vector<size_t>> latin_hypercube(const std::vector<size_t>& levels, size_t samples, uint64_t seed);

// The --set overrides of a point: the study's fixed ones, then the factors'.
std::vector<std::string> arch_sets(const Study& s, const Point& p);
std::vector<std::string> workload_sets(const Study& s, const Point& p);

// Loads the point's architecture and workload (every parameter checked against its
// declaration and every cross-field rule) and fills the record's identity, factor values,
// resolved parameters and config hash. Throws util::InputError naming the study file and
// the point.
PointRecord check_point(const Study& s, const Plan& plan, const Point& p);

}  // namespace gpusim::study
