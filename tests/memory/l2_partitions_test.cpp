// A partitioned L2 (the H100's two halves): a line lives in its home partition, an SM
// reads through its near one, a far hit costs the hop once and leaves a near copy, and a
// write drops the copies other partitions hold (validate/probes/l2_partitions.py).
#include <gtest/gtest.h>

#include <numeric>

#include "memory/cache/sectored_cache.hpp"
#include "memory/dram/dram.hpp"
#include "memory/l2.hpp"

namespace gpusim::memory {
namespace {

// Two partitions of 32 KB; SM 0 is near partition 0, SM 1 near partition 1; a near hit
// takes 200 cycles, a far one 100 more; DRAM 500.
struct TwoHalves {
  TwoHalves() : TwoHalves(config()) {}
  explicit TwoHalves(const L2Config& c) : l2(c, 2, dram, stats) {}
  MemoryStats stats;
  Dram dram{DramConfig{.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats};
  L2 l2;
  static L2Config config() {
    L2Config c;
    c.size_bytes = 64 * 1024;
    c.associativity = 4;
    c.latency = 200;
    c.slices = 64;
    c.partitions = 2;
    c.far_latency = 100;
    c.sm_partitions = {0, 1};
    return c;
  }
  // The first 4 KB chunk homed in partition `part`.
  uint64_t homed_in(uint32_t part) const {
    for (uint64_t a = 0;; a += 4096)
      if (l2.home(a) == part) return a;
  }
};

TEST(L2Partitions, AFarHitCostsTheHopOnceThenTheCopyIsNear) {
  TwoHalves t;
  const uint64_t a = t.homed_in(1);
  t.l2.write(a, true, 1, 0);                      // SM 1 writes it: in partition 1 only
  EXPECT_EQ(t.l2.read(a, 0, 1000), 1000u + 200 + 100);  // SM 0: found far
  EXPECT_EQ(t.stats.l2_far_hits, 1u);
  EXPECT_EQ(t.l2.read(a, 0, 2000), 2000u + 200);  // now near
  EXPECT_EQ(t.l2.read(a, 1, 3000), 3000u + 200);  // and still at home
  EXPECT_EQ(t.stats.l2_far_hits, 1u);
  EXPECT_EQ(t.stats.l2_hits, 3u);
  EXPECT_EQ(t.stats.l2_misses, 0u);
}

TEST(L2Partitions, AWriteDropsTheOtherSidesCopyAndKeepsTheWritersOwn) {
  TwoHalves t;
  const uint64_t a = t.homed_in(1);
  t.l2.write(a, true, 1, 0);
  t.l2.read(a, 0, 1000);                          // SM 0 holds a copy
  t.l2.write(a, true, 1, 2000);                   // SM 1's store makes it stale: dropped
  EXPECT_EQ(t.l2.read(a, 0, 3000), 3000u + 300);  // far again
  t.l2.write(a, true, 0, 4000);                   // SM 0's own store: home updated, copy kept
  EXPECT_EQ(t.l2.read(a, 0, 5000), 5000u + 200);
  EXPECT_EQ(t.l2.read(a, 1, 6000), 6000u + 200);
  EXPECT_EQ(t.stats.l2_far_hits, 2u);
}

TEST(L2Partitions, AMissFillsTheHomeAndTheReadersSide) {
  TwoHalves t;
  const uint64_t near = t.homed_in(0), far = t.homed_in(1);
  EXPECT_GT(t.l2.read(far, 0, 0), 500u);          // from DRAM
  EXPECT_EQ(t.l2.read(far, 0, 10000), 10000u + 200);  // a near copy
  EXPECT_EQ(t.l2.read(far, 1, 11000), 11000u + 200);  // and at home
  t.l2.read(near, 0, 12000);                      // homed near: no copy
  EXPECT_EQ(t.l2.read(near, 1, 20000), 20000u + 300);
  // Each sector is held twice: at home and on the other side (far's since its miss, near's
  // since SM 1's far hit).
  const L2Occupancy held = t.l2.occupancy();
  EXPECT_EQ(held.entered_bytes, 4u * 32);
  // Two lines, each held twice, and each counted once: where it is at home.
  EXPECT_EQ(std::accumulate(held.lines_per_set.begin(), held.lines_per_set.end(), 0u), 2u);
  EXPECT_EQ(held.lines_per_set.size(), 2u * 64);
  EXPECT_EQ(t.stats.l2_misses, 2u);
}

// --sample's test of whether the L2 would evict (core/wave_sampler.hpp). A partition of
// 32 KB is 256 lines of 128 B in 64 modulo sets of 4 ways. A 4 KB chunk (the unit of homes)
// at a multiple of 8 KB is one line in each of sets 0-31 of its home partition. Copies of
// lines homed elsewhere are clean and evicted first: they take no room a line needs.
TEST(L2Partitions, KeepsAllWhileEverySetHasRoomForItsHomeLines) {
  TwoHalves t;
  // Chunks at multiples of 8 KB homed in `part`, from `from` on.
  const auto chunks = [&](uint32_t part, int count, uint64_t from = 0) {
    std::vector<AddressRange> out;
    for (uint64_t a = from; static_cast<int>(out.size()) < count; a += 8192)
      if (t.l2.home(a) == part) out.push_back({a, 4096});
    return out;
  };
  const auto keeps = [&](const std::vector<AddressRange>& ranges) { return t.l2.keeps_all(ranges); };
  std::vector<AddressRange> four = chunks(0, 4);
  EXPECT_TRUE(keeps(four));                 // four lines in each of sets 0-31 of partition 0
  EXPECT_FALSE(keeps(chunks(0, 5)));        // a fifth
  std::vector<AddressRange> both = four;
  for (const AddressRange& r : chunks(1, 4)) both.push_back(r);
  EXPECT_TRUE(keeps(both));                 // four more, at home in partition 1: both are full
  EXPECT_FALSE(keeps({{0, 64 * 1024 + 1}}));  // more than the whole L2
  // SM 0 reads a line homed in partition 1 that maps to set 0: its home holds it, and
  // partition 0 a copy, which does not count.
  const uint64_t other = chunks(1, 1, 1 << 20).front().base;
  t.l2.read(other, 0, 0);
  EXPECT_TRUE(keeps(four));
  EXPECT_FALSE(keeps(both));  // partition 1's set 0 now holds it at home: five
  // A line homed in partition 0 and held there: a fifth in set 0 there.
  t.l2.read(chunks(0, 1, 1 << 20).front().base, 0, 1000);
  EXPECT_FALSE(keeps(four));
}

TEST(L2Partitions, AWriteIsAcknowledgedFromItsHome) {
  TwoHalves t;
  const uint64_t a = t.homed_in(1);
  EXPECT_EQ(t.l2.write(a, true, 1, 0), 0u + 200);           // SM 1, near its home: a near round trip
  EXPECT_EQ(t.l2.write(a, true, 0, 1000), 1000u + 200 + 100);  // SM 0: the hop both ways
  // A partial sector that misses is merged once its chunk is back from DRAM, but the slice
  // holds the bytes meanwhile: the acknowledgement does not wait for DRAM.
  L2Config partial = TwoHalves::config();
  partial.partial_write_reads = true;
  MemoryStats stats;
  Dram dram{{.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats};
  L2 l2(partial, 2, dram, stats);
  EXPECT_EQ(l2.write(a, false, 1, 2000), 2000u + 200);
  EXPECT_EQ(stats.dram_read_bytes, 32u);  // its chunk was read all the same
}

TEST(L2Partitions, ALinesWriteRequestHoldsItsSliceBeforeItsSectors) {
  // One slice: a line's request (2.5 cycles) goes first, then its sector (one cycle, whole),
  // so the write is taken at cycle 3 (the slice's next whole cycle) and acknowledged 200 later.
  L2Config c = TwoHalves::config();
  c.slices = 1;
  c.write_request_cycles = 2.5;
  TwoHalves built(c);
  L2& l2 = built.l2;
  const uint64_t a = TwoHalves{}.homed_in(0);
  l2.write_request(a, 0);
  EXPECT_EQ(l2.write(a, true, 0, 0), 3u + 200);
  EXPECT_EQ(l2.write(a + 32, true, 0, 0), 4u + 200);  // the next sector of the line: behind the first
}

TEST(L2Partitions, ALinesReadRequestHoldsItsSliceBeforeItsSectors) {
  // One slice, the sectors already there (written): a line's read request (2.5 cycles) goes
  // first, then its sector (0.5): taken at 1002.5, so read at 1003 and back 200 later; the
  // line's next sector rides on the request (1003 to 1003.5); another line's first sector
  // waits for its own request (1003.5 to 1006).
  L2Config c = TwoHalves::config();
  c.slices = 1;
  c.read_request_cycles = 2.5;
  c.read_sector_cycles = 0.5;
  TwoHalves built(c);
  L2& l2 = built.l2;
  const uint64_t a = TwoHalves{}.homed_in(0);
  for (uint64_t s : {a, a + 32, a + 128}) l2.write(s, true, 0, 0);
  EXPECT_EQ(l2.read(a, 0, 1000, true), 1003u + 200);
  EXPECT_EQ(l2.read(a + 32, 0, 1000, false), 1003u + 200);
  EXPECT_EQ(l2.read(a + 128, 0, 1000, true), 1006u + 200);
  // Off (the default), a read holds its slice one cycle and requests are free.
  TwoHalves off;
  L2& plain = off.l2;
  plain.write(a, true, 0, 0);
  EXPECT_EQ(plain.read(a, 0, 1000, true), 1000u + 200);
}

TEST(L2Partitions, LinesDifferingInTheSharedBitsShareAnAtomicUnit) {
  // Bits 0 and 2 of the line index shared (the H100's mask, 5): lines 0 and 4 of a 1 KB block
  // queue at one atomic unit, so the second line's update waits for the first's (10 cycles);
  // line 2 has a unit of its own, and is done when line 0 is.
  L2Config c = TwoHalves::config();
  c.atomic_cycles = 10;
  c.atomic_unit_shared_line_bits = 5;
  const auto done = [&](uint64_t second_line) {
    MemoryStats stats;
    Dram dram{{.latency = 500, .bandwidth_gbs = 1000, .channels = 4}, 1000, stats};
    L2 l2(c, 2, dram, stats);
    const uint64_t base = TwoHalves{}.homed_in(0);  // a 1 KB-aligned block homed near SM 0
    for (uint64_t line : {uint64_t{0}, second_line}) l2.write(base + line * 128, true, 0, 0);  // both in the L2
    const engine::Cycle first = l2.atomic(base, base, 1, false, 0, 1000);
    return l2.atomic(base + second_line * 128, base + second_line * 128, 1, false, 0, 1000) - first;
  };
  EXPECT_EQ(done(4), 10u);
  EXPECT_EQ(done(2), 0u);
}

TEST(L2Partitions, HalfTheChunksAreHomedInEach) {
  TwoHalves t;
  int in_one = 0;
  for (uint64_t chunk = 0; chunk < 1024; ++chunk) {
    const uint32_t h = t.l2.home(chunk * 4096);
    EXPECT_EQ(h, t.l2.home(chunk * 4096 + 4095));  // a chunk is homed whole
    in_one += static_cast<int>(h);
  }
  EXPECT_NEAR(in_one, 512, 48);
}

// memory.l2.copies_evicted_first: a copy enters its set as the next victim, and stays so
// while more of its sectors arrive, until it is hit.
TEST(L2Partitions, ACopyEnteredEvictFirstGoesBeforeOlderLinesUnlessHit) {
  CacheConfig one_set;
  one_set.size_bytes = 256;  // one set of two 128-byte ways
  one_set.associativity = 2;
  const auto survivors = [&](bool hit_copy) {
    SectoredCache c(one_set);
    c.fill(0, 0, false);            // line A
    c.fill(128, 0, false, true);    // copy B, first sector
    c.fill(160, 0, false, true);    // its second sector
    if (hit_copy) c.probe(128);
    c.fill(256, 0, false);          // line C evicts one of them
    return std::pair{c.contains(0), c.contains(128)};
  };
  EXPECT_EQ(survivors(false), std::pair(true, false));  // B went first, though newer
  EXPECT_EQ(survivors(true), std::pair(false, true));   // hit, B is an ordinary line: A (older) goes
}

}  // namespace
}  // namespace gpusim::memory
