// The timeline trace against the Trace Event Format's rules (as Chrome's and Perfetto's
// importers read them): every event named and of a known phase; slices with a start and
// a duration on a named track of a named process, none partially overlapping another on
// its track (viewers would nest them wrongly); counters with numeric values and units in
// their names. Checked on the traces of the report: the stencil on Volta, and a
// workload with copies on two streams.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/app.hpp"
#include "temp_file.hpp"
#include "test_paths.hpp"

namespace gpusim::report {
namespace {

using nlohmann::json;

json traced(const std::string& arch, const std::string& workload, const std::vector<std::string>& extra) {
  test::TempFile trace("trace.json", "");
  std::vector<std::string> args = {"--arch", test::config_path(arch), "--workload",
                                   test::repo_path("workloads/" + workload + ".yaml"), "--trace", trace.path()};
  args.insert(args.end(), extra.begin(), extra.end());
  std::ostringstream out, err;
  EXPECT_EQ(cli::gpusim_main(args, out, err), 0) << err.str();
  return json::parse(test::read_file(trace.path()));
}

struct Slice {
  double ts, dur;
  std::string name;
};

// Records failures; `slices` counts the slices checked.
void check_trace_event_format(const json& doc, size_t& slices) {
  EXPECT_TRUE(doc.contains("displayTimeUnit"));
  EXPECT_TRUE(doc["traceEvents"].is_array());
  std::set<int> processes;
  std::set<std::pair<int, int>> threads;
  std::map<std::pair<int, int>, std::vector<Slice>> tracks;
  std::set<std::string> counters;
  for (const json& e : doc["traceEvents"]) {
    ASSERT_TRUE(e.contains("name") && e["name"].is_string() && !e["name"].get<std::string>().empty()) << e.dump();
    const std::string ph = e["ph"];
    ASSERT_TRUE(e["pid"].is_number_integer()) << e.dump();
    const int pid = e["pid"];
    if (ph == "M") {
      ASSERT_TRUE(e["args"].is_object()) << e.dump();
      if (e["name"] == "process_name") processes.insert(pid);
      if (e["name"] == "thread_name") threads.insert({pid, e["tid"].get<int>()});
      if (e["name"] == "process_name" || e["name"] == "thread_name") {
        EXPECT_FALSE(e["args"]["name"].get<std::string>().empty()) << e.dump();
      }
    } else if (ph == "X") {
      ASSERT_TRUE(e["ts"].is_number() && e["dur"].is_number() && e["tid"].is_number_integer()) << e.dump();
      EXPECT_GE(e["ts"].get<double>(), 0.0);
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      tracks[{pid, e["tid"].get<int>()}].push_back({e["ts"], e["dur"], e["name"]});
    } else if (ph == "C") {
      ASSERT_TRUE(e["ts"].is_number() && e["args"].is_object() && !e["args"].empty()) << e.dump();
      for (const auto& [series, value] : e["args"].items()) EXPECT_TRUE(value.is_number()) << e.dump();
      counters.insert(e["name"]);
    } else {
      ADD_FAILURE() << "unexpected phase " << ph;
    }
  }
  for (const std::string& c : counters) EXPECT_NE(c.find('('), std::string::npos) << "counter without a unit: " << c;
  slices = 0;
  for (auto& [track, list] : tracks) {
    EXPECT_TRUE(processes.contains(track.first)) << "unnamed process " << track.first;
    EXPECT_TRUE(threads.contains(track)) << "unnamed track " << track.first << "/" << track.second;
    std::stable_sort(list.begin(), list.end(), [](const Slice& a, const Slice& b) { return a.ts < b.ts; });
    // A slice begun inside another must end inside it (nesting); ours do not nest at all.
    for (size_t k = 1; k < list.size(); ++k)
      EXPECT_GE(list[k].ts, list[k - 1].ts + list[k - 1].dur - 1e-9)
          << "partial overlap on " << track.first << "/" << track.second << ": " << list[k - 1].name << " and "
          << list[k].name;
    slices += list.size();
  }
}

TEST(Trace, FollowsTheTraceEventFormatWithBlocksOnSlotTracks) {
  const json doc = traced("volta", "stencil", {"--trace-warps"});
  size_t slices = 0;
  check_trace_event_format(doc, slices);
  EXPECT_GT(slices, 4096u);  // every block and warp of the stencil
  std::set<std::string> names;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "thread_name") names.insert(e["args"]["name"]);
  for (const char* track : {"block slot 0", "warp slot 0", "stream 0"}) EXPECT_TRUE(names.contains(track)) << track;
}

TEST(Trace, HasStreamsCopyEnginesAndCounters) {
  const json doc = traced("volta", "streams", {});
  size_t slices = 0;
  check_trace_event_format(doc, slices);
  std::set<std::string> tracks, counters;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") tracks.insert(e["args"]["name"]);
    if (e["ph"] == "C") counters.insert(e["name"]);
  }
  for (const char* track : {"stream 1", "stream 2", "copy engine 0", "copy engine 1"})
    EXPECT_TRUE(tracks.contains(track)) << track;
  for (const char* counter : {"IPC (warp instructions/cycle, GPU)", "Active warps (GPU)", "DRAM bandwidth (GB/s)",
                              "L2 hit rate (%)"})
    EXPECT_TRUE(counters.contains(counter)) << counter;
}

}  // namespace
}  // namespace gpusim::report
