#include "report/source_view.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <sstream>

namespace gpusim::report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using core::InstructionCounters;

double ratio(double a, double b) { return b > 0 ? a / b : 0; }
double d(uint64_t v) { return static_cast<double>(v); }

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

// The workload's own copy first (a cached PTX may name the clone it was compiled in),
// then the file as named, then beside the PTX.
std::string find_source(const std::string& named, const std::vector<std::string>& dirs) {
  std::error_code ec;
  const auto beside = [&](const std::string& dir) { return (fs::path(dir) / fs::path(named).filename()).string(); };
  if (!dirs.empty() && fs::exists(beside(dirs.front()), ec)) return beside(dirs.front());
  if (fs::exists(named, ec)) return named;
  for (const std::string& dir : dirs)
    if (fs::exists(beside(dir), ec)) return beside(dir);
  return named;
}

// Adds the profiles of every launch of one kernel (the same program each time).
struct KernelRuns {
  std::string name;
  int launches = 0;
  core::InstructionProfile profile;
};

std::vector<KernelRuns> by_kernel(const driver::TimingRun& run) {
  std::vector<KernelRuns> out;
  for (const driver::TimedLaunch& l : run.launches) {
    if (l.stats.profile.empty()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const KernelRuns& k) { return k.name == l.name; });
    if (it == out.end()) it = out.insert(out.end(), KernelRuns{l.name, 0, {}});
    ++it->launches;
    it->profile.add(l.stats.profile);
  }
  return out;
}

SourceView build_view(KernelRuns runs, const std::vector<std::string>& dirs) {
  SourceView v;
  v.kernel = runs.name;
  v.launches = runs.launches;
  v.profile = std::move(runs.profile);
  const core::InstructionProfile& p = v.profile;
  const std::vector<std::string> ptx = read_lines(p.ptx_file);
  for (const core::InstructionSite& s : p.sites) {
    v.ptx_text.push_back(s.ptx_line > 0 && static_cast<size_t>(s.ptx_line) <= ptx.size()
                             ? trimmed(ptx[static_cast<size_t>(s.ptx_line) - 1])
                             : "");
    v.line_info |= s.source_line > 0 && s.source_file < p.source_files.size();
  }
  // Instructions in PTX order, grouped by line.
  std::vector<size_t> order(p.sites.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p.sites[a].ptx_line < p.sites[b].ptx_line; });
  std::map<std::pair<std::string, int32_t>, SourceLine> lines;
  std::map<std::string, std::vector<std::string>> files;
  for (size_t i : order) {
    const core::InstructionSite& s = p.sites[i];
    const bool cuda = v.line_info && s.source_line > 0 && s.source_file < p.source_files.size();
    const std::string file = cuda ? find_source(p.source_files[s.source_file], dirs) : p.ptx_file;
    const int32_t line = cuda ? s.source_line : s.ptx_line;
    SourceLine& sl = lines[{file, line}];
    if (sl.instructions.empty()) {
      sl.file = file;
      sl.line = line;
      if (!files.contains(file)) files[file] = read_lines(file);
      const std::vector<std::string>& text = files[file];
      if (line > 0 && static_cast<size_t>(line) <= text.size()) sl.text = trimmed(text[static_cast<size_t>(line) - 1]);
    }
    sl.instructions.push_back(i);
    sl.counters.add(p.counters[i]);
    v.total.add(p.counters[i]);
  }
  for (auto& [key, line] : lines) v.lines.push_back(std::move(line));
  std::stable_sort(v.lines.begin(), v.lines.end(), [](const SourceLine& a, const SourceLine& b) {
    return a.counters.total_warp_cycles() > b.counters.total_warp_cycles();
  });
  return v;
}

