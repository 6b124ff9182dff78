// Latency grows with the queue in front of a DRAM channel or an L2 slice; miss-status
// registers bound what is in flight; FIFO replacement as a second replacement plug-in.
#include <gtest/gtest.h>
#include <string>

#include "memory/cache/sectored_cache.hpp"
#include "memory/dram/dram.hpp"
#include "memory/l2.hpp"
#include "memory/mshr.hpp"

namespace gpusim::memory {
namespace {

// A 64 KB, 4-way L2 of one slice with a 200-cycle hit.
L2Config one_slice_l2() {
  L2Config config;
  config.size_bytes = 64 * 1024;
  config.associativity = 4;
  config.latency = 200;
  config.slices = 1;
  return config;
}

TEST(Queueing, DramLatencyGrowsWithTheQueueOnAChannel) {
  // One channel at 1 byte per cycle (1 GB/s at 1000 MHz), 100 cycles of latency: eight
  // 32-byte reads arriving together finish 32 cycles apart.
  MemoryStats stats;
  Dram dram({.latency = 100, .bandwidth_gbs = 1.0, .channels = 1}, 1000, stats);
  for (uint64_t k = 1; k <= 8; ++k) EXPECT_EQ(dram.access(k * 4096, 32, false, 0), 32 * k + 100);
  EXPECT_EQ(dram.drained_at(), 256u);
  // Arriving after the queue has drained, a read sees the latency alone.
  EXPECT_EQ(dram.access(0, 32, false, 1000), 1000u + 32 + 100);
  EXPECT_EQ(stats.dram_read_bytes, 9u * 32);
}

TEST(Queueing, AnL2SliceTakesOneSectorPerCycle) {
  MemoryStats stats;
  Dram dram({.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats);
  const L2Config config = one_slice_l2();
  L2 l2(config, 1, dram, stats);
  for (uint64_t s = 0; s < 16; ++s) l2.write(s * 32, true, 0, 0);  // 16 sectors, now resident (and dirty)
  // Sixteen reads of them arriving at cycle 1000 are served in cycles 1000..1015: the k-th
  // waits k cycles in front of the slice, then the hit latency.
  for (uint64_t s = 0; s < 16; ++s) EXPECT_EQ(l2.read(s * 32, 0, 1000), 1000 + s + 200);
  EXPECT_EQ(stats.l2_hits, 16u);
  EXPECT_EQ(stats.l2_misses, 0u);
}

// A partial sector is read, merged and written back in its slice: with partial_write_cycles
// 1.5, eight partial writes arriving together hold the slice 12 cycles, so a read arriving with
// them waits until cycle 12; whole-sector writes hold it one cycle each (8).
TEST(Queueing, PartialSectorWritesHoldTheSliceLonger) {
  const auto read_after_writes = [](bool whole) {
    MemoryStats stats;
    Dram dram({.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats);
    L2Config config = one_slice_l2();
    config.partial_write_cycles = 1.5;
    L2 l2(config, 1, dram, stats);
    for (uint64_t s = 0; s < 8; ++s) l2.write(s * 32, true, 0, 0);  // resident, so no DRAM read
    for (uint64_t s = 0; s < 8; ++s) l2.write(s * 32, whole, 0, 1000);
    return l2.read(0, 0, 1000) - 1000 - 200;  // cycles waited in front of the slice
  };
  EXPECT_EQ(read_after_writes(true), 8u);
  EXPECT_EQ(read_after_writes(false), 12u);
}

// A sector arriving from DRAM is written into its slice's data array: with 64-byte fetches
// (two sectors) and fill_cycles 1.5, a miss holds the slice 1 cycle for its request and
// 2 x 1.5 for the fills, so a hit arriving with it waits 4 cycles, not 1. A second miss in
// the same chunk finds its sector filled: no DRAM read, no fill.
TEST(Queueing, DramFillsHoldTheSlice) {
  const auto waited = [](double fill_cycles) {
    MemoryStats stats;
    Dram dram({.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats);
    L2Config config = one_slice_l2();
    config.fetch_bytes = 64;
    config.fill_cycles = fill_cycles;
    L2 l2(config, 1, dram, stats);
    l2.write(4096, true, 0, 0);  // resident
    l2.read(0, 0, 1000);         // a miss: sectors 0 and 1 come from DRAM
    const engine::Cycle hit = l2.read(4096, 0, 1000) - 1000 - 200;
    l2.read(32, 0, 2000);  // sector 1 is already there
    l2.read(4096, 0, 2000);
    EXPECT_EQ(stats.dram_read_bytes, 64u);
    return hit;
  };
  EXPECT_EQ(waited(0), 1u);
  EXPECT_EQ(waited(1.5), 4u);
}

// A partial write that must read its chunk merges the data in its own slice time
// (partial_write_cycles): it pays no fill on top (micro_scattered_write).
TEST(Queueing, APartialWriteThatReadsDramPaysNoFill) {
  MemoryStats stats;
  Dram dram({.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats);
  L2Config config = one_slice_l2();
  config.fetch_bytes = 64;
  config.fill_cycles = 1.5;
  config.partial_write_reads = true;
  config.partial_write_cycles = 2;
  L2 l2(config, 1, dram, stats);
  l2.write(4096, true, 0, 0);
  l2.write(0, false, 0, 1000);  // misses: reads the 64-byte chunk, merges
  EXPECT_EQ(stats.dram_read_bytes, 64u);
  EXPECT_EQ(l2.read(4096, 0, 1000), 1000u + 2 + 200);  // behind the merge alone
}

TEST(Queueing, MissStatusRegistersBoundWhatIsInFlight) {
  MshrFile none(0);
  EXPECT_FALSE(none.limited());
  EXPECT_EQ(none.free_at(50), 50u);
  MshrFile two(2);
  EXPECT_EQ(two.free_at(0), 0u);
  two.release(two.acquire(0), 300);
  two.release(two.acquire(0), 200);
  EXPECT_EQ(two.held(0), 2);
  EXPECT_EQ(two.free_at(10), 200u);  // both held: the first to free is at 200
  const size_t again = two.acquire(10);
  two.release(again, 700);  // that register, reused from 200
  EXPECT_EQ(two.free_at(250), 300u);
  EXPECT_EQ(two.held(250), 2);
  EXPECT_EQ(two.held(800), 0);
}

TEST(Replacement, FifoEvictsTheOldestFillHoweverOftenItWasHit) {
  CacheConfig g;
  g.size_bytes = 256;  // one set of two 128-byte lines
  g.associativity = 2;
  g.replacement = "fifo";
  SectoredCache fifo(g);
  fifo.fill(0, 0, false);    // line 0 first
  fifo.fill(128, 0, false);  // line 1
  fifo.probe(0);             // hits do not refresh a line under FIFO
  fifo.fill(256, 0, false);  // line 2 evicts line 0
  EXPECT_FALSE(fifo.probe(0).present);
  EXPECT_TRUE(fifo.probe(128).present);
  g.replacement = "lru";
  SectoredCache lru(g);
  lru.fill(0, 0, false);
  lru.fill(128, 0, false);
  lru.probe(0);             // LRU: the hit keeps line 0
  lru.fill(256, 0, false);  // and line 1 goes
  EXPECT_TRUE(lru.probe(0).present);
  EXPECT_FALSE(lru.probe(128).present);
}

// One set of four 128-byte lines, lines A-H at 0, 128, ... (all in set 0).
SectoredCache four_way(const char* policy) {
  CacheConfig g;
  g.size_bytes = 512;
  g.associativity = 4;
  g.replacement = policy;
  return SectoredCache(g);
}

TEST(Replacement, SrripKeepsALineThatWasHitThroughAScanWhereLruLosesIt) {
  for (const char* policy : {"srrip", "lru"}) {
    SectoredCache c = four_way(policy);
    for (uint64_t line = 0; line < 4; ++line) c.fill(line * 128, 0, false);  // A-D, each predicted "long" (2)
    c.probe(0, 10);  // A hit: "near" (0)
    // E-G: B, C, D are aged to "distant" (3) and go one by one; A is aged to 1 on the way.
    for (uint64_t line = 4; line < 7; ++line) c.fill(line * 128, 0, false);
    EXPECT_TRUE(c.contains(0)) << policy;  // LRU too: A was the last used
    c.fill(7 * 128, 0, false);  // H: SRRIP ages A to 2 and E-G to 3 and gives up E; LRU gives up A
    EXPECT_EQ(c.contains(0), std::string(policy) == "srrip") << policy;
    EXPECT_EQ(c.contains(4 * 128), std::string(policy) == "lru") << policy;
  }
}

TEST(Replacement, SrripCountsNoReuseForTheRestOfAnAccess) {
  // Line A's second sector arriving, and a request meeting its first while it is on its way,
  // leave A predicted "long": with B-D, the fifth line evicts A (the first way of the oldest).
  for (const bool reused : {false, true}) {
    SectoredCache c = four_way("srrip");
    c.fill(0, 100, false);
    c.fill(32, 100, false);            // A's second sector: the same access
    c.probe(0, reused ? 200 : 50);     // at 50 its data is still arriving; at 200 it is a hit
    for (uint64_t line = 1; line < 5; ++line) c.fill(line * 128, 0, false);
    EXPECT_EQ(c.contains(0), reused) << reused;
    EXPECT_EQ(c.contains(128), !reused) << reused;  // else B was the victim
  }
}

TEST(Replacement, SrripEvictsALineFilledEvictFirstBeforeTheOthers) {
  SectoredCache c = four_way("srrip");
  c.fill(0, 0, false);
  c.fill(128, 0, false, /*evict_first=*/true);
  c.fill(256, 0, false);
  c.fill(384, 0, false);
  c.fill(512, 0, false);
  EXPECT_FALSE(c.contains(128));
  EXPECT_TRUE(c.contains(0));
}

TEST(Replacement, PoliciesAreFoundByName) {
  EXPECT_NE(ReplacementRegistry::instance().find("lru"), nullptr);
  EXPECT_NE(ReplacementRegistry::instance().find("fifo"), nullptr);
  EXPECT_NE(ReplacementRegistry::instance().find("srrip"), nullptr);
  EXPECT_EQ(ReplacementRegistry::instance().find("random"), nullptr);
  EXPECT_THROW(ReplacementRegistry::instance().make("random", 1, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gpusim::memory
