#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "util/parallel_for.hpp"

namespace gpusim::util {
namespace {

TEST(ParallelFor, PartsCoverTheRangeInOrderOnce) {
  // 1000 indices, parts of at least 100, 4 threads: 4 parts of 250 (1000 * p / 4).
  std::vector<std::atomic<int>> seen(1000);
  std::vector<std::pair<int64_t, int64_t>> parts(4);
  parallel_for(1000, 4, 100, [&](int64_t p, int64_t begin, int64_t end) {
    parts[static_cast<size_t>(p)] = {begin, end};
    for (int64_t i = begin; i < end; ++i) ++seen[static_cast<size_t>(i)];
  });
  for (const auto& s : seen) EXPECT_EQ(s.load(), 1);
  EXPECT_EQ(parts[0], std::make_pair(int64_t{0}, int64_t{250}));
  EXPECT_EQ(parts[3], std::make_pair(int64_t{750}, int64_t{1000}));
}

TEST(ParallelFor, SmallRangesMakeFewerParts) {
  EXPECT_EQ(parallel_parts(1000, 16, 100), 10);  // no part under 100 indices
  EXPECT_EQ(parallel_parts(99, 16, 100), 1);
  EXPECT_EQ(parallel_parts(0, 4, 100), 1);
  EXPECT_EQ(parallel_parts(1 << 20, 0, 1), 1);  // no threads asked: the caller's alone
  int calls = 0;
  parallel_for(0, 4, 100, [&](int64_t, int64_t begin, int64_t end) {
    ++calls;
    EXPECT_EQ(begin, end);
  });
  EXPECT_EQ(calls, 1);
}

TEST(ParallelFor, TheFirstPartsErrorIsRethrownAfterEveryPartEnds) {
  std::atomic<int> ended{0};
  try {
    parallel_for(400, 4, 1, [&](int64_t p, int64_t, int64_t) {
      ++ended;
      if (p == 1 || p == 3) throw std::runtime_error("part " + std::to_string(p));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "part 1");
  }
  EXPECT_EQ(ended.load(), 4);
}

}  // namespace
}  // namespace gpusim::util
