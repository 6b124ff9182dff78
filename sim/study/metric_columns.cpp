#include "study/metric_columns.hpp"

namespace gpusim::study {
namespace {

constexpr const char* kSharePrefix = "stall_share_";

const Column* find_column(const std::string& name) {
  for (const Column& c : launch_columns())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace

const std::vector<Column>& launch_columns() {
  static const std::vector<Column> columns = [] {
    std::vector<Column> out;
    for (const stats::LaunchMetric& m : stats::launch_metrics())
      out.push_back({m.group == "stalls" ? "stall_" + m.key : m.key, m.group, m.key, m.style == stats::Style::Integer,
                     m.combine});
    return out;
  }();
  return columns;
}

bool is_metric(const std::string& name) {
  if (find_column(name)) return true;
  return name.rfind(kSharePrefix, 0) == 0 && find_column("stall_" + name.substr(std::string(kSharePrefix).size()));
}

std::string metric_names_hint() {
  return "e.g. cycles, ipc, l1_hit_rate, l2_hit_rate, dram_bandwidth_gbs, stall_share_long_scoreboard; "
         "`gpusim results --metrics` lists them all";
}

std::string point_metric_sql(const std::string& metric) {
  if (metric.rfind(kSharePrefix, 0) == 0) {
    const std::string stall = "stall_" + metric.substr(std::string(kSharePrefix).size());
    // Of the scheduler cycles that had a warp, as the report's shares (idle: of all).
    const std::string of = stall == "stall_idle" ? "l.scheduler_cycles" : "l.occupied_scheduler_cycles";
    return "(1.0 * SUM(l.\"" + stall + "\") / NULLIF(SUM(" + of + "), 0))";
  }
  const Column* c = find_column(metric);
  if (!c) return "NULL";
  if (c->combine == stats::Combine::Sum) return "SUM(l.\"" + c->name + "\")";
  return "(SUM(l.\"" + c->name + "\" * l.cycles) / NULLIF(SUM(l.cycles), 0))";
}

}  // namespace gpusim::study
