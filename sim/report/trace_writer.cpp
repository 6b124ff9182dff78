#include "report/trace_writer.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "stats/json_output.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kCountersPid = 0, kStreamsPid = 1, kEnginesPid = 2, kFirstSmPid = 10;
constexpr uint32_t kFirstWarpTid = 1000;  // warp-slot tracks after the block-slot tracks

class Trace {
 public:
  explicit Trace(double mhz) : mhz_(mhz) {}

  void process(int pid, const std::string& name) {
    events_.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}});
    events_.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
  }
  // A slice on (pid, tid), named once per track; a slice starting before the track's last
  // end starts at that end (a slot freed and refilled in the same cycle).
  void slice(int pid, uint32_t tid, const std::string& track, const std::string& name, uint64_t start, uint64_t end,
             Json args) {
    uint64_t& last = track_end_[{pid, tid}];
    if (!named_.contains({pid, tid})) {
      named_.insert({pid, tid});
      events_.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", track}}}});
      events_.push_back(
          {{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
    }
    start = std::max(start, last);
    end = std::max(end, start);
    last = end;
    args["start_cycle"] = start;
    args["end_cycle"] = end;
    events_.push_back({{"name", name}, {"ph", "X"}, {"pid", pid}, {"tid", tid}, {"ts", us(start)},
                       {"dur", us(end) - us(start)}, {"args", std::move(args)}});
  }
  void counter(const std::string& name, uint64_t at, double value) {
    events_.push_back({{"name", name}, {"ph", "C"}, {"pid", kCountersPid}, {"ts", us(at)}, {"args", {{"value", value}}}});
  }
  Json finish() {
    return Json{{"displayTimeUnit", "ns"},
                {"otherData", {{"time_unit", "us"}, {"core_clock_mhz", mhz_}}},
                {"traceEvents", std::move(events_)}};
  }

 private:
  double us(uint64_t cycle) const { return static_cast<double>(cycle) / mhz_; }
  double mhz_;
  Json events_ = Json::array();
  std::map<std::pair<int, uint32_t>, uint64_t> track_end_;
  std::set<std::pair<int, uint32_t>> named_;
};

// Rates over each sampling interval of a launch, drawn from the interval's start.
void counters(Trace& t, const arch::ArchConfig& arch, const driver::TimedLaunch& l) {
  const std::vector<core::CounterSample>& s = l.stats.samples;
  for (size_t k = 0; k + 1 < s.size(); ++k) {
    const core::CounterSample &a = s[k], &b = s[k + 1];
    const double cycles = static_cast<double>(b.cycle - a.cycle);
    if (cycles <= 0) continue;
    const uint64_t at = l.start + a.cycle;
    t.counter("IPC (warp instructions/cycle, GPU)", at, static_cast<double>(b.warp_instructions - a.warp_instructions) / cycles);
    t.counter("Active warps (GPU)", at, static_cast<double>(a.active_warps));
    // bytes per cycle x cycles per second = bytes per second
    t.counter("DRAM bandwidth (GB/s)", at,
              static_cast<double>(b.dram_bytes - a.dram_bytes) / cycles * arch.gpu.core_clock_mhz * 1e6 / 1e9);
    const uint64_t lookups = b.l2_lookups - a.l2_lookups;
    t.counter("L2 hit rate (%)", at, lookups ? 100.0 * static_cast<double>(b.l2_hits - a.l2_hits) / static_cast<double>(lookups) : 0.0);
  }
  if (!s.empty()) {  // back to zero after the launch
    const uint64_t end = l.start + s.back().cycle;
    for (const char* name : {"IPC (warp instructions/cycle, GPU)", "Active warps (GPU)", "DRAM bandwidth (GB/s)", "L2 hit rate (%)"})
      t.counter(name, end, 0.0);
  }
}

}  // namespace

Json trace_json(const arch::ArchConfig& arch, const driver::TimingRun& run) {
  Trace t(arch.gpu.core_clock_mhz);
  t.process(kCountersPid, "GPU counters");
  t.process(kStreamsPid, "Streams");
  t.process(kEnginesPid, "Copy engines");
  for (int sm = 0; sm < arch.gpu.sm_count; ++sm) t.process(kFirstSmPid + sm, "SM " + std::to_string(sm));
  // Steps in time order, so that each track's slices come in order.
  struct Step {
    uint64_t start;
    const driver::TimedLaunch* launch;
    const driver::TimedCopy* copy;
  };
  std::vector<Step> steps;
  for (const auto& l : run.launches) steps.push_back({l.start, &l, nullptr});
  for (const auto& c : run.copies) steps.push_back({c.start, nullptr, &c});
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.start < b.start; });
  for (const Step& step : steps) {
    if (const driver::TimedCopy* c = step.copy) {
      const std::string name = std::string(c->to_device ? "copy to device " : "copy to host ") + c->buffer;
      const Json args = {{"bytes", c->bytes}, {"pinned", c->pinned}, {"stream", c->stream}};
      t.slice(kStreamsPid, static_cast<uint32_t>(c->stream), "stream " + std::to_string(c->stream), name, c->start, c->end, args);
      t.slice(kEnginesPid, static_cast<uint32_t>(c->engine + 1),
              c->engine < 0 ? "GPU (no copy engine)" : "copy engine " + std::to_string(c->engine), name, c->start, c->end,
              args);
      continue;
    }
    const driver::TimedLaunch& l = *step.launch;
    t.slice(kStreamsPid, static_cast<uint32_t>(l.stream), "stream " + std::to_string(l.stream), l.name, l.start, l.end,
            {{"blocks", l.stats.blocks}, {"cycles", l.stats.cycles}});
    std::vector<core::BlockSlice> blocks = l.stats.blocks_trace;
    std::stable_sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    for (const core::BlockSlice& b : blocks)
      t.slice(kFirstSmPid + static_cast<int>(b.sm), b.slot, "block slot " + std::to_string(b.slot),
              l.name + " block " + std::to_string(b.block), l.start + b.start, l.start + b.end, {{"block", b.block}});
    std::vector<core::WarpSlice> warps = l.stats.warps_trace;
    std::stable_sort(warps.begin(), warps.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    for (const core::WarpSlice& w : warps)
      t.slice(kFirstSmPid + static_cast<int>(w.sm), kFirstWarpTid + w.slot, "warp slot " + std::to_string(w.slot),
              "block " + std::to_string(w.block) + " warp " + std::to_string(w.warp), l.start + w.start, l.start + w.end,
              {{"block", w.block}, {"warp", w.warp}});
    counters(t, arch, l);
  }
  return t.finish();
}

void write_trace(const std::string& path, const arch::ArchConfig& arch, const driver::TimingRun& run) {
  std::ofstream out(path);
  if (!out) throw util::InputError("--trace: cannot write " + path);
  stats::write_json(out, trace_json(arch, run));
  if (!out) throw util::InputError("--trace: writing " + path + " failed");
}

}  // namespace gpusim::report
