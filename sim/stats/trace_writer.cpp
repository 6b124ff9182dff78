#include "stats/trace_writer.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "stats/json_output.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::stats {

void write_trace(const std::string& path, const arch::ArchConfig& arch, const driver::TimingRun& run) {
  using Json = nlohmann::ordered_json;
  std::ofstream out(path);
  if (!out) throw util::InputError("--trace: cannot write " + path);
  const double mhz = arch.gpu.core_clock_mhz;
  Json events = Json::array();
  for (int sm = 0; sm < arch.gpu.sm_count; ++sm) {
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", sm}, {"args", {{"name", "SM " + std::to_string(sm)}}}});
    events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", sm}, {"args", {{"sort_index", sm}}}});
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", sm}, {"tid", 0}, {"args", {{"name", "blocks"}}}});
  }
  for (const driver::TimedLaunch& l : run.launches) {
    const uint64_t offset = l.start;  // where the launch sits on the workload's timeline
    for (const core::BlockSlice& b : l.stats.blocks_trace)
      events.push_back({{"name", l.name + " block " + std::to_string(b.block)},
                        {"ph", "X"},
                        {"pid", b.sm},
                        {"tid", 0},
                        {"ts", static_cast<double>(offset + b.start) / mhz},
                        {"dur", static_cast<double>(b.end - b.start) / mhz},
                        {"args", {{"block", b.block}, {"start_cycle", offset + b.start}, {"end_cycle", offset + b.end}}}});
    for (const core::WarpSlice& w : l.stats.warps_trace)
      events.push_back({{"name", "block " + std::to_string(w.block) + " warp " + std::to_string(w.warp)},
                        {"ph", "X"},
                        {"pid", w.sm},
                        {"tid", w.slot + 1},
                        {"ts", static_cast<double>(offset + w.start) / mhz},
                        {"dur", static_cast<double>(w.end - w.start) / mhz}});
  }
  write_json(out, Json{{"displayTimeUnit", "ns"}, {"traceEvents", std::move(events)}});
  if (!out) throw util::InputError("--trace: writing " + path + " failed");
}

}  // namespace gpusim::stats
