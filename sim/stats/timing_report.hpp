// Reports of a timed run: where every cycle went, per launch and in total, as text,
// JSON or CSV; metrics named after Nsight Compute's where one exists.
#pragma once

#include <ostream>
#include <string>

#include "arch/arch_config.hpp"
#include "core/launch_stats.hpp"
#include "driver/timing_run.hpp"

namespace gpusim::stats {

// Metrics derived from a launch's counters.
struct LaunchMetrics {
  double time_us = 0;
  double ipc = 0;             // warp instructions per SM per active cycle (sm__inst_executed.avg.per_cycle_active)
  double gpu_ipc = 0;         // warp instructions per cycle, whole GPU
  double issue_slot_utilisation = 0;
  double achieved_occupancy = 0;  // resident warps per active cycle / max warps per SM
  double simt_efficiency = 0;     // active lanes per issued warp instruction / warp size
  uint64_t blocks_per_wave = 0;
  double waves = 0;
  uint64_t scheduler_cycles = 0;  // SMs x schedulers x cycles
  uint64_t stall_cycles = 0;      // scheduler cycles without an issue: the sum of the stalls
  // Memory (Nsight names: sectors per request, hit rates, dram throughput)
  double load_sectors_per_request = 0;
  double store_sectors_per_request = 0;
  double bank_conflicts_per_request = 0;  // extra passes per shared request
  double l1_hit_rate = 0, l2_hit_rate = 0;
  double dram_gbs = 0, dram_peak_gbs = 0;
  double effective_gbs = 0;  // seed 004: (bytes the kernel read + wrote) / time
};

LaunchMetrics launch_metrics(const arch::ArchConfig& arch, const core::LaunchStats& s);

struct ReportContext {
  const arch::ArchConfig* arch = nullptr;
  const workload::Workload* workload = nullptr;
  std::string kernel_source;
  std::string registers_origin;
  bool per_sm = false;
};

void write_timing_text(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run);
void write_timing_json(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run);
void write_timing_csv(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run);

}  // namespace gpusim::stats
