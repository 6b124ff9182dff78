// Reports of a timed run: where every cycle went, per launch and in total, as text, JSON
// or CSV. Each writer walks the declared metrics (stats/metrics.hpp), so every format
// carries every metric.
#pragma once

#include <ostream>
#include <string>

#include "arch/arch_config.hpp"
#include "driver/timing_run.hpp"
#include "report/source_view.hpp"

namespace gpusim::stats {

struct ReportContext {
  const arch::ArchConfig* arch = nullptr;
  const workload::Workload* workload = nullptr;
  std::string kernel_source;
  std::string registers_origin;
  bool per_sm = false;
  std::vector<report::SourceView> source_views;  // with --source
  size_t source_top = 10;
};

void write_timing_text(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run);
void write_timing_json(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run);
// One row per launch: the launch's identity, then every launch metric (stalls as
// stall_NAME); per-SM figures are in the text and JSON reports.
void write_timing_csv(std::ostream& out, const ReportContext& ctx, const driver::TimingRun& run);

// "AxBxC"
std::string dims_text(const std::array<int64_t, 3>& d);

}  // namespace gpusim::stats
