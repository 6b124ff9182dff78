#include "study/results_report.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "study/metric_columns.hpp"

namespace gpusim::study {
namespace {

std::string csv_field(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "";
  if (!v.is_string()) return v.dump();
  const std::string s = v.get<std::string>();
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string significant(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string context_where(const std::string& alias) {
  return alias + ".study = ? AND " + alias + ".arch_file = ? AND " + alias + ".workload_file = ? AND " + alias +
         ".size = ?";
}

void bind_context(Statement& s, const Context& c, int first = 1) {
  s.bind(first, c.study).bind(first + 1, c.arch_file).bind(first + 2, c.workload_file).bind(first + 3, c.size);
}

std::string pad(const std::string& s, size_t width) { return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' '); }

}  // namespace

std::string Context::label() const {
  return workload + (size.empty() ? "" : " (" + size + ")") + " on " + arch + " [" + arch_file + ", " + workload_file + "]";
}

std::vector<Context> contexts(const ResultsDb& db, const std::string& study) {
  Statement s(db.handle(),
              "SELECT study, arch_file, MAX(arch), workload_file, MAX(workload), size, MAX(design), "
              "SUM(status = 'ok'), SUM(status = 'failed'), MIN(id) FROM points "
              "WHERE ? = '' OR study = ? GROUP BY study, arch_file, workload_file, size ORDER BY MIN(id)");
  s.bind(1, study).bind(2, study);
  std::vector<Context> out;
  while (s.step())
    out.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6),
                   static_cast<size_t>(s.integer(7)), static_cast<size_t>(s.integer(8)), {}});
  for (Context& c : out) {
    // The factors of the context's latest point (a study file may have changed since).
    Statement f(db.handle(), "SELECT f.name FROM factors f WHERE f.point_id = (SELECT MAX(p.id) FROM points p WHERE " +
                                 context_where("p") + ") ORDER BY f.ordinal");
    bind_context(f, c);
    while (f.step()) c.factors.push_back(f.text(0));
  }
  return out;
}

std::vector<Observation> observations(const ResultsDb& db, const Context& c, const std::string& metric) {
  Statement s(db.handle(), "SELECT p.id, " + point_metric_sql(metric) +
                               " FROM points p JOIN launches l ON l.point_id = p.id WHERE p.status = 'ok' AND " +
                               context_where("p") + " GROUP BY p.id ORDER BY p.id");
  bind_context(s, c);
  std::map<int64_t, Observation> by_id;
  std::vector<int64_t> order;
  while (s.step()) {
    if (s.is_null(1)) continue;
    Observation o;
    o.values.resize(c.factors.size());
    o.numbers.resize(c.factors.size());
    o.baseline.assign(c.factors.size(), false);
    o.metric = s.real(1);
    by_id.emplace(s.integer(0), std::move(o));
    order.push_back(s.integer(0));
  }
  Statement f(db.handle(), "SELECT f.point_id, f.name, f.value, f.number, f.baseline FROM factors f JOIN points p ON "
                           "p.id = f.point_id WHERE " + context_where("p"));
  bind_context(f, c);
  std::map<int64_t, size_t> seen;
  while (f.step()) {
    const auto it = by_id.find(f.integer(0));
    if (it == by_id.end()) continue;
    const auto pos = std::find(c.factors.begin(), c.factors.end(), f.text(1));
    if (pos == c.factors.end()) continue;
    const auto i = static_cast<size_t>(pos - c.factors.begin());
    it->second.values[i] = f.text(2);
    if (!f.is_null(3)) it->second.numbers[i] = f.real(3);
    it->second.baseline[i] = f.integer(4) != 0;
    ++seen[f.integer(0)];
  }
  std::vector<Observation> out;
  for (const int64_t id : order)  // points of another factor set (the study changed) are left out
    if (seen[id] == c.factors.size()) out.push_back(std::move(by_id[id]));
  return out;
}

