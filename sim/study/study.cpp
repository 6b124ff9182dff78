#include "study/study.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "study/metric_columns.hpp"
#include "study/value_spec.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace {

using util::InputError;
using util::MapReader;

int line_of(const YAML::Node& n) { return n.Mark().is_null() ? 0 : n.Mark().line + 1; }

std::string where(const std::string& file, const YAML::Node& n, const std::string& key) {
  return file + ":" + std::to_string(line_of(n)) + ": " + key;
}

// A scalar's text, or a sequence/mapping as one line of YAML (a value of a list parameter).
std::string value_text(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

// The values of one parameter: a YAML sequence (each element one value) or a scalar in
// the range syntax of value_spec.hpp.
std::vector<std::string> read_values(const std::string& file, const YAML::Node& n, const std::string& key) {
  const std::string what = where(file, n, key);
  std::vector<std::string> out;
  if (n.IsSequence()) {
    for (const YAML::Node& v : n) {
      if (v.IsNull()) throw InputError(where(file, v, key) + ": an empty value");
      out.push_back(value_text(v));
    }
  } else if (n.IsScalar()) {
    out = expand_values(what, n.Scalar());
  } else {
    throw InputError(what + ": expected a list of values or a range such as 300:800:100");
  }
  if (out.empty()) throw InputError(what + ": no values");
  std::set<std::string> seen;
  for (const std::string& v : out)
    if (!seen.insert(v).second) throw InputError(what + ": the value '" + util::clipped(v) + "' appears twice");
  return out;
}

void check_path(const std::string& what, const std::string& path) {
  if (path.empty()) throw InputError(what + ": empty parameter name");
  for (const char c : path)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
      throw InputError(what + ": '" + util::clipped(path) + "' is not a parameter name");
}

Factor read_factor(const std::string& file, const YAML::Node& node, size_t index) {
  const std::string key = "factors[" + std::to_string(index) + "]";
  if (!node.IsMap()) throw InputError(where(file, node, key) + ": expected {param: NAME, values: ...} or {linked: {...}}");
  MapReader r(node, file, key);
  Factor f;
  f.line = line_of(node);
  if (r.has("linked")) {
    if (r.has("param") || r.has("values")) r.fail("linked", "a linked factor names its parameters inside `linked`");
    const YAML::Node linked = r.node("linked");
    if (!linked.IsMap() || linked.size() < 2)
      r.fail("linked", "expected a mapping of two or more parameters to their values, e.g. {memory.l1.size: [...], memory.l1.ways: [...]}");
    for (const auto& kv : linked) {
      FactorParam p;
      p.path = kv.first.Scalar();
      check_path(where(file, kv.first, key + ".linked"), p.path);
      p.values = read_values(file, kv.second, key + ".linked." + p.path);
      if (!f.params.empty() && p.values.size() != f.params.front().values.size())
        throw InputError(where(file, kv.second, key + ".linked." + p.path) + ": " + std::to_string(p.values.size()) +
                         " values, but " + f.params.front().path + " has " +
                         std::to_string(f.params.front().values.size()) + " (linked parameters move together)");
      f.name += (f.name.empty() ? "" : "+") + p.path;
      f.params.push_back(std::move(p));
    }
  } else {
    FactorParam p;
    p.path = r.string("param");
    check_path(r.key_path("param") + " (" + file + ")", p.path);
    p.values = read_values(file, r.node("values"), key + ".values");
    f.name = p.path;
    f.params.push_back(std::move(p));
  }
  if (r.has("name")) f.name = r.string("name");
  if (r.has("baseline")) {
    const YAML::Node b = r.node("baseline");
    const std::string text = value_text(b);
    const auto& values = f.params.front().values;
    if (std::find(values.begin(), values.end(), text) == values.end())
      throw InputError(where(file, b, key + ".baseline") + ": '" + util::clipped(text) + "' is not one of the factor's values");
    f.baseline = text;
  }
  r.finish();
  return f;
}

WorkloadRef read_workload(const std::string& file, const YAML::Node& node, size_t index) {
  const std::string key = "workloads[" + std::to_string(index) + "]";
  WorkloadRef w;
  if (node.IsScalar()) {
    w.file = node.Scalar();
    return w;
  }
  if (!node.IsMap()) throw InputError(where(file, node, key) + ": expected a workload file or {file: ..., size: ..., set: {...}}");
  MapReader r(node, file, key);
  w.file = r.string("file");
  if (r.has("size")) w.size = r.string("size");
  if (r.has("set")) {
    const YAML::Node sets = r.node("set");
    if (!sets.IsMap()) r.fail("set", "expected a mapping of workload parameters to values");
    for (const auto& kv : sets) {
      if (kv.first.Scalar().find('.') != std::string::npos)
        throw InputError(where(file, kv.first, key + ".set") + ": '" + util::clipped(kv.first.Scalar()) +
                         "' is an architecture parameter; set it in the study's top-level `set`");
      w.sets.push_back(kv.first.Scalar() + "=" + value_text(kv.second));
    }
  }
  r.finish();
  return w;
}

}  // namespace

