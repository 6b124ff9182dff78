// Every declared metric reaches every format: the JSON object of a launch has each key in
// its group, the CSV a column each, and the text every metric with a value (summary lines,
// then the rest); counter sums over SMs walk the declarations.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "arch/arch_loader.hpp"
#include "driver/timing_run.hpp"
#include "frontend/kernel_loader.hpp"
#include "stats/metrics.hpp"
#include "stats/timing_report.hpp"
#include "test_paths.hpp"

namespace gpusim::stats {
namespace {

struct Reports {
  arch::ArchConfig arch;
  workload::Workload w;
  driver::TimingRun run;
  std::string text, json, csv;
};

Reports reports(const char* config, const char* workload, const std::vector<std::string>& sets) {
  Reports r{arch::load_arch_config(test::config_path(config)),
            workload::load_workload(test::repo_path(std::string("workloads/") + workload + ".yaml"), sets), {}, "", "", ""};
  const auto k = frontend::load_kernel(r.w.kernel.source, r.w.kernel.ptx, r.w.kernel.entry, r.arch.gpu.compute_capability);
  r.run = driver::run_timed(r.arch, r.w, k.module, [&](const std::string&) { return k.registers.value_or(32); }, {});
  ReportContext ctx;
  ctx.arch = &r.arch;
  ctx.workload = &r.w;
  std::ostringstream t, j, c;
  write_timing_text(t, ctx, r.run);
  write_timing_json(j, ctx, r.run);
  write_timing_csv(c, ctx, r.run);
  r.text = t.str(), r.json = j.str(), r.csv = c.str();
  return r;
}

TEST(Metrics, EveryFormatCarriesEveryMetric) {
  // The tiled transpose uses shared memory, L1 and L2, and DRAM: most metrics are non-zero.
  const Reports r = reports("hopper", "transpose_tiled", {});
  const nlohmann::json doc = nlohmann::json::parse(r.json);
  const nlohmann::json& launch = doc["kernels"][0];
  const LaunchView view = make_view(r.arch, r.run.launches[0].stats);
  std::set<std::string> keys;
  for (const LaunchMetric& m : launch_metrics()) {
    EXPECT_TRUE(keys.insert(m.group + "." + m.key).second) << "declared twice: " << m.key;
    const nlohmann::json& at = m.group.empty() ? launch : launch[m.group];
    ASSERT_TRUE(at.contains(m.key)) << m.key;
    EXPECT_DOUBLE_EQ(at[m.key].get<double>(), as_double(m.value(view))) << m.key;
    const std::string column = m.group == "stalls" ? "stall_" + m.key : m.key;
    EXPECT_NE(r.csv.find("," + column + ","), std::string::npos) << column;
    EXPECT_FALSE(m.unit.empty()) << m.key;
    EXPECT_FALSE(m.description.empty()) << m.key;
    // The text shows every metric's value as declared (the stall lines only those with cycles).
    if (m.group == "stalls" && as_double(m.value(view)) == 0) continue;
    EXPECT_NE(r.text.find(format_value(m.value(view), m.style)), std::string::npos) << m.key;
  }
  // Under Nsight Compute's names, in Nsight's units: each name once, the value scaled.
  std::set<std::string> ncu_names;
  for (const LaunchMetric& m : launch_metrics()) {
    if (m.ncu.empty()) continue;
    EXPECT_TRUE(ncu_names.insert(m.ncu).second) << "Nsight name used twice: " << m.ncu;
    ASSERT_TRUE(launch["ncu"].contains(m.ncu)) << m.ncu;
    EXPECT_NEAR(launch["ncu"][m.ncu].get<double>(), as_double(m.value(view)) * m.ncu_scale,
                1e-9 * std::max(1.0, std::abs(as_double(m.value(view)) * m.ncu_scale)))
        << m.ncu;
    EXPECT_NE(r.csv.find("," + m.ncu), std::string::npos) << m.ncu;
  }
  EXPECT_DOUBLE_EQ(launch["ncu"]["lts__t_sector_hit_rate.pct"].get<double>(), 100 * launch["memory"]["l2_hit_rate"].get<double>());
  // One CSV header and one row per launch, with as many fields.
  std::istringstream csv(r.csv);
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(row.begin(), row.end(), ','));
}

TEST(Metrics, SumsWalkTheDeclaredCounters) {
  core::LaunchStats s;
  s.per_sm.resize(3);
  for (size_t i = 0; i < 3; ++i) {
    s.per_sm[i].warp_instructions = 10 * (i + 1);
    s.per_sm[i].shared_passes = 7;
    s.per_sm[i].stalls[2] = i;
  }
  const core::SmStats t = s.total();
  EXPECT_EQ(t.warp_instructions, 60u);
  EXPECT_EQ(t.shared_passes, 21u);
  EXPECT_EQ(t.stalls[2], 3u);
  memory::MemoryStats a, b;
  a.l2_hits = 9, b.l2_hits = 4, a.dram_write_bytes = 64;
  const memory::MemoryStats d = a - b;
  EXPECT_EQ(d.l2_hits, 5u);
  EXPECT_EQ(d.dram_write_bytes, 64u);
}

}  // namespace
}  // namespace gpusim::stats
