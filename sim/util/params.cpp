#include "util/params.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "util/yaml_reader.hpp"

namespace gpusim::params {
namespace {

using util::InputError;

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t dot; (dot = path.find('.', start)) != std::string_view::npos; start = dot + 1)
    out.emplace_back(path.substr(start, dot - start));
  out.emplace_back(path.substr(start));
  return out;
}

using util::parse_integer;
using util::range_text;
using util::scalar_text;

bool is_none(const YAML::Node& n) { return n.IsScalar() && n.Scalar() == "none"; }

}  // namespace

std::string format_number(double v) {
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {  // whole numbers without an exponent
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string Origin::text() const {
  switch (kind) {
    case Kind::File: return line > 0 ? file + ":" + std::to_string(line) : file;
    case Kind::Override: return file;
    case Kind::Default: break;
  }
  return "default";
}

// --- Layers -------------------------------------------------------------------

Layers Layers::from_file(const std::string& path) { return from_text(nullptr, path); }

Layers Layers::from_text(const std::string* text, const std::string& path) {
  std::vector<Layer> found;         // the named file first, then its base, its base's base ...
  std::vector<std::string> chain;  // for cycle detection, canonical paths
  std::string current = path;
  std::string named_by;            // "file:line: base" of the reference being followed
  while (true) {
    std::error_code ec;
    const std::string canonical = std::filesystem::weakly_canonical(current, ec).string();
    for (const std::string& seen : chain)
      if (seen == canonical) throw InputError(named_by + ": a cycle of bases ('" + current + "' again)");
    chain.push_back(canonical);
    if ((!text || chain.size() > 1) && std::filesystem::is_directory(current, ec))
      throw InputError((named_by.empty() ? current : named_by + ": '" + current + "'") + ": is a directory, not a file");
    if (!named_by.empty() && !std::filesystem::exists(current, ec))
      throw InputError(named_by + ": no file '" + current + "'");
    const YAML::Node root = text && chain.size() == 1 ? util::load_yaml_text(*text, current) : util::load_yaml_file(current);
    found.push_back(Layer{root, {Origin::Kind::File, current, 0}});
    const YAML::Node base = root["base"];
    if (!base) break;
    const std::string where = current + ":" + std::to_string(base.Mark().line + 1) + ": base";
    if (!base.IsScalar() || base.Scalar().empty()) throw InputError(where + ": expected a file name");
    const std::filesystem::path next = std::filesystem::path(current).parent_path() / base.Scalar();
    named_by = where;
    current = next.lexically_normal().string();
  }
  // Base first. Built by copying, never by assigning Layers: assigning a YAML::Node rebinds
  // what every copy of it refers to (a vector insert that shifts elements made a derived
  // file's layer read as its base's, so its values were lost).
  Layers out;
  out.layers_.assign(found.rbegin(), found.rend());
  return out;
}

void Layers::add_override(const std::string& assignment) {
  const std::string where = "--set '" + util::clipped(assignment) + "'";
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError(where + ": expected SECTION.KEY=VALUE");
  const std::vector<std::string> keys = split_path(assignment.substr(0, eq));
  for (const std::string& k : keys)
    if (k.empty()) throw InputError(where + ": empty key in '" + util::clipped(assignment.substr(0, eq)) + "'");
  YAML::Node value;
  try {
    value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": malformed value: " + e.msg);
  }
  YAML::Node root(YAML::NodeType::Map);
  YAML::Node at = root;
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node child(YAML::NodeType::Map);
    at[keys[i]] = child;
    at.reset(child);  // rebinds the handle (assignment would overwrite the node)
  }
  at[keys.back()] = value;
  layers_.push_back({root, {Origin::Kind::Override, where, 0}});
}

std::optional<Layers::Found> Layers::find(const std::string& path) const {
  const std::vector<std::string> keys = split_path(path);
  for (auto layer = layers_.rbegin(); layer != layers_.rend(); ++layer) {
    YAML::Node node = layer->root;  // a handle; reassigning it does not modify the tree
    bool defined = true;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!node.IsMap()) return std::nullopt;  // this layer replaced the section (e.g. `none`)
      const YAML::Node child = static_cast<const YAML::Node&>(node)[keys[i]];
      if (!child) {
        defined = false;
        break;
      }
      node.reset(child);
    }
    if (!defined) continue;
    Origin origin = layer->origin;
    if (origin.kind == Origin::Kind::File) origin.line = node.Mark().line + 1;
    return Found{node, origin};
  }
  return std::nullopt;
}

