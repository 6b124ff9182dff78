#include "stats/timing_report.hpp"

#include <cstdio>
#include <iomanip>

#include "stats/check_report.hpp"
#include "stats/json_writer.hpp"

namespace gpusim::stats {
namespace {

using core::kStallCount;
using core::Stall;

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string pct(double fraction) { return fixed(100.0 * fraction, 1) + "%"; }

std::string dims(const std::array<int64_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

uint64_t total_cycles(const driver::TimingRun& run) { return run.makespan; }

void json_launch(JsonWriter& j, const ReportContext& ctx, const driver::TimedLaunch& l) {
  const core::LaunchStats& s = l.stats;
  const core::SmStats t = s.total();
  const LaunchMetrics m = launch_metrics(*ctx.arch, s);
  j.begin_object();
  j.field("name", l.name).field("grid", dims(l.grid)).field("block", dims(l.block)).field("shared_bytes", l.shared_bytes)
      .field("registers_per_thread", l.registers).field("stream", l.stream)
      .field("start_cycle", static_cast<int64_t>(l.start)).field("end_cycle", static_cast<int64_t>(l.end));
  j.field("cycles", static_cast<int64_t>(s.cycles)).field("time_us", m.time_us);
  j.field("warp_instructions", static_cast<int64_t>(t.warp_instructions))
      .field("thread_instructions", static_cast<int64_t>(t.thread_instructions));
  j.field("ipc", m.ipc).field("gpu_ipc", m.gpu_ipc).field("issue_slot_utilisation", m.issue_slot_utilisation);
  j.field("achieved_occupancy", m.achieved_occupancy).field("theoretical_occupancy", s.theoretical_occupancy);
  j.field("simt_efficiency", m.simt_efficiency);
  j.field("blocks", static_cast<int64_t>(s.blocks)).field("blocks_per_sm", s.blocks_per_sm)
      .field("blocks_per_wave", static_cast<int64_t>(m.blocks_per_wave)).field("waves", m.waves)
      .field("tail_cycles", static_cast<int64_t>(s.tail_cycles));
  j.field("scheduler_cycles", static_cast<int64_t>(m.scheduler_cycles))
      .field("issue_cycles", static_cast<int64_t>(t.issue_cycles));
  j.key("stalls").begin_object();
  for (int i = 0; i < kStallCount; ++i) j.field(core::stall_name(static_cast<Stall>(i)), static_cast<int64_t>(t.stalls[i]));
  j.end_object();
  const memory::MemoryStats& mem = s.memory;
  j.key("memory").begin_object();
  j.field("global_load_requests", static_cast<int64_t>(mem.global_load_requests))
      .field("global_load_sectors", static_cast<int64_t>(mem.global_load_transactions))
      .field("load_sectors_per_request", m.load_sectors_per_request)
      .field("global_store_requests", static_cast<int64_t>(mem.global_store_requests))
      .field("global_store_sectors", static_cast<int64_t>(mem.global_store_transactions))
      .field("store_sectors_per_request", m.store_sectors_per_request)
      .field("shared_requests", static_cast<int64_t>(mem.shared_requests))
      .field("shared_bank_conflicts", static_cast<int64_t>(mem.shared_passes - mem.shared_requests))
      .field("bank_conflicts_per_request", m.bank_conflicts_per_request)
      .field("l1_hit_rate", m.l1_hit_rate).field("l2_hit_rate", m.l2_hit_rate)
      .field("dram_read_bytes", static_cast<int64_t>(mem.dram_read_bytes))
      .field("dram_write_bytes", static_cast<int64_t>(mem.dram_write_bytes))
      .field("dram_bandwidth_gbs", m.dram_gbs).field("dram_peak_gbs", m.dram_peak_gbs)
      .field("effective_bandwidth_gbs", m.effective_gbs);
  j.end_object();
  if (ctx.per_sm) {
    j.key("per_sm").begin_array();
    for (size_t i = 0; i < s.per_sm.size(); ++i) {
      const core::SmStats& p = s.per_sm[i];
      j.begin_object().field("sm", static_cast<int64_t>(i)).field("blocks", static_cast<int64_t>(p.blocks))
          .field("warp_instructions", static_cast<int64_t>(p.warp_instructions))
          .field("active_cycles", static_cast<int64_t>(p.active_cycles))
          .field("ipc", ratio(static_cast<double>(p.warp_instructions), static_cast<double>(p.active_cycles)))
          .field("achieved_occupancy", ratio(static_cast<double>(p.warp_cycles), static_cast<double>(p.active_cycles)) /
                                           s.max_warps_per_sm);
      j.key("stalls").begin_object();
      for (int k = 0; k < kStallCount; ++k) j.field(core::stall_name(static_cast<Stall>(k)), static_cast<int64_t>(p.stalls[k]));
      j.end_object().end_object();
    }
    j.end_array();
  }
  j.end_object();
}

}  // namespace

LaunchMetrics launch_metrics(const arch::ArchConfig& arch, const core::LaunchStats& s) {
  const core::SmStats t = s.total();
  LaunchMetrics m;
  m.time_us = static_cast<double>(s.cycles) / arch.gpu.core_clock_mhz;
  m.ipc = ratio(static_cast<double>(t.warp_instructions), static_cast<double>(t.active_cycles));
  m.gpu_ipc = ratio(static_cast<double>(t.warp_instructions), static_cast<double>(s.cycles));
  m.scheduler_cycles = uint64_t{s.per_sm.size()} * static_cast<uint64_t>(s.schedulers_per_sm) * s.cycles;
  m.issue_slot_utilisation = ratio(static_cast<double>(t.warp_instructions),
                                   static_cast<double>(m.scheduler_cycles) * s.issue_width);
  m.achieved_occupancy = ratio(static_cast<double>(t.warp_cycles), static_cast<double>(t.active_cycles)) / s.max_warps_per_sm;
  m.simt_efficiency = ratio(static_cast<double>(t.thread_instructions), 32.0 * static_cast<double>(t.warp_instructions));
  m.blocks_per_wave = static_cast<uint64_t>(s.blocks_per_sm) * s.per_sm.size();
  m.waves = ratio(static_cast<double>(s.blocks), static_cast<double>(m.blocks_per_wave));
  for (uint64_t v : t.stalls) m.stall_cycles += v;
  const memory::MemoryStats& mem = s.memory;
  m.load_sectors_per_request = ratio(static_cast<double>(mem.global_load_transactions), static_cast<double>(mem.global_load_requests));
  m.store_sectors_per_request = ratio(static_cast<double>(mem.global_store_transactions), static_cast<double>(mem.global_store_requests));
  m.bank_conflicts_per_request =
      ratio(static_cast<double>(mem.shared_passes - mem.shared_requests), static_cast<double>(mem.shared_requests));
  m.l1_hit_rate = ratio(static_cast<double>(mem.l1_hits), static_cast<double>(mem.l1_hits + mem.l1_misses));
  m.l2_hit_rate = ratio(static_cast<double>(mem.l2_hits), static_cast<double>(mem.l2_hits + mem.l2_misses));
  const double seconds = static_cast<double>(s.cycles) / (arch.gpu.core_clock_mhz * 1e6);
  m.dram_gbs = ratio(static_cast<double>(mem.dram_read_bytes + mem.dram_write_bytes), seconds) / 1e9;
  m.dram_peak_gbs = arch.memory.dram.bandwidth_gbs;
  m.effective_gbs = ratio(static_cast<double>(mem.global_load_bytes + mem.global_store_bytes), seconds) / 1e9;
  return m;
}

void write_timing_text(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run) {
  const arch::ArchConfig& a = *ctx.arch;
  out << "gpusim: workload '" << ctx.workload->name << "' on " << a.gpu.name << " (" << a.gpu.sm_count << " SMs x "
      << a.scheduling.warp_schedulers_per_sm << " schedulers, " << a.gpu.core_clock_mhz << " MHz, " << a.source_file << ")\n";
  if (!ctx.workload->size.empty()) {
    out << "Size " << ctx.workload->size << ":";
    for (const auto& [name, value] : ctx.workload->params) out << ' ' << name << '=' << value;
    out << '\n';
  }
  out << "Kernel " << ctx.workload->kernel.entry << " from " << ctx.kernel_source << " (" << ctx.registers_origin << ")\n";
  for (size_t i = 0; i < run.launches.size(); ++i) {
    const driver::TimedLaunch& l = run.launches[i];
    const core::LaunchStats& s = l.stats;
    const core::SmStats t = s.total();
    const LaunchMetrics m = launch_metrics(a, s);
    out << "\nLaunch " << i + 1 << ": " << l.name << "<<<" << dims(l.grid) << ", " << dims(l.block) << ", "
        << l.shared_bytes << ">>>, " << l.registers << " registers/thread\n";
    const auto line = [&](const char* label, const std::string& value) {
      out << "  " << std::left << std::setw(24) << label << value << '\n';
    };
    line("Cycles", std::to_string(s.cycles) + "  (" + fixed(m.time_us, 2) + " us at " + fixed(a.gpu.core_clock_mhz, 0) + " MHz)");
    line("Warp instructions", std::to_string(t.warp_instructions) + "  (" + std::to_string(t.thread_instructions) + " thread instructions)");
    line("IPC", fixed(m.ipc, 3) + " per SM per active cycle  (GPU: " + fixed(m.gpu_ipc, 2) + " per cycle)");
    line("Issue-slot utilisation", pct(m.issue_slot_utilisation) + "  (" + std::to_string(s.schedulers_per_sm) + " schedulers x " +
                                       std::to_string(s.issue_width) + " per SM)");
    line("Occupancy", "achieved " + pct(m.achieved_occupancy) + ", theoretical " + pct(s.theoretical_occupancy) + "  (" +
                          std::to_string(s.blocks_per_sm) + " blocks/SM)");
    line("SIMT efficiency", pct(m.simt_efficiency));
    line("Blocks", std::to_string(s.blocks) + " in " + fixed(m.waves, 2) + " waves of " + std::to_string(m.blocks_per_wave) +
                       "; tail " + std::to_string(s.tail_cycles) + " cycles (" + pct(ratio(s.tail_cycles, s.cycles)) + ")");
    out << "  Stalls: " << m.stall_cycles << " of " << m.scheduler_cycles << " scheduler cycles without an issue ("
        << pct(ratio(m.stall_cycles, m.scheduler_cycles)) << ")\n";
    for (int k = 0; k < kStallCount; ++k) {
      if (t.stalls[k] == 0) continue;
      out << "    " << std::left << std::setw(22) << core::stall_name(static_cast<Stall>(k)) << std::right << std::setw(14)
          << t.stalls[k] << "  " << std::setw(6) << pct(ratio(t.stalls[k], m.stall_cycles)) << '\n';
    }
    {
      const memory::MemoryStats& mem = s.memory;
      out << "  Memory:\n";
      if (mem.global_load_requests)
        out << "    global loads          " << mem.global_load_requests << " requests, " << mem.global_load_transactions
            << " transactions (" << fixed(m.load_sectors_per_request, 2) << " per request)\n";
      if (mem.global_store_requests)
        out << "    global stores         " << mem.global_store_requests << " requests, " << mem.global_store_transactions
            << " transactions (" << fixed(m.store_sectors_per_request, 2) << " per request)\n";
      if (mem.shared_requests)
        out << "    shared memory         " << mem.shared_requests << " requests, " << mem.shared_passes - mem.shared_requests
            << " bank-conflict replays (" << fixed(m.bank_conflicts_per_request, 2) << " per request)\n";
      if (mem.l1_hits + mem.l1_misses) out << "    L1 hit rate           " << pct(m.l1_hit_rate) << '\n';
      if (mem.l2_hits + mem.l2_misses) out << "    L2 hit rate           " << pct(m.l2_hit_rate) << '\n';
      out << "    DRAM                  " << mem.dram_read_bytes << " bytes read, " << mem.dram_write_bytes
          << " written: " << fixed(m.dram_gbs, 1) << " GB/s of " << fixed(m.dram_peak_gbs, 1) << " peak ("
          << pct(ratio(m.dram_gbs, m.dram_peak_gbs)) << ")\n";
      out << "    effective bandwidth   " << fixed(m.effective_gbs, 1) << " GB/s  ((bytes read + written) / time)\n";
    }
    if (ctx.per_sm) {
      out << "  Per SM:\n     SM  blocks   warp instr      IPC  achieved occ  top stall\n";
      for (size_t k = 0; k < s.per_sm.size(); ++k) {
        const core::SmStats& p = s.per_sm[k];
        int top = 0;
        for (int r = 1; r < kStallCount; ++r)
          if (p.stalls[r] > p.stalls[top]) top = r;
        out << "  " << std::right << std::setw(5) << k << std::setw(8) << p.blocks << std::setw(13) << p.warp_instructions
            << std::setw(9) << fixed(ratio(p.warp_instructions, p.active_cycles), 3) << std::setw(14)
            << pct(ratio(p.warp_cycles, p.active_cycles) / s.max_warps_per_sm) << "  " << core::stall_name(static_cast<Stall>(top))
            << '\n';
      }
    }
  }
  const auto us = [&](uint64_t cycles) { return fixed(static_cast<double>(cycles) / a.gpu.core_clock_mhz, 2); };
  out << "\nTimeline (us; " << a.host_link.copy_engines << " copy engine(s), " << a.host_link.name << "):\n";
  for (const driver::TimedCopy& c : run.copies)
    out << "  copy " << std::left << std::setw(9) << (c.to_device ? "to device" : "to host") << std::right << " stream "
        << c.stream << "  " << std::setw(10) << us(c.start) << " .. " << std::setw(10) << us(c.end) << "  " << c.buffer
        << ", " << c.bytes << " bytes, " << (c.pinned ? "pinned" : "pageable") << ", "
        << fixed(ratio(static_cast<double>(c.bytes), static_cast<double>(c.end - c.start) / a.gpu.core_clock_mhz) / 1e3, 2)
        << " GB/s\n";
  for (size_t i = 0; i < run.launches.size(); ++i)
    out << "  launch " << std::left << std::setw(7) << i + 1 << std::right << " stream " << run.launches[i].stream << "  "
        << std::setw(10) << us(run.launches[i].start) << " .. " << std::setw(10) << us(run.launches[i].end) << "  "
        << run.launches[i].name << '\n';
  const uint64_t total = total_cycles(run);
  out << "\nTotal: " << total << " cycles (" << us(total) << " us), copies and kernels overlapping across streams\n";
  if (run.check)
    out << "Check " << ctx.workload->check->buffer << ": " << (run.check->passed ? "PASSED" : "FAILED") << " - "
        << run.check->detail << '\n';
}

void write_timing_json(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run) {
  JsonWriter j(out);
  j.begin_object().field("workload", ctx.workload->name).field("arch", ctx.arch->gpu.name)
      .field("arch_file", ctx.arch->source_file).field("clock_mhz", ctx.arch->gpu.core_clock_mhz);
  j.field("size", ctx.workload->size.empty() ? std::string("default") : ctx.workload->size);
  j.key("params").begin_object();
  for (const auto& [name, value] : ctx.workload->params) j.field(name, value);
  j.end_object();
  j.key("kernels").begin_array();
  for (const auto& l : run.launches) json_launch(j, ctx, l);
  j.end_array();
  j.key("copies").begin_array();
  for (const auto& c : run.copies)
    j.begin_object().field("buffer", c.buffer).field("direction", c.to_device ? "to_device" : "to_host")
        .field("bytes", static_cast<int64_t>(c.bytes)).field("cycles", static_cast<int64_t>(c.cycles))
        .field("pinned", c.pinned).field("stream", c.stream).field("start_cycle", static_cast<int64_t>(c.start))
        .field("end_cycle", static_cast<int64_t>(c.end)).end_object();
  j.end_array();
  const uint64_t total = total_cycles(run);
  j.key("total").begin_object().field("cycles", static_cast<int64_t>(total))
      .field("time_us", static_cast<double>(total) / ctx.arch->gpu.core_clock_mhz).end_object();
  if (run.check) write_check_json(j, *ctx.workload->check, *run.check);
  j.end_object();
}

void write_timing_csv(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run) {
  out << "kernel,grid,block,cycles,time_us,warp_instructions,thread_instructions,ipc,issue_slot_utilisation,"
         "achieved_occupancy,theoretical_occupancy,simt_efficiency,blocks,waves,tail_cycles,load_sectors_per_request,"
         "bank_conflicts_per_request,l1_hit_rate,l2_hit_rate,dram_gbs,effective_gbs";
  for (int k = 0; k < kStallCount; ++k) out << ",stall_" << core::stall_name(static_cast<Stall>(k));
  out << '\n';
  for (const auto& l : run.launches) {
    const core::SmStats t = l.stats.total();
    const LaunchMetrics m = launch_metrics(*ctx.arch, l.stats);
    out << l.name << ',' << dims(l.grid) << ',' << dims(l.block) << ',' << l.stats.cycles << ',' << m.time_us << ','
        << t.warp_instructions << ',' << t.thread_instructions << ',' << m.ipc << ',' << m.issue_slot_utilisation << ','
        << m.achieved_occupancy << ',' << l.stats.theoretical_occupancy << ',' << m.simt_efficiency << ','
        << l.stats.blocks << ',' << m.waves << ',' << l.stats.tail_cycles << ',' << m.load_sectors_per_request << ','
        << m.bank_conflicts_per_request << ',' << m.l1_hit_rate << ',' << m.l2_hit_rate << ',' << m.dram_gbs << ','
        << m.effective_gbs;
    for (int k = 0; k < kStallCount; ++k) out << ',' << t.stalls[k];
    out << '\n';
  }
}

}  // namespace gpusim::stats