void write_rows(const ResultsDb& db, const std::string& study, bool jsonl, std::ostream& out) {
  std::vector<std::string> factor_names;
  {
    Statement f(db.handle(), "SELECT DISTINCT f.name FROM factors f JOIN points p ON p.id = f.point_id "
                             "WHERE ? = '' OR p.study = ? ORDER BY f.ordinal, f.name");
    f.bind(1, study).bind(2, study);
    while (f.step())
      if (std::find(factor_names.begin(), factor_names.end(), f.text(0)) == factor_names.end())
        factor_names.push_back(f.text(0));
  }
  Statement p(db.handle(),
              "SELECT p.id AS point, p.study, p.design, p.arch_file, p.arch, p.workload_file, p.workload, p.size, "
              "p.status, p.error, p.seconds, p.total_cycles, p.total_time_us, p.check_passed, p.gpusim_version, "
              "p.config_hash, l.* FROM points p LEFT JOIN launches l ON l.point_id = p.id "
              "WHERE ? = '' OR p.study = ? ORDER BY p.id, l.launch");
  p.bind(1, study).bind(2, study);
  std::map<int64_t, std::map<std::string, std::string>> factors;
  {
    Statement f(db.handle(), "SELECT point_id, name, value FROM factors");
    while (f.step()) factors[f.integer(0)][f.text(1)] = f.text(2);
  }
  bool header = false;
  while (p.step()) {
    nlohmann::ordered_json row;
    const int64_t id = p.integer(0);
    for (int i = 0; i < p.columns(); ++i) {
      const std::string name = p.column_name(i);
      if (name == "point_id") continue;
      if (name == "config_hash") {  // factors after the point's identity, before the launch
        row[name] = p.json(i);
        for (const std::string& f : factor_names) {
          const auto it = factors[id].find(f);
          row["factor." + f] = it == factors[id].end() ? nlohmann::ordered_json() : nlohmann::ordered_json(it->second);
        }
        continue;
      }
      row[name] = p.json(i);
    }
    if (jsonl) {
      out << row.dump() << '\n';
      continue;
    }
    if (!header) {
      bool first = true;
      for (const auto& [k, v] : row.items()) out << (first ? "" : ",") << csv_field(k), first = false;
      out << '\n';
      header = true;
    }
    bool first = true;
    for (const auto& [k, v] : row.items()) out << (first ? "" : ",") << csv_field(v), first = false;
    out << '\n';
  }
}

std::vector<std::string> study_metrics(const ResultsDb& db, const std::string& study) {
  std::vector<std::string> out;
  for (const Context& c : contexts(db, study))
    if (const auto m = db.meta("metrics:" + c.study))
      for (const auto& name : nlohmann::json::parse(*m, nullptr, false))
        if (name.is_string() && std::find(out.begin(), out.end(), name.get<std::string>()) == out.end())
          out.push_back(name.get<std::string>());
  if (out.empty()) out.push_back("cycles");
  return out;
}

