// The launch metrics as database columns and analysis metrics: one column per declared
// launch metric (stats/metrics.hpp), named as the CSV report names it (stall reasons as
// stall_NAME), and per point the metric over all its launches (sums for counts and
// times, cycle-weighted means for rates), plus stall_share_NAME (a stall's share of the
// scheduler cycles).
#pragma once

#include <string>
#include <vector>

#include "stats/metrics.hpp"

namespace gpusim::study {

struct Column {
  std::string name;
  std::string json_group;  // where the JSON report keeps it: "" or "stalls"/"memory"
  std::string json_key;
  bool integer = false;
  stats::Combine combine = stats::Combine::Sum;
};

const std::vector<Column>& launch_columns();
bool is_metric(const std::string& name);
// A short list of metric names for error messages.
std::string metric_names_hint();
// An SQL expression over the launches of one point (table `l`, grouped by point) giving
// the point's value of `metric` (one is_metric accepts).
std::string point_metric_sql(const std::string& metric);

}  // namespace gpusim::study
