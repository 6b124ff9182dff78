// The timed run as JSON: the run's identity, then per launch its identity and every
// declared metric (grouped as the declarations say), the copies, the total and the check.
#include <nlohmann/json.hpp>

#include "stats/check_report.hpp"
#include "stats/printf_output.hpp"
#include "stats/json_output.hpp"
#include "stats/metrics.hpp"
#include "stats/timing_report.hpp"

namespace gpusim::stats {
namespace {

using Json = nlohmann::ordered_json;

Json to_json(const Value& v) {
  return std::holds_alternative<int64_t>(v) ? Json(std::get<int64_t>(v)) : Json(std::get<double>(v));
}

template <typename View>
void put_metrics(Json& into, const std::vector<Metric<View>>& metrics, const View& view) {
  for (const Metric<View>& m : metrics) {
    Json& at = m.group.empty() ? into : into[m.group];
    at[m.key] = to_json(m.value(view));
  }
}

Json launch_json(const ReportContext& ctx, const driver::TimedLaunch& l) {
  Json j = {{"name", l.name},
            {"grid", dims_text(l.grid)},
            {"block", dims_text(l.block)},
            {"shared_bytes", l.shared_bytes},
            {"registers_per_thread", l.registers},
            {"stream", l.stream},
            {"start_cycle", l.start},
            {"end_cycle", l.end}};
  const LaunchView view = make_view(*ctx.arch, l.stats);
  put_metrics(j, launch_metrics(), view);
  // The same under Nsight Compute's names and units, to set beside `ncu --print-units base` output.
  Json& ncu = j["ncu"] = Json::object();
  for (const LaunchMetric& m : launch_metrics())
    if (!m.ncu.empty()) {
      const Value v = m.value(view);
      ncu[m.ncu] = std::holds_alternative<int64_t>(v) && m.ncu_scale == 1 ? Json(std::get<int64_t>(v))
                                                                            : Json(ncu_value(m, view));
    }
  if (!l.stats.profile.empty()) {  // warp-state samples, one per warp per cycle (--source)
    core::InstructionCounters all;
    for (const core::InstructionCounters& c : l.stats.profile.counters) all.add(c);
    for (int s = 0; s < core::kWarpStateCount; ++s) {
      if (s == static_cast<int>(core::Stall::Idle) || s == static_cast<int>(core::Stall::BlockLaunch)) continue;  // not Nsight's
      std::string name = "smsp__pcsamp_warps_issue_";
      name += s == core::kSelected ? "selected" : std::string("stalled_") + core::warp_state_name(s);
      ncu[name] = all.warp_cycles[static_cast<size_t>(s)];
    }
  }
  if (const core::SampleReport& s = l.stats.sample; s.sampled)  // --sample: what was timed, what extrapolated
    j["sample"] = {{"simulated_blocks", s.simulated_blocks},
                   {"blocks", l.stats.blocks},
                   {"measured_waves", s.measured_waves},
                   {"wave_cycles", s.wave_cycles},
                   {"error_estimate", s.error_estimate}};
  else if (!s.declined.empty())  // asked for, but every block was timed
    j["sample_declined"] = s.declined;
  if (!l.printf.records.empty() || l.printf.dropped) j["printf"] = printf_json(l.printf);
  if (l.out_of_bounds.total()) j["out_of_bounds"] = out_of_bounds_json(l.out_of_bounds);
  if (ctx.per_sm) {
    j["per_sm"] = Json::array();
    for (size_t i = 0; i < l.stats.per_sm.size(); ++i) {
      Json s = {{"sm", i}};
      put_metrics(s, sm_metrics(), SmView{l.stats.per_sm[i], l.stats.max_warps_per_sm});
      j["per_sm"].push_back(std::move(s));
    }
  }
  return j;
}

}  // namespace

void write_timing_json(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run) {
  Json j = {{"workload", ctx.workload->name},
            {"arch", ctx.arch->gpu.name},
            {"arch_file", ctx.arch->source_file},
            {"clock_mhz", ctx.arch->gpu.core_clock_mhz},
            {"size", ctx.workload->size.empty() ? std::string("default") : ctx.workload->size}};
  j["params"] = Json::object();
  for (const auto& [name, value] : ctx.workload->params) j["params"][name] = value;
  j["kernels"] = Json::array();
  for (const auto& l : run.launches) j["kernels"].push_back(launch_json(ctx, l));
  j["copies"] = Json::array();
  for (const auto& c : run.copies)
    j["copies"].push_back({{"buffer", c.buffer},
                           {"direction", c.to_device ? "to_device" : "to_host"},
                           {"bytes", c.bytes},
                           {"cycles", c.cycles},
                           {"pinned", c.pinned},
                           {"stream", c.stream},
                           {"start_cycle", c.start},
                           {"end_cycle", c.end}});
  j["total"] = {{"cycles", run.makespan}, {"time_us", static_cast<double>(run.makespan) / ctx.arch->gpu.core_clock_mhz}};
  if (run.check) j["check"] = check_json(*ctx.workload->check, *run.check);
  if (!ctx.source_views.empty()) {
    j["source"] = Json::array();
    for (const report::SourceView& v : ctx.source_views) j["source"].push_back(report::source_json(v));
  }
  write_json(out, j);
}

}  // namespace gpusim::stats
