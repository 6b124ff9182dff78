// The sectored cache alone: replacement, miss merging, a way freed by dropping its last
// sector, the tag search past a group of ways and over many lines alike (with the filter of
// held lines), and a cache empty when made (its arrays are zeros it does not write).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <utility>
#include <vector>

#include "memory/cache/sectored_cache.hpp"

namespace gpusim::memory {
namespace {

// `sets` x `ways` of 128-byte lines with 32-byte sectors, LRU.
CacheConfig geometry(int64_t sets, int ways) {
  CacheConfig g;
  g.size_bytes = sets * ways * 128;
  g.line_bytes = 128;
  g.sector_bytes = 32;
  g.associativity = ways;
  return g;
}

TEST(SectoredCache, LruReplacementAndMissMerging) {
  SectoredCache c(geometry(2, 2));
  // Lines 0, 2 and 4 (x 128 bytes) all map to set 0.
  EXPECT_FALSE(c.probe(0).present);
  c.fill(0, 100, false);
  const auto merged = c.probe(0);  // a second miss while the first is in flight
  EXPECT_TRUE(merged.present);
  EXPECT_EQ(merged.ready_at, 100u);
  EXPECT_FALSE(c.probe(32).present);  // another sector of the same line is not there
  c.fill(256, 0, true);               // line 2, dirty
  c.probe(0);                         // touch line 0: line 2 is now least recently used
  EXPECT_EQ(c.fill(512, 0, false), 1u);  // line 4 evicts line 2 and its dirty sector
  EXPECT_TRUE(c.probe(0).present);
  EXPECT_FALSE(c.probe(256).present);
  EXPECT_TRUE(c.write_hit(512));
  EXPECT_EQ(c.dirty_sectors(), 1u);
}

TEST(SectoredCache, AWayWhoseLastSectorWasDroppedIsFilledBeforeAnyLineIsEvicted) {
  // One set of 6 ways (more than a group of four compared at once). Lines 0-5 fill it, line 3
  // loses its only sector, and line 6 takes that way: nothing evicted, lines 0-2 and 4-5 stay
  // (least recently used: line 0). Line 7 then evicts line 0, dirty.
  SectoredCache c(geometry(1, 6));
  for (uint64_t line = 0; line < 6; ++line) EXPECT_EQ(c.fill(line * 128, 0, line == 0), 0u);
  c.invalidate(3 * 128);
  EXPECT_FALSE(c.probe(3 * 128).present);
  EXPECT_EQ(c.fill(6 * 128, 0, false), 0u);
  for (uint64_t line : {0, 1, 2, 4, 5, 6}) EXPECT_TRUE(c.contains(line * 128)) << line;
  EXPECT_EQ(c.fill(7 * 128, 0, false), 1u);
  EXPECT_FALSE(c.contains(0));
  EXPECT_TRUE(c.contains(5 * 128));  // found in the ways past the first four
}

TEST(SectoredCache, AgreesWithAnLruListOverManyLinesOfOneSet) {
  // One set of 20 ways (not a multiple of sixteen: the search's last group is partly past the
  // set) and 60 lines competing for it, against a list kept in order of use: probes,
  // fills of absent lines (dirty, so a fill says whether it evicted), and drops of a line's
  // only sector. Of 60 lines, several share the one-byte hash the search compares first, and
  // many share a slot of the filter that rules absent lines out (40 slots' worth, rounded up
  // to 64): a count that falls short of its lines (a held line ruled out) fails here.
  SectoredCache c(geometry(1, 20));
  std::vector<uint64_t> lru;  // least recently used first
  std::mt19937_64 random(7);
  std::vector<uint64_t> pool(60);  // lines spread over 40 bits: consecutive ones would hash apart
  for (uint64_t& line : pool) line = random() % (uint64_t{1} << 40);
  const auto held = [&](uint64_t line) { return std::find(lru.begin(), lru.end(), line) != lru.end(); };
  const auto use = [&](uint64_t line) {
    std::erase(lru, line);
    lru.push_back(line);
  };
  for (int step = 0; step < 20000; ++step) {
    const uint64_t line = pool[random() % pool.size()], address = line * 128;
    const uint32_t what = random() % 10;
    if (what < 5 || (what < 9 && held(line))) {
      ASSERT_EQ(c.probe(address).present, held(line)) << "step " << step << " line " << line;
      if (held(line)) use(line);
    } else if (what < 9) {
      const bool evicts = lru.size() == 20;
      const uint64_t victim = evicts ? lru.front() : 0;
      ASSERT_EQ(c.fill(address, 0, true), evicts ? 1u : 0u) << "step " << step;
      if (evicts) {
        lru.erase(lru.begin());
        ASSERT_FALSE(c.contains(victim * 128)) << "step " << step;
      }
      use(line);
    } else if (held(line)) {
      c.invalidate(address);
      std::erase(lru, line);
      ASSERT_FALSE(c.contains(address)) << "step " << step;
    }
  }
  for (uint64_t line : pool) EXPECT_EQ(c.contains(line * 128), held(line)) << line;
}

// Whether every way of `c` (sets x ways) is free: `ways` lines of one set fit without an
// eviction, and none of them was there before.
void expect_empty(SectoredCache& c, uint64_t sets, uint32_t ways) {
  for (uint64_t set : {uint64_t{0}, sets / 2, sets - 1})
    for (uint64_t k = 0; k < ways; ++k) {
      const uint64_t address = (k * sets + set) * 128;
      EXPECT_FALSE(c.contains(address)) << "set " << set << " line " << k;
      EXPECT_EQ(c.fill(address, 0, true), 0u) << "set " << set << " line " << k;
    }
}

TEST(SectoredCache, MadeEmptyEvenInMemoryJustFreedDirty) {
  // Small arrays come from calloc, large ones (from 64 KB of records) are mapped: both start
  // with every way free, and line 0, whose stored tag is all ones, and the highest line are
  // told apart from a free way.
  for (const auto& [sets, ways] : {std::pair<uint64_t, uint32_t>{4, 6}, {1024, 16}}) {
    const uint64_t highest = ~uint64_t{0} - 127;
    {
      SectoredCache dirty(geometry(static_cast<int64_t>(sets), static_cast<int>(ways)));
      for (uint64_t line = 0; line < sets * ways; ++line) dirty.fill(line * 128, 7, true);
      dirty.fill(highest, 7, true);
    }
    SectoredCache c(geometry(static_cast<int64_t>(sets), static_cast<int>(ways)));
    EXPECT_FALSE(c.contains(0)) << sets;
    EXPECT_FALSE(c.contains(highest)) << sets;
    EXPECT_EQ(c.dirty_sectors(), 0u) << sets;
    expect_empty(c, sets, ways);
    EXPECT_TRUE(c.contains(0)) << sets;
    c.invalidate_all();
    expect_empty(c, sets, ways);
  }
}

// The random walk of the tests below: 20,000 steps over 64 lines of a cache under test
// (`tested`) and its oracle, each a random sector's probe, dirty fill or drop, done to both
// and expected to agree, or (one kind in `kinds`, the rest) the step under test,
// `step_tested(line, ready, rng, step)`; then the same counts and contents.
template <class StepTested>
void walk_with_oracle(SectoredCache& tested, SectoredCache& oracle, std::mt19937_64& rng, uint64_t kinds,
                      StepTested step_tested) {
  for (int step = 0; step < 20000; ++step) {
    const uint64_t line = rng() % 64;
    const uint64_t address = line * 128 + (rng() % 4) * 32;
    const uint64_t ready = rng() % 1000;
    switch (rng() % kinds) {
      case 0:
        EXPECT_EQ(tested.probe(address, ready).present, oracle.probe(address, ready).present) << step;
        break;
      case 1:
        EXPECT_EQ(tested.fill(address, ready, true), oracle.fill(address, ready, true)) << step;
        break;
      case 2:
        tested.invalidate(address);
        oracle.invalidate(address);
        break;
      default:
        step_tested(line, ready, rng, step);
    }
  }
  EXPECT_EQ(tested.filled_sectors(), oracle.filled_sectors());
  EXPECT_EQ(tested.dirty_sectors(), oracle.dirty_sectors());
  for (uint64_t a = 0; a < 64 * 128; a += 32) {
    const SectoredCache::Probe p = tested.probe(a), q = oracle.probe(a);
    EXPECT_EQ(p.present, q.present) << a;
    EXPECT_EQ(p.ready_at, q.ready_at) << a;
  }
}

TEST(SectoredCache, FillingASpanIsFillingItsAbsentSectorsOneByOne) {
  // The oracle: a second cache given, sector by sector, what fill_span promises (fill()
  // every sector absent, and the one always filled). Random spans of 1-4 sectors over 64
  // lines of a 4 x 4 cache, evict-first or not, among random probes, dirty fills and drops:
  // the same evictions at the same sector, then the same contents.
  std::mt19937_64 rng(7);
  for (const bool evict_first : {false, true}) {
    SectoredCache span(geometry(4, 4));
    SectoredCache one(geometry(4, 4));
    walk_with_oracle(span, one, rng, 5, [&](uint64_t line, uint64_t ready, std::mt19937_64& r, int step) {
      const uint64_t first = line * 128 + (r() % 4) * 32;
      const auto bytes = static_cast<uint32_t>(32 * (1 + r() % ((line * 128 + 128 - first) / 32)));
      const uint64_t always = first + (r() % (bytes / 32)) * 32;
      const SectoredCache::SpanFill got = span.fill_span(first, bytes, always, ready, evict_first);
      SectoredCache::SpanFill want;
      for (uint64_t a = first; a < first + bytes; a += 32) {
        if (a != always && one.contains(a)) continue;
        if (const uint32_t dirty = one.fill(a, ready, false, evict_first)) want = {dirty, a, want.filled};
        ++want.filled;
      }
      EXPECT_EQ(got.evicted_dirty, want.evicted_dirty) << step;
      if (want.evicted_dirty) {
        EXPECT_EQ(got.evicted_at, want.evicted_at) << step;
      }
      EXPECT_EQ(got.filled, want.filled) << step;
    });
  }
}

TEST(SectoredCache, FillingALinesPlaceholdersIsFillingThemOneByOne) {
  // The oracle: a second cache given fill() of each of the sectors, the k-th holding
  // placeholder(first + k) (one lookup and one replacement event a sector). Random sets of a
  // line's absent sectors over 64 lines of a 4 x 4 cache, among random probes, dirty fills
  // and drops, under each replacement policy (one event for the line must leave the same
  // victims as one a sector), the lowest sector resolved where fill_placeholders() says it
  // placed the line: the same evictions and contents.
  for (const char* policy : {"lru", "fifo", "srrip"}) {
    SCOPED_TRACE(policy);
    std::mt19937_64 rng(11);
    CacheConfig g = geometry(4, 4);
    g.replacement = policy;
    SectoredCache together(g);
    SectoredCache one(g);
    uint32_t next = 0;  // placeholders handed out
    walk_with_oracle(together, one, rng, 4, [&](uint64_t line, uint64_t ready, std::mt19937_64& r, int) {
      const auto wanted = static_cast<uint32_t>(1 + r() % 15);  // some of the line's four sectors
      uint32_t sectors = 0;
      for (uint32_t s = 0; s < 4; ++s)
        if ((wanted >> s & 1u) && !one.contains(line * 128 + s * 32)) sectors |= 1u << s;
      if (!sectors) return;
      const uint32_t first = next;
      const SectoredCache::Placed placed = together.fill_placeholders(line * 128, sectors, first);
      for (uint32_t s = 0; s < 4; ++s)
        if (sectors >> s & 1u) one.fill(line * 128 + s * 32, SectoredCache::placeholder(next++), false);
      // The lowest resolved where the line was placed; in the oracle, filled again with that
      // time (its line was just filled: one more event leaves it where it is).
      const uint64_t lowest = line * 128 + static_cast<uint64_t>(std::countr_zero(sectors)) * 32;
      together.resolve(placed, lowest, SectoredCache::placeholder(first), ready);
      one.fill(lowest, ready, false);
    });
  }
}

TEST(SectoredCache, APlaceholderIsResolvedWhereItWasPutWhileItsLineIsThere) {
  // One set of two ways, LRU. Lines 0 and 1 arrive with placeholders 0 and 1; line 2 evicts
  // line 0, and line 0 comes back (placeholder 2) in line 1's way. Only the last resolve has
  // a sector to set: line 0's first placement and line 1 are gone.
  SectoredCache c(geometry(1, 2));
  const SectoredCache::Placed first = c.fill_placeholders(0, 1, 0);
  const SectoredCache::Placed second = c.fill_placeholders(128, 1, 1);
  EXPECT_NE(first.way, second.way);
  EXPECT_EQ(c.fill(256, 7, false), 0u);  // evicts line 0 (least recently used)
  const SectoredCache::Placed again = c.fill_placeholders(0, 1, 2);
  EXPECT_EQ(again.way, second.way);
  c.resolve(first, 0, SectoredCache::placeholder(0), 50);
  c.resolve(second, 128, SectoredCache::placeholder(1), 60);
  EXPECT_EQ(c.probe(0).ready_at, SectoredCache::placeholder(2));
  EXPECT_EQ(c.probe(256).ready_at, 7u);
  EXPECT_FALSE(c.probe(128).present);
  c.resolve(again, 0, SectoredCache::placeholder(2), 70);
  EXPECT_EQ(c.probe(0).ready_at, 70u);
}

}  // namespace
}  // namespace gpusim::memory
