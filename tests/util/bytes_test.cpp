// util::Bytes: zeros without a zero fill, whatever memory it is given.
#include "util/bytes.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace gpusim::util {
namespace {

bool all_zero(const Bytes& b) { return std::all_of(b.begin(), b.end(), [](uint8_t v) { return v == 0; }); }

TEST(Bytes, MadeWithASizeTheyAreZerosEvenInMemoryJustFreedDirty) {
  // Small sizes come from the heap's free lists, where the previous buffer left its bytes.
  for (size_t n : {size_t{24}, size_t{4096}, size_t{1} << 20}) {
    { Bytes dirty(n, 0xAB); }
    const Bytes b(n);
    ASSERT_EQ(b.size(), n);
    EXPECT_TRUE(all_zero(b)) << n;
  }
}

TEST(Bytes, GrowingPastItsCapacityAddsZeros) {
  Bytes b(16, 7);
  b.resize(b.capacity() + 1000);
  EXPECT_TRUE(std::all_of(b.begin(), b.begin() + 16, [](uint8_t v) { return v == 7; }));
  EXPECT_TRUE(std::all_of(b.begin() + 16, b.end(), [](uint8_t v) { return v == 0; }));
}

TEST(Bytes, ValuesGivenAreKept) {
  const Bytes b = {1, 2, 3};
  EXPECT_EQ(b[0] + b[1] + b[2], 6);
  const Bytes copy = b;
  EXPECT_EQ(copy, b);
  EXPECT_EQ(Bytes(5, 9)[4], 9);
}

}  // namespace
}  // namespace gpusim::util
