#include "stats/trace_writer.hpp"

#include <fstream>

#include "stats/json_writer.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::stats {

void write_trace(const std::string& path, const arch::ArchConfig& arch, const driver::TimingRun& run) {
  std::ofstream out(path);
  if (!out) throw util::InputError("--trace: cannot write " + path);
  const double mhz = arch.gpu.core_clock_mhz;
  JsonWriter j(out);
  j.begin_object().field("displayTimeUnit", "ns");
  j.key("traceEvents").begin_array();
  for (int sm = 0; sm < arch.gpu.sm_count; ++sm) {
    j.begin_object().field("name", "process_name").field("ph", "M").field("pid", sm);
    j.key("args").begin_object().field("name", "SM " + std::to_string(sm)).end_object().end_object();
    j.begin_object().field("name", "process_sort_index").field("ph", "M").field("pid", sm);
    j.key("args").begin_object().field("sort_index", sm).end_object().end_object();
    j.begin_object().field("name", "thread_name").field("ph", "M").field("pid", sm).field("tid", 0);
    j.key("args").begin_object().field("name", "blocks").end_object().end_object();
  }
  for (const driver::TimedLaunch& l : run.launches) {
    const uint64_t offset = l.start;  // where the launch sits on the workload's timeline
    for (const core::BlockSlice& b : l.stats.blocks_trace) {
      j.begin_object().field("name", l.name + " block " + std::to_string(b.block)).field("ph", "X")
          .field("pid", static_cast<int64_t>(b.sm)).field("tid", 0)
          .field("ts", static_cast<double>(offset + b.start) / mhz).field("dur", static_cast<double>(b.end - b.start) / mhz);
      j.key("args").begin_object().field("block", static_cast<int64_t>(b.block))
          .field("start_cycle", static_cast<int64_t>(offset + b.start)).field("end_cycle", static_cast<int64_t>(offset + b.end));
      j.end_object().end_object();
    }
    for (const core::WarpSlice& w : l.stats.warps_trace) {
      j.begin_object().field("name", "block " + std::to_string(w.block) + " warp " + std::to_string(w.warp)).field("ph", "X")
          .field("pid", static_cast<int64_t>(w.sm)).field("tid", static_cast<int64_t>(w.slot) + 1)
          .field("ts", static_cast<double>(offset + w.start) / mhz).field("dur", static_cast<double>(w.end - w.start) / mhz);
      j.end_object();
    }
  }
  j.end_array().end_object();
}

}  // namespace gpusim::stats