const char* design_name(Design d) {
  switch (d) {
    case Design::Grid: return "grid";
    case Design::OneAtATime: return "oat";
    case Design::LatinHypercube: return "lhs";
  }
  return "grid";
}

std::string Study::resolve(const std::string& path) const {
  const std::filesystem::path p(path);
  if (p.is_absolute() || dir.empty()) return path;
  return (std::filesystem::path(dir) / p).lexically_normal().string();
}

Study load_study(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the study file");
  std::ostringstream text;
  text << in.rdbuf();
  return load_study_text(text.str(), path);
}

Study load_study_text(const std::string& text, const std::string& path) {
  const YAML::Node root = util::load_yaml_text(text, path);  // refuses anything but a mapping
  MapReader r(root, path);
  Study s;
  s.file = path;
  s.dir = std::filesystem::path(path).parent_path().string();
  s.name = r.string("name");
  if (r.has("description")) s.description = r.string("description");

  if (r.has("arch") == r.has("archs")) r.fail_here("give `arch: FILE` or `archs: [FILE, ...]` (one of the two)");
  if (r.has("arch")) {
    s.archs.push_back(r.string("arch"));
  } else {
    const YAML::Node archs = r.node("archs");
    if (!archs.IsSequence() || archs.size() == 0) r.fail("archs", "expected a list of architecture files");
    for (const YAML::Node& a : archs) {
      if (!a.IsScalar()) throw InputError(where(path, a, "archs") + ": expected a file name");
      s.archs.push_back(a.Scalar());
    }
  }
  const YAML::Node workloads = r.node("workloads");
  if (!workloads.IsSequence() || workloads.size() == 0) r.fail("workloads", "expected a list of workload files");
  for (size_t i = 0; i < workloads.size(); ++i) s.workloads.push_back(read_workload(path, workloads[i], i));

  if (r.has("set")) {
    const YAML::Node sets = r.node("set");
    if (!sets.IsMap()) r.fail("set", "expected a mapping of architecture parameters to values");
    for (const auto& kv : sets) {
      if (kv.first.Scalar().find('.') == std::string::npos)
        throw InputError(where(path, kv.first, "set") + ": '" + util::clipped(kv.first.Scalar()) +
                         "' is not SECTION.KEY; a workload parameter is set under its workload's `set`");
      s.sets.push_back(kv.first.Scalar() + "=" + value_text(kv.second));
    }
  }

  const YAML::Node factors = r.node("factors");
  if (!factors.IsSequence() || factors.size() == 0) r.fail("factors", "expected a list of factors");
  std::set<std::string> names, paths;
  for (size_t i = 0; i < factors.size(); ++i) {
    Factor f = read_factor(path, factors[i], i);
    if (!names.insert(f.name).second)
      throw InputError(where(path, factors[i], "factors[" + std::to_string(i) + "]") + ": a second factor named '" + f.name + "'");
    for (const FactorParam& p : f.params)
      if (!paths.insert(p.path).second)
        throw InputError(where(path, factors[i], "factors[" + std::to_string(i) + "]") + ": '" + p.path +
                         "' is already set by another factor");
    s.factors.push_back(std::move(f));
  }
  for (const std::string& set : s.sets)
    if (paths.count(set.substr(0, set.find('='))))
      r.fail("set", "'" + set.substr(0, set.find('=')) + "' is both fixed here and a factor");

  s.design = r.has("design") ? r.choice<Design>("design", {{"grid", Design::Grid},
                                                             {"oat", Design::OneAtATime},
                                                             {"lhs", Design::LatinHypercube}})
                             : Design::Grid;
  if (s.design == Design::LatinHypercube) {
    s.samples = r.integer("samples", 2, 1000000);
    if (r.has("seed")) s.seed = static_cast<uint64_t>(r.integer("seed", 0, INT64_MAX));
  } else if (r.has("samples") || r.has("seed")) {
    r.fail(r.has("samples") ? "samples" : "seed", "only a Latin hypercube design (design: lhs) takes samples and a seed");
  }
  if (r.has("metrics")) {
    const YAML::Node metrics = r.node("metrics");
    if (!metrics.IsSequence() || metrics.size() == 0) r.fail("metrics", "expected a list of metric names");
    for (const YAML::Node& m : metrics) {
      const std::string name = m.IsScalar() ? m.Scalar() : "";
      if (!is_metric(name))
        throw InputError(where(path, m, "metrics") + ": '" + util::clipped(name) + "' is not a metric (" +
                         metric_names_hint() + ")");
      s.metrics.push_back(name);
    }
  } else {
    s.metrics = {"cycles"};
  }
  r.finish();
  return s;
}

}  // namespace gpusim::study
