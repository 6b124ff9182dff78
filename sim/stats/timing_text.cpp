// The timed run as text: per launch, summary lines that combine related metrics, then
// every declared metric no summary line showed (so the text carries them all), the
// stalls with their shares, memory, per SM on request; then the timeline and the check.
#include <cstdio>
#include <iomanip>
#include <set>

#include "stats/metrics.hpp"
#include "stats/printf_output.hpp"
#include "stats/timing_report.hpp"

namespace gpusim::stats {
namespace {

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string pct(double fraction) { return fixed(100.0 * fraction, 1) + "%"; }

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

// Reads metrics for summary lines, remembering which were shown.
class Shown {
 public:
  explicit Shown(const LaunchView& view) : view_(view) {}
  double operator()(const std::string& key) {
    keys_.insert(key);
    return as_double(launch_metric(key).value(view_));
  }
  int64_t integer(const std::string& key) { return static_cast<int64_t>((*this)(key)); }
  std::string text(const std::string& key) {
    const LaunchMetric& m = launch_metric(key);
    keys_.insert(key);
    return format_value(m.value(view_), m.style);
  }
  // Reads without counting as shown (for a line's condition).
  double peek(const std::string& key) const { return as_double(launch_metric(key).value(view_)); }
  bool contains(const std::string& key) const { return keys_.contains(key); }

