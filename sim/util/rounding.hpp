// std::ceil and std::llround of values that are never negative, inline: on baseline x86-64
// (no SSE4.1) both are libm calls, and the L2 and DRAM take one for every access.
#pragma once

#include <cstdint>

namespace gpusim::util {

// std::ceil(x) for 0 <= x < 2^64.
inline uint64_t ceil_nonnegative(double x) {
  const auto whole = static_cast<uint64_t>(x);  // truncates: the floor
  return whole + (static_cast<double>(whole) < x ? 1 : 0);
}

// std::llround(x) (halves away from zero) for 0 <= x < 2^64: below 2^52 x minus its floor is
// exact, and from there on x is whole.
inline uint64_t round_nonnegative(double x) {
  const auto whole = static_cast<uint64_t>(x);
  return whole + (x - static_cast<double>(whole) >= 0.5 ? 1 : 0);
}

}  // namespace gpusim::util
