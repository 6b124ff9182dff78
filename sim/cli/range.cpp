#include "cli/range.hpp"

#include <cerrno>
#include <cstdlib>
#include <sstream>

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

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!s.empty() && s.back() == sep) parts.emplace_back();
  return parts;
}

}  // namespace

ValueList parse_value_list(const std::string& option, const std::string& text) {
  ValueList out;
  if (text.find(',') != std::string::npos) {
    for (const std::string& part : split(text, ',')) out.values.push_back(parse_number(option, text, part));
    out.is_range = true;
    return out;
  }
  const auto parts = split(text, ':');
  if (parts.size() == 1) {
    out.values.push_back(parse_number(option, text, parts[0]));
    return out;
  }
  if (parts.size() > 3) bad(option, text, "expected START:STOP[:STEP]");
  const int64_t start = parse_number(option, text, parts[0]);
  const int64_t stop = parse_number(option, text, parts[1]);
  const int64_t step = parts.size() == 3 ? parse_number(option, text, parts[2]) : 1;
  if (step == 0) bad(option, text, "step must be positive");
  if (stop < start) bad(option, text, "STOP is less than START");
  if ((stop - start) / step + 1 > static_cast<int64_t>(kMaxPoints)) bad(option, text, "too many points");
  for (int64_t v = start; v <= stop; v += step) out.values.push_back(v);
  out.is_range = true;
  return out;
}

}  // namespace gpusim::cli
