// A counter declared once (gem5's ADD_STAT): its report name, the report group it belongs
// to, its unit and a one-line description, and the member of the struct that holds it.
// Sums and differences of counter structs walk these declarations, so a new counter is
// added in one place and every report carries it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace gpusim::stats {

template <typename T>
struct Counter {
  std::string_view name;   // report key, e.g. "warp_instructions"
  std::string_view group;  // "" (the launch itself) or "memory"
  std::string_view unit;
  std::string_view description;
  uint64_t T::*member;
};

template <typename T>
void add_counters(T& into, const T& from, std::span<const Counter<T>> counters) {
  for (const Counter<T>& c : counters) into.*c.member += from.*c.member;
}

template <typename T>
T subtract_counters(const T& a, const T& b, std::span<const Counter<T>> counters) {
  T out{};
  for (const Counter<T>& c : counters) out.*c.member = a.*c.member - b.*c.member;
  return out;
}

}  // namespace gpusim::stats
