// Every metric a timed launch reports, declared once: the counters of the SMs and of the
// memory system (declared beside them), and the formulas derived from them, each with
// its report key, group, label, unit and description. The text, JSON and CSV writers
// walk this list, so a metric added here appears in every format. Names follow Nsight
// Compute's where one exists.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "arch/arch_config.hpp"
#include "core/launch_stats.hpp"

namespace gpusim::stats {

struct LaunchView {
  const arch::ArchConfig& arch;
  const core::LaunchStats& launch;
  core::SmStats total;  // summed over SMs
};

struct SmView {
  const core::SmStats& sm;
  int max_warps_per_sm = 0;
};

using Value = std::variant<int64_t, double>;

// How the text report prints a value.
enum class Style { Integer, Fixed2, Fixed3, Percent };

// How a launch metric combines over several launches (a sweep point's whole run): counts
// and times add up; rates, ratios and per-SM settings are averaged weighted by cycles.
enum class Combine { Sum, CycleWeighted };

template <typename View>
struct Metric {
  std::string key;    // JSON key and CSV column
  std::string group;  // "" (the launch), "stalls" or "memory": a JSON object, a text section
  std::string label;  // for the text report
  std::string unit;
  std::string description;
  Style style = Style::Integer;
  std::function<Value(const View&)> value;
  Combine combine = Combine::Sum;
  // Nsight Compute's name for the same quantity ("" where it has none) and the factor
  // from this metric's unit to Nsight's (100 for a fraction Nsight gives as .pct).
  std::string ncu;
  double ncu_scale = 1;
};

using LaunchMetric = Metric<LaunchView>;
using SmMetric = Metric<SmView>;

// Every launch metric, in report order.
const std::vector<LaunchMetric>& launch_metrics();
// Every per-SM metric (--per-sm), in report order.
const std::vector<SmMetric>& sm_metrics();

const LaunchMetric& launch_metric(const std::string& key);  // throws std::out_of_range
// A launch metric's value under its Nsight Compute name, in Nsight's unit.
double ncu_value(const LaunchMetric& m, const LaunchView& view);
LaunchView make_view(const arch::ArchConfig& arch, const core::LaunchStats& launch);
double as_double(const Value& v);
// A value as the text report prints it.
std::string format_value(const Value& v, Style style);

}  // namespace gpusim::stats
