#include "util/seen_set.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>

namespace gpusim::util {
namespace {

// The oracle is std::set: for every key, new exactly when the set had not held it.
void expect_like_std_set(const std::vector<uint64_t>& keys) {
  SeenSet seen;
  std::set<uint64_t> held;
  for (size_t i = 0; i < keys.size(); ++i)
    ASSERT_EQ(seen.insert(keys[i]), held.insert(keys[i]).second) << "key " << i << ": " << keys[i];
}

TEST(SeenSet, AWarpsScatteredSectorsAreEachNewOnce) {
  // 32 lanes, a row of 16 KB apart each (a thread per row), two sectors each, met twice.
  std::vector<uint64_t> keys;
  for (int round = 0; round < 2; ++round)
    for (uint64_t lane = 0; lane < 32; ++lane)
      for (uint64_t s = 0; s < 2; ++s) keys.push_back(0x7f0000000000ull + lane * 16384 + s * 32);
  SeenSet seen;
  int fresh = 0;
  for (uint64_t k : keys) fresh += seen.insert(k);
  EXPECT_EQ(fresh, 64);
  expect_like_std_set(keys);
}

TEST(SeenSet, TheLastKeyInTheTableAndTheFirstInTheListAreTold) {
  // The table takes 128 keys (half its slots), the list the rest: each met again after both.
  std::vector<uint64_t> keys;
  for (uint64_t k = 0; k < 130; ++k) keys.push_back(k * 128);
  for (uint64_t k = 0; k < 130; ++k) keys.push_back(k * 128);
  expect_like_std_set(keys);
  SeenSet seen;
  for (uint64_t k = 0; k < 130; ++k) ASSERT_TRUE(seen.insert(k * 128));
  EXPECT_FALSE(seen.insert(127 * 128));  // the table's last
  EXPECT_FALSE(seen.insert(128 * 128));  // the list's first
  EXPECT_TRUE(seen.insert(130 * 128));
}

TEST(SeenSet, MoreKeysThanTheTableHoldsGoOnBeingTold) {
  // Past 128 keys the rest are kept in a list: 1,000 random keys from 600 values, so that
  // repeats fall in both the table and the list.
  std::mt19937_64 random(17);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(random() % 600 * 0x1000);
  expect_like_std_set(keys);
}

TEST(SeenSet, ClearedItTellsEveryKeyNewAgain) {
  // 200 keys fill the table and the list; cleared, each is new once more, and then not.
  SeenSet seen;
  for (uint64_t k = 0; k < 200; ++k) ASSERT_TRUE(seen.insert(k * 128));
  seen.clear();
  for (uint64_t k = 0; k < 200; ++k) ASSERT_TRUE(seen.insert(k * 128)) << k;
  for (uint64_t k = 0; k < 200; ++k) ASSERT_FALSE(seen.insert(k * 128)) << k;
}

// FirstSeen, for a caller that lists the new keys: against std::set the same way.
void expect_first_seen_like_std_set(const std::vector<uint64_t>& keys) {
  FirstSeen seen;
  std::vector<uint64_t> listed;
  std::set<uint64_t> held;
  const auto list = [&listed](auto add) {
    for (uint64_t k : listed) add(k);
  };
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool fresh = seen.insert(keys[i], list);
    ASSERT_EQ(fresh, held.insert(keys[i]).second) << "key " << i << ": " << keys[i];
    if (fresh) listed.push_back(keys[i]);
  }
}

TEST(FirstSeen, AscendingKeysAndThenOnesOutOfOrderAreEachNewOnce) {
  // A row per lane, ascending, each met twice in a row; then the same rows backwards (all
  // met before), then new keys between and below them.
  std::vector<uint64_t> keys;
  for (uint64_t lane = 0; lane < 32; ++lane) keys.insert(keys.end(), 2, 0x7f0000000000ull + lane * 16384);
  for (uint64_t lane = 32; lane-- > 0;) keys.push_back(0x7f0000000000ull + lane * 16384);
  for (uint64_t lane = 0; lane < 32; ++lane) keys.push_back(0x7f0000000000ull + lane * 16384 + 32);
  keys.push_back(0x10);
  keys.push_back(0x10);
  expect_first_seen_like_std_set(keys);
}

TEST(FirstSeen, RandomKeysAreToldAsBySeenSet) {
  // Runs of ascending keys broken at random, past the table's 128 keys too.
  std::mt19937_64 random(29);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<uint64_t> keys;
    uint64_t k = random() % 64;
    for (int i = 0; i < 300; ++i) {
      k = random() % 4 == 0 ? random() % 400 : k + random() % 3;
      keys.push_back(k * 32);
    }
    expect_first_seen_like_std_set(keys);
  }
}

TEST(FirstSeen, ClearedItForgetsTheKeysItsTableHeld) {
  // 5 then 3 fill the table; cleared, 7 then 3 find 3 new again (the table forgot it), and
  // 5, met before the clear only, is new too.
  FirstSeen seen;
  std::vector<uint64_t> listed;
  const auto list = [&listed](auto add) {
    for (uint64_t k : listed) add(k);
  };
  for (uint64_t k : {5, 3}) {
    ASSERT_TRUE(seen.insert(k, list));
    listed.push_back(k);
  }
  seen.clear();
  listed.clear();
  for (uint64_t k : {7, 3, 5}) {
    EXPECT_TRUE(seen.insert(k, list)) << k;
    listed.push_back(k);
  }
  EXPECT_FALSE(seen.insert(3, list));
}

}  // namespace
}  // namespace gpusim::util
