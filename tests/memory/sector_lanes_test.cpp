// memory/sector_lanes.hpp: each sector's hot word and written bytes for a whole request,
// checked by hand and against the definitions (hot_word() of the sector's range; the sum of
// each lane's overlap with the sector) on random requests.
#include "memory/sector_lanes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <random>

namespace gpusim::memory {
namespace {

TEST(SectorLanes, TheHotWordIsTheMostUpdatedAndBetweenEqualsTheLowerLanes) {
  // Sector 0: word 8 by lanes 2 and 4, word 12 by lanes 1 and 30: as many updates, and lane 1
  // is lower, so word 12. Sector 64: word 64 by lane 0, word 68 by lanes 3, 5 and 7.
  std::array<uint64_t, 32> a{};
  a[2] = a[4] = 8;
  a[1] = a[30] = 12;
  a[0] = 64;
  a[3] = a[5] = a[7] = 68;
  const uint32_t mask = 1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 5 | 1u << 7 | 1u << 30;
  std::vector<SectorHot> hot;
  list_hot_words(a.data(), mask, 32, hot);
  ASSERT_EQ(hot.size(), 2u);
  EXPECT_EQ(hot[0].sector, 0u);
  EXPECT_EQ(hot[0].hot.address, 12u);
  EXPECT_EQ(hot[0].hot.updates, 2u);
  EXPECT_EQ(hot[1].sector, 64u);
  EXPECT_EQ(hot[1].hot.address, 68u);
  EXPECT_EQ(hot[1].hot.updates, 3u);
  EXPECT_EQ(hot_word(a.data(), mask, 0, 32).address, 12u);
}

TEST(SectorLanes, HotWordsOfRandomRequestsAreHotWordsOfEachSectorsRange) {
  std::mt19937_64 rng(17);
  std::vector<SectorHot> hot;
  for (int request = 0; request < 2000; ++request) {
    std::array<uint64_t, 32> a{};
    // Few words in few sectors: lanes share words, and words of one sector tie.
    const uint64_t words = 1 + rng() % 24;
    for (uint64_t& x : a) x = 4096 + 4 * (rng() % words) * (1 + rng() % 3);
    const auto mask = static_cast<uint32_t>(rng());
    list_hot_words(a.data(), mask, 32, hot);
    std::map<uint64_t, bool> sectors;  // every sector a lane of the mask updates
    for (uint32_t l = 0; l < 32; ++l)
      if (mask >> l & 1u) sectors[a[l] / 32 * 32] = true;
    ASSERT_EQ(hot.size(), sectors.size());
    size_t i = 0;
    for (const auto& [sector, unused] : sectors) {
      const HotWord want = hot_word(a.data(), mask, sector, sector + 32);
      ASSERT_EQ(hot[i].sector, sector);
      EXPECT_EQ(hot[i].hot.address, want.address) << "request " << request;
      EXPECT_EQ(hot[i].hot.updates, want.updates) << "request " << request;
      ++i;
    }
  }
}

TEST(SectorLanes, WrittenBytesAreEachSectorsSumOverItsLanes) {
  // By hand: eight lanes in reverse order fill sector 32 (32 bytes); two lanes of 8 bytes write
  // 16 bytes of sector 96; one lane writes 4 bytes of sector 1024.
  std::array<uint64_t, 32> a{};
  for (uint64_t l = 0; l < 8; ++l) a[l] = 32 + (7 - l) * 4;
  a[8] = 96;
  a[9] = 112;
  a[10] = 1024;
  std::vector<SectorBytes> written;
  list_written(a.data(), 0xFFu, 4, 32, written);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0].bytes, 32u);
  std::array<uint64_t, 32> b{};
  b[0] = 96, b[1] = 112, b[2] = 1024;
  list_written(b.data(), 0b11u, 8, 32, written);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0].bytes, 16u);
  // At random, against the definition: each lane's overlap with each sector, summed.
  std::mt19937_64 rng(23);
  for (int request = 0; request < 2000; ++request) {
    const uint32_t bytes = 1u << (rng() % 5);  // 1 to 16, aligned to itself
    std::array<uint64_t, 32> c{};
    for (uint64_t& x : c) x = (rng() % 512) * bytes;
    const auto mask = static_cast<uint32_t>(rng());
    std::map<uint64_t, uint32_t> want;
    for (uint32_t l = 0; l < 32; ++l)
      if (mask >> l & 1u)
        for (uint64_t s = c[l] / 32 * 32; s < c[l] + bytes; s += 32)
          want[s] += static_cast<uint32_t>(std::min(c[l] + bytes, s + 32) - std::max(c[l], s));
    list_written(c.data(), mask, bytes, 32, written);
    ASSERT_EQ(written.size(), want.size());
    size_t i = 0;
    for (const auto& [sector, sum] : want) {
      EXPECT_EQ(written[i].sector, sector);
      EXPECT_EQ(written[i].bytes, sum) << "request " << request;
      ++i;
    }
  }
}

TEST(SectorLanes, ASectorIsFoundInOrderOrOutOfIt) {
  const std::vector<SectorBytes> list = {{0, 4}, {64, 8}, {4096, 12}};
  size_t next = 0;
  EXPECT_EQ(find_sector(list, next, 0)->bytes, 4u);
  EXPECT_EQ(next, 1u);
  EXPECT_EQ(find_sector(list, next, 4096)->bytes, 12u);  // past the next one
  EXPECT_EQ(next, 3u);
  EXPECT_EQ(find_sector(list, next, 64)->bytes, 8u);  // back
  EXPECT_EQ(next, 2u);
  EXPECT_EQ(find_sector(list, next, 32), nullptr);  // not listed
  EXPECT_EQ(find_sector(list, next, 8192), nullptr);
}

}  // namespace
}  // namespace gpusim::memory
