// A small streaming JSON writer: report writers build documents with it so that
// escaping, commas and indentation live in one place.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

namespace gpusim::stats {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  ~JsonWriter();

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(int64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(double v);  // 6 significant digits: for figures
  JsonWriter& exact(double v);  // 17 significant digits: round-trips the double
  JsonWriter& value(bool v);
  JsonWriter& null();

  // Shorthand for key(name).value(v).
  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

 private:
  JsonWriter& number(double v, const char* format);
  void before_value();
  void newline();
  void write_string(std::string_view s);
  JsonWriter& close(char bracket);

  std::ostream& out_;
  struct Level {
    bool is_object;
    bool empty;
  };
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace gpusim::stats
