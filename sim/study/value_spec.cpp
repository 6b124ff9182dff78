#include "study/value_spec.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "util/params.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace {

[[noreturn]] void bad(const std::string& what, const std::string& text, const std::string& why) {
  throw util::InputError(what + " '" + util::clipped(text) + "': " + why);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

bool is_structured(const std::string& text) { return !text.empty() && (text[0] == '[' || text[0] == '{'); }

double range_number(const std::string& what, const std::string& whole, const std::string& part) {
  double v = 0;
  if (!as_number(part, v)) bad(what, whole, "'" + part + "' is not a number (a range is START:STOP[:STEP] or START:STOP:*FACTOR)");
  return v;
}

// Integers print as integers; other numbers in their shortest exact form.
std::string number_text(double v) { return params::format_number(v); }

}  // namespace

bool as_number(const std::string& text, double& out) {
  const std::string t = trim(text);
  if (t.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v)) return false;
  // strtod also reads "inf", "nan" and hex floats: numbers in a study are decimal.
  for (const char c : t)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
      return false;
  out = v;
  return true;
}

bool is_multi_value(const std::string& text) {
  if (is_structured(text)) return false;
  if (text.find(',') != std::string::npos) return true;
  const auto parts = split(text, ':');
  double ignored = 0;
  return parts.size() >= 2 && parts.size() <= 3 && as_number(parts[0], ignored) && as_number(parts[1], ignored);
}

std::vector<std::string> expand_values(const std::string& what, const std::string& text, size_t max_values) {
  if (is_structured(text)) return {text};
  if (text.find(',') != std::string::npos) {
    std::vector<std::string> out;
    for (const std::string& part : split(text, ',')) {
      const std::string v = trim(part);
      if (v.empty()) bad(what, text, "empty value in the list");
      out.push_back(v);
    }
    if (out.size() > max_values) bad(what, text, "more than " + std::to_string(max_values) + " values");
    return out;
  }
  const auto parts = split(text, ':');
  if (!is_multi_value(text)) {
    double ignored = 0;
    if (parts.size() > 1 && as_number(parts[0], ignored)) {  // meant as a range: say what is wrong with it
      if (parts.size() > 3) bad(what, text, "expected START:STOP[:STEP] or START:STOP:*FACTOR");
      range_number(what, text, parts[1]);
    }
    const std::string v = trim(text);
    if (v.empty()) bad(what, text, "empty value");
    return {v};
  }
  const double start = range_number(what, text, parts[0]);
  const double stop = range_number(what, text, parts[1]);
  if (stop < start) bad(what, text, "STOP is less than START");
  std::vector<std::string> out;
  const std::string step_text = parts.size() == 3 ? trim(parts[2]) : "1";
  if (!step_text.empty() && step_text[0] == '*') {
    const double factor = range_number(what, text, step_text.substr(1));
    if (!(factor > 1)) bad(what, text, "a geometric FACTOR must be more than 1");
    if (!(start > 0)) bad(what, text, "a geometric range must start above 0");
    // Multiplying step by step keeps integers exact (1024, 4096, ...); the tolerance keeps
    // STOP when rounding lands a hair above it.
    for (double v = start; v <= stop * (1 + 1e-12); v *= factor) {
      out.push_back(number_text(v));
      if (out.size() > max_values) bad(what, text, "more than " + std::to_string(max_values) + " values");
    }
    return out;
  }
  const double step = range_number(what, text, step_text);
  if (!(step > 0)) bad(what, text, "STEP must be more than 0");
  const double count = std::floor((stop - start) / step + 1e-9) + 1;
  if (count > static_cast<double>(max_values)) bad(what, text, "more than " + std::to_string(max_values) + " values");
  // Values keep the decimals the range was written with: 0.1:0.5:0.1 gives 0.3, not
  // 0.30000000000000004.
  int decimals = 0;
  for (const std::string& part : {parts[0], step_text})
    if (const auto dot = part.find('.'); dot != std::string::npos && part.find_first_of("eE") == std::string::npos)
      decimals = std::max(decimals, static_cast<int>(trim(part).size() - dot - 1));
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
    const double v = start + static_cast<double>(i) * step;
    const double scale = std::pow(10.0, decimals);
    out.push_back(number_text(decimals ? std::round(v * scale) / scale : v));
  }
  return out;
}

}  // namespace gpusim::study
