#include "stats/printf_output.hpp"

#include <sstream>

namespace gpusim::stats {
namespace {

std::string triple(const std::array<uint32_t, 3>& v) {
  std::ostringstream s;
  s << '(' << v[0] << ',' << v[1] << ',' << v[2] << ')';
  return s.str();
}

}  // namespace

void write_printf_text(std::ostream& out, const exec::PrintfSink& sink) {
  if (sink.records.empty() && sink.dropped == 0) return;
  out << "  printf output (" << sink.records.size() << " calls, in simulated order):\n";
  for (const exec::PrintfRecord& r : sink.records) {
    out << "    [block " << triple(r.block) << " thread " << triple(r.thread) << "] " << r.text;
    if (r.text.empty() || r.text.back() != '\n') out << '\n';
  }
  if (sink.dropped)
    out << "    (" << sink.dropped << " more calls dropped: the 1 MB printf buffer is full, as on the GPU)\n";
}

nlohmann::ordered_json printf_json(const exec::PrintfSink& sink) {
  nlohmann::ordered_json j = {{"calls", nlohmann::ordered_json::array()}, {"dropped", sink.dropped}};
  for (const exec::PrintfRecord& r : sink.records)
    j["calls"].push_back({{"block", r.block}, {"thread", r.thread}, {"text", r.text}});
  return j;
}

void write_out_of_bounds_text(std::ostream& out, const exec::OutOfBoundsLog& log) {
  if (log.total() == 0) return;
  out << "  out-of-bounds accesses (--out-of-bounds continue; loads read 0, stores dropped): " << log.total() << " ("
      << log.loads << " loads, " << log.stores << " stores or atomics)\n";
  for (const exec::OutOfBoundsLog::Site& s : log.sites)
    out << "    " << s.count << (s.count == 1 ? " access" : " accesses") << ", the first: " << s.first << "\n";
  if (log.unlisted) out << "    " << log.unlisted << " more by other instructions\n";
}

nlohmann::ordered_json out_of_bounds_json(const exec::OutOfBoundsLog& log) {
  nlohmann::ordered_json j = {{"loads", log.loads}, {"stores", log.stores}, {"unlisted", log.unlisted},
                              {"sites", nlohmann::ordered_json::array()}};
  for (const exec::OutOfBoundsLog::Site& s : log.sites) j["sites"].push_back({{"pc", s.pc}, {"count", s.count}, {"first", s.first}});
  return j;
}

}  // namespace gpusim::stats
