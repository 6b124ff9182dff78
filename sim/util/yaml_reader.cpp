#include "util/yaml_reader.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <yaml-cpp/depthguard.h>
#include <optional>

namespace gpusim::util {

YAML::Node load_yaml_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory, not a YAML file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  std::stringstream text;
  text << in.rdbuf();
  return load_yaml_text(text.str(), path);
}

YAML::Node load_yaml_text(const std::string& text, const std::string& name) {
  try {
    YAML::Node root = YAML::Load(text);
    if (!root.IsMap()) throw InputError(name + ": expected a YAML mapping at the top level");
    return root;
  } catch (const YAML::DeepRecursion& e) {  // its message says "bad file"
    throw InputError(name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                     ": malformed YAML: nested too deeply");
  } catch (const YAML::Exception& e) {
    throw InputError(name + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
}

MapReader::MapReader(YAML::Node node, std::string file, std::string path)
    : node_(std::move(node)), file_(std::move(file)), path_(std::move(path)) {
  if (!node_.IsMap()) fail_here("expected a mapping");
  std::map<std::string, int> seen;  // key -> line: yaml-cpp keeps duplicates, the first winning
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar())
      throw InputError(where(kv.first) + ": " + (path_.empty() ? "(top level)" : path_) +
                       ": a key must be a plain name, not a list or mapping");
    const auto [it, fresh] = seen.emplace(kv.first.Scalar(), kv.first.Mark().line + 1);
    if (!fresh)
      throw InputError(where(kv.first) + ": " + key_path(kv.first.Scalar()) + ": duplicate key (first at line " +
                       std::to_string(it->second) + ")");
  }
}

std::string MapReader::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

std::string MapReader::where(const YAML::Node& n) const {
  const auto mark = n.Mark();
  if (mark.is_null()) return file_;
  return file_ + ":" + std::to_string(mark.line + 1);
}

void MapReader::fail(std::string_view key, const std::string& reason) const {
  const YAML::Node n = node_[std::string(key)];
  throw InputError(where(n ? n : node_) + ": " + key_path(key) + ": " + reason);
}

void MapReader::fail_here(const std::string& reason) const {
  throw InputError(where(node_) + ": " + (path_.empty() ? "(top level)" : path_) + ": " + reason);
}

bool MapReader::has(std::string_view key) const { return static_cast<bool>(node_[std::string(key)]); }

YAML::Node MapReader::require(std::string_view key) {
  YAML::Node n = node_[std::string(key)];
  if (!n) fail_here("missing key '" + std::string(key) + "'");
  read_.emplace(key);
  return n;
}

std::string clipped(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  return std::string(text.substr(0, max - 3)) + "...";
}

std::string scalar_text(const YAML::Node& n) { return n.IsScalar() ? clipped(n.Scalar()) : "<not a scalar>"; }

std::optional<int64_t> parse_integer(const YAML::Node& n) {
  if (!n.IsScalar() || n.Scalar().empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(n.Scalar().c_str(), &end, 0);
  if (*end != '\0' || errno == ERANGE) return std::nullopt;
  return v;
}

std::string range_text(int64_t v, int64_t min, int64_t max) {
  return std::to_string(v) + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

int64_t MapReader::integer(std::string_view key, int64_t min, int64_t max) {
  const YAML::Node n = require(key);
  const auto v = parse_integer(n);
  if (!v) fail(key, "expected an integer, got '" + scalar_text(n) + "'");
  if (*v < min || *v > max) fail(key, range_text(*v, min, max));
  return *v;
}

double MapReader::number(std::string_view key, double min, double max) {
  const YAML::Node n = require(key);
  const std::string text = scalar_text(n);
  if (!n.IsScalar() || text.empty()) fail(key, "expected a number, got " + text);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) fail(key, "expected a number, got '" + text + "'");
  if (v < min || v > max) fail(key, text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

std::string MapReader::string(std::string_view key) {
  const YAML::Node n = require(key);
  if (!n.IsScalar()) fail(key, "expected a string");
  if (n.Scalar().empty()) fail(key, "must not be empty");
  return n.Scalar();
}

bool MapReader::boolean(std::string_view key) {
  const YAML::Node n = require(key);
  const std::string text = scalar_text(n);
  if (text == "true") return true;
  if (text == "false") return false;
  fail(key, "expected true or false, got '" + text + "'");
}

std::vector<int64_t> MapReader::integer_list(std::string_view key, size_t count, int64_t min, int64_t max) {
  const YAML::Node n = require(key);
  if (!n.IsSequence() || n.size() != count)
    fail(key, "expected a list of " + std::to_string(count) + " integers");
  std::vector<int64_t> out;
  for (size_t i = 0; i < count; ++i) {
    const auto v = parse_integer(n[i]);
    const std::string element = "element " + std::to_string(i) + ": ";
    if (!v) fail(key, element + "expected an integer, got '" + scalar_text(n[i]) + "'");
    if (*v < min || *v > max) fail(key, element + range_text(*v, min, max));
    out.push_back(*v);
  }
  return out;
}

MapReader MapReader::map(std::string_view key) {
  YAML::Node n = require(key);
  if (!n.IsMap()) fail(key, "expected a mapping");
  return MapReader(n, file_, key_path(key));
}

std::optional<MapReader> MapReader::map_or_none(std::string_view key) {
  YAML::Node n = require(key);
  if (n.IsScalar() && n.Scalar() == "none") return std::nullopt;
  if (!n.IsMap()) fail(key, "expected a mapping or 'none'");
  return MapReader(n, file_, key_path(key));
}

YAML::Node MapReader::node(std::string_view key) { return require(key); }

std::vector<std::string> MapReader::keys() const {
  std::vector<std::string> out;
  for (const auto& kv : node_) out.push_back(kv.first.as<std::string>());
  return out;
}

void MapReader::finish() const {
  for (const auto& kv : node_) {
    const std::string key = kv.first.as<std::string>();
    if (!read_.contains(key))
      throw InputError(where(kv.first) + ": " + key_path(key) + ": unknown key");
  }
}

}  // namespace gpusim::util
