#include "study/points.hpp"

#include <cstdio>
#include <map>
#include <random>
#include <set>

#include "arch/arch_loader.hpp"
#include "study/value_spec.hpp"
#include "util/yaml_reader.hpp"
#include "workload/workload.hpp"

namespace gpusim::study {
namespace {

constexpr size_t kMaxPoints = 1'000'000;

// Values compare as numbers when both are numbers ("500" and "500.0" are one value).
bool same_value(const std::string& a, const std::string& b) {
  double x = 0, y = 0;
  if (as_number(a, x) && as_number(b, y)) return x == y;
  return a == b;
}

// Each parameter's value before any factor applies, for the baselines.
std::map<std::string, std::string> starting_values(const Study& s, size_t arch, size_t workload) {
  std::map<std::string, std::string> out;
  const arch::ArchConfig a = arch::load_arch_config(s.resolve(s.archs[arch]), s.sets);
  for (const params::ParamInfo& p : arch::describe_arch(a))
    if (!p.is_section) out[p.path] = p.value;
  const WorkloadRef& w = s.workloads[workload];
  for (const auto& [name, value] : workload::load_workload(s.resolve(w.file), w.sets, w.size).params)
    out[name] = std::to_string(value);
  return out;
}

std::vector<size_t> baselines(const Study& s, size_t arch, size_t workload) {
  const auto start = starting_values(s, arch, workload);
  std::vector<size_t> out;
  for (const Factor& f : s.factors) {
    const auto& values = f.params.front().values;
    size_t level = (values.size() - 1) / 2;  // no better choice: the middle level
    const auto it = start.find(f.params.front().path);
    const std::string* wanted = f.baseline ? &*f.baseline : it != start.end() ? &it->second : nullptr;
    if (wanted)
      for (size_t i = 0; i < values.size(); ++i)
        if (same_value(values[i], *wanted)) level = i;
    out.push_back(level);
  }
  return out;
}

std::string point_key(const Study& s, const Point& p) {
  const WorkloadRef& w = s.workloads[p.workload];
  std::string key = "study=" + s.name + " arch=" + s.archs[p.arch] + " workload=" + w.file;
  if (!w.size.empty()) key += " size=" + w.size;
  for (const std::string& set : w.sets) key += " " + set;
  for (const std::string& set : s.sets) key += " " + set;
  for (size_t f = 0; f < s.factors.size(); ++f)
    for (const FactorParam& fp : s.factors[f].params) key += " " + fp.path + "=" + fp.values[p.levels[f]];
  return key;
}

// 64-bit FNV-1a: a short, stable name for a configuration.
std::string fnv1a_hex(const std::string& text) {
  uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

std::vector<std::vector<size_t>> latin_hypercube(const std::vector<size_t>& levels, size_t samples, uint64_t seed) {
  // std::mt19937_64's output is fixed by the standard (the distributions are not), so the
  // shuffles and offsets below are the same on every platform.
  std::mt19937_64 rng(seed);
  const auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<std::vector<size_t>> rows(samples, std::vector<size_t>(levels.size()));
  for (size_t f = 0; f < levels.size(); ++f) {
    std::vector<size_t> strata(samples);
    for (size_t i = 0; i < samples; ++i) strata[i] = i;
    for (size_t i = samples; i > 1; --i) std::swap(strata[i - 1], strata[rng() % i]);
    for (size_t i = 0; i < samples; ++i) {
      const double u = (static_cast<double>(strata[i]) + uniform()) / static_cast<double>(samples);
      rows[i][f] = std::min(levels[f] - 1, static_cast<size_t>(u * static_cast<double>(levels[f])));
    }
  }
  return rows;
}

Plan make_plan(const Study& s) {
  Plan plan;
  std::vector<size_t> levels;
  for (const Factor& f : s.factors) levels.push_back(f.levels());
  {  // refuse a design too large to list before building it
    double per_context = s.design == Design::LatinHypercube ? static_cast<double>(s.samples) + 1 : 1;
    for (const size_t l : levels)
      per_context = s.design == Design::Grid ? per_context * static_cast<double>(l)
                    : s.design == Design::OneAtATime ? per_context + static_cast<double>(l) - 1
                                                      : per_context;
    const double total = per_context * static_cast<double>(s.archs.size() * s.workloads.size());
    if (total > static_cast<double>(kMaxPoints))
      throw util::InputError(s.file + ": the " + design_name(s.design) + " design has " + params::format_number(total) +
                             " points, more than " + std::to_string(kMaxPoints) +
                             " (a Latin hypercube samples many factors in fewer points)");
  }
  for (size_t a = 0; a < s.archs.size(); ++a)
    for (size_t w = 0; w < s.workloads.size(); ++w) {
      std::vector<size_t> base;
      try {
        base = baselines(s, a, w);
      } catch (const util::InputError& e) {
        throw util::InputError(s.file + ": " + s.archs[a] + " with " + s.workloads[w].file + ": " + e.what());
      }
      plan.baseline.push_back(base);
      std::vector<std::vector<size_t>> rows;
      switch (s.design) {
        case Design::Grid: {
          std::vector<size_t> row(levels.size(), 0);
          for (;;) {
            rows.push_back(row);
            size_t f = levels.size();
            while (f > 0 && ++row[f - 1] == levels[f - 1]) row[--f] = 0;
            if (f == 0) break;
          }
          break;
        }
        case Design::OneAtATime:
          rows.push_back(base);
          for (size_t f = 0; f < levels.size(); ++f)
            for (size_t l = 0; l < levels[f]; ++l)
              if (l != base[f]) {
                rows.push_back(base);
                rows.back()[f] = l;
              }
          break;
        case Design::LatinHypercube:
          rows.push_back(base);
          for (auto& r : latin_hypercube(levels, static_cast<size_t>(s.samples), s.seed)) rows.push_back(std::move(r));
          break;
      }
      std::set<std::vector<size_t>> seen;
      for (auto& r : rows)
        if (seen.insert(r).second) {
          Point p{a, w, std::move(r), ""};
          p.key = point_key(s, p);
          plan.points.push_back(std::move(p));
        }
    }
  return plan;
}

std::vector<std::string> arch_sets(const Study& s, const Point& p) {
  std::vector<std::string> out = s.sets;
  for (size_t f = 0; f < s.factors.size(); ++f)
    for (const FactorParam& fp : s.factors[f].params)
      if (fp.is_arch()) out.push_back(fp.path + "=" + fp.values[p.levels[f]]);
  return out;
}

std::vector<std::string> workload_sets(const Study& s, const Point& p) {
  std::vector<std::string> out = s.workloads[p.workload].sets;
  for (size_t f = 0; f < s.factors.size(); ++f)
    for (const FactorParam& fp : s.factors[f].params)
      if (!fp.is_arch()) out.push_back(fp.path + "=" + fp.values[p.levels[f]]);
  return out;
}

PointRecord check_point(const Study& s, const Plan& plan, const Point& p) {
  const WorkloadRef& w = s.workloads[p.workload];
  PointRecord r;
  r.key = p.key;
  r.study = s.name;
  r.design = design_name(s.design);
  r.arch_file = s.archs[p.arch];
  r.workload_file = w.file;
  r.size = w.size;
  const auto archs = arch_sets(s, p), loads = workload_sets(s, p);
  r.overrides = archs;
  r.overrides.insert(r.overrides.end(), loads.begin(), loads.end());
  const std::vector<size_t>& base = plan.baseline[p.arch * s.workloads.size() + p.workload];
  for (size_t f = 0; f < s.factors.size(); ++f) {
    FactorValue v{s.factors[f].name, s.factors[f].level_text(p.levels[f]), std::nullopt, p.levels[f] == base[f]};
    double number = 0;
    if (as_number(v.value, number)) v.number = number;
    r.factors.push_back(std::move(v));
  }
  try {
    const arch::ArchConfig a = arch::load_arch_config(s.resolve(r.arch_file), archs);
    r.arch = a.gpu.name;
    nlohmann::ordered_json arch_params = nlohmann::ordered_json::object();
    for (const params::ParamInfo& info : arch::describe_arch(a))
      if (!info.is_section) arch_params[info.path] = info.value;
    const workload::Workload wl = workload::load_workload(s.resolve(w.file), loads, w.size);
    r.workload = wl.name;
    nlohmann::ordered_json wl_params = nlohmann::ordered_json::object();
    for (const auto& [name, value] : wl.params) wl_params[name] = value;
    r.params = {{"arch", arch_params}, {"workload", wl_params}};
    r.config_hash = fnv1a_hex(arch_params.dump());
  } catch (const util::InputError& e) {
    std::string which;
    for (const FactorValue& v : r.factors) which += (which.empty() ? "" : ", ") + v.name + "=" + v.value;
    throw util::InputError(s.file + ": the point " + which + " (" + r.arch_file + ", " + w.file + "): " + e.what());
  }
  return r;
}

}  // namespace gpusim::study