// "long_scoreboard 71%, wait 12%": the largest warp states, over `min_share`.
std::string top_states(const InstructionCounters& c, size_t count, double min_share) {
  std::vector<std::pair<uint64_t, int>> states;
  for (int s = 0; s < core::kWarpStateCount; ++s)
    if (c.warp_cycles[static_cast<size_t>(s)]) states.push_back({c.warp_cycles[static_cast<size_t>(s)], s});
  std::stable_sort(states.begin(), states.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const double total = d(c.total_warp_cycles());
  std::string out;
  for (size_t k = 0; k < states.size() && k < count; ++k) {
    const double share = ratio(d(states[k].first), total);
    if (k > 0 && share < min_share) break;
    if (!out.empty()) out += ", ";
    out += std::string(core::warp_state_name(states[k].second)) + " " + fixed(100 * share, 0) + "%";
  }
  return out;
}

std::string memory_summary(const InstructionCounters& c) {
  std::string out;
  const auto add = [&](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  for (const SourceField& m : source_fields()) {
    if (!*m.label || !m.applies(c)) continue;
    const double v = m.value(c);
    add(m.percent ? std::string(m.label) + " " + fixed(100 * v, 0) + "%" : fixed(v, 1) + " " + m.label);
  }
  return out;
}

Json counters_json(const InstructionCounters& c, uint64_t total_cycles) {
  Json j;
  for (const auto& k : InstructionCounters::counters()) j[std::string(k.name)] = c.*k.member;
  j["warp_cycles"] = c.total_warp_cycles();
  j["warp_cycles_share"] = ratio(d(c.total_warp_cycles()), d(total_cycles));
  Json states = Json::object();
  for (int s = 0; s < core::kWarpStateCount; ++s)
    if (c.warp_cycles[static_cast<size_t>(s)]) states[core::warp_state_name(s)] = c.warp_cycles[static_cast<size_t>(s)];
  j["warp_states"] = std::move(states);
  for (const SourceField& m : source_fields())
    if (m.applies(c)) j[m.key] = m.value(c);
  return j;
}

}  // namespace

const std::vector<SourceField>& source_fields() {
  using C = const InstructionCounters&;
  static const std::vector<SourceField> list{
      {"threads_per_execution", "", "active lanes per warp execution (divergence lowers it; "
       "smsp__thread_inst_executed_per_inst_executed.ratio)", false,
       [](C c) { return ratio(d(c.thread_executions), d(c.warp_executions)); }, [](C c) { return c.warp_executions > 0; }},
      {"sectors_per_request", "sectors/req", "global sectors per global request (1 to 4 when coalesced, 32 when every lane "
       "touches its own sector)", false, [](C c) { return ratio(d(c.global_sectors), d(c.global_requests)); },
       [](C c) { return c.global_requests > 0; }},
      {"l1_hit_rate", "L1", "L1 sector hits / lookups", true,
       [](C c) { return ratio(d(c.l1_hit_sectors), d(c.l1_hit_sectors + c.l1_miss_sectors)); },
       [](C c) { return c.l1_hit_sectors + c.l1_miss_sectors > 0; }},
      {"l2_hit_rate", "L2", "L2 sector hits / reads", true,
       [](C c) { return ratio(d(c.l2_hit_sectors), d(c.l2_hit_sectors + c.l2_miss_sectors)); },
       [](C c) { return c.l2_hit_sectors + c.l2_miss_sectors > 0; }},
      {"bank_passes_per_request", "bank passes/req", "shared-memory bank passes per request (1: no conflict)", false,
       [](C c) { return ratio(d(c.shared_passes), d(c.shared_requests)); }, [](C c) { return c.shared_requests > 0; }},
  };
  return list;
}

std::vector<SourceView> build_source_views(const driver::TimingRun& run, const std::vector<std::string>& search_dirs) {
  std::vector<SourceView> views;
  for (KernelRuns& k : by_kernel(run)) views.push_back(build_view(std::move(k), search_dirs));
  return views;
}

void write_source_text(std::ostream& out, const std::vector<SourceView>& views, size_t top) {
  for (const SourceView& v : views) {
    const uint64_t total = v.total.total_warp_cycles();
    out << "\nSource view: " << v.kernel << " (" << v.launches << (v.launches == 1 ? " launch" : " launches") << "; "
        << (v.line_info ? "CUDA lines" : "PTX lines: the PTX has no line information (nvcc -lineinfo)") << ")\n";
    out << "  " << total << " warp cycles over " << v.total.warp_executions << " warp instructions: "
        << fixed(ratio(d(total), d(v.total.warp_executions)), 2) << " per instruction; "
        << top_states(v.total, 6, 0.01) << "\n";
    out << "  Hottest lines (warp cycles charged to the instruction each warp waited to issue):\n";
    out << "    " << std::left << std::setw(22) << "line" << std::right << std::setw(7) << "cycles" << std::setw(11)
        << "warp inst" << std::setw(9) << "lanes" << "  where the warps were; memory\n";
    for (size_t k = 0; k < v.lines.size() && k < top; ++k) {
      const SourceLine& l = v.lines[k];
      const InstructionCounters& c = l.counters;
      if (c.total_warp_cycles() == 0 && c.warp_executions == 0) break;
      const std::string where = fs::path(l.file).filename().string() + ":" + std::to_string(l.line);
      out << "    " << std::left << std::setw(22) << where << std::right << std::setw(6)
          << fixed(100 * ratio(d(c.total_warp_cycles()), d(total)), 1) << "%" << std::setw(11) << c.warp_executions
          << std::setw(9) << fixed(ratio(d(c.thread_executions), d(c.warp_executions)), 1) << "  "
          << top_states(c, 3, 0.05);
      const std::string mem = memory_summary(c);
      if (!mem.empty()) out << "; " << mem;
      out << "\n";
      if (!l.text.empty()) out << "        | " << l.text << "\n";
    }
    // Each file's lines in order, from the first line with instructions to the last.
    std::map<std::string, std::map<int32_t, const SourceLine*>> by_file;
    for (const SourceLine& l : v.lines) by_file[l.file][l.line] = &l;
    for (const auto& [file, lines] : by_file) {
      const std::vector<std::string> text = read_lines(file);
      out << "  Annotated " << file << " (share of warp cycles, warp instructions):\n";
      const int32_t first = std::max(1, lines.begin()->first), last = lines.rbegin()->first;
      for (int32_t n = first; n <= last; ++n) {
        const auto it = lines.find(n);
        out << "    " << std::right << std::setw(5) << n;
        if (it != lines.end())
          out << std::setw(7) << fixed(100 * ratio(d(it->second->counters.total_warp_cycles()), d(total)), 1) << "%"
              << std::setw(10) << it->second->counters.warp_executions;
        else
          out << std::setw(18) << "";
        out << " | " << (n > 0 && static_cast<size_t>(n) <= text.size() ? text[static_cast<size_t>(n) - 1] : "") << "\n";
      }
    }
  }
}

Json source_json(const SourceView& v) {
  const uint64_t total = v.total.total_warp_cycles();
  Json j = {{"kernel", v.kernel}, {"launches", v.launches}, {"line_info", v.line_info}, {"ptx_file", v.profile.ptx_file}};
  j["total"] = counters_json(v.total, total);
  j["lines"] = Json::array();
  for (const SourceLine& l : v.lines) {
    Json row = {{"file", l.file}, {"line", l.line}, {"text", l.text}};
    row.update(counters_json(l.counters, total));
    row["instructions"] = l.instructions;
    j["lines"].push_back(std::move(row));
  }
  j["instructions"] = Json::array();
  for (size_t i = 0; i < v.profile.sites.size(); ++i) {
    const core::InstructionSite& s = v.profile.sites[i];
    Json row = {{"index", i}, {"ptx_line", s.ptx_line}, {"ptx", v.ptx_text[i]}, {"source_line", s.source_line}};
    row.update(counters_json(v.profile.counters[i], total));
    j["instructions"].push_back(std::move(row));
  }
  return j;
}

}  // namespace gpusim::report