void Layers::check_keys(const std::set<std::string>& leaves, const std::set<std::string>& sections,
                        const std::set<std::string>& optional_sections) const {
  for (const Layer& layer : layers_) {
    const bool override = layer.origin.kind == Origin::Kind::Override;
    const auto where = [&](const YAML::Node& n) {
      return override ? layer.origin.file : layer.origin.file + ":" + std::to_string(n.Mark().line + 1);
    };
    std::function<void(const YAML::Node&, const std::string&)> walk = [&](const YAML::Node& map,
                                                                          const std::string& prefix) {
      std::map<std::string, int> seen;  // key -> line
      for (const auto& kv : map) {
        if (!kv.first.IsScalar())
          throw InputError(where(kv.first) + ": " + (prefix.empty() ? "(top level)" : prefix) +
                           ": a key must be a plain name, not a list or mapping");
        const std::string key = kv.first.Scalar();
        const std::string path = prefix.empty() ? key : prefix + "." + key;
        if (auto [it, fresh] = seen.emplace(key, kv.first.Mark().line + 1); !fresh)
          throw InputError(where(kv.first) + ": " + path + ": duplicate key (first at line " + std::to_string(it->second) +
                           ")");
        if (prefix.empty() && key == "base" && !override) continue;
        if (leaves.contains(path)) continue;
        if (sections.contains(path)) {
          if (kv.second.IsMap()) walk(kv.second, path);
          else if (!(optional_sections.contains(path) && is_none(kv.second)))
            throw InputError(where(kv.second) + ": " + path + ": expected a mapping" +
                             (optional_sections.contains(path) ? " or 'none'" : ""));
          continue;
        }
        if (override)
          throw InputError(layer.origin.file + ": no architecture parameter '" + path +
                           "' (gpusim params --arch FILE lists them)");
        throw InputError(where(kv.first) + ": " + path + ": unknown key");
      }
    };
    walk(layer.root, "");
  }
}

// --- Describer ------------------------------------------------------------------

void Describer::add(std::string_view key, std::string type, std::string_view unit, std::string range,
                    std::optional<std::string> def, std::string_view doc, std::string value) {
  ParamInfo p;
  for (const std::string& s : prefix_) p.path += s + ".";
  p.path += key;
  p.type = std::move(type);
  p.unit = unit;
  p.range = std::move(range);
  p.default_text = std::move(def);
  p.doc = doc;
  p.value = !absent_.empty() && absent_.back() ? "" : std::move(value);
  out_.push_back(std::move(p));
}

void Describer::add_choice(std::string_view key, const std::vector<Option>& options, std::optional<std::string> def,
                           std::string_view doc, std::string value) {
  std::string names;
  for (const Option& o : options) names += (names.empty() ? "" : ", ") + o.name;
  add(key, "one of", "", names, std::move(def), doc, std::move(value));
  out_.back().options = options;
}

void Describer::open(std::string_view key, std::string_view doc, bool optional, std::string value) {
  ParamInfo p;
  for (const std::string& s : prefix_) p.path += s + ".";
  p.path += key;
  p.is_section = true;
  p.optional_section = optional;
  p.type = optional ? "section, or none" : "section";
  p.doc = doc;
  const bool parent_absent = !absent_.empty() && absent_.back();
  p.value = parent_absent ? "" : value;
  out_.push_back(std::move(p));
  prefix_.emplace_back(key);
  absent_.push_back(parent_absent || value == "none");
}

void Describer::close() {
  prefix_.pop_back();
  absent_.pop_back();
}

// --- Checker --------------------------------------------------------------------

std::string Checker::where(const std::string& path) const {
  // The key's own line; for a default, the nearest enclosing section that a file sets.
  for (std::string p = path;; p = p.substr(0, p.rfind('.'))) {
    const auto it = origins_.find(p);
    if (it != origins_.end() && it->second.kind != Origin::Kind::Default) return it->second.text();
    if (p.find('.') == std::string::npos) break;
  }
  return fallback_;
}

void Checker::fail(std::string_view key, const std::string& reason) const {
  const std::string path = section_.empty() ? std::string(key) : section_ + "." + std::string(key);
  throw InputError(where(path) + ": " + path + ": " + reason);
}

void Checker::fail_section(const std::string& reason) const {
  throw InputError(where(section_) + ": " + (section_.empty() ? "(top level)" : section_) + ": " + reason);
}

// --- Loader ---------------------------------------------------------------------

std::string Loader::Collector::path(std::string_view key) const {
  std::string p;
  for (const std::string& s : prefix) p += s + ".";
  return p + std::string(key);
}

std::string Loader::joined() const {
  std::string p;
  for (const std::string& s : prefix_) p += (p.empty() ? "" : ".") + s;
  return p;
}

std::string Loader::path(std::string_view key) const {
  const std::string j = joined();
  return j.empty() ? std::string(key) : j + "." + std::string(key);
}

std::optional<Layers::Found> Loader::lookup(std::string_view key) {
  auto found = layers_.find(path(key));
  if (found) origins_[path(key)] = found->origin;
  else origins_[path(key)] = Origin{};
  return found;
}

