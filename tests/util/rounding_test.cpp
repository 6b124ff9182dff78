#include "util/rounding.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace gpusim::util {
namespace {

// The oracle is libm: every value here, and 10,000 more on a grid of quarters and thirds,
// must round as std::ceil and std::llround do.
std::vector<double> samples() {
  std::vector<double> v = {0.0,
                           0.5,
                           1.0,
                           1.5,
                           2.5,
                           0.49999999999999994,  // the largest double below 0.5: llround gives 0
                           std::nextafter(1.0, 0.0),
                           std::nextafter(1.0, 2.0),
                           4503599627370495.5,  // 2^52 - 0.5: the last half a double holds
                           4503599627370496.0,  // 2^52: every double from here on is whole
                           9007199254740993.0,
                           1e18};
  for (int i = 0; i < 10000; ++i) {
    v.push_back(i / 4.0);
    v.push_back(i / 3.0);
  }
  return v;
}

TEST(Rounding, CeilMatchesLibm) {
  for (double x : samples()) EXPECT_EQ(ceil_nonnegative(x), static_cast<uint64_t>(std::ceil(x))) << x;
}

TEST(Rounding, RoundMatchesLibmHalvesAwayFromZero) {
  for (double x : samples()) EXPECT_EQ(round_nonnegative(x), static_cast<uint64_t>(std::llround(x))) << x;
  EXPECT_EQ(round_nonnegative(2.5), 3u);
  EXPECT_EQ(round_nonnegative(0.49999999999999994), 0u);  // x + 0.5 would round up to 1
}

}  // namespace
}  // namespace gpusim::util
