#include "cli/range.hpp"

#include <cerrno>
#include <cstdlib>

#include "study/value_spec.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::cli {
namespace {

constexpr size_t kMaxPoints = 1'000'000;

[[noreturn]] void bad(const std::string& option, const std::string& text, const std::string& why) {
  throw util::InputError("--" + option + " '" + util::clipped(text) + "': " + why);
}

int64_t parse_number(const std::string& option, const std::string& whole, const std::string& part) {
  if (part.empty()) bad(option, whole, "missing number");
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(part.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) bad(option, whole, "'" + part + "' is not a whole number");
  if (v < 0) bad(option, whole, "must not be negative");
  return v;
}

}  // namespace

ValueList parse_value_list(const std::string& option, const std::string& text) {
  // The syntax of study factors and ranged --set (study/value_spec.hpp); here every value
  // must be a whole number of 0 or more.
  ValueList out;
  for (const std::string& v : study::expand_values("--" + option, text, kMaxPoints))
    out.values.push_back(parse_number(option, text, v));
  out.is_range = study::is_multi_value(text);
  return out;
}

}  // namespace gpusim::cli