void Loader::missing(std::string_view key) const {
  const std::string section = joined();
  // Point at the section in the file that would hold it.
  const auto it = origins_.find(section);
  const std::string where = it != origins_.end() && it->second.kind != Origin::Kind::Default ? it->second.text()
                                                                                            : layers_.file();
  throw InputError(where + ": " + (section.empty() ? "(top level)" : section) + ": missing key '" + std::string(key) +
                   "' (it has no default)");
}

void Loader::fail(std::string_view key, const Layers::Found& at, const std::string& reason) const {
  throw InputError(at.origin.text() + ": " + path(key) + ": " + reason);
}

std::optional<int64_t> Loader::read_integer(std::string_view key, int64_t min, int64_t max,
                                            std::optional<int64_t> def) {
  const auto found = lookup(key);
  if (!found) {
    if (!def) missing(key);
    return def;
  }
  const auto v = parse_integer(found->node);
  if (!v) fail(key, *found, "expected an integer, got '" + scalar_text(found->node) + "'");
  if (*v < min || *v > max) fail(key, *found, range_text(*v, min, max));
  return v;
}

std::vector<int64_t> Loader::read_integer_list(std::string_view key, size_t count, int64_t min, int64_t max) {
  const auto found = lookup(key);
  if (!found) missing(key);
  const YAML::Node& n = found->node;
  if (!n.IsSequence() || n.size() != count) fail(key, *found, "expected a list of " + std::to_string(count) + " integers");
  std::vector<int64_t> out;
  for (size_t i = 0; i < count; ++i) {
    const auto v = parse_integer(n[i]);
    const std::string element = "element " + std::to_string(i) + ": ";
    if (!v) fail(key, *found, element + "expected an integer, got '" + scalar_text(n[i]) + "'");
    if (*v < min || *v > max) fail(key, *found, element + range_text(*v, min, max));
    out.push_back(*v);
  }
  return out;
}

void Loader::number(std::string_view key, double& field, const Spec<double>& s) {
  const auto found = lookup(key);
  if (!found) {
    if (!s.def) missing(key);
    field = *s.def;
    return;
  }
  const std::string text = scalar_text(found->node);
  if (!found->node.IsScalar() || text.empty()) fail(key, *found, "expected a number, got " + text);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) fail(key, *found, "expected a number, got '" + text + "'");
  if (v < s.min || v > s.max)
    fail(key, *found, text + " is out of range [" + format_number(s.min) + ", " + format_number(s.max) + "]");
  field = v;
}

void Loader::flag(std::string_view key, bool& field, const FlagSpec& s) {
  const auto found = lookup(key);
  if (!found) {
    if (!s.def) missing(key);
    field = *s.def;
    return;
  }
  const std::string text = scalar_text(found->node);
  if (text == "true") field = true;
  else if (text == "false") field = false;
  else fail(key, *found, "expected true or false, got '" + text + "'");
}

void Loader::text(std::string_view key, std::string& field, const TextSpec& s) {
  const auto found = lookup(key);
  if (!found) {
    if (!s.def) missing(key);
    field = *s.def;
    return;
  }
  if (!found->node.IsScalar()) fail(key, *found, "expected a string");
  if (found->node.Scalar().empty()) fail(key, *found, "must not be empty");
  field = found->node.Scalar();
}

std::string Loader::read_choice(std::string_view key, const std::vector<Option>& options,
                                const std::optional<std::string>& def) {
  const auto found = lookup(key);
  if (!found) {
    if (!def) missing(key);
    return *def;
  }
  const std::string text = scalar_text(found->node);
  std::string names;
  for (const Option& o : options) {
    if (text == o.name) return text;
    names += (names.empty() ? "" : ", ") + o.name;
  }
  fail(key, *found, "'" + text + "' is not one of: " + names);
}

void Loader::plugin(std::string_view key, std::string& field, const std::vector<Option>& options, const TextSpec& s) {
  field = read_choice(key, options, s.def ? std::optional(std::string(*s.def)) : std::nullopt);
}

bool Loader::enter_section(std::string_view key, bool optional) {
  const std::string p = path(key);
  prefix_.emplace_back(key);
  const auto found = layers_.find(p);
  if (!found) {
    origins_[p] = Origin{};
    if (optional) {
      prefix_.pop_back();
      const std::string section = joined();
      const auto it = origins_.find(section);
      throw InputError((it != origins_.end() && it->second.kind != Origin::Kind::Default ? it->second.text()
                                                                                         : layers_.file()) +
                       ": " + (section.empty() ? "(top level)" : section) + ": missing key '" + std::string(key) +
                       "' (a mapping, or 'none' where the GPU has no such part)");
    }
    return true;  // every key inside may still have a default
  }
  origins_[p] = found->origin;
  if (optional && is_none(found->node)) return false;
  if (!found->node.IsMap())
    throw InputError(found->origin.text() + ": " + p + ": expected a mapping" + (optional ? " or 'none'" : ""));
  return true;
}

}  // namespace gpusim::params
