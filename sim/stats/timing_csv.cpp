// The timed run as CSV: one row per launch, a column per declared launch metric, then the
// metrics Nsight Compute has under its names.
#include "stats/metrics.hpp"
#include "stats/timing_report.hpp"

namespace gpusim::stats {

void write_timing_csv(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run) {
  const auto column = [](const LaunchMetric& m) { return m.group == "stalls" ? "stall_" + m.key : m.key; };
  out << "kernel,grid,block";
  for (const LaunchMetric& m : launch_metrics()) out << ',' << column(m);
  out << ",shared_bytes,registers_per_thread,stream,start_cycle,end_cycle";
  for (const LaunchMetric& m : launch_metrics())  // the same again under Nsight Compute's names and units
    if (!m.ncu.empty()) out << ',' << m.ncu;
  out << '\n';
  for (const auto& l : run.launches) {
    const LaunchView view = make_view(*ctx.arch, l.stats);
    out << l.name << ',' << dims_text(l.grid) << ',' << dims_text(l.block);
    for (const LaunchMetric& m : launch_metrics()) {
      const Value v = m.value(view);
      out << ',';
      if (std::holds_alternative<int64_t>(v)) out << std::get<int64_t>(v);
      else out << std::get<double>(v);
    }
    out << ',' << l.shared_bytes << ',' << l.registers << ',' << l.stream << ',' << l.start << ',' << l.end;
    for (const LaunchMetric& m : launch_metrics())
      if (!m.ncu.empty()) out << ',' << ncu_value(m, view);
    out << '\n';
  }
}

}  // namespace gpusim::stats
