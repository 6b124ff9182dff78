// Checked access to a YAML mapping: every read names its key, every error names the
// file, line and dotted key path, and keys nobody read are reported as unknown.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusim::util {

// A user-facing input error; what() is one line: "file:line: key: reason".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a YAML file; throws InputError naming the file (and line) when it cannot.
YAML::Node load_yaml_file(const std::string& path);
// The same from text already read, `name` standing for the file in messages.
YAML::Node load_yaml_text(const std::string& text, const std::string& name);

// User text quoted in a message, cut to `max` characters: a hostile value need not fill the screen.
std::string clipped(std::string_view text, size_t max = 80);
// A scalar's text (clipped), or "<not a scalar>", for messages.
std::string scalar_text(const YAML::Node& n);
// An integer scalar (decimal, 0x hex, 0 octal); nullopt when it is not one or overflows.
std::optional<int64_t> parse_integer(const YAML::Node& n);
// "V is out of range [MIN, MAX]"
std::string range_text(int64_t v, int64_t min, int64_t max);

class MapReader {
 public:
  MapReader(YAML::Node node, std::string file, std::string path = "");

  bool has(std::string_view key) const;

  int64_t integer(std::string_view key, int64_t min, int64_t max);
  double number(std::string_view key, double min, double max);
  std::string string(std::string_view key);
  bool boolean(std::string_view key);
  std::vector<int64_t> integer_list(std::string_view key, size_t count, int64_t min, int64_t max);

  // A string that must be one of the given names; returns its value.
  template <typename E, typename Options = std::initializer_list<std::pair<const char*, E>>>
  E choice(std::string_view key, const Options& options) {
    const std::string text = string(key);
    std::string names;
    for (const auto& [name, value] : options) {
      if (text == name) return value;
      names += names.empty() ? "" : ", ";
      names += name;
    }
    fail(key, "'" + text + "' is not one of: " + names);
  }

  MapReader map(std::string_view key);
  // A mapping, or the word `none` for a part the GPU does not have.
  std::optional<MapReader> map_or_none(std::string_view key);
  // The raw node (marked as read), for callers with their own structure.
  YAML::Node node(std::string_view key);
  // All keys of this mapping, in file order (marks nothing as read).
  std::vector<std::string> keys() const;

  // Throws for every key present but never read.
  void finish() const;

  [[noreturn]] void fail(std::string_view key, const std::string& reason) const;
  [[noreturn]] void fail_here(const std::string& reason) const;

  const std::string& file() const { return file_; }
  std::string key_path(std::string_view key) const;

 private:
  YAML::Node require(std::string_view key);
  std::string where(const YAML::Node& n) const;

  YAML::Node node_;
  std::string file_;
  std::string path_;
  std::set<std::string, std::less<>> read_;
};

}  // namespace gpusim::util