void write_summary(const ResultsDb& db, const std::string& study, const std::vector<std::string>& metrics,
                   std::ostream& out) {
  const std::vector<Context> all = contexts(db, study);
  size_t ok = 0, failed = 0;
  for (const Context& c : all) ok += c.ok, failed += c.failed;
  out << db.path() << ": " << ok + failed << " points (" << ok << " ok, " << failed << " failed) in " << all.size()
      << " architecture x workload contexts\n";
  for (const Context& c : all) {
    out << "\n" << c.study << " (" << c.design << "): " << c.label() << ": " << c.ok << " ok, " << c.failed << " failed\n";
    for (const std::string& metric : metrics) {
      const Analysis a = analyse(c.factors, observations(db, c, metric));
      if (a.factors.empty()) continue;
      out << "  what matters for " << metric << " ("
          << (a.baseline_metric ? "normalised to the baseline point, " + significant(*a.baseline_metric)
                                : "no baseline point: normalised to the geometric mean, " + significant(a.reference))
          << ")\n";
      out << "    " << pad("factor", 34) << pad("baseline", 12) << pad("low", 8) << pad("high", 8) << pad("swing", 9)
          << "elasticity\n";
      for (const FactorEffect& e : a.factors) {
        const bool seen = !e.method.empty();
        std::string elasticity = "-";
        if (e.elasticity) {  // three decimals, and no "-0.000"
          const double v = std::fabs(*e.elasticity) < 5e-4 ? 0.0 : *e.elasticity;
          elasticity = fixed(v, 3);
          if (v > 0) elasticity.insert(0, 1, '+');
        }
        out << "    " << pad(e.name, 34) << pad(e.baseline_value, 12) << pad(seen ? fixed(e.low, 3) : "-", 8)
            << pad(seen ? fixed(e.high, 3) : "-", 8) << pad(seen ? fixed(e.swing, 2) + "x" : "-", 9) << elasticity
            << (e.method == "regression" ? "  (fit over all points)" : "") << '\n';
      }
    }
  }
  Statement f(db.handle(), "SELECT key, error FROM points WHERE status = 'failed' AND (? = '' OR study = ?) ORDER BY id");
  f.bind(1, study).bind(2, study);
  bool any = false;
  while (f.step()) {
    if (!any) out << "\nfailed points:\n";
    any = true;
    out << "  " << f.text(0) << "\n    " << f.text(1) << '\n';
  }
}

nlohmann::ordered_json analysis_json(const ResultsDb& db, const std::string& study, const std::vector<std::string>& metrics) {
  nlohmann::ordered_json out = {{"database", db.path()}, {"contexts", nlohmann::ordered_json::array()}};
  const auto num = [](double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); };
  for (const Context& c : contexts(db, study)) {
    nlohmann::ordered_json jc = {{"study", c.study},   {"design", c.design},     {"arch", c.arch},
                                 {"arch_file", c.arch_file}, {"workload", c.workload}, {"workload_file", c.workload_file},
                                 {"size", c.size},     {"label", c.label()},     {"ok", c.ok},
                                 {"failed", c.failed}, {"factors", c.factors},   {"metrics", nlohmann::ordered_json::object()}};
    for (const std::string& metric : metrics) {
      const Analysis a = analyse(c.factors, observations(db, c, metric));
      nlohmann::ordered_json jm = {{"baseline", a.baseline_metric ? num(*a.baseline_metric) : nlohmann::ordered_json()},
                                   {"reference", num(a.reference)},
                                   {"effects", nlohmann::ordered_json::array()},
                                   {"pairs", nlohmann::ordered_json::array()}};
      for (const FactorEffect& e : a.factors) {
        nlohmann::ordered_json je = {{"factor", e.name},       {"numeric", e.numeric}, {"baseline", e.baseline_value},
                                     {"method", e.method},     {"low", num(e.low)},    {"high", num(e.high)},
                                     {"swing", num(e.swing)},
                                     {"elasticity", e.elasticity ? num(*e.elasticity) : nlohmann::ordered_json()},
                                     {"response", nlohmann::ordered_json::array()}};
        for (const ResponsePoint& r : e.response)
          je["response"].push_back({{"value", r.value},
                                    {"number", r.number ? num(*r.number) : nlohmann::ordered_json()},
                                    {"metric", num(r.metric)},
                                    {"normalised", num(r.normalised)},
                                    {"points", r.points}});
        jm["effects"].push_back(std::move(je));
      }
      for (const PairMap& p : a.pairs) {
        nlohmann::ordered_json grid = nlohmann::ordered_json::array();
        for (const auto& row : p.normalised) {
          nlohmann::ordered_json jr = nlohmann::ordered_json::array();
          for (const auto& v : row) jr.push_back(v ? num(*v) : nlohmann::ordered_json());
          grid.push_back(std::move(jr));
        }
        jm["pairs"].push_back({{"a", p.a}, {"b", p.b}, {"a_values", p.a_values}, {"b_values", p.b_values},
                               {"normalised", std::move(grid)}});
      }
      jc["metrics"][metric] = std::move(jm);
    }
    out["contexts"].push_back(std::move(jc));
  }
  return out;
}

}  // namespace gpusim::study