 private:
  const LaunchView& view_;
  std::set<std::string> keys_;
};

void launch_text(std::ostream& out, const ReportContext& ctx, size_t index, const driver::TimedLaunch& l) {
  const arch::ArchConfig& a = *ctx.arch;
  const core::LaunchStats& s = l.stats;
  const LaunchView view = make_view(a, s);
  Shown m(view);
  out << "\nLaunch " << index + 1 << ": " << l.name << "<<<" << dims_text(l.grid) << ", " << dims_text(l.block) << ", "
      << l.shared_bytes << ">>>, " << l.registers << " registers/thread\n";
  const auto line = [&](const char* label, const std::string& value) {
    out << "  " << std::left << std::setw(24) << label << value << '\n';
  };
  line("Cycles", m.text("cycles") + "  (" + m.text("time_us") + " us at " + fixed(a.gpu.core_clock_mhz, 0) + " MHz)" +
                    (m.peek("launch_overhead_cycles") > 0
                         ? ": launch overhead " + m.text("launch_overhead_cycles") + ", kernel " + m.text("kernel_cycles")
                         : ""));
  line("Warp instructions", m.text("warp_instructions") + "  (" + m.text("thread_instructions") + " thread instructions" +
                                (m.peek("dual_issues") > 0 ? ", " + m.text("dual_issues") + " dual-issued" : "") + ")");
  line("IPC", m.text("ipc") + " per SM per active cycle  (GPU: " + m.text("gpu_ipc") + " per cycle)");
  line("Issue-slot utilisation", m.text("issue_slot_utilisation") + "  (" + std::to_string(s.schedulers_per_sm) +
                                     " schedulers x " + std::to_string(s.issue_width) + " per SM)");
  line("Occupancy", "achieved " + m.text("achieved_occupancy") + ", theoretical " + m.text("theoretical_occupancy") +
                        "  (" + m.text("blocks_per_sm") + " blocks/SM)");
  line("SIMT efficiency",
       m.text("simt_efficiency") + "  (lanes not predicated off: " + m.text("predicated_simt_efficiency") + ")");
  line("Blocks", m.text("blocks") + " in " + m.text("waves") + " waves of " + m.text("blocks_per_wave") + "; tail " +
                     m.text("tail_cycles") + " cycles (" + pct(ratio(m("tail_cycles"), m("cycles"))) + ")");
  if (const core::SampleReport& sample = s.sample; sample.sampled)
    line("Sampled", std::to_string(sample.simulated_blocks) + " of " + std::to_string(s.blocks) +
                        " blocks timed (" + std::to_string(sample.measured_waves) + " waves until two ran at the same " +
                        "rate; the last took " + std::to_string(sample.wave_cycles) + " cycles); the rest ran functionally, cycles " +
                        "and counters extrapolated (estimated error " + pct(sample.error_estimate) + ")");
  else if (!sample.declined.empty())
    line("Sampled", "no, every block timed: " + sample.declined);
  // Speed of light: the busiest unit on each side, as a share of its peak.
  const auto busiest = [&](const std::vector<std::string>& keys) {
    std::string best = keys.front();
    for (const std::string& k : keys)
      if (m.peek(k) > m.peek(best)) best = k;
    return launch_metric(best).label;
  };
  std::vector<std::string> pipes;
  for (const LaunchMetric& metric : launch_metrics())
    if (metric.key.rfind("pipe_", 0) == 0) pipes.push_back(metric.key);
  pipes.push_back("issue_active");
  line("Speed of light", "compute " + m.text("compute_throughput") + " (" + busiest(pipes) + "), memory " +
                             m.text("memory_throughput") + " (" +
                             busiest({"l1_throughput", "l2_throughput", "dram_throughput"}) + ")");
  std::string pipe_line;
  for (const std::string& p : pipes)
    pipe_line += (pipe_line.empty() ? "" : ", ") + (p.rfind("pipe_", 0) == 0 ? p.substr(5) : "issue active") + " " +
                 m.text(p);
  line("  pipes", pipe_line);
  line("  memory units", "L1/shared " + m.text("l1_throughput") + ", L2 " + m.text("l2_throughput") + ", DRAM " +
                             m.text("dram_throughput"));
  // Stall shares are of the scheduler cycles that had a warp: an empty SM is `idle`, not a stall of the kernel's.
  const double occupied = m("occupied_scheduler_cycles");
  const double stalls = m("stall_cycles") - m.peek("idle");
  out << "  Stalls: " << fixed(stalls, 0) << " of " << m.text("occupied_scheduler_cycles")
      << " scheduler cycles with warps issued nothing (" << pct(ratio(stalls, occupied)) << "); " << m.text("idle")
      << " more had no warp (idle; " << m.text("stall_cycles") << " stall cycles in all)\n";
  for (const LaunchMetric& metric : launch_metrics()) {
    if (metric.group != "stalls" || metric.key == "idle") continue;
    const int64_t v = m.integer(metric.key);
    if (v == 0) continue;
    out << "    " << std::left << std::setw(22) << metric.key << std::right << std::setw(14) << v << "  " << std::setw(6)
        << pct(ratio(static_cast<double>(v), occupied)) << '\n';
  }
  out << "  Memory:\n";
  if (m.peek("global_load_requests") > 0)
    out << "    global loads          " << m.text("global_load_requests") << " requests, " << m.text("global_load_sectors")
        << " transactions (" << m.text("load_sectors_per_request") << " per request)\n";
  if (m.peek("global_store_requests") > 0)
    out << "    global stores         " << m.text("global_store_requests") << " requests, "
        << m.text("global_store_sectors") << " transactions (" << m.text("store_sectors_per_request")
        << " per request)\n";
  if (m.peek("shared_requests") > 0)
    out << "    shared memory         " << m.text("shared_requests") << " requests, " << m.text("shared_bank_conflicts")
        << " bank-conflict replays (" << m.text("bank_conflicts_per_request") << " per request)\n";
  if (m.peek("l1_hit_sectors") + m.peek("l1_miss_sectors") > 0) out << "    L1 hit rate           " << m.text("l1_hit_rate") << '\n';
  if (m.peek("l2_hit_sectors") + m.peek("l2_miss_sectors") > 0) out << "    L2 hit rate           " << m.text("l2_hit_rate") << '\n';
  out << "    DRAM                  " << m.text("dram_read_bytes") << " bytes read, " << m.text("dram_write_bytes")
      << " written: " << m.text("dram_bandwidth_gbs") << " GB/s of " << m.text("dram_peak_gbs") << " peak ("
      << pct(ratio(m("dram_bandwidth_gbs"), m("dram_peak_gbs"))) << ")\n";
  out << "    effective bandwidth   " << m.text("effective_bandwidth_gbs") << " GB/s  ((bytes read + written) / time)\n";
  // Everything the lines above did not show, so that the text carries every metric.
  bool header = false;
  for (const LaunchMetric& metric : launch_metrics()) {
    if (m.contains(metric.key) || metric.group == "stalls") continue;
    if (!header) out << "  Other counters:\n";
    header = true;
    out << "    " << std::left << std::setw(28) << metric.key << std::right << std::setw(14)
        << format_value(metric.value(view), metric.style) << (metric.style == Style::Percent ? "" : "  " + metric.unit)
        << '\n';
  }
  if (ctx.per_sm) {
    out << "  Per SM:\n     SM  blocks   warp instr      IPC  achieved occ  top stall\n";
    for (size_t k = 0; k < s.per_sm.size(); ++k) {
      const core::SmStats& p = s.per_sm[k];
      int top = 0;
      for (int r = 1; r < core::kStallCount; ++r)
        if (p.stalls[static_cast<size_t>(r)] > p.stalls[static_cast<size_t>(top)]) top = r;
      const SmView sv{p, s.max_warps_per_sm};
      const auto value = [&](const char* key) {
        for (const SmMetric& metric : sm_metrics())
          if (metric.key == key) return format_value(metric.value(sv), metric.style);
        return std::string("?");
      };
      out << "  " << std::right << std::setw(5) << k << std::setw(8) << p.blocks << std::setw(13) << p.warp_instructions
          << std::setw(9) << value("ipc") << std::setw(14) << value("achieved_occupancy") << "  "
          << core::stall_name(static_cast<core::Stall>(top)) << '\n';
    }
  }
  write_printf_text(out, l.printf);
  write_out_of_bounds_text(out, l.out_of_bounds);
}

}  // namespace

std::string dims_text(const std::array<int64_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

void write_timing_text(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run) {
  const arch::ArchConfig& a = *ctx.arch;
  out << "gpusim: workload '" << ctx.workload->name << "' on " << a.gpu.name << " (" << a.gpu.sm_count << " SMs x "
      << a.scheduling.warp_schedulers_per_sm << " schedulers, " << a.gpu.core_clock_mhz << " MHz, " << a.source_file
      << ")\n";
  if (!ctx.workload->size.empty()) {
    out << "Size " << ctx.workload->size << ":";
    for (const auto& [name, value] : ctx.workload->params) out << ' ' << name << '=' << value;
    out << '\n';
  }
  out << "Kernel " << ctx.workload->kernel.entry << " from " << ctx.kernel_source << " (" << ctx.registers_origin
      << ")\n";
  for (size_t i = 0; i < run.launches.size(); ++i) launch_text(out, ctx, i, run.launches[i]);
  const auto us = [&](uint64_t cycles) { return fixed(static_cast<double>(cycles) / a.gpu.core_clock_mhz, 2); };
  out << "\nTimeline (us; " << a.host_link.copy_engines << " copy engine(s), " << a.host_link.name << "):\n";
  for (const driver::TimedCopy& c : run.copies)
    out << "  copy " << std::left << std::setw(9) << (c.to_device ? "to device" : "to host") << std::right << " stream "
        << c.stream << "  " << std::setw(10) << us(c.start) << " .. " << std::setw(10) << us(c.end) << "  " << c.buffer
        << ", " << c.bytes << " bytes, " << (c.pinned ? "pinned" : "pageable") << ", "
        << fixed(ratio(static_cast<double>(c.bytes), static_cast<double>(c.end - c.start) / a.gpu.core_clock_mhz) / 1e3,
                 2)
        << " GB/s\n";
  for (size_t i = 0; i < run.launches.size(); ++i)
    out << "  launch " << std::left << std::setw(7) << i + 1 << std::right << " stream " << run.launches[i].stream
        << "  " << std::setw(10) << us(run.launches[i].start) << " .. " << std::setw(10) << us(run.launches[i].end)
        << "  " << run.launches[i].name << '\n';
  out << "\nTotal: " << run.makespan << " cycles (" << us(run.makespan)
      << " us), copies and kernels overlapping across streams\n";
  report::write_source_text(out, ctx.source_views, ctx.source_top);
  if (run.check)
    out << "Check " << ctx.workload->check->buffer << ": " << (run.check->passed ? "PASSED" : "FAILED") << " - "
        << run.check->detail << '\n';
}

}  // namespace gpusim::stats
